/*
** zverdict.h -- the reference for cccp's inflater in its unit tests and
** fuzz target: zlib's raw inflate (RFC 1951), in the terms of
** 'cr_io__inflate'. Header-only: both include it.
*/
#ifndef CCCP_TESTS_ZVERDICT_H
#define CCCP_TESTS_ZVERDICT_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <zlib.h>

#include "../src/io/inflate.h"

/*
** zlib's verdict on 'in' ('n' bytes) with 'cap' bytes of room at 'out',
** as CR_INFL_*, the bytes written in '*outlen' when OK: one inflate with
** Z_FINISH; when it stops for want of room, one more call with one byte
** of room tells whether the stream goes on (SHORT) or is broken or
** truncated there (BAD). -1 when zlib fails otherwise (no memory).
*/
static inline int zverdict(uint8_t *out, size_t cap, size_t *outlen,
                           const uint8_t *in, size_t n) {
  z_stream z;
  uint8_t one;
  memset(&z, 0, sizeof z);
  *outlen = 0;
  if (inflateInit2(&z, -15) != Z_OK) return -1;
  z.next_in = (Bytef *)in;
  z.avail_in = (uInt)n;
  z.next_out = cap ? out : &one;
  z.avail_out = (uInt)cap;
  int zr = inflate(&z, Z_FINISH), res = CR_INFL_BAD;
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
  if (zr != Z_STREAM_END && zr != Z_DATA_ERROR && zr != Z_BUF_ERROR)
    res = -1;
  inflateEnd(&z);
  return res;
}

#endif
