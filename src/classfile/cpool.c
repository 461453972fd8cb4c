/*
** cpool.c -- constant pool: getters, append-only find-or-add with a lazily
** built hash index, and serialisation (JVMS 4.4).
*/
#include "cf_int.h"

#define MAX_COUNT 65535u   /* constant_pool_count is a u2 */

int cr_cp__new(cr_cpool **out, cr_arena *a, uint32_t count) {
  cr_cpool *cp = cr_arena_calloc(a, 1, sizeof *cp);
  if (!cp) return CR_ENOMEM;
  cp->a = a;
  cp->count = cp->orig_count = count;
  cp->cap = count;
  cp->e = cr_arena_calloc(a, count, sizeof *cp->e);
  if (!cp->e) return CR_ENOMEM;
  *out = cp;
  return 0;
}

uint32_t cr_cp_count(const cr_cpool *cp) { return cp->count; }

const cr_cpentry *cr_cp_get(const cr_cpool *cp, uint32_t i) {
  if (i == 0 || i >= cp->count || cp->e[i].tag == 0) return NULL;
  return &cp->e[i];
}

int cr_cp_tag(const cr_cpool *cp, uint32_t i) {
  return i < cp->count ? cp->e[i].tag : 0;
}

const char *cr_cp_utf8(const cr_cpool *cp, uint32_t i, size_t *len) {
  if (cr_cp_tag(cp, i) != CR_CP_UTF8) return NULL;
  if (len) *len = cp->e[i].len;
  return cp->e[i].v.utf8;
}

const char *cr_cp_str(cr_cpool *cp, uint32_t i) {
  if (cr_cp_tag(cp, i) != CR_CP_UTF8) return NULL;
  if (i >= cp->strcap) {
    uint32_t n = cp->cap;
    const char **s = cr_arena_realloc(cp->a, cp->str,
                                      cp->strcap * sizeof *s, n * sizeof *s);
    if (!s) return NULL;
    memset(s + cp->strcap, 0, (n - cp->strcap) * sizeof *s);
    cp->str = s;
    cp->strcap = n;
  }
  if (!cp->str[i])
    cp->str[i] = cr_arena_strndup(cp->a, cp->e[i].v.utf8, cp->e[i].len);
  return cp->str[i];
}

const char *cr_cp_class_name(cr_cpool *cp, uint32_t i) {
  if (cr_cp_tag(cp, i) != CR_CP_CLASS) return NULL;
  return cr_cp_str(cp, cp->e[i].a);
}

int cr_cp_eq(const cr_cpool *cp, uint32_t i, const char *s) {
  if (cr_cp_tag(cp, i) != CR_CP_UTF8) return 0;
  return cr_mutf8_eq(cp->e[i].v.utf8, cp->e[i].len, s);
}

/* ------------------------------------------------------------ hashing */

static uint32_t hash_entry(const cr_cpentry *e) {
  uint32_t h = 2166136261u ^ e->tag;
  switch (e->tag) {
  case CR_CP_UTF8:
    h ^= cr_hash(e->v.utf8, e->len);
    break;
  case CR_CP_INTEGER: case CR_CP_FLOAT:
    h = (h ^ e->v.u4) * 16777619u;
    break;
  case CR_CP_LONG: case CR_CP_DOUBLE:
    h = (h ^ (uint32_t)e->v.u8) * 16777619u;
    h = (h ^ (uint32_t)(e->v.u8 >> 32)) * 16777619u;
    break;
  default:
    h = (h ^ ((uint32_t)e->kind << 24 | (uint32_t)e->a << 8)) * 16777619u;
    h = (h ^ e->b) * 16777619u;
    break;
  }
  h ^= h >> 15;
  h *= 0x2c1b3c6du;
  h ^= h >> 12;
  return h;
}

static int same(const cr_cpentry *x, const cr_cpentry *y) {
  if (x->tag != y->tag) return 0;
  switch (x->tag) {
  case CR_CP_UTF8:
    return x->len == y->len && memcmp(x->v.utf8, y->v.utf8, x->len) == 0;
  case CR_CP_INTEGER: case CR_CP_FLOAT:
    return x->v.u4 == y->v.u4;
  case CR_CP_LONG: case CR_CP_DOUBLE:
    return x->v.u8 == y->v.u8;
  default:
    return x->kind == y->kind && x->a == y->a && x->b == y->b;
  }
}

/* Put index 'i' in the table unless an equal entry is there already. */
static void hash_put(cr_cpool *cp, uint32_t i) {
  uint32_t h = hash_entry(&cp->e[i]) & cp->hmask;
  while (cp->hash[h]) {
    if (same(&cp->e[cp->hash[h]], &cp->e[i])) return;  /* keep first */
    h = (h + 1) & cp->hmask;
  }
  cp->hash[h] = i;
  cp->hused++;
}

/* (Re)build the index with room for 'need' entries at load <= 1/2. */
static int hash_build(cr_cpool *cp, uint32_t need) {
  uint32_t size = 64;
  while (size < need * 2) size *= 2;
  uint32_t *t = cr_arena_calloc(cp->a, size, sizeof *t);
  if (!t) return CR_ENOMEM;
  cp->hash = t;
  cp->hmask = size - 1;
  cp->hused = 0;
  for (uint32_t i = 1; i < cp->count; i++)
    if (cp->e[i].tag) hash_put(cp, i);
  return 0;
}

static uint32_t hash_find(const cr_cpool *cp, const cr_cpentry *e) {
  uint32_t h = hash_entry(e) & cp->hmask;
  while (cp->hash[h]) {
    if (same(&cp->e[cp->hash[h]], e)) return cp->hash[h];
    h = (h + 1) & cp->hmask;
  }
  return 0;
}

static int wide(int tag) { return tag == CR_CP_LONG || tag == CR_CP_DOUBLE; }

/*
** The index is built on the first add with room for twice the pool:
** instrumentation about doubles a class's pool, and each rebuild hashes
** every entry again.
*/
int cr_cp_add(cr_cpool *cp, const cr_cpentry *e, cr_diag *d) {
  if (!cp->hmask && hash_build(cp, 2 * cp->count + 64))
    return cr_diag_set(d, CR_ENOMEM, -1, "out of memory indexing the pool");
  uint32_t i = hash_find(cp, e);
  if (i) return (int)i;
  uint32_t slots = wide(e->tag) ? 2 : 1;
  if (cp->count + slots > MAX_COUNT)
    return cr_diag_set(d, CR_ETOOLARGE, -1,
                       "constant pool full: %u slots, adding %s needs %u "
                       "more", cp->count, cr_cf__tagname(e->tag), slots);
  if (cp->count + slots > cp->cap) {
    uint32_t ncap = cp->cap * 2 + 16;
    if (ncap > MAX_COUNT + 1) ncap = MAX_COUNT + 1;
    cr_cpentry *ne = cr_arena_realloc(cp->a, cp->e, cp->cap * sizeof *ne,
                                      ncap * sizeof *ne);
    if (!ne)
      return cr_diag_set(d, CR_ENOMEM, -1, "out of memory growing the pool");
    memset(ne + cp->cap, 0, (ncap - cp->cap) * sizeof *ne);
    cp->e = ne;
    cp->cap = ncap;
  }
  if ((cp->hused + 1) * 2 > cp->hmask + 1 &&
      hash_build(cp, 2 * (cp->hused + 1)))
    return cr_diag_set(d, CR_ENOMEM, -1, "out of memory indexing the pool");
  i = cp->count;
  cp->e[i] = *e;
  cp->e[i].off = 0;
  if (slots == 2) memset(&cp->e[i + 1], 0, sizeof cp->e[i + 1]);
  cp->count += slots;
  hash_put(cp, i);
  return (int)i;
}

int cr_cp_add_utf8n(cr_cpool *cp, const char *mutf8, size_t len,
                    cr_diag *d) {
  cr_cpentry e;
  if (len > 65535)
    return cr_diag_set(d, CR_ETOOLARGE, -1,
                       "string of %zu bytes is too long for the pool", len);
  memset(&e, 0, sizeof e);
  e.tag = CR_CP_UTF8;
  e.len = (uint32_t)len;
  e.v.utf8 = mutf8;
  if (cp->hmask) {               /* present: no copy needed */
    uint32_t i = hash_find(cp, &e);
    if (i) return (int)i;
  }
  char *copy = cr_arena_alloc(cp->a, len ? len : 1);
  if (!copy) return cr_diag_set(d, CR_ENOMEM, -1, "out of memory");
  memcpy(copy, mutf8, len);
  e.v.utf8 = copy;
  return cr_cp_add(cp, &e, d);
}

int cr_cp_add_utf8(cr_cpool *cp, const char *s, cr_diag *d) {
  const unsigned char *u = (const unsigned char *)s;
  size_t n = 0;
  while (u[n] && u[n] < 0x80) n++;
  if (!u[n]) return cr_cp_add_utf8n(cp, s, n, d);  /* ASCII: same bytes */
  n += strlen(s + n);
  long m = cr_mutf8_enclen(s, n);
  /* not UTF-8 but modified UTF-8 already: a name from 'cr_cp_str' with
     U+0000 or supplementary characters (in both, the same bytes mean the
     same text) */
  if (m < 0 && cr_mutf8_check(s, n) < 0) return cr_cp_add_utf8n(cp, s, n, d);
  if (m < 0)
    return cr_diag_set(d, CR_EFORMAT, -1, "string is not valid UTF-8");
  if (m > 65535)
    return cr_diag_set(d, CR_ETOOLARGE, -1,
                       "string of %ld bytes is too long for the pool", m);
  if ((size_t)m == n) return cr_cp_add_utf8n(cp, s, n, d);
  char tmp[65536];
  cr_mutf8_encode(tmp, s, n);
  return cr_cp_add_utf8n(cp, tmp, (size_t)m, d);
}

/* Add an entry with one index operand that is a Utf8 of 's'. */
static int add_named(cr_cpool *cp, int tag, const char *s, cr_diag *d) {
  int u = cr_cp_add_utf8(cp, s, d);
  if (u < 0) return u;
  cr_cpentry e;
  memset(&e, 0, sizeof e);
  e.tag = (uint8_t)tag;
  e.a = (uint16_t)u;
  return cr_cp_add(cp, &e, d);
}

int cr_cp_add_class(cr_cpool *cp, const char *name, cr_diag *d) {
  return add_named(cp, CR_CP_CLASS, name, d);
}

int cr_cp_add_string(cr_cpool *cp, const char *s, cr_diag *d) {
  return add_named(cp, CR_CP_STRING, s, d);
}

int cr_cp_add_methodtype(cr_cpool *cp, const char *desc, cr_diag *d) {
  return add_named(cp, CR_CP_METHODTYPE, desc, d);
}

static int add_pair(cr_cpool *cp, int tag, int a, int b, cr_diag *d) {
  cr_cpentry e;
  if (a < 0) return a;
  if (b < 0) return b;
  memset(&e, 0, sizeof e);
  e.tag = (uint8_t)tag;
  e.a = (uint16_t)a;
  e.b = (uint16_t)b;
  return cr_cp_add(cp, &e, d);
}

int cr_cp_add_nat(cr_cpool *cp, const char *name, const char *desc,
                  cr_diag *d) {
  int n = cr_cp_add_utf8(cp, name, d);
  if (n < 0) return n;
  return add_pair(cp, CR_CP_NAMEANDTYPE, n, cr_cp_add_utf8(cp, desc, d), d);
}

static int add_ref(cr_cpool *cp, int tag, const char *cls, const char *name,
                   const char *desc, cr_diag *d) {
  int c = cr_cp_add_class(cp, cls, d);
  if (c < 0) return c;
  return add_pair(cp, tag, c, cr_cp_add_nat(cp, name, desc, d), d);
}

int cr_cp_add_fieldref(cr_cpool *cp, const char *cls, const char *name,
                       const char *desc, cr_diag *d) {
  return add_ref(cp, CR_CP_FIELDREF, cls, name, desc, d);
}

int cr_cp_add_methodref(cr_cpool *cp, const char *cls, const char *name,
                        const char *desc, cr_diag *d) {
  return add_ref(cp, CR_CP_METHODREF, cls, name, desc, d);
}

int cr_cp_add_imethodref(cr_cpool *cp, const char *cls, const char *name,
                         const char *desc, cr_diag *d) {
  return add_ref(cp, CR_CP_IMETHODREF, cls, name, desc, d);
}

int cr_cp_add_methodhandle(cr_cpool *cp, int kind, uint32_t ref,
                           cr_diag *d) {
  cr_cpentry e;
  if (kind < CR_REF_GETFIELD || kind > CR_REF_INVOKEINTERFACE ||
      ref == 0 || ref >= cp->count)
    return cr_diag_set(d, CR_EUSAGE, -1,
                       "method handle kind %d to index %u", kind, ref);
  memset(&e, 0, sizeof e);
  e.tag = CR_CP_METHODHANDLE;
  e.kind = (uint8_t)kind;
  e.a = (uint16_t)ref;
  return cr_cp_add(cp, &e, d);
}

static int add_bits(cr_cpool *cp, int tag, uint64_t bits, cr_diag *d) {
  cr_cpentry e;
  memset(&e, 0, sizeof e);
  e.tag = (uint8_t)tag;
  if (wide(tag)) e.v.u8 = bits;
  else e.v.u4 = (uint32_t)bits;
  return cr_cp_add(cp, &e, d);
}

int cr_cp_add_int(cr_cpool *cp, int32_t v, cr_diag *d) {
  return add_bits(cp, CR_CP_INTEGER, (uint32_t)v, d);
}
int cr_cp_add_float(cr_cpool *cp, uint32_t bits, cr_diag *d) {
  return add_bits(cp, CR_CP_FLOAT, bits, d);
}
int cr_cp_add_long(cr_cpool *cp, int64_t v, cr_diag *d) {
  return add_bits(cp, CR_CP_LONG, (uint64_t)v, d);
}
int cr_cp_add_double(cr_cpool *cp, uint64_t bits, cr_diag *d) {
  return add_bits(cp, CR_CP_DOUBLE, bits, d);
}

/* ------------------------------------------------------------ writing */

/* constant_pool_count and entries: the input's bytes verbatim, then the
** appended entries encoded. */
int cr_cp__write(cr_buf *b, const cr_cpool *cp, cr_diag *d) {
  (void)d;
  cr_buf_u2(b, cp->count);
  cr_buf_put(b, cp->orig, cp->orig_len);
  for (uint32_t i = cp->orig_count; i < cp->count; i++) {
    const cr_cpentry *e = &cp->e[i];
    if (!e->tag) continue;
    cr_buf_u1(b, e->tag);
    switch (e->tag) {
    case CR_CP_UTF8:
      cr_buf_u2(b, e->len);
      cr_buf_put(b, e->v.utf8, e->len);
      break;
    case CR_CP_INTEGER: case CR_CP_FLOAT:
      cr_buf_u4(b, e->v.u4);
      break;
    case CR_CP_LONG: case CR_CP_DOUBLE:
      cr_buf_u4(b, (uint32_t)(e->v.u8 >> 32));
      cr_buf_u4(b, (uint32_t)e->v.u8);
      break;
    case CR_CP_CLASS: case CR_CP_STRING: case CR_CP_METHODTYPE:
    case CR_CP_MODULE: case CR_CP_PACKAGE:
      cr_buf_u2(b, e->a);
      break;
    case CR_CP_METHODHANDLE:
      cr_buf_u1(b, e->kind);
      cr_buf_u2(b, e->a);
      break;
    default:
      cr_buf_u2(b, e->a);
      cr_buf_u2(b, e->b);
      break;
    }
  }
  return 0;
}
