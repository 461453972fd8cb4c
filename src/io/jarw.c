/*
** jarw.c -- deterministic jar (zip) writer: entries deflated in any thread,
** appended in order to a temporary file, renamed into place on commit.
*/
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "cccp/io.h"
#include "deflate.h"

/*
** Records written (all little-endian, APPNOTE 6.3), no extra fields
** except ZIP64 ones when a size or offset needs them:
**
**   local header    PK\3\4 need flags method time date crc csize usize
**                   namelen extralen name [zip64: 1 16 usize csize]
**   data            raw deflate or stored
**   ...
**   central dir     PK\1\2 made need flags method time date crc csize
**                   usize namelen extralen 0 0 0 attrs offset name [zip64]
**   [zip64 end      PK\6\6 44 45 45 0 0 count count cdsize cdoffset]
**   [zip64 locator  PK\6\7 0 zip64-end-offset 1]
**   end             PK\5\6 0 0 count count cdsize cdoffset 0
**
** Time and date are the entry's ('cr_zentry_set_time'), by default the DOS
** encoding of 1980-01-01 00:00; so are the system in "made" and the
** external attributes ('cr_zentry_set_attrs'), by default 0 0.
*/

#define SIG_LOCAL 0x04034b50u
#define SIG_CENTRAL 0x02014b50u
#define SIG_END 0x06054b50u
#define SIG_END64 0x06064b50u
#define SIG_LOC64 0x07064b50u
#define DOS_TIME 0
#define DOS_DATE ((0 << 9) | (1 << 5) | 1)   /* 1980-01-01 */
#define V_PLAIN 20
#define V_ZIP64 45
#define FLAG_UTF8 0x0800
#define M_STORED 0
#define M_DEFLATED 8
#define MAX32 0xFFFFFFFFu
#define MAX16 0xFFFFu
#define WBUFSZ ((size_t)1 << 20)
#define POOLMAX 16      /* deflate streams kept for reuse */

struct cr_zentry {
  uint64_t usize, csize;
  uint32_t crc;
  uint16_t method;
  uint16_t namelen;
  uint16_t dtime, ddate;  /* DOS time and date */
  uint8_t os;           /* system that made it, external attributes */
  uint32_t attr;
  char *name;           /* NUL-terminated, inside this allocation */
  uint8_t *data;        /* 'csize' bytes, inside this allocation */
};

typedef struct slot {
  uint64_t hash;
  size_t rec;           /* central record offset + 1; 0 = empty */
} slot;

struct cr_jarw {
  int fd;
  char *path, *tmp;
  uint8_t *wbuf;        /* WBUFSZ bytes of pending output */
  size_t wlen;
  uint64_t pos;         /* file offset of the next byte */
  cr_buf cd;            /* central directory, built as entries arrive */
  uint64_t count;
  slot *slots;          /* open-addressing set of names, 'nslots' = 2^k */
  size_t nslots;
  int err;              /* sticky: the temporary file is unusable */
};

static void le16(uint8_t *p, uint32_t v) {
  p[0] = (uint8_t)v;
  p[1] = (uint8_t)(v >> 8);
}
static void le32(uint8_t *p, uint32_t v) {
  le16(p, v & 0xffff);
  le16(p + 2, v >> 16);
}
static void le64(uint8_t *p, uint64_t v) {
  le32(p, (uint32_t)v);
  le32(p + 4, (uint32_t)(v >> 32));
}

/* ---- deflate streams, pooled across threads ---- */

typedef struct zs {
  z_stream s;
  int level;            /* the level 's' is set to */
} zs;

static pthread_mutex_t pool_mu = PTHREAD_MUTEX_INITIALIZER;
static zs *pool[POOLMAX];
static int npool;

static void *zalloc(void *op, uInt n, uInt size) {
  (void)op;
  return cr_calloc(n, size);
}

static void zfree(void *op, void *p) {
  (void)op;
  cr_free(p);
}

/* A deflate stream at 'level', from the pool or new. */
static zs *getz(int level) {
  zs *z = NULL;
  pthread_mutex_lock(&pool_mu);
  if (npool) z = pool[--npool];
  pthread_mutex_unlock(&pool_mu);
  if (z) {
    deflateReset(&z->s);
    if (z->level != level &&
        deflateParams(&z->s, level, Z_DEFAULT_STRATEGY) == Z_OK)
      z->level = level;
    if (z->level == level) return z;
    deflateEnd(&z->s);
    cr_free(z);
  }
  z = cr_calloc(1, sizeof *z);
  if (!z) return NULL;
  z->s.zalloc = zalloc;
  z->s.zfree = zfree;
  z->level = level;
  if (deflateInit2(&z->s, level, Z_DEFLATED, -MAX_WBITS, 8,
                   Z_DEFAULT_STRATEGY) != Z_OK) {
    cr_free(z);
    return NULL;
  }
  return z;
}

static void putz(zs *z, int reuse) {
  if (reuse) {
    pthread_mutex_lock(&pool_mu);
    if (npool < POOLMAX) {
      pool[npool++] = z;
      z = NULL;
    }
    pthread_mutex_unlock(&pool_mu);
  }
  if (z) {
    deflateEnd(&z->s);
    cr_free(z);
  }
}

/* Level 1 uses cccp's own compressor ('cr_io__deflate'), pooled too. */
static cr_deflater *fpool[POOLMAX];
static int nfpool;

static cr_deflater *getf(void) {
  cr_deflater *f = NULL;
  pthread_mutex_lock(&pool_mu);
  if (nfpool) f = fpool[--nfpool];
  pthread_mutex_unlock(&pool_mu);
  return f ? f : cr_io__deflater_new();
}

static void putf(cr_deflater *f) {
  pthread_mutex_lock(&pool_mu);
  if (nfpool < POOLMAX) {
    fpool[nfpool++] = f;
    f = NULL;
  }
  pthread_mutex_unlock(&pool_mu);
  cr_io__deflater_free(f);
}

void cr_io_release_caches(void) {
  pthread_mutex_lock(&pool_mu);
  while (npool) {
    zs *z = pool[--npool];
    deflateEnd(&z->s);
    cr_free(z);
  }
  while (nfpool) cr_io__deflater_free(fpool[--nfpool]);
  pthread_mutex_unlock(&pool_mu);
}

/*
** Raw-deflate 'len' bytes into 'out' (room for 'len' bytes). Returns the
** compressed size, 0 if the result would not be smaller (store instead),
** or a negative error code. Level 1, the default, is cccp's own
** compressor, about twice as fast as zlib's level 1 for output no larger;
** levels 2 to 9 are zlib's.
*/
/* 'len' bytes at 'data' deflated into 'out' (room for 'cap' bytes):
** the compressed size, or 0 when that is not less than 'len' (store
** instead) unless 'force', or an error. */
static long long squeeze(const uint8_t *data, size_t len, uint8_t *out,
                         size_t cap, int level, int force) {
  if (level == 1) {
    cr_deflater *f = getf();
    if (!f) return CR_ENOMEM;
    size_t n = cr_io__deflate(f, out, force ? cap : len, data, len);
    putf(f);
    if (force) return n ? (long long)n : CR_ENOMEM;
    return n < len ? (long long)n : 0;
  }
  zs *z = getz(level);
  if (!z) return CR_ENOMEM;
  z_stream *s = &z->s;
  size_t in_left = len, out_left = cap;
  s->next_in = (Bytef *)data;
  s->next_out = out;
  s->avail_in = s->avail_out = 0;
  long long res = 0;
  for (;;) {
    if (!s->avail_in && in_left) {
      s->avail_in = in_left > UINT_MAX ? UINT_MAX : (uInt)in_left;
      in_left -= s->avail_in;
    }
    if (!s->avail_out && out_left) {
      s->avail_out = out_left > UINT_MAX ? UINT_MAX : (uInt)out_left;
      out_left -= s->avail_out;
    }
    int zr = deflate(s, in_left ? Z_NO_FLUSH : Z_FINISH);
    if (zr == Z_STREAM_END) {
      res = s->total_out < len || force ? (long long)s->total_out : 0;
      break;
    }
    if (zr == Z_STREAM_ERROR) {
      putz(z, 0);
      return CR_EFORMAT;
    }
    if (!s->avail_out && !out_left) break;      /* no gain: store */
  }
  putz(z, 1);
  return res;
}

/*
** True if the name is well-formed UTF-8 (ASCII included) without control
** characters but tab, CR and LF: the entry then gets the language-encoding
** flag (bit 11), as java.util.zip gives it to every entry, so a jar built
** by Java tools keeps its flags (Ant's own ZipFile reads an entry without
** it another way). libzip calls a flagged name with other control
** characters inconsistent and refuses the archive. Other names keep their
** raw bytes with the flag clear, as readers then expect (CP437 or raw).
*/
static int utf8_name(const char *s, size_t n) {
  const unsigned char *p = (const unsigned char *)s;
  for (size_t i = 0; i < n;) {
    unsigned c = p[i];
    if (c < 0x20 && c != '\t' && c != '\r' && c != '\n') return 0;
    size_t k = c < 0x80 ? 0 : c >= 0xC2 && c <= 0xDF ? 1
             : c >= 0xE0 && c <= 0xEF ? 2 : c >= 0xF0 && c <= 0xF4 ? 3 : 9;
    if (k == 9 || i + k >= n + (k == 0)) return 0;
    uint32_t cp = k ? c & (0x3F >> k) : c;
    for (size_t j = 1; j <= k; j++) {
      if ((p[i + j] & 0xC0) != 0x80) return 0;
      cp = cp << 6 | (p[i + j] & 0x3F);
    }
    if ((k == 2 && (cp < 0x800 || (cp >= 0xD800 && cp <= 0xDFFF))) ||
        (k == 3 && (cp < 0x10000 || cp > 0x10FFFF)))
      return 0;
    i += k + 1;
  }
  return 1;
}

int cr_zentry_new(cr_zentry **out, const char *name, const uint8_t *data,
                  size_t len, cr_diag *d) {
  return cr_zentry_new_level(out, name, data, len, CR_ZLEVEL_DEFAULT, d);
}

void cr_zentry_set_time(cr_zentry *e, uint16_t dos_time,
                        uint16_t dos_date) {
  if (!dos_date) return;
  e->dtime = dos_time;
  e->ddate = dos_date;
}

void cr_zentry_set_attrs(cr_zentry *e, uint8_t os, uint32_t ext_attr) {
  e->os = os;
  e->attr = ext_attr;
}

int cr_zentry_new_level(cr_zentry **out, const char *name,
                        const uint8_t *data, size_t len, int level,
                        cr_diag *d) {
  return cr_zentry_new_as(out, name, data, len, level, -1, d);
}

int cr_zentry_new_as(cr_zentry **out, const char *name, const uint8_t *data,
                     size_t len, int level, int method, cr_diag *d) {
  *out = NULL;
  if (level < 0 || level > 9)
    return cr_diag_set(d, CR_EUSAGE, -1, "compression level %d", level);
  size_t nl = strlen(name);
  if (nl == 0 || nl > MAX16)     /* a C string cannot hold a NUL */
    return cr_diag_set(d, CR_EFORMAT, -1, "entry name is %s",
                       nl ? "longer than 65535 bytes" : "empty");
  size_t hdr = (sizeof(cr_zentry) + nl + 1 + 7) & ~(size_t)7;
  int force = method == 1 && level > 0;
  if (method == 0) level = 0;
  /* a deflate stream never grows past zlib's bound for its input */
  size_t room = len;
  if (force) {
    /* zlib's bound, and the one level 1's deflater always fits in */
    size_t zb = (size_t)compressBound((uLong)len), fb = len + len / 8 + 64;
    room = zb > fb ? zb : fb;
  }
  if (len > SIZE_MAX / 2 - hdr || room < len)
    return cr_diag_set(d, CR_ETOOLARGE, -1, "entry of %zu bytes", len);
  cr_zentry *e = cr_malloc(hdr + room);
  if (!e) {
    cr_diag_where(d, NULL, name);
    return cr_diag_set(d, CR_ENOMEM, -1, "out of memory for %zu bytes", len);
  }
  e->name = (char *)(e + 1);
  memcpy(e->name, name, nl + 1);
  e->namelen = (uint16_t)nl;
  e->dtime = DOS_TIME;
  e->ddate = DOS_DATE;
  e->os = 0;
  e->attr = 0;
  e->data = (uint8_t *)e + hdr;
  e->usize = len;
  e->crc = (uint32_t)crc32_z(0, data, len);
  long long c = 0;
  if (force || (len && level && name[nl - 1] != '/'))
    c = squeeze(data, len, e->data, room, level, force);
  if (c < 0) {
    cr_free(e);
    cr_diag_where(d, NULL, name);
    return cr_diag_set(d, (int)c, -1, c == CR_ENOMEM
                                          ? "out of memory deflating"
                                          : "deflate failed");
  }
  if (c > 0) {
    e->method = M_DEFLATED;
    e->csize = (uint64_t)c;
  } else {
    e->method = M_STORED;
    e->csize = len;
    if (len) memcpy(e->data, data, len);
  }
  *out = e;
  return 0;
}

void cr_zentry_free(cr_zentry *e) { cr_free(e); }

/* ---- the writer ---- */

/* The mode a new file would get: 0666 less the process umask. */
static mode_t filemode(void) {
  mode_t mask = 022;
  FILE *f = fopen("/proc/self/status", "r");
  if (f) {
    char line[256];
    unsigned m;
    while (fgets(line, sizeof line, f))
      if (sscanf(line, "Umask: %o", &m) == 1) {
        mask = (mode_t)m;
        break;
      }
    fclose(f);
  }
  return 0666 & ~mask;
}

int cr_jarw_open(cr_jarw **out, const char *path, cr_diag *d) {
  *out = NULL;
  struct stat st;
  if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
    cr_diag_where(d, path, NULL);
    return cr_diag_set(d, CR_EUSAGE, -1, "output is a directory");
  }
  cr_jarw *w = cr_calloc(1, sizeof *w);
  const char *slash = strrchr(path, '/');
  size_t dl = slash ? (size_t)(slash - path) : 0;
  const char *base = slash ? slash + 1 : path;
  size_t need = dl + strlen(base) + 32;
  int rc = 0;
  if (!w) goto oom;
  w->fd = -1;
  cr_buf_init(&w->cd);
  w->path = cr_malloc(strlen(path) + 1);
  w->tmp = cr_malloc(need);
  w->wbuf = cr_malloc(WBUFSZ);
  if (!w->path || !w->tmp || !w->wbuf) goto oom;
  strcpy(w->path, path);
  /* The temporary name adds 14 bytes: keep it under NAME_MAX. */
  int bl = (int)(strlen(base) > 200 ? 200 : strlen(base));
  if (slash)
    snprintf(w->tmp, need, "%.*s/.%.*s.cccp-XXXXXX", (int)dl, path, bl,
             base);
  else
    snprintf(w->tmp, need, ".%.*s.cccp-XXXXXX", bl, base);
  w->fd = mkostemp(w->tmp, O_CLOEXEC);
  if (w->fd < 0) {
    rc = cr_diag_set(d, CR_EIO, -1,
                     "cannot create a temporary file in '%.*s': %s",
                     slash ? (int)dl : 1, slash ? path : ".",
                     strerror(errno));
    goto fail;
  }
  *out = w;
  return 0;
oom:
  rc = cr_diag_set(d, CR_ENOMEM, -1, "out of memory");
fail:
  cr_diag_where(d, path, NULL);
  if (w) {
    w->fd = -1;
    cr_buf_free(&w->cd);
    cr_free(w->wbuf);
    cr_free(w->tmp);
    cr_free(w->path);
    cr_free(w);
  }
  return rc;
}

static int wfail(cr_jarw *w, cr_diag *d, const char *what) {
  w->err = CR_EIO;
  cr_diag_where(d, w->path, NULL);
  return cr_diag_set(d, CR_EIO, -1, "%s '%s': %s", what, w->tmp,
                     strerror(errno));
}

static int flush(cr_jarw *w, cr_diag *d) {
  size_t done = 0;
  while (done < w->wlen) {
    ssize_t k = write(w->fd, w->wbuf + done, w->wlen - done);
    if (k < 0 && errno == EINTR) continue;
    if (k <= 0) {
      if (k == 0) errno = ENOSPC;
      return wfail(w, d, "cannot write");
    }
    done += (size_t)k;
  }
  w->wlen = 0;
  /* Start writing the file back now (asynchronous, best effort): the
  ** fsync on commit, after all the work, then has little left to wait
  ** for. */
  sync_file_range(w->fd, 0, 0, SYNC_FILE_RANGE_WRITE);
  return 0;
}

/* Append 'n' bytes to the file through the write buffer. */
static int put(cr_jarw *w, const void *p, uint64_t n, cr_diag *d) {
  const uint8_t *b = p;
  w->pos += n;
  while (n) {
    if (w->wlen == WBUFSZ && flush(w, d)) return w->err;
    size_t k = WBUFSZ - w->wlen;
    if (k > n) k = (size_t)n;
    memcpy(w->wbuf + w->wlen, b, k);
    w->wlen += k;
    b += k;
    n -= k;
  }
  return 0;
}

static uint64_t fnv(const char *s, size_t n) {
  uint64_t h = 0xcbf29ce484222325u;
  for (size_t i = 0; i < n; i++) h = (h ^ (unsigned char)s[i]) * 0x100000001b3u;
  return h;
}

/* Is 'name' already in the set? '*at' gets the free slot otherwise. */
static int lookup(cr_jarw *w, const char *name, size_t nl, uint64_t h,
                  size_t *at) {
  size_t mask = w->nslots - 1;
  for (size_t i = (size_t)h & mask;; i = (i + 1) & mask) {
    slot *s = &w->slots[i];
    if (!s->rec) {
      *at = i;
      return 0;
    }
    const uint8_t *r = w->cd.data + s->rec - 1;
    if (s->hash == h && (size_t)(r[28] | r[29] << 8) == nl &&
        !memcmp(r + 46, name, nl))
      return 1;
  }
}

/* Keep the name set at most half full. */
static int grow(cr_jarw *w) {
  if ((w->count + 1) * 2 <= w->nslots) return 0;
  size_t n = w->nslots ? w->nslots * 2 : 1024;
  slot *t = cr_calloc(n, sizeof *t);
  if (!t) return CR_ENOMEM;
  for (size_t i = 0; i < w->nslots; i++) {
    slot s = w->slots[i];
    if (!s.rec) continue;
    size_t j = (size_t)s.hash & (n - 1);
    while (t[j].rec) j = (j + 1) & (n - 1);
    t[j] = s;
  }
  cr_free(w->slots);
  w->slots = t;
  w->nslots = n;
  return 0;
}

int cr_jarw_add_entry(cr_jarw *w, cr_zentry *e, cr_diag *d) {
  int rc = 0;
  if (w->err) {
    rc = cr_diag_set(d, w->err, -1, "an earlier write failed");
    goto out;
  }
  if (w->fd < 0) {
    rc = cr_diag_set(d, CR_EUSAGE, -1, "the jar is sealed");
    goto out;
  }
  uint64_t h = fnv(e->name, e->namelen);
  size_t at;
  if (grow(w) || cr_buf_reserve(&w->cd, 46 + e->namelen + 28u)) {
    rc = cr_diag_set(d, CR_ENOMEM, -1, "out of memory");
    goto out;
  }
  if (lookup(w, e->name, e->namelen, h, &at)) {
    rc = cr_diag_set(d, CR_EFORMAT, -1, "duplicate entry %s", e->name);
    goto out;
  }
  uint64_t off = w->pos;
  int big = e->usize >= MAX32 || e->csize >= MAX32, faroff = off >= MAX32;
  uint16_t flags = utf8_name(e->name, e->namelen) ? FLAG_UTF8 : 0;
  uint8_t lh[30 + 20], *x;
  le32(lh, SIG_LOCAL);
  le16(lh + 4, big ? V_ZIP64 : V_PLAIN);
  le16(lh + 6, flags);
  le16(lh + 8, e->method);
  le16(lh + 10, e->dtime);
  le16(lh + 12, e->ddate);
  le32(lh + 14, e->crc);
  le32(lh + 18, big ? MAX32 : (uint32_t)e->csize);
  le32(lh + 22, big ? MAX32 : (uint32_t)e->usize);
  le16(lh + 26, e->namelen);
  le16(lh + 28, big ? 20 : 0);
  if (put(w, lh, 30, d) || put(w, e->name, e->namelen, d)) goto io;
  if (big) {
    x = lh;
    le16(x, 1);
    le16(x + 2, 16);
    le64(x + 4, e->usize);
    le64(x + 12, e->csize);
    if (put(w, x, 20, d)) goto io;
  }
  if (put(w, e->data, e->csize, d)) goto io;
  /* central record: zip64 extra holds the sizes and/or the offset */
  uint16_t xl = (uint16_t)((big ? 16 : 0) + (faroff ? 8 : 0));
  uint8_t ch[46 + 28];
  size_t rec = w->cd.len;
  le32(ch, SIG_CENTRAL);
  le16(ch + 4, (uint16_t)(e->os << 8 | (xl ? V_ZIP64 : V_PLAIN)));
  le16(ch + 6, xl ? V_ZIP64 : V_PLAIN);
  le16(ch + 8, flags);
  le16(ch + 10, e->method);
  le16(ch + 12, e->dtime);
  le16(ch + 14, e->ddate);
  le32(ch + 16, e->crc);
  le32(ch + 20, big ? MAX32 : (uint32_t)e->csize);
  le32(ch + 24, big ? MAX32 : (uint32_t)e->usize);
  le16(ch + 28, e->namelen);
  le16(ch + 30, xl ? xl + 4u : 0);
  memset(ch + 32, 0, 6);        /* comment, disk, internal attributes */
  le32(ch + 38, e->attr);
  le32(ch + 42, faroff ? MAX32 : (uint32_t)off);
  cr_buf_put(&w->cd, ch, 46);
  cr_buf_put(&w->cd, e->name, e->namelen);
  if (xl) {
    x = ch;
    le16(x, 1);
    le16(x + 2, xl);
    x += 4;
    if (big) {
      le64(x, e->usize);
      le64(x + 8, e->csize);
      x += 16;
    }
    if (faroff) {
      le64(x, off);
      x += 8;
    }
    cr_buf_put(&w->cd, ch, (size_t)(x - ch));
  }
  if (w->cd.err) {      /* cannot happen after the reserve above */
    w->err = CR_ENOMEM;
    rc = cr_diag_set(d, CR_ENOMEM, -1, "out of memory");
    goto out;
  }
  w->slots[at].hash = h;
  w->slots[at].rec = rec + 1;
  w->count++;
  goto out;
io:
  rc = w->err;
out:
  if (rc) cr_diag_where(d, w->path, e->name);
  cr_zentry_free(e);
  return rc;
}

int cr_jarw_add(cr_jarw *w, const char *name, const uint8_t *data,
                size_t len, cr_diag *d) {
  cr_zentry *e;
  int rc = cr_zentry_new(&e, name, data, len, d);
  if (rc) {
    cr_diag_where(d, w->path, name);
    return rc;
  }
  return cr_jarw_add_entry(w, e, d);
}

static void wfree(cr_jarw *w) {
  cr_buf_free(&w->cd);
  cr_free(w->slots);
  cr_free(w->wbuf);
  cr_free(w->tmp);
  cr_free(w->path);
  cr_free(w);
}

void cr_jarw_abort(cr_jarw *w) {
  if (!w) return;
  if (w->fd >= 0) close(w->fd);
  unlink(w->tmp);               /* open, or sealed by 'cr_jarw_seal' */
  wfree(w);
}

/* Write the central directory and the end records. */
/*
** Everything but the rename: the central directory and the end records,
** then the file is synced and closed ('fd' -1). A sealed writer takes no
** more entries.
*/
static int seal(cr_jarw *w, cr_diag *d) {
  uint64_t cdoff = w->pos, cdsize = w->cd.len, n = w->count;
  if (put(w, w->cd.data, cdsize, d)) return w->err;
  int z64 = n >= MAX16 || cdoff >= MAX32 || cdsize >= MAX32;
  uint8_t b[56 + 20 + 22], *p = b;
  if (z64) {
    uint64_t at = w->pos;
    le32(p, SIG_END64);
    le64(p + 4, 44);
    le16(p + 12, V_ZIP64);
    le16(p + 14, V_ZIP64);
    le32(p + 16, 0);
    le32(p + 20, 0);
    le64(p + 24, n);
    le64(p + 32, n);
    le64(p + 40, cdsize);
    le64(p + 48, cdoff);
    p += 56;
    le32(p, SIG_LOC64);
    le32(p + 4, 0);
    le64(p + 8, at);
    le32(p + 16, 1);
    p += 20;
  }
  le32(p, SIG_END);
  le16(p + 4, 0);
  le16(p + 6, 0);
  le16(p + 8, n >= MAX16 ? MAX16 : (uint32_t)n);
  le16(p + 10, n >= MAX16 ? MAX16 : (uint32_t)n);
  le32(p + 12, cdsize >= MAX32 ? MAX32 : (uint32_t)cdsize);
  le32(p + 16, cdoff >= MAX32 ? MAX32 : (uint32_t)cdoff);
  le16(p + 20, 0);
  p += 22;
  if (put(w, b, (uint64_t)(p - b), d) || flush(w, d)) return w->err;
  if (fchmod(w->fd, filemode()) != 0) return wfail(w, d, "cannot chmod");
  if (fsync(w->fd) != 0) return wfail(w, d, "cannot sync");
  int fd = w->fd;
  w->fd = -1;
  if (close(fd) != 0) {
    w->fd = -2;         /* closed, but the file must still go */
    return wfail(w, d, "cannot close");
  }
  return 0;
}

/* The rest of 'seal' if not done yet, then the rename over 'path'. */
static int finish(cr_jarw *w, cr_diag *d) {
  if (w->fd >= 0 && seal(w, d)) return w->err;
  if (rename(w->tmp, w->path) != 0) {
    w->fd = -2;
    return wfail(w, d, "cannot rename");
  }
  return 0;
}

/* Make the rename durable: sync the folder that holds the jar. */
static void syncdir(const char *path) {
  const char *slash = strrchr(path, '/');
  char dir[4096];
  if (!slash) strcpy(dir, ".");
  else if (slash == path) strcpy(dir, "/");
  else if ((size_t)(slash - path) < sizeof dir)
    snprintf(dir, sizeof dir, "%.*s", (int)(slash - path), path);
  else return;
  int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return;
  fsync(fd);            /* best effort: the data itself is synced */
  close(fd);
}

int cr_jarw_commit(cr_jarw *w, cr_diag *d) {
  int rc = w->err;
  if (rc) {
    cr_diag_set(d, rc, -1, "an earlier write failed");
    cr_diag_where(d, w->path, NULL);
  } else {
    rc = finish(w, d);
  }
  if (rc) {
    if (w->fd >= 0) close(w->fd);
    unlink(w->tmp);
  } else {
    syncdir(w->path);
  }
  wfree(w);
  return rc;
}

int cr_jarw_seal(cr_jarw *w, cr_diag *d) {
  int rc = w->err;
  if (rc) cr_diag_set(d, rc, -1, "an earlier write failed");
  else if (w->fd >= 0) rc = seal(w, d);
  if (rc) cr_diag_where(d, w->path, NULL);
  return rc;
}
