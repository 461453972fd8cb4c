/*
** input.c -- the profile reader's bytes, from a file or from memory,
** plain or gzip (RFC 1952, inflated by zlib as a stream, member after
** member as gzip(1) reads them), handed to libxml2 with the DOCTYPE
** watch (see prof_int.h).
*/
#include <errno.h>
#include <limits.h>
#include <string.h>

#define ZLIB_CONST
#include <zlib.h>

#include "cccp/profile.h"
#include "prof_int.h"

struct cr_prof_gz {
  z_stream z;
  int end;               /* a member ended: another may follow */
  unsigned char buf[1 << 16];   /* compressed bytes read from the file */
};

/* zlib's allocations through ours (fault injection reaches them). */
static voidpf zalloc(voidpf opaque, uInt n, uInt size) {
  (void)opaque;
  return cr_calloc(n, size);
}

static void zfree(voidpf opaque, voidpf p) {
  (void)opaque;
  cr_free(p);
}

/* Start inflating: 'in->gz', its 'n' first bytes already in 'buf'. */
static int gz_open(cr_prof_input *in, const unsigned char *first, size_t n) {
  cr_prof_gz *g = cr_malloc(sizeof *g);
  if (!g) return CR_ENOMEM;
  memset(&g->z, 0, sizeof g->z);
  g->z.zalloc = zalloc;
  g->z.zfree = zfree;
  g->end = 0;
  if (n) memcpy(g->buf, first, n);
  g->z.next_in = g->buf;
  g->z.avail_in = (uInt)n;
  if (inflateInit2(&g->z, 16 + MAX_WBITS) != Z_OK) {
    cr_free(g);
    return CR_ENOMEM;
  }
  in->gz = g;
  return 0;
}

int cr_prof__input_file(cr_prof_input *in, FILE *f) {
  memset(in, 0, sizeof *in);
  in->f = f;
  in->nhead = fread(in->head, 1, sizeof in->head, f);
  if (in->nhead < sizeof in->head && ferror(f)) {
    in->ioerr = errno ? errno : EIO;
    return CR_EIO;
  }
  if (in->nhead == 2 && in->head[0] == 0x1f && in->head[1] == 0x8b) {
    in->nhead = 0;
    return gz_open(in, in->head, 2);
  }
  return 0;
}

int cr_prof__input_memory(cr_prof_input *in, const char *mem, size_t len) {
  memset(in, 0, sizeof *in);
  in->mem = mem;
  in->len = len;
  if (len >= 2 && (unsigned char)mem[0] == 0x1f &&
      (unsigned char)mem[1] == 0x8b)
    return gz_open(in, NULL, 0);
  return 0;
}

void cr_prof__input_close(cr_prof_input *in) {
  if (!in->gz) return;
  inflateEnd(&in->gz->z);
  cr_free(in->gz);
  in->gz = NULL;
}

/* Record a gzip error; -1 for the parser. */
static int fail(cr_prof_input *in, int code, const char *what,
                const char *detail) {
  if (!in->err) {
    in->err = code;
    snprintf(in->why, sizeof in->why, detail ? "%s (%s)" : "%s", what,
             detail);
  }
  return -1;
}

/*
** More compressed bytes after the 'avail_in' not consumed yet: 0 at the
** end of the data (or on a read error, 'ioerr' set). A file is read
** into 'buf'; memory is inflated in place.
*/
static int fill(cr_prof_input *in) {
  z_stream *z = &in->gz->z;
  size_t have = z->avail_in, n;
  if (in->f) {
    if (have) memmove(in->gz->buf, z->next_in, have);
    z->next_in = in->gz->buf;
    n = fread(in->gz->buf + have, 1, sizeof in->gz->buf - have, in->f);
    if (n == 0 && ferror(in->f)) {
      in->ioerr = errno ? errno : EIO;
      return 0;
    }
  } else {
    n = in->len - in->pos;
    if (n > (1u << 30)) n = 1u << 30;
    if (!have) z->next_in = (const Bytef *)in->mem + in->pos;
    in->pos += n;
  }
  z->avail_in = (uInt)(have + n);
  return n > 0;
}

/*
** Inflate into 'buf' (up to 'len' bytes): the count, 0 at the end of
** the data, -1 on an error. A member's end is where the data may end;
** after it, the next two bytes must start another member.
*/
static long inflate_some(cr_prof_input *in, unsigned char *buf, size_t len) {
  z_stream *z = &in->gz->z;
  z->next_out = buf;
  z->avail_out = (uInt)len;
  while (z->avail_out) {
    if (!z->avail_in && !fill(in)) {
      if (in->ioerr) return -1;
      if (!in->gz->end) return fail(in, CR_EFORMAT, "truncated gzip data",
                                    NULL);
      break;
    }
    if (in->gz->end) {
      if (z->avail_in < 2) fill(in);
      if (in->ioerr) return -1;
      if (z->avail_in < 2 || z->next_in[0] != 0x1f || z->next_in[1] != 0x8b)
        return fail(in, CR_EFORMAT,
                    z->avail_in == 1 && z->next_in[0] == 0x1f
                        ? "truncated gzip data"
                        : "trailing garbage after gzip data",
                    NULL);
      if (inflateReset(&in->gz->z) != Z_OK)
        return fail(in, CR_EFORMAT, "corrupt gzip data", NULL);
      in->gz->end = 0;
    }
    int r = inflate(z, Z_NO_FLUSH);
    if (r == Z_STREAM_END) {
      in->gz->end = 1;
    } else if (r == Z_MEM_ERROR) {
      return fail(in, CR_ENOMEM, "out of memory", NULL);
    } else if (r != Z_OK && !(r == Z_BUF_ERROR && !z->avail_in)) {
      /* (Z_BUF_ERROR with input and room left would be no progress) */
      return fail(in, CR_EFORMAT, "corrupt gzip data", z->msg);
    }
  }
  return (long)(len - z->avail_out);
}

/*
** A gzip bomb cannot make the reader hold much or run long on text it
** throws away: at most CR_PROF_MAX_GAP bytes of XML (whitespace, a
** comment, an attribute value) between two tags. Past that the read
** fails, 'err' CR_ETOOLARGE. The nodes themselves are bounded as in a
** plain file (CR_PROF_MAX_ITEMS, memory).
*/
int cr_prof__read(void *ctx, char *buf, int len) {
  cr_prof_input *in = ctx;
  size_t n;
  if (in->gz) {
    if (in->err) return -1;
    if (in->out - in->mark > CR_PROF_MAX_GAP)
      return fail(in, CR_ETOOLARGE, "more than " CR_PROF_MAX_GAP_TEXT
                  " of XML between two tags", NULL);
    long r = inflate_some(in, (unsigned char *)buf, (size_t)len);
    if (r < 0) return -1;
    n = (size_t)r;
    in->out += n;
  } else if (in->f) {
    n = 0;
    if (in->nhead) {   /* the bytes read to tell gzip (len > 2) */
      memcpy(buf, in->head, in->nhead);
      n = in->nhead;
      in->nhead = 0;
    }
    n += fread(buf + n, 1, (size_t)len - n, in->f);
    if (n == 0 && ferror(in->f)) {
      in->ioerr = errno ? errno : EIO;
      return -1;
    }
  } else {
    n = in->len - in->pos;
    if (n > (size_t)len) n = (size_t)len;
    memcpy(buf, in->mem + in->pos, n);
    in->pos += n;
  }
  if (in->root) return (int)n;
  static const char pat[] = "<!DOCTYPE";
  const size_t pl = sizeof pat - 1;
  char win[8 + 4096];
  for (size_t off = 0; off < n; off += 4096) {
    size_t k = n - off < 4096 ? n - off : 4096;
    memcpy(win, in->tail, in->ntail);
    memcpy(win + in->ntail, buf + off, k);
    size_t w = in->ntail + k;
    for (size_t i = 0; i + pl <= w; i++)
      if (win[i] == '<' && memcmp(win + i, pat, pl) == 0) {
        long line = 1 + in->nl;
        for (size_t j = in->ntail; j < i; j++) line += win[j] == '\n';
        in->doctype = line > INT_MAX ? INT_MAX : (int)line;
        return -1;
      }
    for (size_t j = in->ntail; j < w; j++) in->nl += win[j] == '\n';
    in->ntail = w < pl - 1 ? w : pl - 1;
    memmove(in->tail, win + w - in->ntail, in->ntail);
  }
  return (int)n;
}

void cr_prof__drain(cr_prof_input *in, size_t max) {
  unsigned char buf[4096];
  while (in->gz && !in->err && !in->ioerr && max) {
    long r = inflate_some(in, buf, max < sizeof buf ? max : sizeof buf);
    if (r <= 0) break;
    max -= (size_t)r;
  }
}
