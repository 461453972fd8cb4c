/*
** top.c -- 'cccp-report top': the hottest methods and calling contexts by
** one metric. A method's self value is the sum over its contexts; its
** total sums the subtrees of its outermost contexts only, so that
** recursion is not counted twice. Per thread unless --merge-threads.
*/
#include <stdlib.h>
#include <string.h>

#include "report.h"

typedef struct row {
  uint32_t tree;
  uint32_t id;           /* method id or node index */
  uint64_t self, total;
} row;

/*
** The rows of one table, as they are found. Rows under the threshold are
** dropped; of the others ('seen') only the best 'limit' are kept, in a
** heap whose root is the worst kept row, so that a table of the ten
** hottest of millions of contexts needs room for ten. 'limit' 0 keeps
** every row.
*/
typedef struct rows {
  row *r;
  size_t n, cap;
  size_t limit;
  size_t seen;           /* rows at or over the threshold */
  uint64_t min;
  int (*cmp)(const void *, const void *);  /* < 0: ranks before */
  int by_total;
} rows;

static int by_self(const void *a, const void *b);
static int by_total(const void *a, const void *b);

static void rows_init(rows *rs, const rp_opts *o, uint64_t min) {
  memset(rs, 0, sizeof *rs);
  rs->limit = o->limit;
  rs->min = min;
  rs->by_total = o->sort_total;
  rs->cmp = o->sort_total ? by_total : by_self;
}

/* Heap order: a parent ranks after (or with) its children. */
static void sift_down(rows *rs, size_t i) {
  for (;;) {
    size_t l = 2 * i + 1, w = i;
    if (l < rs->n && rs->cmp(&rs->r[l], &rs->r[w]) > 0) w = l;
    if (l + 1 < rs->n && rs->cmp(&rs->r[l + 1], &rs->r[w]) > 0) w = l + 1;
    if (w == i) return;
    row t = rs->r[i];
    rs->r[i] = rs->r[w];
    rs->r[w] = t;
    i = w;
  }
}

static int push(rows *rs, row x) {
  if ((rs->by_total ? x.total : x.self) < rs->min) return 0;
  rs->seen++;
  if (rs->limit && rs->n == rs->limit) {
    if (rs->cmp(&x, &rs->r[0]) < 0) {
      rs->r[0] = x;
      sift_down(rs, 0);
    }
    return 0;
  }
  if (rs->n == rs->cap) {
    size_t cap = rs->cap ? rs->cap * 2 : 256;
    if (rs->limit && cap > rs->limit) cap = rs->limit;
    row *r = cr_realloc(rs->r, cap * sizeof *r);
    if (!r) return CR_ENOMEM;
    rs->r = r;
    rs->cap = cap;
  }
  size_t i = rs->n++;
  rs->r[i] = x;
  if (rs->limit)
    while (i > 0 && rs->cmp(&rs->r[(i - 1) / 2], &rs->r[i]) < 0) {
      row t = rs->r[i];
      rs->r[i] = rs->r[(i - 1) / 2];
      rs->r[(i - 1) / 2] = t;
      i = (i - 1) / 2;
    }
  return 0;
}

/* 1 if the class of method 'm' passes --include/--exclude. */
static int wanted(const rp_opts *o, const cr_prof_method *m) {
  for (size_t i = 0; i < o->nexclude; i++)
    if (strncmp(m->cls, o->exclude[i], strlen(o->exclude[i])) == 0) return 0;
  if (!o->ninclude) return 1;
  for (size_t i = 0; i < o->ninclude; i++)
    if (strncmp(m->cls, o->include[i], strlen(o->include[i])) == 0) return 1;
  return 0;
}

static uint64_t sat_add(uint64_t a, uint64_t b) {
  return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

/*
** The method rows of every tree. Per tree, a walk over first-child /
** next-sibling / parent links (no recursion) keeps in 'onpath' how often
** each method is on the current path; a node adds its subtree to its
** method's total only when no ancestor has the same method.
*/
static int method_rows(const rp_opts *o, const rp_view *v, rows *out) {
  const cr_profile *p = v->p;
  uint32_t *onpath = cr_calloc(p->nmethods + 1, sizeof *onpath);
  uint32_t *stamp = cr_calloc(p->nmethods + 1, sizeof *stamp);
  uint64_t *self = cr_calloc(p->nmethods + 1, sizeof *self);
  uint64_t *total = cr_calloc(p->nmethods + 1, sizeof *total);
  uint32_t *touched = cr_malloc((p->nmethods + 1) * sizeof *touched);
  int rc = CR_ENOMEM;
  if (!onpath || !stamp || !self || !total || !touched) goto out;
  for (size_t t = 0; t < p->ntrees; t++) {
    size_t nt = 0;
    uint32_t n = p->trees[t].child;
    while (n) {
      const cr_prof_node *x = &p->nodes[n];
      uint32_t m = x->method;
      if (stamp[m] != t + 1) {
        stamp[m] = (uint32_t)t + 1;
        touched[nt++] = m;
        self[m] = total[m] = 0;
      }
      if (!onpath[m]) total[m] = sat_add(total[m], v->total[n]);
      self[m] = sat_add(self[m], rp_self(v, n));
      onpath[m]++;
      if (x->child) {
        n = x->child;
        continue;
      }
      while (n && !p->nodes[n].next) {
        onpath[p->nodes[n].method]--;
        n = p->nodes[n].parent;
      }
      if (n) {
        onpath[p->nodes[n].method]--;
        n = p->nodes[n].next;
      }
    }
    for (size_t i = 0; i < nt; i++) {
      uint32_t m = touched[i];
      if (wanted(o, &p->methods[m]) &&
          push(out, (row){(uint32_t)t, m, self[m], total[m]}))
        goto out;
    }
  }
  rc = 0;
out:
  cr_free(onpath);
  cr_free(stamp);
  cr_free(self);
  cr_free(total);
  cr_free(touched);
  return rc;
}

static int context_rows(const rp_opts *o, const rp_view *v, rows *out) {
  const cr_profile *p = v->p;
  for (size_t i = 1; i <= p->nnodes; i++) {
    const cr_prof_node *x = &p->nodes[i];
    if (wanted(o, &p->methods[x->method]) &&
        push(out, (row){x->tree, (uint32_t)i, rp_self(v, (uint32_t)i),
                        v->total[i]}))
      return CR_ENOMEM;
  }
  return 0;
}

static int by_self(const void *a, const void *b) {
  const row *x = a, *y = b;
  if (x->self != y->self) return x->self > y->self ? -1 : 1;
  if (x->total != y->total) return x->total > y->total ? -1 : 1;
  if (x->tree != y->tree) return x->tree < y->tree ? -1 : 1;
  return x->id < y->id ? -1 : x->id > y->id;
}

static int by_total(const void *a, const void *b) {
  const row *x = a, *y = b;
  if (x->total != y->total) return x->total > y->total ? -1 : 1;
  return by_self(a, b);
}

static int digits(uint64_t x) {
  int n = 1;
  while (x >= 10) {
    x /= 10;
    n++;
  }
  return n;
}

static double pct(uint64_t x, uint64_t of) {
  return of ? 100.0 * (double)x / (double)of : 0.0;
}

static int table(const rp_opts *o, const rp_view *v, rows *rs, int ctx,
                 FILE *f) {
  if (rs->n) qsort(rs->r, rs->n, sizeof *rs->r, rs->cmp);
  size_t n = rs->n, more = rs->seen - rs->n;
  uint32_t *st = NULL;
  size_t cap = 0;
  int ws = 4, wt = 5;
  for (size_t i = 0; i < n; i++) {
    if (digits(rs->r[i].self) > ws) ws = digits(rs->r[i].self);
    if (digits(rs->r[i].total) > wt) wt = digits(rs->r[i].total);
  }
  fprintf(f, "%s by %s %s\n", ctx ? "contexts" : "methods",
          o->sort_total ? "total" : "self", v->mname);
  fprintf(f, "%*s %6s %*s %6s  %s\n", ws, "self", "self%", wt, "total",
          "total%", ctx ? "context" : "method");
  for (size_t i = 0; i < n; i++) {
    const row *r = &rs->r[i];
    fprintf(f, "%*llu %5.1f%% %*llu %5.1f%%  ", ws,
            (unsigned long long)r->self, pct(r->self, v->grand), wt,
            (unsigned long long)r->total, pct(r->total, v->grand));
    if (!v->merged) {
      putc('[', f);
      rp_puts(f, v->p->trees[r->tree].thread, NULL);
      fputs("] ", f);
    }
    if (ctx && rp_path(f, v->p, r->id, &st, &cap)) {
      cr_free(st);
      return CR_ENOMEM;
    }
    if (!ctx) rp_frame(f, &v->p->methods[r->id], 1, NULL);
    putc('\n', f);
  }
  cr_free(st);
  if (!n) fputs("(none)\n", f);
  if (more) fprintf(f, "... %zu more\n", more);
  return 0;
}

int rp_cmd_top(const rp_opts *o, rp_view *v, FILE *out) {
  rows ms, cs;
  uint64_t min = rp_min_value(&o->min, v->grand);
  rows_init(&ms, o, min);
  rows_init(&cs, o, min);
  int st = RP_EXIT_OK;
  if (((o->sections & RP_METHODS) && method_rows(o, v, &ms)) ||
      ((o->sections & RP_CONTEXTS) && context_rows(o, v, &cs))) {
    rp_error("out of memory");
    st = RP_EXIT_OUTPUT;
    goto out;
  }
  fprintf(out, "%s: %llu %s", v->label, (unsigned long long)v->grand,
          v->mname);
  if (v->merged)
    fputs(", threads merged\n", out);
  else
    fprintf(out, " in %zu thread%s\n", v->p->ntrees,
            v->p->ntrees == 1 ? "" : "s");
  rp_fold_note(out, v);
  rp_huge_note(out, &v->p->run);
  if (o->sections & RP_METHODS) {
    putc('\n', out);
    if (table(o, v, &ms, 0, out)) st = RP_EXIT_OUTPUT;
  }
  if (st == RP_EXIT_OK && (o->sections & RP_CONTEXTS)) {
    putc('\n', out);
    if (table(o, v, &cs, 1, out)) st = RP_EXIT_OUTPUT;
  }
  if (st != RP_EXIT_OK) rp_error("out of memory");
out:
  cr_free(ms.r);
  cr_free(cs.r);
  return st;
}
