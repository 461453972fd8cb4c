/*
** reencode.c -- finishing an edited body (layout, frames or stack depth,
** commit) and re-encoding whole classes, with the stress mode that puts
** a probe at every block start and every branch in its long form.
*/
#include <stdio.h>

#include "an_int.h"

int cr_an_commit(cr_an *an, cr_body *b, cr_diag *d) {
  int rc = cr_body_layout(b, d);
  if (rc) return rc;
  return cr_an_commit_laid(an, b, d);
}

int cr_an_commit_laid(cr_an *an, cr_body *b, cr_diag *d) {
  cr_stackmap *smt = NULL;
  int rc;
  uint32_t nloc = cr_body_max_locals_laid(b);
  if (nloc > 65535)
    return cr_diag_set(d, CR_ETOOLARGE, -1, "%s: max_locals %u over 65535",
                       cr_body_where(b), nloc);
  unsigned major = an->c->major;
  if (major >= 50 && !b->has_jsr) {
    rc = cr_an__frames(an, b, nloc, &smt, d);
  } else if (major >= 51) {
    return cr_diag_set(d, CR_EFORMAT, -1,
                       "%s: jsr/ret in a class of version %u (allowed "
                       "below 51 only)", cr_body_where(b), major);
  } else {
    rc = cr_body_max_stack(b, d);
    b->max_locals = (uint16_t)nloc;
  }
  if (rc) return rc;
  return cr_body_commit(b, smt, d);
}

/* Insert "iconst_0; pop" after 'at' (NULL: at the start). */
static int probe(cr_body *b, cr_insn *at) {
  cr_insn *x = cr_insn_new(b, CR_OP_ICONST_0), *y = cr_insn_new(b, CR_OP_POP);
  if (!x || !y) return CR_ENOMEM;
  cr_body_insert_after(b, at, x);
  cr_body_insert_after(b, x, y);
  return 0;
}

/*
** Stress mode: a probe at the method start, after every label that is a
** jump target or bounds an exception range, and after every conditional
** branch; long branches and 'wide' locals everywhere.
*/
static int stress(cr_body *b, cr_diag *d) {
  cr_an__mark_leaders(b);
  cr_insn *last = b->last;     /* labels after it end the code */
  while (last && last->op == CR_OP_LABEL) last = last->prev;
  for (cr_insn *i = last ? last->next : NULL; i; i = i->next) i->aux = 0;
  int rc = probe(b, NULL);
  for (cr_insn *i = b->first; !rc && i; i = i->next) {
    int after = i->op == CR_OP_LABEL
                    ? i->aux == 1
                    : (cr_op_info(i->op)->flags & CR_OPF_COND) != 0;
    if (after) {
      rc = probe(b, i);
      i = i->next->next;        /* skip the probe */
    }
  }
  if (rc) return cr_diag_set(d, CR_ENOMEM, -1, "out of memory");
  b->force_long = 1;
  b->force_wide = 1;
  return 0;
}

/*
** One method, its body and all working data in arena 'scratch' (what the
** commit keeps goes to the class arena).
*/
static int reencode_one(cr_an *an, cr_member *m, unsigned flags,
                        cr_arena *scratch, cr_diag *d) {
  cr_body *b;
  int rc = cr_body_decode(&b, an->c, m, scratch, d);
  /* HotSpot treats a method whose code is just 'return' as empty: an
  ** empty finalize() means "no finalizer". Probes would change that. */
  cr_code *code = cr_member_code(m);
  int empty = code->code_len == 1 && code->code[0] == CR_OP_RETURN;
  if (!rc && (flags & CR_REENCODE_STRESS) && !empty) rc = stress(b, d);
  if (!rc) rc = cr_an_commit(an, b, d);
  return rc;
}

int cr_reencode_method(cr_an *an, cr_member *m, unsigned flags,
                       cr_diag *d) {
  return reencode_one(an, m, flags, an->a, d);
}

int cr_reencode(cr_class *c, cr_reencode_opts *o, cr_diag *d) {
  cr_an *an;
  int rc = cr_an_new(&an, c, &o->env, d), first = 0;
  if (rc) return rc;
  /* one scratch arena, emptied after each method: the bodies of a big
  ** class do not pile up, and the memory stays in the cache */
  cr_arena *scratch = cr_arena_new();
  if (!scratch) return cr_diag_set(d, CR_ENOMEM, -1, "out of memory");
  for (uint32_t k = 0; k < c->nmethods; k++) {
    cr_member *m = &c->methods[k];
    if (!cr_member_code(m)) continue;
    cr_diag md;
    cr_diag_clear(&md);
    rc = reencode_one(an, m, o->flags, scratch, &md);
    cr_arena_reset(scratch);
    if (!rc) {
      o->nok++;
      continue;
    }
    o->nfail++;
    char msg[2 * sizeof md.msg];
    const char *cls = cr_cf_this_name(c);
    snprintf(msg, sizeof msg, "class %s: %s", cls ? cls : "?", md.msg);
    snprintf(md.msg, sizeof md.msg, "%.*s", (int)sizeof md.msg - 1, msg);
    if (o->failed) o->failed(o->ctx, c, m, &md);
    if (!first) {
      first = rc;
      cr_diag_set(d, rc, md.offset, "%s", md.msg);
    }
  }
  cr_arena_free(scratch);
  return first;
}

int cr_reencode_class(cr_class *c, cr_arena *a, const cr_typeinfo *ti,
                      unsigned flags, cr_diag *d) {
  cr_reencode_opts o;
  (void)a;                      /* everything goes to the class arena */
  memset(&o, 0, sizeof o);
  o.env.ti = ti;
  o.flags = flags;
  return cr_reencode(c, &o, d);
}
