/*
** diff.c -- 'cccp-report diff A B': what changed between two profiles
** (before and after a change), context by context, for one metric: the
** contexts whose value changed most, or a differential flame graph (the
** frames of B, coloured by how much each grew or shrank since A).
** A's and B's values become one extra metric each, "cccp.diff.a" and
** "cccp.diff.b", and the profiles are merged: equal contexts meet.
*/
#include <stdlib.h>
#include <string.h>

#include "report.h"

static uint64_t sat_add(uint64_t a, uint64_t b) {
  return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

/* b - a, clamped to the int64 range. */
static long long change(uint64_t a, uint64_t b) {
  if (b >= a) return b - a > (uint64_t)INT64_MAX ? INT64_MAX
                                                 : (long long)(b - a);
  return a - b > (uint64_t)INT64_MAX ? -INT64_MAX : -(long long)(a - b);
}

static unsigned long long mag(long long c) {
  return c < 0 ? (unsigned long long)-c : (unsigned long long)c;
}

typedef struct drow {
  uint32_t node;
  long long delta;
  uint64_t after;
} drow;

static int bychange(const void *x, const void *y) {
  const drow *a = x, *b = y;
  if (mag(a->delta) != mag(b->delta)) return mag(a->delta) > mag(b->delta)
                                             ? -1 : 1;
  if (a->after != b->after) return a->after > b->after ? -1 : 1;
  return a->node < b->node ? -1 : a->node > b->node;
}

/* Copy the values of metric 'name' of 'p' into a new metric 'as'. */
static int tag(cr_profile *p, const char *name, const char *as,
               const char *file) {
  int k = cr_profile_find_metric(p, name);
  int t = cr_profile_add_metric(p, as);
  if (t < 0) {
    rp_error("%s: too many metrics to compare", file);
    return RP_EXIT_INPUT;
  }
  for (uint32_t i = 1; i <= p->nnodes; i++)
    p->mval[t][i] = k < 0 ? 0 : cr_profile_value(p, (size_t)k, i);
  return RP_EXIT_OK;
}

static int digits(unsigned long long x) {
  int n = 1;
  while (x >= 10) {
    x /= 10;
    n++;
  }
  return n;
}

int rp_cmd_diff(const rp_opts *o, FILE *out) {
  const char *metric = o->metric ? o->metric : "calls";
  cr_diag d;
  cr_diag_clear(&d);
  cr_profile *in[2] = {NULL, NULL}, *u = NULL;
  rp_view v;
  memset(&v, 0, sizeof v);
  uint64_t *ta = NULL, *tba = NULL;
  drow *rows = NULL;
  uint32_t *st = NULL;
  size_t cap = 0;
  int rc = 0, s = RP_EXIT_OK;
  for (int i = 0; i < 2 && !rc; i++)
    rc = rp_load(&in[i], o->files[i], &d);
  if (rc) {
    rp_error_diag(&d);
    s = rc == CR_ENOMEM ? RP_EXIT_OUTPUT : RP_EXIT_INPUT;
    goto out;
  }
  if (cr_profile_find_metric(in[0], metric) < 0 &&
      cr_profile_find_metric(in[1], metric) < 0) {
    rp_error("no metric \"%s\" in %s or %s", metric, o->files[0],
             o->files[1]);
    s = RP_EXIT_INPUT;
    goto out;
  }
  if ((s = tag(in[0], metric, "cccp.diff.a", o->files[0])) ||
      (s = tag(in[1], metric, "cccp.diff.b", o->files[1])))
    goto out;
  rc = cr_profile_merge(&u, (const cr_profile *const *)in, 2,
                        o->merge_threads ? CR_MERGE_ALL : CR_MERGE_BY_NAME,
                        &d);
  cr_profile_free(in[0]);
  cr_profile_free(in[1]);
  in[0] = in[1] = NULL;
  if (rc) {
    rp_error_diag(&d);
    s = rc == CR_ENOMEM ? RP_EXIT_OUTPUT : RP_EXIT_INPUT;
    goto out;
  }
  const uint64_t *a = u->mval[cr_profile_find_metric(u, "cccp.diff.a")];
  const uint64_t *b = u->mval[cr_profile_find_metric(u, "cccp.diff.b")];
  const cr_profile *up = u;
  /* The view of B (after), with A's totals as 'before'; it owns 'u'. */
  v.p = u;
  u = NULL;
  v.metric = cr_profile_find_metric(up, "cccp.diff.b");
  v.mname = metric;
  v.self = b;
  v.merged = o->merge_threads;
  snprintf(v.label, sizeof v.label, "%s -> %s", o->files[0], o->files[1]);
  v.total = cr_calloc(up->nnodes + 1, sizeof *v.total);
  v.ttotal = cr_calloc(up->ntrees + 1, sizeof *v.ttotal);
  ta = cr_calloc(up->nnodes + 1, sizeof *ta);
  tba = cr_calloc(up->ntrees + 1, sizeof *tba);
  if (!v.total || !v.ttotal || !ta || !tba) goto nomem;
  for (size_t i = up->nnodes; i >= 1; i--) {
    const cr_prof_node *x = &up->nodes[i];
    v.total[i] = sat_add(v.total[i], b[i]);
    ta[i] = sat_add(ta[i], a[i]);
    if (x->parent) {
      v.total[x->parent] = sat_add(v.total[x->parent], v.total[i]);
      ta[x->parent] = sat_add(ta[x->parent], ta[i]);
    } else {
      v.ttotal[x->tree] = sat_add(v.ttotal[x->tree], v.total[i]);
      tba[x->tree] = sat_add(tba[x->tree], ta[i]);
    }
  }
  for (size_t t = 0; t < up->ntrees; t++) {
    v.grand = sat_add(v.grand, v.ttotal[t]);
    v.gbefore = sat_add(v.gbefore, tba[t]);
  }
  v.before = ta;
  v.tbefore = tba;
  if (o->flame) {
    s = rp_cmd_flame(o, &v, out);
    goto out;
  }

  /* The contexts that changed, by the size of the change. */
  size_t n = 0, seen = 0;
  uint64_t min = rp_min_value(&o->min, v.gbefore);
  if (!(rows = cr_malloc((up->nnodes + 1) * sizeof *rows))) goto nomem;
  for (uint32_t i = 1; i <= up->nnodes; i++) {
    long long c = o->sort_total ? change(ta[i], v.total[i])
                                : change(a[i], b[i]);
    if (!c || mag(c) < min) continue;
    seen++;
    rows[n++] = (drow){i, c, o->sort_total ? v.total[i] : b[i]};
  }
  if (n) qsort(rows, n, sizeof *rows, bychange);
  if (o->limit && n > o->limit) n = o->limit;
  long long all = change(v.gbefore, v.grand);
  fprintf(out, "%s: %llu -> %llu %s (%+lld, %+.1f%%)\n\n", v.label,
          (unsigned long long)v.gbefore, (unsigned long long)v.grand,
          metric, all,
          v.gbefore ? 100.0 * (double)all / (double)v.gbefore : 0.0);
  int w = 1, wc = 6;
  for (size_t i = 0; i < n; i++) {
    uint32_t x = rows[i].node;
    uint64_t before = o->sort_total ? ta[x] : a[x];
    if (digits(before) > w) w = digits(before);
    if (digits(rows[i].after) > w) w = digits(rows[i].after);
    if (digits(mag(rows[i].delta)) + 1 > wc) wc = digits(mag(rows[i].delta)) + 1;
  }
  fprintf(out, "contexts by change of %s %s\n",
          o->sort_total ? "total" : "self", metric);
  fprintf(out, "%*s %*s %*s  context\n", w, "A", w, "B", wc, "change");
  for (size_t i = 0; i < n; i++) {
    uint32_t x = rows[i].node;
    fprintf(out, "%*llu %*llu %+*lld  ", w,
            (unsigned long long)(o->sort_total ? ta[x] : a[x]), w,
            (unsigned long long)rows[i].after, wc, rows[i].delta);
    if (!v.merged) {
      putc('[', out);
      rp_puts(out, up->trees[up->nodes[x].tree].thread, NULL);
      fputs("] ", out);
    }
    if (rp_path(out, up, x, &st, &cap)) goto nomem;
    putc('\n', out);
  }
  if (!n) fputs("(no change)\n", out);
  if (seen > n) fprintf(out, "... %zu more\n", seen - n);
  goto out;
nomem:
  rp_error("out of memory");
  s = RP_EXIT_OUTPUT;
out:
  cr_profile_free(in[0]);
  cr_profile_free(in[1]);
  rp_view_close(&v);   /* the merged profile, the totals */
  cr_profile_free(u);
  cr_free(ta);
  cr_free(tba);
  cr_free(rows);
  cr_free(st);
  return s;
}
