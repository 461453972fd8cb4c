/*
** types.c -- the per-class table of reference types: interning, the
** hierarchy questions asked through 'cr_typeinfo', and joins (JVMS
** 4.10.1.2 isAssignable; ASM's getCommonSuperClass).
*/
#include "an_int.h"

static int rehash(cr_an *an, uint32_t size) {
  uint32_t *h = cr_arena_calloc(an->a, size, sizeof *h);
  if (!h) return CR_ENOMEM;
  for (uint32_t id = 0; id < an->nt; id++) {
    uint32_t k = an->t[id].hash & (size - 1);
    while (h[k]) k = (k + 1) & (size - 1);
    h[k] = id + 1;
  }
  an->h = h;
  an->hmask = size - 1;
  return 0;
}

static int32_t find(cr_an *an, const char *s, size_t n, uint32_t hv,
                    uint32_t *slot) {
  uint32_t k = hv & an->hmask;
  while (an->h[k]) {
    const an_type *t = &an->t[an->h[k] - 1];
    if (t->hash == hv && t->len == n && memcmp(t->name, s, n) == 0)
      return (int32_t)an->h[k] - 1;
    k = (k + 1) & an->hmask;
  }
  *slot = k;
  return -1;
}

static int32_t add(cr_an *an, const char *s, size_t n, int copy) {
  uint32_t hv = cr_hash(s, n), slot;
  int32_t id = find(an, s, n, hv, &slot);
  if (id >= 0) return id;
  if ((an->nt + 1) * 2 > an->hmask + 1) {
    if (rehash(an, (an->hmask + 1) * 2)) return an->oom = 1, -1;
    find(an, s, n, hv, &slot);
  }
  if (an->nt == an->ct) {
    uint32_t nc = an->ct ? an->ct * 2 : 64;
    an_type *t = cr_arena_realloc(an->a, an->t, an->ct * sizeof *t,
                                  nc * sizeof *t);
    if (!t) return an->oom = 1, -1;
    an->t = t;
    an->ct = nc;
  }
  if (copy) {
    char *p = cr_arena_alloc(an->a, n ? n : 1);
    if (!p) return an->oom = 1, -1;
    memcpy(p, s, n);
    s = p;
  }
  an_type *t = &an->t[an->nt];
  memset(t, 0, sizeof *t);
  t->name = s;
  t->len = (uint32_t)n;
  t->hash = hv;
  t->super = -1;
  an->h[slot] = an->nt + 1;
  return (int32_t)an->nt++;
}

int32_t cr_an__intern(cr_an *an, const char *name, size_t len) {
  return add(an, name, len, 0);
}

int32_t cr_an__intern_copy(cr_an *an, const char *name, size_t len) {
  return add(an, name, len, 1);
}

int32_t cr_an__class(cr_an *an, uint32_t i) {
  cr_cpool *cp = an->c->cp;
  if (cr_cp_tag(cp, i) != CR_CP_CLASS) return -1;
  if (i >= an->nbycp) {
    /* the pool grows as the instrumentation adds to it: so does this */
    uint32_t n = cr_cp_count(cp) + 16;
    if (n < an->nbycp * 2) n = an->nbycp * 2;
    uint32_t *v = cr_arena_realloc(an->a, an->bycp, an->nbycp * sizeof *v,
                                   n * sizeof *v);
    if (!v) return an->oom = 1, -1;
    memset(v + an->nbycp, 0, (n - an->nbycp) * sizeof *v);
    an->bycp = v;
    an->nbycp = n;
  }
  if (!an->bycp[i]) {
    size_t n;
    const char *s = cr_cp_utf8(cp, cr_cp_get(cp, i)->a, &n);
    if (!s) return -1;
    int32_t id = cr_an__intern(an, s, n);
    if (id < 0) return -1;
    an->bycp[i] = (uint32_t)id + 1;
    if (!an->t[id].cp) an->t[id].cp = (uint16_t)i;
  }
  return (int32_t)an->bycp[i] - 1;
}

an_ref *cr_an__ref(cr_an *an, uint32_t i) {
  if (i >= an->nrefs) {
    uint32_t n = cr_cp_count(an->c->cp) + 16;
    if (n < an->nrefs * 2) n = an->nrefs * 2;   /* as 'bycp' */
    if (n <= i) n = i + 16;
    an_ref *v = cr_arena_realloc(an->a, an->refs, an->nrefs * sizeof *v,
                                 n * sizeof *v);
    if (!v) return NULL;
    memset(v + an->nrefs, 0, (n - an->nrefs) * sizeof *v);
    an->refs = v;
    an->nrefs = n;
  }
  return &an->refs[i];
}

vt cr_an__desc(cr_an *an, const char *s, size_t len, int *err) {
  if (len == 0) {
    *err = 1;
    return VT_TOP;
  }
  switch (s[0]) {
  case 'B': case 'C': case 'S': case 'Z': case 'I': return VT_INT;
  case 'F': return VT_FLOAT;
  case 'J': return VT_LONG;
  case 'D': return VT_DOUBLE;
  case 'L': {
    if (len < 3 || s[len - 1] != ';') break;
    int32_t id = cr_an__intern(an, s + 1, len - 2);
    if (id < 0) break;
    return VT(CR_VT_OBJECT, id);
  }
  case '[': {
    int32_t id = cr_an__intern(an, s, len);
    if (id < 0) break;
    return VT(CR_VT_OBJECT, id);
  }
  default:
    break;
  }
  *err = 1;
  return VT_TOP;
}

/* Ask the hook about type 'id' once; state becomes known or missing. */
static void resolve(cr_an *an, uint32_t id) {
  an_type *t = &an->t[id];
  if (t->state) return;
  t->state = 2;
  if (id == an->object) {
    t->state = 1;
    return;
  }
  if (id == an->self) {
    const cr_class *c = an->c;
    t->iface = (c->flags & 0x0200) != 0;
    int32_t s = c->super_class ? cr_an__class(an, c->super_class) : -1;
    an->t[id].super = s;                      /* 't' may have moved */
    an->t[id].state = 1;
    return;
  }
  const cr_typeinfo *ti = an->env ? an->env->ti : NULL;
  char *name = cr_arena_strndup(an->a, t->name, t->len);
  if (!name) an->oom = 1;
  const char *sup = NULL;
  int iface = 0;
  if (name && ti && ti->lookup &&
      ti->lookup(ti->ctx, name, &sup, &iface) == 0) {
    int32_t s = sup ? cr_an__intern(an, sup, strlen(sup)) : -1;
    t = &an->t[id];
    t->super = s;
    t->iface = iface != 0;
    t->state = 1;
    return;
  }
  an->nmissing++;
  if (an->env && an->env->missing && name)
    an->env->missing(an->env->ctx, name);
}

/* Array dimensions of type 'id' and the start of its element type. */
static uint32_t dims(const an_type *t, const char **elem, uint32_t *elen) {
  uint32_t k = 0;
  while (k < t->len && t->name[k] == '[') k++;
  *elem = t->name + k;
  *elen = t->len - k;
  return k;
}

/* Id of 'n' dimensions of element class type 'id' ('n' > 0). */
static uint32_t array_of(cr_an *an, uint32_t n, uint32_t id) {
  const an_type *t = &an->t[id];
  size_t len = n + t->len + 2;
  char buf[512];
  char *p = len <= sizeof buf ? buf : cr_arena_alloc(an->a, len);
  if (!p) return an->oom = 1, an->object;
  memset(p, '[', n);
  p[n] = 'L';
  memcpy(p + n + 1, t->name, t->len);
  p[len - 1] = ';';
  int32_t r = cr_an__intern_copy(an, p, len);
  return r < 0 ? an->object : (uint32_t)r;
}

#define MAXCHAIN 256

uint32_t cr_an__join(cr_an *an, uint32_t x, uint32_t y) {
  if (x == y) return x;
  if (x == an->object || y == an->object) return an->object;
  const an_type *tx = &an->t[x], *ty = &an->t[y];
  int ax = tx->len && tx->name[0] == '[', ay = ty->len && ty->name[0] == '[';
  if (ax || ay) {
    if (!ax || !ay) return an->object;
    const char *ex, *ey;
    uint32_t lx, ly;
    uint32_t dx = dims(tx, &ex, &lx), dy = dims(ty, &ey, &ly);
    int rx = lx && ex[0] == 'L', ry = ly && ey[0] == 'L';
    if (dx == dy && rx && ry) {
      int32_t ix = cr_an__intern(an, ex + 1, lx - 2);
      int32_t iy = cr_an__intern(an, ey + 1, ly - 2);
      if (ix < 0 || iy < 0) return an->object;
      return array_of(an, dx, cr_an__join(an, (uint32_t)ix, (uint32_t)iy));
    }
    uint32_t mx = rx ? dx : dx - 1, my = ry ? dy : dy - 1;
    uint32_t m = mx < my ? mx : my;
    return m ? array_of(an, m, an->object) : an->object;
  }
  /* ancestors of x, then climb from y until one of them is met; a
  ** missing type is its own ancestor, and its learned supertype (state
  ** missing, 'super' set by 'cr_an__learn') the next one */
  uint32_t chain[MAXCHAIN];
  uint32_t n = 0;
  int cut = 0;             /* x's chain stops at a missing type */
  for (int32_t k = (int32_t)x; k >= 0 && n < MAXCHAIN;) {
    resolve(an, (uint32_t)k);
    const an_type *t = &an->t[k];
    if (t->state == 1 && t->iface) return an->object;
    chain[n++] = (uint32_t)k;
    if (t->state != 1 && t->super < 0) {
      cut = 1;
      break;
    }
    k = t->super;
  }
  uint32_t steps = 0;
  for (int32_t k = (int32_t)y; k >= 0 && steps++ < MAXCHAIN;) {
    for (uint32_t j = 0; j < n; j++)
      if (chain[j] == (uint32_t)k) return (uint32_t)k;
    resolve(an, (uint32_t)k);
    const an_type *t = &an->t[k];
    if (t->state != 1 && t->super < 0) {
      an->guesses++;
      return an->object;
    }
    if (t->state == 1 && t->iface) return an->object;
    k = t->super;
  }
  if (cut) an->guesses++;
  return an->object;
}

/* 1 if 'x' is 'y' or one of its (known or learned) supertypes. */
static int above(cr_an *an, uint32_t x, uint32_t y) {
  int32_t k = (int32_t)y;
  for (uint32_t steps = 0; k >= 0 && steps < MAXCHAIN; steps++) {
    if ((uint32_t)k == x) return 1;
    resolve(an, (uint32_t)k);
    k = an->t[k].super;
  }
  return 0;
}

void cr_an__learn(cr_an *an, uint32_t x, uint32_t t) {
  for (;;) {
    an_type *tx = &an->t[x];
    const an_type *tt = &an->t[t];
    int ax = tx->len && tx->name[0] == '[', at = tt->len && tt->name[0] == '[';
    if (!ax && !at) break;
    /* arrays of classes of one dimension count: learn about the
    ** elements */
    if (!ax || !at || tx->len < 3 || tt->len < 3 ||
        (tx->name[1] != 'L' && tx->name[1] != '[') ||
        tx->name[1] != tt->name[1])
      return;
    int32_t ex = tx->name[1] == '['
                     ? cr_an__intern(an, tx->name + 1, tx->len - 1)
                     : cr_an__intern(an, tx->name + 2, tx->len - 3);
    int32_t et = tt->name[1] == '['
                     ? cr_an__intern(an, tt->name + 1, tt->len - 1)
                     : cr_an__intern(an, tt->name + 2, tt->len - 3);
    if (ex < 0 || et < 0) return;
    x = (uint32_t)ex;
    t = (uint32_t)et;
  }
  if (x == t || x == an->object) return;
  resolve(an, x);
  an_type *tx = &an->t[x];
  if (tx->state == 1 || tx->super >= 0 || above(an, x, t)) return;
  tx->super = (int32_t)t;
}

int cr_an__cpclass(cr_an *an, uint32_t id, cr_diag *d) {
  if (!an->t[id].cp && !an->scanned) {
    /* the pool's own Class entries first: no find-or-add index needed */
    an->scanned = 1;
    for (uint32_t i = 1; i < cr_cp_count(an->c->cp); i++)
      if (cr_cp_tag(an->c->cp, i) == CR_CP_CLASS) cr_an__class(an, i);
  }
  an_type *t = &an->t[id];
  if (t->cp) return t->cp;
  int u = cr_cp_add_utf8n(an->c->cp, t->name, t->len, d);
  if (u < 0) return u;
  cr_cpentry e;
  memset(&e, 0, sizeof e);
  e.tag = CR_CP_CLASS;
  e.a = (uint16_t)u;
  int i = cr_cp_add(an->c->cp, &e, d);
  if (i < 0) return i;
  an->t[id].cp = (uint16_t)i;
  return i;
}

static int32_t named(cr_an *an, const char *s) {
  return cr_an__intern(an, s, strlen(s));
}

int cr_an_new(cr_an **out, cr_class *c, const cr_an_env *env, cr_diag *d) {
  cr_an *an = cr_arena_calloc(c->arena, 1, sizeof *an);
  if (!an || (an->c = c, an->a = c->arena, rehash(an, 256)))
    return cr_diag_set(d, CR_ENOMEM, -1, "out of memory");
  an->env = env;
  int32_t v[6] = {named(an, "java/lang/Object"),
                  named(an, "java/lang/String"),
                  named(an, "java/lang/Class"),
                  named(an, "java/lang/Throwable"),
                  named(an, "java/lang/invoke/MethodType"),
                  named(an, "java/lang/invoke/MethodHandle")};
  int32_t self = cr_an__class(an, c->this_class);
  for (int k = 0; k < 6; k++)
    if (v[k] < 0) return cr_diag_set(d, CR_ENOMEM, -1, "out of memory");
  if (self < 0)
    return an->oom ? cr_diag_set(d, CR_ENOMEM, -1, "out of memory")
                   : cr_diag_set(d, CR_EFORMAT, -1, "this_class is not a Class");
  an->object = (uint32_t)v[0];
  an->string = (uint32_t)v[1];
  an->klass = (uint32_t)v[2];
  an->throwable = (uint32_t)v[3];
  an->mtype = (uint32_t)v[4];
  an->mhandle = (uint32_t)v[5];
  an->self = (uint32_t)self;
  *out = an;
  return 0;
}

uint32_t cr_an_missing_count(const cr_an *an) { return an->nmissing; }
