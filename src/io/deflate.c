/*
** deflate.c -- a fast raw-deflate compressor (RFC 1951) for jar entries:
** greedy LZ77 over a hash table of 4-byte sequences (of a match longer
** than 4 bytes only the last position is entered), then per block the
** cheapest of dynamic Huffman, fixed Huffman and stored coding.
*/
#include <string.h>

#include "cccp/util.h"
#include "deflate.h"

/*
** Parsing. Every input position 'ip' has a 32-bit position value
**
**     cur = 'base' + (ip - 'seg')
**
** and the hash table maps the hash of the 4 bytes at a position to the
** values of the last two positions with that hash (newest first). A
** candidate 'c' is usable when 1 <= cur - c <= WSIZE and its 4 bytes
** match. Each call starts its values 'GAP' past the last value the
** previous call stored, so that whatever an earlier call left in the
** table is out of the window: no clearing between calls. Zero (the
** initial contents) is out of the window as values start at 'GAP'. When
** values could wrap, the table is cleared and they start again at 'GAP'.
** So that they cannot wrap inside a call either, long inputs are cut into
** segments of about 'SEGMAX' bytes, at each of which the table is cleared
** and the values start again: the cuts depend on the input alone, not on
** the values a call started with, and so does the output.
**
** The parse of a block is a list of items (uint32_t):
**
**     literal   0000 0000 0000 0000 0000 0000 bbbb bbbb    byte b
**     match     1000 0000 llll llll dddd dddd dddd dddd    length l + 3,
**                                                          distance d + 1
*/
#define WSIZE 32768u            /* deflate window */
#define MINMATCH 4              /* shortest match looked for */
#define MAXMATCH 258
#define HBITS 15                /* hash table: 2 << HBITS values */
#define NWAYS 2                 /* values per hash bucket */
#define GAP (WSIZE + 1)
#define SEGMAX ((size_t)8 << 20)  /* input bytes per segment */
#define VALMAX 0x80000000u      /* a call starting past this clears */
#define MAXITEMS (1u << 15)     /* items per block */
#define MATCHBIT 0x80000000u
_Static_assert(MAXITEMS < 65536, "symbol counts must fit in 16 bits");

#define NLITLEN 286             /* literal/length symbols used */
#define NDIST 30
#define NCLEN 19                /* code-length code */
#define EOB 256
#define MAXBITS 15              /* lit/len and distance code limit */
#define MAXCLBITS 7             /* code-length code limit */

struct cr_deflater {
  uint32_t next;                /* value of the next call's first byte */
  uint32_t lfreq[NLITLEN + 2];  /* symbol counts of the block */
  uint32_t dfreq[NDIST + 2];
  uint8_t llen[NLITLEN + 2];    /* code lengths of the block */
  uint8_t dlen[NDIST + 2];
  uint16_t lcode[NLITLEN + 2];  /* codes, bit-reversed for LSB-first */
  uint16_t dcode[NDIST + 2];
  uint8_t fllen[288], fdlen[32];        /* the fixed code (3.2.6) */
  uint16_t flcode[288], fdcode[32];
  uint8_t lsym[256];            /* length - 3 -> symbol - 257 */
  uint32_t items[MAXITEMS];     /* parse of the current block */
  uint32_t ht[NWAYS << HBITS];
};

/* Lengths 3..258: base and extra bits per symbol 257..285 (3.2.5). */
static const uint16_t lbase[29] = {
  3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31,
  35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258};
static const uint8_t lextra[29] = {
  0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2,
  3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0};
/* Distances 1..32768: base and extra bits per symbol 0..29. */
static const uint16_t dbase[30] = {
  1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193,
  257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289,
  16385, 24577};
static const uint8_t dextra[30] = {
  0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6,
  7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13};
/* Order of the code-length code lengths in a dynamic header. */
static const uint8_t clorder[NCLEN] = {
  16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15};

/* ---- little-endian loads and stores ---- */

static inline uint32_t ld32(const uint8_t *p) {
  uint32_t v;
  memcpy(&v, p, 4);
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
  v = __builtin_bswap32(v);
#endif
  return v;
}

static inline uint64_t ld64(const uint8_t *p) {
  uint64_t v;
  memcpy(&v, p, 8);
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
  v = __builtin_bswap64(v);
#endif
  return v;
}

static inline void st64(uint8_t *p, uint64_t v) {
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
  v = __builtin_bswap64(v);
#endif
  memcpy(p, &v, 8);
}

/* Distance - 1 (0..32767) -> distance symbol. */
static inline unsigned dsym(unsigned d) {
  if (d < 4) return d;
  unsigned b = 31 - (unsigned)__builtin_clz(d);
  return 2 * b + ((d >> (b - 1)) & 1);
}

/* ---- Huffman codes ---- */

/*
** Sort the 'n' keys 'k' (count << 9 | symbol, counts below 2^16, symbols
** ascending) by count into 'out', stably so that equal counts stay in
** symbol order: one counting pass when the counts are small (small
** blocks), else a radix sort on the two count bytes.
*/
static void sortkeys(uint32_t *out, uint32_t *k, unsigned n, uint32_t maxf) {
  unsigned cnt[256];
  if (maxf < 256) {
    memset(cnt, 0, (maxf + 1) * sizeof *cnt);
    for (unsigned i = 0; i < n; i++) cnt[k[i] >> 9]++;
    for (unsigned i = 0, sum = 0; i <= maxf; i++) {
      unsigned c = cnt[i];
      cnt[i] = sum;
      sum += c;
    }
    for (unsigned i = 0; i < n; i++) out[cnt[k[i] >> 9]++] = k[i];
    return;
  }
  uint32_t *from = k, *to = out;
  for (unsigned shift = 9; shift < 25; shift += 8) {
    for (unsigned i = 0; i < 256; i++) cnt[i] = 0;
    for (unsigned i = 0; i < n; i++) cnt[(from[i] >> shift) & 255]++;
    for (unsigned i = 0, sum = 0; i < 256; i++) {
      unsigned c = cnt[i];
      cnt[i] = sum;
      sum += c;
    }
    for (unsigned i = 0; i < n; i++)
      to[cnt[(from[i] >> shift) & 255]++] = from[i];
    from = out;
    to = k;
  }
  memcpy(out, k, n * sizeof *k);
}

/*
** Code lengths for the 'n' symbols counted in 'freq', none longer than
** 'maxbits', into 'lens' (0 for unused symbols). The code is always
** complete: a lone symbol (or none) gets a second, unused, code of
** length 1, as some decoders refuse incomplete codes.
**
** A Huffman tree is built with two queues over the symbols sorted by
** count (leaves, then internal nodes in the order made; both queues end
** in a sentinel count so that picking the smaller head needs no branch),
** giving the number of leaves per depth. Depths past 'maxbits' are cut to
** it, which overfills the code (Kraft sum above 1, counted below in units
** of 2^-maxbits); leaves are then moved one level down from the deepest
** level above 'maxbits' that has some until the sum is at most 1, and
** the deepest leaves moved up while the sum is short of 1 (the shortfall
** is always a multiple of the deepest leaf's weight, so this ends at
** exactly 1). The lengths are then handed out again, shortest to the most
** frequent symbols.
*/
static void huffman(uint8_t *lens, const uint32_t *freq, unsigned n,
                    unsigned maxbits) {
  uint32_t raw[NLITLEN];        /* count << 9 | symbol */
  uint32_t key[NLITLEN];        /* the same sorted by count */
  uint32_t lf[NLITLEN + 1];     /* leaf counts, ascending, sentinel */
  uint32_t nf[NLITLEN];         /* counts of internal nodes */
  uint16_t par[2 * NLITLEN];    /* parents: leaves, then internal nodes */
  uint16_t depth[NLITLEN];      /* of internal nodes */
  unsigned cnt[MAXBITS + 1];    /* leaves per depth */
  unsigned k = 0;
  uint32_t maxf = 0;
  memset(lens, 0, n);
  for (unsigned s = 0; s < n; s++) {
    raw[k] = freq[s] << 9 | s;
    k += freq[s] != 0;
    maxf |= freq[s];
  }
  if (k < 2) {
    unsigned s = k ? (raw[0] & 511) : 0;
    lens[s] = 1;
    lens[s ? 0 : 1] = 1;
    return;
  }
  sortkeys(key, raw, k, maxf);
  for (unsigned i = 0; i < k; i++) lf[i] = key[i] >> 9;
  lf[k] = UINT32_MAX;
  unsigned li = 0, ii = 0;
  for (unsigned ni = 0; ni < k - 1; ni++) {
    nf[ni] = UINT32_MAX;
    uint32_t a = lf[li], b = nf[ii];
    unsigned t = a <= b;
    uint32_t f = t ? a : b;
    par[t ? li : k + ii] = (uint16_t)ni;
    li += t;
    ii += 1 - t;
    a = lf[li];
    b = nf[ii];
    t = a <= b;
    f += t ? a : b;
    par[t ? li : k + ii] = (uint16_t)ni;
    li += t;
    ii += 1 - t;
    nf[ni] = f;
  }
  const uint16_t *ipar = par + k, *lpar = par;
  /* depths: the root is the last node made */
  depth[k - 2] = 0;
  for (unsigned i = k - 2; i-- > 0;)
    depth[i] = (uint16_t)(depth[ipar[i]] + 1);
  memset(cnt, 0, sizeof cnt);
  int over = 0;
  for (unsigned i = 0; i < k; i++) {
    unsigned d = depth[lpar[i]] + 1u;
    if (d > maxbits) {
      d = maxbits;
      over = 1;
    }
    cnt[d]++;
  }
  if (over) {
    uint32_t kraft = 0, full = 1u << maxbits;
    for (unsigned d = 1; d <= maxbits; d++) kraft += cnt[d] << (maxbits - d);
    while (kraft > full) {
      unsigned d = maxbits - 1;
      while (!cnt[d]) d--;
      cnt[d]--;
      cnt[d + 1]++;
      kraft -= 1u << (maxbits - d - 1);
    }
    while (kraft < full) {
      unsigned d = maxbits;
      while (!cnt[d]) d--;
      cnt[d]--;
      cnt[d - 1]++;
      kraft += 1u << (maxbits - d);
    }
  }
  /* most frequent (last in 'key') first, shortest first */
  unsigned i = k, d = 1;
  while (i > 0) {
    while (!cnt[d]) d++;
    cnt[d]--;
    lens[key[--i] & 511] = (uint8_t)d;
  }
}

/* Reverse the low 'n' bits of 'c' (n <= 16). */
static inline unsigned rev(unsigned c, unsigned n) {
  c = (c & 0x5555) << 1 | (c >> 1 & 0x5555);
  c = (c & 0x3333) << 2 | (c >> 2 & 0x3333);
  c = (c & 0x0f0f) << 4 | (c >> 4 & 0x0f0f);
  c = (c & 0x00ff) << 8 | (c >> 8 & 0x00ff);
  return c >> (16 - n);
}

/* Canonical codes (3.2.2) for lengths 'lens', bit-reversed, into 'codes'. */
static void mkcodes(uint16_t *codes, const uint8_t *lens, unsigned n) {
  unsigned cnt[MAXBITS + 1] = {0}, next[MAXBITS + 1];
  for (unsigned s = 0; s < n; s++) cnt[lens[s]]++;
  cnt[0] = 0;
  unsigned c = 0;
  for (unsigned b = 1; b <= MAXBITS; b++) {
    c = (c + cnt[b - 1]) << 1;
    next[b] = c;
  }
  for (unsigned s = 0; s < n; s++)
    codes[s] = lens[s] ? (uint16_t)rev(next[lens[s]]++, lens[s]) : 0;
}

/* ---- bit writer ---- */

/*
** Bits go out LSB first through a 64-bit accumulator holding 'cnt' bits;
** 'flush' leaves at most 7, so up to 56 bits may be added between flushes.
** Blocks are only written once their exact size is known to fit, so 'p'
** never passes 'end'; the byte-wise path near the end checks anyway.
*/
typedef struct bitw {
  uint64_t bits;
  unsigned cnt;
  uint8_t *p, *start, *end;
  int over;                     /* a byte did not fit (never expected) */
} bitw;

#define PUT(w, v, n) \
  ((w)->bits |= (uint64_t)(v) << (w)->cnt, (w)->cnt += (n))

static inline void flush(bitw *w) {
  if (w->end - w->p >= 8) {
    st64(w->p, w->bits);
    unsigned nb = w->cnt >> 3;
    w->p += nb;
    w->bits >>= nb * 8;
    w->cnt &= 7;
    return;
  }
  while (w->cnt >= 8) {
    if (w->p < w->end)
      *w->p++ = (uint8_t)w->bits;
    else
      w->over = 1;
    w->bits >>= 8;
    w->cnt -= 8;
  }
}

/* Pad to a byte boundary with zero bits and flush. */
static void align(bitw *w) {
  w->cnt = (w->cnt + 7) & ~7u;
  flush(w);
}

static inline uint64_t bitpos(const bitw *w) {
  return (uint64_t)(w->p - w->start) * 8 + w->cnt;
}

/* ---- blocks ---- */

/*
** Run-length code the 'n' code lengths 'lens' with the code-length
** alphabet (3.2.7) into 'rle' (symbol | extra << 5), counting symbols in
** 'clfreq'. Returns the number of items.
*/
static unsigned rlecode(uint16_t *rle, uint32_t *clfreq, const uint8_t *lens,
                        unsigned n) {
  unsigned m = 0;
  for (unsigned i = 0; i < n;) {
    unsigned v = lens[i], run = 1;
    while (i + run < n && lens[i + run] == v) run++;
    i += run;
    if (v == 0) {
      while (run >= 11) {
        unsigned r = run < 138 ? run : 138;
        rle[m++] = (uint16_t)(18 | (r - 11) << 5);
        clfreq[18]++;
        run -= r;
      }
      if (run >= 3) {
        rle[m++] = (uint16_t)(17 | (run - 3) << 5);
        clfreq[17]++;
        run = 0;
      }
    } else {
      rle[m++] = (uint16_t)v;
      clfreq[v]++;
      run--;
      while (run >= 3) {
        unsigned r = run < 6 ? run : 6;
        rle[m++] = (uint16_t)(16 | (r - 3) << 5);
        clfreq[16]++;
        run -= r;
      }
    }
    while (run--) {
      rle[m++] = (uint16_t)v;
      clfreq[v]++;
    }
  }
  return m;
}

/* Bits of a stored encoding of 'len' bytes starting at bit 'pos'. */
static uint64_t storedcost(uint64_t pos, size_t len) {
  uint64_t bits = 0;
  do {
    size_t n = len < 65535 ? len : 65535;
    pos += 3;
    uint64_t pad = (8 - (pos & 7)) & 7;
    bits += 3 + pad + 32 + 8 * (uint64_t)n;
    pos += pad + 32 + 8 * (uint64_t)n;
    len -= n;
  } while (len);
  return bits;
}

/* Write 'len' bytes at 'in' as stored blocks, the last one 'final'. */
static void putstored(bitw *w, const uint8_t *in, size_t len, int final) {
  do {
    size_t n = len < 65535 ? len : 65535;
    len -= n;
    PUT(w, final && !len, 3);
    align(w);
    PUT(w, n | (n ^ 0xffff) << 16, 32);
    flush(w);
    if ((size_t)(w->end - w->p) >= n) {
      memcpy(w->p, in, n);
      w->p += n;
    } else {
      w->over = 1;
    }
    in += n;
  } while (len);
}

/* 'flush' when the caller knows that 8 bytes fit at 'p'. */
static inline void flushfast(bitw *w) {
  st64(w->p, w->bits);
  w->p += w->cnt >> 3;
  w->bits >>= w->cnt & ~7u;
  w->cnt &= 7;
}

static inline __attribute__((always_inline)) void
items(bitw *w, const cr_deflater *z, unsigned n, const uint16_t *lc,
      const uint8_t *ll, const uint16_t *dc, const uint8_t *dl, int fast) {
  const uint32_t *it = z->items;
  for (unsigned i = 0; i < n; i++) {
    uint32_t v = it[i];
    if (!(v & MATCHBIT)) {
      PUT(w, lc[v], ll[v]);
      if (i + 1 < n && !(it[i + 1] & MATCHBIT)) {    /* 7 + 2 * 15 bits */
        v = it[++i];
        PUT(w, lc[v], ll[v]);
      }
    } else {
      unsigned l = (v >> 16) & 0xff, d = v & 0xffff;
      unsigned ls = z->lsym[l], s = 257 + ls;
      PUT(w, lc[s], ll[s]);
      PUT(w, l + 3 - lbase[ls], lextra[ls]);
      unsigned ds = dsym(d);
      PUT(w, dc[ds], dl[ds]);
      PUT(w, d + 1 - dbase[ds], dextra[ds]);
    }
    if (fast)
      flushfast(w);
    else
      flush(w);
  }
}

/*
** Write the 'n' items of 'z' with the literal/length and distance codes
** given. 'fast' when the caller made sure that the items end at least 8
** bytes before the end of the output. The writer's state is kept in a
** local copy so that it stays in registers despite the byte stores.
*/
static void putitems(bitw *w, const cr_deflater *z, unsigned n,
                     const uint16_t *lc, const uint8_t *ll,
                     const uint16_t *dc, const uint8_t *dl, int fast) {
  bitw l = *w;
  if (fast)
    items(&l, z, n, lc, ll, dc, dl, 1);
  else
    items(&l, z, n, lc, ll, dc, dl, 0);
  *w = l;
}

/*
** Code the block of the 'n' items in 'z' (counts in 'z->lfreq' and
** 'z->dfreq', end of block included), which parse the 'len' input bytes
** at 'in', as the cheapest of dynamic, fixed and stored. Returns -1
** without writing anything when it would not fit in the output.
*/
static int putblock(cr_deflater *z, bitw *w, unsigned n, const uint8_t *in,
                    size_t len, int final) {
  /* extra bits of lengths and distances: the same in both codes */
  uint64_t xbits = 0;
  for (unsigned s = 265; s < 285; s++)
    xbits += (uint64_t)z->lfreq[s] * lextra[s - 257];
  for (unsigned s = 4; s < NDIST; s++)
    xbits += (uint64_t)z->dfreq[s] * dextra[s];

  uint64_t fixed = 3 + xbits;
  for (unsigned s = 0; s < NLITLEN; s++)
    fixed += (uint64_t)z->lfreq[s] * z->fllen[s];
  for (unsigned s = 0; s < NDIST; s++) fixed += (uint64_t)z->dfreq[s] * 5;

  huffman(z->llen, z->lfreq, NLITLEN, MAXBITS);
  huffman(z->dlen, z->dfreq, NDIST, MAXBITS);
  unsigned nl = NLITLEN, nd = NDIST;
  while (!z->llen[nl - 1]) nl--;        /* >= 257: end of block is used */
  while (!z->dlen[nd - 1]) nd--;        /* >= 1: two codes at least */
  uint8_t all[NLITLEN + NDIST];
  memcpy(all, z->llen, nl);
  memcpy(all + nl, z->dlen, nd);
  uint16_t rle[NLITLEN + NDIST];
  uint32_t clfreq[NCLEN] = {0};
  unsigned nr = rlecode(rle, clfreq, all, nl + nd);
  uint8_t cllen[NCLEN];
  uint16_t clcode[NCLEN];
  huffman(cllen, clfreq, NCLEN, MAXCLBITS);
  unsigned ncl = NCLEN;
  while (ncl > 4 && !cllen[clorder[ncl - 1]]) ncl--;
  uint64_t dyn = 3 + 5 + 5 + 4 + 3 * ncl + xbits;
  dyn += clfreq[16] * 2 + clfreq[17] * 3 + clfreq[18] * 7;
  for (unsigned s = 0; s < NCLEN; s++) dyn += (uint64_t)clfreq[s] * cllen[s];
  for (unsigned s = 0; s < nl; s++)
    dyn += (uint64_t)z->lfreq[s] * z->llen[s];
  for (unsigned s = 0; s < nd; s++)
    dyn += (uint64_t)z->dfreq[s] * z->dlen[s];

  uint64_t pos = bitpos(w);
  uint64_t stored = storedcost(pos, len);
  uint64_t best = stored < fixed ? stored : fixed;
  if (dyn < best) best = dyn;
  uint64_t cap = (uint64_t)(w->end - w->start) * 8;
  if (pos + best > cap) return -1;   /* the last byte may be partial */
  int fast = pos + best + 64 + 7 <= cap;

  if (best == stored) {
    putstored(w, in, len, final);
  } else if (best == fixed) {
    PUT(w, final | 1 << 1, 3);
    putitems(w, z, n, z->flcode, z->fllen, z->fdcode, z->fdlen, fast);
    PUT(w, z->flcode[EOB], z->fllen[EOB]);
  } else {
    mkcodes(z->lcode, z->llen, nl);
    mkcodes(z->dcode, z->dlen, nd);
    mkcodes(clcode, cllen, NCLEN);
    PUT(w, final | 2 << 1, 3);
    PUT(w, (nl - 257) | (nd - 1) << 5 | (ncl - 4) << 10, 14);
    flush(w);
    for (unsigned i = 0; i < ncl; i++) {
      PUT(w, cllen[clorder[i]], 3);
      flush(w);
    }
    for (unsigned i = 0; i < nr; i++) {
      unsigned s = rle[i] & 31, x = rle[i] >> 5;
      PUT(w, clcode[s], cllen[s]);
      if (s >= 16) PUT(w, x, s == 16 ? 2 : s == 17 ? 3 : 7);
      flush(w);
    }
    putitems(w, z, n, z->lcode, z->llen, z->dcode, z->dlen, fast);
    PUT(w, z->lcode[EOB], z->llen[EOB]);
  }
  flush(w);
  return 0;
}

/* ---- the compressor ---- */

/*
** One allocation of 387 KiB (hash table 256, items 128), zeroed
** here once: the hash table is never cleared between calls (see the
** position values above), only the symbol counts of each block are.
*/
cr_deflater *cr_io__deflater_new(void) {
  cr_deflater *z = cr_calloc(1, sizeof *z);
  if (!z) return NULL;
  z->next = GAP;
  for (unsigned s = 0; s < 288; s++)
    z->fllen[s] = s < 144 ? 8 : s < 256 ? 9 : s < 280 ? 7 : 8;
  for (unsigned s = 0; s < 32; s++) z->fdlen[s] = 5;
  mkcodes(z->flcode, z->fllen, 288);
  mkcodes(z->fdcode, z->fdlen, 32);
  for (unsigned s = 0; s < 28; s++)
    for (unsigned l = lbase[s]; l < lbase[s + 1] && l <= 257; l++)
      z->lsym[l - 3] = (uint8_t)s;
  z->lsym[255] = 28;
  return z;
}

void cr_io__deflater_free(cr_deflater *z) { cr_free(z); }

/* Length of the common prefix of 'a' and 'b', at most 'max'. */
static inline size_t extend(const uint8_t *a, const uint8_t *b, size_t max) {
  size_t n = 0;
  while (n + 8 <= max) {
    uint64_t x = ld64(a + n) ^ ld64(b + n);
    if (x) return n + ((unsigned)__builtin_ctzll(x) >> 3);
    n += 8;
  }
  while (n < max && a[n] == b[n]) n++;
  return n;
}

#define HASH(v) ((uint32_t)((v) * 0x9E3779B1u) >> (32 - HBITS))

/*
** Parse the input from 'ip' to at most 'end' into the items of one block,
** counting their symbols; 'seg' is the position of value 'base'. Stops
** when the items are full. Returns where the block ends, its item count
** in '*nout'.
*/
static const uint8_t *parse(cr_deflater *z, const uint8_t *ip,
                            const uint8_t *end, const uint8_t *seg,
                            uint32_t base, unsigned *nout) {
  uint32_t *ht = z->ht, *lf = z->lfreq, *df = z->dfreq;
  uint32_t *it = z->items, *itend = z->items + MAXITEMS - MINMATCH;
  const uint8_t *mend = end - ip >= MINMATCH ? end - MINMATCH + 1 : ip;
  memset(z->lfreq, 0, sizeof z->lfreq);
  memset(z->dfreq, 0, sizeof z->dfreq);
  while (ip < mend && it < itend) {
    uint32_t v = ld32(ip);
    uint32_t *b = ht + NWAYS * HASH(v);
    uint32_t cur = base + (uint32_t)(ip - seg);
    uint32_t c0 = b[0], c1 = b[1];
    b[1] = c0;
    b[0] = cur;
    uint32_t d0 = cur - c0, d1 = cur - c1;
    size_t best = 0, bd = 0;
    size_t max = (size_t)(end - ip) < MAXMATCH ? (size_t)(end - ip)
                                               : MAXMATCH;
    if (d0 - 1 < WSIZE && ld32(ip - d0) == v) {
      best = MINMATCH + extend(ip + MINMATCH, ip - d0 + MINMATCH,
                               max - MINMATCH);
      bd = d0;
    }
    if (d1 - 1 < WSIZE && best < max && ld32(ip - d1) == v) {
      size_t l = MINMATCH + extend(ip + MINMATCH, ip - d1 + MINMATCH,
                                   max - MINMATCH);
      if (l > best) {
        best = l;
        bd = d1;
      }
    }
    if (!best) {
      *it++ = *ip;
      lf[*ip++]++;
      continue;
    }
    *it++ = MATCHBIT | (uint32_t)(best - 3) << 16 | (uint32_t)(bd - 1);
    lf[257 + z->lsym[best - 3]]++;
    df[dsym((unsigned)bd - 1)]++;
    /* enter the positions inside a short match; of a longer one only
    ** the last, as zlib's fastest levels do: entering every position
    ** took a third of the parse for 1.6% smaller output on the
    ** instrumented JDK, where long matches are common */
    const uint8_t *q = ip + 1, *qend = ip + best < mend ? ip + best : mend;
    ip += best;
    if (best > MINMATCH && q < qend) q = qend - 1;
    for (; q < qend; q++) {
      uint32_t *bb = ht + NWAYS * HASH(ld32(q));
      bb[1] = bb[0];
      bb[0] = base + (uint32_t)(q - seg);
    }
  }
  if (ip >= mend)
    while (ip < end) {
      *it++ = *ip;
      lf[*ip++]++;
    }
  lf[EOB] = 1;
  *nout = (unsigned)(it - z->items);
  return ip;
}

size_t cr_io__deflate(cr_deflater *z, uint8_t *out, size_t outcap,
                      const uint8_t *in, size_t len) {
  if (len == 0) {
    if (outcap < 2) return 0;
    out[0] = 0x03;              /* final, fixed, end of block */
    out[1] = 0x00;
    return 2;
  }
  bitw w = {0, 0, out, out, out + outcap, 0};
  if (z->next > VALMAX) {
    memset(z->ht, 0, sizeof z->ht);
    z->next = GAP;
  }
  const uint8_t *ip = in, *end = in + len;
  const uint8_t *seg = in;      /* position of value 'base' */
  uint32_t base = z->next;
  for (;;) {
    if ((size_t)(ip - seg) >= SEGMAX) {
      memset(z->ht, 0, sizeof z->ht);
      seg = ip;
      base = GAP;
    }
    const uint8_t *bstart = ip;
    unsigned n;
    ip = parse(z, ip, end, seg, base, &n);
    /* past every value in the table, also when giving up below */
    z->next = base + (uint32_t)(ip - seg) + GAP;
    int final = ip == end;
    if (putblock(z, &w, n, bstart, (size_t)(ip - bstart), final) < 0)
      return 0;
    if (final) break;
  }
  align(&w);
  if (w.over) return 0;
  return (size_t)(w.p - w.start);
}
