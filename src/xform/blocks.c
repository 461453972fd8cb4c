/*
** blocks.c -- basic blocks of a decoded body and what each adds to the
** block counters (cross-profiling paper, section 3; DESIGN.md 6).
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
