/*
** prof_int.h -- private to src/profile: the bytes of a profile on their
** way to the reader's XML parser (input.c), plain or gzip-compressed.
*/
#ifndef CCCP_PROF_INT_H
#define CCCP_PROF_INT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef struct cr_prof_gz cr_prof_gz;   /* inflate state, opaque */

/*
** A profile's bytes: a FILE or a memory block, plain XML or gzip (told
** by the magic bytes 1f 8b, never by the name), read by 'cr_prof__read'
** (libxml2's input callback). It watches the XML for "<!DOCTYPE" (across
** chunk boundaries) and fails the read when it appears, so no DTD or
** entity declaration is ever parsed. A DOCTYPE can only come before the
** root element: once that has started ('root', set by the parser's
** callbacks), the rest (nearly all of it) is handed over unread.
** Transparent; set up by 'cr_prof__input_file' or '_memory', released
** by 'cr_prof__input_close'.
*/
typedef struct cr_prof_input {
  FILE *f;               /* the file, or NULL: */
  const char *mem;       /*   the bytes in memory */
  size_t len, pos;       /*   their length, the next one */
  unsigned char head[2]; /* a plain file's first bytes, read to tell */
  size_t nhead;          /*   gzip: handed over first */
  cr_prof_gz *gz;        /* NULL for plain XML */
  char tail[8];          /* last bytes of the previous chunk */
  size_t ntail;
  int doctype;           /* set when a DOCTYPE was seen: its line */
  long nl;               /* newlines in the bytes scanned so far */
  int root;              /* the root element has started: scan no more */
  uint64_t out;          /* gzip: XML bytes handed over so far, */
  uint64_t mark;         /*   and when the parser last met a tag */
  int ioerr;             /* errno of a read error */
  int err;               /* CR_E* of a gzip error, 0 if none; */
  char why[96];          /*   what is wrong */
} cr_prof_input;

/*
** Set up 'in' over the open file 'f' (read from where it stands; the
** caller closes it) or over 'len' bytes at 'mem' (which outlive 'in').
** CR_ENOMEM; a read error (CR_EIO) leaves its errno in 'in->ioerr'.
*/
int cr_prof__input_file(cr_prof_input *in, FILE *f);
int cr_prof__input_memory(cr_prof_input *in, const char *mem, size_t len);
void cr_prof__input_close(cr_prof_input *in);

/* Up to 'len' more bytes of XML from 'ctx' (a cr_prof_input) into 'buf':
** the count, 0 at the end, -1 on a read error, a gzip error ('err') or
** a DOCTYPE. */
int cr_prof__read(void *ctx, char *buf, int len);

/*
** After the parser stopped at an error: inflate up to 'max' more bytes,
** unparsed, so that corrupt gzip data which already inflated to garbage
** is reported as such ('err') rather than as the garbage's XML error.
*/
void cr_prof__drain(cr_prof_input *in, size_t max);

#endif
