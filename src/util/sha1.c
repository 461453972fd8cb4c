/*
** sha1.c -- SHA-1 (FIPS 180-4, 6.1) of a byte string. Used for the
** default serialVersionUID (Java Object Serialization Specification 4.6),
** not for anything that needs a secure hash.
*/
#include <string.h>

#include "cccp/util.h"

static uint32_t rol(uint32_t x, int n) { return x << n | x >> (32 - n); }

/* One 64-byte block into the state 'h'. */
static void block(uint32_t h[5], const uint8_t *p) {
  uint32_t w[80];
  for (int t = 0; t < 16; t++) w[t] = cr_be32(p + 4 * t);
  for (int t = 16; t < 80; t++)
    w[t] = rol(w[t - 3] ^ w[t - 8] ^ w[t - 14] ^ w[t - 16], 1);
  uint32_t a = h[0], b = h[1], c = h[2], d = h[3], e = h[4];
  for (int t = 0; t < 80; t++) {
    uint32_t f, k;
    if (t < 20) {
      f = (b & c) | (~b & d);
      k = 0x5A827999;
    } else if (t < 40) {
      f = b ^ c ^ d;
      k = 0x6ED9EBA1;
    } else if (t < 60) {
      f = (b & c) | (b & d) | (c & d);
      k = 0x8F1BBCDC;
    } else {
      f = b ^ c ^ d;
      k = 0xCA62C1D6;
    }
    uint32_t x = rol(a, 5) + f + e + k + w[t];
    e = d;
    d = c;
    c = rol(b, 30);
    b = a;
    a = x;
  }
  h[0] += a;
  h[1] += b;
  h[2] += c;
  h[3] += d;
  h[4] += e;
}

void cr_sha1(const void *data, size_t n, uint8_t out[20]) {
  uint32_t h[5] = {0x67452301, 0xEFCDAB89, 0x98BADCFE, 0x10325476,
                   0xC3D2E1F0};
  const uint8_t *p = data;
  size_t left = n;
  for (; left >= 64; left -= 64, p += 64) block(h, p);
  /* the tail, 0x80, zeros, and the bit length (big-endian, 64 bits) */
  uint8_t last[128];
  memset(last, 0, sizeof last);
  if (left) memcpy(last, p, left);
  last[left] = 0x80;
  size_t len = left + 1 + 8 <= 64 ? 64 : 128;
  uint64_t bits = (uint64_t)n * 8;
  for (int i = 0; i < 8; i++) last[len - 1 - i] = (uint8_t)(bits >> (8 * i));
  block(h, last);
  if (len == 128) block(h, last + 64);
  for (int i = 0; i < 5; i++) {
    out[4 * i] = (uint8_t)(h[i] >> 24);
    out[4 * i + 1] = (uint8_t)(h[i] >> 16);
    out[4 * i + 2] = (uint8_t)(h[i] >> 8);
    out[4 * i + 3] = (uint8_t)h[i];
  }
}
