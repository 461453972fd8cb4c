/*
** stats.c -- 'cccp-report stats': the shape of a profile, after the
** analyses of the CCCP paper: the share of native-method contexts and
** calls; calls split by the kind of caller and callee (application or
** JDK; a top-level call's caller is the thread); depth and fan-out of the
** trees; contexts per method; per-thread totals of every metric.
*/
#include <string.h>

#include "report.h"

/* Kinds of frames. ORDER as 'kname'. */
enum { F_THREAD, F_APP, F_JDK, F_NKINDS };
static const char *const kname[] = {"thread", "app", "JDK"};

/* Packages of the JDK (the Java SE and JDK modules' own). */
static const char *const jdk_prefix[] = {
  "java/", "javax/", "jdk/", "sun/", "com/sun/", "org/xml/sax/",
  "org/w3c/dom/", "org/ietf/jgss/", "org/omg/", NULL};

/* F_APP or F_JDK for method 'm': by --app-prefix when given, else by the
** JDK's packages. */
static int kind(const rp_opts *o, const cr_prof_method *m) {
  if (o->cmp.napp) {
    for (size_t i = 0; i < o->cmp.napp; i++)
      if (strncmp(m->cls, o->app[i], strlen(o->app[i])) == 0) return F_APP;
    return F_JDK;
  }
  for (int i = 0; jdk_prefix[i]; i++)
    if (strncmp(m->cls, jdk_prefix[i], strlen(jdk_prefix[i])) == 0)
      return F_JDK;
  return F_APP;
}

static uint64_t sat_add(uint64_t a, uint64_t b) {
  return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

static double pct(uint64_t x, uint64_t of) {
  return of ? 100.0 * (double)x / (double)of : 0.0;
}

static double ratio(double x, double of) { return of > 0 ? x / of : 0.0; }

static int digits(uint64_t x) {
  int n = 1;
  while (x >= 10) {
    x /= 10;
    n++;
  }
  return n;
}

int rp_cmd_stats(const rp_opts *o, rp_view *v, FILE *out) {
  const cr_profile *p = v->p;
  uint32_t *depth = cr_malloc((p->nnodes + 1) * sizeof *depth);
  uint32_t *per = cr_calloc(p->nmethods + 1, sizeof *per);
  uint8_t *mk = cr_malloc(p->nmethods + 1);
  uint32_t *tdepth = cr_calloc(p->ntrees + 1, sizeof *tdepth);
  uint64_t *tnodes = cr_calloc(p->ntrees + 1, sizeof *tnodes);
  uint64_t *tval = cr_calloc((p->ntrees + 1) * p->nmetrics, sizeof *tval);
  int st = RP_EXIT_OK;
  if (!depth || !per || !mk || !tdepth || !tnodes || !tval) {
    rp_error("out of memory");
    st = RP_EXIT_OUTPUT;
    goto out;
  }
  for (size_t m = 1; m <= p->nmethods; m++)
    mk[m] = (uint8_t)kind(o, &p->methods[m]);

  uint64_t calls = 0, ncalls[F_NKINDS][F_NKINDS];
  uint64_t native_nodes = 0, native_calls = 0, inner = 0, children = 0;
  uint64_t fold_points = 0;   /* fold nodes under kept contexts */
  uint64_t maxfan = 0;
  double dsum = 0, dcalls = 0;
  uint32_t maxdepth = 0;
  memset(ncalls, 0, sizeof ncalls);
  for (size_t i = 1; i <= p->nnodes; i++) {
    const cr_prof_node *x = &p->nodes[i];
    depth[i] = x->parent ? depth[x->parent] + 1 : 1;
    if (depth[i] > maxdepth) maxdepth = depth[i];
    if (depth[i] > tdepth[x->tree]) tdepth[x->tree] = depth[i];
    tnodes[x->tree]++;
    for (size_t k = 0; k < p->nmetrics; k++) {
      uint64_t *t = &tval[x->tree * p->nmetrics + k];
      *t = sat_add(*t, cr_profile_value(p, k, (uint32_t)i));
    }
    calls = sat_add(calls, x->calls);
    dsum += depth[i];
    dcalls += (double)depth[i] * (double)x->calls;
    per[x->method]++;
    int from = x->parent ? mk[p->nodes[x->parent].method] : F_THREAD;
    uint64_t *c = &ncalls[from][mk[x->method]];
    *c = sat_add(*c, x->calls);
    if (p->methods[x->method].folded && x->parent) fold_points++;
    if (p->methods[x->method].native) {
      native_nodes++;
      native_calls = sat_add(native_calls, x->calls);
    }
    if (x->child) {
      uint64_t k = 0;
      for (uint32_t y = x->child; y; y = p->nodes[y].next) k++;
      inner++;
      children += k;
      if (k > maxfan) maxfan = k;
    }
  }
  size_t used = 0, maxper = 0;
  for (size_t m = 1; m <= p->nmethods; m++) {
    if (per[m]) used++;
    if (per[m] > per[maxper]) maxper = m;
  }

  fprintf(out, "%s: %zu contexts, %llu calls, %zu thread%s, %zu of %zu "
               "methods used\n", v->label, p->nnodes,
          (unsigned long long)calls, p->ntrees, p->ntrees == 1 ? "" : "s",
          used, p->nmethods);
  const cr_prof_run *r = &p->run;
  if (r->nodes || r->bytes) {
    fprintf(out, "trees in memory: %llu nodes, %.1f MiB (%.1f bytes a node)",
            (unsigned long long)r->nodes, (double)r->bytes / 1048576.0,
            r->nodes ? (double)r->bytes / (double)r->nodes : 0.0);
    if (r->budget)
      fprintf(out, ", budget %.1f MiB", (double)r->budget / 1048576.0);
    putc('\n', out);
  }
  if (r->folded_calls) {
    fprintf(out, "folded: %llu calls (%.1f%%) of %llu methods, in contexts "
                 "past the budget, below %llu kept contexts",
            (unsigned long long)r->folded_calls, pct(r->folded_calls, calls),
            (unsigned long long)r->folded_methods,
            (unsigned long long)fold_points);
    if (r->folding_since && r->interval_start &&
        r->folding_since >= r->interval_start)
      fprintf(out, ", from %.1f s into the interval",
              (double)(r->folding_since - r->interval_start) / 1000.0);
    putc('\n', out);
  }
  rp_huge_note(out, r);
  if (r->time && r->interval_start && r->time >= r->interval_start) {
    fprintf(out, "interval: %.1f s", (double)(r->time - r->interval_start) / 1000.0);
    if (r->resets)
      fprintf(out, ", since reset %llu", (unsigned long long)r->resets);
    putc('\n', out);
  }
  fputs("metrics:", out);
  for (size_t k = 0; k < p->nmetrics; k++) {
    putc(' ', out);
    rp_puts(out, p->metric[k], NULL);
  }
  fprintf(out, "\n\nnative methods: %llu of %zu contexts (%.1f%%), %llu of "
               "%llu calls (%.1f%%)\n",
          (unsigned long long)native_nodes, p->nnodes,
          pct(native_nodes, p->nnodes), (unsigned long long)native_calls,
          (unsigned long long)calls, pct(native_calls, calls));
  fprintf(out, "\ncalls by caller -> callee (JDK: %s)\n",
          o->cmp.napp ? "classes outside --app-prefix"
                      : "java/, javax/, jdk/, sun/, com/sun/, org/...");
  int w = digits(calls);
  for (int a = 0; a < F_NKINDS; a++)
    for (int b = F_APP; b < F_NKINDS; b++) {
      char what[32];
      snprintf(what, sizeof what, "%s -> %s", kname[a], kname[b]);
      fprintf(out, "  %-16s %*llu %5.1f%%\n", what, w,
              (unsigned long long)ncalls[a][b], pct(ncalls[a][b], calls));
    }
  fprintf(out, "\ndepth: max %u, mean %.2f per context, %.2f per call\n",
          maxdepth, ratio(dsum, (double)p->nnodes), ratio(dcalls,
                                                          (double)calls));
  fprintf(out, "fan-out: max %llu, mean %.2f per calling context (%llu "
               "contexts call others)\n",
          (unsigned long long)maxfan, ratio((double)children, (double)inner),
          (unsigned long long)inner);
  fprintf(out, "contexts per method: mean %.2f", ratio((double)p->nnodes,
                                                       (double)used));
  if (maxper && per[maxper]) {
    fprintf(out, ", max %u (", per[maxper]);
    rp_frame(out, &p->methods[maxper], 1, NULL);
    putc(')', out);
  }
  fputs("\n\nthreads\n", out);
  int wn = 8;
  for (size_t t = 0; t < p->ntrees; t++)
    if (digits(tnodes[t]) > wn) wn = digits(tnodes[t]);
  fprintf(out, "%*s %5s", wn, "contexts", "depth");
  for (size_t k = 0; k < p->nmetrics; k++) {
    fputs("  ", out);
    fprintf(out, "%*s", wn, p->metric[k]);
  }
  fputs("  thread\n", out);
  for (size_t t = 0; t < p->ntrees; t++) {
    fprintf(out, "%*llu %5u", wn, (unsigned long long)tnodes[t], tdepth[t]);
    for (size_t k = 0; k < p->nmetrics; k++)
      fprintf(out, "  %*llu", wn,
              (unsigned long long)tval[t * p->nmetrics + k]);
    fputs("  [", out);
    rp_puts(out, p->trees[t].thread, NULL);
    fputs("]\n", out);
  }
out:
  cr_free(depth);
  cr_free(per);
  cr_free(mk);
  cr_free(tdepth);
  cr_free(tnodes);
  cr_free(tval);
  return st;
}
