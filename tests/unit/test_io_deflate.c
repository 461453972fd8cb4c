/*
** test_io_deflate.c -- the raw DEFLATE compressor (src/io/deflate.c, RFC
** 1951), judged by zlib's inflate: round trips of varied data, block
** types, block and segment boundaries, the window edge, output capacity,
** determinism, JDK classes against zlib level 1, allocation failure.
*/
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "cccp/io.h"
#include "testutil.h"
#include "../../src/io/deflate.h"

#define BASE_JMOD TU_JDK "/java.base.jmod"
#define GUARD 64                /* bytes checked past the capacity */
#define BLOCK 32764             /* items per block of deflate.c */

/* ---- helpers ---- */

static uint32_t rng = 1;

static uint32_t rnd(void) {   /* xorshift32 */
  rng ^= rng << 13;
  rng ^= rng >> 17;
  rng ^= rng << 5;
  return rng;
}

static uint8_t *xmalloc(size_t n) {
  uint8_t *p = malloc(n ? n : 1);
  ck_assert_ptr_nonnull(p);
  return p;
}

/* 'n' random bytes: incompressible. */
static uint8_t *random_bytes(size_t n) {
  uint8_t *p = xmalloc(n);
  for (size_t i = 0; i < n; i++) p[i] = (uint8_t)(rnd() >> 11);
  return p;
}

/* Words of a small vocabulary, spaces and the odd newline. */
static void fill_text(uint8_t *p, size_t n) {
  static const char *const words[] = {
    "the", "class", "method", "invokevirtual", "java/lang/Object",
    "constant", "pool", "of", "a", "frame", "StackMapTable", "Code",
    "<init>", "()V", "Ljava/lang/String;", "return", "value", "and"};
  size_t i = 0;
  while (i < n) {
    const char *w = words[rnd() % (sizeof words / sizeof *words)];
    while (*w && i < n) p[i++] = (uint8_t)*w++;
    if (i < n) p[i++] = rnd() % 13 ? ' ' : '\n';
  }
}

/* Runs of one byte, of random lengths up to 'maxrun'. */
static void fill_runs(uint8_t *p, size_t n, size_t maxrun) {
  size_t i = 0;
  while (i < n) {
    size_t r = 1 + rnd() % maxrun;
    uint8_t b = (uint8_t)rnd();
    while (r-- && i < n) p[i++] = b;
  }
}

/* Class-file-like bytes: records of tags, u2 indexes and short names. */
static void fill_binary(uint8_t *p, size_t n) {
  size_t i = 0;
  while (i < n) {
    switch (rnd() % 4) {
    case 0:
      p[i++] = 7;
      if (i < n) p[i++] = 0;
      if (i < n) p[i++] = (uint8_t)(rnd() % 40);
      break;
    case 1:
      fill_text(p + i, n - i < 12 ? n - i : 12);
      i += n - i < 12 ? n - i : 12;
      break;
    case 2:
      p[i++] = (uint8_t)(0xb6 + rnd() % 3);
      if (i < n) p[i++] = 0;
      if (i < n) p[i++] = (uint8_t)rnd();
      break;
    default:
      p[i++] = (uint8_t)rnd();
    }
  }
}

/*
** Check that the 'clen' bytes at 'c' are exactly one raw deflate stream
** that zlib inflates to the 'n' bytes at 'src'.
*/
static void check_inflates(const uint8_t *c, size_t clen, const uint8_t *src,
                           size_t n) {
  z_stream s;
  memset(&s, 0, sizeof s);
  ck_assert_int_eq(inflateInit2(&s, -15), Z_OK);
  uint8_t *back = xmalloc(n + 1);
  s.next_in = (Bytef *)c;
  s.avail_in = (uInt)clen;
  s.next_out = back;
  s.avail_out = (uInt)(n + 1);
  int zr = inflate(&s, Z_FINISH);
  ck_assert_msg(zr == Z_STREAM_END, "zlib inflate: %d (%s) on %zu bytes",
                zr, s.msg ? s.msg : "", n);
  ck_assert_uint_eq(s.total_in, clen);      /* nothing after the end */
  ck_assert_uint_eq(s.total_out, n);
  ck_assert(n == 0 || memcmp(back, src, n) == 0);
  inflateEnd(&s);
  free(back);
}

/*
** Compress 'src' with room 'cap' into a fresh block with GUARD bytes of
** 0xA5 after it; check that the guard is intact and return the result's
** size (0: did not fit). The block is returned in '*out' (free it).
*/
static size_t pack(cr_deflater *z, const uint8_t *src, size_t n, size_t cap,
                   uint8_t **out) {
  uint8_t *o = xmalloc(cap + GUARD);
  memset(o, 0xA5, cap + GUARD);
  size_t c = cr_io__deflate(z, o, cap, src, n);
  ck_assert_uint_le(c, cap);
  for (size_t i = cap; i < cap + GUARD; i++)
    ck_assert_msg(o[i] == 0xA5, "byte %zu past a capacity of %zu written",
                  i - cap, cap);
  *out = o;
  return c;
}

/*
** The checks every input gets: with room for a stored copy it must fit
** and inflate back; with room 'n' (as the jar writer gives) it either
** does not fit or gives the same bytes. Returns the compressed size.
*/
static size_t roundtrip(cr_deflater *z, const uint8_t *src, size_t n) {
  uint8_t *a, *b;
  size_t ca = pack(z, src, n, n + n / 8 + 64, &a);
  ck_assert_msg(ca > 0, "%zu bytes do not fit in %zu", n, n + n / 8 + 64);
  check_inflates(a, ca, src, n);
  size_t cb = pack(z, src, n, n, &b);
  if (cb) {
    ck_assert_uint_eq(cb, ca);
    ck_assert(memcmp(a, b, ca) == 0);
  } else {
    ck_assert_uint_ge(ca, n);
  }
  free(a);
  free(b);
  return ca;
}

/* The block type (0 stored, 1 fixed, 2 dynamic) of the first block. */
static int first_btype(cr_deflater *z, const uint8_t *src, size_t n) {
  uint8_t *o;
  size_t c = pack(z, src, n, n + n / 8 + 64, &o);
  ck_assert_uint_gt(c, 0);
  int t = (o[0] >> 1) & 3;
  free(o);
  return t;
}

static cr_deflater *new_deflater(void) {
  cr_deflater *z = cr_io__deflater_new();
  ck_assert_ptr_nonnull(z);
  return z;
}

/* ---- tests ---- */

START_TEST(test_io_deflate__empty) {
  cr_deflater *z = new_deflater();
  uint8_t out[4] = {0xA5, 0xA5, 0xA5, 0xA5};
  ck_assert_uint_eq(cr_io__deflate(z, out, 4, (const uint8_t *)"", 0), 2);
  check_inflates(out, 2, NULL, 0);
  ck_assert_uint_eq(out[2], 0xA5);
  ck_assert_uint_eq(cr_io__deflate(z, out, 1, (const uint8_t *)"", 0), 0);
  ck_assert_uint_eq(cr_io__deflate(z, out, 0, (const uint8_t *)"", 0), 0);
  roundtrip(z, (const uint8_t *)"", 0);
  cr_io__deflater_free(z);
}
END_TEST

/* Every 1-byte input, and short ones of every length up to 64. */
START_TEST(test_io_deflate__tiny) {
  cr_deflater *z = new_deflater();
  for (unsigned b = 0; b < 256; b++) {
    uint8_t in = (uint8_t)b;
    ck_assert_uint_eq(roundtrip(z, &in, 1), 3);     /* fixed: 3+8+7 bits */
    uint8_t *o;
    ck_assert_uint_eq(pack(z, &in, 1, 1, &o), 0);
    free(o);
  }
  uint8_t buf[64];
  for (size_t n = 1; n <= sizeof buf; n++) {
    fill_text(buf, n);
    roundtrip(z, buf, n);
    memset(buf, 'x', n);
    roundtrip(z, buf, n);
    for (size_t i = 0; i < n; i++) buf[i] = (uint8_t)(i % 5);
    roundtrip(z, buf, n);
  }
  uint8_t one = 'a';
  ck_assert_int_eq(first_btype(z, &one, 1), 1);
  cr_io__deflater_free(z);
}
END_TEST

START_TEST(test_io_deflate__text_and_binary) {
  cr_deflater *z = new_deflater();
  size_t sizes[] = {100, 1000, 3000, 6000, 20000, 100000, 300000};
  for (size_t k = 0; k < sizeof sizes / sizeof *sizes; k++) {
    size_t n = sizes[k];
    uint8_t *p = xmalloc(n);
    fill_text(p, n);
    size_t c = roundtrip(z, p, n);
    ck_assert_msg(c < (n >= 1000 ? n / 2 : n), "text: %zu bytes to %zu", n,
                  c);
    if (n >= 1000) ck_assert_int_eq(first_btype(z, p, n), 2);
    fill_binary(p, n);
    c = roundtrip(z, p, n);
    ck_assert_msg(c < n, "binary: %zu bytes to %zu", n, c);
    free(p);
  }
  cr_io__deflater_free(z);
}
END_TEST

START_TEST(test_io_deflate__runs) {
  cr_deflater *z = new_deflater();
  size_t maxruns[] = {3, 4, 5, 10, 300, 1000};
  for (size_t k = 0; k < sizeof maxruns / sizeof *maxruns; k++) {
    size_t n = 200000;
    uint8_t *p = xmalloc(n);
    fill_runs(p, n, maxruns[k]);
    roundtrip(z, p, n);
    free(p);
  }
  size_t n = (size_t)1 << 20;
  uint8_t *zero = calloc(n, 1);
  ck_assert_ptr_nonnull(zero);
  size_t c = roundtrip(z, zero, n);
  ck_assert_msg(c < n / 500, "1 MiB of zeros to %zu bytes", c);
  for (size_t i = 0; i < n; i++) zero[i] = (uint8_t)(i % 3);
  c = roundtrip(z, zero, n);
  ck_assert_msg(c < n / 100, "1 MiB of 0 1 2 to %zu bytes", c);
  free(zero);
  cr_io__deflater_free(z);
}
END_TEST

/* Random bytes: no gain, so no fit in 'len'; stored with more room. */
START_TEST(test_io_deflate__incompressible) {
  cr_deflater *z = new_deflater();
  size_t sizes[] = {1, 2, 5, 100, 4096, 65535, 65536, 70000, 300000};
  for (size_t k = 0; k < sizeof sizes / sizeof *sizes; k++) {
    size_t n = sizes[k];
    uint8_t *p = random_bytes(n), *o;
    ck_assert_uint_eq(pack(z, p, n, n, &o), 0);
    free(o);
    size_t c = roundtrip(z, p, n);
    /* stored: 5 bytes a block, blocks of at most BLOCK bytes */
    ck_assert_uint_le(c, n + 5 * (n / BLOCK + 1));
    if (n >= 100) ck_assert_int_eq(first_btype(z, p, n), 0);
    free(p);
  }
  cr_io__deflater_free(z);
}
END_TEST

/* Lengths around the ends of blocks (one item a byte when random). */
START_TEST(test_io_deflate__block_boundaries) {
  cr_deflater *z = new_deflater();
  for (size_t m = 1; m <= 3; m++) {
    for (size_t n = m * BLOCK - 5; n <= m * BLOCK + 5; n++) {
      uint8_t *p = random_bytes(n);
      roundtrip(z, p, n);
      /* text at the end: a compressed block after stored ones */
      fill_text(p + n / 2, n - n / 2);
      roundtrip(z, p, n);
      fill_runs(p, n, 7);
      roundtrip(z, p, n);
      free(p);
    }
  }
  cr_io__deflater_free(z);
}
END_TEST

/*
** Literals whose unlimited Huffman code would be longer than 15 bits:
** bytes 0..'alpha'-1 at random (no 4-byte repeats to speak of) and 13
** more with the counts 2, 3, 5, 8, ... (a Fibonacci chain, plus the end
** of block once), shuffled; one block. The cut code must still be
** complete and decode.
*/
START_TEST(test_io_deflate__long_codes) {
  cr_deflater *z = new_deflater();
  unsigned alphas[] = {180, 200};
  size_t bgs[] = {29000, 30000};
  for (int v = 0; v < 4; v++) {
    rng = 1;
    unsigned alpha = alphas[v & 1];
    size_t nbg = bgs[v >> 1], n = nbg;
    unsigned cnt[13], a = 2, b = 3;
    for (int i = 0; i < 13; i++) {
      cnt[i] = a;
      n += a;
      unsigned c = a + b;
      a = b;
      b = c;
    }
    uint8_t *p = xmalloc(n);
    size_t k = 0;
    for (size_t i = 0; i < nbg; i++) p[k++] = (uint8_t)(rnd() % alpha);
    for (int i = 0; i < 13; i++)
      for (unsigned j = 0; j < cnt[i]; j++) p[k++] = (uint8_t)(alpha + i);
    for (size_t i = n - 1; i > 0; i--) {
      size_t j = rnd() % (i + 1);
      uint8_t t = p[i];
      p[i] = p[j];
      p[j] = t;
    }
    ck_assert_uint_lt(n, BLOCK);
    roundtrip(z, p, n);
    free(p);
  }
  cr_io__deflater_free(z);
}
END_TEST

/* Matches at the window's edge: distance 32768 is allowed, 32769 not. */
START_TEST(test_io_deflate__window) {
  cr_deflater *z = new_deflater();
  for (size_t d = 32760; d <= 32776; d++) {
    size_t n = d + 20000;
    uint8_t *p = random_bytes(n);
    memcpy(p + d, p, n - d);            /* p[i] == p[i - d] from d on */
    size_t c = roundtrip(z, p, n);
    if (d <= 32768)
      ck_assert_msg(c < d + 2000, "distance %zu: %zu bytes", d, c);
    else
      ck_assert_msg(c > n - 100, "distance %zu used: %zu bytes", d, c);
    free(p);
  }
  cr_io__deflater_free(z);
}
END_TEST

/* 4 MiB of everything in turns; then 24 MiB, past several segments. */
START_TEST(test_io_deflate__large) {
  cr_deflater *z = new_deflater();
  size_t n = (size_t)4 << 20;
  uint8_t *p = xmalloc(n);
  for (size_t i = 0; i < n;) {
    size_t r = 1 + rnd() % 100000;
    if (r > n - i) r = n - i;
    switch (rnd() % 5) {
    case 0: fill_text(p + i, r); break;
    case 1: fill_binary(p + i, r); break;
    case 2: fill_runs(p + i, r, 50); break;
    case 3: memset(p + i, 0, r); break;
    default:
      for (size_t j = 0; j < r; j++) p[i + j] = (uint8_t)(rnd() >> 7);
    }
    i += r;
  }
  size_t c = roundtrip(z, p, n);
  ck_assert_uint_lt(c, n);
  free(p);
  n = (size_t)24 << 20;
  p = xmalloc(n);
  fill_binary(p, n);
  c = roundtrip(z, p, n);
  ck_assert_uint_lt(c, n / 2);
  /* segments are cut where the input says, whatever the deflater did */
  cr_deflater *fresh = new_deflater();
  uint8_t *a, *b;
  ck_assert_uint_eq(pack(fresh, p, n, n, &a), c);
  ck_assert_uint_eq(pack(z, p, n, n, &b), c);
  ck_assert(memcmp(a, b, c) == 0);
  free(a);
  free(b);
  cr_io__deflater_free(fresh);
  free(p);
  cr_io__deflater_free(z);
}
END_TEST

/*
** Room for fewer bytes than the result: 0 and nothing written past the
** room; room for exactly the result: the same bytes.
*/
START_TEST(test_io_deflate__capacity) {
  cr_deflater *z = new_deflater();
  size_t sizes[] = {1, 10, 300, 3000, 70000};
  for (size_t k = 0; k < sizeof sizes / sizeof *sizes; k++) {
    size_t n = sizes[k];
    uint8_t *p = xmalloc(n), *full, *o;
    fill_binary(p, n);
    size_t c = pack(z, p, n, n + n / 8 + 64, &full);
    ck_assert_uint_gt(c, 0);
    size_t step = c > 1000 ? c / 97 : 1;
    for (size_t cap = 0; cap < c; cap += step) {
      ck_assert_uint_eq(pack(z, p, n, cap, &o), 0);
      free(o);
    }
    for (size_t cap = c > 10 ? c - 10 : 0; cap < c; cap++) {
      ck_assert_uint_eq(pack(z, p, n, cap, &o), 0);
      free(o);
    }
    ck_assert_uint_eq(pack(z, p, n, c, &o), c);
    ck_assert(memcmp(o, full, c) == 0);
    free(o);
    free(full);
    free(p);
  }
  cr_io__deflater_free(z);
}
END_TEST

/*
** A call that runs out of room has filled the hash table as far as it
** got: the next call, on a shorter input, must not take those entries
** for its own (reading before its input) nor differ from a fresh start.
*/
START_TEST(test_io_deflate__after_no_room) {
  cr_deflater *z = new_deflater(), *fresh = new_deflater();
  size_t n = 100000;
  uint8_t *big = xmalloc(n), *o, *f;
  fill_text(big, n);
  for (size_t m = 1; m <= 40000; m = m * 3 + 1) {
    ck_assert_uint_eq(pack(z, big, n, 200, &o), 0);
    free(o);
    uint8_t *p = xmalloc(m);
    fill_binary(p, m);
    size_t c = pack(z, p, m, m + m / 8 + 64, &o);
    ck_assert_uint_gt(c, 0);
    check_inflates(o, c, p, m);
    ck_assert_uint_eq(pack(fresh, p, m, m + m / 8 + 64, &f), c);
    ck_assert(memcmp(o, f, c) == 0);
    free(o);
    free(f);
    free(p);
  }
  free(big);
  cr_io__deflater_free(fresh);
  cr_io__deflater_free(z);
}
END_TEST

/*
** The same input gives the same bytes whatever the deflater did before:
** fresh, reused, and after enough calls that its position values wrap.
*/
START_TEST(test_io_deflate__determinism) {
  size_t n = 50000;
  uint8_t *p = xmalloc(n), *ref, *o;
  fill_binary(p, n);
  cr_deflater *z = new_deflater();
  size_t c = pack(z, p, n, n, &ref);
  ck_assert_uint_gt(c, 0);
  check_inflates(ref, c, p, n);
  for (int k = 0; k < 3; k++) {
    ck_assert_uint_eq(pack(z, p, n, n, &o), c);
    ck_assert(memcmp(o, ref, c) == 0);
    free(o);
    /* something else in between: random, then part of the same */
    uint8_t *q = random_bytes(1000);
    ck_assert_uint_gt(pack(z, q, 1000, 2000, &o), 0);
    free(o);
    free(q);
    ck_assert_uint_gt(pack(z, p + 1000 * k, n / 2, n, &o), 0);
    free(o);
  }
  cr_deflater *z2 = new_deflater();
  ck_assert_uint_eq(pack(z2, p, n, n, &o), c);
  ck_assert(memcmp(o, ref, c) == 0);
  free(o);
  /* every call moves the position values on by more than the window:
     70000 calls pass 2^31 */
  uint8_t small[64];
  fill_text(small, sizeof small);
  uint8_t sout[128];
  for (long i = 0; i < 70000; i++) {
    size_t sc = cr_io__deflate(z2, sout, sizeof sout, small, sizeof small);
    ck_assert_uint_gt(sc, 0);
    if (i % 10000 == 0) {
      ck_assert_uint_eq(pack(z2, p, n, n, &o), c);
      ck_assert(memcmp(o, ref, c) == 0);
      free(o);
    }
  }
  ck_assert_uint_eq(pack(z2, p, n, n, &o), c);
  ck_assert(memcmp(o, ref, c) == 0);
  free(o);
  cr_io__deflater_free(z2);
  cr_io__deflater_free(z);
  free(ref);
  free(p);
}
END_TEST

/*
** Every class of java.base: inflates back, and in total (stored entries
** counted at their size, as in a jar) no larger than zlib level 1.
*/
START_TEST(test_io_deflate__jdk_classes) {
  if (access(BASE_JMOD, R_OK) != 0) {
    printf("%s missing: skipping the JDK classes\n", BASE_JMOD);
    return;
  }
  cr_diag d;
  cr_diag_clear(&d);
  cr_input *in;
  ck_assert_int_eq(cr_input_open(&in, BASE_JMOD, &d), 0);
  cr_deflater *z = new_deflater();
  z_stream s;
  memset(&s, 0, sizeof s);
  ck_assert_int_eq(deflateInit2(&s, 1, Z_DEFLATED, -15, 8,
                                Z_DEFAULT_STRATEGY), Z_OK);
  size_t nclass = 0, total = 0, ours = 0, zlib1 = 0;
  for (size_t i = 0; i < cr_input_count(in); i++) {
    cr_entry_info e;
    cr_input_info(in, i, &e);
    size_t l = strlen(e.name);
    if (e.is_dir || l < 6 || strcmp(e.name + l - 6, ".class")) continue;
    uint8_t *data, *o;
    size_t n;
    ck_assert_int_eq(cr_input_read(in, i, &data, &n, &d), 0);
    size_t c = pack(z, data, n, n, &o);
    if (c) check_inflates(o, c, data, n);
    ours += c ? c : n;
    deflateReset(&s);
    s.next_in = data;
    s.avail_in = (uInt)n;
    s.next_out = o;
    s.avail_out = (uInt)n;
    int zr = deflate(&s, Z_FINISH);
    zlib1 += zr == Z_STREAM_END && s.total_out < n ? s.total_out : n;
    free(o);
    cr_free(data);
    total += n;
    nclass++;
  }
  printf("java.base: %zu classes, %zu bytes: ours %zu, zlib-1 %zu\n",
         nclass, total, ours, zlib1);
  ck_assert_uint_gt(nclass, 1000);
  ck_assert_uint_le(ours, zlib1);
  deflateEnd(&s);
  cr_io__deflater_free(z);
  cr_input_close(in);
}
END_TEST

/* The one allocation of a deflater fails: NULL, and nothing leaks. */
START_TEST(test_io_deflate__oom) {
  cr_alloc_fail_after(0);
  cr_deflater *z = cr_io__deflater_new();
  cr_alloc_fail_after(-1);
  ck_assert_ptr_null(z);
  z = new_deflater();
  cr_io__deflater_free(z);
  cr_io__deflater_free(NULL);
}
END_TEST

int main(void) {
  Suite *s = suite_create("io_deflate");
  TCase *tc = tcase_create("deflate");
  tcase_set_timeout(tc, 300);
  tcase_add_test(tc, test_io_deflate__empty);
  tcase_add_test(tc, test_io_deflate__tiny);
  tcase_add_test(tc, test_io_deflate__text_and_binary);
  tcase_add_test(tc, test_io_deflate__runs);
  tcase_add_test(tc, test_io_deflate__incompressible);
  tcase_add_test(tc, test_io_deflate__block_boundaries);
  tcase_add_test(tc, test_io_deflate__long_codes);
  tcase_add_test(tc, test_io_deflate__window);
  tcase_add_test(tc, test_io_deflate__large);
  tcase_add_test(tc, test_io_deflate__capacity);
  tcase_add_test(tc, test_io_deflate__after_no_room);
  tcase_add_test(tc, test_io_deflate__determinism);
  tcase_add_test(tc, test_io_deflate__jdk_classes);
  tcase_add_test(tc, test_io_deflate__oom);
  suite_add_tcase(s, tc);
  SRunner *sr = srunner_create(s);
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  cr_io_release_caches();
  return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
