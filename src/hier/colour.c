/*
** colour.c -- colours for method ids: three bits per method, chosen so
** that the methods one body calls differ in them where they can.
**
** A node of the calling context tree keeps eight slots, one for each
** value of a child's method id's low three bits, and finds any other
** child in a table (CC.enter, CC.lookup in the runtime). Two children
** of one node whose ids share those bits make every call of the one not
** in the slot a miss. The runtime gives out ids whose low bits are the
** colour the rewrite chose ('cr_hmethod_colour', carried in the
** registration), so that the children of a node are in distinct slots
** wherever the static call graph allows.
**
** The graph: two vertices meet when one body calls both. A method and
** every method of an instrumented class that overrides it (JVMS 5.4.5)
** are one vertex: a call naming the method reaches whichever the
** receiver selects, so their shared colour is what that call's node
** needs kept apart from its other children, and a node seldom meets
** several of them. (Measured on h2, xalan, rhino and antlr: a colour
** per override leaves more calls outside their slots.) A call whose
** result is thrown is left out: it runs once, on the way out.
**
** Greedy colouring, the vertices that meet the most others first, each
** given the colour its coloured neighbours use least (the least used
** colour on a tie): eight colours do not colour every graph, and a
** vertex met in many bodies takes the colour that collides in fewest.
** The order is decided by counts and names only, so the same inputs give
** the same colours whatever the order in which the bodies were recorded.
*/
#include <stdlib.h>
#include <string.h>

#include "hier_int.h"

typedef struct cgraph {
  const cr_hmethod **meth;      /* distinct methods, by index */
  uint32_t *tab, mask;          /* 'meth' by pointer: index + 1 */
  uint32_t n;
  uint64_t *deg;                /* neighbours met, counted per body */
} cgraph;

static uint32_t ptr_hash(const void *p) {
  uint64_t v = (uint64_t)(uintptr_t)p * 0x9e3779b97f4a7c15ull;
  return (uint32_t)(v >> 32);
}

/* The index of 'm' in 'g' (whose table has room), added when new. */
static uint32_t index_of(cgraph *g, const cr_hmethod *m) {
  uint32_t j = ptr_hash(m) & g->mask;
  for (; g->tab[j]; j = (j + 1) & g->mask)
    if (g->meth[g->tab[j] - 1] == m) return g->tab[j] - 1;
  g->meth[g->n] = m;
  g->tab[j] = ++g->n;
  return g->n - 1;
}

int cr_hier_colour_body(cr_hier *h, const cr_hmethod *const *callees,
                        size_t n, cr_diag *d) {
  if (n < 2 || n > CR_HIER_COLOUR_BODY_MAX) return 0;
  pthread_mutex_lock(&h->mu);
  int rc = 0;
  if (h->ncalled + n > h->capcalled) {
    size_t cap = h->capcalled ? h->capcalled * 2 : 4096;
    while (cap < h->ncalled + n) cap *= 2;
    const cr_hmethod **v = cr_realloc(h->called, cap * sizeof *v);
    if (!v) goto oom;
    h->called = v;
    h->capcalled = cap;
  }
  if (h->nbodies + 2 > h->capbodies) {
    size_t cap = h->capbodies ? h->capbodies * 2 : 1024;
    size_t *v = cr_realloc(h->bodies, cap * sizeof *v);
    if (!v) goto oom;
    h->bodies = v;
    h->capbodies = cap;
  }
  if (h->nbodies == 0) h->bodies[h->nbodies++] = 0;
  memcpy(h->called + h->ncalled, callees, n * sizeof *callees);
  h->ncalled += n;
  h->bodies[h->nbodies++] = h->ncalled;
  pthread_mutex_unlock(&h->mu);
  return rc;
oom:
  pthread_mutex_unlock(&h->mu);
  return cr_diag_set(d, CR_ENOMEM, -1, "out of memory");
}

/* Methods by name (class, name, descriptor). */
static int name_cmp(const cr_hmethod *x, const cr_hmethod *y) {
  int c = strcmp(x->owner->name, y->owner->name);
  if (!c) c = strcmp(x->name, y->name);
  if (!c) c = strcmp(x->desc, y->desc);
  return c;
}

/* A method in colouring order: most met first, then by name. */
typedef struct ranked {
  uint64_t deg;
  const cr_hmethod *m;
  uint32_t idx;
} ranked;

static int by_degree(const void *pa, const void *pb) {
  const ranked *a = pa, *b = pb;
  if (a->deg != b->deg) return a->deg > b->deg ? -1 : 1;
  return name_cmp(a->m, b->m);
}

static void drop_bodies(cr_hier *h) {
  cr_free(h->called);
  cr_free(h->bodies);
  h->called = NULL;
  h->bodies = NULL;
  h->ncalled = h->capcalled = h->nbodies = h->capbodies = 0;
}

/* An instrumented method 'm' overriding 'base' (JVMS 5.4.5): one
** vertex. */
typedef struct opair {
  const cr_hmethod *base, *m;
} opair;

typedef struct ovr {
  opair *v;
  size_t n, cap;
} ovr;

static int ovr_add(ovr *o, const cr_hmethod *base, const cr_hmethod *m) {
  if (o->n == o->cap) {
    size_t cap = o->cap ? o->cap * 2 : 1024;
    opair *v = cr_realloc(o->v, cap * sizeof *v);
    if (!v) return -1;
    o->v = v;
    o->cap = cap;
  }
  o->v[o->n++] = (opair){base, m};
  return 0;
}

/* Every override by a method of an instrumented class outside the JDK's
** modules (whose ids are fixed: see 'cr_hier_mid'): the supertypes that
** declare the same name and descriptor. */
static int overrides(const cr_hier *h, ovr *o) {
  for (size_t i = 0; i < h->nclasses; i++) {
    const cr_hclass *c = h->sorted[i];
    if (!c->instrumented || c->jdk_module) continue;
    for (uint32_t q = 0; q < c->nmethods; q++) {
      const cr_hmethod *m = &c->methods[q];
      if (!cr_hier__virtual(m)) continue;
      for (const cr_hclass *s = c->super; s; s = s->super) {
        const cr_hmethod *b = cr_hier__declared(h, s, m->name, m->desc);
        if (b && cr_hier__virtual(b) && ovr_add(o, b, m)) return -1;
      }
      for (uint32_t k = 0; k < c->nall; k++) {
        const cr_hmethod *b =
            c->all[k] ? cr_hier__declared(h, c->all[k], m->name, m->desc)
                      : NULL;
        if (b && cr_hier__virtual(b) && ovr_add(o, b, m)) return -1;
      }
    }
  }
  return 0;
}

/* The vertex of index 'i': the root of its set ('up' compressed). */
static uint32_t root(uint32_t *up, uint32_t i) {
  uint32_t r = i;
  while (up[r] != r) r = up[r];
  while (up[i] != r) {
    uint32_t n = up[i];
    up[i] = r;
    i = n;
  }
  return r;
}

/* Join the sets of 'a' and 'b'; the root is the method first by name,
** so that the vertices do not depend on the order of the joins. */
static void unite(const cgraph *g, uint32_t *up, uint32_t a, uint32_t b) {
  a = root(up, a);
  b = root(up, b);
  if (a == b) return;
  if (name_cmp(g->meth[a], g->meth[b]) < 0) up[b] = a;
  else up[a] = b;
}

int cr_hier_colour(cr_hier *h, cr_diag *d) {
  size_t nb = h->nbodies ? h->nbodies - 1 : 0, ne = h->ncalled;
  cgraph g;
  memset(&g, 0, sizeof g);
  ovr o = {NULL, 0, 0};
  uint32_t *ent = NULL, *bstart = NULL, *stamp = NULL, *up = NULL;
  uint32_t *first = NULL, *inv = NULL;
  ranked *order = NULL;
  uint8_t *col = NULL;
  int rc = 0;
  if (nb == 0) goto done;
  if (overrides(h, &o)) goto oom;

  /* every method named or overriding: an index; the sets: vertices */
  size_t bound = ne + 2 * o.n;
  if (bound > UINT32_MAX / 4) goto done;
  uint32_t size = 64;
  while (size < bound * 2) size <<= 1;
  g.mask = size - 1;
  g.tab = cr_calloc(size, sizeof *g.tab);
  g.meth = cr_malloc(bound * sizeof *g.meth);
  up = cr_malloc(bound * sizeof *up);
  if (!g.tab || !g.meth || !up) goto oom;
  for (size_t e = 0; e < ne; e++) index_of(&g, h->called[e]);
  for (size_t q = 0; q < o.n; q++) {
    index_of(&g, o.v[q].base);
    index_of(&g, o.v[q].m);
  }
  for (uint32_t i = 0; i < g.n; i++) up[i] = i;
  for (size_t q = 0; q < o.n; q++)
    unite(&g, up, index_of(&g, o.v[q].base), index_of(&g, o.v[q].m));

  /* the vertices each body meets, once each */
  g.deg = cr_calloc(g.n, sizeof *g.deg);
  ent = cr_malloc(ne * sizeof *ent);
  bstart = cr_malloc((nb + 1) * sizeof *bstart);
  stamp = cr_calloc(g.n, sizeof *stamp);
  if (!g.deg || !ent || !bstart || !stamp) goto oom;
  size_t ne2 = 0;
  for (size_t b = 0; b < nb; b++) {
    bstart[b] = (uint32_t)ne2;
    for (size_t e = h->bodies[b]; e < h->bodies[b + 1]; e++) {
      uint32_t i = root(up, index_of(&g, h->called[e]));
      if (stamp[i] == b + 1) continue;
      stamp[i] = (uint32_t)b + 1;
      ent[ne2++] = i;
    }
  }
  bstart[nb] = (uint32_t)ne2;
  for (size_t b = 0; b < nb; b++)
    for (uint32_t e = bstart[b]; e < bstart[b + 1]; e++)
      g.deg[ent[e]] += bstart[b + 1] - bstart[b] - 1;

  /* the bodies of each vertex: 'inv[first[i]..first[i + 1])' */
  first = cr_calloc(g.n + 1, sizeof *first);
  inv = cr_malloc((ne2 ? ne2 : 1) * sizeof *inv);
  order = cr_malloc(g.n * sizeof *order);
  col = cr_calloc(g.n, 1);
  if (!first || !inv || !order || !col) goto oom;
  for (size_t e = 0; e < ne2; e++) first[ent[e] + 1]++;
  for (uint32_t i = 0; i < g.n; i++) first[i + 1] += first[i];
  for (size_t b = 0; b < nb; b++)
    for (uint32_t e = bstart[b]; e < bstart[b + 1]; e++)
      inv[first[ent[e]]++] = (uint32_t)b;
  for (uint32_t i = g.n; i > 0; i--) first[i] = first[i - 1];
  first[0] = 0;

  uint32_t nv = 0;
  for (uint32_t i = 0; i < g.n; i++)
    if (up[i] == i && g.deg[i] > 0)
      order[nv++] = (ranked){g.deg[i], g.meth[i], i};
  qsort(order, nv, sizeof *order, by_degree);

  uint64_t used[8] = {0};
  for (uint32_t k = 0; k < nv; k++) {
    uint32_t a = order[k].idx;
    uint64_t cost[8] = {0};
    for (uint32_t q = first[a]; q < first[a + 1]; q++) {
      uint32_t b = inv[q];
      for (uint32_t e = bstart[b]; e < bstart[b + 1]; e++)
        if (ent[e] != a && col[ent[e]]) cost[col[ent[e]] - 1]++;
    }
    unsigned best = 0;
    for (unsigned c = 1; c < 8; c++)
      if (cost[c] < cost[best] ||
          (cost[c] == cost[best] && used[c] < used[best]))
        best = c;
    col[a] = (uint8_t)(best + 1);
    used[best]++;
  }
  for (uint32_t i = 0; i < g.n; i++)
    ((cr_hmethod *)g.meth[i])->colour = col[root(up, i)];
  /* how well eight colours did where eight could do */
  h->coloured = nv;
  h->small_bodies = h->apart = 0;
  for (size_t b = 0; b < nb; b++) {
    uint32_t k = bstart[b + 1] - bstart[b];
    if (k < 2 || k > 8) continue;
    unsigned seen = 0, clash = 0;
    for (uint32_t e = bstart[b]; e < bstart[b + 1]; e++) {
      clash |= seen & 1u << col[ent[e]];
      seen |= 1u << col[ent[e]];
    }
    h->small_bodies++;
    if (!clash) h->apart++;
  }
  goto done;
oom:
  rc = cr_diag_set(d, CR_ENOMEM, -1, "out of memory");
done:
  cr_free(o.v);
  cr_free(g.tab);
  cr_free(g.meth);
  cr_free(g.deg);
  cr_free(up);
  cr_free(ent);
  cr_free(bstart);
  cr_free(stamp);
  cr_free(first);
  cr_free(inv);
  cr_free(order);
  cr_free(col);
  drop_bodies(h);
  return rc;
}

unsigned cr_hmethod_colour(const cr_hmethod *m) { return m ? m->colour : 0; }
