/*
** test_io_inflate.c -- the raw DEFLATE decoder (src/io/inflate.c, RFC
** 1951) against zlib: round trips, capacity, truncation, one-defect
** streams made bit by bit, overlapping matches, JDK classes, mutations.
*/
#include <check.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "cccp/io.h"
#include "../zverdict.h"
#include "testutil.h"

#define BASE_JMOD TU_JDK "/java.base.jmod"

/* ---- helpers ---- */

static uint32_t rng = 1;

static uint32_t rnd(void) {   /* xorshift32 */
  rng ^= rng << 13;
  rng ^= rng >> 17;
  rng ^= rng << 5;
  return rng;
}

/* Raw deflate of 'src' into a malloc'd block; its length in '*zlen'.
** 'flush_at' > 0: a Z_SYNC_FLUSH there and a Z_FULL_FLUSH at twice it,
** with the level changed between (stored, fixed and dynamic blocks). */
static uint8_t *zdeflate(const uint8_t *src, size_t n, int level,
                         int strategy, size_t flush_at, size_t *zlen) {
  z_stream z;
  memset(&z, 0, sizeof z);
  ck_assert_int_eq(deflateInit2(&z, level, Z_DEFLATED, -15, 8, strategy),
                   Z_OK);
  size_t cap = deflateBound(&z, n) + 64;
  uint8_t *out = malloc(cap);
  ck_assert_ptr_nonnull(out);
  z.next_out = out;
  z.avail_out = (uInt)cap;
  z.next_in = (Bytef *)src;
  if (flush_at && flush_at * 2 < n) {
    z.avail_in = (uInt)flush_at;
    ck_assert_int_eq(deflate(&z, Z_SYNC_FLUSH), Z_OK);
    ck_assert_int_eq(deflateParams(&z, level ? 0 : 9, Z_FIXED), Z_OK);
    z.avail_in = (uInt)flush_at;
    ck_assert_int_eq(deflate(&z, Z_FULL_FLUSH), Z_OK);
    ck_assert_int_eq(deflateParams(&z, level, strategy), Z_OK);
    z.avail_in = (uInt)(n - 2 * flush_at);
  } else {
    z.avail_in = (uInt)n;
  }
  ck_assert_int_eq(deflate(&z, Z_FINISH), Z_STREAM_END);
  *zlen = z.total_out;
  deflateEnd(&z);
  return out;
}

/* Ours on 'in' with exactly 'cap' bytes of room (a block of that size);
** the result must be zlib's, with the same bytes. Returns the result. */
static int agree(const uint8_t *in, size_t n, size_t cap) {
  uint8_t *a = malloc(cap + 1), *b = malloc(cap + 1);
  ck_assert(a && b);
  size_t alen, blen = 99;
  int za = zverdict(a, cap, &alen, in, n);
  ck_assert_int_ge(za, 0);
  int rb = cr_io__inflate(b, cap, &blen, in, n);
  ck_assert_msg(za == rb, "zlib %d, ours %d (%zu bytes in, room %zu)", za,
                rb, n, cap);
  if (rb == CR_INFL_OK) {
    ck_assert_uint_eq(alen, blen);
    ck_assert_mem_eq(a, b, blen);
  } else {
    ck_assert_uint_eq(blen, 0);
  }
  free(a);
  free(b);
  return rb;
}

/* Inflate 'z' with room 'cap' (exactly: a block of that size) and expect
** 'want' ('wlen' bytes) back. */
static void expect_ok(const uint8_t *z, size_t zlen, size_t cap,
                      const uint8_t *want, size_t wlen) {
  uint8_t *out = cap ? malloc(cap) : NULL;
  size_t n = 99;
  ck_assert_int_eq(cr_io__inflate(out, cap, &n, z, zlen), CR_INFL_OK);
  ck_assert_uint_eq(n, wlen);
  if (wlen) ck_assert_mem_eq(out, want, wlen);
  free(out);
}

static int ours(const uint8_t *z, size_t zlen, size_t cap) {
  uint8_t *out = cap ? malloc(cap) : NULL;
  size_t n;
  int r = cr_io__inflate(out, cap, &n, z, zlen);
  free(out);
  return r;
}

/* Test data of kind 'k' (text, random, runs, small alphabet, mixed). */
static void fill(uint8_t *p, size_t n, int k) {
  static const char *words[] = {"the ", "quick ", "brown ", "fox ", "jumps ",
                                "over ", "lazy ", "dog", "\n", "invoke",
                                "Ljava/lang/Object;", "()V "};
  size_t i = 0;
  while (i < n) {
    switch (k) {
    case 0: {
      const char *w = words[rnd() % 12];
      for (; *w && i < n; w++) p[i++] = (uint8_t)*w;
      break;
    }
    case 1:
      p[i++] = (uint8_t)rnd();
      break;
    case 2: {
      size_t run = 1 + rnd() % 300;
      uint8_t c = (uint8_t)rnd();
      while (run-- && i < n) p[i++] = c;
      break;
    }
    case 3:
      p[i++] = (uint8_t)("ab"[rnd() % 2]);
      break;
    default:
      if (rnd() % 2) {
        p[i++] = (uint8_t)rnd();
      } else {
        size_t back = 1 + rnd() % 40, len = 3 + rnd() % 60;
        while (len-- && i < n) p[i] = i >= back ? p[i - back] : 0, i++;
      }
    }
  }
}

/* ---- round trips ---- */

static const int levels[] = {0, 1, 6, 9};
static const int strategies[] = {Z_DEFAULT_STRATEGY, Z_FILTERED,
                                 Z_HUFFMAN_ONLY, Z_RLE, Z_FIXED};
static const size_t sizes[] = {1, 2, 3, 7, 15, 16, 17, 100, 258, 259, 1000,
                               4096, 32768, 32769, 70000, 300000};

START_TEST(test_io_inflate__roundtrip) {
  size_t maxn = 300000;
  uint8_t *src = malloc(maxn);
  ck_assert_ptr_nonnull(src);
  int cases = 0;
  for (int k = 0; k < 5; k++) {
    rng = 1234u + (uint32_t)k;
    fill(src, maxn, k);
    for (size_t si = 0; si < sizeof sizes / sizeof *sizes; si++) {
      size_t n = sizes[si];
      for (int li = 0; li < 4; li++) {
        for (int st = 0; st < 5; st++) {
          size_t zlen;
          uint8_t *z = zdeflate(src, n, levels[li], strategies[st],
                                n > 1000 && st == 0 ? n / 3 : 0, &zlen);
          expect_ok(z, zlen, n, src, n);          /* ends at capacity */
          expect_ok(z, zlen, n + 100, src, n);    /* room to spare */
          ck_assert_int_eq(ours(z, zlen, n - 1), CR_INFL_SHORT);
          if (n <= 4096) ck_assert_int_eq(agree(z, zlen, n - 1),
                                          CR_INFL_SHORT);
          free(z);
          cases++;
        }
      }
    }
  }
  ck_assert_int_eq(cases, 5 * 16 * 4 * 5);
  free(src);
}
END_TEST

/* Entries of several blocks: stored, fixed and dynamic after each other,
** the fixed code built once and then replaced. */
START_TEST(test_io_inflate__block_mix) {
  size_t n = 200000;
  uint8_t *src = malloc(n);
  ck_assert_ptr_nonnull(src);
  rng = 99;
  fill(src, n, 4);
  for (size_t at = 1; at < n / 2; at = at * 3 + 1) {
    for (int li = 0; li < 4; li++) {
      size_t zlen;
      uint8_t *z = zdeflate(src, n, levels[li], Z_DEFAULT_STRATEGY, at,
                            &zlen);
      expect_ok(z, zlen, n, src, n);
      free(z);
    }
  }
  free(src);
}
END_TEST

START_TEST(test_io_inflate__empty) {
  size_t n = 7;
  uint8_t out[4];
  ck_assert_int_eq(cr_io__inflate(out, sizeof out, &n, (const uint8_t *)"",
                                  0), CR_INFL_BAD);
  ck_assert_int_eq(cr_io__inflate(NULL, 0, &n, NULL, 0), CR_INFL_BAD);
  size_t zlen;
  uint8_t *z = zdeflate((const uint8_t *)"", 0, 6, Z_DEFAULT_STRATEGY, 0,
                        &zlen);
  n = 7;
  ck_assert_int_eq(cr_io__inflate(NULL, 0, &n, z, zlen), CR_INFL_OK);
  ck_assert_uint_eq(n, 0);
  ck_assert_int_eq(cr_io__inflate(out, sizeof out, &n, z, zlen), CR_INFL_OK);
  ck_assert_uint_eq(n, 0);
  ck_assert_int_eq(agree(z, zlen, 0), CR_INFL_OK);
  free(z);
  /* an empty stored block, an empty fixed block */
  static const uint8_t stored[] = {0x01, 0x00, 0x00, 0xff, 0xff};
  static const uint8_t fixed[] = {0x03, 0x00};
  expect_ok(stored, sizeof stored, 0, NULL, 0);
  expect_ok(fixed, sizeof fixed, 0, NULL, 0);
  /* bytes after the final block do not count */
  static const uint8_t trail[] = {0x03, 0x00, 0xde, 0xad, 0xbe, 0xef};
  expect_ok(trail, sizeof trail, 10, NULL, 0);
  ck_assert_int_eq(agree(trail, sizeof trail, 10), CR_INFL_OK);
}
END_TEST

/* A stream that ends exactly at the capacity is OK; one byte less is
** SHORT, whether the last thing is a literal, a match or stored bytes. */
START_TEST(test_io_inflate__capacity) {
  uint8_t src[3000];
  rng = 5;
  for (int k = 0; k < 5; k++) {
    fill(src, sizeof src, k);
    for (size_t n = 1; n <= sizeof src; n += 1 + n / 7) {
      for (int li = 0; li < 4; li++) {
        size_t zlen;
        uint8_t *z = zdeflate(src, n, levels[li], Z_DEFAULT_STRATEGY, 0,
                              &zlen);
        expect_ok(z, zlen, n, src, n);
        ck_assert_int_eq(agree(z, zlen, n), CR_INFL_OK);
        ck_assert_int_eq(agree(z, zlen, n - 1), CR_INFL_SHORT);
        if (n > 300) ck_assert_int_eq(agree(z, zlen, n - 258),
                                      CR_INFL_SHORT);
        ck_assert_int_eq(agree(z, zlen, 0), CR_INFL_SHORT);
        free(z);
      }
    }
  }
}
END_TEST

/* Every proper prefix of a stream is truncated: BAD, as zlib says. */
START_TEST(test_io_inflate__truncated) {
  uint8_t src[2500];
  rng = 77;
  for (int k = 0; k < 5; k++) {
    fill(src, sizeof src, k);
    for (int li = 0; li < 4; li++) {
      for (int st = 0; st < 5; st += 2) {
        size_t zlen;
        uint8_t *z = zdeflate(src, sizeof src, levels[li], strategies[st],
                              st == 0 ? 600 : 0, &zlen);
        for (size_t cut = 0; cut < zlen; cut++) {
          uint8_t *p = malloc(cut ? cut : 1);   /* exact: ASan sees reads */
          memcpy(p, z, cut);
          ck_assert_int_eq(agree(p, cut, sizeof src), CR_INFL_BAD);
          ck_assert_int_ne(agree(p, cut, sizeof src / 2), CR_INFL_OK);
          free(p);
        }
        free(z);
      }
    }
  }
}
END_TEST

/* ---- streams made bit by bit ---- */

typedef struct bw {
  uint8_t b[8192];
  size_t nbits;
} bw;

static void bw_init(bw *w) { memset(w, 0, sizeof *w); }

/* 'n' bits of 'v', LSB first (header fields, extra bits; past 32, 0s). */
static void put(bw *w, unsigned v, unsigned n) {
  for (unsigned i = 0; i < n; i++, w->nbits++)
    if (i < 32)
      w->b[w->nbits >> 3] |= (uint8_t)(((v >> i) & 1) << (w->nbits & 7));
}

/* A Huffman code of 'n' bits, MSB first. */
static void put_code(bw *w, unsigned code, unsigned n) {
  while (n--) put(w, code >> n, 1);
}

static size_t bw_len(const bw *w) { return (w->nbits + 7) / 8; }

/* To the next byte boundary (stored blocks). */
static void align(bw *w) { w->nbits = (w->nbits + 7) & ~(size_t)7; }

/* Canonical codes of 'lens' (RFC 1951 3.2.2). */
static void canon(const uint8_t *lens, unsigned n, unsigned *codes) {
  unsigned count[16] = {0}, next[16], code = 0;
  for (unsigned s = 0; s < n; s++) count[lens[s]]++;
  count[0] = 0;
  for (unsigned l = 1; l < 16; l++) {
    code = (code + count[l - 1]) << 1;
    next[l] = code;
  }
  for (unsigned s = 0; s < n; s++)
    if (lens[s]) codes[s] = next[lens[s]]++;
}

static const unsigned lbase[29] = {3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17,
                                   19, 23, 27, 31, 35, 43, 51, 59, 67, 83,
                                   99, 115, 131, 163, 195, 227, 258};
static const unsigned lext[29] = {0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2,
                                  2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5,
                                  0};
static const unsigned dbase[30] = {1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49,
                                   65, 97, 129, 193, 257, 385, 513, 769,
                                   1025, 1537, 2049, 3073, 4097, 6145, 8193,
                                   12289, 16385, 24577};
static const unsigned dext[30] = {0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5,
                                  6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12,
                                  12, 13, 13};

/* Symbol index (0..28) of length 'len', (0..29) of distance 'dist'. */
static unsigned lsym(unsigned len) {
  unsigned s = 28;
  if (len < 258)
    for (s = 0; s < 27 && lbase[s + 1] <= len; s++) continue;
  return s;
}

static unsigned dsym(unsigned dist) {
  unsigned s = 0;
  while (s < 29 && dbase[s + 1] <= dist) s++;
  return s;
}

/* Fixed-code symbol 0..287 (RFC 1951 3.2.6). */
static void fixed_sym(bw *w, unsigned s) {
  if (s < 144)
    put_code(w, 0x30 + s, 8);
  else if (s < 256)
    put_code(w, 0x190 + s - 144, 9);
  else if (s < 280)
    put_code(w, s - 256, 7);
  else
    put_code(w, 0xc0 + s - 280, 8);
}

static void fixed_match(bw *w, unsigned len, unsigned dist) {
  unsigned ls = lsym(len), ds = dsym(dist);
  fixed_sym(w, 257 + ls);
  put(w, len - lbase[ls], lext[ls]);
  put_code(w, ds, 5);
  put(w, dist - dbase[ds], dext[ds]);
}

/* A dynamic block's code-length symbol list: each entry is a length 0..15
** or 16/17/18 with its extra bits in the bits above 8. */
typedef struct dyn {
  unsigned nlen, ndist;
  uint8_t pre[19];              /* code-length code lengths */
  unsigned syms[400];
  size_t nsyms;
  uint8_t lens[320];            /* the lengths the symbols make (for codes) */
  unsigned lcode[288], dcode[32];
} dyn;

/* Start a dynamic block description: 'nlen' literal/length and 'ndist'
** distance lengths, all 0; a code-length code of 5 bits for all 19. */
static void dyn_init(dyn *d, unsigned nlen, unsigned ndist) {
  memset(d, 0, sizeof *d);
  d->nlen = nlen;
  d->ndist = ndist;
  /* complete: 13 codes of 4 bits and 6 of 5 bits */
  memset(d->pre, 5, 19);
  memset(d->pre, 4, 13);
}

/* The symbols: every length sent as itself. */
static void dyn_plain(dyn *d) {
  d->nsyms = 0;
  for (unsigned i = 0; i < d->nlen + d->ndist; i++)
    d->syms[d->nsyms++] = d->lens[i];
}

/* Write the header (final block) and make the codes of 'd->lens'. */
static void dyn_write(bw *w, dyn *d) {
  static const uint8_t order[19] = {16, 17, 18, 0, 8, 7, 9, 6, 10, 5,
                                    11, 4, 12, 3, 13, 2, 14, 1, 15};
  unsigned pc[19];
  canon(d->pre, 19, pc);
  put(w, 1, 1);
  put(w, 2, 2);
  put(w, d->nlen - 257, 5);
  put(w, d->ndist - 1, 5);
  put(w, 15, 4);
  for (int i = 0; i < 19; i++) put(w, d->pre[order[i]], 3);
  for (size_t i = 0; i < d->nsyms; i++) {
    unsigned s = d->syms[i] & 0xff, x = d->syms[i] >> 8;
    put_code(w, pc[s], d->pre[s]);
    if (s == 16) put(w, x, 2);
    if (s == 17) put(w, x, 3);
    if (s == 18) put(w, x, 7);
  }
  canon(d->lens, d->nlen < 288 ? d->nlen : 288, d->lcode);
  canon(d->lens + d->nlen, d->ndist < 32 ? d->ndist : 32, d->dcode);
}

static void dyn_lit(bw *w, const dyn *d, unsigned s) {
  put_code(w, d->lcode[s], d->lens[s]);
}

static void dyn_match(bw *w, const dyn *d, unsigned len, unsigned dist) {
  unsigned ls = lsym(len), ds = dsym(dist);
  dyn_lit(w, d, 257 + ls);
  put(w, len - lbase[ls], lext[ls]);
  put_code(w, d->dcode[ds], d->lens[d->nlen + ds]);
  put(w, dist - dbase[ds], dext[ds]);
}

/* Lengths of a valid dynamic block with 'nlen' and 'ndist' codes: 'a'..'c'
** of 3 bits, 'd', the end and lengths 3..10 of 4 bits, distances 1..4 of
** 2 bits. */
static void dyn_lens(dyn *d, unsigned nlen, unsigned ndist) {
  dyn_init(d, nlen, ndist);
  for (int c = 'a'; c <= 'd'; c++) d->lens[c] = c < 'd' ? 3 : 4;
  for (int s = 256; s < 265; s++) d->lens[s] = 4;
  for (unsigned i = 0; i < 4; i++) d->lens[nlen + i] = 2;
  dyn_plain(d);
}

static void dyn_valid(dyn *d) { dyn_lens(d, 265, 4); }

/* Known answer for 'w', and zlib's. */
static void known(const bw *w, size_t cap, int want) {
  ck_assert_int_eq(ours(w->b, bw_len(w), cap), want);
  ck_assert_int_eq(agree(w->b, bw_len(w), cap), want);
}

START_TEST(test_io_inflate__stored) {
  bw w;
  bw_init(&w);
  put(&w, 1, 3);                /* final, stored */
  align(&w);
  put(&w, 5, 16);
  put(&w, 0xfffa, 16);
  for (const char *p = "hello"; *p; p++) put(&w, (uint8_t)*p, 8);
  expect_ok(w.b, bw_len(&w), 5, (const uint8_t *)"hello", 5);
  known(&w, 5, CR_INFL_OK);
  known(&w, 4, CR_INFL_SHORT);
  ck_assert_int_eq(agree(w.b, bw_len(&w) - 1, 5), CR_INFL_BAD);
  ck_assert_int_eq(agree(w.b, bw_len(&w) - 1, 3), CR_INFL_SHORT);
  ck_assert_int_eq(agree(w.b, bw_len(&w) - 1, 4), CR_INFL_BAD);
  /* LEN != ~NLEN */
  bw_init(&w);
  put(&w, 1, 3);
  align(&w);
  put(&w, 5, 16);
  put(&w, 0xfffb, 16);
  for (const char *p = "hello"; *p; p++) put(&w, (uint8_t)*p, 8);
  known(&w, 5, CR_INFL_BAD);
  known(&w, 0, CR_INFL_BAD);
  /* a stored block after a fixed one: aligned from the middle of a byte */
  bw_init(&w);
  put(&w, 2, 3);                /* not final, fixed */
  fixed_sym(&w, 'x');
  fixed_sym(&w, 256);
  put(&w, 1, 3);                /* final, stored */
  align(&w);
  put(&w, 2, 16);
  put(&w, 0xfffd, 16);
  put(&w, 'y', 8);
  put(&w, 'z', 8);
  expect_ok(w.b, bw_len(&w), 3, (const uint8_t *)"xyz", 3);
  known(&w, 3, CR_INFL_OK);
}
END_TEST

START_TEST(test_io_inflate__block_type_3) {
  bw w;
  bw_init(&w);
  put(&w, 7, 3);
  put(&w, 0, 16);
  known(&w, 100, CR_INFL_BAD);
  bw_init(&w);
  put(&w, 6, 3);                /* not final, type 3 */
  known(&w, 100, CR_INFL_BAD);
}
END_TEST

START_TEST(test_io_inflate__fixed) {
  bw w;
  bw_init(&w);
  put(&w, 3, 3);
  const char *s = "fixed Huffman \x90\xff";
  for (const char *p = s; *p; p++) fixed_sym(&w, (uint8_t)*p);
  fixed_match(&w, 258, 16);
  fixed_sym(&w, 256);
  uint8_t want[16 + 258];
  memcpy(want, s, 16);
  for (int i = 16; i < 16 + 258; i++) want[i] = want[i - 16];
  expect_ok(w.b, bw_len(&w), sizeof want, want, sizeof want);
  known(&w, sizeof want, CR_INFL_OK);
  known(&w, sizeof want - 1, CR_INFL_SHORT);
  /* symbols 286 and 287 exist in the fixed code but are invalid */
  for (unsigned sym = 286; sym <= 287; sym++) {
    bw_init(&w);
    put(&w, 3, 3);
    fixed_sym(&w, 'a');
    fixed_sym(&w, sym);
    put(&w, 0, 16);
    known(&w, 100, CR_INFL_BAD);
    known(&w, 1, CR_INFL_BAD);
  }
  /* so are distances 30 and 31 */
  for (unsigned ds = 29; ds <= 31; ds++) {
    bw_init(&w);
    put(&w, 3, 3);
    fixed_sym(&w, 'a');
    fixed_sym(&w, 257);         /* length 3 */
    put_code(&w, ds, 5);
    put(&w, 0, 13);
    fixed_sym(&w, 256);
    known(&w, 100, CR_INFL_BAD);  /* 29: 24577 is too far back anyway */
    known(&w, 1, CR_INFL_BAD);
  }
}
END_TEST

START_TEST(test_io_inflate__distance_too_far) {
  for (unsigned dist = 1; dist <= 3; dist++) {
    bw w;
    bw_init(&w);
    put(&w, 3, 3);
    fixed_sym(&w, 'a');
    fixed_sym(&w, 'b');
    fixed_match(&w, 3, dist);
    fixed_sym(&w, 256);
    int want = dist <= 2 ? CR_INFL_OK : CR_INFL_BAD;
    known(&w, 5, want);
    known(&w, 100, want);
    /* a full output does not hide a bad distance */
    known(&w, 2, dist <= 2 ? CR_INFL_SHORT : CR_INFL_BAD);
  }
  /* across blocks: 100 stored bytes, then a match 100 or 101 back */
  for (unsigned dist = 100; dist <= 101; dist++) {
    bw w;
    bw_init(&w);
    put(&w, 0, 3);
    align(&w);
    put(&w, 100, 16);
    put(&w, 0xffff - 100, 16);
    for (unsigned i = 0; i < 100; i++) put(&w, i, 8);
    put(&w, 3, 3);
    fixed_match(&w, 200, dist);
    fixed_sym(&w, 256);
    known(&w, 300, dist == 100 ? CR_INFL_OK : CR_INFL_BAD);
  }
}
END_TEST

/* A 40 KB stored block then a match 32768 back: valid. */
START_TEST(test_io_inflate__distance_32768) {
  size_t n = 40000, zcap = n + 64;
  uint8_t *z = calloc(1, zcap), *want = malloc(n + 258);
  rng = 3;
  z[0] = 0;                     /* not final, stored */
  z[1] = n & 0xff;
  z[2] = (uint8_t)(n >> 8);
  z[3] = (uint8_t)~z[1];
  z[4] = (uint8_t)~z[2];
  for (size_t i = 0; i < n; i++) want[i] = z[5 + i] = (uint8_t)rnd();
  bw w;
  bw_init(&w);
  put(&w, 3, 3);
  fixed_match(&w, 258, 32768);
  fixed_sym(&w, 256);
  memcpy(z + 5 + n, w.b, bw_len(&w));
  size_t zlen = 5 + n + bw_len(&w);
  for (size_t i = n; i < n + 258; i++) want[i] = want[i - 32768];
  expect_ok(z, zlen, n + 258, want, n + 258);
  ck_assert_int_eq(agree(z, zlen, n + 258), CR_INFL_OK);
  ck_assert_int_eq(agree(z, zlen, n + 257), CR_INFL_SHORT);
  /* distance codes 30 and 31, with more than 32768 bytes behind */
  for (unsigned ds = 30; ds <= 31; ds++) {
    bw_init(&w);
    put(&w, 3, 3);
    fixed_sym(&w, 257);
    put_code(&w, ds, 5);
    put(&w, 0, 13);
    fixed_sym(&w, 256);
    memcpy(z + 5 + n, w.b, bw_len(&w));
    zlen = 5 + n + bw_len(&w);
    ck_assert_int_eq(ours(z, zlen, n + 258), CR_INFL_BAD);
    ck_assert_int_eq(agree(z, zlen, n + 258), CR_INFL_BAD);
  }
  free(z);
  free(want);
}
END_TEST

START_TEST(test_io_inflate__dynamic_valid) {
  dyn d;
  bw w;
  dyn_valid(&d);
  bw_init(&w);
  dyn_write(&w, &d);
  dyn_lit(&w, &d, 'a');
  dyn_lit(&w, &d, 'b');
  dyn_lit(&w, &d, 'c');
  dyn_lit(&w, &d, 'd');
  dyn_match(&w, &d, 10, 4);
  dyn_match(&w, &d, 3, 1);
  dyn_lit(&w, &d, 256);
  expect_ok(w.b, bw_len(&w), 17, (const uint8_t *)"abcdabcdabcdabbbb",
            17);
  known(&w, 17, CR_INFL_OK);
  known(&w, 16, CR_INFL_SHORT);
  /* the same lengths sent with repeat codes 16, 17, 18 */
  dyn_valid(&d);
  d.nsyms = 0;
  d.syms[d.nsyms++] = 18 | (97 - 11) << 8;      /* 97 zeros */
  d.syms[d.nsyms++] = 3;                        /* 'a'..'d' */
  d.syms[d.nsyms++] = 3;
  d.syms[d.nsyms++] = 3;
  d.syms[d.nsyms++] = 4;
  d.syms[d.nsyms++] = 18 | (138 - 11) << 8;     /* zeros 101..238 */
  d.syms[d.nsyms++] = 17 | (7 - 3) << 8;        /* 239..245 */
  d.syms[d.nsyms++] = 17 | (10 - 3) << 8;       /* 246..255 */
  d.syms[d.nsyms++] = 4;                        /* 256 */
  d.syms[d.nsyms++] = 16 | 0 << 8;              /* 257..259 */
  d.syms[d.nsyms++] = 16 | 2 << 8;              /* 260..264 */
  d.syms[d.nsyms++] = 2;                        /* distance 0 */
  d.syms[d.nsyms++] = 16 | 0 << 8;              /* distances 1..3 */
  bw_init(&w);
  dyn_write(&w, &d);
  dyn_lit(&w, &d, 'd');
  dyn_match(&w, &d, 9, 1);
  dyn_lit(&w, &d, 256);
  expect_ok(w.b, bw_len(&w), 10, (const uint8_t *)"dddddddddd", 10);
  known(&w, 10, CR_INFL_OK);
}
END_TEST

/* One defect each in a dynamic header. */
START_TEST(test_io_inflate__dynamic_invalid) {
  dyn d;
  bw w;
  /* over-subscribed literal/length code: 'e' added at 3 bits */
  dyn_valid(&d);
  d.lens['e'] = 3;
  dyn_plain(&d);
  bw_init(&w);
  dyn_write(&w, &d);
  known(&w, 100, CR_INFL_BAD);
  /* incomplete literal/length code: no 'd' */
  dyn_valid(&d);
  d.lens['d'] = 0;
  dyn_plain(&d);
  bw_init(&w);
  dyn_write(&w, &d);
  dyn_lit(&w, &d, 'a');
  dyn_lit(&w, &d, 256);
  known(&w, 100, CR_INFL_BAD);
  /* over-subscribed and incomplete distance codes */
  dyn_valid(&d);
  d.lens[265] = 1;
  dyn_plain(&d);
  bw_init(&w);
  dyn_write(&w, &d);
  known(&w, 100, CR_INFL_BAD);
  dyn_valid(&d);
  d.lens[268] = 0;
  dyn_plain(&d);
  bw_init(&w);
  dyn_write(&w, &d);
  dyn_lit(&w, &d, 'a');
  dyn_lit(&w, &d, 256);
  known(&w, 100, CR_INFL_BAD);
  /* incomplete and over-subscribed code-length codes */
  dyn_valid(&d);
  d.pre[18] = 0;
  bw_init(&w);
  dyn_write(&w, &d);
  known(&w, 100, CR_INFL_BAD);
  dyn_valid(&d);
  d.pre[18] = 4;
  bw_init(&w);
  dyn_write(&w, &d);
  known(&w, 100, CR_INFL_BAD);
  dyn_valid(&d);
  memset(d.pre, 0, sizeof d.pre);
  d.nsyms = 0;
  bw_init(&w);
  dyn_write(&w, &d);
  put(&w, 0, 300);
  known(&w, 100, CR_INFL_BAD);
  /* code 16 first: the three zeros of symbols 0..2 sent as "repeat the
     previous length 3 times", the rest as it should be */
  dyn_valid(&d);
  d.syms[0] = 16;
  memmove(d.syms + 1, d.syms + 3, (d.nsyms - 3) * sizeof *d.syms);
  d.nsyms -= 2;
  bw_init(&w);
  dyn_write(&w, &d);
  dyn_lit(&w, &d, 'a');
  dyn_lit(&w, &d, 256);
  known(&w, 100, CR_INFL_BAD);
  dyn_valid(&d);                /* the control: 0, then 16 of 3 */
  d.syms[0] = 0;
  d.syms[1] = 16;
  memmove(d.syms + 2, d.syms + 4, (d.nsyms - 4) * sizeof *d.syms);
  d.nsyms -= 2;
  bw_init(&w);
  dyn_write(&w, &d);
  dyn_lit(&w, &d, 'a');
  dyn_lit(&w, &d, 256);
  known(&w, 1, CR_INFL_OK);
  /* repeats past the last length (the lengths before them complete the
     codes, so only the count is wrong): 16 of 3 with 2 lengths left, then
     with 5 distance codes, the last 0, 17 of 3 and 18 of 11 with 1 left */
  for (int k = 0; k < 4; k++) {
    dyn_lens(&d, 265, k ? 5 : 4);
    d.nsyms -= k ? 1 : 2;
    d.syms[d.nsyms++] = k == 0 ? 16 : k == 1 ? 17 : k == 2 ? 18 : 0;
    bw_init(&w);
    dyn_write(&w, &d);
    dyn_lit(&w, &d, 'a');
    dyn_lit(&w, &d, 256);
    known(&w, 1, k < 3 ? CR_INFL_BAD : CR_INFL_OK);   /* 3: the control */
  }
  /* a repeat that ends exactly at the last length is fine */
  dyn_valid(&d);
  d.nsyms -= 3;
  d.syms[d.nsyms++] = 16;
  bw_init(&w);
  dyn_write(&w, &d);
  dyn_lit(&w, &d, 'a');
  dyn_lit(&w, &d, 256);
  known(&w, 1, CR_INFL_OK);
  /* no end-of-block code: 256 of length 0, the code still complete */
  dyn_init(&d, 258, 1);
  d.lens['a'] = 1;
  d.lens['b'] = 2;
  d.lens[257] = 2;
  dyn_plain(&d);
  bw_init(&w);
  dyn_write(&w, &d);
  dyn_lit(&w, &d, 'a');
  dyn_lit(&w, &d, 'b');
  known(&w, 100, CR_INFL_BAD);
  known(&w, 1, CR_INFL_BAD);    /* refused before any output */
  /* 287 and 288 literal/length codes (HLIT 30, 31), 31 and 32 distance
     codes (HDIST 30, 31): refused even when the extra ones are unused */
  for (unsigned extra = 1; extra <= 2; extra++) {
    dyn_lens(&d, 286 + extra, 4);
    bw_init(&w);
    dyn_write(&w, &d);
    dyn_lit(&w, &d, 256);
    known(&w, 100, CR_INFL_BAD);
    dyn_lens(&d, 265, 30 + extra);
    bw_init(&w);
    dyn_write(&w, &d);
    dyn_lit(&w, &d, 256);
    known(&w, 100, CR_INFL_BAD);
  }
  /* the limits themselves: 286 and 30 */
  dyn_lens(&d, 286, 30);
  bw_init(&w);
  dyn_write(&w, &d);
  dyn_lit(&w, &d, 'c');
  dyn_lit(&w, &d, 256);
  known(&w, 1, CR_INFL_OK);
}
END_TEST

/* Incomplete codes zlib accepts: one code of one bit. */
START_TEST(test_io_inflate__one_bit_codes) {
  dyn d;
  bw w;
  /* literal/length: only the end of block; no distance code at all */
  dyn_init(&d, 257, 1);
  d.lens[256] = 1;
  dyn_plain(&d);
  bw_init(&w);
  dyn_write(&w, &d);
  put(&w, 0, 1);
  known(&w, 0, CR_INFL_OK);
  bw_init(&w);
  dyn_write(&w, &d);
  put(&w, 1, 1);                /* the other half */
  put(&w, 0, 8);
  known(&w, 10, CR_INFL_BAD);
  /* one distance code of one bit: 'A', length 3 at 1, end */
  dyn_init(&d, 258, 1);
  d.lens['A'] = 1;
  d.lens[256] = 2;
  d.lens[257] = 2;
  d.lens[258] = 1;
  dyn_plain(&d);
  bw_init(&w);
  dyn_write(&w, &d);
  dyn_lit(&w, &d, 'A');
  dyn_match(&w, &d, 3, 1);
  dyn_lit(&w, &d, 256);
  expect_ok(w.b, bw_len(&w), 4, (const uint8_t *)"AAAA", 4);
  known(&w, 4, CR_INFL_OK);
  known(&w, 3, CR_INFL_SHORT);
  bw_init(&w);
  dyn_write(&w, &d);
  dyn_lit(&w, &d, 'A');
  dyn_lit(&w, &d, 257);
  put(&w, 1, 1);                /* the unused distance code */
  dyn_lit(&w, &d, 256);
  known(&w, 4, CR_INFL_BAD);
  known(&w, 1, CR_INFL_BAD);
  /* no distance code at all: fine until a length needs one */
  dyn_init(&d, 258, 1);
  d.lens['A'] = 1;
  d.lens[256] = 2;
  d.lens[257] = 2;
  dyn_plain(&d);
  bw_init(&w);
  dyn_write(&w, &d);
  dyn_lit(&w, &d, 'A');
  dyn_lit(&w, &d, 256);
  known(&w, 1, CR_INFL_OK);
  bw_init(&w);
  dyn_write(&w, &d);
  dyn_lit(&w, &d, 'A');
  dyn_lit(&w, &d, 257);
  put(&w, 0, 16);
  known(&w, 4, CR_INFL_BAD);
  /* a single literal code of one bit: no end of block */
  dyn_init(&d, 257, 1);
  d.lens['A'] = 1;
  dyn_plain(&d);
  bw_init(&w);
  dyn_write(&w, &d);
  put(&w, 0, 8);
  known(&w, 8, CR_INFL_BAD);
  /* incomplete with two bits: refused */
  dyn_init(&d, 257, 1);
  d.lens[256] = 2;
  dyn_plain(&d);
  bw_init(&w);
  dyn_write(&w, &d);
  put(&w, 0, 8);
  known(&w, 8, CR_INFL_BAD);
}
END_TEST

/* Long codes (to 15 bits) go through subtables: a code with lengths
** 1, 2, ..., 14, 15, 15 over literals, and a distance code alike. */
START_TEST(test_io_inflate__long_codes) {
  dyn d;
  bw w;
  dyn_init(&d, 257 + 29, 30);
  /* literal/length lengths: 16 symbols at 1..15, 15 */
  static const unsigned syms[16] = {'e', 't', 'a', 256, 'o', 257, 'i', 'n',
                                    270, 's', 'h', 280, 'r', 285, 'd', 'l'};
  for (unsigned i = 0; i < 16; i++) {
    d.lens[syms[i]] = (uint8_t)(i < 15 ? i + 1 : 15);
    d.lens[d.nlen + i] = (uint8_t)(i < 15 ? i + 1 : 15);
  }
  dyn_plain(&d);
  bw_init(&w);
  dyn_write(&w, &d);
  uint8_t want[4000];
  size_t n = 0;
  static const char lits[] = "etaoinshrdl";
  for (int rep = 0; rep < 30; rep++)
    for (const char *p = lits; *p; p++) {
      dyn_lit(&w, &d, (uint8_t)*p);
      want[n++] = (uint8_t)*p;
    }
  /* matches with every distance symbol that has a code */
  for (unsigned ds = 0; ds < 16; ds++) {
    unsigned dist = dbase[ds];
    if (dist > n) break;
    unsigned len = ds % 2 ? 258 : 3;
    dyn_lit(&w, &d, len == 258 ? 285 : 257);
    put_code(&w, d.dcode[ds], d.lens[d.nlen + ds]);
    put(&w, 0, dext[ds]);
    for (unsigned i = 0; i < len; i++, n++) want[n] = want[n - dist];
  }
  dyn_lit(&w, &d, 256);
  expect_ok(w.b, bw_len(&w), n, want, n);
  known(&w, n, CR_INFL_OK);
  known(&w, n - 1, CR_INFL_SHORT);
}
END_TEST

/* Overlapping matches: distances 1..40, lengths 3..258, copied in the
** fast loop (room and input to spare) and at the very end. */
START_TEST(test_io_inflate__overlap) {
  uint8_t want[400];
  for (unsigned dist = 1; dist <= 40; dist++) {
    for (unsigned len = 3; len <= 258; len += len < 40 ? 1 : 17) {
      for (int tail = 0; tail < 2; tail++) {
        bw w;
        bw_init(&w);
        put(&w, 3, 3);
        size_t n = 0;
        for (unsigned i = 0; i < dist; i++) {
          want[n] = (uint8_t)('A' + i);
          fixed_sym(&w, want[n++]);
        }
        fixed_match(&w, len, dist);
        for (unsigned i = 0; i < len; i++, n++) want[n] = want[n - dist];
        if (tail)               /* 40 literals more: the match goes fast */
          for (unsigned i = 0; i < 40; i++) {
            want[n] = (uint8_t)i;
            fixed_sym(&w, want[n++]);
          }
        fixed_sym(&w, 256);
        expect_ok(w.b, bw_len(&w), n, want, n);
        expect_ok(w.b, bw_len(&w), n + 300, want, n);
        ck_assert_int_eq(agree(w.b, bw_len(&w), n), CR_INFL_OK);
        ck_assert_int_eq(ours(w.b, bw_len(&w), n - 1), CR_INFL_SHORT);
      }
    }
  }
}
END_TEST

/* Bit flips, cuts and random capacities on valid streams: zlib's result. */
START_TEST(test_io_inflate__mutations) {
  uint8_t src[6000];
  rng = 2024;
  int bad = 0, ok = 0, shrt = 0;
  for (int round = 0; round < 400; round++) {
    size_t n = 1 + rnd() % sizeof src;
    fill(src, n, (int)(rnd() % 5));
    size_t zlen;
    uint8_t *z = zdeflate(src, n, levels[rnd() % 4], strategies[rnd() % 5],
                          0, &zlen);
    for (int m = 0; m < 25; m++) {
      uint8_t *p = malloc(zlen);
      memcpy(p, z, zlen);
      int flips = 1 + (int)(rnd() % 3);
      while (flips--) p[rnd() % zlen] ^= (uint8_t)(1u << (rnd() % 8));
      size_t cut = rnd() % 4 ? zlen : rnd() % zlen;
      size_t cap = rnd() % 3 ? n : rnd() % (2 * n + 1);
      int r = agree(p, cut, cap);
      bad += r == CR_INFL_BAD;
      ok += r == CR_INFL_OK;
      shrt += r == CR_INFL_SHORT;
      free(p);
    }
    free(z);
  }
  /* the mix is real: every outcome occurs */
  ck_assert_int_gt(bad, 100);
  ck_assert_int_gt(ok, 100);
  ck_assert_int_gt(shrt, 100);
}
END_TEST

/* Every class of JDK 17's java.base, read through cr_input, deflated by
** zlib at levels 1, 6 and 9 (one each in turn) and inflated again. */
START_TEST(test_io_inflate__jdk_classes) {
  if (access(BASE_JMOD, R_OK) != 0) {
    printf("%s missing: skipping the JDK classes\n", BASE_JMOD);
    return;
  }
  cr_diag d;
  cr_diag_clear(&d);
  cr_input *in;
  ck_assert_int_eq(cr_input_open(&in, BASE_JMOD, &d), 0);
  size_t count = cr_input_count(in), done = 0;
  ck_assert_uint_gt(count, 1000);
  uint8_t *out = NULL;
  size_t outcap = 0;
  for (size_t i = 0; i < count; i++) {
    uint8_t *b;
    size_t n;
    ck_assert_int_eq(cr_input_read(in, i, &b, &n, &d), 0);
    size_t zlen;
    uint8_t *z = zdeflate(b, n, levels[1 + i % 3], Z_DEFAULT_STRATEGY, 0,
                          &zlen);
    if (n > outcap) {
      outcap = 2 * n;
      out = realloc(out, outcap);
      ck_assert_ptr_nonnull(out);
    }
    size_t got;
    ck_assert_int_eq(cr_io__inflate(out, n, &got, z, zlen), CR_INFL_OK);
    ck_assert_uint_eq(got, n);
    ck_assert_mem_eq(out, b, n);
    if (n) ck_assert_int_eq(cr_io__inflate(out, n - 1, &got, z, zlen),
                            CR_INFL_SHORT);
    free(z);
    cr_free(b);
    done++;
  }
  ck_assert_uint_eq(done, count);
  free(out);
  cr_input_close(in);
}
END_TEST

/* Four threads inflate at once (no shared state to trip over). */
typedef struct job {
  const uint8_t *z, *want;
  size_t zlen, n;
  int fails;
} job;

static void *run_job(void *arg) {
  job *j = arg;
  uint8_t *out = malloc(j->n);
  for (int i = 0; i < 200 && out; i++) {
    size_t got;
    if (cr_io__inflate(out, j->n, &got, j->z, j->zlen) != CR_INFL_OK ||
        got != j->n || memcmp(out, j->want, j->n))
      j->fails++;
  }
  free(out);
  return NULL;
}

START_TEST(test_io_inflate__threads) {
  enum { NT = 4 };
  static uint8_t src[NT][20000];
  job jobs[NT];
  pthread_t th[NT];
  for (int t = 0; t < NT; t++) {
    rng = 31u + (uint32_t)t;
    fill(src[t], sizeof src[t], t);
    jobs[t].want = src[t];
    jobs[t].n = sizeof src[t];
    jobs[t].z = zdeflate(src[t], sizeof src[t], levels[t], strategies[t], 0,
                         &jobs[t].zlen);
    jobs[t].fails = 0;
  }
  for (int t = 0; t < NT; t++)
    ck_assert_int_eq(pthread_create(&th[t], NULL, run_job, &jobs[t]), 0);
  for (int t = 0; t < NT; t++) {
    pthread_join(th[t], NULL);
    ck_assert_int_eq(jobs[t].fails, 0);
    free((void *)jobs[t].z);
  }
}
END_TEST

int main(void) {
  Suite *s = suite_create("io_inflate");
  TCase *tc = tcase_create("inflate");
  tcase_set_timeout(tc, 300);
  tcase_add_test(tc, test_io_inflate__roundtrip);
  tcase_add_test(tc, test_io_inflate__block_mix);
  tcase_add_test(tc, test_io_inflate__empty);
  tcase_add_test(tc, test_io_inflate__capacity);
  tcase_add_test(tc, test_io_inflate__truncated);
  tcase_add_test(tc, test_io_inflate__stored);
  tcase_add_test(tc, test_io_inflate__block_type_3);
  tcase_add_test(tc, test_io_inflate__fixed);
  tcase_add_test(tc, test_io_inflate__distance_too_far);
  tcase_add_test(tc, test_io_inflate__distance_32768);
  tcase_add_test(tc, test_io_inflate__dynamic_valid);
  tcase_add_test(tc, test_io_inflate__dynamic_invalid);
  tcase_add_test(tc, test_io_inflate__one_bit_codes);
  tcase_add_test(tc, test_io_inflate__long_codes);
  tcase_add_test(tc, test_io_inflate__overlap);
  tcase_add_test(tc, test_io_inflate__mutations);
  tcase_add_test(tc, test_io_inflate__jdk_classes);
  tcase_add_test(tc, test_io_inflate__threads);
  suite_add_tcase(s, tc);
  SRunner *sr = srunner_create(s);
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  cr_io_release_caches();
  return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
