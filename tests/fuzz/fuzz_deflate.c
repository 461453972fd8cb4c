/*
** fuzz_deflate.c -- fuzz target: cr_io__deflate (src/io/deflate.c), judged
** by zlib's raw inflate (RFC 1951). The input is compressed with room for
** a stored copy (len + len/8 + 64: must fit), with room 'len' (as the jar
** writer gives: must fit exactly when the first result does) and with
** one byte less than the first result (must not fit); then the last third
** alone, then the whole again (the same bytes). Input and outputs
** are heap blocks of exactly their size, so ASan sees any access past
** them. The deflater is reused across inputs, as in the jar writer, and
** must not carry anything from one input to the next.
*/
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "fuzz.h"
#include "../../src/io/deflate.h"

int fuzz_deflate(const uint8_t *data, size_t size);

static cr_deflater *z;

/* zlib must inflate the 'clen' bytes at 'c' to exactly 'src'. */
static void check_inflates(const uint8_t *c, size_t clen, const uint8_t *src,
                           size_t n) {
  z_stream s;
  memset(&s, 0, sizeof s);
  FUZZ_CHECK(inflateInit2(&s, -15) == Z_OK, "inflateInit2 failed");
  uint8_t *back = malloc(n + 1);
  FUZZ_CHECK(back != NULL, "out of memory");
  s.next_in = (Bytef *)c;
  s.avail_in = (uInt)clen;
  s.next_out = back;
  s.avail_out = (uInt)(n + 1);
  int zr = inflate(&s, Z_FINISH);
  FUZZ_CHECK(zr == Z_STREAM_END, "zlib inflate says %d (%s) on the %zu "
             "bytes made of %zu", zr, s.msg ? s.msg : "", clen, n);
  FUZZ_CHECK(s.total_in == clen, "stream ends at %lu of %zu bytes",
             s.total_in, clen);
  FUZZ_CHECK(s.total_out == n, "inflates to %lu bytes, not %zu",
             s.total_out, n);
  FUZZ_CHECK(n == 0 || memcmp(back, src, n) == 0, "inflates to other bytes");
  inflateEnd(&s);
  free(back);
}

int fuzz_deflate(const uint8_t *data, size_t size) {
  if (!z && !(z = cr_io__deflater_new())) return 0;
  uint8_t *in = malloc(size ? size : 1);
  FUZZ_CHECK(in != NULL, "out of memory");
  memcpy(in, data, size);
  size_t bigcap = size + size / 8 + 64;
  uint8_t *big = malloc(bigcap);
  FUZZ_CHECK(big != NULL, "out of memory");
  size_t c = cr_io__deflate(z, big, bigcap, in, size);
  FUZZ_CHECK(c > 0 && c <= bigcap, "%zu bytes give %zu with room %zu", size,
             c, bigcap);
  check_inflates(big, c, in, size);

  uint8_t *tight = malloc(size ? size : 1);
  FUZZ_CHECK(tight != NULL, "out of memory");
  size_t c2 = cr_io__deflate(z, tight, size, in, size);
  if (c <= size)
    FUZZ_CHECK(c2 == c && memcmp(tight, big, c) == 0,
               "room %zu: %zu bytes, not the %zu bytes of room %zu", size,
               c2, c, bigcap);
  else
    FUZZ_CHECK(c2 == 0, "room %zu: %zu bytes, but %zu needed", size, c2, c);
  free(tight);

  uint8_t *less = malloc(c - 1 ? c - 1 : 1);
  FUZZ_CHECK(less != NULL, "out of memory");
  size_t c3 = cr_io__deflate(z, less, c - 1, in, size);
  FUZZ_CHECK(c3 == 0, "room %zu: %zu bytes, but %zu needed", c - 1, c3, c);
  free(less);

  /* after giving up: a shorter input, then this one again, the same */
  size_t n4 = size / 3, cap4 = n4 + n4 / 8 + 64;
  uint8_t *part = malloc(cap4);
  FUZZ_CHECK(part != NULL, "out of memory");
  size_t c4 = cr_io__deflate(z, part, cap4, in + size - n4, n4);
  FUZZ_CHECK(c4 > 0, "%zu bytes give 0 with room %zu", n4, cap4);
  check_inflates(part, c4, in + size - n4, n4);
  free(part);
  uint8_t *again = malloc(bigcap);
  FUZZ_CHECK(again != NULL, "out of memory");
  size_t c5 = cr_io__deflate(z, again, bigcap, in, size);
  FUZZ_CHECK(c5 == c && memcmp(again, big, c) == 0,
             "the same %zu bytes give %zu bytes, then %zu or others", size,
             c, c5);
  free(again);

  free(big);
  free(in);
  return 0;
}
