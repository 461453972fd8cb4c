/*
** merge.c -- merging profiles into one: methods interned by class, name
** and descriptor, trees kept, merged by thread name or merged into one,
** equal contexts (same tree, same parent context, same method) added up.
** Two open-addressing tables of indices into the result.
*/
#include <string.h>

#include "cccp/profile.h"

typedef struct mg {
  cr_profile *p;
  uint32_t *mtab;        /* method ids of 'p', 0 = empty slot */
  size_t mtabn;
  uint32_t *ntab;        /* node indices of 'p', 0 = empty slot */
  size_t ntabn;
  uint32_t *ttab;        /* tree index + 1, 0 = empty (CR_MERGE_BY_NAME) */
  size_t ttabn;
} mg;

static uint64_t hstr(uint64_t h, const char *s) {
  for (; *s; s++) h = (h ^ (unsigned char)*s) * 0x100000001b3ull;
  return (h ^ 0xff) * 0x100000001b3ull;
}

static uint64_t hmix(uint64_t x) {
  x *= 0x9E3779B97F4A7C15ull;
  return x ^ x >> 29;
}

/* A node's key: its parent, or its tree for a top-level node; its method. */
static uint64_t nkey(uint32_t tree, uint32_t parent, uint32_t method) {
  uint64_t up = parent ? parent : 0x80000000u | tree;
  return up << 32 | method;
}

/*
** Make room in an open-addressing table of 'count' used slots, rehashing
** with 'hash' (of a stored index). CR_ENOMEM on failure.
*/
static int room(uint32_t **tab, size_t *n, size_t count,
                uint64_t (*hash)(const mg *, uint32_t), const mg *g) {
  if ((count + 1) * 2 < *n) return 0;
  size_t nn = *n ? *n * 2 : 1024;
  uint32_t *t = cr_calloc(nn, sizeof *t);
  if (!t) return CR_ENOMEM;
  for (size_t i = 0; i < *n; i++) {
    uint32_t v = (*tab)[i];
    if (!v) continue;
    size_t j = hash(g, v) & (nn - 1);
    while (t[j]) j = (j + 1) & (nn - 1);
    t[j] = v;
  }
  cr_free(*tab);
  *tab = t;
  *n = nn;
  return 0;
}

static uint64_t mhash(const mg *g, uint32_t id) {
  const cr_prof_method *m = &g->p->methods[id];
  return hstr(hstr(hstr(0xcbf29ce484222325ull, m->cls), m->name), m->desc);
}

static uint64_t nhash(const mg *g, uint32_t i) {
  const cr_prof_node *x = &g->p->nodes[i];
  return hmix(nkey(x->tree, x->parent, x->method));
}

static uint64_t thash(const mg *g, uint32_t t) {
  return hstr(0xcbf29ce484222325ull, g->p->trees[t - 1].thread);
}

/* The result's id for method 'm', added when new; 0 on failure. */
static uint32_t method(mg *g, const cr_prof_method *m) {
  if (room(&g->mtab, &g->mtabn, g->p->nmethods, mhash, g)) return 0;
  uint64_t h = hstr(hstr(hstr(0xcbf29ce484222325ull, m->cls), m->name),
                    m->desc);
  size_t j = h & (g->mtabn - 1);
  for (uint32_t i; (i = g->mtab[j]); j = (j + 1) & (g->mtabn - 1)) {
    cr_prof_method *x = &g->p->methods[i];
    if (strcmp(x->cls, m->cls) == 0 && strcmp(x->name, m->name) == 0 &&
        strcmp(x->desc, m->desc) == 0) {
      x->native |= m->native;
      x->library |= m->library;
      x->folded |= m->folded;
      if (m->size > x->size) x->size = m->size;
      return i;
    }
  }
  uint32_t id = cr_profile_add_method(g->p, m->cls, m->name, m->desc,
                                      m->size, m->native, m->library);
  if (id) {
    g->mtab[j] = id;
    g->p->methods[id].folded = m->folded;
  }
  return id;
}

/* The result's tree for thread 'name' (CR_MERGE_BY_NAME); -1 on failure. */
static long tree(mg *g, const char *name) {
  if (room(&g->ttab, &g->ttabn, g->p->ntrees, thash, g)) return -1;
  size_t j = hstr(0xcbf29ce484222325ull, name) & (g->ttabn - 1);
  for (uint32_t t; (t = g->ttab[j]); j = (j + 1) & (g->ttabn - 1))
    if (strcmp(g->p->trees[t - 1].thread, name) == 0) return (long)t - 1;
  long t = cr_profile_add_tree(g->p, name);
  if (t >= 0) g->ttab[j] = (uint32_t)t + 1;
  return t;
}

/* The result's node for (tree, parent, method), added when new; 0 on
** failure. */
static uint32_t node(mg *g, uint32_t t, uint32_t parent, uint32_t m) {
  if (room(&g->ntab, &g->ntabn, g->p->nnodes, nhash, g)) return 0;
  uint64_t key = nkey(t, parent, m);
  size_t j = hmix(key) & (g->ntabn - 1);
  for (uint32_t i; (i = g->ntab[j]); j = (j + 1) & (g->ntabn - 1)) {
    const cr_prof_node *x = &g->p->nodes[i];
    if (nkey(x->tree, x->parent, x->method) == key) return i;
  }
  uint32_t i = cr_profile_add_node(g->p, t, parent, m, 0);
  if (i) g->ntab[j] = i;
  return i;
}

static uint64_t sat_add(uint64_t a, uint64_t b) {
  return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

/* Add profile 'q' into the result. */
static int add(mg *g, const cr_profile *q, int how, cr_diag *d) {
  int rc = CR_ENOMEM;
  uint32_t *mm = cr_calloc(q->nmethods + 1, sizeof *mm);
  uint32_t *nm = cr_calloc(q->nnodes + 1, sizeof *nm);
  uint32_t *tm = cr_calloc(q->ntrees + 1, sizeof *tm);
  int km[CR_PROF_MAX_METRICS];
  if (!mm || !nm || !tm) goto out;
  for (size_t k = 0; k < q->nmetrics; k++) {
    km[k] = cr_profile_add_metric(g->p, q->metric[k]);
    if (km[k] < 0) {
      rc = g->p->nmetrics >= CR_PROF_MAX_METRICS ? CR_ETOOLARGE : CR_ENOMEM;
      goto out;
    }
  }
  for (size_t m = 1; m <= q->nmethods; m++)
    if (!(mm[m] = method(g, &q->methods[m]))) goto out;
  for (size_t t = 0; t < q->ntrees; t++) {
    long x = how == CR_MERGE_ALL ? 0
             : how == CR_MERGE_BY_NAME ? tree(g, q->trees[t].thread)
                                       : cr_profile_add_tree(g->p,
                                                             q->trees[t].thread);
    if (x < 0) goto out;
    tm[t] = (uint32_t)x;
  }
  for (size_t i = 1; i <= q->nnodes; i++) {
    const cr_prof_node *x = &q->nodes[i];
    if (g->p->nnodes >= CR_PROF_MAX_ITEMS - 1) {
      rc = CR_ETOOLARGE;
      goto out;
    }
    uint32_t y = node(g, tm[x->tree], x->parent ? nm[x->parent] : 0,
                      mm[x->method]);
    if (!y) goto out;
    nm[i] = y;
    for (size_t k = 0; k < q->nmetrics; k++) {
      uint64_t v = cr_profile_value(q, k, (uint32_t)i);
      if (km[k] == 0) g->p->nodes[y].calls = sat_add(g->p->nodes[y].calls, v);
      else g->p->mval[km[k]][y] = sat_add(g->p->mval[km[k]][y], v);
    }
  }
  rc = 0;
out:
  cr_free(mm);
  cr_free(nm);
  cr_free(tm);
  if (rc == CR_ETOOLARGE)
    return cr_diag_set(d, rc, -1, "the merged profile is too large");
  if (rc) return cr_diag_set(d, rc, -1, "out of memory merging profiles");
  return 0;
}

int cr_profile_merge(cr_profile **out, const cr_profile *const *in, size_t n,
                     int how, cr_diag *d) {
  *out = NULL;
  const char *mode = n ? in[0]->mode : "merged";
  for (size_t i = 1; i < n; i++)
    if (strcmp(in[i]->mode, mode) != 0) mode = "merged";
  /* cross-profiles merge only with the same JOP settings: their cycles
  ** and their completion must mean the same */
  for (size_t i = 1; i < n; i++)
    if (memcmp(&in[i]->jop, &in[0]->jop, sizeof in[0]->jop) != 0)
      return cr_diag_set(d, CR_EUSAGE, -1, "profiles with different JOP "
                         "settings (model, wait states, completion) cannot "
                         "be merged");
  mg g;
  memset(&g, 0, sizeof g);
  g.p = cr_profile_new(mode);
  if (g.p && n) g.p->jop = in[0]->jop;
  if (g.p && n == 1) g.p->run = in[0]->run;
  for (size_t i = 0; g.p && n > 1 && i < n; i++) {   /* several runs */
    cr_prof_run *r = &g.p->run;
    const cr_prof_run *x = &in[i]->run;
    r->nodes += x->nodes;
    r->bytes += x->bytes;
    r->folded_calls += x->folded_calls;
    r->huge_interpreted += x->huge_interpreted;
    if (x->budget > r->budget) r->budget = x->budget;
    if (x->folded_methods > r->folded_methods)
      r->folded_methods = x->folded_methods;
  }
  int rc = 0;
  if (!g.p || (how == CR_MERGE_ALL && cr_profile_add_tree(g.p,
                                                          "all threads") < 0))
    rc = cr_diag_set(d, CR_ENOMEM, -1, "out of memory merging profiles");
  for (size_t i = 0; !rc && i < n; i++) rc = add(&g, in[i], how, d);
  cr_free(g.mtab);
  cr_free(g.ntab);
  cr_free(g.ttab);
  if (rc) cr_profile_free(g.p);
  else *out = g.p;
  return rc;
}
