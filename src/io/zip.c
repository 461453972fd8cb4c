/*
** zip.c -- jar/zip and jmod reading through libzip. A jmod is "JM\1\0"
** followed by a zip whose offsets count from the end of that header.
*/
#include <stdio.h>
#include <string.h>

#include "io_int.h"

#define JMOD_PREFIX "classes/"

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

/* Check a handle out of the pool, opening a new one if all are busy. */
static int acquire(cr_input *in, zip_t **out, cr_diag *d) {
  pthread_mutex_lock(&in->mu);
  if (in->nzidle) {
    *out = in->zidle[--in->nzidle];
    pthread_mutex_unlock(&in->mu);
    return 0;
  }
  pthread_mutex_unlock(&in->mu);
  zip_t *za;
  int rc = openz(in, &za, d);
  if (rc) return rc;
  pthread_mutex_lock(&in->mu);
  if (in->nzall == in->capz) {
    size_t nc = in->capz ? in->capz * 2 : 4;
    zip_t **a = cr_realloc(in->zall, nc * sizeof *a);
    if (a) in->zall = a;
    zip_t **b = a ? cr_realloc(in->zidle, nc * sizeof *b) : NULL;
    if (b) in->zidle = b;
    if (!a || !b) {
      pthread_mutex_unlock(&in->mu);
      zip_discard(za);
      return cr_diag_set(d, CR_ENOMEM, -1, "out of memory");
    }
    in->capz = nc;
  }
  in->zall[in->nzall++] = za;
  pthread_mutex_unlock(&in->mu);
  *out = za;
  return 0;
}

static void release(cr_input *in, zip_t *za) {
  zip_error_clear(za);
  pthread_mutex_lock(&in->mu);
  in->zidle[in->nzidle++] = za;
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

int cr_io__zip_open(cr_input *in, cr_diag *d) {
  if (pthread_mutex_init(&in->mu, NULL) != 0)
    return cr_diag_set(d, CR_ENOMEM, -1, "cannot create a mutex");
  in->mu_ok = 1;
  zip_t *za;
  int rc = acquire(in, &za, d);
  if (rc) return rc;
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
  }
out:
  release(in, za);
  return rc;
}

/*
** Read exactly 'e->size' bytes, then ask for one more: libzip checks the
** CRC (and the inflated length) only when it reaches the end of the data.
*/
int cr_io__zip_read(cr_input *in, const io_ent *e, uint8_t *buf,
                    cr_diag *d) {
  zip_t *za;
  int rc = acquire(in, &za, d);
  if (rc) return rc;
  zip_file_t *zf = zip_fopen_index(za, e->ref, 0);
  if (!zf) {
    rc = zerr(d, zip_get_error(za), "cannot open entry");
    goto out;
  }
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
  if (zf) zip_fclose(zf);
  release(in, za);
  return rc;
}

void cr_io__zip_close(cr_input *in) {
  for (size_t i = 0; i < in->nzall; i++) zip_discard(in->zall[i]);
  cr_free(in->zall);
  cr_free(in->zidle);
  if (in->mu_ok) pthread_mutex_destroy(&in->mu);
}
