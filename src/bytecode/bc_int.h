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

#endif
