/*
** body.c -- an instrumented body: the entry that makes the method's node
** (from the twin's extra parameter, ESI, or the thread-local slot, OSI),
** its call sites and class initialisations rewritten, the owner check,
** lock and block counters put in, in app mode the slot's value put back
** as it leaves; the OSI body made from its twin's when they differ only
** by their entries; and the compact form when the ordinary one would be
** too large for HotSpot to compile. JVMS 4.7.3 (Code).
*/
#include <stdio.h>
#include <string.h>

#include "xf_int.h"

/*
** HotSpot compiles no method of more bytes of code than this
** (-XX:HugeMethodLimit, with DontCompileHugeMethods on by default).
*/
#define HUGE_METHOD 8000

/*
** 1 if the JVM calls method 'name' 'desc' of this class on its own in the
** middle of an instruction of an instrumented method: the policy's
** <upcall> entries (built-in: a class loader's loadClass(String), which
** resolving a class name calls, JVMS 5.3.2).
*/
static int vm_upcall(const xf *x, const char *name, const char *desc) {
  return cr_policy_find(x->o->pol, CR_POL_UPCALL, x->name, name, desc) >= 0;
}

/* The Methodref an entry from the original signature (N2B, OSI) reads
** its caller's node with: CC.get, or CC.upcall for a vm_upcall. */
int cr_xf__slot_read(xf *x, const char *name, const char *desc, int stat) {
  if (stat || !vm_upcall(x, name, desc)) return x->r_get;
  return cr_xf__cpi(
      x, cr_cp_add_methodref(x->c->cp, CC_CLASS, "upcall", D_GET, x->d));
}

/* Move the exception-table entries from 'from' on to the front: they
** cover single call sites inside the method's own try blocks, so they
** must be found first. */
static int tcbs_first(xf *x, cr_body *b, uint32_t from) {
  uint32_t n = b->ntcb, k = n - from;
  if (!k || !from) return 0;
  cr_tcb *t = cr_arena_alloc(x->a, n * sizeof *t);
  if (!t) return cr_xf__oom(x);
  memcpy(t, b->tcb + from, k * sizeof *t);
  memcpy(t + k, b->tcb, from * sizeof *t);
  memcpy(b->tcb, t, n * sizeof *t);
  return 0;
}

/* 1 if call 'i' passes the node (its descriptor takes a CC). */
static int passes_node(xf *x, const cr_insn *i) {
  cr_cpool *cp = x->c->cp;
  const cr_cpentry *ref = cr_cp_get(cp, (uint32_t)i->a);
  const cr_cpentry *nat = ref ? cr_cp_get(cp, ref->b) : NULL;
  const char *desc = nat ? cr_cp_str(cp, nat->b) : NULL;
  return desc && strstr(desc, CC_DESC) != NULL;
}

/* 1 if an instruction of 'b' stores to local slot 'n'. */
static int stores_to(const cr_body *b, uint32_t n) {
  for (const cr_insn *i = b->first; i; i = i->next) {
    if (i->op == CR_OP_LABEL) continue;
    uint16_t fl = cr_op_info(i->op)->flags;
    if (!(fl & CR_OPF_STORE)) continue;
    uint32_t k = (uint32_t)cr_insn_local(i), w = (fl & CR_OPF_TWO) ? 2 : 1;
    if (k <= n && n < k + w) return 1;
  }
  return 0;
}

/*
** The call that initialises 'this' in a constructor, when the code up to
** it is straight: no branch, switch, return or throw, no label that one
** targets or that bounds an exception range, no 'new' of this class or
** its superclass (whose constructor call it could be). NULL otherwise.
*/
static cr_insn *this_init(xf *x, cr_body *b) {
  cr_cpool *cp = x->c->cp;
  const char *sup = cr_xf__own_super(x);
  cr_insn *it = NULL;
  uint8_t *pre = cr_arena_calloc(x->a, b->ninsn + 1, 1);
  if (!pre) {
    cr_xf__oom(x);
    return NULL;
  }
  for (cr_insn *i = b->first; i && !it; i = i->next) {
    pre[i->id] = 1;
    if (i->op == CR_OP_LABEL) continue;
    uint16_t fl = cr_op_info(i->op)->flags;
    if (fl & (CR_OPF_COND | CR_OPF_GOTO | CR_OPF_JSR | CR_OPF_SWITCH |
              CR_OPF_RETURN | CR_OPF_THROW | CR_OPF_RET | CR_OPF_NOFALL))
      return NULL;
    const char *owner = NULL, *name = NULL;
    if (i->op == CR_OP_NEW) {
      owner = cr_cp_class_name(cp, (uint32_t)i->a);
    } else if (i->op == CR_OP_INVOKESPECIAL) {
      const cr_cpentry *ref = cr_cp_get(cp, (uint32_t)i->a);
      const cr_cpentry *nat = ref ? cr_cp_get(cp, ref->b) : NULL;
      owner = ref ? cr_cp_class_name(cp, ref->a) : NULL;
      name = nat ? cr_cp_str(cp, nat->a) : NULL;
      if (!name || strcmp(name, "<init>") != 0) continue;
    } else {
      continue;
    }
    if (!owner) return NULL;
    int mine = strcmp(owner, x->name) == 0 || (sup && strcmp(owner, sup) == 0);
    if (mine && i->op == CR_OP_NEW) return NULL;
    if (mine) it = i;
  }
  if (!it) return NULL;
  for (cr_insn *i = b->first; i; i = i->next) {
    if (i->target && pre[i->target->id]) return NULL;
    if (i->sw) {
      if (i->sw->dflt && pre[i->sw->dflt->id]) return NULL;
      for (uint32_t k = 0; k < i->sw->n; k++)
        if (pre[i->sw->targets[k]->id]) return NULL;
    }
  }
  for (uint32_t k = 0; k < b->ntcb; k++)
    if (pre[b->tcb[k].start->id] || pre[b->tcb[k].end->id] ||
        pre[b->tcb[k].handler->id])
      return NULL;
  return it;
}

/* A copy, in a new local, of the node that the entry's slot read 'rd'
** pushes: the local, or -1 ('md' set: too many locals). */
static int keep_read(xf *x, cr_body *b, cr_insn *rd, cr_diag *md) {
  uint32_t e = cr_body_max_locals(b);
  if (e >= 65535) {
    cr_diag_set(md, CR_ETOOLARGE, -1, "%s: too many locals",
                cr_body_where(b));
    return -1;
  }
  cr_insn *n = rd->next;
  cr_xf__emit(x, b, n, CR_OP_DUP, 0);
  cr_xf__emit(x, b, n, CR_OP_ASTORE, (int)e);
  return (int)e;
}

/*
** App mode ('x->readers'): OSI body 'b' puts back the slot's value that
** its entry read as it leaves (see 'cr_xf__wrap_site'). The entry's read 'rd'
** keeps a copy in a new local, put back before each return and by a
** catch-all handler at the end, last in the table (the outermost), over
** the body after label 'from': the entry's end, or in a constructor the
** call that initialises 'this' (NULL: no handler, see 'cr_xf__wrap_site').
*/
static int reader_exits(xf *x, cr_body *b, cr_insn *rd, cr_insn *from,
                        cr_diag *md) {
  int e = keep_read(x, b, rd, md);
  if (e < 0) return md->code;
  for (cr_insn *i = rd->next; i && !x->err; i = i->next)
    if (i->op != CR_OP_LABEL && (cr_op_info(i->op)->flags & CR_OPF_RETURN))
      cr_xf__emit_exit(x, b, i, e);
  if (from) cr_xf__emit_rethrow(x, b, NULL, e, from, NULL, 1);
  return x->err;
}

static int from_twin(xf *x, cr_member *m, const char *name,
                     const char *desc, cr_body **out);

/*
** The code is as HotSpot takes it: its StackMapTable's frames where the
** verifier wants them ('cr_body_check_frames'), and no more stack and
** locals needed than its Code attribute says:
** HotSpot refuses a method whose code does ("stack size too large",
** "Illegal local variable number"), and the rewrite, which computes both
** afresh, would turn it into one it takes. 'desc': the descriptor the
** code was written for (a twin's body is decoded for the twin).
*/
static int as_declared(cr_body *b, const char *desc, cr_diag *d) {
  const cr_code *code = b->code;
  int rc = cr_body_check_frames(b, d);
  if (rc) return rc;
  int args = desc ? cr_desc_arg_slots(desc, strlen(desc)) : 0;
  uint32_t nloc = (uint32_t)(args < 0 ? 0 : args) + !(b->m->flags & ACC_STATIC);
  if (b->locals_top > nloc) nloc = b->locals_top;
  if (nloc > code->max_locals)
    return cr_diag_set(d, CR_EFORMAT, -1, "%s: needs %u locals, max_locals "
                       "is %u", cr_body_where(b), nloc, code->max_locals);
  uint16_t declared = b->max_stack;
  rc = cr_body_max_stack(b, d);
  /* it keeps depths in 'aux', the scratch field the transform's later
  ** passes use as theirs: zero again, as decoded (the compact form's
  ** marks zero it themselves, so no output changes; a guard) */
  for (cr_insn *i = b->first; i; i = i->next) i->aux = 0;
  if (rc) return rc;
  if (b->max_stack > code->max_stack)
    return cr_diag_set(d, CR_EFORMAT, -1, "%s: needs a stack of %u, "
                       "max_stack is %u", cr_body_where(b), b->max_stack,
                       code->max_stack);
  b->max_stack = declared;
  return 0;
}

/*
** Build the instrumented body of 'm' into '*out' (name 'name', original
** descriptor 'desc'; for an ESI twin 'm' already has the twin's
** descriptor): the entry makes the method's node into a new local 'cc',
** from the extra parameter (ESI) or the thread-local slot (OSI), and every
** call site passes it on. '*nbl' block counters, '*nunsup' bytecodes JOP
** cannot run.
**
** 'cm' asks for the compact form, for a body that would otherwise pass
** HUGE_METHOD: after the entry the slot holds 'cc' until the method
** returns or throws (the old value kept in 'prev', put back before each
** return and by a catch-all handler, last in the table), so that the
** call sites that find their node in the slot and the class
** initialisations need no code, and the others need no handler of their
** own ('wrap_compact'). A constructor keeps the ordinary form up to the
** call that initialises 'this' (the catch-all handler must not cover an
** uninitialised 'this'), and is not made compact when the code up to
** there is not straight. Nonzero without 'err' set: not possible.
*/
static int build(xf *x, cr_member *m, int how, const char *name,
                 const char *desc, int cm, cr_body **out, uint32_t *onbl,
                 uint32_t *onunsup, cr_diag *md) {
  cr_body *b;
  uint32_t size = cr_member_code(m)->code_len;
  /* (an app-mode constructor is built afresh: see 'rinit' below) */
  if (how == OSI && x->readers && strcmp(name, "<init>") == 0)
    x->sh.b = NULL;
  if (how == OSI && !cm && x->sh.b) {
    int fr = from_twin(x, m, name, desc, out);
    if (fr == 0) {
      *onbl = *onunsup = 0;
      return 0;
    }
    if (x->err) return x->err;
  }
  uint32_t s0[3] = {x->o->nsites_esi, x->o->nsites_tl, x->o->nsites_node};
  int rc = cr_body_decode(&b, x->c, m, x->a, md);
  if (rc || (rc = as_declared(b, desc, md))) return rc;
  if (how == ESI) b->smt_desc = desc;   /* the code's frames are for it */
  x->in_init = strcmp(name, "<init>") == 0;
  cr_insn *ithis = NULL;
  uint8_t *self = NULL;
  if (cm && x->in_init && !(ithis = this_init(x, b)))
    return x->err ? x->err : 1;
  /* app mode: an OSI constructor's catch-all handler starts after the
  ** call that initialises 'this' ('reader_exits') */
  int rexits = how == OSI && x->readers && !cm;
  cr_insn *rinit = rexits && x->in_init ? this_init(x, b) : NULL;
  if (x->err) return x->err;
  if (cm && cr_xf__self_handlers(x, b, &self)) return x->err ? x->err : 1;
  xf_block *bl = NULL;
  uint32_t nbl = 0, nunsup = 0;
  if (cr_xf__counting(x) &&
      cr_xf_blocks(b, x->o->jop, x->o->jop_split, x->a, &bl, &nbl, &nunsup))
    return cr_xf__oom(x);
  uint32_t ninv = 0, nini = 0;
  for (cr_insn *i = b->first; i; i = i->next) {
    if (i->op != CR_OP_LABEL && (cr_op_info(i->op)->flags & CR_OPF_INVOKE))
      ninv++;
    if (cr_xf__may_init(i)) nini++;
  }
  cr_insn **inv = cr_arena_alloc(x->a, (ninv + nini + 1) * sizeof *inv);
  if (!inv) return cr_xf__oom(x);
  cr_insn **ini = inv + ninv;
  ninv = nini = 0;
  for (cr_insn *i = b->first; i; i = i->next) {
    if (i->op != CR_OP_LABEL && (cr_op_info(i->op)->flags & CR_OPF_INVOKE))
      inv[ninv++] = i;
    if (cr_xf__may_init(i)) ini[nini++] = i;
  }
  int stat = (m->flags & ACC_STATIC) != 0;
  int p = cr_xf__arg_slots(desc) + !stat;
  int owner = how == ESI && cr_xf__overridable(x, x->c->flags, m->flags, name);
  /* a synchronized twin with the owner check locks by itself, after the
  ** check ('cr_xf__emit_lock'): 'lk' holds the object it locks */
  int lock = owner && (m->flags & ACC_SYNCHRONIZED);
  uint32_t base = cr_body_max_locals_laid(b);   /* 'b' as decoded */
  if (base < (uint32_t)p + (how == ESI)) base = (uint32_t)p + (how == ESI);
  if (base + 2 + (uint32_t)lock > 65535)
    return cr_diag_set(md, CR_ETOOLARGE, -1, "%s: too many locals",
                       cr_body_where(b));
  int lk = (int)base, ccl = (int)base + lock, prev = ccl + 1;
  xf_mid *me = cr_xf__get_mid(x, x->name, name, desc, size, CR_XF_MID_APP);
  if (!me) return x->err;
  cr_xf__counters(x, b, bl, nbl, ccl);
  uint32_t norig0 = b->ntcb;            /* the method's own handlers */
  cr_insn *first = b->first, *locked = NULL, *tail = NULL;
  /* the end of the body, before a forwarding block */
  if (lock || cm) tail = cr_xf__emit_label(x, b, NULL);
  if (owner) {
    if (lock) cr_xf__emit_lock_copy(x, b, first, lk);
    cr_insn *go = cr_xf__emit_label(x, b, first);
    cr_xf__emit_dispatch(x, b, go, name, desc, me, p, prev);
    if (lock) {
      locked = cr_xf__emit_lock(x, b, first, lk);
      m->flags = (uint16_t)(m->flags & ~ACC_SYNCHRONIZED);
    }
  }
  cr_insn *rd = NULL;             /* the slot's read */
  if (x->jdk && cr_xf__thread_entry(x, name, desc))
    cr_xf__emit(x, b, first, CR_OP_INVOKESTATIC,
                cr_xf__cpi(x, cr_cp_add_methodref(x->c->cp, CC_CLASS, "root",
                                                  D_GET, x->d)));
  else if (how == ESI)
    cr_xf__emit(x, b, first, CR_OP_ALOAD, p);
  else
    rd = cr_xf__emit(x, b, first, CR_OP_INVOKESTATIC,
                     cr_xf__slot_read(x, name, desc,
                                      (m->flags & ACC_STATIC) != 0));
  cr_xf__emit_own_mid(x, b, first, me);
  cr_xf__emit(x, b, first, CR_OP_INVOKESTATIC, x->r_enter);
  cr_insn *entry = cr_xf__emit(x, b, first, CR_OP_ASTORE, ccl);
  /* The extra parameter's slot is the original's first free local; where
  ** the body stores there, make it null, as if unset: a verifier that
  ** infers types (ASM's) then never joins the node's class with the
  ** local's, which needs that class loaded, and neither do our frames. */
  if (how == ESI && stores_to(b, (uint32_t)p)) {
    cr_xf__emit(x, b, first, CR_OP_ACONST_NULL, 0);
    cr_xf__emit(x, b, first, CR_OP_ASTORE, p);
  }
  /* copied for the original's own body at the end ('xf_share') */
  int snap =
      how == ESI && !cm && x->sh.m && !lock && !cr_xf__counting(x) && first;
  cr_insn *pend = first ? first->prev : NULL;
  cr_insn *fwd = owner ? b->line_at : NULL;
  cr_insn *cstart = NULL;
  if (cm) {
    if (!(cstart = cr_label_new(b))) return cr_xf__oom(x);
    if (ithis) cr_body_insert_after(b, ithis, cstart);
    else cr_body_insert_before(b, first, cstart);
  }
  uint32_t norig = b->ntcb;
  /* in a compact constructor, the sites up to the call that initialises
  ** 'this' have the ordinary form */
  x->compact = cm && !ithis;
  x->publish = x->readers && !cm;
  if (cm && x->readers) /* marks for 'cr_xf__compact_resets' */
    for (cr_insn *i = b->first; i; i = i->next) i->aux = 0;
  for (uint32_t k = 0; k < ninv && !x->err; k++) {
    cr_xf__rewrite_site(x, b, inv[k], ccl, prev);
    if (inv[k] == ithis) x->compact = 1;
  }
  x->compact = cm && !ithis;
  /* an invokestatic that now passes the node does not set the slot */
  for (uint32_t k = 0; k < nini && !x->err; k++) {
    if (ithis && ini[k]->orig > ithis->orig) x->compact = 1;
    if (ini[k]->op != CR_OP_INVOKESTATIC || passes_node(x, ini[k]))
      cr_xf__init_site(x, b, ini[k], ccl, prev);
  }
  x->compact = x->publish = 0;
  if (cm && x->readers) cr_xf__compact_resets(x, b, cstart, tail, ccl);
  if (x->err) return x->err;
  int keep = prev, saved = 0;
  if (cm && ithis && x->readers && rd) {
    if ((keep = keep_read(x, b, rd, md)) < 0) return md->code;
    saved = 1;
  }
  if (cm)
    cr_xf__compact_code(x, b, cstart, tail, ccl, keep, saved, norig0, self);
  if (x->err) return x->err;
  if (tcbs_first(x, b, norig)) return x->err;
  if (rexits && rd) {
    cr_insn *from = !x->in_init ? cr_xf__emit_label(x, b, entry->next)
                    : rinit     ? cr_xf__emit_label(x, b, rinit->next)
                                : NULL;
    if (x->err) return x->err;
    if ((rc = reader_exits(x, b, rd, from, md))) return rc;
  }
  /* the catch-all handler, outermost but for the monitor's */
  if (cm) cr_xf__emit_rethrow(x, b, tail, keep, cstart, NULL, x->readers);
  if (locked && tail) cr_xf__emit_unlock(x, b, locked, tail, lk);
  if (x->err) return x->err;
  if (snap && pend) {
    cr_insn *xl[3] = {first, pend, fwd};
    cr_body *cb;
    cr_diag cd;
    cr_diag_clear(&cd);
    int cr = cr_body_clone(&cb, b, x->sh.m, x->a, xl, 3, &cd);
    if (cr == CR_ENOMEM) return cr_xf__oom(x);
    if (cr == 0) {
      xf_share *sh = &x->sh;
      sh->b = cb;
      sh->first = xl[0];
      sh->pend = xl[1];
      sh->fwd = xl[2];
      sh->base = base;
      sh->nsites[0] = x->o->nsites_esi - s0[0];
      sh->nsites[1] = x->o->nsites_tl - s0[1];
      sh->nsites[2] = x->o->nsites_node - s0[2];
    }
  }
  *out = b;
  *onbl = nbl;
  *onunsup = nunsup;
  return 0;
}

/*
** The OSI body of 'm' from the copy of its twin's ('xf_share'): the twin's
** entry code and forwarding block (and the latter's handler) out, the
** new locals moved down to where the OSI body has them, this body's
** entry in. Nonzero without 'err' set: build it afresh.
*/
static int from_twin(xf *x, cr_member *m, const char *name,
                     const char *desc, cr_body **out) {
  xf_share *sh = &x->sh;
  cr_body *b = sh->b;
  sh->b = NULL;
  if (!b || b->m != m) return 1;
  uint8_t *cut = cr_arena_calloc(x->a, b->ninsn + 1, 1);
  if (!cut) return cr_xf__oom(x);
  /* the entry ends at 'pend'; code of a call site at the original's
  ** first instruction comes after it */
  int ended = 0;
  for (cr_insn *i = b->first, *n; i && !ended && i != sh->first; i = n) {
    n = i->next;
    ended = i == sh->pend;
    cut[i->id] = 1;
    cr_body_remove(b, i);
  }
  for (cr_insn *i = sh->fwd, *n; i; i = n) {
    n = i->next;
    cut[i->id] = 1;
    cr_body_remove(b, i);
  }
  if (!ended || !b->first) return 1;
  uint32_t nt = 0;
  for (uint32_t k = 0; k < b->ntcb; k++) {
    const cr_tcb *t = &b->tcb[k];
    int in = cut[t->start->id] + cut[t->end->id] + cut[t->handler->id];
    if (in == 3) continue;
    if (in) return 1;
    b->tcb[nt++] = *t;
  }
  b->ntcb = nt;
  for (uint32_t k = 0; k < b->nfix; k++)
    if (cut[b->fix[k].end->id] ||
        (b->fix[k].start && cut[b->fix[k].start->id]))
      return 1;
  int stat = (m->flags & ACC_STATIC) != 0;
  int p = cr_xf__arg_slots(desc) + !stat;
  uint32_t base = cr_body_max_locals_laid(b);
  if (base < (uint32_t)p) base = (uint32_t)p;
  if (base > sh->base || sh->base - base > 1) return 1;
  for (cr_insn *i = b->first; i; i = i->next) {
    if (i->target && cut[i->target->id]) return 1;
    if (i->sw) {
      if (i->sw->dflt && cut[i->sw->dflt->id]) return 1;
      for (uint32_t k = 0; k < i->sw->n; k++)
        if (cut[i->sw->targets[k]->id]) return 1;
    }
    /* the twin's new locals start one higher when its extra parameter
    ** took the original's first free slot */
    if (base < sh->base && !i->orig && i->op != CR_OP_LABEL &&
        cr_op_info(i->op)->fmt == CR_FMT_LOCAL && i->a >= (int32_t)sh->base)
      i->a -= (int32_t)(sh->base - base);
  }
  b->line_at = NULL;
  b->line = 0;
  b->smt_desc = NULL;
  x->in_init = strcmp(name, "<init>") == 0;
  xf_mid *me = cr_xf__get_mid(x, x->name, name, desc,
                              cr_member_code(m)->code_len, CR_XF_MID_APP);
  if (!me) return x->err ? x->err : 1;
  cr_insn *first = b->first;   /* the entry goes before a site's code */
  cr_insn *rd = NULL;
  if (x->jdk && cr_xf__thread_entry(x, name, desc))
    cr_xf__emit(x, b, first, CR_OP_INVOKESTATIC,
                cr_xf__cpi(x, cr_cp_add_methodref(x->c->cp, CC_CLASS, "root",
                                                  D_GET, x->d)));
  else
    rd = cr_xf__emit(x, b, first, CR_OP_INVOKESTATIC,
                     cr_xf__slot_read(x, name, desc, stat));
  cr_xf__emit_own_mid(x, b, first, me);
  cr_xf__emit(x, b, first, CR_OP_INVOKESTATIC, x->r_enter);
  cr_insn *entry = cr_xf__emit(x, b, first, CR_OP_ASTORE, (int32_t)base);
  if (x->err) return x->err;
  if (x->readers && rd) {       /* (not a constructor: see 'build') */
    cr_diag rdd;
    cr_diag_clear(&rdd);
    cr_insn *from = cr_xf__emit_label(x, b, entry->next);
    if (x->err || reader_exits(x, b, rd, from, &rdd))
      return x->err ? x->err : 1;
  }
  x->o->nsites_esi += sh->nsites[0];
  x->o->nsites_tl += sh->nsites[1];
  x->o->nsites_node += sh->nsites[2];
  *out = b;
  return 0;
}

/*
** Instrument the body of 'm' (see 'build'). A method of at most
** HUGE_METHOD bytes whose ordinary instrumented body would pass that
** limit, which HotSpot would then never compile, gets the compact form
** when possible; one that still passes it is noted.
*/
int cr_xf__instrument(xf *x, cr_member *m, int how, const char *name,
                      const char *desc, cr_diag *md) {
  uint32_t size = cr_member_code(m)->code_len;
  uint16_t flags = m->flags;
  uint32_t nesi = x->o->nsites_esi, ntl = x->o->nsites_tl,
           nnode = x->o->nsites_node;
  cr_body *b = NULL, *ord = NULL;
  uint32_t nbl = 0, nunsup = 0, onbl = 0, onunsup = 0;
  uint16_t flags1 = 0;
  uint32_t s1[3] = {0, 0, 0};
  int rc = build(x, m, how, name, desc, 0, &b, &nbl, &nunsup, md);
  if (rc) return rc;
  int laid = 0;                 /* 'b' laid out, unchanged since */
  if (size > HUGE_METHOD && x->tally) x->o->nhuge_orig++;
  if (size <= HUGE_METHOD) {
    cr_diag ld;
    cr_diag_clear(&ld);
    int lr = cr_body_layout(b, &ld);
    if (lr == CR_ENOMEM) return cr_xf__oom(x);
    laid = lr == 0;
    uint32_t above = x->o->compact_above ? x->o->compact_above : HUGE_METHOD;
    if (lr || b->code_len > above) {
      /* again from the original code, in the compact form */
      flags1 = m->flags;
      s1[0] = x->o->nsites_esi;
      s1[1] = x->o->nsites_tl;
      s1[2] = x->o->nsites_node;
      m->flags = flags;
      x->o->nsites_esi = nesi;
      x->o->nsites_tl = ntl;
      x->o->nsites_node = nnode;
      cr_body *cb = NULL;
      uint32_t cnbl = 0, cnunsup = 0;
      cr_diag cd;
      cr_diag_clear(&cd);
      int cr = build(x, m, how, name, desc, 1, &cb, &cnbl, &cnunsup, &cd);
      if (x->err) return x->err;
      if (cr == 0) {
        laid = 0;
        ord = b;
        onbl = nbl;
        onunsup = nunsup;
        b = cb;
        nbl = cnbl;
        nunsup = cnunsup;
      } else {
        m->flags = flags1;
        x->o->nsites_esi = s1[0];
        x->o->nsites_tl = s1[1];
        x->o->nsites_node = s1[2];
      }
    }
  }
  if (laid && !x->err)
    rc = cr_an_commit_laid(x->an, b, md);
  else
    rc = cr_xf__commit(x, b, md);
  if (rc && ord && !x->err) {
    /* the compact body failed (its frames): the ordinary one instead */
    cr_diag_clear(md);
    m->flags = flags1;
    x->o->nsites_esi = s1[0];
    x->o->nsites_tl = s1[1];
    x->o->nsites_node = s1[2];
    b = ord;
    nbl = onbl;
    nunsup = onunsup;
    ord = NULL;
    rc = cr_xf__commit(x, b, md);
  }
  if (rc == 0) {
    if (ord) x->o->ncompact++;
    x->o->nblocks += nbl;
    if (x->tally) x->nunsup += nunsup;
    uint32_t now = cr_member_code(m)->code_len;
    if (size <= HUGE_METHOD && now > HUGE_METHOD) {
      x->o->nhuge++;
      x->o->nhuge_run += strcmp(name, "<clinit>") != 0;
      if (x->o->note) {
        char msg[1024];
        snprintf(msg, sizeof msg, "class %s: method %s%s%s grows from %u "
                 "to %u bytes of code, past HotSpot's %d-byte limit for "
                 "compiling a method", x->name, name, desc,
                 how == ESI ? " (its twin)" : "", size, now, HUGE_METHOD);
        x->o->note(x->o->ctx, x->c, msg);
      }
    }
  }
  return rc;
}
