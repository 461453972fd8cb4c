/*
** emit.c -- what every part of the CCCP instrumentation builds code
** from: instructions inserted into a decoded body, pool entries under the
** class's sticky error, arena arrays that grow, the loads, stores and
** return of a descriptor, and the sequences that restore the thread-local
** slot or put its value back around calls, returns and rethrows.
*/
#include <string.h>

#include "xf_int.h"

int cr_xf__oom(xf *x) {
  if (!x->err) x->err = cr_diag_set(x->d, CR_ENOMEM, -1, "out of memory");
  return x->err;
}

/* A pool index from a 'cr_cp_add_*' result; 0 (and 'err' set) on error. */
int cr_xf__cpi(xf *x, int r) {
  if (r < 0) {
    if (!x->err) x->err = r;
    return 0;
  }
  return r;
}

/* Grow arena array '*v' ('*cap' elements of 'sz') to hold 'need'. */
int cr_xf__grow(xf *x, void **v, uint32_t *cap, uint32_t need, size_t sz) {
  if (need <= *cap) return 0;
  uint32_t nc = *cap ? *cap * 2 : 8;
  while (nc < need) nc *= 2;
  void *p = cr_arena_realloc(x->a, *v, (size_t)*cap * sz, (size_t)nc * sz);
  if (!p) return cr_xf__oom(x);
  *v = p;
  *cap = nc;
  return 0;
}

/* Emit 'op' with operand 'a' before 'at' (NULL: at the end). */
cr_insn *cr_xf__emit(xf *x, cr_body *b, cr_insn *at, unsigned op, int32_t a) {
  cr_insn *i = cr_insn_new(b, op);
  if (!i) {
    cr_xf__oom(x);
    return NULL;
  }
  i->a = a;
  cr_body_insert_before(b, at, i);
  return i;
}

cr_insn *cr_xf__emit_label(xf *x, cr_body *b, cr_insn *at) {
  cr_insn *l = cr_label_new(b);
  if (!l) {
    cr_xf__oom(x);
    return NULL;
  }
  cr_body_insert_before(b, at, l);
  return l;
}

/* Push int 'v' before 'at' (iconst, bipush, sipush or ldc). */
void cr_xf__emit_int(xf *x, cr_body *b, cr_insn *at, int32_t v) {
  if (v >= -1 && v <= 5)
    cr_xf__emit(x, b, at, (unsigned)(CR_OP_ICONST_0 + v), 0);
  else if (v >= -128 && v <= 127)
    cr_xf__emit(x, b, at, CR_OP_BIPUSH, v);
  else if (v >= -32768 && v <= 32767)
    cr_xf__emit(x, b, at, CR_OP_SIPUSH, v);
  else
    cr_xf__emit(x, b, at, CR_OP_LDC,
                cr_xf__cpi(x, cr_cp_add_int(x->c->cp, v, x->d)));
}

/* Load the parameters of 'desc' from slot 'slot' on. */
void cr_xf__emit_args(xf *x, cr_body *b, cr_insn *at, const char *desc,
                      int slot) {
  cr_desc_iter it;
  const char *t;
  size_t n;
  if (cr_desc_iter_init(&it, desc, strlen(desc))) return;
  while (cr_desc_next(&it, &t, &n) == 1) {
    unsigned op = t[0] == 'J'   ? CR_OP_LLOAD
                  : t[0] == 'F' ? CR_OP_FLOAD
                  : t[0] == 'D' ? CR_OP_DLOAD
                  : t[0] == 'L' || t[0] == '[' ? CR_OP_ALOAD
                                               : CR_OP_ILOAD;
    cr_xf__emit(x, b, at, op, slot);
    slot += cr_desc_slots(t[0]);
  }
}

/* Store the parameters of 'desc' (from the operand stack, last first)
** into the locals from 'slot' on ('store'), or load them back. */
void cr_xf__spill_args(xf *x, cr_body *b, cr_insn *at, const char *desc,
                       int slot, int store) {
  if (!store) {
    cr_xf__emit_args(x, b, at, desc, slot);
    return;
  }
  unsigned op[255];
  int at_slot[255], n = 0;
  cr_desc_iter it;
  const char *t;
  size_t len;
  if (cr_desc_iter_init(&it, desc, strlen(desc))) return;
  while (n < 255 && cr_desc_next(&it, &t, &len) == 1) {
    op[n] = t[0] == 'J'   ? CR_OP_LSTORE
            : t[0] == 'F' ? CR_OP_FSTORE
            : t[0] == 'D' ? CR_OP_DSTORE
            : t[0] == 'L' || t[0] == '[' ? CR_OP_ASTORE
                                         : CR_OP_ISTORE;
    at_slot[n++] = slot;
    slot += cr_desc_slots(t[0]);
  }
  while (n--) cr_xf__emit(x, b, at, op[n], at_slot[n]);
}

/* The return instruction for the return type of 'desc'. */
unsigned cr_xf__ret_op(const char *desc) {
  const char *r = strchr(desc, ')');
  switch (r ? r[1] : 'V') {
  case 'V': return CR_OP_RETURN;
  case 'J': return CR_OP_LRETURN;
  case 'F': return CR_OP_FRETURN;
  case 'D': return CR_OP_DRETURN;
  case 'L': case '[': return CR_OP_ARETURN;
  default: return CR_OP_IRETURN;
  }
}

int cr_xf__arg_slots(const char *desc) {
  int n = cr_desc_arg_slots(desc, strlen(desc));
  return n < 0 ? 0 : n;
}

/* A Methodref or InterfaceMethodref to this class's 'name''desc'. */
int cr_xf__own_ref(xf *x, const char *name, const char *desc) {
  return cr_xf__cpi(
      x, x->iface ? cr_cp_add_imethodref(x->c->cp, x->name, name, desc, x->d)
                  : cr_cp_add_methodref(x->c->cp, x->name, name, desc, x->d));
}

/* Commit a body, reporting failure in 'md' (the method stays as it was). */
int cr_xf__commit(xf *x, cr_body *b, cr_diag *md) {
  if (x->err) return x->err;
  return cr_an_commit(x->an, b, md);
}

/* "aload prev; CC.set; pop" before 'at': the slot gets its old value. */
void cr_xf__emit_restore(xf *x, cr_body *b, cr_insn *at, int prev) {
  cr_xf__emit(x, b, at, CR_OP_ALOAD, prev);
  cr_xf__emit(x, b, at, CR_OP_INVOKESTATIC, x->r_set);
  cr_xf__emit(x, b, at, CR_OP_POP, 0);
}

/* "aload s; CC.restore" before 'at': an app-mode reader puts back the
** slot's value it read ('cr_xf__n2b', 'reader_exits'). */
void cr_xf__emit_putback(xf *x, cr_body *b, cr_insn *at, int s) {
  if (!x->r_restore)
    x->r_restore =
        cr_xf__cpi(x, cr_cp_add_methodref(x->c->cp, CC_CLASS, "restore",
                                          "(" CC_DESC ")V", x->d));
  cr_xf__emit(x, b, at, CR_OP_ALOAD, s);
  cr_xf__emit(x, b, at, CR_OP_INVOKESTATIC, x->r_restore);
}

/*
** "aload s; CC.restore" before return 'at' (see 'cr_xf__emit_putback'); with
** JOP, where 'cr_xf__counters' put "aload cc; CC.returned" right before it, the
** two in one call, 3 bytes shorter: "aload cc; aload s; CC.returned(CC,
** CC)".
*/
void cr_xf__emit_exit(xf *x, cr_body *b, cr_insn *at, int s) {
  cr_insn *p = at->prev;
  if (!x->r_returned || !p || p->op != CR_OP_INVOKESTATIC ||
      p->a != x->r_returned) {
    cr_xf__emit_putback(x, b, at, s);
    return;
  }
  if (!x->r_returned2)
    x->r_returned2 =
        cr_xf__cpi(x, cr_cp_add_methodref(x->c->cp, CC_CLASS, "returned",
                                          "(" CC_DESC CC_DESC ")V", x->d));
  cr_xf__emit(x, b, p, CR_OP_ALOAD, s);
  p->a = x->r_returned2;
}

/* A handler before 'at' for [start, end) that restores the slot from
** 'prev' (with 'back', as a reader: 'cr_xf__emit_putback') and rethrows, in the
** exception table; 'end' NULL: up to the handler. */
void cr_xf__emit_rethrow(xf *x, cr_body *b, cr_insn *at, int prev,
                         cr_insn *start, cr_insn *end, int back) {
  cr_insn *h = cr_xf__emit_label(x, b, at);
  if (back) cr_xf__emit_putback(x, b, at, prev);
  else cr_xf__emit_restore(x, b, at, prev);
  cr_xf__emit(x, b, at, CR_OP_ATHROW, 0);
  if (!x->err && cr_body_add_tcb(b, start, end ? end : h, h, 0, x->d))
    x->err = x->d->code;
  if (!x->err) b->tcb[b->ntcb - 1].orig = 0xffff;
}
