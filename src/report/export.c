/*
** export.c -- profiles in the formats other tools read: folded stacks
** ('frame;frame;frame N', one line per context with a self value, for
** flamegraph.pl, speedscope, inferno), callgrind (the format of
** valgrind's callgrind tool, for KCachegrind and callgrind_annotate), and
** profile XML again (merge).
*/
#include <stdlib.h>
#include <string.h>

#include "report.h"

#ifndef CCCP_VERSION
#define CCCP_VERSION "dev"
#endif

/* --------------------------------------------------------------- folded */

/*
** One line per context whose self value is not 0: its frames from the
** root ("[thread]" first unless the threads are merged), "pkg/Cls.name"
** without the descriptor, ';' between them, then the value. A ';' inside
** a name (none in valid class files) is written '_'. With --min, the
** contexts whose total is under the threshold are left out with their
** subtrees. Pre-order without recursion; 'st' holds the methods on the
** current path.
*/
int rp_cmd_folded(const rp_opts *o, rp_view *v, FILE *out) {
  const cr_profile *p = v->p;
  uint64_t min = rp_min_value(&o->min, v->grand);
  uint32_t *st = NULL;
  size_t cap = 0;
  for (size_t t = 0; t < p->ntrees; t++) {
    if (v->ttotal[t] < min) continue;
    uint32_t n = p->trees[t].child;
    size_t depth = 0;
    while (n) {
      if (depth == cap) {
        size_t c = cap ? cap * 2 : 256;
        uint32_t *s = cr_realloc(st, c * sizeof *s);
        if (!s) {
          cr_free(st);
          rp_error("out of memory");
          return RP_EXIT_OUTPUT;
        }
        st = s;
        cap = c;
      }
      st[depth++] = p->nodes[n].method;
      if (v->total[n] < min) {
        n = rp_preorder_after(p, n, &depth);
        continue;
      }
      uint64_t self = rp_self(v, n);
      if (self) {
        if (!v->merged) {
          putc('[', out);
          rp_puts(out, p->trees[t].thread, ";");
          fputs("];", out);
        }
        for (size_t i = 0; i < depth; i++) {
          rp_frame(out, &p->methods[st[i]], 0, ";");
          putc(i + 1 < depth ? ';' : ' ', out);
        }
        fprintf(out, "%llu\n", (unsigned long long)self);
      }
      n = rp_preorder_next(p, n, &depth);
    }
  }
  cr_free(st);
  return RP_EXIT_OK;
}

/* ------------------------------------------------------------ callgrind */

/* A call edge between two methods, all contexts and threads together. */
typedef struct edge {
  uint32_t caller, callee;
  uint64_t calls;        /* calls of the callee from the caller */
  size_t cost;           /* index of its inclusive costs in 'incl' */
} edge;

typedef struct cg {
  const cr_profile *p;
  size_t nk;             /* metrics */
  edge *e;
  size_t ne, cape;
  uint32_t *tab;         /* open addressing, edge index + 1 */
  size_t tabn;
  uint64_t *incl;        /* [edge * nk + k] */
  uint64_t *self;        /* [method * nk + k] */
  uint8_t *used;         /* [method]: has a node */
} cg;

static uint64_t sat_add(uint64_t a, uint64_t b) {
  return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

static uint64_t ehash(uint32_t a, uint32_t b) {
  uint64_t x = ((uint64_t)a << 32 | b) * 0x9E3779B97F4A7C15ull;
  return x ^ x >> 29;
}

/* The edge caller -> callee, added when new; -1 on allocation failure. */
static long edge_of(cg *g, uint32_t a, uint32_t b) {
  if ((g->ne + 1) * 2 >= g->tabn) {
    size_t n = g->tabn ? g->tabn * 2 : 1024;
    uint32_t *t = cr_calloc(n, sizeof *t);
    if (!t) return -1;
    for (size_t i = 0; i < g->ne; i++) {
      size_t j = ehash(g->e[i].caller, g->e[i].callee) & (n - 1);
      while (t[j]) j = (j + 1) & (n - 1);
      t[j] = (uint32_t)i + 1;
    }
    cr_free(g->tab);
    g->tab = t;
    g->tabn = n;
  }
  size_t j = ehash(a, b) & (g->tabn - 1);
  for (uint32_t i; (i = g->tab[j]); j = (j + 1) & (g->tabn - 1))
    if (g->e[i - 1].caller == a && g->e[i - 1].callee == b) return i - 1;
  if (g->ne == g->cape) {
    size_t c = g->cape ? g->cape * 2 : 256;
    edge *e = cr_realloc(g->e, c * sizeof *e);
    uint64_t *in = e ? cr_realloc(g->incl, c * g->nk * sizeof *in) : NULL;
    if (e) g->e = e;
    if (!in) return -1;
    g->incl = in;
    g->cape = c;
  }
  size_t i = g->ne++;
  g->e[i] = (edge){a, b, 0, i};
  memset(g->incl + i * g->nk, 0, g->nk * sizeof *g->incl);
  g->tab[j] = (uint32_t)i + 1;
  return (long)i;
}

static int bycaller(const void *x, const void *y) {
  const edge *a = x, *b = y;
  if (a->caller != b->caller) return a->caller < b->caller ? -1 : 1;
  return a->callee < b->callee ? -1 : a->callee > b->callee;
}

/*
** Build the function-level view: for each method the sum of its contexts'
** own values per metric; for each caller -> callee pair the calls and the
** inclusive values of the callee's contexts under the caller's. Subtree
** sums of every metric come from one backward pass each (parents have
** smaller indices than their children).
*/
static int build(cg *g) {
  const cr_profile *p = g->p;
  size_t nk = g->nk;
  uint64_t *tot = cr_malloc((p->nnodes + 1) * sizeof *tot);
  long *eof = cr_malloc((p->nnodes + 1) * sizeof *eof);
  g->self = cr_calloc((p->nmethods + 1) * nk, sizeof *g->self);
  g->used = cr_calloc(p->nmethods + 1, 1);
  int rc = CR_ENOMEM;
  if (!tot || !eof || !g->self || !g->used) goto out;
  for (size_t i = 1; i <= p->nnodes; i++) {
    const cr_prof_node *x = &p->nodes[i];
    g->used[x->method] = 1;
    eof[i] = -1;
    if (x->parent) {
      eof[i] = edge_of(g, p->nodes[x->parent].method, x->method);
      if (eof[i] < 0) goto out;
      edge *e = &g->e[eof[i]];
      e->calls = sat_add(e->calls, x->calls);
    }
  }
  for (size_t k = 0; k < nk; k++) {
    memset(tot, 0, (p->nnodes + 1) * sizeof *tot);
    for (size_t i = p->nnodes; i >= 1; i--) {
      const cr_prof_node *x = &p->nodes[i];
      uint64_t own = cr_profile_value(p, k, (uint32_t)i);
      uint64_t *s = &g->self[x->method * nk + k];
      *s = sat_add(*s, own);
      tot[i] = sat_add(tot[i], own);
      if (x->parent) tot[x->parent] = sat_add(tot[x->parent], tot[i]);
      if (eof[i] >= 0) {
        uint64_t *c = &g->incl[(size_t)eof[i] * nk + k];
        *c = sat_add(*c, tot[i]);
      }
    }
  }
  rc = 0;
out:
  cr_free(tot);
  cr_free(eof);
  return rc;
}

/* "fn=(ID) NAME" the first time, "fn=(ID)" after. */
static void fnname(FILE *f, const char *key, const cr_profile *p, uint32_t m,
                   uint8_t *named) {
  fprintf(f, "%s=(%u)", key, m);
  if (!named[m]) {
    putc(' ', f);
    rp_frame(f, &p->methods[m], 1, NULL);
    named[m] = 1;
  }
  putc('\n', f);
}

static void costs(FILE *f, const uint64_t *c, size_t nk) {
  fputc('0', f);
  for (size_t k = 0; k < nk; k++)
    fprintf(f, " %llu", (unsigned long long)c[k]);
  putc('\n', f);
}

/*
** Callgrind format 1: one "file" per class (its internal name), one
** function per method ("pkg/Cls.name(desc)", name compression by method
** id), every metric an event, costs at line 0. Threads are merged: the
** format describes functions, not contexts.
*/
int rp_cmd_callgrind(const rp_opts *o, rp_view *v, FILE *out) {
  (void)o;
  const cr_profile *p = v->p;
  cg g;
  memset(&g, 0, sizeof g);
  g.p = p;
  g.nk = p->nmetrics;
  uint8_t *named = cr_calloc(p->nmethods + 1, 1);
  uint64_t *all = cr_calloc(g.nk, sizeof *all);
  int st = RP_EXIT_OK;
  if (!named || !all || build(&g)) {
    rp_error("out of memory");
    st = RP_EXIT_OUTPUT;
    goto out;
  }
  if (g.ne) qsort(g.e, g.ne, sizeof *g.e, bycaller);
  fprintf(out, "# callgrind format\nversion: 1\ncreator: cccp-report %s\n"
               "cmd: ", CCCP_VERSION);
  rp_puts(out, v->label, NULL);
  fputs("\npositions: line\nevents:", out);
  for (size_t k = 0; k < g.nk; k++) {
    putc(' ', out);
    rp_puts(out, p->metric[k], NULL);
  }
  fputs("\n\n", out);
  size_t e = 0;
  for (uint32_t m = 1; m <= p->nmethods; m++) {
    if (!g.used[m]) continue;
    fputs("fl=", out);
    rp_puts(out, p->methods[m].cls, NULL);
    putc('\n', out);
    fnname(out, "fn", p, m, named);
    costs(out, g.self + (size_t)m * g.nk, g.nk);
    for (size_t k = 0; k < g.nk; k++)
      all[k] = sat_add(all[k], g.self[(size_t)m * g.nk + k]);
    for (; e < g.ne && g.e[e].caller == m; e++) {
      const edge *x = &g.e[e];
      fputs("cfl=", out);
      rp_puts(out, p->methods[x->callee].cls, NULL);
      putc('\n', out);
      fnname(out, "cfn", p, x->callee, named);
      fprintf(out, "calls=%llu 0\n", (unsigned long long)x->calls);
      costs(out, g.incl + x->cost * g.nk, g.nk);
    }
    putc('\n', out);
  }
  fputs("totals:", out);
  for (size_t k = 0; k < g.nk; k++)
    fprintf(out, " %llu", (unsigned long long)all[k]);
  putc('\n', out);
out:
  cr_free(named);
  cr_free(all);
  cr_free(g.e);
  cr_free(g.tab);
  cr_free(g.incl);
  cr_free(g.self);
  cr_free(g.used);
  return st;
}

/* ---------------------------------------------------------------- merge */

/* The merged profile as profile XML (cr_profile_write). */
int rp_cmd_merge(const rp_opts *o, rp_view *v, FILE *out) {
  (void)o;
  cr_diag d;
  cr_diag_clear(&d);
  if (cr_profile_write(v->p, out, &d)) {
    rp_error_diag(&d);
    return RP_EXIT_OUTPUT;
  }
  return RP_EXIT_OK;
}
