/*
** tree.c -- 'cccp-report tree': the calling-context tree, indented, one
** context a line with its total, share and self value; children by
** decreasing total. Limits: --depth (levels of frames), --min (contexts
** under the threshold are summed into one line per parent). Colour on a
** terminal: the share by heat, library frames apart.
*/
#include <string.h>

#include "report.h"

/* Indentation stops growing at this level; deeper lines say their depth. */
#define MAX_INDENT 60

#define C_RESET "\033[0m"
#define C_THREAD "\033[1m"
#define C_HOT "\033[1;31m"
#define C_WARM "\033[33m"
#define C_LIB "\033[36m"
#define C_DIM "\033[2m"

typedef struct tw {
  const rp_view *v;
  FILE *f;
  int color;
  int w;                 /* width of the number columns */
  int base;              /* indentation of top-level frames */
} tw;

static int digits(uint64_t x) {
  int n = 1;
  while (x >= 10) {
    x /= 10;
    n++;
  }
  return n;
}

/* The number columns; 'self' < 0 leaves the self column blank. */
static void nums(const tw *t, uint64_t total, long long self) {
  double pc = t->v->grand ? 100.0 * (double)total / (double)t->v->grand : 0;
  fprintf(t->f, "%*llu ", t->w, (unsigned long long)total);
  const char *c = !t->color ? "" : pc >= 20 ? C_HOT : pc >= 5 ? C_WARM : "";
  fprintf(t->f, "%s%5.1f%%%s ", c, pc, *c ? C_RESET : "");
  if (self >= 0) fprintf(t->f, "%*llu  ", t->w, (unsigned long long)self);
  else fprintf(t->f, "%*s  ", t->w, "");
}

static void indent(const tw *t, size_t depth) {
  size_t level = t->base + depth - 1;
  for (size_t i = level < MAX_INDENT ? level : MAX_INDENT; i > 0; i--)
    fputs("  ", t->f);
  if (level > MAX_INDENT) fprintf(t->f, "(depth %zu) ", depth);
}

static void line(const tw *t, uint32_t n, size_t depth) {
  const cr_profile *p = t->v->p;
  const cr_prof_method *m = &p->methods[p->nodes[n].method];
  uint64_t self = rp_self(t->v, n);
  nums(t, t->v->total[n], self > (uint64_t)INT64_MAX ? INT64_MAX
                                                    : (long long)self);
  indent(t, depth);
  int lib = t->color && (m->library || m->native);
  if (lib) fputs(C_LIB, t->f);
  rp_frame(t->f, m, 1, NULL);
  if (lib) fputs(C_RESET, t->f);
  putc('\n', t->f);
}

/* One line for 'k' contexts of total 'sum' left out at 'depth'. */
static void elided(const tw *t, size_t k, uint64_t sum, size_t depth,
                   const char *what) {
  nums(t, sum, -1);
  indent(t, depth);
  fprintf(t->f, "%s... %zu more %s%s\n", t->color ? C_DIM : "", k, what,
          t->color ? C_RESET : "");
}

static uint64_t sat_add(uint64_t a, uint64_t b) {
  return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

/*
** Pre-order over the weight-ordered links, without recursion: down to the
** first child while the depth allows, else to the next sibling or up.
** Siblings come by decreasing total, so the first one under the
** threshold ends the list: it and the rest become one line.
*/
static void walk(const tw *t, uint32_t first, long maxdepth, uint64_t min) {
  const rp_view *v = t->v;
  const cr_profile *p = v->p;
  uint32_t n = first;
  size_t depth = 1;
  while (n) {
    if (v->total[n] < min) {
      size_t k = 0;
      uint64_t sum = 0;
      for (uint32_t s = n; s; s = v->snext[s], k++)
        sum = sat_add(sum, v->total[s]);
      elided(t, k, sum, depth, "under the threshold");
      n = p->nodes[n].parent;
      depth--;
    } else {
      line(t, n, depth);
      if (v->sfirst[n] && (maxdepth < 0 || (long)depth < maxdepth)) {
        n = v->sfirst[n];
        depth++;
        continue;
      }
    }
    while (n && !v->snext[n]) {
      n = p->nodes[n].parent;
      depth--;
    }
    if (n) n = v->snext[n];
  }
}

int rp_cmd_tree(const rp_opts *o, rp_view *v, FILE *out) {
  int st = rp_view_sort(v);
  if (st) return st;
  tw t = {v, out, o->use_color, digits(v->grand), v->merged ? 0 : 1};
  if (t.w < 5) t.w = 5;
  const cr_profile *p = v->p;
  uint64_t min = rp_min_value(rp_min_opt(o), v->grand);
  fprintf(out, "%s: %llu %s", v->label, (unsigned long long)v->grand,
          v->mname);
  if (v->merged)
    fputs(", threads merged\n", out);
  else
    fprintf(out, " in %zu thread%s\n", p->ntrees, p->ntrees == 1 ? "" : "s");
  fprintf(out, "%*s %6s %*s  %s\n", t.w, "total", "%", t.w, "self",
          "context");
  size_t hidden = 0;
  uint64_t hsum = 0;
  for (size_t i = 0; i < p->ntrees; i++) {
    if (!v->merged) {
      if (v->ttotal[i] < min) {
        hidden++;
        hsum = sat_add(hsum, v->ttotal[i]);
        continue;
      }
      nums(&t, v->ttotal[i], -1);
      fprintf(out, "%s[", t.color ? C_THREAD : "");
      rp_puts(out, p->trees[i].thread, NULL);
      fprintf(out, "]%s\n", t.color ? C_RESET : "");
    }
    if (o->depth != 0) walk(&t, v->tfirst[i], o->depth, min);
  }
  if (hidden) {
    t.base = 0;
    elided(&t, hidden, hsum, 1, hidden == 1 ? "thread under the threshold"
                                            : "threads under the threshold");
  }
  return RP_EXIT_OK;
}
