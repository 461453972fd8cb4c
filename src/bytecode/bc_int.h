/*
** bc_int.h -- internals shared by the files of the bytecode module.
*/
#ifndef CCCP_BC_INT_H
#define CCCP_BC_INT_H

#include "cccp/bytecode.h"

/* Grow arena array '*v' ('*cap' elements of 'sz' bytes) to hold 'need'
** elements; CR_ENOMEM on failure ('*v' unchanged). */
int cr_bc__grow(cr_arena *a, void **v, uint32_t *cap, uint32_t need,
                size_t sz);

/* One past the local slot that instruction 'i' uses, or 0. */
static inline uint32_t cr_bc__local_top(const cr_insn *i) {
  const cr_opinfo *oi = cr_op_info(i->op);
  if (!(oi->flags & (CR_OPF_LOAD | CR_OPF_STORE)) &&
      oi->fmt != CR_FMT_IINC && i->op != CR_OP_RET)
    return 0;
  return (uint32_t)i->a + ((oi->flags & CR_OPF_TWO) ? 2 : 1);
}

#endif
