/*
** buf.c -- growable byte buffer with a sticky out-of-memory flag.
*/
#include <string.h>

#include "cccp/util.h"

void cr_buf_init(cr_buf *b) { memset(b, 0, sizeof *b); }

void cr_buf_free(cr_buf *b) {
  cr_free(b->data);
  memset(b, 0, sizeof *b);
}

void cr_buf_reset(cr_buf *b) {
  b->len = 0;
  b->err = 0;
}

int cr_buf_reserve(cr_buf *b, size_t extra) {
  if (b->err) return b->err;
  if (extra <= b->cap - b->len) return 0;
  if (extra > SIZE_MAX / 2 - b->len) return b->err = CR_ENOMEM;
  size_t need = b->len + extra, cap = b->cap ? b->cap : 256;
  while (cap < need) cap *= 2;
  uint8_t *p = cr_realloc(b->data, cap);
  if (!p) return b->err = CR_ENOMEM;
  b->data = p;
  b->cap = cap;
  return 0;
}

void cr_buf_put(cr_buf *b, const void *p, size_t n) {
  if (n == 0 || cr_buf_reserve(b, n)) return;
  memcpy(b->data + b->len, p, n);
  b->len += n;
}

void cr_buf_u1(cr_buf *b, uint32_t v) {
  if (cr_buf_reserve(b, 1)) return;
  b->data[b->len++] = (uint8_t)v;
}

void cr_buf_u2(cr_buf *b, uint32_t v) {
  if (cr_buf_reserve(b, 2)) return;
  b->data[b->len++] = (uint8_t)(v >> 8);
  b->data[b->len++] = (uint8_t)v;
}

void cr_buf_u4(cr_buf *b, uint32_t v) {
  if (cr_buf_reserve(b, 4)) return;
  b->data[b->len++] = (uint8_t)(v >> 24);
  b->data[b->len++] = (uint8_t)(v >> 16);
  b->data[b->len++] = (uint8_t)(v >> 8);
  b->data[b->len++] = (uint8_t)v;
}

void cr_buf_puts(cr_buf *b, const char *s) { cr_buf_put(b, s, strlen(s)); }

void cr_buf_set_u2(cr_buf *b, size_t at, uint32_t v) {
  if (b->err || at + 2 > b->len) return;
  b->data[at] = (uint8_t)(v >> 8);
  b->data[at + 1] = (uint8_t)v;
}

void cr_buf_set_u4(cr_buf *b, size_t at, uint32_t v) {
  if (b->err || at + 4 > b->len) return;
  b->data[at] = (uint8_t)(v >> 24);
  b->data[at + 1] = (uint8_t)(v >> 16);
  b->data[at + 2] = (uint8_t)(v >> 8);
  b->data[at + 3] = (uint8_t)v;
}

uint8_t *cr_buf_detach(cr_buf *b, size_t *len) {
  uint8_t *p = b->data;
  if (len) *len = b->len;
  memset(b, 0, sizeof *b);
  return p;
}
