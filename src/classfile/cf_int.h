/*
** cf_int.h -- internals shared by the files of the classfile module: the
** bounded reader, the pool layout and the parse context.
*/
#ifndef CCCP_CF_INT_H
#define CCCP_CF_INT_H

#include <string.h>

#include "cccp/classfile.h"

/*
** Bounded big-endian cursor with a sticky error (HotSpot's
** ClassFileStream). A read past 'end' returns 0, moves 'p' to 'end',
** records "truncated <what>" in 'd' once and sets 'err'; callers test
** 'err' once per record.
*/
typedef struct cr_rd {
  const uint8_t *base;  /* start of the class file (for offsets) */
  const uint8_t *p, *end;
  const char *what;     /* what is being read, for the message */
  cr_diag *d;
  int err;
} cr_rd;

void cr_cf__short(cr_rd *r, size_t n);

static inline long rd_off(const cr_rd *r) { return (long)(r->p - r->base); }

/* 1 if 'n' more bytes are there, else records the truncation. */
static inline int rd_need(cr_rd *r, size_t n) {
  if ((size_t)(r->end - r->p) >= n) return 1;
  cr_cf__short(r, n);
  return 0;
}
static inline uint32_t rd_u1(cr_rd *r) {
  if (r->p >= r->end) { cr_cf__short(r, 1); return 0; }
  return *r->p++;
}
static inline uint32_t rd_u2(cr_rd *r) {
  if (r->end - r->p < 2) { cr_cf__short(r, 2); return 0; }
  uint32_t v = cr_be16(r->p);
  r->p += 2;
  return v;
}
static inline uint32_t rd_u4(cr_rd *r) {
  if (r->end - r->p < 4) { cr_cf__short(r, 4); return 0; }
  uint32_t v = cr_be32(r->p);
  r->p += 4;
  return v;
}

/* The pool. Entries [1, count) are valid; [1, orig_count) came from the
** input, whose pool bytes (after constant_pool_count) are 'orig'. */
struct cr_cpool {
  cr_arena *a;
  uint32_t count, cap;
  cr_cpentry *e;
  uint32_t orig_count;
  const uint8_t *orig;
  size_t orig_len;
  const char **str;     /* NUL-terminated copies, by index (lazy) */
  uint32_t strcap;
  uint32_t *hash;       /* open addressing, slot = entry index, 0 empty */
  uint32_t hmask;       /* table size - 1; 0 while not built */
  uint32_t hused;
};

/* Parse state shared by parse.c and attr.c. */
typedef struct cr_ps {
  cr_arena *a;
  cr_diag *d;
  cr_class *c;
  cr_cpool *cp;
  const uint8_t *base;
  uint8_t *akind;       /* attribute kind by Utf8 index, 0xFF unknown */
  int nbsm;             /* BootstrapMethods count, -1 if none yet */
  long bsm_off;
} cr_ps;

/* Contexts an attribute may appear in (bit mask). */
enum {
  CX_CLASS = 1, CX_FIELD = 2, CX_METHOD = 4, CX_CODE = 8, CX_COMP = 16
};

int cr_cf__attrs(cr_ps *ps, cr_rd *r, cr_attrs *out, int ctx);
/* Parse the info of attribute 'at' (known kind 'k', 'raw'/'len' set)
** from its bytes, which it must consume exactly; 'off' for messages. */
int cr_cf__attr_info(cr_ps *ps, cr_attr *at, int k, long off);
int cr_cf__oom(cr_ps *ps, const cr_rd *r);
/* Check that 'i' is an entry with tag 'tag' (or 0 when 'opt' and i == 0). */
int cr_cf__ref(cr_ps *ps, long off, uint32_t i, int tag, int opt,
               const char *what);
const char *cr_cf__tagname(int tag);

/* Pool internals (cpool.c). */
int cr_cp__new(cr_cpool **out, cr_arena *a, uint32_t count);
int cr_cp__write(cr_buf *b, const cr_cpool *cp, cr_diag *d);

void *cr_cf__alloc(cr_arena *a, size_t n, size_t size);

#endif
