/*
** cccp.c -- the CCCP instrumentation of one class: method variants, entry
** code and call sites (DESIGN.md 1, CCCP paper 4.2-4.4, Figures 3-4).
** JVMS 4.7.3 (Code), 4.7.23 (BootstrapMethods), 4.4.10 (Dynamic).
*/
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "cccp/xform.h"
#include "xf_int.h"

/* ------------------------------------------------------------ helpers */

char *cr_xf_twin_desc(cr_arena *a, const char *desc) {
  const char *rp = strchr(desc, ')');
  if (desc[0] != '(' || !rp) return NULL;
  size_t n = strlen(desc), k = (size_t)(rp - desc);
  char *s = cr_arena_alloc(a, n + sizeof CC_DESC);
  if (!s) return NULL;
  memcpy(s, desc, k);
  memcpy(s + k, CC_DESC, sizeof CC_DESC - 1);
  memcpy(s + k + sizeof CC_DESC - 1, rp, n - k + 1);
  return s;
}

/* The frame computation's view: the caller's hierarchy plus the runtime's
** node class, which the hierarchy of an application does not hold. */
static int ti_lookup(void *ctx, const char *name, const char **super,
                     int *is_interface) {
  xf *x = ctx;
  if (strcmp(name, CC_CLASS) == 0) {
    *super = "java/lang/Object";
    *is_interface = 0;
    return 0;
  }
  if (!x->inner) return CR_ENOTFOUND;
  return x->inner->lookup(x->inner->ctx, name, super, is_interface);
}

/* ------------------------------------------------------------- members */

/*
** Give twin 'tw' of a @CallerSensitive method the annotation (and only
** that one): Reflection.getCallerClass insists on it in the frame that
** calls it, which is the twin when a caller passed its node. HotSpot
** honours it in boot and platform classes only, as for the original.
*/
static int caller_sensitive(xf *x, cr_member *tw) {
  static const char *const jdk9 = "Ljdk/internal/reflect/CallerSensitive;";
  static const char *const jdk8 = "Lsun/reflect/CallerSensitive;";
  cr_cpool *cp = x->c->cp;
  int nm = cr_xf__cpi(x, cr_cp_add_utf8(cp, "RuntimeVisibleAnnotations", x->d));
  int ty =
      cr_xf__cpi(x, cr_cp_add_utf8(cp, x->c->major >= 53 ? jdk9 : jdk8, x->d));
  uint8_t *raw = cr_arena_alloc(x->a, 6);
  cr_attr *v = cr_arena_calloc(x->a, tw->attrs.n + 1, sizeof *v);
  if (!raw || !v) return cr_xf__oom(x);
  if (x->err) return x->err;
  /* num_annotations 1; type_index; num_element_value_pairs 0 */
  raw[0] = 0, raw[1] = 1, raw[2] = (uint8_t)(ty >> 8), raw[3] = (uint8_t)ty;
  raw[4] = 0, raw[5] = 0;
  memcpy(v, tw->attrs.v, tw->attrs.n * sizeof *v);
  v[tw->attrs.n].name = (uint16_t)nm;
  v[tw->attrs.n].kind = CR_ATTR_OTHER;
  v[tw->attrs.n].raw = raw;
  v[tw->attrs.n].len = 6;
  tw->attrs.v = v;
  tw->attrs.n++;
  return 0;
}

/* A new Code attribute holding just 'return' (replaced before commit). */
cr_attr *cr_xf__stub_code_attr(xf *x) {
  cr_code *k = cr_arena_calloc(x->a, 1, sizeof *k);
  cr_attr *at = cr_arena_calloc(x->a, 1, sizeof *at);
  if (!k || !at) {
    cr_xf__oom(x);
    return NULL;
  }
  k->code = (const uint8_t *)"\xb1";
  k->code_len = 1;
  at->name = (uint16_t)x->code_name;
  at->kind = CR_ATTR_CODE;
  at->u.code = k;
  return at;
}

/* A new method 'name''desc' with 'code' (an attribute, copied) and the
** Exceptions attribute of 'like' (may be NULL), queued for appending. */
cr_member *cr_xf__new_method(xf *x, uint16_t flags, uint16_t name,
                             const char *desc, const cr_attr *code,
                             const cr_member *like) {
  cr_member *m = cr_arena_calloc(x->a, 1, sizeof *m);
  cr_attr *v = cr_arena_calloc(x->a, 2, sizeof *v);
  if (!m || !v ||
      cr_xf__grow(x, (void **)&x->newm, &x->cnewm, x->nnewm + 1,
                  sizeof *x->newm)) {
    cr_xf__oom(x);
    return NULL;
  }
  m->flags = flags;
  m->name = name;
  m->desc = (uint16_t)cr_xf__cpi(x, cr_cp_add_utf8(x->c->cp, desc, x->d));
  v[0] = *code;
  m->attrs.n = 1;
  m->attrs.v = v;
  const cr_attr *ex = like ? cr_attrs_find(&like->attrs, CR_ATTR_EXCEPTIONS)
                           : NULL;
  if (ex) v[m->attrs.n++] = *ex;
  x->newm[x->nnewm++] = m;
  return x->err ? NULL : m;
}

/* A fresh empty body for member 'm' whose Code is a stub. */
static cr_body *fresh_body(xf *x, cr_member *m) {
  cr_body *b;
  if (cr_body_decode(&b, x->c, m, x->a, x->d)) {
    x->err = x->d->code;
    return NULL;
  }
  for (cr_insn *i = b->first, *n; i; i = n) {
    n = i->next;
    if (i->op != CR_OP_LABEL) cr_body_remove(b, i);
  }
  return b;
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

/*
** The delegating shape, used by B2N twins of natives and twins of methods
** that could not be instrumented ('virt' 0: the node of this method, and
** the owner check when it is overridable), and by twins of abstract
** methods ('virt' 1: the node of the method the receiver selects, when
** that is not instrumented: a class without twins implements it):
**   m(args, CC cc) { prev = CC.set(virt ? CC.enterv(this, cc, MID)
**                                       : CC.enter(cc, MID));
**                    try { return m(args); } finally { CC.set(prev); } }
** 'm' is called non-virtually (invokestatic/invokespecial) unless
** 'virt', then by invokevirtual/invokeinterface.
*/
static int delegate(xf *x, cr_member *tw, const cr_member *orig,
                    const char *name, const char *desc, int virt,
                    uint32_t size, int flags, cr_diag *md) {
  cr_body *b = fresh_body(x, tw);
  if (!b) return x->err;
  int stat = (orig->flags & ACC_STATIC) != 0;
  int p = cr_xf__arg_slots(desc) + !stat, prev = p + 1;
  xf_mid *m = cr_xf__get_mid(x, x->name, name, desc, size, flags);
  if (!m) return x->err;
  int check = !virt && cr_xf__overridable(x, x->c->flags, orig->flags, name);
  cr_insn *go = check ? cr_xf__emit_label(x, b, NULL) : NULL;
  /* not while it forwards ('cr_xf__emit_lock'): the synchronized original it
  ** calls takes the monitor itself */
  if (check) tw->flags = (uint16_t)(tw->flags & ~ACC_SYNCHRONIZED);
  if (virt) cr_xf__emit(x, b, NULL, CR_OP_ALOAD, 0);
  cr_xf__emit(x, b, NULL, CR_OP_ALOAD, p);
  cr_xf__emit_mid(x, b, NULL, m);
  cr_xf__emit(x, b, NULL, CR_OP_INVOKESTATIC, virt ? x->r_enterv : x->r_enter);
  cr_xf__emit(x, b, NULL, CR_OP_INVOKESTATIC, x->r_set);
  cr_xf__emit(x, b, NULL, CR_OP_ASTORE, prev);
  cr_insn *start = cr_xf__emit_label(x, b, NULL);
  if (!stat) cr_xf__emit(x, b, NULL, CR_OP_ALOAD, 0);
  cr_xf__emit_args(x, b, NULL, desc, !stat);
  int ref = cr_xf__own_ref(x, name, desc);
  cr_insn *call;
  if (stat) {
    call = cr_xf__emit(x, b, NULL, CR_OP_INVOKESTATIC, ref);
  } else if (virt && x->iface) {
    call = cr_xf__emit(x, b, NULL, CR_OP_INVOKEINTERFACE, ref);
    if (call) call->b = cr_xf__arg_slots(desc) + 1;
  } else {
    call = cr_xf__emit(x, b, NULL,
                       virt ? CR_OP_INVOKEVIRTUAL : CR_OP_INVOKESPECIAL, ref);
  }
  cr_insn *end = cr_xf__emit_label(x, b, NULL);
  cr_xf__emit(x, b, NULL, CR_OP_ALOAD, prev);
  cr_xf__emit(x, b, NULL, CR_OP_INVOKESTATIC, x->r_set);
  cr_xf__emit(x, b, NULL, CR_OP_POP, 0);
  cr_xf__emit(x, b, NULL, cr_xf__ret_op(desc), 0);
  if (strcmp(name, "<init>") != 0) { /* see 'cr_xf__wrap_site' */
    cr_insn *h = cr_xf__emit_label(x, b, NULL);
    cr_xf__emit(x, b, NULL, CR_OP_ALOAD, prev);
    cr_xf__emit(x, b, NULL, CR_OP_INVOKESTATIC, x->r_set);
    cr_xf__emit(x, b, NULL, CR_OP_POP, 0);
    cr_xf__emit(x, b, NULL, CR_OP_ATHROW, 0);
    if (!x->err && cr_body_add_tcb(b, start, end, h, 0, x->d))
      x->err = x->d->code;
  }
  if (check && !x->err) cr_xf__emit_dispatch(x, b, go, name, desc, m, p, prev);
  /* the whole twin is a frame the original program does not have: under
  ** the forwarding line, it is left out of stack traces and walks, also
  ** when its callee's frame does not show (a lambda's class is hidden) */
  cr_insn *top = cr_xf__emit_label(x, b, b->first);
  if (x->err) return x->err;
  b->line_at = top;
  b->line = FORWARD_LINE;
  (void)call;
  return cr_xf__commit(x, b, md);
}

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
static int slot_read(xf *x, const char *name, const char *desc, int stat) {
  if (stat || !vm_upcall(x, name, desc)) return x->r_get;
  return cr_xf__cpi(
      x, cr_cp_add_methodref(x->c->cp, CC_CLASS, "upcall", D_GET, x->d));
}

/*
** N2B: m(args) { return m(args, CC.get()); } into 'm' (stub code); for a
** method the JVM calls in the middle of an instruction (vm_upcall),
** CC.upcall() instead: the node of the method the JVM interrupted, which
** the slot does not hold (ESI calls do not publish their nodes).
** In app mode ('x->readers') the wrapper puts back the slot's value as
** it leaves (see 'cr_xf__wrap_site'):
**   CC.get(); astore s
**   start: [aload_0] <args>; aload s; <call the twin>
**   end: aload s; CC.restore; <return>
**   handler: aload s; CC.restore; athrow         [start, end) any
** but a constructor's, which restores on its return only (the handler's
** frame would have to keep 'uninitializedThis', see 'cr_xf__wrap_site').
*/

static int n2b(xf *x, cr_member *m, const char *name, const char *desc,
               const char *tdesc, cr_diag *md) {
  cr_body *b = fresh_body(x, m);
  if (!b) return x->err;
  int stat = (m->flags & ACC_STATIC) != 0;
  int s = cr_xf__arg_slots(desc) + !stat;
  cr_insn *start = NULL;
  if (x->readers) {
    cr_xf__emit(x, b, NULL, CR_OP_INVOKESTATIC, slot_read(x, name, desc, stat));
    cr_xf__emit(x, b, NULL, CR_OP_ASTORE, s);
    start = cr_xf__emit_label(x, b, NULL);
  }
  if (!stat) cr_xf__emit(x, b, NULL, CR_OP_ALOAD, 0);
  cr_xf__emit_args(x, b, NULL, desc, !stat);
  if (x->readers)
    cr_xf__emit(x, b, NULL, CR_OP_ALOAD, s);
  else
    cr_xf__emit(x, b, NULL, CR_OP_INVOKESTATIC, slot_read(x, name, desc, stat));
  cr_xf__emit(x, b, NULL, stat ? CR_OP_INVOKESTATIC : CR_OP_INVOKESPECIAL,
              cr_xf__own_ref(x, name, tdesc));
  if (x->readers) {
    cr_insn *end = cr_xf__emit_label(x, b, NULL);
    cr_xf__emit_putback(x, b, NULL, s);
    cr_xf__emit(x, b, NULL, cr_xf__ret_op(desc), 0);
    if (strcmp(name, "<init>") != 0)
      cr_xf__emit_rethrow(x, b, NULL, s, start, end, 1);
  } else {
    cr_xf__emit(x, b, NULL, cr_xf__ret_op(desc), 0);
  }
  return cr_xf__commit(x, b, md);
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
** HotSpot compiles no method of more bytes of code than this
** (-XX:HugeMethodLimit, with DontCompileHugeMethods on by default).
*/
#define HUGE_METHOD 8000

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
static int from_twin(xf *x, cr_member *m, const char *name,
                     const char *desc, cr_body **out);

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
  if (rc) return rc;
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
                     slot_read(x, name, desc, (m->flags & ACC_STATIC) != 0));
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
                     slot_read(x, name, desc, stat));
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
static int instrument(xf *x, cr_member *m, int how, const char *name,
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

/* -------------------------------------------------------------- methods */

void cr_xf__warn(xf *x, const char *fmt, ...) {
  if (!x->o->warn) return;
  char msg[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  x->o->warn(x->o->ctx, x->c, msg);
}

/* The Code attribute of method 'k' parsed again from the class file, for
** a fresh copy of its body. */
static cr_attr *copy_code_attr(xf *x, uint32_t k) {
  if (k >= x->c->nmethods) return NULL;
  const cr_attr *at = cr_attrs_find(&x->c->methods[k].attrs, CR_ATTR_CODE);
  cr_attr *cc = at ? cr_arena_alloc(x->a, sizeof *cc) : NULL;
  if (!cc) return NULL;
  cr_diag cd;
  cr_diag_clear(&cd);
  return cr_cf_reparse_attr(x->c, x->a, at, cc, &cd) ? NULL : cc;
}

/* Twin access flags: never abstract or native; synthetic. */
static uint16_t twin_flags(xf *x, uint16_t acc) {
  uint16_t f = (uint16_t)((acc & ~(ACC_ABSTRACT | ACC_NATIVE | ACC_BRIDGE |
                                   ACC_VARARGS)) | ACC_SYNTHETIC);
  if (x->iface && !(f & (ACC_PRIVATE | ACC_STATIC)))
    f = (uint16_t)((f & ~(ACC_PROTECTED | ACC_FINAL | ACC_SYNCHRONIZED)) |
                   ACC_PUBLIC);
  return f;
}

/* A twin that delegates to the original after a failure ('md'). */
static int fallback(xf *x, cr_member *orig, uint16_t name_idx,
                    const char *name, const char *desc, const char *tdesc,
                    const cr_diag *why) {
  char msg[600];
  cr_diag md;
  cr_diag_clear(&md);
  snprintf(msg, sizeof msg, "%s", why->msg);
  cr_attr *sc = cr_xf__stub_code_attr(x);
  cr_member *tw = sc ? cr_xf__new_method(x, twin_flags(x, orig->flags),
                                         name_idx, tdesc, sc, orig)
                     : NULL;
  if (!tw) return x->err;
  cr_code *oc = cr_member_code(orig);
  int rc = delegate(x, tw, orig, name, desc, 0, oc ? oc->code_len : 0,
                    CR_XF_MID_APP, &md);
  if (rc) return x->err ? x->err : rc;
  x->o->nfallback++;
  x->o->nfailed++;
  cr_xf__warn(x, "class %s: method %s%s left uninstrumented: %s", x->name, name,
              desc, msg);
  return 0;
}

/*
** Method 'm' could not be instrumented in place: warn, and in a class
** whose version was raised give its old code frames, or fail the class.
*/
static int osi_failed(xf *x, cr_member *m, const char *name,
                      const char *desc, const cr_diag *md) {
  x->o->nfailed++;
  cr_xf__warn(x, "class %s: method %s%s left uninstrumented: %s", x->name, name,
              desc, md->msg);
  if (x->bumped) {
    cr_diag rd;
    cr_diag_clear(&rd);
    if (cr_reencode_method(x->an, m, 0, &rd))
      x->err = cr_diag_set(x->d, CR_EUNSUPPORTED, -1,
                           "class %s: %s%s cannot be given frames: %s",
                           x->name, name, desc, rd.msg);
  }
  return x->err;
}

cr_xf_plan cr_xf_method_plan(unsigned hf, const char *name,
                             const char *desc, uint16_t access,
                             const cr_code *cd, int n2b, const char **why) {
  static const char *const none = "";
  *why = none;
  int clinit = strcmp(name, "<clinit>") == 0;
  int ovl = !clinit && !(hf & CR_HM_NONOVL);
  int wrap = !(hf & CR_HM_NONWRAP);
  if (ovl && cr_xf__arg_slots(desc) + !(access & ACC_STATIC) + 1 > 255) {
    ovl = 0;
    *why = "its arguments take 254 or more slots: a twin has no room for "
           "the node";
  }
  if (access & ACC_ABSTRACT) {
    if (!ovl) *why = "abstract and non-overloadable: no twin to declare";
    return ovl ? CR_XF_TWIN_ABSTRACT : CR_XF_KEEP;
  }
  if (access & ACC_NATIVE) {
    if (!ovl || !wrap)
      *why = "native and non-overloadable or non-wrappable: a node at "
             "its call sites";
    return ovl && wrap ? CR_XF_B2N : CR_XF_KEEP;
  }
  if (!cd) {
    *why = "no code";
    return CR_XF_KEEP;
  }
  /* HotSpot drops a '<clinit>' that is just 'return' when it parses the
  ** class: it never runs, so it gets no node either */
  int empty = cd->code_len == 1 && cd->code[0] == 0xb1;
  if (clinit && empty) {
    *why = "a <clinit> that only returns, which HotSpot drops: it never runs";
    return CR_XF_KEEP;
  }
  /* HotSpot also reads a 'finalize()V' that is just 'return' as "no
  ** finalizer" (a subclass's cancels its superclass's): instrumented, the
  ** class's instances would be registered for finalization (every enum,
  ** through Enum.finalize). It stays as it is; a twin gets the node. */
  if (empty && strcmp(name, "finalize") == 0 && strcmp(desc, "()V") == 0) {
    *why = "an empty finalize(), which HotSpot reads as no finalizer";
    return ovl ? CR_XF_ESI_KEEP : CR_XF_KEEP;
  }
  if (!ovl) return CR_XF_OSI;
  return wrap && n2b ? CR_XF_ESI_N2B : CR_XF_ESI_OSI;
}

const char *cr_xf_plan_text(cr_xf_plan p) {
  switch (p) {
  case CR_XF_KEEP: return "left as it is";
  case CR_XF_OSI: return "instrumented in place (OSI), no twin";
  case CR_XF_ESI_OSI:
    return "an ESI twin, and the original instrumented in place (OSI)";
  case CR_XF_ESI_N2B: return "an ESI twin, and the original its N2B wrapper";
  case CR_XF_ESI_KEEP: return "an ESI twin, and the original unchanged";
  case CR_XF_TWIN_ABSTRACT:
    return "a twin that calls it (for subclasses without their own)";
  case CR_XF_B2N: return "a B2N twin that calls the native method";
  }
  return "?";
}

/* One method of the original class ('k' its index). */
static int do_method(xf *x, uint32_t k) {
  cr_member *m = &x->c->methods[k];
  const char *name = cr_member_name(x->c, m);
  const char *desc = cr_member_desc(x->c, m);
  if (!name || !desc) return cr_xf__oom(x);
  if (!cr_desc_is_method(desc, strlen(desc))) return 0;
  const cr_hmethod *hm = x->o->no_twins ? NULL
                                       : cr_hier_method(x->o->h, x->name,
                                                        name, desc);
  unsigned hf = hm ? cr_hmethod_flags(hm) : CR_HM_NONOVL | CR_HM_NONWRAP;
  cr_attr *code = cr_attrs_find(&m->attrs, CR_ATTR_CODE);
  const char *why;
  cr_xf_plan plan = cr_xf_method_plan(hf, name, desc, m->flags,
                                      code ? code->u.code : NULL, x->o->n2b,
                                      &why);
  if (plan == CR_XF_KEEP) return 0;
  cr_diag md;
  cr_diag_clear(&md);
  char *tdesc = plan != CR_XF_OSI ? cr_xf_twin_desc(x->a, desc) : NULL;
  if (plan != CR_XF_OSI && !tdesc) return cr_xf__oom(x);

  if (plan == CR_XF_TWIN_ABSTRACT) {
    cr_attr *sc = cr_xf__stub_code_attr(x);
    cr_member *tw = sc ? cr_xf__new_method(x, twin_flags(x, m->flags), m->name,
                                           tdesc, sc, m)
                       : NULL;
    if (!tw) return x->err;
    int rc = delegate(x, tw, m, name, desc, 1, 0, CR_XF_MID_APP, &md);
    if (rc) return x->err ? x->err : rc;
    x->o->nfallback++;
    return 0;
  }
  if (plan == CR_XF_B2N) {
    cr_attr *sc = cr_xf__stub_code_attr(x);
    cr_member *tw = sc ? cr_xf__new_method(x, twin_flags(x, m->flags), m->name,
                                           tdesc, sc, m)
                       : NULL;
    if (!tw) return x->err;
    int rc = delegate(x, tw, m, name, desc, 0, 0,
                      CR_XF_MID_APP | CR_XF_MID_NATIVE, &md);
    if (rc) return x->err ? x->err : rc;
    x->o->nb2n++;
    return 0;
  }
  x->tally = 1;
  if (plan == CR_XF_OSI) {
    int rc = instrument(x, m, OSI, name, desc, &md);
    if (x->err) return x->err;
    if (rc) return osi_failed(x, m, name, desc, &md);
    x->o->nosi++;
    return 0;
  }
  /* overloadable: ESI twin, then N2B (wrappable) or OSI in place */
  int wrap = plan == CR_XF_ESI_N2B, nofin = plan == CR_XF_ESI_KEEP;
  cr_attr tcode = *code;
  if (!wrap) {
    cr_attr *cc = copy_code_attr(x, k);
    if (!cc) return cr_xf__oom(x);
    tcode = *cc;
  }
  cr_member *tw =
      cr_xf__new_method(x, twin_flags(x, m->flags), m->name, tdesc, &tcode, m);
  if (!tw) return x->err;
  if ((hf & CR_HM_CALLER_SENSITIVE) && caller_sensitive(x, tw)) return x->err;
  x->sh.m = wrap || nofin ? NULL : m;
  x->sh.b = NULL;
  int rc = instrument(x, tw, ESI, name, desc, &md);
  x->sh.m = NULL;
  if (rc || wrap) x->sh.b = NULL;
  if (x->err) return x->err;
  if (rc) {
    /* the twin keeps an unusable body: give it the delegating one */
    x->nnewm--;
    return fallback(x, m, m->name, name, desc, tdesc, &md);
  }
  x->o->nesi++;
  if (wrap) {
    cr_attr *sc = cr_xf__stub_code_attr(x);
    if (!sc) return x->err;
    *code = *sc;                /* the original body went to the twin */
    rc = n2b(x, m, name, desc, tdesc, &md);
    if (rc) {
      if (!x->err)
        x->err = cr_diag_set(x->d, rc, -1, "class %s: N2B wrapper of %s%s: "
                             "%s", x->name, name, desc, md.msg);
      return x->err;
    }
    x->o->nn2b++;
  } else if (!nofin) {          /* (an empty finalize stays 'return') */
    x->tally = 0;               /* the twin's body counted them */
    rc = instrument(x, m, OSI, name, desc, &md);
    x->sh.b = NULL;
    if (x->err) return x->err;
    if (rc) return osi_failed(x, m, name, desc, &md);
    x->o->nosi++;
  }
  return 0;
}

/* Append the queued methods, fields and bootstrap methods to the class. */
static int finish(xf *x) {
  cr_class *c = x->c;
  int reg = 0;
  for (uint32_t k = 0; k < x->nmids && !reg; k++) reg = x->mids[k].idx != 0;
  if (!x->condy && reg && cr_xf__init_mids(x)) return x->err;
  if (x->nnewm) {
    cr_member *v = cr_arena_calloc(x->a, c->nmethods + x->nnewm, sizeof *v);
    if (!v) return cr_xf__oom(x);
    memcpy(v, c->methods, c->nmethods * sizeof *v);
    for (uint32_t k = 0; k < x->nnewm; k++) v[c->nmethods + k] = *x->newm[k];
    c->methods = v;
    c->nmethods += x->nnewm;
  }
  if (x->nnewf) {
    cr_member *v = cr_arena_calloc(x->a, c->nfields + x->nnewf, sizeof *v);
    if (!v) return cr_xf__oom(x);
    if (c->nfields) memcpy(v, c->fields, c->nfields * sizeof *v);
    memcpy(v + c->nfields, x->newf, x->nnewf * sizeof *v);
    c->fields = v;
    c->nfields += x->nnewf;
  }
  if (x->nbsms) {
    cr_attr *at = cr_attrs_find(&c->attrs, CR_ATTR_BOOTSTRAPMETHODS);
    if (!at) {
      int nm = cr_xf__cpi(x, cr_cp_add_utf8(c->cp, "BootstrapMethods", x->d));
      cr_attr *v = cr_arena_calloc(x->a, c->attrs.n + 1, sizeof *v);
      cr_bsms *bs = cr_arena_calloc(x->a, 1, sizeof *bs);
      if (!v || !bs) return cr_xf__oom(x);
      if (c->attrs.n) memcpy(v, c->attrs.v, c->attrs.n * sizeof *v);
      at = &v[c->attrs.n];
      at->name = (uint16_t)nm;
      at->kind = CR_ATTR_BOOTSTRAPMETHODS;
      at->u.bsms = bs;
      c->attrs.v = v;
      c->attrs.n++;
    }
    cr_bsms *bs = at->u.bsms;
    cr_bsm *v = cr_arena_calloc(x->a, bs->n + x->nbsms, sizeof *v);
    if (!v) return cr_xf__oom(x);
    if (bs->n) memcpy(v, bs->v, bs->n * sizeof *v);
    memcpy(v + bs->n, x->bsms, x->nbsms * sizeof *v);
    bs->v = v;
    bs->n += x->nbsms;
    at->raw = NULL;
    at->len = 0;
  }
  return x->err;
}

/* ---------------------------------------------------------- JDK mode */

/*
** The default serialVersionUID depends on the non-private methods and on
** '<clinit>', which instrumentation adds: a serializable class (by the
** hierarchy) that does not declare one gets its original default as
** "private static final long serialVersionUID", so that its instances
** keep (de)serializing with uninstrumented JVMs. Enums and records are
** left alone (their ids are not checked); so are interfaces.
*/
static int pin_suid(xf *x) {
  cr_class *c = x->c;
  if (c->flags & (ACC_INTERFACE | ACC_ENUM)) return 0;
  const char *sup = cr_xf__own_super(x);
  if (sup && strcmp(sup, "java/lang/Record") == 0) return 0;
  /* serializable: by its own interfaces, theirs, or its superclass's */
  int ser = 0;
  for (uint32_t k = 0; k <= c->interfaces.n && !ser; k++) {
    const char *in = k < c->interfaces.n
                         ? cr_cp_class_name(c->cp, c->interfaces.v[k])
                         : sup;
    if (!in) continue;
    ser = strcmp(in, "java/io/Serializable") == 0;
    const cr_hclass *hc = cr_hier_class(x->o->h, in);
    for (uint32_t j = 0; hc && j < cr_hclass_all_iface_count(hc) && !ser;
         j++)
      ser = strcmp(cr_hclass_name(cr_hclass_all_iface_at(hc, j)),
                   "java/io/Serializable") == 0;
  }
  if (!ser) return 0;
  for (uint32_t k = 0; k < c->nfields; k++) {
    const char *fn = cr_member_name(c, &c->fields[k]);
    if (!fn) return cr_xf__oom(x);
    if (strcmp(fn, "serialVersionUID") == 0) return 0;
  }
  int64_t suid;
  if (cr_xf_default_suid(c, &suid, x->d)) return x->err = x->d->code;
  cr_cpool *cp = c->cp;
  cr_attr *cv = cr_arena_calloc(x->a, 1, sizeof *cv);
  if (!cv || cr_xf__grow(x, (void **)&x->newf, &x->cnewf, x->nnewf + 1,
                         sizeof *x->newf))
    return cr_xf__oom(x);
  cv->name = (uint16_t)cr_xf__cpi(x, cr_cp_add_utf8(cp, "ConstantValue", x->d));
  cv->kind = CR_ATTR_CONSTANTVALUE;
  cv->u.index = (uint16_t)cr_xf__cpi(x, cr_cp_add_long(cp, suid, x->d));
  cr_member *f = &x->newf[x->nnewf++];
  memset(f, 0, sizeof *f);
  f->flags = ACC_PRIVATE | ACC_STATIC | ACC_FINAL | ACC_SYNTHETIC;
  f->name =
      (uint16_t)cr_xf__cpi(x, cr_cp_add_utf8(cp, "serialVersionUID", x->d));
  f->desc = (uint16_t)cr_xf__cpi(x, cr_cp_add_utf8(cp, "J", x->d));
  f->attrs.n = 1;
  f->attrs.v = cv;
  return x->err;
}

int cr_xf_instrumented_already(const cr_class *c) {
  for (uint32_t k = 0; k < c->nmethods; k++) {
    const char *d = cr_member_desc(c, &c->methods[k]);
    if (d && strstr(d, CC_DESC)) return 1;
  }
  return 0;
}

int cr_xf_cccp(cr_class *c, cr_xf_opts *o, cr_diag *d) {
  xf x;
  memset(&x, 0, sizeof x);
  x.c = c;
  x.a = c->arena;
  x.o = o;
  x.d = d;
  x.name = cr_cf_this_name(c);
  if (!x.name) return cr_diag_set(d, CR_ENOMEM, -1, "out of memory");
  if (c->flags & ACC_MODULE) return 0;
  if (strncmp(x.name, "cccp/rt/", 8) == 0) {
    o->nskipped++;
    cr_xf__warn(&x, "class %s: part of the cccp runtime; left unchanged",
                x.name);
    return 0;
  }
  if (cr_xf_instrumented_already(c)) {
    o->nskipped++;
    cr_xf__warn(&x, "class %s: instrumented already; left unchanged", x.name);
    return 0;
  }
  x.iface = (c->flags & ACC_INTERFACE) != 0;
  /* With an instrumented JDK, no dynamic constants: the JDK's linkage
  ** of one (MethodHandleNatives.linkDynamicConstant, thousands of calls)
  ** would run instrumented, in the program's context, before CC.xf_mid */
  x.condy = c->major >= 63 && !cr_hier_mid_count(o->h);
  x.readers = !cr_hier_mid_count(o->h);
  const cr_hclass *hc = cr_hier_class(o->h, x.name);
  x.jdk = hc && cr_hclass_instrumented(hc) && cr_hclass_jdk_module(hc);
  /* a class of an instrumented JDK kept as a library (java/lang/Object) */
  if (hc && !x.jdk && cr_hclass_jdk_module(hc) && cr_hier_mid_count(o->h))
    return 0;
  /* an interface below 52 cannot hold the default methods that twins of
  ** its abstract methods are: it moves to version 52 (frames for its
  ** '<clinit>', the only code it can have) */
  if (x.iface && c->major < 52) {
    c->major = 52;
    c->minor = 0;
    /* HotSpot sets ACC_ABSTRACT on interfaces before version 50 and
    ** insists on it from then on (JVMS 4.1) */
    c->flags |= ACC_ABSTRACT;
    x.bumped = 1;
  }
  x.inner = o->env.ti;
  x.ti.ctx = &x;
  x.ti.lookup = ti_lookup;
  x.env = o->env;
  x.env.ti = &x.ti;
  int rc = cr_an_new(&x.an, c, &x.env, d);
  if (rc) return rc;
  cr_cpool *cp = c->cp;
  x.r_enter =
      cr_xf__cpi(&x, cr_cp_add_methodref(cp, CC_CLASS, "enter", D_ENTER, d));
  x.r_enterv =
      cr_xf__cpi(&x, cr_cp_add_methodref(cp, CC_CLASS, "enterv", D_ENTERV, d));
  x.r_get = cr_xf__cpi(&x, cr_cp_add_methodref(cp, CC_CLASS, "get", D_GET, d));
  x.r_set = cr_xf__cpi(&x, cr_cp_add_methodref(cp, CC_CLASS, "set", D_SET, d));
  x.r_register = cr_xf__cpi(
      &x, cr_cp_add_methodref(cp, CC_CLASS, "register", D_REGISTER, d));
  x.code_name = cr_xf__cpi(&x, cr_cp_add_utf8(cp, "Code", d));
  const cr_attr *bm = cr_attrs_find(&c->attrs, CR_ATTR_BOOTSTRAPMETHODS);
  x.bsm_base = bm ? bm->u.bsms->n : 0;
  if (pin_suid(&x)) return x.err;
  uint32_t n = c->nmethods;
  for (uint32_t k = 0; k < n && !x.err; k++) do_method(&x, k);
  if (!x.err && x.jdk) cr_xf__jdk_hooks(&x);
  if (!x.err) finish(&x);
  if (!x.err && x.nunsup) {
    o->nunsup += x.nunsup;
    o->nunsup_classes++;
    if (o->note) {
      char msg[600];
      snprintf(msg, sizeof msg, "class %s: %u bytecode%s JOP cannot run "
               "(invokedynamic, jsr, ret, goto_w%s); costed as software "
               "bytecodes", x.name, x.nunsup, x.nunsup == 1 ? "" : "s",
               o->jop->year == 2008 ? ", and in the 2008 model double "
               "arithmetic" : "");
      o->note(o->ctx, c, msg);
    }
  }
  return x.err;
}
