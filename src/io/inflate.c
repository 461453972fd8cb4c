/*
** inflate.c -- raw DEFLATE decoder (RFC 1951): table-driven Huffman
** decoding from a 64-bit bit buffer, in one call, on caller memory only.
** What it accepts and rejects is what zlib's raw inflate does.
*/
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "inflate.h"

/*
** Decoding tables. A table is indexed by the next ROOT bits of the
** stream: the low bits of the bit buffer, which holds the stream
** LSB first, so an index is a Huffman code with its bits reversed and
** every index whose low 'clen' bits are a code holds that code's entry.
** A code longer than ROOT goes to a subtable, indexed by the bits after
** the first ROOT. Entries (uint32_t):
**
**   31 30            16 15 14 13 12 11     8 7          0
**  +--+----------------+--+--+--+--+--------+------------+
**  |L |     value      |  |E |B |S |  clen  |   nbits    |
**  +--+----------------+--+--+--+--+--------+------------+
**
**  nbits  bits the symbol takes: its code plus the extra bits after it
**  clen   length of the code (the extra bits start there); in a subtable
**         pointer, the number of index bits of the subtable
**  S      subtable pointer, at offset 'value' of the same array
**  B      no such code: the unused half of a one-code code, or symbols
**         286, 287 (literal/length) and 30, 31 (distance) of the fixed code
**  E      end of block
**  L      a literal, 'value' is the byte
**  value  base length (3..258), base distance (1..24577) or code-length
**         symbol (0..18)
**
** Entries of subtables count the whole code in 'clen' and 'nbits', so
** that once found they are used as root entries are.
*/
#define F_LIT 0x80000000u
#define F_EOB 0x4000u
#define F_BAD 0x2000u
#define F_SUB 0x1000u

#define LBITS 11        /* index bits of the literal/length root table */
#define DBITS 8         /* ... of the distance root table */
#define PBITS 7         /* ... of the code-length code (one level) */

/*
** Room for subtables. A subtable of 2^k entries holds a complete subtree
** whose deepest code is k bits below the root, so it holds at least k + 1
** codes, and k <= K = 15 - ROOT. With at most S symbols the subtables hold
** at most (S div (K+1)) * 2^K entries, plus 2^(r-1) for the remainder r =
** S mod (K+1) if r >= 2. Literal/length (S = 286, K = 4): 57 * 16 = 912;
** distance (S = 30, K = 7): 3 * 128 + 32 = 416. The fixed code has no
** subtables. 'tables' is then about 15 KiB.
*/
#define LSIZE ((1u << LBITS) + 912u)
#define DSIZE ((1u << DBITS) + 416u)
#define PSIZE (1u << PBITS)

/* The fast loop runs while a refill can read 8 bytes and three literals
** fit; a match copied in 8- or 16-byte steps needs 15 bytes more room. */
#define FAST_IN 8
#define FAST_OUT 16
#define LMASK ((1u << LBITS) - 1)
#define DMASK ((1u << DBITS) - 1)

/* The tables of one call, on the stack. */
typedef struct tables {
  uint32_t lit[LSIZE];          /* literal/length code */
  uint32_t dist[DSIZE];         /* distance code, or the code-length code
                                   while a dynamic header is read */
  uint8_t lens[288 + 32];       /* code lengths of the block's codes */
  uint16_t sorted[288];         /* symbols by code length, then value */
  int fixed;                    /* 'lit' and 'dist' hold the fixed code */
} tables;

_Static_assert(sizeof(tables) <= 16384, "the tables must stay small");

/* The bit reader: 'bb' holds 'bc' unread bits, LSB first, and above them
** possibly the first bits of 'ip[0]'. Past the end of the input it reads
** zero bytes and counts them in 'pad'; the input was too short as soon as
** 'bc' < 8 * 'pad'. */
typedef struct bits {
  const uint8_t *ip, *end;
  uint64_t bb;
  unsigned bc, pad;
} bits;

enum { K_PRE, K_LIT, K_DIST };  /* code kinds for 'build' */

/* ---- entries per symbol, before the code length is added ---- */

#define ENT(v, x) (((uint32_t)(v) << 16) | (uint32_t)(x))
#define L1(n) (F_LIT | (uint32_t)(n) << 16)
#define L4(n) L1(n), L1((n) + 1), L1((n) + 2), L1((n) + 3)
#define L16(n) L4(n), L4((n) + 4), L4((n) + 8), L4((n) + 12)
#define L64(n) L16(n), L16((n) + 16), L16((n) + 32), L16((n) + 48)

/* Literal/length symbols 0..287: byte, end of block, base and extra bits
** of the lengths (RFC 1951 3.2.5), two invalid symbols. */
static const uint32_t lit_ent[288] = {
  L64(0), L64(64), L64(128), L64(192), F_EOB,
  ENT(3, 0), ENT(4, 0), ENT(5, 0), ENT(6, 0), ENT(7, 0), ENT(8, 0),
  ENT(9, 0), ENT(10, 0), ENT(11, 1), ENT(13, 1), ENT(15, 1), ENT(17, 1),
  ENT(19, 2), ENT(23, 2), ENT(27, 2), ENT(31, 2), ENT(35, 3), ENT(43, 3),
  ENT(51, 3), ENT(59, 3), ENT(67, 4), ENT(83, 4), ENT(99, 4), ENT(115, 4),
  ENT(131, 5), ENT(163, 5), ENT(195, 5), ENT(227, 5), ENT(258, 0),
  F_BAD, F_BAD
};

/* Distance symbols 0..31: base and extra bits, two invalid symbols. */
static const uint32_t dist_ent[32] = {
  ENT(1, 0), ENT(2, 0), ENT(3, 0), ENT(4, 0), ENT(5, 1), ENT(7, 1),
  ENT(9, 2), ENT(13, 2), ENT(17, 3), ENT(25, 3), ENT(33, 4), ENT(49, 4),
  ENT(65, 5), ENT(97, 5), ENT(129, 6), ENT(193, 6), ENT(257, 7),
  ENT(385, 7), ENT(513, 8), ENT(769, 8), ENT(1025, 9), ENT(1537, 9),
  ENT(2049, 10), ENT(3073, 10), ENT(4097, 11), ENT(6145, 11),
  ENT(8193, 12), ENT(12289, 12), ENT(16385, 13), ENT(24577, 13),
  F_BAD, F_BAD
};

/* Code-length symbols 0..18. */
static const uint32_t pre_ent[19] = {
  ENT(0, 0), ENT(1, 0), ENT(2, 0), ENT(3, 0), ENT(4, 0), ENT(5, 0),
  ENT(6, 0), ENT(7, 0), ENT(8, 0), ENT(9, 0), ENT(10, 0), ENT(11, 0),
  ENT(12, 0), ENT(13, 0), ENT(14, 0), ENT(15, 0), ENT(16, 0), ENT(17, 0),
  ENT(18, 0)
};

/* Order of the code-length code's lengths in a dynamic header. */
static const uint8_t pre_order[19] = {
  16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15
};

/* ---- building tables ---- */

/* The next code of 'len' bits in canonical order, both bit-reversed. */
static unsigned next_code(unsigned code, unsigned len) {
  unsigned bit = 1u << (len - 1);
  while (code & bit) bit >>= 1;
  return bit ? (code & (bit - 1)) | bit : 0;
}

/*
** Build in 'tab' (room for 'cap' entries, root of 'root' bits) the table
** of the canonical code whose code lengths are 'lens[0..n)' (0: symbol
** unused), 'ent' giving each symbol's entry. Returns -1 when zlib would
** refuse the lengths: an over-subscribed code; an incomplete one, except
** (not for the code-length code) a single code of one bit, whose other
** half decodes as invalid; no code at all, except for distances (any
** distance is then invalid).
*/
static int build(uint32_t *tab, unsigned root, unsigned cap,
                 const uint8_t *lens, unsigned n, const uint32_t *ent,
                 int kind, uint16_t *sorted) {
  unsigned count[16], offs[16], c4[4][16] = {{0}}, s = 0;
  for (; s + 4 <= n; s += 4) {  /* four counts: no store-load chains */
    c4[0][lens[s]]++;
    c4[1][lens[s + 1]]++;
    c4[2][lens[s + 2]]++;
    c4[3][lens[s + 3]]++;
  }
  for (; s < n; s++) c4[0][lens[s]]++;
  for (unsigned l = 0; l < 16; l++)
    count[l] = c4[0][l] + c4[1][l] + c4[2][l] + c4[3][l];
  int left = 1;
  unsigned maxlen = 0;
  for (unsigned l = 1; l <= 15; l++) {
    left = 2 * left - (int)count[l];
    if (left < 0) return -1;                    /* over-subscribed */
    if (count[l]) maxlen = l;
  }
  unsigned rsize = 1u << root;
  if (left > 0) {                               /* incomplete */
    if (maxlen == 0 ? kind != K_DIST : kind == K_PRE || maxlen != 1)
      return -1;
    uint32_t e = F_BAD;
    for (s = 0; maxlen && s < n; s++)
      if (lens[s]) e = ent[s] + (1u << 8) + 1;
    for (unsigned j = 0; j < rsize; j++) tab[j] = j & 1 ? F_BAD : e;
    return 0;
  }
  offs[0] = 0;                  /* unused symbols first, then by length */
  for (unsigned l = 0; l < 15; l++) offs[l + 1] = offs[l] + count[l];
  for (s = 0; s < n; s++) sorted[offs[lens[s]]++] = (uint16_t)s;
  /*
  ** Codes that fit the root, shortest first: while the codes of 'len'
  ** bits are placed, the table is 2^len entries long; each code goes to
  ** its one index, then the table is doubled by copying it, which puts
  ** every code at each index whose low bits are the code.
  */
  unsigned code = 0, i = count[0], len = 1, size;
  while (len < root && !count[len]) len++;
  for (size = 1u << len;; size *= 2, len++) {
    for (unsigned k = count[len]; k; k--) {
      tab[code] = ent[sorted[i++]] + (len << 8) + len;
      code = next_code(code, len);
    }
    if (len == root) break;
    memcpy(tab + size, tab, size * sizeof *tab);
  }
  len++;
  /* longer codes: a subtable per distinct first 'root' bits, just big
     enough for the codes that follow in canonical order under them */
  unsigned low = rsize, sub = 0, subsize = 0, next = rsize;
  for (; len <= maxlen; len++) {
    for (; count[len]; count[len]--) {
      if ((code & (rsize - 1)) != low) {
        unsigned k = len - root;
        int room = 1 << k;
        while (k + root < maxlen) {
          room -= (int)count[k + root];
          if (room <= 0) break;
          k++;
          room *= 2;
        }
        if (next + (1u << k) > cap) return -1;  /* cannot happen */
        low = code & (rsize - 1);
        tab[low] = F_SUB | next << 16 | k << 8;
        sub = next;
        subsize = 1u << k;
        next += subsize;
      }
      uint32_t e = ent[sorted[i++]] + (len << 8) + len;
      for (unsigned j = code >> root; j < subsize; j += 1u << (len - root))
        tab[sub + j] = e;
      code = next_code(code, len);
    }
  }
  return 0;
}

/* The fixed code (RFC 1951 3.2.6) in 't'. */
static void build_fixed(tables *t) {
  uint8_t *l = t->lens;
  memset(l, 8, 144);
  memset(l + 144, 9, 112);
  memset(l + 256, 7, 24);
  memset(l + 280, 8, 8);
  build(t->lit, LBITS, LSIZE, l, 288, lit_ent, K_LIT, t->sorted);
  memset(l, 5, 32);
  build(t->dist, DBITS, DSIZE, l, 32, dist_ent, K_DIST, t->sorted);
  t->fixed = 1;
}

/* ---- the bit reader ---- */

static inline uint64_t load64(const uint8_t *p) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  uint64_t v;
  memcpy(&v, p, 8);
  return v;
#else
  uint64_t v = 0;
  for (int i = 7; i >= 0; i--) v = v << 8 | p[i];
  return v;
#endif
}

/*
** Fill the bit buffer to at least 56 bits. With 8 bytes or more left,
** one load: the bytes that fit whole are counted, the part of the next
** byte that lands above them is read again next time. Near the end, byte
** by byte, then zero bytes counted in 'pad'.
*/
#define REFILL(ip, end, bb, bc, pad)                                     \
  do {                                                                   \
    if ((end) - (ip) >= 8) {                                             \
      (bb) |= load64(ip) << (bc);                                        \
      (ip) += (63 - (bc)) >> 3;                                          \
      (bc) |= 56;                                                        \
    } else {                                                             \
      for (; (bc) < 56; (bc) += 8) {                                     \
        if ((ip) < (end))                                                \
          (bb) |= (uint64_t) * (ip)++ << (bc);                           \
        else                                                             \
          (pad)++;                                                       \
      }                                                                  \
    }                                                                    \
  } while (0)

#define BITS(bb, n) ((uint32_t)(bb) & ((1u << (n)) - 1))
#define DROP(e) (bb >>= (e) & 0xff, bc -= (e) & 0xff)

static inline void refill(bits *b) {
  REFILL(b->ip, b->end, b->bb, b->bc, b->pad);
}

static inline uint32_t take(bits *b, unsigned n) {
  uint32_t v = BITS(b->bb, n);
  b->bb >>= n;
  b->bc -= n;
  return v;
}

/*
** Read a dynamic block's header (RFC 1951 3.2.7) and build its tables in
** 't'. Returns -1 on anything zlib refuses: more than 286 literal/length
** or 30 distance codes, bad code-length code, a repeat with nothing
** before it or past the last length, no end-of-block code, bad codes.
*/
static int dynamic(tables *t, bits *b) {
  refill(b);
  unsigned nlen = take(b, 5) + 257, ndist = take(b, 5) + 1;
  unsigned ncode = take(b, 4) + 4;
  if (nlen > 286 || ndist > 30) return -1;
  uint8_t cl[19] = {0};
  for (unsigned i = 0; i < ncode; i++) {
    if (b->bc < 3) refill(b);
    cl[pre_order[i]] = (uint8_t)take(b, 3);
  }
  if (build(t->dist, PBITS, PSIZE, cl, 19, pre_ent, K_PRE, t->sorted))
    return -1;
  unsigned n = 0, total = nlen + ndist;
  while (n < total) {
    if (b->bc < 14) refill(b);
    uint32_t e = t->dist[BITS(b->bb, PBITS)];
    take(b, e & 0xff);
    unsigned sym = e >> 16, rep, v = 0;
    if (sym < 16) {
      t->lens[n++] = (uint8_t)sym;
      continue;
    }
    if (sym == 16) {
      if (n == 0) return -1;
      v = t->lens[n - 1];
      rep = 3 + take(b, 2);
    } else if (sym == 17) {
      rep = 3 + take(b, 3);
    } else {
      rep = 11 + take(b, 7);
    }
    if (rep > total - n) return -1;
    memset(t->lens + n, (int)v, rep);
    n += rep;
  }
  if (t->lens[256] == 0) return -1;
  if (build(t->lit, LBITS, LSIZE, t->lens, nlen, lit_ent, K_LIT,
            t->sorted))
    return -1;
  return build(t->dist, DBITS, DSIZE, t->lens + nlen, ndist, dist_ent,
               K_DIST, t->sorted);
}

/* ---- decoding ---- */

static inline void copy8(uint8_t *d, const uint8_t *s) { memcpy(d, s, 8); }

/* Steps of the pattern copy for distances 2..7: multiples of the distance,
** at least 8, at most 8 + distance. */
static const uint8_t pat_step[8] = {0, 0, 8, 9, 8, 10, 12, 14};

/*
** Copy a match of 'len' bytes from 'dist' back (1 <= 'dist' <= bytes
** written) to 'op', writing up to 'len' + 15 bytes. Returns 'op' + 'len'.
*/
static inline uint8_t *copy_fast(uint8_t *op, uint32_t dist, uint32_t len) {
  uint8_t *end = op + len;
  const uint8_t *src = op - dist;
  if (dist >= 8) {              /* 8-byte chunks never overlap */
    copy8(op, src);
    copy8(op + 8, src + 8);
    while (op + 16 < end) {
      op += 16;
      src += 16;
      copy8(op, src);
      copy8(op + 8, src + 8);
    }
  } else if (dist == 1) {
    uint64_t v = 0x0101010101010101ull * src[0];
    do {
      memcpy(op, &v, 8);
      memcpy(op + 8, &v, 8);
      op += 16;
    } while (op < end);
  } else {                      /* the first 8, then whole periods */
    for (int i = 0; i < 8; i++) op[i] = src[i];
    unsigned step = pat_step[dist];
    for (op += 8; op < end; op += 8) copy8(op, op - step);
  }
  return end;
}

/*
** Blocks in order. A Huffman block runs a fast loop while 8 input bytes
** and 16 output bytes are left, then one symbol at a time with every
** bound checked. Verdicts come in stream order, as zlib gives them: a
** symbol that needs output nobody has room for is SHORT, but only once
** its bits were all in the input (else the input is truncated: BAD) and
** its distance, if any, is valid (a full output does not hide a bad one).
*/
int cr_io__inflate(uint8_t *out, size_t outcap, size_t *outlen,
                   const uint8_t *in, size_t inlen) {
  tables t;
  uint8_t none;
  *outlen = 0;
  if (inlen == 0) return CR_INFL_BAD;
  if (!out) {
    out = &none;
    outcap = 0;
  }
  const uint8_t *ip = in, *const iend = in + inlen;
  uint8_t *op = out, *const oend = out + outcap;
  uint64_t bb = 0;
  unsigned bc = 0, pad = 0, final;
  t.fixed = 0;
  do {
    REFILL(ip, iend, bb, bc, pad);
    final = bb & 1;
    unsigned type = (bb >> 1) & 3;
    bb >>= 3;
    bc -= 3;
    if (type == 0) {            /* stored: LEN, NLEN, then LEN bytes */
      bb >>= bc & 7;
      bc -= bc & 7;
      if (bc < 8 * pad) goto bad;
      ip -= bc / 8 - pad;       /* back to the first unread byte */
      bb = 0;
      bc = pad = 0;
      if (iend - ip < 4) goto bad;
      size_t n = ip[0] | (unsigned)ip[1] << 8;
      if ((ip[2] ^ ip[0]) != 0xff || (ip[3] ^ ip[1]) != 0xff) goto bad;
      ip += 4;
      size_t have = (size_t)(iend - ip), room = (size_t)(oend - op);
      if (n > have || n > room) {
        /* zlib copies what it can: too little room first, or input */
        if ((n < have ? n : have) > room) goto short_;
        goto bad;
      }
      memcpy(op, ip, n);
      op += n;
      ip += n;
      continue;
    }
    if (type == 3) goto bad;
    if (type == 1) {
      if (!t.fixed) build_fixed(&t);
    } else {
      bits b = {ip, iend, bb, bc, pad};
      t.fixed = 0;
      int rc = dynamic(&t, &b);
      ip = b.ip;
      bb = b.bb;
      bc = b.bc;
      pad = b.pad;
      if (rc || bc < 8 * pad) goto bad;
    }
    const uint32_t *lt = t.lit, *dt = t.dist;
    for (;;) {
      uint32_t e, len, dist;
      if (iend - ip >= FAST_IN && oend - op >= FAST_OUT) {
        /*
        ** Fast: after a refill the 64 bits of 'bb' are all stream bits and
        ** a literal/length and a distance take at most 48 of them, so the
        ** next entry is looked up before the refill and the copy.
        */
        bb |= load64(ip) << bc;
        ip += (63 - bc) >> 3;
        bc |= 56;
        e = lt[bb & LMASK];
        for (;;) {
          if (e & F_SUB) e = lt[(e >> 16) + BITS(bb >> LBITS, (e >> 8) & 15)];
          if (e & F_LIT) {      /* up to three literals: 45 bits */
            DROP(e);
            *op++ = (uint8_t)(e >> 16);
            e = lt[bb & LMASK];
            if (e & F_LIT) {
              DROP(e);
              *op++ = (uint8_t)(e >> 16);
              e = lt[bb & LMASK];
              if (e & F_LIT) {
                DROP(e);
                *op++ = (uint8_t)(e >> 16);
                e = lt[bb & LMASK];
              }
            }
          } else if (!(e & (F_EOB | F_BAD))) {
            len = (e >> 16) + (BITS(bb, e & 0xff) >> ((e >> 8) & 15));
            DROP(e);
            e = dt[bb & DMASK];
            if (e & F_SUB)
              e = dt[(e >> 16) + BITS(bb >> DBITS, (e >> 8) & 15)];
            if (e & F_BAD) goto bad;
            dist = (e >> 16) + (BITS(bb, e & 0xff) >> ((e >> 8) & 15));
            DROP(e);
            if (dist > (size_t)(op - out)) goto bad;
            e = lt[bb & LMASK];
            if (len + 15 <= (size_t)(oend - op)) {
              op = copy_fast(op, dist, len);
            } else {
              if (len > (size_t)(oend - op)) goto short_;
              for (uint32_t i = 0; i < len; i++)
                op[i] = op[(ptrdiff_t)i - dist];
              op += len;
            }
          } else {
            if (e & F_BAD) goto bad;
            DROP(e);
            goto eob;
          }
          if (iend - ip < FAST_IN || oend - op < FAST_OUT) break;
          bb |= load64(ip) << bc;
          ip += (63 - bc) >> 3;
          bc |= 56;
        }
        continue;
      }
      /* slow: one symbol, every bound checked */
      REFILL(ip, iend, bb, bc, pad);
      e = lt[bb & LMASK];
      if (e & F_SUB) e = lt[(e >> 16) + BITS(bb >> LBITS, (e >> 8) & 15)];
      if (e & F_BAD) goto bad;
      len = (e >> 16) + (BITS(bb, e & 0xff) >> ((e >> 8) & 15));
      DROP(e);
      if (e & (F_LIT | F_EOB)) {
        if (bc < 8 * pad) goto bad;
        if (e & F_EOB) break;
        if (op == oend) goto short_;
        *op++ = (uint8_t)(e >> 16);
        continue;
      }
      e = dt[bb & DMASK];
      if (e & F_SUB) e = dt[(e >> 16) + BITS(bb >> DBITS, (e >> 8) & 15)];
      if (e & F_BAD) goto bad;
      dist = (e >> 16) + (BITS(bb, e & 0xff) >> ((e >> 8) & 15));
      DROP(e);
      if (bc < 8 * pad || dist > (size_t)(op - out)) goto bad;
      if (len > (size_t)(oend - op)) goto short_;
      for (uint32_t i = 0; i < len; i++) op[i] = op[(ptrdiff_t)i - dist];
      op += len;
    }
  eob:;
  } while (!final);
  if (bc < 8 * pad) goto bad;
  *outlen = (size_t)(op - out);
  return CR_INFL_OK;
short_:
  return CR_INFL_SHORT;
bad:
  return CR_INFL_BAD;
}
