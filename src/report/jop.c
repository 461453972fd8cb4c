/*
** jop.c -- 'cccp-report jop P': the completion of a JOP cross-profile
** (cross-profiling paper, section 3): the size-dependent part of every
** invoke and the cost of every return, from the call counts; written out
** as a profile marked completed. The other commands complete in memory.
*/
#include "cccp/jop.h"
#include "report.h"

/* Sum of metric 'k' over all nodes (saturating). */
static uint64_t sum(const cr_profile *p, int k) {
  uint64_t s = 0;
  for (uint32_t i = 1; k >= 0 && i <= p->nnodes; i++) {
    uint64_t v = cr_profile_value(p, (size_t)k, i);
    s = s > UINT64_MAX - v ? UINT64_MAX : s + v;
  }
  return s;
}

int rp_cmd_jop(const rp_opts *o, FILE *out) {
  cr_diag d;
  cr_diag_clear(&d);
  cr_profile *p = NULL;
  int rc = cr_profile_load(&p, o->files[0], &d);
  if (rc) {
    rp_error_diag(&d);
    return rc == CR_ENOMEM ? RP_EXIT_OUTPUT : RP_EXIT_INPUT;
  }
  int st = RP_EXIT_OK;
  uint64_t before = sum(p, cr_profile_find_metric(p, "cycles"));
  if (!p->jop.year) {
    rp_error("%s: not a JOP cross-profile (the program was not rewritten "
             "with --jop)", o->files[0]);
    st = RP_EXIT_INPUT;
  } else if (p->jop.completed) {
    fprintf(stderr, "cccp-report: %s: completed already; written "
            "unchanged\n", o->files[0]);
  } else if ((rc = cr_jop_complete(p, &d))) {
    rp_error_diag(&d);
    st = rc == CR_ENOMEM ? RP_EXIT_OUTPUT : RP_EXIT_INPUT;
  } else {
    char cache[64] = "no method cache";
    if (p->jop.cache_blocks)      /* the run charged the misses itself */
      snprintf(cache, sizeof cache, "a method cache of %d words in %d blocks",
               p->jop.cache_words, p->jop.cache_blocks);
    fprintf(stderr, "cccp-report: %s: %llu cycles in all (%llu counted in "
            "basic blocks, %llu added for invokes and returns; JOP %d, "
            "r=%d, w=%d, %s)\n", o->files[0],
            (unsigned long long)sum(p, cr_profile_find_metric(p, "cycles")),
            (unsigned long long)before,
            (unsigned long long)(sum(p, cr_profile_find_metric(p, "cycles")) -
                                 before),
            p->jop.year, p->jop.r, p->jop.w, cache);
  }
  if (!st && cr_profile_write(p, out, &d)) {
    rp_error_diag(&d);
    st = RP_EXIT_OUTPUT;
  }
  cr_profile_free(p);
  return st;
}
