/*
** compare.c -- comparison of two profiles: both are folded into one table
** of calling contexts (a trie keyed by parent context and frame), after
** optional collapsing of generated frames and the app-visibility filter;
** then the overlap percentage and the differing contexts.
*/
#include <stdlib.h>
#include <string.h>

#include "cccp/profile.h"

/* A frame identity: the representative method names it is printed with. */
typedef struct key {
  const char *cls, *name, *desc;
  uint8_t app;           /* an application method */
  uint8_t byname;        /* identified by name and descriptor only */
} key;

/* A calling context: the context of its parent plus one frame. */
typedef struct ctx {
  uint32_t parent, key;
  uint64_t calls[2];
  uint8_t in[2];
} ctx;

typedef struct cmp {
  const cr_cmp_opts *o;
  key *keys;
  size_t nkeys, capk;
  uint32_t *ktab;        /* open addressing over 'keys', 0 = empty */
  size_t ktabn;
  ctx *ctxs;             /* [0] is the root */
  size_t nctx, capc;
  uint32_t *ctab;        /* open addressing over 'ctxs', 0 = empty */
  size_t ctabn;
} cmp;

static uint64_t hstr(uint64_t h, const char *s) {
  for (; *s; s++) h = (h ^ (unsigned char)*s) * 0x100000001b3ull;
  return (h ^ 0xff) * 0x100000001b3ull;
}

static uint64_t hkey(const char *cls, const char *name, const char *desc) {
  return hstr(hstr(hstr(0xcbf29ce484222325ull, cls), name), desc);
}

static uint64_t hctx(uint32_t parent, uint32_t k) {
  uint64_t x = ((uint64_t)parent << 32 | k) * 0x9E3779B97F4A7C15ull;
  return x ^ x >> 29;
}

static int growv(void **v, size_t *cap, size_t need, size_t elem) {
  if (need < *cap) return 0;
  size_t n = *cap ? *cap * 2 : 256;
  while (n <= need) n *= 2;
  void *nv = cr_realloc(*v, n * elem);
  if (!nv) return CR_ENOMEM;
  *v = nv;
  *cap = n;
  return 0;
}

int cr_profile_generated(const char *cls) {
  /* "$$StringConcat": JDK 24 on, the hidden class that concatenates
  ** for a string-concatenation call site, named by its address */
  static const char *const inside[] = {"$$Lambda", "LambdaForm$", "$Proxy",
                                       "$$StringConcat", NULL};
  static const char *const start[] = {
      "jdk/internal/reflect/Generated",
      "jdk/internal/reflect/DirectMethodHandleAccessor",
      "jdk/internal/reflect/DirectConstructorHandleAccessor", NULL};
  for (int i = 0; inside[i]; i++)
    if (strstr(cls, inside[i])) return 1;
  for (int i = 0; start[i]; i++)
    if (strncmp(cls, start[i], strlen(start[i])) == 0) return 1;
  if (strncmp(cls, "java/lang/invoke/", 17) == 0)
    return strcmp(cls, "java/lang/invoke/MethodHandleNatives") != 0;
  return 0;
}

int cr_profile_vm_upcall(const char *cls, const char *name) {
  static const char *const loader[] = {"loadClass", "findNative",
                                       "checkPackageAccess", "addClass",
                                       NULL};
  static const char *const implicit[] = {
      "java/lang/NullPointerException", "java/lang/ArithmeticException",
      "java/lang/ArrayIndexOutOfBoundsException",
      "java/lang/ClassCastException", "java/lang/ArrayStoreException",
      "java/lang/NegativeArraySizeException",
      "java/lang/IllegalMonitorStateException", NULL};
  if (strcmp(cls, "java/lang/invoke/MethodHandleNatives") == 0) return 1;
  if (strcmp(cls, "java/lang/ClassLoader") == 0) {
    for (int i = 0; loader[i]; i++)
      if (strcmp(name, loader[i]) == 0) return 1;
    return 0;
  }
  if (strcmp(name, "<clinit>") == 0) return 1;
  if (strcmp(name, "<init>") != 0) return 0;
  for (int i = 0; implicit[i]; i++)
    if (strcmp(cls, implicit[i]) == 0) return 1;
  return 0;
}

/* 1 if 'cls'.'name' is one of the frames 'pat[0..np)' names
** ("pkg/Cls.name", or "prefix*": every method of the classes whose names
** start so). */
static int named(const char *const *pat, size_t np, const char *cls,
                 const char *name) {
  size_t n = strlen(cls);
  for (size_t i = 0; i < np; i++) {
    const char *h = pat[i];
    size_t hl = strlen(h);
    if (hl && h[hl - 1] == '*') {
      if (strncmp(h, cls, hl - 1) == 0) return 1;
      continue;
    }
    if (strncmp(h, cls, n) == 0 && h[n] == '.' && strcmp(h + n + 1, name) == 0)
      return 1;
  }
  return 0;
}

static int is_app(const cr_cmp_opts *o, const char *cls) {
  for (size_t i = 0; i < o->napp; i++)
    if (strncmp(cls, o->app_prefix[i], strlen(o->app_prefix[i])) == 0)
      return !cr_profile_generated(cls);
  return 0;
}

/* Key id (1-based) of method 'm', interned. 0 on allocation failure. */
static uint32_t intern(cmp *c, const cr_prof_method *m) {
  int app = c->o->napp ? is_app(c->o, m->cls) : 1;
  int byname = c->o->library_by_name && c->o->napp && !app;
  const char *cls = byname ? "" : m->cls;
  if ((c->nkeys + 1) * 2 >= c->ktabn) {
    size_t n = c->ktabn ? c->ktabn * 2 : 1024;
    uint32_t *t = cr_calloc(n, sizeof *t);
    if (!t) return 0;
    for (size_t i = 1; i <= c->nkeys; i++) {
      const key *k = &c->keys[i];
      size_t j = hkey(k->byname ? "" : k->cls, k->name, k->desc) & (n - 1);
      while (t[j]) j = (j + 1) & (n - 1);
      t[j] = (uint32_t)i;
    }
    cr_free(c->ktab);
    c->ktab = t;
    c->ktabn = n;
  }
  size_t j = hkey(cls, m->name, m->desc) & (c->ktabn - 1);
  for (uint32_t i; (i = c->ktab[j]); j = (j + 1) & (c->ktabn - 1)) {
    const key *k = &c->keys[i];
    if (k->byname == byname && strcmp(k->name, m->name) == 0 &&
        strcmp(k->desc, m->desc) == 0 &&
        (byname || strcmp(k->cls, m->cls) == 0))
      return i;
  }
  if (growv((void **)&c->keys, &c->capk, c->nkeys + 1, sizeof *c->keys))
    return 0;
  uint32_t i = (uint32_t)++c->nkeys;
  c->keys[i] = (key){m->cls, m->name, m->desc, (uint8_t)app,
                     (uint8_t)byname};
  c->ktab[j] = i;
  return i;
}

/* Context id of (parent, k), created when new. 0 on allocation failure. */
static uint32_t child(cmp *c, uint32_t parent, uint32_t k) {
  if ((c->nctx + 1) * 2 >= c->ctabn) {
    size_t n = c->ctabn ? c->ctabn * 2 : 4096;
    uint32_t *t = cr_calloc(n, sizeof *t);
    if (!t) return 0;
    for (size_t i = 1; i < c->nctx; i++) {
      size_t j = hctx(c->ctxs[i].parent, c->ctxs[i].key) & (n - 1);
      while (t[j]) j = (j + 1) & (n - 1);
      t[j] = (uint32_t)i;
    }
    cr_free(c->ctab);
    c->ctab = t;
    c->ctabn = n;
  }
  size_t j = hctx(parent, k) & (c->ctabn - 1);
  for (uint32_t i; (i = c->ctab[j]); j = (j + 1) & (c->ctabn - 1))
    if (c->ctxs[i].parent == parent && c->ctxs[i].key == k) return i;
  if (c->nctx >= UINT32_MAX - 1 ||
      growv((void **)&c->ctxs, &c->capc, c->nctx, sizeof *c->ctxs))
    return 0;
  uint32_t i = (uint32_t)c->nctx++;
  memset(&c->ctxs[i], 0, sizeof c->ctxs[i]);
  c->ctxs[i].parent = parent;
  c->ctxs[i].key = k;
  c->ctab[j] = i;
  return i;
}

/*
** Fold profile 'p' into side 's' of the context table. One pass in node
** order (parents come first). Per node: 'at' is the context its children
** attach to, 'capp' whether it counts as an application caller. A
** collapsed generated frame is runtime machinery: application frames
** under it attach to its caller, library frames under it are library
** internals. A hidden VM upcall is treated the same way. A pruned
** frame is left out with everything under it ('at' is PRUNED); a frame
** pruned at the root only where its node is a thread's first frame.
*/
#define PRUNED UINT32_MAX

static int fold(cmp *c, const cr_profile *p, int s) {
  int rc = CR_ENOMEM;
  uint32_t *kof = cr_calloc(p->nmethods + 1, sizeof *kof);
  uint8_t *gen = cr_calloc(p->nmethods + 1, 1);
  uint32_t *at = cr_calloc(p->nnodes + 1, sizeof *at);
  uint8_t *capp = cr_calloc(p->nnodes + 1, 1);
  if (!kof || !gen || !at || !capp) goto out;
  for (size_t m = 1; m <= p->nmethods; m++) {
    if (!(kof[m] = intern(c, &p->methods[m]))) goto out;
    gen[m] = (c->o->collapse_generated &&
              cr_profile_generated(p->methods[m].cls)) ||
             (c->o->hide_vm_upcalls && !c->keys[kof[m]].app &&
              cr_profile_vm_upcall(p->methods[m].cls, p->methods[m].name)) ||
             named(c->o->hide, c->o->nhide, p->methods[m].cls,
                   p->methods[m].name);
    if (named(c->o->prune, c->o->nprune, p->methods[m].cls,
              p->methods[m].name))
      gen[m] = 2;
    else if (named(c->o->prune_root, c->o->nprune_root, p->methods[m].cls,
                   p->methods[m].name))
      gen[m] |= 4;
  }
  for (size_t i = 1; i <= p->nnodes; i++) {
    const cr_prof_node *n = &p->nodes[i];
    uint32_t pat = n->parent ? at[n->parent] : 0;
    int pcapp = n->parent ? capp[n->parent] : 0;
    int app = c->keys[kof[n->method]].app;
    if (gen[n->method] == 2 || (!n->parent && (gen[n->method] & 4)) ||
        (n->parent && at[n->parent] == PRUNED)) {
      at[i] = PRUNED;                   /* left out with its subtree */
      continue;
    }
    if (gen[n->method] & 3) {
      at[i] = pat;
      capp[i] = 0;
      continue;
    }
    capp[i] = (uint8_t)app;
    if (c->o->napp && !app && !pcapp) {
      at[i] = pat;
      continue;
    }
    uint32_t x = child(c, pat, kof[n->method]);
    if (!x) goto out;
    at[i] = x;
    c->ctxs[x].calls[s] += n->calls;
    c->ctxs[x].in[s] = 1;
  }
  rc = 0;
out:
  cr_free(kof);
  cr_free(gen);
  cr_free(at);
  cr_free(capp);
  return rc;
}

/* "frame > frame > ..." of context 'x' (malloc'd) or NULL. */
static char *path(const cmp *c, uint32_t x) {
  size_t len = 1, depth = 0;
  for (uint32_t y = x; y; y = c->ctxs[y].parent) {
    const key *k = &c->keys[c->ctxs[y].key];
    len += strlen(k->cls) + strlen(k->name) + strlen(k->desc) + 4;
    depth++;
  }
  uint32_t *st = cr_malloc(depth * sizeof *st + 1);
  char *s = cr_malloc(len);
  if (!st || !s) {
    cr_free(st);
    cr_free(s);
    return NULL;
  }
  size_t n = 0;
  for (uint32_t y = x; y; y = c->ctxs[y].parent) st[n++] = y;
  char *w = s;
  while (n--) {
    const key *k = &c->keys[c->ctxs[st[n]].key];
    w += sprintf(w, "%s.%s%s%s", k->cls, k->name, k->desc, n ? " > " : "");
  }
  *w = 0;
  cr_free(st);
  return s;
}

static uint64_t absdiff(const ctx *x) {
  return x->calls[0] > x->calls[1] ? x->calls[0] - x->calls[1]
                                   : x->calls[1] - x->calls[0];
}

static int bydiff(const void *pa, const void *pb, void *arg) {
  const cmp *c = arg;
  const ctx *x = &c->ctxs[*(const uint32_t *)pa];
  const ctx *y = &c->ctxs[*(const uint32_t *)pb];
  uint64_t dx = absdiff(x), dy = absdiff(y);
  if (dx != dy) return dx > dy ? -1 : 1;
  uint32_t a = *(const uint32_t *)pa, b = *(const uint32_t *)pb;
  return a < b ? -1 : a > b;
}

int cr_profile_compare(cr_cmp_result *out, const cr_profile *a,
                       const cr_profile *b, const cr_cmp_opts *o,
                       size_t top, cr_diag *d) {
  memset(out, 0, sizeof *out);
  cr_cmp_opts none;
  memset(&none, 0, sizeof none);
  cmp c;
  memset(&c, 0, sizeof c);
  c.o = o ? o : &none;
  uint32_t *dif = NULL;
  int rc = CR_ENOMEM;
  if (growv((void **)&c.keys, &c.capk, 0, sizeof *c.keys) ||
      growv((void **)&c.ctxs, &c.capc, 0, sizeof *c.ctxs))
    goto out;
  memset(&c.ctxs[0], 0, sizeof c.ctxs[0]);
  c.nctx = 1;
  if (fold(&c, a, 0) || fold(&c, b, 1)) goto out;
  /* Exact: sum min(a/TA, b/TB) = sum min(a*TB, b*TA) / (TA*TB). */
  unsigned __int128 sum = 0;
  for (size_t i = 1; i < c.nctx; i++) {
    out->total_a += c.ctxs[i].calls[0];
    out->total_b += c.ctxs[i].calls[1];
  }
  size_t nd = 0;
  if (!(dif = cr_malloc(c.nctx * sizeof *dif))) goto out;
  for (size_t i = 1; i < c.nctx; i++) {
    const ctx *x = &c.ctxs[i];
    out->contexts_a += x->in[0];
    out->contexts_b += x->in[1];
    if (x->in[0] && x->in[1]) {
      out->common++;
      unsigned __int128 ra = (unsigned __int128)x->calls[0] * out->total_b;
      unsigned __int128 rb = (unsigned __int128)x->calls[1] * out->total_a;
      sum += ra < rb ? ra : rb;
    }
    if (x->calls[0] != x->calls[1] || x->in[0] != x->in[1])
      dif[nd++] = (uint32_t)i;
  }
  unsigned __int128 den = (unsigned __int128)out->total_a * out->total_b;
  if (!out->total_a && !out->total_b) out->overlap = 100.0;
  else if (!den) out->overlap = 0.0;
  else out->overlap = sum == den ? 100.0 : 100.0 * (double)sum / (double)den;
  out->differing = nd;
  qsort_r(dif, nd, sizeof *dif, bydiff, &c);
  if (top > nd) top = nd;
  if (top && !(out->diff = cr_calloc(top, sizeof *out->diff))) goto out;
  for (size_t i = 0; i < top; i++) {
    const ctx *x = &c.ctxs[dif[i]];
    cr_cmp_diff *r = &out->diff[i];
    if (!(r->path = path(&c, dif[i]))) goto out;
    out->ndiff = i + 1;
    r->a = x->calls[0];
    r->b = x->calls[1];
    r->in_a = x->in[0];
    r->in_b = x->in[1];
    r->leaf_app = c.keys[x->key].app;
  }
  rc = 0;
out:
  cr_free(dif);
  cr_free(c.keys);
  cr_free(c.ktab);
  cr_free(c.ctxs);
  cr_free(c.ctab);
  if (rc) {
    cr_cmp_result_free(out);
    cr_diag_set(d, rc, -1, "out of memory comparing profiles");
  }
  return rc;
}

void cr_cmp_result_free(cr_cmp_result *r) {
  for (size_t i = 0; i < r->ndiff; i++) cr_free(r->diff[i].path);
  cr_free(r->diff);
  memset(r, 0, sizeof *r);
}
