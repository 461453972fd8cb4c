/*
** cmp.c -- 'cccp-report compare': the overlap percentage of two profiles
** (CCCP paper, section 6.1) and the contexts that differ most; a profile
** checked against an expectation file (--expect); the visible contexts of
** one profile in that file's format (--contexts). The comparison itself
** is 'cr_profile_compare' (src/profile/compare.c).
*/
#include <stdlib.h>
#include <string.h>

#include "report.h"

static int bypath(const void *a, const void *b) {
  return strcmp(((const cr_cmp_diff *)a)->path,
                ((const cr_cmp_diff *)b)->path);
}

/* Status for a load failure: 3 when memory ran out, else 1. */
static int load_status(int rc) {
  return rc == CR_ENOMEM ? RP_EXIT_OUTPUT : RP_EXIT_INPUT;
}

/* Write a path from a profile: control bytes as '?'. */
static void put(FILE *f, const char *s) { rp_puts(f, s, NULL); }

int rp_cmd_compare(const rp_opts *o, FILE *out) {
  cr_diag d;
  cr_diag_clear(&d);
  cr_profile *pa = NULL, *pb = NULL;
  int rc = o->expect ? cr_profile_load_expect(&pa, o->expect, &d)
                     : rp_load(&pa, o->files[0], &d);
  if (!rc && o->contexts && !(pb = cr_profile_new("empty")))
    rc = cr_diag_set(&d, CR_ENOMEM, -1, "out of memory");
  else if (!rc && !o->contexts)
    rc = rp_load(&pb, o->expect ? o->files[0] : o->files[1], &d);
  if (rc) {
    rp_error_diag(&d);
    cr_profile_free(pa);
    return load_status(rc);
  }
  cr_cmp_result r;
  rc = cr_profile_compare(&r, pa, pb, &o->cmp,
                          o->expect || o->contexts ? SIZE_MAX : o->top, &d);
  cr_profile_free(pa);
  cr_profile_free(pb);
  if (rc) {
    rp_error_diag(&d);
    return RP_EXIT_OUTPUT;
  }
  int st = RP_EXIT_OK;
  if (o->contexts) {
    if (r.ndiff) qsort(r.diff, r.ndiff, sizeof *r.diff, bypath);
    for (size_t i = 0; i < r.ndiff; i++) {
      fprintf(out, "%llu ", (unsigned long long)r.diff[i].a);
      put(out, r.diff[i].path);
      putc('\n', out);
    }
  } else if (o->expect) {
    size_t bad = 0, ignored = 0;
    for (size_t i = 0; i < r.ndiff; i++) {
      const cr_cmp_diff *x = &r.diff[i];
      if (!x->in_a && !x->leaf_app) {
        ignored++;
        continue;
      }
      bad++;
      if (!x->in_a)
        fprintf(out, "unexpected: %llu ", (unsigned long long)x->b);
      else
        fprintf(out, "mismatch: want %llu got %llu: ",
                (unsigned long long)x->a, (unsigned long long)x->b);
      put(out, x->path);
      putc('\n', out);
    }
    fprintf(out, "%s: %zu contexts expected, %zu mismatched, %zu unlisted "
                 "library contexts ignored\n",
            bad ? "FAIL" : "ok", r.contexts_a, bad, ignored);
    if (bad) st = RP_EXIT_DIFFER;
  } else {
    fprintf(out, "overlap: %.4f%%\n", r.overlap);
    fprintf(out, "calls: A %llu, B %llu\n", (unsigned long long)r.total_a,
            (unsigned long long)r.total_b);
    fprintf(out, "contexts: A %zu, B %zu, common %zu, differing %zu\n",
            r.contexts_a, r.contexts_b, r.common, r.differing);
    for (size_t i = 0; i < r.ndiff; i++) {
      fprintf(out, "  A %llu  B %llu  ", (unsigned long long)r.diff[i].a,
              (unsigned long long)r.diff[i].b);
      put(out, r.diff[i].path);
      putc('\n', out);
    }
    if (o->min_overlap >= 0 && r.overlap < o->min_overlap)
      st = RP_EXIT_DIFFER;
  }
  cr_cmp_result_free(&r);
  return st;
}
