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

#include "fuzz.h"
#include "../../src/io/inflate.h"

static const char *const names[] = {"OK", "BAD", "SHORT"};

/*
** zlib's verdict in the terms of cr_io__inflate: one inflate call with
** Z_FINISH; when it stops for want of room, one more call with one byte
** of room tells whether the stream really goes on (SHORT) or is broken
** or truncated there (BAD).
*/
static int zlib_inflate(uint8_t *out, size_t cap, size_t *outlen,
                        const uint8_t *in, size_t n) {
  z_stream z;
  uint8_t one;
  memset(&z, 0, sizeof z);
  FUZZ_CHECK(inflateInit2(&z, -15) == Z_OK, "inflateInit2 failed");
  z.next_in = (Bytef *)in;
  z.avail_in = (uInt)n;
  z.next_out = cap ? out : &one;
  z.avail_out = (uInt)cap;
  int zr = inflate(&z, Z_FINISH), res = CR_INFL_BAD;
  *outlen = 0;
  if (zr == Z_STREAM_END) {
    res = CR_INFL_OK;
    *outlen = z.total_out;
  } else if (zr == Z_BUF_ERROR && z.avail_out == 0) {
    z.next_out = &one;
    z.avail_out = 1;
    zr = inflate(&z, Z_FINISH);
    if (z.avail_out == 0) {
      res = CR_INFL_SHORT;
    } else if (zr == Z_STREAM_END) {
      res = CR_INFL_OK;
      *outlen = z.total_out;
    }
  }
  FUZZ_CHECK(zr == Z_STREAM_END || zr == Z_DATA_ERROR || zr == Z_BUF_ERROR,
             "zlib inflate returned %d", zr);
  inflateEnd(&z);
  return res;
}

int fuzz_inflate(const uint8_t *data, size_t size) {
  if (size < 2) return 0;
  size_t cap = data[0] | (size_t)data[1] << 8, n = size - 2;
  /* the stream in a block of its own size: reads past it are caught */
  uint8_t *in = malloc(n ? n : 1), *a = malloc(cap ? cap : 1),
          *b = cap ? malloc(cap) : NULL;
  FUZZ_CHECK(in && a && (b || !cap), "out of memory");
  memcpy(in, data + 2, n);
  size_t alen, blen = 12345;
  int za = zlib_inflate(a, cap, &alen, in, n);
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
