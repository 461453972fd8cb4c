/*
** blocks.c -- the block counters (cross-profiling paper, section 3;
** DESIGN.md 6): the basic blocks of a decoded body, what each adds to the
** counters, and the calls that add it to the method's node, with the JOP
** method cache's events.
*/
#include <stdlib.h>

#include "xf_int.h"

static int byaddr(const void *x, const void *y) {
  const cr_insn *a = *(cr_insn *const *)x, *b = *(cr_insn *const *)y;
  return a < b ? -1 : a > b;
}

/* 1 if opcode 'op' may throw (JVMS 6.5, run-time exceptions). */
static int may_throw(unsigned op) {
  return (op >= 46 && op <= 53) ||      /* array loads */
         (op >= 79 && op <= 86) ||      /* array stores */
         op == 108 || op == 109 || op == 112 || op == 113 ||  /* div, rem */
         (op >= 178 && op <= 197 && op != 193 && op != 196);
         /* fields, invokes, allocations, arraylength, athrow, checkcast,
         ** monitors (not instanceof, not the wide prefix) */
}

static int is_alloc(unsigned op) {
  return op == 187 || op == 188 || op == 189 || op == 197;
}

int cr_xf_blocks(const cr_body *b, const cr_jop_model *m, int split,
                 cr_arena *a, xf_block **out, uint32_t *n, uint32_t *nunsup) {
  uint32_t nreal = 0, ntgt = 0;
  *out = NULL;
  *n = 0;
  for (const cr_insn *i = b->first; i; i = i->next) {
    if (i->op == CR_OP_LABEL) continue;
    nreal++;
    if (i->target) ntgt++;
    if (i->sw) ntgt += i->sw->n + 1;
  }
  ntgt += b->ntcb;
  cr_insn **tgt = cr_arena_alloc(a, (ntgt + 1) * sizeof *tgt);
  cr_insn **hnd = cr_arena_alloc(a, (b->ntcb + 1) * sizeof *hnd);
  xf_block *bl = cr_arena_alloc(a, (nreal + 1) * sizeof *bl);
  if (!tgt || !hnd || !bl) return CR_ENOMEM;
  uint32_t k = 0;
  for (const cr_insn *i = b->first; i; i = i->next) {
    if (i->op == CR_OP_LABEL) continue;
    if (i->target) tgt[k++] = i->target;
    if (i->sw) {
      for (uint32_t j = 0; j < i->sw->n; j++) tgt[k++] = i->sw->targets[j];
      tgt[k++] = i->sw->dflt;
    }
  }
  for (uint32_t j = 0; j < b->ntcb; j++)
    tgt[k++] = hnd[j] = b->tcb[j].handler;
  qsort(tgt, k, sizeof *tgt, byaddr);
  qsort(hnd, b->ntcb, sizeof *hnd, byaddr);
  const uint8_t *code = b->code->code;
  int lead = 1, handler = 0;
  xf_block *cur = NULL;
  for (cr_insn *i = b->first; i; i = i->next) {
    if (i->op == CR_OP_LABEL) {
      if (k && bsearch(&i, tgt, k, sizeof *tgt, byaddr)) lead = 1;
      if (b->ntcb && bsearch(&i, hnd, b->ntcb, sizeof *hnd, byaddr))
        handler = 1;
      continue;
    }
    if (lead) {
      cur = &bl[(*n)++];
      cur->lead = i;
      cur->cycles = cur->bytecodes = cur->allocs = 0;
      cur->ret = 0;
      cur->handler = (uint8_t)handler;
      lead = handler = 0;
    }
    unsigned op = i->off < b->code->code_len ? code[i->off] : i->op;
    /* a wide instruction costs as the one it widens: JOP's build turns
    ** iinc, wide or not, into plain loads, adds and stores */
    if (op == 196 && i->off + 1 < b->code->code_len) op = code[i->off + 1];
    uint16_t fl = cr_op_info(i->op)->flags;
    if (m) {
      if (m->kind[op] == CR_JOP_UNSUPPORTED) ++*nunsup;
      cur->cycles += m->block[op];
    }
    cur->bytecodes++;
    cur->allocs += (uint32_t)is_alloc(op);
    if (fl & CR_OPF_RETURN) cur->ret = 1;
    if (fl & (CR_OPF_COND | CR_OPF_GOTO | CR_OPF_JSR | CR_OPF_SWITCH |
              CR_OPF_RETURN | CR_OPF_THROW | CR_OPF_RET | CR_OPF_NOFALL))
      lead = 1;
    else if (split && may_throw(op))
      lead = 1;
  }
  *out = bl;
  return 0;
}

/* "aload ccl; push n; invokestatic 'ref'" before 'at'. */
static void emit_count(xf *x, cr_body *b, cr_insn *at, int ccl, uint32_t n,
                       int *ref, const char *name) {
  if (!*ref)
    *ref = cr_xf__cpi(
        x, cr_cp_add_methodref(x->c->cp, CC_CLASS, name, D_COUNT, x->d));
  cr_xf__emit(x, b, at, CR_OP_ALOAD, ccl);
  cr_xf__emit_int(x, b, at, (int32_t)n);
  cr_xf__emit(x, b, at, CR_OP_INVOKESTATIC, *ref);
}

/* 1 if some block counter is asked for. */
int cr_xf__counting(const xf *x) {
  return x->o->jop || x->o->count_bytecodes || x->o->count_allocs;
}

/* "aload ccl; invokestatic 'ref'" before 'at' (an event of the node). */
static void emit_event(xf *x, cr_body *b, cr_insn *at, int ccl, int *ref,
                       const char *name) {
  if (!*ref)
    *ref = cr_xf__cpi(
        x, cr_cp_add_methodref(x->c->cp, CC_CLASS, name, D_EVENT, x->d));
  cr_xf__emit(x, b, at, CR_OP_ALOAD, ccl);
  cr_xf__emit(x, b, at, CR_OP_INVOKESTATIC, *ref);
}

/*
** The block counters of body 'b' ('bl', 'nbl' blocks, computed before
** any change), each before its block's first instruction, adding to the
** node in local 'ccl'. A block that adds nothing to a metric makes no
** call for it. With JOP, each return instruction is preceded by
** CC.returned (normal returns, and the method-cache lookup of the
** caller) and each exception handler starts with CC.caught (the lookup
** of the method resuming there): the cache simulation, a run-time
** option, needs them in their true order among the invokes.
*/
void cr_xf__counters(xf *x, cr_body *b, const xf_block *bl, uint32_t nbl,
                     int ccl) {
  const cr_xf_opts *o = x->o;
  for (uint32_t k = 0; k < nbl && !x->err; k++) {
    const xf_block *v = &bl[k];
    if (o->jop && v->handler)
      emit_event(x, b, v->lead, ccl, &x->r_caught, "caught");
    if (o->jop && v->cycles)
      emit_count(x, b, v->lead, ccl, v->cycles, &x->r_cycles, "cycles");
    if (o->count_bytecodes)
      emit_count(x, b, v->lead, ccl, v->bytecodes, &x->r_bytecodes,
                 "bytecodes");
    if (o->count_allocs && v->allocs)
      emit_count(x, b, v->lead, ccl, v->allocs, &x->r_allocs, "allocations");
  }
  if (!o->jop) return;
  for (cr_insn *i = b->first; i && !x->err; i = i->next)
    if (i->op != CR_OP_LABEL && (cr_op_info(i->op)->flags & CR_OPF_RETURN))
      emit_event(x, b, i, ccl, &x->r_returned, "returned");
}
