/*
** fuzz_common.c -- shared by the fuzz targets: contract failures, checks
** of diagnostics, and the container harness (scratch file, open, read).
*/
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "cccp/io.h"
#include "fuzz.h"

/* Entry limits while fuzzing: big enough for every seed, small enough
** that a lying size costs little time and memory. */
#define FUZZ_MAX_ENTRY ((uint64_t)16 << 20)
#define FUZZ_MAX_TOTAL ((uint64_t)64 << 20)

/*
** FUZZ_LAX=1 in the environment skips the checks of known open bugs (see
** tests/fuzz/regress/): safe names, one-line messages. Fuzzing then goes
** on looking for memory errors instead of stopping at the known ones.
*/
static int lax(void) {
  static int v = -1;
  if (v < 0) v = getenv("FUZZ_LAX") != NULL;
  return v;
}

void fuzz_fail(const char *fmt, ...) {
  va_list ap;
  fputs("fuzz: contract broken: ", stderr);
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fputc('\n', stderr);
  abort();
}

static int known_code(int rc) {
  return rc == CR_EFORMAT || rc == CR_EUNSUPPORTED || rc == CR_ENOTFOUND ||
         rc == CR_ETOOLARGE || rc == CR_EIO || rc == CR_ENOMEM;
}

void fuzz_check_diag(const cr_diag *d, int rc, size_t size,
                     const char *what) {
  FUZZ_CHECK(rc < 0 && known_code(rc), "%s: return code %d", what, rc);
  FUZZ_CHECK(d->code == rc, "%s: returned %d but the diag holds %d", what,
             rc, d->code);
  FUZZ_CHECK(d->msg[0] != '\0', "%s: error %d without a message", what, rc);
  /* the CLI prints "cccp-rewrite: " + this: one line, no terminal
     control bytes from the input (names, strings of an image) */
  char line[2048];
  cr_diag_format(d, line, sizeof line);
  for (const char *p = line; *p && !lax(); p++)
    FUZZ_CHECK((unsigned char)*p >= 0x20 && *p != 0x7f,
               "%s: message holds control byte 0x%02x: %s", what,
               (unsigned char)*p, line);
  FUZZ_CHECK(d->offset >= -1 && d->offset <= (long)size,
             "%s: offset %ld outside the %zu-byte input (%s)", what,
             d->offset, size, d->msg);
}

/* ---- the scratch file ---- */

static int scratch_fd = -1;
static char scratch_path[64];

static void scratch_close(void) {
  if (scratch_fd >= 0) close(scratch_fd);
  if (scratch_path[0] && strncmp(scratch_path, "/proc/", 6) != 0)
    unlink(scratch_path);
}

/* Open the scratch file once per process: a memfd, else a temp file. */
static int scratch_open(void) {
  if (scratch_fd >= 0) return 0;
  int fd = memfd_create("cccp-fuzz", MFD_CLOEXEC);
  if (fd >= 0) {
    snprintf(scratch_path, sizeof scratch_path, "/proc/self/fd/%d", fd);
  } else {
    const char *dir = getenv("TMPDIR");
    snprintf(scratch_path, sizeof scratch_path, "%s/cccp-fuzz-XXXXXX",
             dir && strlen(dir) < 40 ? dir : "/tmp");
    fd = mkostemp(scratch_path, O_CLOEXEC);
    if (fd < 0) return -1;
  }
  scratch_fd = fd;
  atexit(scratch_close);
  return 0;
}

static int put_all(int fd, const uint8_t *p, size_t n, off_t at) {
  while (n) {
    ssize_t k = pwrite(fd, p, n, at);
    if (k < 0 && errno == EINTR) continue;
    if (k <= 0) return -1;
    p += k;
    n -= (size_t)k;
    at += k;
  }
  return 0;
}

const char *fuzz_scratch(const uint8_t *data, size_t size) {
  if (scratch_open() != 0) fuzz_fail("cannot create a scratch file");
  if (ftruncate(scratch_fd, 0) != 0 ||
      put_all(scratch_fd, data, size, 0) != 0)
    fuzz_fail("cannot write the scratch file: %s", strerror(errno));
  return scratch_path;
}

/* The kind 'cr_input_open' must detect for a file starting with 'm'. */
static cr_input_kind expected_kind(const uint8_t *m, size_t n) {
  uint8_t b[4] = {0, 0, 0, 0};
  memcpy(b, m, n < 4 ? n : 4);
  uint32_t be = cr_be32(b);
  if (b[0] == 'J' && b[1] == 'M' && b[2] == 1 && b[3] == 0) return CR_IN_JMOD;
  if (be == 0xCAFEDADAu || be == 0xDADAFECAu) return CR_IN_JIMAGE;
  if (be == 0xCAFEBABEu) return CR_IN_CLASS;
  return CR_IN_JAR;
}

/*
** A name the CLI can use: entry names are jar entry names (non-empty, at
** most 65535 bytes; a resource of an image is never a directory), module
** names become file names 'DIR/MODULE.jar' (no '/', not "." or "..").
** Skipped under FUZZ_LAX.
*/
static void check_names(const cr_entry_info *info, cr_input_kind k,
                        size_t i) {
  if (lax()) return;
  size_t nl = strlen(info->name);
  FUZZ_CHECK(nl > 0 && nl <= 65535, "entry %zu: name of %zu bytes", i, nl);
  if (k == CR_IN_JIMAGE)
    FUZZ_CHECK(info->name[nl - 1] != '/',
               "entry %zu: resource '%s' named like a directory", i,
               info->name);
  const char *m = info->module;
  if (m)
    FUZZ_CHECK(*m && !strchr(m, '/') && strcmp(m, ".") && strcmp(m, ".."),
               "entry %zu '%s': module name '%s' is not a file name", i,
               info->name, m);
}

int fuzz_container(const uint8_t *prefix, size_t plen, const uint8_t *data,
                   size_t size) {
  if (scratch_open() != 0) fuzz_fail("cannot create a scratch file");
  if (ftruncate(scratch_fd, 0) != 0 ||
      put_all(scratch_fd, prefix, plen, 0) != 0 ||
      put_all(scratch_fd, data, size, (off_t)plen) != 0)
    fuzz_fail("cannot write the scratch file: %s", strerror(errno));
  size_t total = plen + size;
  uint8_t head[4] = {0, 0, 0, 0};
  for (size_t i = 0; i < 4 && i < total; i++)
    head[i] = i < plen ? prefix[i] : data[i - plen];

  cr_diag d;
  cr_diag_clear(&d);
  cr_input *in;
  int rc = cr_input_open(&in, scratch_path, &d);
  if (rc) {
    fuzz_check_diag(&d, rc, total, "cr_input_open");
    FUZZ_CHECK(strcmp(d.file, scratch_path) == 0,
               "cr_input_open: error does not name the file: '%s'", d.file);
    FUZZ_CHECK(in == NULL, "cr_input_open: failed but returned an input");
    return 0;
  }
  cr_input_kind k = cr_input_kind_of(in);
  FUZZ_CHECK(k == expected_kind(head, total),
             "opened as kind %d, magic says %d", (int)k,
             (int)expected_kind(head, total));
  cr_input_set_limits(in, FUZZ_MAX_ENTRY, FUZZ_MAX_TOTAL);
  size_t n = cr_input_count(in);
  for (size_t i = 0; i < n; i++) {
    cr_entry_info info;
    cr_input_info(in, i, &info);
    FUZZ_CHECK(info.name != NULL, "entry %zu has no name", i);
    size_t nl = strlen(info.name);
    if (k == CR_IN_JAR || k == CR_IN_JMOD)
      FUZZ_CHECK(info.is_dir == (nl > 0 && info.name[nl - 1] == '/'),
                 "entry %zu '%s': is_dir %d disagrees with its name", i,
                 info.name, info.is_dir);
    if (k == CR_IN_JMOD || k == CR_IN_JIMAGE)
      FUZZ_CHECK(info.module != NULL, "entry %zu '%s' has no module", i,
                 info.name);
    check_names(&info, k, i);
    if (info.is_dir) continue;
    uint8_t *buf = NULL;
    size_t len = 0;
    cr_diag_clear(&d);
    rc = cr_input_read(in, i, &buf, &len, &d);
    if (rc == 0) {
      FUZZ_CHECK(len == info.size,
                 "entry %zu '%s': read %zu bytes, %llu declared", i,
                 info.name, len, (unsigned long long)info.size);
      FUZZ_CHECK(len == 0 || buf != NULL, "entry %zu: no buffer", i);
      /* touch every byte so that ASan/MSan see uninitialised or short
         buffers */
      volatile uint8_t sum = 0;
      for (size_t j = 0; j < len; j++) sum ^= buf[j];
      (void)sum;
    } else {
      fuzz_check_diag(&d, rc, total, "cr_input_read");
      FUZZ_CHECK(buf == NULL && len == 0,
                 "cr_input_read: failed but returned data");
      FUZZ_CHECK(strcmp(d.entry, info.name) == 0 ||
                     strlen(info.name) >= sizeof d.entry,
                 "cr_input_read: error names entry '%s', not '%s'", d.entry,
                 info.name);
      FUZZ_CHECK(strcmp(d.file, scratch_path) == 0,
                 "cr_input_read: error does not name the file");
    }
    cr_free(buf);
  }
  cr_input_close(in);
  return 0;
}
