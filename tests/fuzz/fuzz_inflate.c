/*
** fuzz_inflate.c -- fuzz target: cr_io__inflate (src/io/inflate.c) against
** zlib's raw inflate (RFC 1951). Input: the output capacity (u2, little
** endian), then the deflate stream. Both decoders get exactly that much
** room (a heap block of that size, so ASan sees any write past it) and
** must agree on the result, and on the bytes when it is OK.
*/
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "../zverdict.h"
#include "fuzz.h"

static const char *const names[] = {"OK", "BAD", "SHORT"};

int fuzz_inflate(const uint8_t *data, size_t size) {
  if (size < 2) return 0;
  size_t cap = data[0] | (size_t)data[1] << 8, n = size - 2;
  /* the stream in a block of its own size: reads past it are caught */
  uint8_t *in = malloc(n ? n : 1), *a = malloc(cap ? cap : 1),
          *b = cap ? malloc(cap) : NULL;
  FUZZ_CHECK(in && a && (b || !cap), "out of memory");
  memcpy(in, data + 2, n);
  size_t alen, blen = 12345;
  int za = zverdict(a, cap, &alen, in, n);
  FUZZ_CHECK(za >= 0, "zlib inflate failed");
  int rb = cr_io__inflate(b, cap, &blen, in, n);
  FUZZ_CHECK(rb == CR_INFL_OK || rb == CR_INFL_BAD || rb == CR_INFL_SHORT,
             "cr_io__inflate returned %d", rb);
  FUZZ_CHECK(za == rb, "zlib says %s, cr_io__inflate says %s (capacity %zu)",
             names[za], names[rb], cap);
  if (rb == CR_INFL_OK) {
    FUZZ_CHECK(alen == blen, "zlib inflates %zu bytes, cr_io__inflate %zu",
               alen, blen);
    FUZZ_CHECK(blen == 0 || memcmp(a, b, blen) == 0,
               "the %zu inflated bytes differ", blen);
  } else {
    FUZZ_CHECK(blen == 0, "result %s with %zu bytes", names[rb], blen);
  }
  free(in);
  free(a);
  free(b);
  return 0;
}
