/*
** mutf8.c -- modified UTF-8 (JVMS 4.4.7): validation as HotSpot does it,
** decoding to UTF-16, encoding from and comparing with UTF-8.
*/
#include "cf_int.h"

/* Any byte that is 0 or has the high bit set in the 8 at 'p'? */
static int plain8(const unsigned char *p) {
  uint64_t w;
  memcpy(&w, p, 8);
  const uint64_t hi = 0x8080808080808080ull, lo = 0x0101010101010101ull;
  return ((w | ((w - lo) & ~w)) & hi) == 0;
}

long cr_mutf8_check(const char *str, size_t n) {
  const unsigned char *s = (const unsigned char *)str;
  size_t i = 0;
  /* Most names are plain ASCII: check them 8 bytes at a time, the last
  ** chunk overlapping the one before it (or, for a short string, padded
  ** with plain bytes), so that no byte is looked at alone. */
  if (n >= 8) {
    for (; i + 8 <= n; i += 8)
      if (!plain8(s + i)) break;
    if (i + 8 > n && (i == n || plain8(s + n - 8))) return -1;
  } else {
    unsigned char b[8];
    memset(b, 1, sizeof b);
    memcpy(b, s, n);
    if (plain8(b)) return -1;
  }
  while (i < n) {
    if (n - i >= 8 && plain8(s + i)) {
      i += 8;
      continue;
    }
    unsigned c = s[i];
    if (c != 0 && c < 0x80) {
      i++;
      continue;
    }
    if ((c & 0xE0) == 0xC0) {
      if (i + 1 >= n || (s[i + 1] & 0xC0) != 0x80) return (long)i;
      unsigned v = (c & 0x1F) << 6 | (s[i + 1] & 0x3F);
      if (v != 0 && v < 0x80) return (long)i;      /* overlong */
      i += 2;
    } else if ((c & 0xF0) == 0xE0) {
      if (i + 2 >= n || (s[i + 1] & 0xC0) != 0x80 ||
          (s[i + 2] & 0xC0) != 0x80)
        return (long)i;
      unsigned v = (c & 0x0F) << 12 | (s[i + 1] & 0x3F) << 6 |
                   (s[i + 2] & 0x3F);
      if (v < 0x800) return (long)i;               /* overlong */
      i += 3;
    } else {
      return (long)i;        /* 0x00, stray continuation, 0xF0..0xFF */
    }
  }
  return -1;
}

/* Decode the unit at 's[*i]' of valid modified UTF-8. */
static unsigned unit(const unsigned char *s, size_t *i) {
  unsigned c = s[*i];
  if (c < 0x80) {
    *i += 1;
    return c;
  }
  if ((c & 0xE0) == 0xC0) {
    *i += 2;
    return (c & 0x1F) << 6 | (s[*i - 1] & 0x3F);
  }
  *i += 3;
  return (c & 0x0F) << 12 | (s[*i - 2] & 0x3F) << 6 | (s[*i - 1] & 0x3F);
}

long cr_mutf8_to_utf16(uint16_t *out, size_t cap, const char *str,
                       size_t n) {
  const unsigned char *s = (const unsigned char *)str;
  if (cr_mutf8_check(str, n) >= 0) return -1;
  size_t i = 0, k = 0;
  while (i < n) {
    unsigned u = unit(s, &i);
    if (k < cap) out[k] = (uint16_t)u;
    k++;
  }
  return (long)k;
}

/* Decode one code point of strict UTF-8 at 'u[*i]' (len 'n'); -1 bad. */
static long cpoint(const unsigned char *u, size_t n, size_t *i) {
  unsigned c = u[*i];
  size_t k;
  unsigned long v, min;
  if (c < 0x80) {
    *i += 1;
    return c;
  } else if ((c & 0xE0) == 0xC0) {
    k = 1, v = c & 0x1F, min = 0x80;
  } else if ((c & 0xF0) == 0xE0) {
    k = 2, v = c & 0x0F, min = 0x800;
  } else if ((c & 0xF8) == 0xF0) {
    k = 3, v = c & 0x07, min = 0x10000;
  } else {
    return -1;
  }
  if (n - *i <= k) return -1;
  for (size_t j = 1; j <= k; j++) {
    if ((u[*i + j] & 0xC0) != 0x80) return -1;
    v = v << 6 | (u[*i + j] & 0x3F);
  }
  if (v < min || v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF)) return -1;
  *i += k + 1;
  return (long)v;
}

long cr_mutf8_enclen(const char *str, size_t n) {
  const unsigned char *u = (const unsigned char *)str;
  size_t i = 0;
  long len = 0;
  while (i < n) {
    long v = cpoint(u, n, &i);
    if (v < 0) return -1;
    len += v == 0 ? 2 : v < 0x80 ? 1 : v < 0x800 ? 2 : v < 0x10000 ? 3 : 6;
  }
  return len;
}

static char *put3(char *o, unsigned long v) {
  *o++ = (char)(0xE0 | v >> 12);
  *o++ = (char)(0x80 | (v >> 6 & 0x3F));
  *o++ = (char)(0x80 | (v & 0x3F));
  return o;
}

void cr_mutf8_encode(char *o, const char *str, size_t n) {
  const unsigned char *u = (const unsigned char *)str;
  size_t i = 0;
  while (i < n) {
    long lv = cpoint(u, n, &i);
    if (lv < 0) return;                      /* caller ran enclen */
    unsigned long v = (unsigned long)lv;
    if (v != 0 && v < 0x80) {
      *o++ = (char)v;
    } else if (v < 0x800) {
      *o++ = (char)(0xC0 | v >> 6);
      *o++ = (char)(0x80 | (v & 0x3F));
    } else if (v < 0x10000) {
      o = put3(o, v);
    } else {
      v -= 0x10000;
      o = put3(o, 0xD800 | v >> 10);
      o = put3(o, 0xDC00 | (v & 0x3FF));
    }
  }
}

int cr_mutf8_eq(const char *str, size_t n, const char *ustr) {
  const unsigned char *s = (const unsigned char *)str;
  const unsigned char *u = (const unsigned char *)ustr;
  size_t i = 0, j = 0, un;
  while (i < n && u[j] && s[i] == u[j] && s[i] < 0x80) i++, j++;
  if (i == n) return u[j] == 0;
  if (cr_mutf8_check(str, n) >= 0) return 0;
  un = j + strlen(ustr + j);
  unsigned pending = 0;
  for (;;) {
    long a = i < n ? (long)unit(s, &i) : -1, b;
    if (pending) {
      b = pending;
      pending = 0;
    } else if (j < un) {
      b = cpoint(u, un, &j);
      if (b < 0) return 0;
      if (b >= 0x10000) {
        pending = 0xDC00 | ((unsigned long)(b - 0x10000) & 0x3FF);
        b = 0xD800 | (b - 0x10000) >> 10;
      }
    } else {
      b = -1;
    }
    if (a != b) return 0;
    if (a < 0) return 1;
  }
}
