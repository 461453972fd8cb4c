/*
** twin.c -- twins and wrappers whose bodies are not instrumented copies:
** a twin's descriptor (the original's plus the caller's node), flags and
** @CallerSensitive annotation; the delegating twin, which makes the node
** and calls the original (natives' B2N twins, abstract methods' twins,
** and the fallback for a method that could not be instrumented); and the
** N2B wrapper, which calls the twin with the node from the slot.
*/
#include <stdio.h>
#include <string.h>

#include "xf_int.h"

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

/* Twin access flags: never abstract or native; synthetic. */
uint16_t cr_xf__twin_flags(xf *x, uint16_t acc) {
  uint16_t f = (uint16_t)((acc & ~(ACC_ABSTRACT | ACC_NATIVE | ACC_BRIDGE |
                                   ACC_VARARGS)) | ACC_SYNTHETIC);
  if (x->iface && !(f & (ACC_PRIVATE | ACC_STATIC)))
    f = (uint16_t)((f & ~(ACC_PROTECTED | ACC_FINAL | ACC_SYNCHRONIZED)) |
                   ACC_PUBLIC);
  return f;
}

/*
** Give twin 'tw' of a @CallerSensitive method the annotation (and only
** that one): Reflection.getCallerClass insists on it in the frame that
** calls it, which is the twin when a caller passed its node. HotSpot
** honours it in boot and platform classes only, as for the original.
*/
int cr_xf__caller_sensitive(xf *x, cr_member *tw) {
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

/* The Code attribute of method 'k' parsed again from the class file, for
** a fresh copy of its body. */
cr_attr *cr_xf__copy_code_attr(xf *x, uint32_t k) {
  if (k >= x->c->nmethods) return NULL;
  const cr_attr *at = cr_attrs_find(&x->c->methods[k].attrs, CR_ATTR_CODE);
  cr_attr *cc = at ? cr_arena_alloc(x->a, sizeof *cc) : NULL;
  if (!cc) return NULL;
  cr_diag cd;
  cr_diag_clear(&cd);
  return cr_cf_reparse_attr(x->c, x->a, at, cc, &cd) ? NULL : cc;
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
int cr_xf__delegate(xf *x, cr_member *tw, const cr_member *orig,
                    const char *name, const char *desc, int virt, uint32_t size,
                    int flags, cr_diag *md) {
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

/* A twin that delegates to the original after a failure ('md'). */
int cr_xf__fallback(xf *x, cr_member *orig, uint16_t name_idx, const char *name,
                    const char *desc, const char *tdesc, const cr_diag *why) {
  char msg[600];
  cr_diag md;
  cr_diag_clear(&md);
  snprintf(msg, sizeof msg, "%s", why->msg);
  cr_attr *sc = cr_xf__stub_code_attr(x);
  cr_member *tw = sc ? cr_xf__new_method(x, cr_xf__twin_flags(x, orig->flags),
                                         name_idx, tdesc, sc, orig)
                     : NULL;
  if (!tw) return x->err;
  cr_code *oc = cr_member_code(orig);
  int rc = cr_xf__delegate(x, tw, orig, name, desc, 0, oc ? oc->code_len : 0,
                           CR_XF_MID_APP, &md);
  if (rc) return x->err ? x->err : rc;
  x->o->nfallback++;
  x->o->nfailed++;
  cr_xf__warn(x, "class %s: method %s%s left uninstrumented: %s", x->name, name,
              desc, msg);
  return 0;
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
int cr_xf__n2b(xf *x, cr_member *m, const char *name, const char *desc,
               const char *tdesc, cr_diag *md) {
  cr_body *b = fresh_body(x, m);
  if (!b) return x->err;
  int stat = (m->flags & ACC_STATIC) != 0;
  int s = cr_xf__arg_slots(desc) + !stat;
  cr_insn *start = NULL;
  if (x->readers) {
    cr_xf__emit(x, b, NULL, CR_OP_INVOKESTATIC,
                cr_xf__slot_read(x, name, desc, stat));
    cr_xf__emit(x, b, NULL, CR_OP_ASTORE, s);
    start = cr_xf__emit_label(x, b, NULL);
  }
  if (!stat) cr_xf__emit(x, b, NULL, CR_OP_ALOAD, 0);
  cr_xf__emit_args(x, b, NULL, desc, !stat);
  if (x->readers)
    cr_xf__emit(x, b, NULL, CR_OP_ALOAD, s);
  else
    cr_xf__emit(x, b, NULL, CR_OP_INVOKESTATIC,
                cr_xf__slot_read(x, name, desc, stat));
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
