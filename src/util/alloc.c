/*
** alloc.c -- the one allocator of cccp, with fault injection for tests.
** Every heap allocation of the project goes through 'cr_malloc' & co.
*/
#include <stdatomic.h>
#include <stdlib.h>

#include "cccp/util.h"

static atomic_long budget = -1;   /* < 0: unlimited */

void cr_alloc_fail_after(long n) { atomic_store(&budget, n); }

/* Take one allocation from the budget; 0 means "fail this one". */
static int take(void) {
  long b = atomic_load(&budget);
  if (b < 0) return 1;
  if (b == 0) return 0;
  atomic_store(&budget, b - 1);
  return 1;
}

void *cr_malloc(size_t size) {
  if (!take()) return NULL;
  return malloc(size ? size : 1);
}

void *cr_calloc(size_t n, size_t size) {
  if (!take()) return NULL;
  return calloc(n ? n : 1, size ? size : 1);
}

void *cr_realloc(void *p, size_t size) {
  if (!take()) return NULL;
  return realloc(p, size ? size : 1);
}

void cr_free(void *p) { free(p); }
