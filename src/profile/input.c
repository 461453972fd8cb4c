/*
** input.c -- the profile reader's bytes, from a file or from memory,
** handed to libxml2 with the DOCTYPE watch (see prof_int.h).
*/
#include <errno.h>
#include <limits.h>
#include <string.h>

#include "prof_int.h"

int cr_prof__read(void *ctx, char *buf, int len) {
  cr_prof_input *in = ctx;
  size_t n;
  if (in->f) {
    n = fread(buf, 1, (size_t)len, in->f);
    if (n == 0 && ferror(in->f)) {
      in->ioerr = errno ? errno : EIO;
      return -1;
    }
  } else {
    n = in->len - in->pos;
    if (n > (size_t)len) n = (size_t)len;
    memcpy(buf, in->mem + in->pos, n);
    in->pos += n;
  }
  if (in->root) return (int)n;
  static const char pat[] = "<!DOCTYPE";
  const size_t pl = sizeof pat - 1;
  char win[8 + 4096];
  for (size_t off = 0; off < n; off += 4096) {
    size_t k = n - off < 4096 ? n - off : 4096;
    memcpy(win, in->tail, in->ntail);
    memcpy(win + in->ntail, buf + off, k);
    size_t w = in->ntail + k;
    for (size_t i = 0; i + pl <= w; i++)
      if (win[i] == '<' && memcmp(win + i, pat, pl) == 0) {
        long line = 1 + in->nl;
        for (size_t j = in->ntail; j < i; j++) line += win[j] == '\n';
        in->doctype = line > INT_MAX ? INT_MAX : (int)line;
        return -1;
      }
    for (size_t j = in->ntail; j < w; j++) in->nl += win[j] == '\n';
    in->ntail = w < pl - 1 ? w : pl - 1;
    memmove(in->tail, win + w - in->ntail, in->ntail);
  }
  return (int)n;
}
