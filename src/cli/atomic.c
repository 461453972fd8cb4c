/*
** atomic.c -- write a file through a temporary name in the target folder,
** renamed over the path only when complete ('.NAME.cccp-XXXXXX'),
** gzip-compressed on the way when asked.
*/
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <zlib.h>

#include "cli.h"

int cli_atomic_open(cli_afile *af, const char *path, cr_diag *d) {
  const char *slash = strrchr(path, '/');
  int n = slash ? (int)(slash - path) : 0;
  const char *name = slash ? slash + 1 : path;
  memset(af, 0, sizeof *af);
  snprintf(af->path, sizeof af->path, "%s", path);
  /* The temporary name adds 14 bytes: keep it under NAME_MAX. */
  int bl = (int)(strlen(name) > 200 ? 200 : strlen(name));
  if (slash)
    snprintf(af->tmp, sizeof af->tmp, "%.*s/.%.*s.cccp-XXXXXX", n ? n : 1,
             n ? path : "/", bl, name);
  else
    snprintf(af->tmp, sizeof af->tmp, ".%.*s.cccp-XXXXXX", bl, name);
  int fd = mkstemp(af->tmp);
  if (fd < 0)
    return cr_diag_set(d, CR_EIO, -1, "cannot create a file next to %s: %s",
                       path, strerror(errno));
  fchmod(fd, 0644);
  af->f = fdopen(fd, "wb");
  if (!af->f) {
    close(fd);
    unlink(af->tmp);
    return cr_diag_set(d, CR_ENOMEM, -1, "out of memory");
  }
  return 0;
}

/*
** gzip on the way: 'f' is a stdio stream of ours (fopencookie) whose
** bytes are deflated into the temporary file ('raw'), one gzip member
** (RFC 1952: no name, no time, so equal output makes equal files).
** Level 1: several times faster than gzip's default 6 on profile XML,
** for about 30% more bytes. Closing 'f' finishes the member; its errors
** (errno of the first) come out of 'fclose'.
*/
typedef struct gzw {
  z_stream z;
  FILE *raw;
  int err;               /* errno of the first failure, 0 if none */
  unsigned char out[1 << 16];
} gzw;

/* Deflate 'n' bytes at 'p' ('flush' as deflate takes it) into 'raw'. */
static int gz_put(gzw *g, const char *p, size_t n, int flush) {
  g->z.next_in = (unsigned char *)p;
  g->z.avail_in = (uInt)n;
  int r;
  do {
    g->z.next_out = g->out;
    g->z.avail_out = sizeof g->out;
    r = deflate(&g->z, flush);
    size_t k = sizeof g->out - g->z.avail_out;
    if (r == Z_STREAM_ERROR || (k && fwrite(g->out, 1, k, g->raw) != k)) {
      if (!g->err) g->err = r == Z_STREAM_ERROR || !errno ? EIO : errno;
      return -1;
    }
  } while (g->z.avail_out == 0 || g->z.avail_in ||
           (flush == Z_FINISH && r != Z_STREAM_END));
  return 0;
}

static ssize_t gz_write(void *c, const char *buf, size_t n) {
  gzw *g = c;
  /* stdio hands over at most its buffer at a time; avail_in is 32 bits */
  for (size_t done = 0; done < n;) {
    size_t k = n - done < (1u << 30) ? n - done : 1u << 30;
    if (g->err || gz_put(g, buf + done, k, Z_NO_FLUSH)) return 0;
    done += k;
  }
  return (ssize_t)n;
}

static int gz_close(void *c) {
  gzw *g = c;
  if (!g->err) gz_put(g, NULL, 0, Z_FINISH);
  int e = g->err;
  deflateEnd(&g->z);
  cr_free(g);
  if (!e) return 0;
  errno = e;
  return EOF;
}

int cli_atomic_open_gzip(cli_afile *af, const char *path, cr_diag *d) {
  int rc = cli_atomic_open(af, path, d);
  if (rc) return rc;
  gzw *g = cr_malloc(sizeof *g);
  if (g) {
    memset(&g->z, 0, sizeof g->z);
    g->raw = af->f;
    g->err = 0;
    if (deflateInit2(&g->z, 1, Z_DEFLATED, 16 + MAX_WBITS, 8,
                     Z_DEFAULT_STRATEGY) != Z_OK) {
      cr_free(g);
      g = NULL;
    }
  }
  static const cookie_io_functions_t io = {.write = gz_write,
                                           .close = gz_close};
  FILE *f = g ? fopencookie(g, "w", io) : NULL;
  if (!f) {
    if (g) {
      deflateEnd(&g->z);
      cr_free(g);
    }
    cli_atomic_abort(af);
    return cr_diag_set(d, CR_ENOMEM, -1, "out of memory");
  }
  setvbuf(f, NULL, _IOFBF, 1 << 16);
  af->raw = af->f;
  af->f = f;
  return 0;
}

/* Close the compressing stream of 'af' (the member finished): 0, or -1
** with errno set. 'af->f' is then the temporary file itself. */
static int gz_finish(cli_afile *af) {
  if (!af->raw) return 0;
  int bad = ferror(af->f) != 0;
  if (fclose(af->f) != 0) bad = 1;
  else if (bad) errno = EIO;
  af->f = af->raw;
  af->raw = NULL;
  return bad ? -1 : 0;
}

int cli_atomic_commit(cli_afile *af, cr_diag *d) {
  int bad = gz_finish(af) != 0;
  int e = errno;
  if (!bad) {
    bad = ferror(af->f) || fflush(af->f) != 0 || fsync(fileno(af->f)) != 0;
    e = errno;
  }
  if (fclose(af->f) != 0 && !bad) {
    bad = 1;
    e = errno;
  }
  af->f = NULL;
  if (bad) {
    unlink(af->tmp);
    return cr_diag_set(d, CR_EIO, -1, "cannot write %s: %s", af->path,
                       strerror(e));
  }
  if (rename(af->tmp, af->path) != 0) {
    e = errno;
    unlink(af->tmp);
    return cr_diag_set(d, CR_EIO, -1, "cannot rename into %s: %s", af->path,
                       strerror(e));
  }
  return 0;
}

void cli_atomic_abort(cli_afile *af) {
  if (af->raw) gz_finish(af);
  if (af->f) fclose(af->f);
  af->f = NULL;
  unlink(af->tmp);
}

int cli_mkdirs(const char *path, unsigned mode) {
  char buf[4096];
  if (snprintf(buf, sizeof buf, "%s", path) >= (int)sizeof buf) return -1;
  for (char *p = buf + 1; *p; p++) {
    if (*p != '/') continue;
    *p = '\0';
    if (mkdir(buf, (mode_t)mode) != 0 && errno != EEXIST) return -1;
    *p = '/';
  }
  if (mkdir(buf, (mode_t)mode) != 0 && errno != EEXIST) return -1;
  struct stat st;
  return stat(buf, &st) == 0 && S_ISDIR(st.st_mode) ? 0 : -1;
}

int cli_atomic_hier(const char *path, const struct cr_hier *h,
                    int (*write)(const struct cr_hier *, FILE *, cr_diag *),
                    cr_diag *d) {
  cli_afile af;
  int rc = cli_atomic_open(&af, path, d);
  if (rc) return rc;
  if ((rc = write(h, af.f, d))) {
    cli_atomic_abort(&af);
    return rc;
  }
  return cli_atomic_commit(&af, d);
}
