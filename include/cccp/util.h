/*
** util.h -- arenas, growable byte buffers, diagnostics and error codes.
** Shared by every module of cccp; depends on nothing but libc.
*/
#ifndef CCCP_UTIL_H
#define CCCP_UTIL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/*
** Error codes. Functions return 0 on success or one of these (negative).
** The detail is recorded once, where the error happens, in a 'cr_diag'.
*/
enum {
  CR_OK = 0,
  CR_EFORMAT = -1,      /* malformed input (class bytes, archive) */
  CR_EUNSUPPORTED = -2, /* well-formed but not supported */
  CR_ENOTFOUND = -3,    /* missing class, entry or file */
  CR_ETOOLARGE = -4,    /* a JVM or configured limit would be exceeded */
  CR_EIO = -5,          /* operating-system I/O error */
  CR_ENOMEM = -6,       /* allocation failed */
  CR_EUSAGE = -7        /* bad command line or API misuse by the caller */
};

/* Short name of an error code ("format error", ...). */
const char *cr_strerror(int code);

/*
** A diagnostic: the first error recorded wins (later calls to
** 'cr_diag_set' on a diag that already holds an error are ignored), so the
** message describes the origin, and callers pass the code up unchanged.
** 'file' and 'entry' are filled in by whoever knows them (the CLI knows the
** file, the container reader the entry); 'offset' is a byte offset into the
** entry's bytes or -1. Transparent; zero-initialise or 'cr_diag_clear'.
*/
typedef struct cr_diag {
  int code;             /* 0 while no error is recorded */
  long offset;          /* byte offset in the entry, or -1 */
  char file[512];       /* container or file path, may be empty */
  char entry[512];      /* entry inside the container, may be empty */
  char msg[512];        /* one line, says what is wrong */
} cr_diag;

void cr_diag_clear(cr_diag *d);
/* Record an error; returns 'code' so callers can 'return cr_diag_set(..)'. */
int cr_diag_set(cr_diag *d, int code, long offset, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
int cr_diag_vset(cr_diag *d, int code, long offset, const char *fmt,
                 va_list ap) __attribute__((format(printf, 4, 0)));
/* Fill 'file' / 'entry' if they are still empty. */
void cr_diag_where(cr_diag *d, const char *file, const char *entry);
/*
** Format "file: entry: offset N: msg" into 'out' (never fails); control
** bytes from untrusted names are shown as \xNN.
*/
void cr_diag_format(const cr_diag *d, char *out, size_t outsz);
/* Copy 's' into 'out' with control bytes shown as \xNN (truncating). */
void cr_escape(char *out, size_t outsz, const char *s);

/*
** Arena: many small allocations freed at once. Opaque. Allocation returns
** NULL on exhaustion. With -DCR_DEBUG_ARENA every allocation is a separate
** malloc, so that ASan and valgrind see each object.
*/
typedef struct cr_arena cr_arena;

cr_arena *cr_arena_new(void);
void cr_arena_free(cr_arena *a);
void *cr_arena_alloc(cr_arena *a, size_t size);  /* 8-byte aligned */
void *cr_arena_calloc(cr_arena *a, size_t n, size_t size); /* checks n*size */
char *cr_arena_strndup(cr_arena *a, const char *s, size_t n);
/* Grow an arena array of 'n' elements to 'newn' (copying); old stays. */
void *cr_arena_realloc(cr_arena *a, void *old, size_t oldsize, size_t newsize);
size_t cr_arena_used(const cr_arena *a);   /* bytes handed out */
/*
** Free everything allocated from 'a' at once but keep its newest chunk,
** so that scratch memory reused in a loop (one method body after another)
** stays allocated and warm in the cache. Every pointer into 'a' dies.
*/
void cr_arena_reset(cr_arena *a);

/*
** Fault injection for tests: after 'n' more successful allocations through
** 'cr_malloc'/'cr_realloc' (and thus arenas and buffers), every allocation
** fails. n < 0 disables (the default). Not thread-safe; tests only.
*/
void cr_alloc_fail_after(long n);
void *cr_malloc(size_t size);
void *cr_calloc(size_t n, size_t size);
void *cr_realloc(void *p, size_t size);
void cr_free(void *p);

/*
** Growable byte buffer with a sticky error: once an append fails, 'err' is
** CR_ENOMEM, later appends do nothing, and the owner checks 'err' once at
** the end. Big-endian helpers, as class files are big-endian. Transparent.
*/
typedef struct cr_buf {
  uint8_t *data;
  size_t len;
  size_t cap;
  int err;              /* 0 or CR_ENOMEM (sticky) */
} cr_buf;

void cr_buf_init(cr_buf *b);
void cr_buf_free(cr_buf *b);
void cr_buf_reset(cr_buf *b);              /* len = 0, err = 0 */
int cr_buf_reserve(cr_buf *b, size_t extra);
void cr_buf_put(cr_buf *b, const void *p, size_t n);
void cr_buf_u1(cr_buf *b, uint32_t v);
void cr_buf_u2(cr_buf *b, uint32_t v);
void cr_buf_u4(cr_buf *b, uint32_t v);
void cr_buf_puts(cr_buf *b, const char *s);
/* Patch a big-endian u2/u4 at 'at' (must be inside 'len'). */
void cr_buf_set_u2(cr_buf *b, size_t at, uint32_t v);
void cr_buf_set_u4(cr_buf *b, size_t at, uint32_t v);
/* Hand the bytes to the caller (malloc'd, may be NULL if empty). */
uint8_t *cr_buf_detach(cr_buf *b, size_t *len);

/*
** Write 's' (UTF-8 or modified UTF-8, NUL-terminated) as the text of an
** XML attribute value: markup characters and tab, newline, carriage
** return as references, supplementary characters from their surrogate
** pairs, and '?' for whatever is not an XML 1.0 character (NUL, other
** control characters, lone surrogates, malformed bytes).
*/
void cr_xml_attr(FILE *f, const char *s);

/* Hash of the 'n' bytes at 's', for lookup tables (not stable across
** versions: never write it out). */
uint32_t cr_hash(const void *s, size_t n);

/* SHA-1 (FIPS 180-4) of 'n' bytes at 'data' into 'out'. */
void cr_sha1(const void *data, size_t n, uint8_t out[20]);

/* Big-endian reads from a buffer known to hold the bytes. */
static inline uint32_t cr_be16(const uint8_t *p) {
  return (uint32_t)p[0] << 8 | p[1];
}
static inline uint32_t cr_be32(const uint8_t *p) {
  return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 |
         p[3];
}

/* Read a whole file into a malloc'd buffer (NUL appended, not counted). */
int cr_read_file(uint8_t **out, size_t *len, const char *path, cr_diag *d);

#endif
