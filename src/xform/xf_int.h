/*
** xf_int.h -- internals of the transforms: basic blocks of a body for
** the block counters (JOP cycles, bytecodes, allocations).
*/
#ifndef CCCP_XF_INT_H
#define CCCP_XF_INT_H

#include "cccp/bytecode.h"
#include "cccp/jop.h"

/* One basic block: its first instruction and what it adds when it runs. */
typedef struct xf_block {
  cr_insn *lead;            /* first instruction (not a label) */
  uint32_t cycles;          /* JOP cost of its bytecodes (0 without model) */
  uint32_t bytecodes;       /* instructions */
  uint32_t allocs;          /* new, newarray, anewarray, multianewarray */
  uint8_t ret;              /* ends with a return instruction */
  uint8_t handler;          /* starts an exception handler */
} xf_block;

/*
** The basic blocks of 'b', as decoded (before any instruction is added):
** a block starts at the first instruction, at each target of a branch,
** switch or exception handler, and after each branch, switch, return,
** athrow, jsr or ret; with 'split' also after each instruction that may
** throw (invokes, field and array accesses, allocations, athrow, integer
** division, checkcast, monitors), so that a block's counts are exact
** even when exceptions fly. Costs come from the instructions' original
** bytes (a 'wide' instruction costs as the instruction it widens); 'm'
** may be NULL.
** '*nunsup' counts instructions JOP cannot run. Blocks in '*out' (arena
** 'a'), '*n' of them. CR_ENOMEM.
*/
int cr_xf_blocks(const cr_body *b, const cr_jop_model *m, int split,
                 cr_arena *a, xf_block **out, uint32_t *n, uint32_t *nunsup);

#endif
