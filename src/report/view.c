/*
** view.c -- what every rendering command starts from: the profiles read
** and merged, one metric, inclusive totals per node and tree, children
** ordered by weight; and the writing of names from profiles.
*/
#include <stdlib.h>
#include <string.h>

#include "cccp/jop.h"
#include "report.h"

static uint64_t sat_add(uint64_t a, uint64_t b) {
  return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

int rp_load(cr_profile **out, const char *path, cr_diag *d) {
  int rc = cr_profile_load(out, path, d);
  if (rc || !(*out)->jop.year || (*out)->jop.completed) return rc;
  rc = cr_jop_complete(*out, d);
  if (rc) {
    cr_diag_where(d, path, NULL);
    cr_profile_free(*out);
    *out = NULL;
  }
  return rc;
}

/* Read every profile of 'o' and merge them as 'o' says into 'v->p'. */
static int load(rp_view *v, const rp_opts *o) {
  cr_diag d;
  cr_diag_clear(&d);
  cr_profile **in = cr_calloc(o->nfiles, sizeof *in);
  if (!in) {
    rp_error("out of memory");
    return RP_EXIT_OUTPUT;
  }
  int rc = 0;
  size_t n = 0;
  for (; n < o->nfiles && !rc; n++) rc = rp_load(&in[n], o->files[n], &d);
  int st = rc ? (rc == CR_ENOMEM ? RP_EXIT_OUTPUT : RP_EXIT_INPUT)
              : RP_EXIT_OK;
  /* One profile of one thread is merged already. */
  int one = o->nfiles == 1 && !rc && in[0]->ntrees <= 1;
  if (!rc && !one && (o->nfiles > 1 || o->merge_threads)) {
    rc = cr_profile_merge(&v->p, (const cr_profile *const *)in, n,
                          o->merge_threads  ? CR_MERGE_ALL
                          : o->keep_threads ? CR_MERGE_KEEP
                                            : CR_MERGE_BY_NAME,
                          &d);
    st = rc ? (rc == CR_ENOMEM ? RP_EXIT_OUTPUT : RP_EXIT_INPUT) : st;
  } else if (!rc) {
    v->p = in[0];
    in[0] = NULL;
  }
  if (rc) rp_error_diag(&d);
  for (size_t i = 0; i < n; i++) cr_profile_free(in[i]);
  cr_free(in);
  v->merged = o->merge_threads;
  return st;
}

int rp_view_open(rp_view *v, const rp_opts *o) {
  memset(v, 0, sizeof *v);
  int st = load(v, o);
  if (st) return st;
  size_t w = 0;
  for (size_t i = 0; i < o->nfiles && w + 8 < sizeof v->label; i++)
    w += (size_t)snprintf(v->label + w, sizeof v->label - w, "%s%s",
                          i ? " " : "", o->files[i]);
  const cr_profile *p = v->p;
  const char *want = o->metric ? o->metric : "calls";
  v->metric = cr_profile_find_metric(p, want);
  if (v->metric < 0) {
    char have[512];
    size_t h = 0;
    for (size_t k = 0; k < p->nmetrics && h + 70 < sizeof have; k++)
      h += (size_t)snprintf(have + h, sizeof have - h, "%s%s", k ? ", " : "",
                            p->metric[k]);
    rp_error("%s: no metric \"%s\" in the profile (it has: %s)", v->label,
             want, have);
    rp_view_close(v);
    return RP_EXIT_INPUT;
  }
  v->mname = p->metric[v->metric];
  v->self = v->metric ? p->mval[v->metric] : NULL;
  v->total = cr_calloc(p->nnodes + 1, sizeof *v->total);
  v->ttotal = cr_calloc(p->ntrees + 1, sizeof *v->ttotal);
  if (!v->total || !v->ttotal) {
    rp_error("out of memory");
    rp_view_close(v);
    return RP_EXIT_OUTPUT;
  }
  /* Parents come before their children: one backward pass. */
  for (size_t i = p->nnodes; i >= 1; i--) {
    const cr_prof_node *x = &p->nodes[i];
    v->total[i] = sat_add(v->total[i], rp_self(v, (uint32_t)i));
    if (x->parent)
      v->total[x->parent] = sat_add(v->total[x->parent], v->total[i]);
    else
      v->ttotal[x->tree] = sat_add(v->ttotal[x->tree], v->total[i]);
  }
  for (size_t t = 0; t < p->ntrees; t++)
    v->grand = sat_add(v->grand, v->ttotal[t]);
  return RP_EXIT_OK;
}

/* Weight order: larger total first, then file (index) order. */
static int byweight(const void *a, const void *b, void *arg) {
  const uint64_t *total = arg;
  uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
  if (total[x] != total[y]) return total[x] > total[y] ? -1 : 1;
  return x < y ? -1 : x > y;
}

/* Sort the list starting at 'first' into 'v->snext', returning its head.
** 'buf' has room for every node. */
static uint32_t sort_list(rp_view *v, uint32_t first, uint32_t *buf) {
  size_t k = 0;
  for (uint32_t c = first; c; c = v->p->nodes[c].next) buf[k++] = c;
  if (!k) return 0;
  qsort_r(buf, k, sizeof *buf, byweight, v->total);
  for (size_t i = 0; i + 1 < k; i++) v->snext[buf[i]] = buf[i + 1];
  v->snext[buf[k - 1]] = 0;
  return buf[0];
}

int rp_view_sort(rp_view *v) {
  const cr_profile *p = v->p;
  v->sfirst = cr_calloc(p->nnodes + 1, sizeof *v->sfirst);
  v->snext = cr_calloc(p->nnodes + 1, sizeof *v->snext);
  v->tfirst = cr_calloc(p->ntrees + 1, sizeof *v->tfirst);
  uint32_t *buf = cr_malloc((p->nnodes + 1) * sizeof *buf);
  if (!v->sfirst || !v->snext || !v->tfirst || !buf) {
    cr_free(buf);
    rp_error("out of memory");
    return RP_EXIT_OUTPUT;
  }
  for (size_t t = 0; t < p->ntrees; t++)
    v->tfirst[t] = sort_list(v, p->trees[t].child, buf);
  for (size_t i = 1; i <= p->nnodes; i++)
    if (p->nodes[i].child)
      v->sfirst[i] = sort_list(v, p->nodes[i].child, buf);
  cr_free(buf);
  return RP_EXIT_OK;
}

void rp_view_close(rp_view *v) {
  cr_profile_free(v->p);
  cr_free(v->total);
  cr_free(v->ttotal);
  cr_free(v->sfirst);
  cr_free(v->snext);
  cr_free(v->tfirst);
  memset(v, 0, sizeof *v);
}

uint64_t rp_min_value(const rp_min *m, uint64_t total) {
  if (!m->percent) return m->value >= 1.8e19 ? UINT64_MAX
                                              : (uint64_t)(m->value + 0.999999);
  double x = m->value / 100.0 * (double)total;
  if (x >= 1.8e19) return UINT64_MAX;
  uint64_t r = (uint64_t)x;
  return (double)r < x ? r + 1 : r;
}

const rp_min *rp_min_opt(const rp_opts *o) {
  static const rp_min dflt = {0.01, 1};
  return o->min_set ? &o->min : &dflt;
}

/* Runs of plain bytes go out in one write: folded stacks and paths write
** every frame of every context. */
void rp_puts(FILE *f, const char *s, const char *avoid) {
  for (;;) {
    size_t n = avoid ? strcspn(s, avoid) : strlen(s), i = 0;
    while (i < n && (unsigned char)s[i] >= 0x20 && s[i] != 0x7f) i++;
    fwrite(s, 1, i, f);
    if (!s[i]) return;
    putc(i < n ? '?' : '_', f);
    s += i + 1;
  }
}

void rp_fold_note(FILE *f, const rp_view *v) {
  const cr_prof_run *r = &v->p->run;
  if (!r->folded_calls) return;
  fprintf(f, "note: %llu calls", (unsigned long long)r->folded_calls);
  if (v->metric == 0 && v->grand)
    fprintf(f, " (%.1f%%)", 100.0 * (double)r->folded_calls / (double)v->grand);
  fputs(" were made in contexts past the trees' budget", f);
  if (r->budget)
    fprintf(f, " (%.1f MiB)", (double)r->budget / (1024.0 * 1024.0));
  fputs(": each is counted under 'cccp.(folded)' at the top of its thread, "
        "its method's total exact\n", f);
}

void rp_huge_note(FILE *f, const cr_prof_run *r) {
  if (!r->huge_interpreted) return;
  fprintf(f, "note: %llu method bod%s instrumented as their classes loaded "
             "passed HotSpot's 8000-byte limit for compiling a method and "
             "ran interpreted: -XX:-DontCompileHugeMethods lets the JIT "
             "compile them\n", (unsigned long long)r->huge_interpreted,
          r->huge_interpreted == 1 ? "y" : "ies");
}

void rp_frame(FILE *f, const cr_prof_method *m, int desc, const char *avoid) {
  rp_puts(f, m->cls, avoid);
  putc('.', f);
  rp_puts(f, m->name, avoid);
  if (desc) rp_puts(f, m->desc, avoid);
}

/*
** The path of node 'n' from its tree's root, " > " between frames; a path
** of more than 2 * 'PATH_KEEP' frames loses its middle. '*st' is scratch
** room for the node indices (grown here).
*/
#define PATH_KEEP 64
int rp_path(FILE *f, const cr_profile *p, uint32_t n, uint32_t **st,
            size_t *cap) {
  size_t depth = 0;
  for (uint32_t y = n; y; y = p->nodes[y].parent) {
    if (depth == *cap) {
      size_t c = *cap ? *cap * 2 : 256;
      uint32_t *s = cr_realloc(*st, c * sizeof *s);
      if (!s) return CR_ENOMEM;
      *st = s;
      *cap = c;
    }
    (*st)[depth++] = y;
  }
  for (size_t i = depth; i-- > 0;) {
    if (depth > 2 * PATH_KEEP && i < depth - PATH_KEEP && i >= PATH_KEEP) {
      if (i == depth - PATH_KEEP - 1)
        fprintf(f, "... %zu frames > ", depth - 2 * PATH_KEEP);
      continue;
    }
    rp_frame(f, &p->methods[p->nodes[(*st)[i]].method], 1, NULL);
    if (i) fputs(" > ", f);
  }
  return 0;
}
