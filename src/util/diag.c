/*
** diag.c -- error codes and the first-error-wins diagnostic record.
*/
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "cccp/util.h"

const char *cr_strerror(int code) {
  switch (code) {
  case CR_OK: return "success";
  case CR_EFORMAT: return "malformed input";
  case CR_EUNSUPPORTED: return "unsupported input";
  case CR_ENOTFOUND: return "not found";
  case CR_ETOOLARGE: return "limit exceeded";
  case CR_EIO: return "I/O error";
  case CR_ENOMEM: return "out of memory";
  case CR_EUSAGE: return "usage error";
  default: return "unknown error";
  }
}

/* The strings are emptied, not zeroed: a record is cleared for each
** method instrumented, and 1.5 KB of memset each time showed in
** profiles. Every writer terminates what it writes. */
void cr_diag_clear(cr_diag *d) {
  d->code = 0;
  d->offset = -1;
  d->file[0] = d->entry[0] = d->msg[0] = '\0';
}

int cr_diag_vset(cr_diag *d, int code, long offset, const char *fmt,
                 va_list ap) {
  if (!d || d->code) return code;
  d->code = code;
  d->offset = offset;
  vsnprintf(d->msg, sizeof d->msg, fmt, ap);
  return code;
}

int cr_diag_set(cr_diag *d, int code, long offset, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  cr_diag_vset(d, code, offset, fmt, ap);
  va_end(ap);
  return code;
}

void cr_diag_where(cr_diag *d, const char *file, const char *entry) {
  if (!d) return;
  if (file && !d->file[0]) snprintf(d->file, sizeof d->file, "%s", file);
  if (entry && !d->entry[0])
    snprintf(d->entry, sizeof d->entry, "%s", entry);
}

/*
** Append 's' to 'out' (holding 'n' bytes of text) with control bytes and
** DEL shown as \xNN: names come from untrusted inputs and must neither
** split a message over lines nor drive the terminal.
*/
static size_t put_escaped(char *out, size_t outsz, size_t n, const char *s) {
  for (; *s && n + 1 < outsz; s++) {
    unsigned char c = (unsigned char)*s;
    if (c < 0x20 || c == 0x7f) {
      if (n + 5 > outsz) break;
      n += (size_t)snprintf(out + n, outsz - n, "\\x%02x", c);
    } else {
      out[n++] = (char)c;
    }
  }
  out[n] = '\0';
  return n;
}

void cr_escape(char *out, size_t outsz, const char *s) {
  if (outsz) put_escaped(out, outsz, 0, s);
}

void cr_diag_format(const cr_diag *d, char *out, size_t outsz) {
  size_t n = 0;
  char num[48];
  if (outsz == 0) return;
  out[0] = '\0';
  if (d->file[0]) {
    n = put_escaped(out, outsz, n, d->file);
    n = put_escaped(out, outsz, n, ": ");
  }
  if (d->entry[0]) {
    n = put_escaped(out, outsz, n, d->entry);
    n = put_escaped(out, outsz, n, ": ");
  }
  if (d->offset >= 0) {
    snprintf(num, sizeof num, "offset %ld: ", d->offset);
    n = put_escaped(out, outsz, n, num);
  }
  put_escaped(out, outsz, n, d->msg[0] ? d->msg : cr_strerror(d->code));
}

int cr_read_file(uint8_t **out, size_t *len, const char *path, cr_diag *d) {
  FILE *f = fopen(path, "rb");
  *out = NULL;
  *len = 0;
  if (!f)
    return cr_diag_set(d, errno == ENOENT ? CR_ENOTFOUND : CR_EIO, -1,
                       "cannot open: %s", strerror(errno));
  struct stat st;
  if (fstat(fileno(f), &st) != 0 || !S_ISREG(st.st_mode)) {
    fclose(f);
    return cr_diag_set(d, CR_EIO, -1, "not a regular file");
  }
  size_t n = (size_t)st.st_size;
  uint8_t *p = cr_malloc(n + 1);
  if (!p) {
    fclose(f);
    return cr_diag_set(d, CR_ENOMEM, -1, "out of memory reading %zu bytes",
                       n);
  }
  size_t got = fread(p, 1, n, f);
  int bad = ferror(f);
  fclose(f);
  if (bad || got != n) {
    cr_free(p);
    return cr_diag_set(d, CR_EIO, -1, "read error");
  }
  p[n] = '\0';
  *out = p;
  *len = n;
  return 0;
}
