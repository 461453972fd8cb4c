/*
** hier.c -- the class hierarchy database: interning, adding classes,
** linking (supertypes, cycles, missing types, superinterface closures),
** JVMS 5.4.3.3/5.4.3.4 resolution, 5.4.6 selection, call-site queries and
** the typeinfo hook.
*/
#include <stdlib.h>
#include <string.h>

#include "hier_int.h"

#define MAX_CYCLE_MSG 400

/* ------------------------------------------------------------ interning */


/* The hashes sit beside the pointers so that probing a slot of another
** name does not load that name's symbol. */
static int growsyms(cr_hier *h) {
  size_t nc = h->capsyms ? h->capsyms * 2 : 4096;
  hsym **t = cr_calloc(nc, sizeof *t + sizeof(uint32_t));
  if (!t) return CR_ENOMEM;
  uint32_t *th = (uint32_t *)(t + nc);
  for (size_t i = 0; i < h->capsyms; i++) {
    hsym *s = h->syms[i];
    if (!s) continue;
    size_t j = s->hash & (nc - 1);
    while (t[j]) j = (j + 1) & (nc - 1);
    t[j] = s;
    th[j] = s->hash;
  }
  cr_free(h->syms);
  h->syms = t;
  h->symhash = th;
  h->capsyms = nc;
  return 0;
}

static hsym *lookup(const cr_hier *h, const char *s, size_t n, uint32_t hv) {
  if (!h->capsyms) return NULL;
  for (size_t j = hv & (h->capsyms - 1);; j = (j + 1) & (h->capsyms - 1)) {
    hsym *e = h->syms[j];
    if (!e) return NULL;
    if (h->symhash[j] == hv && e->len == n && memcmp(e->s, s, n) == 0)
      return e;
  }
}

/* 'cr_hier__intern' with the hash 'hv' of the bytes already known. */
static const char *intern_hashed(cr_hier *h, const char *s, size_t n,
                                 uint32_t hv) {
  hsym *e = lookup(h, s, n, hv);
  if (e) return e->s;
  if ((h->nsyms + 1) * 2 > h->capsyms && growsyms(h)) return NULL;
  if (n > UINT32_MAX - 1) return NULL;
  e = cr_arena_alloc(h->a, sizeof *e + n + 1);
  if (!e) return NULL;
  memset(e, 0, sizeof *e);
  e->hash = hv;
  e->len = (uint32_t)n;
  memcpy(e->s, s, n);
  e->s[n] = '\0';
  size_t j = hv & (h->capsyms - 1);
  while (h->syms[j]) j = (j + 1) & (h->capsyms - 1);
  h->syms[j] = e;
  h->symhash[j] = hv;
  h->nsyms++;
  return e->s;
}

/* Interned copy of the 'n' bytes at 's' (NULL on OOM); caller holds mu. */
const char *cr_hier__intern(cr_hier *h, const char *s, size_t n) {
  return intern_hashed(h, s, n, cr_hash(s, n));
}

const char *cr_hier__find(const cr_hier *h, const char *s) {
  size_t n = strlen(s);
  hsym *e = lookup(h, s, n, cr_hash(s, n));
  return e ? e->s : NULL;
}

/* ------------------------------------------------------------ life */

int cr_hier_new(cr_hier **out, cr_diag *d) {
  *out = NULL;
  cr_hier *h = cr_calloc(1, sizeof *h);
  if (!h) return cr_diag_set(d, CR_ENOMEM, -1, "out of memory");
  h->a = cr_arena_new();
  if (!h->a || pthread_mutex_init(&h->mu, NULL) != 0) {
    cr_arena_free(h->a);
    cr_free(h);
    return cr_diag_set(d, CR_ENOMEM, -1, "out of memory");
  }
  if (!(h->s_object = cr_hier__intern(h, "java/lang/Object", 16)) ||
      !(h->s_mh = cr_hier__intern(h, "java/lang/invoke/MethodHandle", 29)) ||
      !(h->s_vh = cr_hier__intern(h, "java/lang/invoke/VarHandle", 26)) ||
      !(h->s_init = cr_hier__intern(h, "<init>", 6))) {
    cr_hier_free(h);
    return cr_diag_set(d, CR_ENOMEM, -1, "out of memory");
  }
  *out = h;
  return 0;
}

void cr_hier_free(cr_hier *h) {
  if (!h) return;
  pthread_mutex_destroy(&h->mu);
  cr_free(h->syms);
  cr_free(h->sorted);
  cr_free(h->mtab);
  cr_free(h->missing);
  cr_free(h->missing_ref);
  cr_free(h->conflicts);
  cr_free(h->called);
  cr_free(h->bodies);
  cr_arena_free(h->a);
  cr_free(h);
}

/* ------------------------------------------------------------ adding */

static unsigned annot_bits(const char *t) {
  static const struct { const char *name; unsigned bit; } tab[] = {
    {"Ljdk/internal/reflect/CallerSensitive;", CR_HM_CALLER_SENSITIVE},
    {"Lsun/reflect/CallerSensitive;", CR_HM_CALLER_SENSITIVE},
    {"Ljava/lang/invoke/MethodHandle$PolymorphicSignature;", CR_HM_POLYSIG},
    {"Ljdk/internal/vm/annotation/IntrinsicCandidate;", CR_HM_INTRINSIC},
    {"Ljdk/internal/HotSpotIntrinsicCandidate;", CR_HM_INTRINSIC},
    {"Ljdk/internal/vm/annotation/ForceInline;", CR_HM_FORCEINLINE},
    {"Ljava/lang/invoke/ForceInline;", CR_HM_FORCEINLINE},
    {"Ljdk/internal/vm/annotation/Hidden;", CR_HM_HIDDEN},
    {"Ljava/lang/invoke/LambdaForm$Hidden;", CR_HM_HIDDEN},
    {"Ljava/lang/invoke/LambdaForm$Compiled;", CR_HM_LFCOMPILED},
    {"Ljdk/internal/reflect/CallerSensitiveAdapter;", CR_HM_CS_ADAPTER},
  };
  for (size_t i = 0; i < sizeof tab / sizeof tab[0]; i++)
    if (strcmp(t, tab[i].name) == 0) return tab[i].bit;
  return 0;
}

int cr_hier__virtual(const cr_hmethod *m) {
  return !(m->access & (ACC_PRIVATE | ACC_STATIC)) && m->name[0] != '<';
}

static unsigned static_flags(const cr_hclass *c, const cr_hmethod *m,
                             const cr_hier *h) {
  unsigned f = 0;
  for (uint32_t i = 0; i < m->nannots; i++) f |= annot_bits(m->annots[i]);
  if (cr_hier__virtual(m)) f |= CR_HM_VIRTUAL;
  /* JVMS 2.9.3 signature polymorphism by shape */
  if ((c->name == h->s_mh || c->name == h->s_vh) &&
      (m->access & (0x80 | ACC_NATIVE)) == (0x80 | ACC_NATIVE) &&
      strncmp(m->desc, "([Ljava/lang/Object;)", 21) == 0)
    f |= CR_HM_POLYSIG;
  if (!c->instrumented) f |= CR_HM_LIBRARY;
  return f;
}

/* Does the new definition replace the existing one? */
static int wins(const cr_hier__cdef *n, const cr_hclass *o) {
  if (!!n->jdk_module != o->jdk_module) return n->jdk_module;
  if (n->instrumented != o->instrumented) return n->instrumented;
  return n->order < o->order;
}

/* Remember a hidden definition of 'sym' (caller holds mu). */
static int shadow(cr_hier *h, hsym *sym, const char *super_name,
                  uint64_t order, uint64_t shp, uint16_t access,
                  int instrumented, int jdk_module) {
  hshadow *x = cr_arena_alloc(h->a, sizeof *x);
  if (!x) return CR_ENOMEM;
  x->next = sym->shadows;
  x->super_name = super_name;
  x->order = order;
  x->shape = shp;
  x->access = access;
  x->instrumented = (uint8_t)!!instrumented;
  x->jdk_module = (uint8_t)!!jdk_module;
  sym->shadows = x;
  return 0;
}

static uint64_t mix64(uint64_t z) {    /* splitmix64's finaliser */
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

/*
** What resolution and the analysis read of a definition: access,
** supertypes, and each method's name, descriptor and access (in any
** order); not code, which each definition's own rewrite keeps. Two
** definitions of one name with the same shape get the same twins and
** resolve every call alike.
*/
static uint64_t shape_of(const cr_hier__cdef *def) {
  uint64_t s = mix64(def->access + 1);
  s = mix64(s ^ (def->super_name ? SYM(def->super_name)->hash : 0));
  for (uint32_t i = 0; i < def->nifaces; i++)
    s = mix64(s ^ SYM(def->ifaces[i])->hash);
  uint64_t ms = 0;
  for (uint32_t i = 0; i < def->nmethods; i++) {
    const cr_hier__mdef *m = &def->methods[i];
    ms += mix64(((uint64_t)SYM(m->name)->hash << 32 | SYM(m->desc)->hash) ^
                mix64(m->access));
  }
  return mix64(s ^ mix64(ms + def->nmethods));
}

int cr_hier__insert(cr_hier *h, const cr_hier__cdef *def, cr_diag *d) {
  hsym *sym = SYM(def->name);
  cr_hclass *c = sym->cls;
  uint64_t shp = shape_of(def);
  if (c && !wins(def, c))
    return shadow(h, sym, def->super_name, def->order, shp, def->access,
                  def->instrumented, def->jdk_module)
               ? cr_diag_set(d, CR_ENOMEM, -1, "out of memory")
               : 0;
  if (c && shadow(h, sym, c->super_name, c->order, c->shape, c->access,
                  c->instrumented, c->jdk_module))
    return cr_diag_set(d, CR_ENOMEM, -1, "out of memory");
  if (!c) {
    c = cr_arena_calloc(h->a, 1, sizeof *c);
    if (!c) return cr_diag_set(d, CR_ENOMEM, -1, "out of memory");
    h->nclasses++;
  }
  memset(c, 0, sizeof *c);
  c->name = def->name;
  c->super_name = def->super_name;
  c->access = def->access;
  c->instrumented = (uint8_t)!!def->instrumented;
  c->from_summary = (uint8_t)!!def->from_summary;
  c->jdk_module = (uint8_t)!!def->jdk_module;
  c->order = def->order;
  c->shape = shp;
  c->nifaces = def->nifaces;
  if (def->nifaces) {
    c->iface_names = cr_arena_calloc(h->a, def->nifaces, sizeof(char *));
    if (!c->iface_names) goto oom;
    memcpy(c->iface_names, def->ifaces, def->nifaces * sizeof(char *));
  }
  c->nmethods = def->nmethods;
  if (def->nmethods) {
    c->methods = cr_arena_calloc(h->a, def->nmethods, sizeof *c->methods);
    if (!c->methods) goto oom;
  }
  for (uint32_t i = 0; i < def->nmethods; i++) {
    const cr_hier__mdef *md = &def->methods[i];
    cr_hmethod *m = &c->methods[i];
    m->owner = c;
    m->name = md->name;
    m->desc = md->desc;
    m->access = md->access;
    m->saved = md->saved;
    m->nannots = md->nannots;
    if (md->nannots) {
      m->annots = cr_arena_calloc(h->a, md->nannots, sizeof(char *));
      if (!m->annots) goto oom;
      memcpy(m->annots, md->annots, md->nannots * sizeof(char *));
    }
    m->flags = static_flags(c, m, h);
    if (md->leaf) m->flags |= CR_HM_LEAF;
    m->colour = md->colour;
    m->body = md->body;
    m->nocode = md->nocode;
    m->ncalls = md->ncalls;
    if (md->ncalls) {
      hcall *v = cr_arena_alloc(h->a, md->ncalls * sizeof *v);
      if (!v) goto oom;
      memcpy(v, md->calls, md->ncalls * sizeof *v);
      m->calls = v;
    }
    if (strcmp(m->name, "<clinit>") == 0) c->clinit = 1;
  }
  sym->cls = c;
  return 0;
oom:
  sym->cls = NULL;     /* half-built: forget the class entirely */
  return cr_diag_set(d, CR_ENOMEM, -1, "out of memory");
}

/* Annotation type names of one attribute list into 'v' (grows). */
static int collect_annots(cr_class *c, const cr_attrs *as, const char ***v,
                          uint32_t *n, uint32_t *cap) {
  for (uint32_t i = 0; i < as->n; i++) {
    const cr_attr *at = &as->v[i];
    if (at->kind != CR_ATTR_RVANNOTATIONS && at->kind != CR_ATTR_RIANNOTATIONS)
      continue;
    for (uint32_t k = 0; at->u.annots && k < at->u.annots->n; k++) {
      const char *t = cr_cp_str(c->cp, at->u.annots->v[k].type);
      if (!t) continue;
      if (*n == *cap) {
        uint32_t nc = *cap ? *cap * 2 : 4;
        const char **nv = cr_realloc(*v, nc * sizeof *nv);
        if (!nv) return CR_ENOMEM;
        *v = nv;
        *cap = nc;
      }
      (*v)[(*n)++] = t;
    }
  }
  return 0;
}

/* Why the string of pool entry 'i' (a Class or a Utf8) could not be had:
** an entry of the right kind means its copy ran out of memory. */
static int why_no_string(cr_cpool *cp, uint32_t i) {
  int tag = cr_cp_tag(cp, i);
  if (tag == CR_CP_CLASS) tag = cr_cp_tag(cp, cr_cp_get(cp, i)->a);
  return tag == CR_CP_UTF8 ? CR_ENOMEM : CR_EFORMAT;
}

static int add_class(cr_hier *h, cr_class *c, unsigned kind, uint64_t order,
                     int late, cr_diag *d);

int cr_hier_add_class(cr_hier *h, cr_class *c, unsigned kind,
                      uint64_t order, cr_diag *d) {
  return add_class(h, c, kind, order, 0, d);
}

/* 'cr_hier_add_class'; 'late': also into a linked hierarchy (extending) */
static int add_class(cr_hier *h, cr_class *c, unsigned kind, uint64_t order,
                     int late, cr_diag *d) {
  if (c->flags & ACC_MODULE) return 0;
  const char *name = cr_cf_this_name(c);
  if (!name && why_no_string(c->cp, c->this_class) == CR_ENOMEM)
    return cr_diag_set(d, CR_ENOMEM, -1, "out of memory");
  if (!name || !*name)
    return cr_diag_set(d, CR_EFORMAT, -1, "class without a name");
  /* Gather the strings (class arena) before taking the lock. */
  cr_hier__cdef def;
  memset(&def, 0, sizeof def);
  def.name = name;
  def.super_name = c->super_class ? cr_cp_class_name(c->cp, c->super_class)
                                  : NULL;
  if (c->super_class && !def.super_name)
    return why_no_string(c->cp, c->super_class) == CR_ENOMEM
               ? cr_diag_set(d, CR_ENOMEM, -1, "out of memory")
               : cr_diag_set(d, CR_EFORMAT, -1, "%s: bad superclass entry",
                             name);
  def.access = c->flags;
  def.instrumented = !!(kind & CR_HIER_INSTRUMENTED);
  def.jdk_module = !!(kind & CR_HIER_JDK_MODULE);
  def.order = order;
  def.nifaces = c->interfaces.n;
  def.nmethods = c->nmethods;
  const char **names = NULL, **annots = NULL;
  uint32_t nann = 0, capann = 0;
  int rc = 0;
  names = cr_calloc((size_t)c->interfaces.n + 1, sizeof *names);
  def.methods = cr_calloc((size_t)c->nmethods + 1, sizeof *def.methods);
  if (!names || !def.methods) {
    rc = cr_diag_set(d, CR_ENOMEM, -1, "out of memory");
    goto out;
  }
  def.ifaces = names;
  for (uint32_t i = 0; i < c->interfaces.n; i++) {
    names[i] = cr_cp_class_name(c->cp, c->interfaces.v[i]);
    if (!names[i]) {
      rc = why_no_string(c->cp, c->interfaces.v[i]) == CR_ENOMEM
               ? cr_diag_set(d, CR_ENOMEM, -1, "out of memory")
               : cr_diag_set(d, CR_EFORMAT, -1, "%s: bad interface entry",
                             name);
      goto out;
    }
  }
  size_t ncalls = 0;
  uint32_t *astart = cr_calloc((size_t)c->nmethods + 1, sizeof *astart);
  if (!astart) {
    rc = cr_diag_set(d, CR_ENOMEM, -1, "out of memory");
    goto out;
  }
  for (uint32_t i = 0; i < c->nmethods; i++) {
    cr_member *m = &c->methods[i];
    def.methods[i].name = cr_member_name(c, m);
    def.methods[i].desc = cr_member_desc(c, m);
    def.methods[i].access = m->flags;
    if (!def.methods[i].name || !def.methods[i].desc) {
      cr_free(astart);
      rc = why_no_string(c->cp, def.methods[i].name ? m->desc : m->name) ==
                   CR_ENOMEM
               ? cr_diag_set(d, CR_ENOMEM, -1, "out of memory")
               : cr_diag_set(d, CR_EFORMAT, -1, "%s: bad method name", name);
      goto out;
    }
    astart[i] = nann;
    if (collect_annots(c, &m->attrs, &annots, &nann, &capann)) {
      cr_free(astart);
      rc = cr_diag_set(d, CR_ENOMEM, -1, "out of memory");
      goto out;
    }
    def.methods[i].nannots = nann - astart[i];
    /* only a JDK module's classes can be leaves (leaf.c) */
    if (!def.instrumented && def.jdk_module &&
        cr_hier__scan_body(c, m, &def.methods[i])) {
      cr_free(astart);
      rc = cr_diag_set(d, CR_ENOMEM, -1, "out of memory");
      goto out;
    }
    ncalls += def.methods[i].ncalls;
  }
  for (uint32_t i = 0; i < def.nmethods; i++)
    def.methods[i].annots = annots ? annots + astart[i] : NULL;
  /* The strings to intern, measured and hashed before taking the lock:
  ** the scan threads spent much of their time waiting for it. */
  size_t nstr = 2 + (size_t)def.nifaces + nann + 2 * (size_t)def.nmethods +
                3 * ncalls;
  struct pre { const char **p; size_t n; uint32_t hv; } *pre =
      cr_calloc(nstr, sizeof *pre);
  if (!pre) {
    cr_free(astart);
    rc = cr_diag_set(d, CR_ENOMEM, -1, "out of memory");
    goto out;
  }
  size_t np = 0;
#define PRE(q) do { if (q) pre[np++].p = &(q); } while (0)
  PRE(def.name);
  PRE(def.super_name);
  for (uint32_t i = 0; i < def.nifaces; i++) PRE(names[i]);
  for (uint32_t i = 0; i < nann; i++) PRE(annots[i]);
  for (uint32_t i = 0; i < def.nmethods; i++) {
    PRE(def.methods[i].name);
    PRE(def.methods[i].desc);
    for (uint32_t k = 0; k < def.methods[i].ncalls; k++) {
      PRE(def.methods[i].calls[k].owner);
      PRE(def.methods[i].calls[k].name);
      PRE(def.methods[i].calls[k].desc);
    }
  }
#undef PRE
  for (size_t k = 0; k < np; k++) {
    pre[k].n = strlen(*pre[k].p);
    pre[k].hv = cr_hash(*pre[k].p, pre[k].n);
  }
  pthread_mutex_lock(&h->mu);
  if (h->linked && !late) {
    rc = cr_diag_set(d, CR_EUSAGE, -1, "class %s added after linking", name);
  } else {
    /* Intern in place: the pointers now refer to the session arena. */
    int oom = 0;
    for (size_t k = 0; k < np && !oom; k++)
      if (!(*pre[k].p = intern_hashed(h, *pre[k].p, pre[k].n, pre[k].hv)))
        oom = 1;
    rc = oom ? cr_diag_set(d, CR_ENOMEM, -1, "out of memory")
             : cr_hier__insert(h, &def, d);
  }
  pthread_mutex_unlock(&h->mu);
  cr_free(pre);
  cr_free(astart);
out:
  cr_free(names);
  cr_free(annots);
  for (uint32_t i = 0; def.methods && i < def.nmethods; i++)
    cr_free(def.methods[i].calls);
  cr_free(def.methods);
  return rc;
}

/* ------------------------------------------------------------ linking */

static int byname(const void *a, const void *b) {
  return strcmp((*(cr_hclass *const *)a)->name,
                (*(cr_hclass *const *)b)->name);
}

static int is_iface(const cr_hclass *c) { return c->access & ACC_INTERFACE; }

static int bystr(const void *a, const void *b) {
  return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static cr_hclass *cls_of(const char *interned) {
  return interned ? SYM(interned)->cls : NULL;
}

static int add_missing(cr_hier *h, const char *name, const char *ref,
                       size_t *cap) {
  hsym *s = SYM(name);
  if (s->missing) return 0;
  s->missing = 1;
  if (h->nmissing == *cap) {
    size_t nc = *cap ? *cap * 2 : 16;
    const char **a = cr_realloc(h->missing, nc * sizeof *a);
    if (!a) return CR_ENOMEM;
    h->missing = a;
    const char **b = cr_realloc(h->missing_ref, nc * sizeof *b);
    if (!b) return CR_ENOMEM;
    h->missing_ref = b;
    *cap = nc;
  }
  h->missing[h->nmissing] = name;
  h->missing_ref[h->nmissing++] = ref;
  return 0;
}

/* Outgoing edge 'k' of 'c': 0 is the superclass, 1.. the interfaces. */
static cr_hclass **edge(cr_hclass *c, uint32_t k) {
  return k == 0 ? &c->super : &c->ifaces[k - 1];
}

/*
** Iterative depth-first search over supertype edges from 'root'. Gray
** nodes are on the stack; an edge to a gray node closes a cycle: it is
** reported (first one only) and cut. Appends finished classes to 'post'
** (supertypes before subtypes).
*/
typedef struct frame { cr_hclass *c; uint32_t k; } frame;

static int dfs(cr_hier *h, cr_hclass *root, frame *st, cr_hclass **post,
               size_t *npost, cr_diag *d, int *cyc) {
  size_t sp = 0;
  st[sp++] = (frame){root, 0};
  root->color = 1;
  while (sp) {
    frame *f = &st[sp - 1];
    cr_hclass *c = f->c;
    if (f->k > c->nifaces) {
      c->color = 2;
      post[(*npost)++] = c;
      sp--;
      continue;
    }
    cr_hclass **e = edge(c, f->k++);
    cr_hclass *t = *e;
    if (!t || t->color == 2) continue;
    if (t->color == 1) {          /* cycle: t ... c -> t */
      if (!*cyc) {
        char msg[MAX_CYCLE_MSG] = "";
        size_t i = sp;
        while (i > 0 && st[i - 1].c != t) i--;
        for (size_t j = i ? i - 1 : 0; j < sp; j++) {
          size_t l = strlen(msg);
          snprintf(msg + l, sizeof msg - l, "%s -> ", st[j].c->name);
        }
        size_t l = strlen(msg);
        snprintf(msg + l, sizeof msg - l, "%s", t->name);
        cr_diag_set(d, CR_EFORMAT, -1, "cyclic class hierarchy: %s", msg);
        for (size_t j = i ? i - 1 : 0; j < sp && !h->cycle; j++)
          if (!st[j].c->from_summary) h->cycle = st[j].c;
      }
      *cyc = 1;
      *e = NULL;                  /* cut: as if missing */
      c->complete = 0;
      continue;
    }
    t->color = 1;
    st[sp++] = (frame){t, 0};
  }
  return 0;
}

/* 1 if interface 'i' is in 'c''s closure. */
static int has_iface(const cr_hclass *c, const cr_hclass *i) {
  for (uint32_t k = 0; k < c->nall; k++)
    if (c->all[k] == i) return 1;
  return 0;
}

static uint64_t mix(const void *p) {
  uint64_t x = (uint64_t)(uintptr_t)p;
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdULL;
  x ^= x >> 33;
  return x;
}

static size_t mhash(const cr_hclass *c, const char *n, const char *de) {
  return (size_t)(mix(c) ^ (mix(n) * 31) ^ (mix(de) * 1000003));
}

const cr_hmethod *cr_hier__declared(const cr_hier *h, const cr_hclass *c,
                                    const char *name, const char *desc) {
  if (!h->capm) return NULL;
  size_t hv = mhash(c, name, desc);
  for (size_t j = hv & (h->capm - 1);; j = (j + 1) & (h->capm - 1)) {
    const cr_hmethod *m = h->mtab[j];
    if (!m) return NULL;
    if (h->mtabh[j] == (uint32_t)hv && m->owner == c && m->name == name &&
        m->desc == desc)
      return m;
  }
}

/* The package part of class name 's' ("a/b" of "a/b/C"), as a length. */
static size_t pkg_len(const char *s) {
  const char *slash = strrchr(s, '/');
  return slash ? (size_t)(slash - s) : 0;
}

/*
** JEP 261: a package belongs to one module, and the class loaders look a
** class of a module's package up in that module only. So a class of the
** inputs or the class path in a package that a JDK module defines classes
** in is never loaded (the JDK's own class of that name is, if there is
** one): it becomes a library class, and the CLI leaves it unchanged.
** Marks the package symbols and those classes.
*/
static int jdk_packages(cr_hier *h) {
  for (size_t i = 0; i < h->nclasses; i++) {
    const cr_hclass *c = h->sorted[i];
    size_t n = pkg_len(c->name);
    if (!c->jdk_module || !n) continue;
    const char *p = cr_hier__intern(h, c->name, n);
    if (!p) return CR_ENOMEM;
    SYM(p)->jdk_pkg = 1;
  }
  for (size_t i = 0; i < h->nclasses; i++) {
    cr_hclass *c = h->sorted[i];
    if (c->jdk_module || !cr_hier_jdk_package(h, c->name)) continue;
    c->in_jdk_pkg = 1;
    c->instrumented = 0;
    for (uint32_t k = 0; k < c->nmethods; k++)
      c->methods[k].flags |= CR_HM_LIBRARY;
  }
  return 0;
}

int cr_hier_jdk_package(const cr_hier *h, const char *name) {
  size_t n = pkg_len(name);
  if (!h->linked || !n) return 0;
  hsym *e = lookup(h, name, n, cr_hash(name, n));
  return e && e->jdk_pkg;
}

int cr_hier_link(cr_hier *h, cr_diag *d) {
  if (h->linked) return cr_diag_set(d, CR_EUSAGE, -1, "linked twice");
  int rc = 0;
  size_t n = 0, nm = 0, capmiss = 0;
  h->sorted = cr_calloc(h->nclasses + 1, sizeof *h->sorted);
  if (!h->sorted) return cr_diag_set(d, CR_ENOMEM, -1, "out of memory");
  for (size_t i = 0; i < h->capsyms; i++)
    if (h->syms[i] && h->syms[i]->cls) h->sorted[n++] = h->syms[i]->cls;
  h->nclasses = n;
  qsort(h->sorted, n, sizeof *h->sorted, byname);
  /* A hidden definition with another shape: the JVM may load either
  ** (whichever input comes first on the class path). Not for a JDK
  ** module's class, which the JVM loads whatever the class path says. */
  for (size_t i = 0; i < h->capsyms; i++) {
    const hsym *sym = h->syms[i];
    cr_hclass *c = sym ? sym->cls : NULL;
    if (!c || c->jdk_module) continue;
    c->redefined = 0;
    for (const hshadow *x = sym->shadows; x; x = x->next)
      if (!x->jdk_module && x->shape != c->shape) c->redefined = 1;
  }
  h->linked = 1;
  if (jdk_packages(h)) goto oom;

  /* Supertype pointers and missing names. */
  for (size_t i = 0; i < n; i++) {
    cr_hclass *c = h->sorted[i];
    c->complete = 1;
    c->super = cls_of(c->super_name);
    if (c->super_name && !c->super) {
      c->complete = 0;
      if (add_missing(h, c->super_name, c->name, &capmiss)) goto oom;
    }
    if (c->nifaces) {
      c->ifaces = cr_arena_calloc(h->a, c->nifaces, sizeof *c->ifaces);
      if (!c->ifaces) goto oom;
    }
    for (uint32_t k = 0; k < c->nifaces; k++) {
      c->ifaces[k] = cls_of(c->iface_names[k]);
      if (!c->ifaces[k]) {
        c->complete = 0;
        if (add_missing(h, c->iface_names[k], c->name, &capmiss)) goto oom;
      }
    }
    nm += c->nmethods;
  }
  /* Missing names sorted (referrers are the first class by name). */
  if (h->nmissing > 1) {
    struct mpair { const char *name, *ref; } *pv =
        cr_malloc(h->nmissing * sizeof *pv);
    if (!pv) goto oom;
    for (size_t i = 0; i < h->nmissing; i++)
      pv[i] = (struct mpair){h->missing[i], h->missing_ref[i]};
    qsort(pv, h->nmissing, sizeof *pv, bystr);
    for (size_t i = 0; i < h->nmissing; i++) {
      h->missing[i] = pv[i].name;
      h->missing_ref[i] = pv[i].ref;
    }
    cr_free(pv);
  }

  /* Cycles, post-order. The stack holds at most one frame per class. */
  {
    frame *st = cr_malloc((n + 1) * sizeof *st);
    cr_hclass **post = cr_malloc((n + 1) * sizeof *post);
    if (!st || !post) {
      cr_free(st);
      cr_free(post);
      goto oom;
    }
    size_t npost = 0;
    int cyc = 0;
    for (size_t i = 0; i < n; i++)
      if (h->sorted[i]->color == 0)
        dfs(h, h->sorted[i], st, post, &npost, d, &cyc);
    cr_free(st);
    if (cyc) rc = CR_EFORMAT;

    /* Closures and completeness, supertypes first. */
    cr_hclass **tmp = cr_malloc((n + 1) * sizeof *tmp);
    if (!tmp) {
      cr_free(post);
      goto oom;
    }
    for (size_t i = 0; i < npost; i++) {
      cr_hclass *c = post[i];
      uint32_t k = 0;
      h->stamp++;
#define PUT(x) do { if ((x)->stamp != h->stamp) { (x)->stamp = h->stamp; tmp[k++] = (x); } } while (0)
      if (c->super) {
        if (!c->super->complete) c->complete = 0;
        for (uint32_t j = 0; j < c->super->nall; j++) PUT(c->super->all[j]);
      } else if (c->super_name) {
        c->complete = 0;
      }
      for (uint32_t q = 0; q < c->nifaces; q++) {
        cr_hclass *f = c->ifaces[q];
        if (!f) {
          c->complete = 0;
          continue;
        }
        if (!f->complete) c->complete = 0;
        PUT(f);
        for (uint32_t j = 0; j < f->nall; j++) PUT(f->all[j]);
      }
#undef PUT
      /* 'cr_hier_redefined_path': itself, or a supertype's path */
      c->redef_path = c->redefined || (c->super && c->super->redef_path);
      for (uint32_t q = 0; q < c->nifaces; q++)
        if (c->ifaces[q] && c->ifaces[q]->redef_path) c->redef_path = 1;
      c->nall = k;
      if (k) {
        c->all = cr_arena_alloc(h->a, k * sizeof *c->all);
        if (!c->all) {
          cr_free(post);
          cr_free(tmp);
          goto oom;
        }
        memcpy(c->all, tmp, k * sizeof *c->all);
      }
    }
    cr_free(tmp);
    cr_free(post);
  }

  /*
  ** Direct subtypes, in name order. An interface is not a subtype of its
  ** class-file superclass (java/lang/Object) for dispatch: only its
  ** superinterfaces list it.
  */
  for (size_t i = 0; i < n; i++) {
    cr_hclass *c = h->sorted[i];
    if (c->super && !is_iface(c)) c->super->nsubs++;
    for (uint32_t k = 0; k < c->nifaces; k++)
      if (c->ifaces[k] && c->ifaces[k] != c->super) c->ifaces[k]->nsubs++;
  }
  for (size_t i = 0; i < n; i++) {
    cr_hclass *c = h->sorted[i];
    if (c->nsubs) {
      c->subs = cr_arena_alloc(h->a, c->nsubs * sizeof *c->subs);
      if (!c->subs) goto oom;
      c->nsubs = 0;
    }
  }
  for (size_t i = 0; i < n; i++) {
    cr_hclass *c = h->sorted[i];
    if (c->super && !is_iface(c)) c->super->subs[c->super->nsubs++] = c;
    for (uint32_t k = 0; k < c->nifaces; k++) {
      cr_hclass *f = c->ifaces[k];
      if (!f || f == c->super) continue;
      /* an interface listed twice gets one entry */
      if (f->nsubs && f->subs[f->nsubs - 1] == c) continue;
      f->subs[f->nsubs++] = c;
    }
  }

  /* Method table. */
  h->nmtab = 0;
  for (h->capm = 64; h->capm < 2 * nm + 2;) h->capm *= 2;
  h->mtab = cr_calloc(h->capm, sizeof *h->mtab + sizeof *h->mtabh);
  if (!h->mtab) goto oom;
  h->mtabh = (uint32_t *)(h->mtab + h->capm);
  for (size_t i = 0; i < n; i++) {
    cr_hclass *c = h->sorted[i];
    for (uint32_t k = 0; k < c->nmethods; k++) {
      cr_hmethod *m = &c->methods[k];
      size_t hv = mhash(c, m->name, m->desc), j = hv & (h->capm - 1);
      while (h->mtab[j]) {
        const cr_hmethod *o = h->mtab[j];
        if (o->owner == c && o->name == m->name && o->desc == m->desc)
          break;                  /* duplicate method: keep the first */
        j = (j + 1) & (h->capm - 1);
      }
      if (!h->mtab[j]) {
        h->mtab[j] = m;
        h->mtabh[j] = (uint32_t)hv;
        h->nmtab++;
      }
    }
  }

  /* Fixed method ids of an instrumented JDK, for every class of its
  ** modules: dense, in name order of the classes, then class-file order;
  ** a summary reloaded with other classes gives the same ids. */
  h->nmids = 0;
  int jdk_instr = 0;
  for (size_t i = 0; i < n && !jdk_instr; i++)
    jdk_instr = h->sorted[i]->instrumented && h->sorted[i]->jdk_module;
  for (size_t i = 0; i < n; i++) {
    cr_hclass *c = h->sorted[i];
    c->mid_base = 0;
    if (!jdk_instr || !c->jdk_module || !c->nmethods) continue;
    if (c->nmethods > INT32_MAX - 1 - h->nmids) break;
    c->mid_base = h->nmids + 1;
    h->nmids += c->nmethods;
  }
  cr_hier__leaves(h);
  return rc;
oom:
  return cr_diag_set(d, CR_ENOMEM, -1, "out of memory");
}

/* ------------------------------------------------------------ extending */

/* Put 'c' among the 'n' classes of 'v' (room for one more), in name
** order. */
static void put_sorted(cr_hclass **v, size_t n, cr_hclass *c) {
  size_t lo = 0, hi = n;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (strcmp(v[mid]->name, c->name) < 0) lo = mid + 1;
    else hi = mid;
  }
  memmove(v + lo + 1, v + lo, (n - lo) * sizeof *v);
  v[lo] = c;
}

/* 'c' becomes a direct subtype of 'x' (a new copy of the list). */
static int add_sub(cr_hier *h, cr_hclass *x, cr_hclass *c) {
  cr_hclass **v = cr_arena_alloc(h->a, (x->nsubs + 1) * sizeof *v);
  if (!v) return CR_ENOMEM;
  if (x->nsubs) memcpy(v, x->subs, x->nsubs * sizeof *v);
  put_sorted(v, x->nsubs, c);
  x->subs = v;
  x->nsubs++;
  return 0;
}

/* Method 'm' into the method table, which grows at half full. */
static int mtab_put(cr_hier *h, const cr_hmethod *m) {
  if ((h->nmtab + 1) * 2 > h->capm) {
    size_t nc = h->capm * 2;
    const cr_hmethod **t = cr_calloc(nc, sizeof *t + sizeof(uint32_t));
    if (!t) return CR_ENOMEM;
    uint32_t *th = (uint32_t *)(t + nc);
    for (size_t i = 0; i < h->capm; i++) {
      if (!h->mtab[i]) continue;
      size_t j = h->mtabh[i] & (nc - 1);
      while (t[j]) j = (j + 1) & (nc - 1);
      t[j] = h->mtab[i];
      th[j] = h->mtabh[i];
    }
    cr_free(h->mtab);
    h->mtab = t;
    h->mtabh = th;
    h->capm = nc;
  }
  size_t hv = mhash(m->owner, m->name, m->desc), j = hv & (h->capm - 1);
  while (h->mtab[j]) {
    const cr_hmethod *o = h->mtab[j];
    if (o->owner == m->owner && o->name == m->name && o->desc == m->desc)
      return 0;
    j = (j + 1) & (h->capm - 1);
  }
  h->mtab[j] = m;
  h->mtabh[j] = (uint32_t)hv;
  h->nmtab++;
  return 0;
}

int cr_hier__extend_link(cr_hier *h, cr_class *cf, unsigned kind,
                         uint64_t order, cr_hclass **out, cr_diag *d) {
  *out = NULL;
  const char *name = cr_cf_this_name(cf);
  if (!h->linked) return cr_diag_set(d, CR_EUSAGE, -1, "not linked");
  if (!name) return cr_diag_set(d, CR_EFORMAT, -1, "class without a name");
  if (cr_hier_class(h, name))
    return cr_diag_set(d, CR_EUSAGE, -1, "class %s is known already", name);
  cr_hclass **sorted = cr_realloc(h->sorted, (h->nclasses + 2) *
                                                 sizeof *sorted);
  if (!sorted) return cr_diag_set(d, CR_ENOMEM, -1, "out of memory");
  h->sorted = sorted;
  size_t n = h->nclasses;
  int rc = add_class(h, cf, kind, order, 1, d);
  if (rc) return rc;
  cr_hclass *c = SYM(cr_hier__find(h, name))->cls;
  if (!c) return cr_diag_set(d, CR_ENOMEM, -1, "out of memory");
  put_sorted(h->sorted, n, c);
  /* supertypes: the known ones (a missing one leaves it incomplete) */
  c->complete = 1;
  c->super = cls_of(c->super_name);
  if (c->super_name && (!c->super || !c->super->complete)) c->complete = 0;
  if (c->nifaces) {
    c->ifaces = cr_arena_calloc(h->a, c->nifaces, sizeof *c->ifaces);
    if (!c->ifaces) goto oom;
  }
  for (uint32_t k = 0; k < c->nifaces; k++) {
    c->ifaces[k] = cls_of(c->iface_names[k]);
    if (!c->ifaces[k] || !c->ifaces[k]->complete) c->complete = 0;
  }
  /* the closure of superinterfaces, as 'cr_hier_link' makes it */
  size_t cap = 1 + (c->super ? c->super->nall : 0);
  for (uint32_t k = 0; k < c->nifaces; k++)
    if (c->ifaces[k]) cap += 1 + c->ifaces[k]->nall;
  cr_hclass **tmp = cr_arena_alloc(h->a, cap * sizeof *tmp);
  if (!tmp) goto oom;
  uint32_t k = 0;
  h->stamp++;
#define PUT(x) do { if ((x)->stamp != h->stamp) { (x)->stamp = h->stamp; tmp[k++] = (x); } } while (0)
  if (c->super)
    for (uint32_t j = 0; j < c->super->nall; j++) PUT(c->super->all[j]);
  for (uint32_t q = 0; q < c->nifaces; q++) {
    cr_hclass *f = c->ifaces[q];
    if (!f) continue;
    PUT(f);
    for (uint32_t j = 0; j < f->nall; j++) PUT(f->all[j]);
  }
#undef PUT
  c->all = k ? tmp : NULL;
  c->nall = k;
  c->redef_path = c->super && c->super->redef_path;
  for (uint32_t q = 0; q < c->nifaces; q++)
    if (c->ifaces[q] && c->ifaces[q]->redef_path) c->redef_path = 1;
  if (cr_hier_jdk_package(h, c->name)) {
    c->in_jdk_pkg = 1;
    c->instrumented = 0;
    for (uint32_t q = 0; q < c->nmethods; q++)
      c->methods[q].flags |= CR_HM_LIBRARY;
  }
  /* a subtype of its supertypes (an interface not of Object), listed
  ** once */
  if (c->super && !is_iface(c) && add_sub(h, c->super, c)) goto oom;
  for (uint32_t q = 0; q < c->nifaces; q++) {
    cr_hclass *f = c->ifaces[q];
    if (!f || f == c->super) continue;
    int dup = 0;
    for (uint32_t j = 0; j < q; j++) dup |= c->ifaces[j] == f;
    if (!dup && add_sub(h, f, c)) goto oom;
  }
  for (uint32_t q = 0; q < c->nmethods; q++)
    if (mtab_put(h, &c->methods[q])) goto oom;
  c->mid_base = 0;
  *out = c;
  return 0;
oom:
  return cr_diag_set(d, CR_ENOMEM, -1, "out of memory");
}

size_t cr_hier_missing_count(const cr_hier *h) { return h->nmissing; }

const char *cr_hier_missing(const cr_hier *h, size_t i, const char **ref) {
  if (i >= h->nmissing) return NULL;
  if (ref) *ref = h->missing_ref[i];
  return h->missing[i];
}

/* ------------------------------------------------------------ accessors */

size_t cr_hier_class_count(const cr_hier *h) {
  return h->linked ? h->nclasses : 0;
}

const cr_hclass *cr_hier_class_at(const cr_hier *h, size_t i) {
  return h->linked && i < h->nclasses ? h->sorted[i] : NULL;
}

const cr_hclass *cr_hier_class(const cr_hier *h, const char *name) {
  const char *s = cr_hier__find(h, name);
  return s ? SYM(s)->cls : NULL;
}

const char *cr_hclass_name(const cr_hclass *c) { return c->name; }
const char *cr_hclass_super(const cr_hclass *c) { return c->super_name; }
uint16_t cr_hclass_access(const cr_hclass *c) { return c->access; }
int cr_hclass_instrumented(const cr_hclass *c) { return c->instrumented; }
int cr_hclass_has_clinit(const cr_hclass *c) { return c->clinit; }
int cr_hclass_jdk_module(const cr_hclass *c) { return c->jdk_module; }
int cr_hclass_in_jdk_package(const cr_hclass *c) { return c->in_jdk_pkg; }
uint64_t cr_hclass_order(const cr_hclass *c) { return c->order; }
int cr_hclass_redefined(const cr_hclass *c) { return c->redefined; }

uint32_t cr_hier_mid(const cr_hmethod *m) {
  const cr_hclass *c = m->owner;
  return c->mid_base ? c->mid_base + (uint32_t)(m - c->methods) : 0;
}

uint32_t cr_hier_mid_count(const cr_hier *h) {
  return h->linked ? h->nmids : 0;
}

size_t cr_hier_each_redefined(const cr_hier *h, cr_hier_redef_fn fn,
                              void *ctx) {
  size_t n = 0;
  for (size_t i = 0; h->linked && i < h->nclasses; i++) {
    const cr_hclass *c = h->sorted[i];
    if (!c->redefined || !c->instrumented) continue;
    for (const hshadow *x = SYM(c->name)->shadows; x; x = x->next) {
      if (!x->instrumented || x->jdk_module || x->shape == c->shape)
        continue;
      n++;
      if (fn) fn(ctx, c->name, (uint32_t)(c->order >> 32),
                 (uint32_t)(x->order >> 32));
    }
  }
  return n;
}
const cr_hclass *cr_hier_cycle_class(const cr_hier *h) { return h->cycle; }
int cr_hclass_complete(const cr_hclass *c) { return c->complete; }
uint32_t cr_hclass_method_count(const cr_hclass *c) { return c->nmethods; }
const cr_hmethod *cr_hclass_method_at(const cr_hclass *c, uint32_t i) {
  return i < c->nmethods ? &c->methods[i] : NULL;
}

uint32_t cr_hclass_all_iface_count(const cr_hclass *c) { return c->nall; }

const cr_hclass *cr_hclass_all_iface_at(const cr_hclass *c, uint32_t i) {
  return i < c->nall ? c->all[i] : NULL;
}

const cr_hmethod *cr_hier_method(const cr_hier *h, const char *cls,
                                 const char *name, const char *desc) {
  const cr_hclass *c = cr_hier_class(h, cls);
  const char *n = cr_hier__find(h, name), *de = cr_hier__find(h, desc);
  if (!c || !n || !de) return NULL;
  return cr_hier__declared(h, c, n, de);
}

const cr_hclass *cr_hmethod_class(const cr_hmethod *m) { return m->owner; }
const char *cr_hmethod_name(const cr_hmethod *m) { return m->name; }
const char *cr_hmethod_desc(const cr_hmethod *m) { return m->desc; }
uint16_t cr_hmethod_access(const cr_hmethod *m) { return m->access; }
unsigned cr_hmethod_flags(const cr_hmethod *m) { return m->flags; }
int cr_hmethod_overloadable(const cr_hmethod *m) {
  return !(m->flags & CR_HM_NONOVL);
}
int cr_hmethod_wrappable(const cr_hmethod *m) {
  return !(m->flags & CR_HM_NONWRAP);
}

/* ------------------------------------------------- resolution, selection */

static int inheritable(const cr_hmethod *m) {
  return !(m->access & (ACC_PRIVATE | ACC_STATIC));
}

/*
** Maximally-specific superinterface methods of 'c' (JVMS 5.4.3.3): the
** non-private non-static declarations in its superinterfaces not
** overridden by a declaration in a subinterface. Returns the single
** non-abstract one if there is exactly one, else the first abstract one
** when 'abstract_ok', else NULL. '*namb' gets the count of non-abstract
** candidates.
*/
static const cr_hmethod *maxspec(const cr_hier *h, const cr_hclass *c,
                                 const char *name, const char *desc,
                                 int abstract_ok, int *namb) {
  const cr_hmethod *first_abs = NULL, *conc = NULL;
  int nconc = 0;
  for (uint32_t i = 0; i < c->nall; i++) {
    const cr_hmethod *m = cr_hier__declared(h, c->all[i], name, desc);
    if (!m || !inheritable(m)) continue;
    /* dominated by a declaration in a subinterface of m's owner? */
    int dominated = 0;
    for (uint32_t j = 0; j < c->nall && !dominated; j++) {
      const cr_hclass *o = c->all[j];
      if (o == m->owner || !has_iface(o, m->owner)) continue;
      const cr_hmethod *om = cr_hier__declared(h, o, name, desc);
      if (om && inheritable(om)) dominated = 1;
    }
    if (dominated) continue;
    if (m->access & ACC_ABSTRACT) {
      if (!first_abs) first_abs = m;
    } else {
      if (!conc) conc = m;
      nconc++;
    }
  }
  if (namb) *namb = nconc;
  if (nconc == 1) return conc;
  if (nconc == 0 && abstract_ok) return first_abs;
  return NULL;
}

const cr_hmethod *cr_hier__select(const cr_hier *h, const cr_hclass *c,
                                  const char *name, const char *desc) {
  const cr_hclass *k = c;
  for (; k; k = k->super) {
    const cr_hmethod *m = cr_hier__declared(h, k, name, desc);
    if (m && inheritable(m)) return m;
    if (!k->super && k->super_name) return NULL;  /* chain unknown above */
  }
  return maxspec(h, c, name, desc, 1, NULL);
}

/* The class of a receiver type: arrays behave as java/lang/Object. */
static const cr_hclass *receiver(const cr_hier *h, const char *cls) {
  if (cls[0] == '[') return SYM(h->s_object)->cls;
  return cr_hier_class(h, cls);
}

static const cr_hmethod *resolve(const cr_hier *h, const cr_hclass *c,
                                 const char *name, const char *desc,
                                 int *unknown) {
  if (is_iface(c)) {                              /* 5.4.3.4 */
    const cr_hmethod *m = cr_hier__declared(h, c, name, desc);
    if (m) return m;
    const cr_hclass *obj = SYM(h->s_object)->cls;
    m = obj ? cr_hier__declared(h, obj, name, desc) : NULL;
    if (m && (m->access & ACC_PUBLIC) && !(m->access & ACC_STATIC)) return m;
    m = maxspec(h, c, name, desc, 1, NULL);
    if (!m) {
      int namb = 0;
      maxspec(h, c, name, desc, 0, &namb);
      if (namb > 1)                               /* any of them */
        for (uint32_t i = 0; i < c->nall && !m; i++) {
          const cr_hmethod *x = cr_hier__declared(h, c->all[i], name, desc);
          if (x && inheritable(x)) m = x;
        }
    }
    if (!m && !c->complete) *unknown = 1;
    return m;
  }
  for (const cr_hclass *k = c; k; k = k->super) { /* 5.4.3.3 */
    const cr_hmethod *m = cr_hier__declared(h, k, name, desc);
    if (m) return m;
    if (k->name == h->s_mh || k->name == h->s_vh) {
      /* signature-polymorphic: the only method of that name, if it is */
      const cr_hmethod *sp = NULL;
      int count = 0;
      for (uint32_t i = 0; i < k->nmethods; i++)
        if (k->methods[i].name == name) {
          count++;
          sp = &k->methods[i];
        }
      if (count == 1 && (sp->flags & CR_HM_POLYSIG)) return sp;
    }
    if (!k->super && k->super_name) {
      *unknown = 1;
      return NULL;
    }
  }
  const cr_hmethod *m = maxspec(h, c, name, desc, 1, NULL);
  if (!m) {
    for (uint32_t i = 0; i < c->nall && !m; i++) {
      const cr_hmethod *x = cr_hier__declared(h, c->all[i], name, desc);
      if (x && inheritable(x)) m = x;
    }
  }
  if (!m && !c->complete) *unknown = 1;
  return m;
}

const cr_hmethod *cr_hier__resolve(const cr_hier *h, const cr_hclass *c,
                                   const char *name, const char *desc,
                                   int *unknown) {
  return resolve(h, c, name, desc, unknown);
}

/* 'cr_hier_resolve' on the receiver class 'c' (NULL: not known). */
static const cr_hmethod *resolve_at(const cr_hier *h, const cr_hclass *c,
                                    const char *name, const char *desc,
                                    int *unknown) {
  int unk = 0;
  const cr_hmethod *m = NULL;
  const char *n = cr_hier__find(h, name), *de = cr_hier__find(h, desc);
  /* a descriptor never seen can still name a signature-polymorphic
     method; 'de' NULL then matches no declaration */
  if (!c) unk = 1;
  else if (n) m = resolve(h, c, n, de, &unk);
  else if (!c->complete) unk = 1;
  if (unknown) *unknown = unk;
  return m;
}

const cr_hmethod *cr_hier_resolve(const cr_hier *h, const char *cls,
                                  const char *name, const char *desc,
                                  int *unknown) {
  return resolve_at(h, receiver(h, cls), name, desc, unknown);
}

const cr_hmethod *cr_hier_select(const cr_hier *h, const char *cls,
                                 const char *name, const char *desc) {
  const cr_hclass *c = receiver(h, cls);
  const char *n = cr_hier__find(h, name), *de = cr_hier__find(h, desc);
  if (!c || !n || !de || is_iface(c)) return NULL;
  return cr_hier__select(h, c, n, de);
}

/* Which definition the JVM loads decides whether a twin is found on such
** a path, and which method; the original is there in every definition.
** Below the class, the twins' owner check takes care of overrides that
** have no twin. */
int cr_hier_redefined_path(const cr_hier *h, const char *cls) {
  const cr_hclass *c = receiver(h, cls);
  return c && c->redef_path;
}

int cr_hier_site(const cr_hier *h, const char *cls, const char *name,
                 const char *desc, int kind, const cr_hmethod **target) {
  int unk = 0;
  const cr_hclass *c = receiver(h, cls);
  const cr_hmethod *m = resolve_at(h, c, name, desc, &unk);
  if (target) *target = m;
  (void)kind;   /* the rules make the resolved method's answer suffice */
  if (!m || unk) return 0;
  if (c->redef_path) return 0;      /* see 'cr_hier_redefined_path' */
  return !(m->flags & CR_HM_NONOVL);
}

/*
** The oracle: every class reachable downward from the receiver, each
** selecting its own target, all of which must be overloadable. Uses its
** own visited array, so it is read-only on the hierarchy.
*/
int cr_hier_site_exhaustive(const cr_hier *h, const char *cls,
                            const char *name, const char *desc, int kind) {
  int unk = 0;
  const cr_hmethod *r = cr_hier_resolve(h, cls, name, desc, &unk);
  if (!r || unk) return 0;
  if (r->flags & CR_HM_NONOVL) return 0;
  if (cr_hier_redefined_path(h, cls)) return 0;
  if (kind == CR_SITE_STATIC || kind == CR_SITE_SPECIAL ||
      !cr_hier__virtual(r))
    return 1;
  const cr_hclass *c = receiver(h, cls);
  size_t n = h->nclasses;
  const cr_hclass **stack = cr_malloc((n + 1) * sizeof *stack);
  uint8_t *seen = cr_calloc(n + 1, 1);
  int ok = 1;
  if (!stack || !seen) {
    ok = 0;
    goto out;
  }
  /* index of a class: its position in 'sorted' (binary search) */
  size_t sp = 0, cap = n + 1;
  stack[sp++] = c;
  while (sp && ok) {
    const cr_hclass *x = stack[--sp];
    size_t lo = 0, hi = n;
    while (lo < hi) {
      size_t mid = (lo + hi) / 2;
      int cmp = strcmp(h->sorted[mid]->name, x->name);
      if (cmp < 0) lo = mid + 1;
      else hi = mid;
    }
    if (lo >= n || seen[lo]) continue;
    seen[lo] = 1;
    if (!is_iface(x)) {
      const cr_hmethod *t = cr_hier__select(h, x, r->name, r->desc);
      if (t && (t->flags & CR_HM_NONOVL)) ok = 0;
    }
    if (sp + x->nsubs > cap) {
      size_t nc = (sp + x->nsubs) * 2;
      const cr_hclass **ns = cr_realloc(stack, nc * sizeof *ns);
      if (!ns) {
        ok = 0;
        break;
      }
      stack = ns;
      cap = nc;
    }
    for (uint32_t i = 0; i < x->nsubs; i++) stack[sp++] = x->subs[i];
  }
out:
  cr_free(stack);
  cr_free(seen);
  return ok;
}

/* ------------------------------------------------------------ typeinfo */

static int ti_lookup(void *ctx, const char *name, const char **super,
                     int *is_interface) {
  const cr_hclass *c = cr_hier_class(ctx, name);
  if (!c) return CR_ENOTFOUND;
  *super = c->super_name;
  *is_interface = is_iface(c) ? 1 : 0;
  return 0;
}

cr_typeinfo cr_hier_typeinfo(const cr_hier *h) {
  cr_typeinfo t = {(void *)h, ti_lookup};
  return t;
}

/* 'ti_lookup', but the definition of the view's input where the
** hierarchy keeps another one. */
static int ti_lookup_input(void *ctx, const char *name, const char **super,
                           int *is_interface) {
  const cr_hier_view *v = ctx;
  const char *interned = cr_hier__find(v->h, name);
  const hsym *sym = interned ? SYM(interned) : NULL;
  const cr_hclass *c = sym ? sym->cls : NULL;
  if (c && (c->order >> 32) != v->input) {
    const hshadow *best = NULL;
    for (const hshadow *x = sym->shadows; x; x = x->next)
      if ((x->order >> 32) == v->input && (!best || x->order < best->order))
        best = x;
    if (best) {
      *super = best->super_name;
      *is_interface = (best->access & ACC_INTERFACE) != 0;
      return 0;
    }
  }
  if (!c) return CR_ENOTFOUND;
  *super = c->super_name;
  *is_interface = is_iface(c) ? 1 : 0;
  return 0;
}

cr_typeinfo cr_hier_typeinfo_input(cr_hier_view *v, const cr_hier *h,
                                   uint32_t input) {
  v->h = h;
  v->input = input;
  cr_typeinfo t = {v, ti_lookup_input};
  return t;
}
