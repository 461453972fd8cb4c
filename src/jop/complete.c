/*
** complete.c -- completion of a JOP cross-profile after the run
** (cross-profiling paper, section 3): the size-dependent part of each
** invoke and the whole cost of each return, from the calling context
** tree's call counts and the method sizes, for a disabled method cache.
*/
#include <string.h>

#include "jop_int.h"

static uint64_t sat_add(uint64_t a, uint64_t b) {
  return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

static uint64_t sat_mul(uint64_t a, uint64_t b) {
  return b && a > UINT64_MAX / b ? UINT64_MAX : a * b;
}

int cr_jop_complete(cr_profile *p, cr_diag *d) {
  const cr_prof_jop *j = &p->jop;
  if (!j->year)
    return cr_diag_set(d, CR_EUSAGE, -1, "not a JOP cross-profile (made "
                       "without --jop)");
  if (j->completed)
    return cr_diag_set(d, CR_EUSAGE, -1, "the cross-profile is completed "
                       "already");
  cr_jop_model m;
  int rc = cr_jop_model_init(&m, j->year, j->r, j->w, j->software, d);
  if (rc) return rc;
  int cy = cr_profile_add_metric(p, "cycles");
  if (cy < 0) return cr_diag_set(d, CR_ENOMEM, -1, "out of memory");
  int rt = cr_profile_find_metric(p, "returns");
  int cache = j->cache_blocks > 0;
  uint64_t *cycles = p->mval[cy];
  for (uint32_t v = 1; v <= p->nnodes; v++) {
    const cr_prof_node *x = &p->nodes[v];
    const cr_prof_method *me = &p->methods[x->method];
    const cr_prof_method *caller =
        x->parent ? &p->methods[p->nodes[x->parent].method] : NULL;
    int costed = cr_jop_costed(me);
    int ccost = caller && cr_jop_costed(caller);
    if (costed && ccost && !cache) {
      uint64_t b = cr_jop_load_miss(&m, cr_jop_words(me->size));
      uint64_t extra = cr_jop_cost_b(&m, 182, b) - m.hit[182];
      cycles[x->parent] = sat_add(cycles[x->parent], sat_mul(x->calls, extra));
    }
    if (costed) {
      unsigned op = cr_jop_return_op(me->desc);
      uint64_t cost = ccost && !cache
                          ? cr_jop_cost_b(&m, op, cr_jop_load_miss(
                                &m, cr_jop_words(caller->size)))
                          : m.hit[op];
      uint64_t k = rt > 0 ? p->mval[rt][v] : x->calls;
      cycles[v] = sat_add(cycles[v], sat_mul(k, cost));
    }
  }
  p->jop.completed = 1;
  return 0;
}
