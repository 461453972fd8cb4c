/*
** zip.c -- jar/zip and jmod reading through libzip. A jmod is "JM\1\0"
** followed by a zip whose offsets count from the end of that header.
*/
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <zlib.h>

#include "inflate.h"
#include "io_int.h"

#define JMOD_PREFIX "classes/"
#define RAW_KEEP ((size_t)1 << 20)    /* compressed buffer kept per handle */

/* Map a libzip error to a code and record it. */
static int zerr(cr_diag *d, zip_error_t *ze, const char *what) {
  int zc = zip_error_code_zip(ze), code;
  switch (zc) {
  case ZIP_ER_MEMORY: code = CR_ENOMEM; break;
  case ZIP_ER_NOENT: code = CR_ENOTFOUND; break;
  case ZIP_ER_OPEN: code = CR_EIO; break;
  case ZIP_ER_READ:
  case ZIP_ER_SEEK:
    code = zip_error_code_system(ze) ? CR_EIO : CR_EFORMAT;
    break;
  case ZIP_ER_COMPNOTSUPP:
  case ZIP_ER_ENCRNOTSUPP:
  case ZIP_ER_NOPASSWD:
    code = CR_EUNSUPPORTED;
    break;
  default: code = CR_EFORMAT; break;
  }
  if (zc == ZIP_ER_CRC)
    return cr_diag_set(d, code, -1, "%s: CRC mismatch, the data is corrupt",
                       what);
  if (zc == ZIP_ER_ZLIB || zc == ZIP_ER_COMPRESSED_DATA)
    return cr_diag_set(d, code, -1, "%s: compressed data is corrupt (%s)",
                       what, zip_error_strerror(ze));
  return cr_diag_set(d, code, -1, "%s: %s", what, zip_error_strerror(ze));
}

/* Open one more libzip handle on the input. */
static int openz(cr_input *in, zip_t **out, cr_diag *d) {
  zip_error_t ze;
  zip_error_init(&ze);
  int rc = 0;
  *out = NULL;
  zip_source_t *src = zip_source_file_create(in->path, in->zstart, -1, &ze);
  if (!src) {
    rc = zerr(d, &ze, "cannot open");
    goto out;
  }
  zip_t *za = zip_open_from_source(src, ZIP_RDONLY, &ze);
  if (!za) {
    zip_source_free(src);
    rc = zerr(d, &ze, in->kind == CR_IN_JMOD ? "not a valid jmod"
                                             : "not a valid zip archive");
    goto out;
  }
  *out = za;
out:
  zip_error_fini(&ze);
  return rc;
}

static void zh_free(io_zh *h) {
  if (!h) return;
  if (h->za) zip_discard(h->za);
  cr_free(h->raw);
  cr_free(h);
}

/* Check a handle out of the pool, opening a new one if all are busy. */
static int acquire(cr_input *in, io_zh **out, cr_diag *d) {
  pthread_mutex_lock(&in->mu);
  if (in->nzidle) {
    *out = in->zidle[--in->nzidle];
    pthread_mutex_unlock(&in->mu);
    return 0;
  }
  pthread_mutex_unlock(&in->mu);
  io_zh *h = cr_calloc(1, sizeof *h);
  if (!h) return cr_diag_set(d, CR_ENOMEM, -1, "out of memory");
  int rc = openz(in, &h->za, d);
  if (rc) {
    cr_free(h);
    return rc;
  }
  pthread_mutex_lock(&in->mu);
  if (in->nzall == in->capz) {
    size_t nc = in->capz ? in->capz * 2 : 4;
    io_zh **a = cr_realloc(in->zall, nc * sizeof *a);
    if (a) in->zall = a;
    io_zh **b = a ? cr_realloc(in->zidle, nc * sizeof *b) : NULL;
    if (b) in->zidle = b;
    if (!a || !b) {
      pthread_mutex_unlock(&in->mu);
      zh_free(h);
      return cr_diag_set(d, CR_ENOMEM, -1, "out of memory");
    }
    in->capz = nc;
  }
  in->zall[in->nzall++] = h;
  pthread_mutex_unlock(&in->mu);
  *out = h;
  return 0;
}

static void release(cr_input *in, io_zh *h) {
  zip_error_clear(h->za);
  pthread_mutex_lock(&in->mu);
  in->zidle[in->nzidle++] = h;
  pthread_mutex_unlock(&in->mu);
}

/* jmod module name: the file name without its ".jmod" suffix. */
static const char *modname(cr_input *in) {
  const char *b = strrchr(in->path, '/');
  b = b ? b + 1 : in->path;
  size_t n = strlen(b);
  if (n > 5 && !strcmp(b + n - 5, ".jmod")) n -= 5;
  return cr_io__strdup(in, b, n);
}

/*
** May entry 'st' be inflated here ('read_direct') instead of by libzip?
** Deflated, not encrypted, with the sizes and CRC known, and no more
** compressed bytes than a deflate stream of that size needs (stored blocks
** add 5 bytes per 65535): anything odder takes libzip's streaming path,
** so that a hostile size never makes a large buffer.
*/
static int direct_ok(const zip_stat_t *st) {
  zip_uint64_t need = ZIP_STAT_SIZE | ZIP_STAT_COMP_SIZE | ZIP_STAT_CRC |
                      ZIP_STAT_COMP_METHOD | ZIP_STAT_ENCRYPTION_METHOD;
  return (st->valid & need) == need && st->comp_method == ZIP_CM_DEFLATE &&
         st->encryption_method == ZIP_EM_NONE &&
         st->comp_size <= st->size + st->size / 8 + 1024;
}

/*
** The DOS time and date of 'mtime', which libzip made from the entry's
** DOS fields with mktime(): localtime() gives them back. 0 0 (none) for
** times a DOS date cannot hold.
*/
static void dos_time(time_t mtime, uint16_t *t, uint16_t *dt) {
  struct tm tm;
  *t = *dt = 0;
  if (!localtime_r(&mtime, &tm) || tm.tm_year < 80 || tm.tm_year > 207)
    return;
  *t = (uint16_t)((tm.tm_hour << 11) | (tm.tm_min << 5) | (tm.tm_sec / 2));
  *dt = (uint16_t)(((tm.tm_year - 80) << 9) | ((tm.tm_mon + 1) << 5) |
                   tm.tm_mday);
}

int cr_io__zip_open(cr_input *in, cr_diag *d) {
  if (pthread_mutex_init(&in->mu, NULL) != 0)
    return cr_diag_set(d, CR_ENOMEM, -1, "cannot create a mutex");
  in->mu_ok = 1;
  io_zh *h;
  int rc = acquire(in, &h, d);
  if (rc) return rc;
  zip_t *za = h->za;
  const char *mod = NULL;
  if (in->kind == CR_IN_JMOD && !(mod = modname(in))) {
    rc = cr_diag_set(d, CR_ENOMEM, -1, "out of memory");
    goto out;
  }
  zip_int64_t n = zip_get_num_entries(za, 0);
  size_t plen = in->kind == CR_IN_JMOD ? strlen(JMOD_PREFIX) : 0;
  for (zip_int64_t i = 0; i < n; i++) {
    zip_stat_t st;
    if (zip_stat_index(za, (zip_uint64_t)i, ZIP_FL_ENC_RAW, &st) != 0) {
      rc = zerr(d, zip_get_error(za), "bad central directory entry");
      goto out;
    }
    if (!(st.valid & ZIP_STAT_NAME) || !(st.valid & ZIP_STAT_SIZE)) {
      rc = cr_diag_set(d, CR_EFORMAT, -1, "entry %lld has no name or size",
                       (long long)i);
      goto out;
    }
    const char *nm = st.name;
    size_t len = strlen(nm);
    if (plen) {
      if (len <= plen || memcmp(nm, JMOD_PREFIX, plen) != 0) continue;
      nm += plen;
      len -= plen;
    }
    if (len == 0) {
      rc = cr_diag_set(d, CR_EFORMAT, -1, "entry %lld has an empty name",
                       (long long)i);
      goto out;
    }
    if (nm[len - 1] == '/' && st.size != 0) {
      rc = cr_diag_set(d, CR_EFORMAT, -1,
                       "%s: directory entry holds %llu bytes of data", nm,
                       (unsigned long long)st.size);
      goto out;
    }
    io_ent *e = cr_io__add(in);
    char *s = e ? cr_io__strdup(in, nm, len) : NULL;
    if (!s) {
      rc = cr_diag_set(d, CR_ENOMEM, -1, "out of memory");
      goto out;
    }
    e->name = s;
    e->module = mod;
    e->size = st.size;
    e->ref = (uint64_t)i;
    e->is_dir = len > 0 && nm[len - 1] == '/';
    e->direct = direct_ok(&st);
    e->method = !(st.valid & ZIP_STAT_COMP_METHOD) ? -1
                : st.comp_method == ZIP_CM_STORE   ? 0
                : st.comp_method == ZIP_CM_DEFLATE ? 1
                                                   : -1;
    if (st.valid & ZIP_STAT_MTIME) dos_time(st.mtime, &e->dtime, &e->ddate);
    zip_uint8_t os;
    zip_uint32_t attr;
    if (zip_file_get_external_attributes(za, (zip_uint64_t)i, 0, &os,
                                         &attr) == 0) {
      e->os = os;
      e->attr = attr;
    }
    if (e->direct) {
      e->csize = st.comp_size;
      e->crc = st.crc;
    }
  }
out:
  release(in, h);
  return rc;
}

/*
** Read exactly 'e->size' bytes through libzip, then ask for one more:
** libzip checks the CRC (and the inflated length) only when it reaches
** the end of the data.
*/
static int read_libzip(io_zh *h, const io_ent *e, uint8_t *buf,
                       cr_diag *d) {
  int rc = 0;
  zip_file_t *zf = zip_fopen_index(h->za, e->ref, 0);
  if (!zf) return zerr(d, zip_get_error(h->za), "cannot open entry");
  uint64_t got = 0;
  while (got < e->size) {
    zip_int64_t k = zip_fread(zf, buf + got, e->size - got);
    if (k < 0) {
      rc = zerr(d, zip_file_get_error(zf), "cannot read entry");
      goto out;
    }
    if (k == 0) {
      rc = cr_diag_set(d, CR_EFORMAT, -1,
                       "entry holds %llu bytes, %llu declared",
                       (unsigned long long)got,
                       (unsigned long long)e->size);
      goto out;
    }
    got += (uint64_t)k;
  }
  uint8_t extra;
  zip_int64_t k = zip_fread(zf, &extra, 1);
  if (k < 0)
    rc = zerr(d, zip_file_get_error(zf), "cannot read entry");
  else if (k > 0)
    rc = cr_diag_set(d, CR_EFORMAT, -1,
                     "entry holds more than the %llu bytes declared",
                     (unsigned long long)e->size);
out:
  zip_fclose(zf);
  return rc;
}

/*
** A 'direct' entry: libzip reads the raw deflate data, 'cr_io__inflate'
** inflates it in one call (about twice as fast as zlib's streaming
** inflate, the largest cost of reading), and the CRC is checked here. The
** messages are those of the libzip path.
*/
static int read_direct(io_zh *h, const io_ent *e, uint8_t *buf,
                       cr_diag *d) {
  size_t csize = (size_t)e->csize;
  if (csize > h->rawcap) {
    uint8_t *p = cr_realloc(h->raw, csize);
    if (!p) return cr_diag_set(d, CR_ENOMEM, -1, "out of memory");
    h->raw = p;
    h->rawcap = csize;
  }
  int rc = 0;
  zip_file_t *zf = zip_fopen_index(h->za, e->ref, ZIP_FL_COMPRESSED);
  if (!zf) return zerr(d, zip_get_error(h->za), "cannot open entry");
  size_t got = 0;
  while (got < csize) {
    zip_int64_t k = zip_fread(zf, h->raw + got, csize - got);
    if (k <= 0) {
      rc = k < 0 ? zerr(d, zip_file_get_error(zf), "cannot read entry")
                 : cr_diag_set(d, CR_EFORMAT, -1,
                               "entry holds %zu of its %zu compressed "
                               "bytes", got, csize);
      goto out;
    }
    got += (size_t)k;
  }
  size_t out;
  switch (cr_io__inflate(buf, (size_t)e->size, &out, h->raw, csize)) {
  case CR_INFL_OK:
    if (out != e->size)
      rc = cr_diag_set(d, CR_EFORMAT, -1,
                       "entry holds %zu bytes, %llu declared", out,
                       (unsigned long long)e->size);
    else if (crc32_z(0, buf, out) != e->crc)
      rc = cr_diag_set(d, CR_EFORMAT, -1,
                       "cannot read entry: CRC mismatch, the data is "
                       "corrupt");
    break;
  case CR_INFL_SHORT:
    rc = cr_diag_set(d, CR_EFORMAT, -1,
                     "entry holds more than the %llu bytes declared",
                     (unsigned long long)e->size);
    break;
  default:
    rc = cr_diag_set(d, CR_EFORMAT, -1,
                     "cannot read entry: compressed data is corrupt "
                     "(invalid deflate data)");
    break;
  }
out:
  zip_fclose(zf);
  if (h->rawcap > RAW_KEEP) {   /* a big entry: do not hold on to it */
    cr_free(h->raw);
    h->raw = NULL;
    h->rawcap = 0;
  }
  return rc;
}

int cr_io__zip_read(cr_input *in, const io_ent *e, uint8_t *buf,
                    cr_diag *d) {
  io_zh *h;
  int rc = acquire(in, &h, d);
  if (rc) return rc;
  rc = e->direct ? read_direct(h, e, buf, d) : read_libzip(h, e, buf, d);
  release(in, h);
  return rc;
}

void cr_io__zip_close(cr_input *in) {
  for (size_t i = 0; i < in->nzall; i++) zh_free(in->zall[i]);
  cr_free(in->zall);
  cr_free(in->zidle);
  if (in->mu_ok) pthread_mutex_destroy(&in->mu);
}
