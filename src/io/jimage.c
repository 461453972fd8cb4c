/*
** jimage.c -- the JDK run-time image (lib/modules), read from a read-only
** mapping. Format: OpenJDK libjimage/imageFile.hpp, jdk.internal.jimage.
*/
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "io_int.h"

/*
** File layout (u4 fields in the image's byte order, which is the byte
** order of the platform that built it; the magic tells which):
**
**   +------------------------------+  0
**   | magic 0xCAFEDADA             |
**   | version (major<<16 | minor)  |
**   | flags                        |
**   | resource count               |
**   | table length  N              |
**   | locations size               |
**   | strings size                 |
**   +------------------------------+  28
**   | redirect[N]   s4 (lookup)    |
**   | offsets[N]    u4 -> location |
**   | locations     attr streams   |
**   | strings       NUL-terminated |
**   +------------------------------+  index size
**   | resources (OFFSET is relative to the index size)
**
** A location is a stream of attributes, each a byte 'kind<<3 | (len-1)'
** followed by 'len' value bytes, big-endian; kind 0 ends the stream.
** A compressed resource (COMPRESSED != 0) starts with one or more
** 29-byte headers (image byte order):
**
**   u4 magic 0xCAFEFAFA | u8 compressed size | u8 uncompressed size |
**   u4 decompressor name (string offset) | u4 config (string offset) |
**   u1 is-terminal
*/

#define HDRSIZE 28
#define MAGIC 0xCAFEDADAu
#define RES_MAGIC 0xCAFEFAFAu
#define RES_HDRSIZE 29
#define MAJOR 1

enum {  /* location attribute kinds; ORDER as in ImageLocation */
  A_END, A_MODULE, A_PARENT, A_BASE, A_EXTENSION, A_OFFSET, A_COMPRESSED,
  A_UNCOMPRESSED, A_COUNT
};

int cr_io__jimage_magic(const uint8_t *p) {
  uint32_t be = cr_be32(p);
  return be == MAGIC || be == 0xDADAFECAu;
}

static uint32_t u4(const cr_input *in, const uint8_t *p) {
  uint32_t v;
  memcpy(&v, p, 4);
  return in->swap ? __builtin_bswap32(v) : v;
}

static uint64_t u8(const cr_input *in, const uint8_t *p) {
  uint64_t v;
  memcpy(&v, p, 8);
  return in->swap ? __builtin_bswap64(v) : v;
}

/* The string at 'off' of the strings table, or NULL if out of bounds. */
static const char *str(const cr_input *in, uint64_t off) {
  if (off >= in->nstrings) return NULL;
  const char *s = (const char *)in->map + in->strings + off;
  if (!memchr(s, '\0', in->nstrings - off)) return NULL;
  return s;
}

/* Decode the location at 'off' of the locations table into 'a'. */
static int location(const cr_input *in, uint64_t locs, uint64_t nlocs,
                    uint64_t off, uint64_t a[A_COUNT], cr_diag *d) {
  memset(a, 0, A_COUNT * sizeof a[0]);
  const uint8_t *p = in->map + locs;
  while (off < nlocs) {
    unsigned b = p[off++], kind = b >> 3, len = (b & 7) + 1;
    if (kind == A_END) return 0;
    if (kind >= A_COUNT)
      return cr_diag_set(d, CR_EFORMAT, (long)(locs + off - 1),
                         "bad location attribute kind %u", kind);
    if (len > nlocs - off) break;
    uint64_t v = 0;
    for (unsigned j = 0; j < len; j++) v = v << 8 | p[off++];
    a[kind] = v;
  }
  return cr_diag_set(d, CR_EFORMAT, (long)locs,
                     "location runs past the locations table");
}

static int cmpent(const void *x, const void *y) {
  const io_ent *a = x, *b = y;
  int c = strcmp(a->module, b->module);
  return c ? c : strcmp(a->name, b->name);
}

/* Build "parent/base.ext" in the arena. */
static char *fullname(cr_input *in, const char *parent, const char *base,
                      const char *ext) {
  size_t lp = strlen(parent), lb = strlen(base), le = strlen(ext);
  char *s = cr_arena_alloc(in->arena, lp + lb + le + 3);
  if (!s) return NULL;
  char *q = s;
  if (lp) {
    memcpy(q, parent, lp);
    q += lp;
    *q++ = '/';
  }
  memcpy(q, base, lb);
  q += lb;
  if (le) {
    *q++ = '.';
    memcpy(q, ext, le);
    q += le;
  }
  *q = '\0';
  return s;
}

static int mapfile(cr_input *in, cr_diag *d) {
  int fd = open(in->path, O_RDONLY | O_CLOEXEC);
  struct stat st;
  if (fd < 0 || fstat(fd, &st) != 0) {
    int e = errno;
    if (fd >= 0) close(fd);
    return cr_diag_set(d, CR_EIO, -1, "cannot open: %s", strerror(e));
  }
  if ((uint64_t)st.st_size < HDRSIZE || (uint64_t)st.st_size > SIZE_MAX) {
    close(fd);
    return cr_diag_set(d, CR_EFORMAT, -1, "jimage of %lld bytes is %s",
                       (long long)st.st_size,
                       st.st_size < HDRSIZE ? "truncated" : "too large");
  }
  void *m = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
  int e = errno;
  close(fd);
  if (m == MAP_FAILED)
    return cr_diag_set(d, CR_EIO, -1, "cannot map: %s", strerror(e));
  in->map = m;
  in->maplen = (size_t)st.st_size;
  return 0;
}

/*
** Map the image, check the header and every table bound, and list the
** resources of all modules (skipping the "/modules" and "/packages"
** directory entries), sorted by (module, name).
*/
int cr_io__jimage_open(cr_input *in, cr_diag *d) {
  int rc = mapfile(in, d);
  if (rc) return rc;
  const uint8_t *h = in->map;
  uint32_t native;
  memcpy(&native, h, 4);
  in->swap = native != MAGIC;           /* built on the other endianness */
  if (u4(in, h) != MAGIC)
    return cr_diag_set(d, CR_EFORMAT, 0, "bad jimage magic");
  uint32_t ver = u4(in, h + 4);
  if (ver >> 16 != MAJOR)
    return cr_diag_set(d, CR_EUNSUPPORTED, 4, "jimage version %u.%u",
                       ver >> 16, ver & 0xffff);
  uint64_t nt = u4(in, h + 16), nlocs = u4(in, h + 20),
           nstr = u4(in, h + 24);
  uint64_t offs = HDRSIZE + 4 * nt, locs = offs + 4 * nt;
  in->strings = locs + nlocs;
  in->nstrings = nstr;
  in->index = in->strings + nstr;
  if (in->index > in->maplen)
    return cr_diag_set(d, CR_EFORMAT, 16,
                       "index of %llu bytes exceeds the %zu-byte file",
                       (unsigned long long)in->index, in->maplen);
  for (uint64_t i = 0; i < nt; i++) {
    uint64_t a[A_COUNT];
    uint64_t lo = u4(in, in->map + offs + 4 * i);
    if (lo >= nlocs)
      return cr_diag_set(d, CR_EFORMAT, (long)(offs + 4 * i),
                         "location offset %llu out of bounds",
                         (unsigned long long)lo);
    rc = location(in, locs, nlocs, lo, a, d);
    if (rc) return rc;
    const char *mod = str(in, a[A_MODULE]), *par = str(in, a[A_PARENT]),
               *base = str(in, a[A_BASE]), *ext = str(in, a[A_EXTENSION]);
    if (!mod || !par || !base || !ext)
      return cr_diag_set(d, CR_EFORMAT, (long)(locs + lo),
                         "location names a string out of bounds");
    if (!*mod || !strcmp(mod, "modules") || !strcmp(mod, "packages"))
      continue;
    if (!cr_io__module_name_ok(mod))
      return cr_diag_set(d, CR_EFORMAT, (long)(locs + lo),
                         "invalid module name in the image");
    io_ent *e = cr_io__add(in);
    char *nm = e ? fullname(in, par, base, ext) : NULL;
    if (!nm) return cr_diag_set(d, CR_ENOMEM, -1, "out of memory");
    size_t nlen = strlen(nm);
    if (nlen == 0 || nm[nlen - 1] == '/')
      return cr_diag_set(d, CR_EFORMAT, (long)(locs + lo),
                         "resource of module %s has an empty or "
                         "directory-like name", mod);
    e->name = nm;
    e->module = mod;
    e->ref = a[A_OFFSET];
    e->csize = a[A_COMPRESSED];
    e->size = a[A_UNCOMPRESSED];
  }
  if (in->n > 1) qsort(in->ents, in->n, sizeof *in->ents, cmpent);
  return 0;
}

static void *zalloc(void *op, uInt n, uInt size) {
  (void)op;
  return cr_calloc(n, size);
}

static void zfree(void *op, void *p) {
  (void)op;
  cr_free(p);
}

/* Inflate zlib data 'src' into exactly 'dlen' bytes at 'dst'. */
static int inflate_exact(const uint8_t *src, uint64_t slen, uint8_t *dst,
                         uint64_t dlen, cr_diag *d) {
  z_stream s;
  memset(&s, 0, sizeof s);
  s.zalloc = zalloc;
  s.zfree = zfree;
  int zr = inflateInit(&s);
  if (zr != Z_OK)
    return cr_diag_set(d, zr == Z_MEM_ERROR ? CR_ENOMEM : CR_EFORMAT, -1,
                       "cannot start inflating");
  uint64_t in_left = slen, out_left = dlen;
  s.next_in = (Bytef *)src;
  s.next_out = dst;
  do {
    if (s.avail_in == 0 && in_left) {
      s.avail_in = in_left > UINT_MAX ? UINT_MAX : (uInt)in_left;
      in_left -= s.avail_in;
    }
    if (s.avail_out == 0 && out_left) {
      s.avail_out = out_left > UINT_MAX ? UINT_MAX : (uInt)out_left;
      out_left -= s.avail_out;
    }
    zr = inflate(&s, Z_NO_FLUSH);
  } while (zr == Z_OK && (s.avail_in || in_left) && (s.avail_out || out_left));
  int rc = 0;
  if (zr == Z_MEM_ERROR)
    rc = cr_diag_set(d, CR_ENOMEM, -1, "out of memory inflating");
  else if (zr != Z_STREAM_END || s.avail_out || out_left)
    rc = cr_diag_set(d, CR_EFORMAT, -1,
                     "compressed resource is corrupt (%s, %llu of %llu "
                     "bytes)",
                     s.msg ? s.msg : zr == Z_STREAM_END ? "short" : "long",
                     (unsigned long long)s.total_out,
                     (unsigned long long)dlen);
  inflateEnd(&s);
  return rc;
}

/*
** Copy the resource, undoing the stack of compressions. Only the "zip"
** decompressor exists here; "compact-cp" (string sharing) is refused.
*/
int cr_io__jimage_read(cr_input *in, const io_ent *e, uint8_t *buf,
                       cr_diag *d) {
  uint64_t len = e->csize ? e->csize : e->size;
  uint64_t room = in->maplen - in->index;
  if (e->ref > room || len > room - e->ref)
    return cr_diag_set(d, CR_EFORMAT, -1,
                       "resource at %llu+%llu lies outside the image",
                       (unsigned long long)e->ref, (unsigned long long)len);
  const uint8_t *cur = in->map + in->index + e->ref;
  if (!e->csize) {
    memcpy(buf, cur, (size_t)len);
    return 0;
  }
  uint8_t *owned = NULL;
  int rc = 0, depth = 0;
  while (len >= RES_HDRSIZE && u4(in, cur) == RES_MAGIC) {
    if (++depth > 8) {  /* jlink stacks at most a few decompressors */
      rc = cr_diag_set(d, CR_EFORMAT, -1,
                       "more than 8 stacked compression layers");
      break;
    }
    uint64_t cs = u8(in, cur + 4), us = u8(in, cur + 12);
    const char *dec = str(in, u4(in, cur + 20));
    if (!dec) {
      rc = cr_diag_set(d, CR_EFORMAT, -1, "bad decompressor name offset");
      break;
    }
    if (strcmp(dec, "zip") != 0) {
      rc = cr_diag_set(d, CR_EUNSUPPORTED, -1,
                       "resource compressed with '%s'; only 'zip' is "
                       "supported", dec);
      break;
    }
    if (cs > len - RES_HDRSIZE) {
      rc = cr_diag_set(d, CR_EFORMAT, -1,
                       "compressed size %llu exceeds the %llu bytes stored",
                       (unsigned long long)cs,
                       (unsigned long long)(len - RES_HDRSIZE));
      break;
    }
    if (us > in->max_entry || us > SIZE_MAX - 1) {
      rc = cr_diag_set(d, CR_ETOOLARGE, -1,
                       "resource inflates to %llu bytes, limit %llu",
                       (unsigned long long)us,
                       (unsigned long long)in->max_entry);
      break;
    }
    uint8_t *out = cr_malloc((size_t)us);
    if (!out) {
      rc = cr_diag_set(d, CR_ENOMEM, -1, "out of memory");
      break;
    }
    rc = inflate_exact(cur + RES_HDRSIZE, cs, out, us, d);
    cr_free(owned);
    owned = out;
    if (rc) break;
    cur = out;
    len = us;
  }
  if (!rc && len != e->size)
    rc = cr_diag_set(d, CR_EFORMAT, -1,
                     "resource holds %llu bytes, %llu declared",
                     (unsigned long long)len, (unsigned long long)e->size);
  if (!rc) memcpy(buf, cur, (size_t)len);
  cr_free(owned);
  return rc;
}

void cr_io__jimage_close(cr_input *in) {
  if (in->map) munmap((void *)in->map, in->maplen);
}
