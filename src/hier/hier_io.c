/*
** hier_io.c -- hierarchy summary files: save the classes and answers of a
** session, load them into another one. Loading validates the whole file
** before adding anything.
**
** Layout (all integers big-endian, like class files):
**   0   "CCCPHIER"
**   8   u4 version (2; 1 is read too: its flags byte is always 0)
**   12  u4 CRC-32 of the payload
**   16  u4 payload length, high word; u4 low word
**   24  payload:
**       u4 nstrings, then per string: u4 len, len bytes (no NUL)
**       u4 nclasses, then per class:
**         u4 name, u4 super (string index, 1-based; 0 none)
**         u2 access, u1 instrumented, u1 flags (bit 0: defined by a
**         module of the JDK), u4 order high, u4 order low
**         u4 ninterfaces, u4 name each
**         u4 nmethods, then per method:
**           u4 name, u4 desc, u2 access,
**           u1 answers (bit 0 non-overloadable, bit 1 non-wrappable,
**                       bit 7 the session was analysed),
**           u1 facts (bit 0 a leaf: CR_HM_LEAF; bits 1-4 the method's
**                     colour, 'cr_hmethod_colour'; 0 in version 1),
**           u4 nannotations, u4 type each
*/
#include <errno.h>
#include <stdio.h>
#include <sys/stat.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "hier_int.h"

#define MAGIC "CCCPHIER"
#define VERSION 2u
#define HDR 24u

/* ------------------------------------------------------------ saving */

/* Give 's' a string-table index (1-based) on first use. */
static void use(const char *s, const char ***tab, size_t *n, size_t *cap,
                int *oom) {
  if (!s) return;
  hsym *y = SYM(s);
  if (y->idx) return;
  if (*n == *cap) {
    size_t nc = *cap ? *cap * 2 : 4096;
    const char **t = cr_realloc(*tab, nc * sizeof *t);
    if (!t) {
      *oom = 1;
      return;
    }
    *tab = t;
    *cap = nc;
  }
  (*tab)[(*n)++] = s;
  y->idx = (uint32_t)*n;
}

static uint32_t ix(const char *s) { return s ? SYM(s)->idx : 0; }

static int external(const cr_hclass *c) {
  return (c->order >> 32) == CR_HIER_EXTERNAL;
}

/* Whether 'c' goes into a summary of kind 'all' (see 'save_stream'). */
static int saved(const cr_hclass *c, int all) {
  return all == 1 || (!external(c) && !(all == 2 && c->jdk_module));
}

static int encode(const cr_hier *h, cr_buf *b, int all) {
  const char **tab = NULL;
  size_t n = 0, cap = 0;
  int oom = 0;
  for (size_t i = 0; i < h->capsyms; i++)
    if (h->syms[i]) h->syms[i]->idx = 0;
  size_t nsaved = 0;
  for (size_t i = 0; i < h->nclasses; i++) {
    const cr_hclass *c = h->sorted[i];
    if (!saved(c, all)) continue;
    nsaved++;
    use(c->name, &tab, &n, &cap, &oom);
    use(c->super_name, &tab, &n, &cap, &oom);
    for (uint32_t k = 0; k < c->nifaces; k++)
      use(c->iface_names[k], &tab, &n, &cap, &oom);
    for (uint32_t k = 0; k < c->nmethods; k++) {
      const cr_hmethod *m = &c->methods[k];
      use(m->name, &tab, &n, &cap, &oom);
      use(m->desc, &tab, &n, &cap, &oom);
      for (uint32_t j = 0; j < m->nannots; j++)
        use(m->annots[j], &tab, &n, &cap, &oom);
    }
  }
  if (oom) {
    cr_free(tab);
    return CR_ENOMEM;
  }
  cr_buf_u4(b, (uint32_t)n);
  for (size_t i = 0; i < n; i++) {
    uint32_t len = SYM(tab[i])->len;
    cr_buf_u4(b, len);
    cr_buf_put(b, tab[i], len);
  }
  cr_free(tab);
  cr_buf_u4(b, (uint32_t)nsaved);
  for (size_t i = 0; i < h->nclasses; i++) {
    const cr_hclass *c = h->sorted[i];
    if (!saved(c, all)) continue;
    cr_buf_u4(b, ix(c->name));
    cr_buf_u4(b, ix(c->super_name));
    cr_buf_u2(b, c->access);
    cr_buf_u1(b, c->instrumented);
    cr_buf_u1(b, c->jdk_module);
    cr_buf_u4(b, (uint32_t)(c->order >> 32));
    cr_buf_u4(b, (uint32_t)c->order);
    cr_buf_u4(b, c->nifaces);
    for (uint32_t k = 0; k < c->nifaces; k++)
      cr_buf_u4(b, ix(c->iface_names[k]));
    cr_buf_u4(b, c->nmethods);
    for (uint32_t k = 0; k < c->nmethods; k++) {
      const cr_hmethod *m = &c->methods[k];
      cr_buf_u4(b, ix(m->name));
      cr_buf_u4(b, ix(m->desc));
      cr_buf_u2(b, m->access);
      unsigned ans = h->analyzed ? 0x80u : 0;
      if (h->analyzed && (m->flags & CR_HM_NONOVL)) ans |= 1;
      if (h->analyzed && (m->flags & CR_HM_NONWRAP)) ans |= 2;
      cr_buf_u1(b, ans);
      cr_buf_u1(b, ((m->flags & CR_HM_LEAF) ? 1u : 0u) | m->colour << 1);
      cr_buf_u4(b, m->nannots);
      for (uint32_t j = 0; j < m->nannots; j++) cr_buf_u4(b, ix(m->annots[j]));
    }
  }
  return b->err;
}

/* The summary file's bytes into 'b' (initialised). */
static int summary_bytes(const cr_hier *h, cr_buf *b, int all, cr_diag *d) {
  if (!h->linked)
    return cr_diag_set(d, CR_EUSAGE, -1, "summary of an unlinked hierarchy");
  cr_buf_put(b, MAGIC, 8);
  cr_buf_u4(b, VERSION);
  cr_buf_u4(b, 0);              /* CRC, patched */
  cr_buf_u4(b, 0);
  cr_buf_u4(b, 0);              /* length, patched */
  if (encode(h, b, all)) return cr_diag_set(d, CR_ENOMEM, -1, "out of memory");
  uint64_t plen = b->len - HDR;
  uLong crc = crc32(0L, Z_NULL, 0);
  for (size_t off = HDR; off < b->len;) {   /* crc32 takes uInt lengths */
    size_t k = b->len - off > (1u << 30) ? (1u << 30) : b->len - off;
    crc = crc32(crc, b->data + off, (uInt)k);
    off += k;
  }
  cr_buf_set_u4(b, 12, (uint32_t)crc);
  cr_buf_set_u4(b, 16, (uint32_t)(plen >> 32));
  cr_buf_set_u4(b, 20, (uint32_t)plen);
  return 0;
}

/* 'all': 0 leaves out the classes of input CR_HIER_EXTERNAL, 1 keeps
** every class, 2 leaves out the JDK's modules' classes too. */
static int save_stream(const cr_hier *h, FILE *f, int all, cr_diag *d) {
  cr_buf b;
  cr_buf_init(&b);
  int rc = summary_bytes(h, &b, all, d);
  if (rc == 0 && fwrite(b.data, 1, b.len, f) != b.len)
    rc = cr_diag_set(d, CR_EIO, -1, "cannot write the summary: %s",
                     strerror(errno));
  cr_buf_free(&b);
  return rc;
}

int cr_hier_save_stream(const cr_hier *h, FILE *f, cr_diag *d) {
  return save_stream(h, f, 0, d);
}

int cr_hier_save_whole(const cr_hier *h, FILE *f, cr_diag *d) {
  return save_stream(h, f, 1, d);
}

int cr_hier_save_app(const cr_hier *h, FILE *f, cr_diag *d) {
  return save_stream(h, f, 2, d);
}

int cr_hier_save(const cr_hier *h, const char *path, cr_diag *d) {
  cr_buf b;
  cr_buf_init(&b);
  int rc = summary_bytes(h, &b, 0, d);
  if (rc) {
    cr_buf_free(&b);
    return rc;
  }
  /* an unchanged summary keeps its file, and its time: a build tool does
  ** not redo what depends on it */
  uint8_t *old = NULL;
  size_t oldlen = 0;
  cr_diag od;
  cr_diag_clear(&od);
  if (cr_read_file(&old, &oldlen, path, &od) == 0) {
    int same = oldlen == b.len && memcmp(old, b.data, b.len) == 0;
    cr_free(old);
    if (same) {
      cr_buf_free(&b);
      return 0;
    }
  }
  /* temporary file next to the target, renamed at the end */
  char tmp[4096];
  if (snprintf(tmp, sizeof tmp, "%s.tmpXXXXXX", path) >= (int)sizeof tmp) {
    cr_buf_free(&b);
    return cr_diag_set(d, CR_EUSAGE, -1, "%s: path too long", path);
  }
  int fd = mkstemp(tmp);
  if (fd < 0) {
    rc = cr_diag_set(d, CR_EIO, -1, "%s: %s", tmp, strerror(errno));
    cr_buf_free(&b);
    return rc;
  }
  fchmod(fd, 0644);             /* as other outputs, not mkstemp's 0600 */
  FILE *f = fdopen(fd, "wb");
  int ok = f && fwrite(b.data, 1, b.len, f) == b.len;
  if (f) ok = (fclose(f) == 0) && ok;
  else close(fd);
  cr_buf_free(&b);
  if (!ok || rename(tmp, path) != 0) {
    rc = cr_diag_set(d, CR_EIO, -1, "%s: %s", path, strerror(errno));
    unlink(tmp);
    return rc;
  }
  return 0;
}

/* ------------------------------------------------------------ loading */

typedef struct rd {
  const uint8_t *p;
  size_t n, off;
  int err;
} rd;

static uint32_t u4(rd *r) {
  if (r->err || r->n - r->off < 4) {
    r->err = 1;
    return 0;
  }
  uint32_t v = cr_be32(r->p + r->off);
  r->off += 4;
  return v;
}

static uint32_t u2(rd *r) {
  if (r->err || r->n - r->off < 2) {
    r->err = 1;
    return 0;
  }
  uint32_t v = cr_be16(r->p + r->off);
  r->off += 2;
  return v;
}

static uint32_t u1(rd *r) {
  if (r->err || r->n - r->off < 1) {
    r->err = 1;
    return 0;
  }
  return r->p[r->off++];
}

/* Fail unless 'count' items of at least 'each' bytes can still follow. */
static int room(rd *r, uint32_t count, size_t each) {
  if (r->err || (r->n - r->off) / each < count) r->err = 1;
  return !r->err;
}

#define BAD(what)                                                        \
  do {                                                                   \
    rc = cr_diag_set(d, CR_EFORMAT, (long)(r.off + HDR),                 \
                     "%s: corrupt summary: %s", path, what);             \
    goto out;                                                            \
  } while (0)

/*
** Walk the payload. With 'str' NULL only validate; otherwise add each
** class, 'str[i]' being string i (interned), under the mutex.
*/
static int walk(cr_hier *h, const uint8_t *p, size_t n, const char **str,
                const char *path, int64_t input, cr_diag *d) {
  rd r = {p, n, 0, 0};
  int rc = 0;
  cr_hier__cdef def;
  memset(&def, 0, sizeof def);
  const char **names = NULL;
  cr_hier__mdef *ms = NULL;
  const char **annots = NULL;
  size_t capn = 0, capm = 0, capa = 0;

  uint32_t ns = u4(&r);
  if (!room(&r, ns, 4)) BAD("string table truncated");
  for (uint32_t i = 0; i < ns; i++) {
    uint32_t len = u4(&r);
    if (!room(&r, len, 1)) BAD("string truncated");
    if (len == 0 || memchr(p + r.off, 0, len)) BAD("bad string");
    r.off += len;
  }
#define STR(v, nullable)                                                 \
  do {                                                                   \
    uint32_t i_ = u4(&r);                                                \
    if (r.err) BAD("truncated");                                         \
    if (i_ > ns || (!(nullable) && i_ == 0)) BAD("string index");        \
    (v) = (str && i_) ? str[i_ - 1] : (i_ ? "" : NULL);                  \
  } while (0)
  uint32_t nc = u4(&r);
  if (!room(&r, nc, 28)) BAD("class table truncated");
  for (uint32_t i = 0; i < nc; i++) {
    STR(def.name, 0);
    STR(def.super_name, 1);
    def.access = (uint16_t)u2(&r);
    def.instrumented = (int)u1(&r);
    uint32_t flags = u1(&r);
    def.jdk_module = (int)(flags & 1);
    uint64_t hi = u4(&r);
    def.order = hi << 32 | u4(&r);
    if (input >= 0) def.order = (uint64_t)input << 32 | (def.order & 0xffffffffu);
    def.from_summary = 1;
    def.nifaces = u4(&r);
    if (!room(&r, def.nifaces, 4)) BAD("interfaces truncated");
    if (def.instrumented > 1 || flags > 1) BAD("bad class kind");
    if (def.nifaces > capn) {
      const char **v = cr_realloc(names, def.nifaces * sizeof *v);
      if (!v) goto oom;
      names = v;
      capn = def.nifaces;
    }
    for (uint32_t k = 0; k < def.nifaces; k++) STR(names[k], 0);
    def.ifaces = names;
    def.nmethods = u4(&r);
    if (!room(&r, def.nmethods, 16)) BAD("methods truncated");
    if (def.nmethods > capm) {
      cr_hier__mdef *v = cr_realloc(ms, def.nmethods * sizeof *v);
      if (!v) goto oom;
      ms = v;
      capm = def.nmethods;
    }
    size_t nann = 0;
    size_t *astart = NULL;
    if (def.nmethods) {
      astart = cr_malloc(def.nmethods * sizeof *astart);
      if (!astart) goto oom;
    }
    for (uint32_t k = 0; k < def.nmethods; k++) {
      cr_hier__mdef *m = &ms[k];
      memset(m, 0, sizeof *m);
      uint32_t a, de;
      a = u4(&r);
      de = u4(&r);
      if (r.err || a == 0 || de == 0 || a > ns || de > ns) {
        cr_free(astart);
        BAD("method name");
      }
      m->name = str ? str[a - 1] : "";
      m->desc = str ? str[de - 1] : "";
      m->access = (uint16_t)u2(&r);
      m->saved = (uint8_t)u1(&r);
      /* only the JDK's classes have leaves (leaf.c) */
      unsigned facts = u1(&r);
      m->leaf = (facts & 1) && def.jdk_module;
      m->colour = (uint8_t)(facts >> 1 <= 8 ? facts >> 1 : 0);
      m->nannots = u4(&r);
      if (!room(&r, m->nannots, 4)) {
        cr_free(astart);
        BAD("annotations truncated");
      }
      astart[k] = nann;
      if (nann + m->nannots > capa) {
        size_t ncap = (nann + m->nannots) * 2;
        const char **v = cr_realloc(annots, ncap * sizeof *v);
        if (!v) {
          cr_free(astart);
          goto oom;
        }
        annots = v;
        capa = ncap;
      }
      for (uint32_t j = 0; j < m->nannots; j++) {
        uint32_t t = u4(&r);
        if (r.err || t == 0 || t > ns) {
          cr_free(astart);
          BAD("annotation index");
        }
        annots[nann++] = str ? str[t - 1] : "";
      }
    }
    for (uint32_t k = 0; k < def.nmethods; k++)
      ms[k].annots = annots ? annots + astart[k] : NULL;
    cr_free(astart);
    def.methods = ms;
    if (str) {
      pthread_mutex_lock(&h->mu);
      rc = cr_hier__insert(h, &def, d);
      pthread_mutex_unlock(&h->mu);
      if (rc) goto out;
    }
  }
#undef STR
  if (r.off != r.n) BAD("trailing bytes");
out:
  cr_free(names);
  cr_free(ms);
  cr_free(annots);
  return rc;
oom:
  rc = cr_diag_set(d, CR_ENOMEM, -1, "out of memory");
  goto out;
}

int cr_hier_load(cr_hier *h, const char *path, cr_diag *d) {
  uint8_t *buf = NULL;
  size_t len = 0;
  int rc = cr_read_file(&buf, &len, path, d);
  if (rc) return rc;
  rc = cr_hier_load_mem(h, buf, len, path, -1, d);
  cr_free(buf);
  return rc;
}

int cr_hier_load_mem(cr_hier *h, const uint8_t *buf, size_t len,
                     const char *path, int64_t input, cr_diag *d) {
  const char **str = NULL;
  int rc = 0;
  if (len < HDR || memcmp(buf, MAGIC, 8) != 0) {
    rc = cr_diag_set(d, CR_EFORMAT, 0, "%s: not a cccp hierarchy summary",
                     path);
    goto out;
  }
  uint32_t ver = cr_be32(buf + 8);
  if (ver != VERSION && ver != 1) {
    rc = cr_diag_set(d, CR_EUNSUPPORTED, 8,
                     "%s: summary version %u (this cccp reads %u)", path,
                     ver, VERSION);
    goto out;
  }
  uint64_t plen = (uint64_t)cr_be32(buf + 16) << 32 | cr_be32(buf + 20);
  if (plen != len - HDR) {
    rc = cr_diag_set(d, CR_EFORMAT, 16,
                     "%s: summary truncated (%zu payload bytes, header "
                     "says %llu)", path, len - HDR,
                     (unsigned long long)plen);
    goto out;
  }
  uLong crc = crc32(0L, Z_NULL, 0);
  for (size_t off = HDR; off < len;) {
    size_t k = len - off > (1u << 30) ? (1u << 30) : len - off;
    crc = crc32(crc, buf + off, (uInt)k);
    off += k;
  }
  if ((uint32_t)crc != cr_be32(buf + 12)) {
    rc = cr_diag_set(d, CR_EFORMAT, 12, "%s: summary checksum mismatch",
                     path);
    goto out;
  }
  const uint8_t *p = buf + HDR;
  if ((rc = walk(h, p, len - HDR, NULL, path, input, d))) goto out;
  /* Valid: intern the strings, then add. */
  uint32_t ns = cr_be32(p);
  str = cr_calloc((size_t)ns + 1, sizeof *str);
  if (!str) {
    rc = cr_diag_set(d, CR_ENOMEM, -1, "out of memory");
    goto out;
  }
  pthread_mutex_lock(&h->mu);
  if (h->linked) {
    pthread_mutex_unlock(&h->mu);
    rc = cr_diag_set(d, CR_EUSAGE, -1, "summary loaded after linking");
    goto out;
  }
  size_t off = 4;
  for (uint32_t i = 0; i < ns && !rc; i++) {
    uint32_t l = cr_be32(p + off);
    str[i] = cr_hier__intern(h, (const char *)p + off + 4, l);
    if (!str[i]) rc = cr_diag_set(d, CR_ENOMEM, -1, "out of memory");
    off += 4 + (size_t)l;
  }
  pthread_mutex_unlock(&h->mu);
  if (!rc) rc = walk(h, p, len - HDR, str, path, input, d);
out:
  cr_free(str);
  return rc;
}
