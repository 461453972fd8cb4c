/*
** prof_int.h -- private to src/profile: the bytes of a profile on their
** way to the reader's XML parser (input.c).
*/
#ifndef CCCP_PROF_INT_H
#define CCCP_PROF_INT_H

#include <stddef.h>
#include <stdio.h>

/*
** A profile's bytes: a FILE or a memory block, read by 'cr_prof__read'
** (libxml2's input callback), which watches the bytes for "<!DOCTYPE"
** (across chunk boundaries) and fails the read when it appears, so no
** DTD or entity declaration is ever parsed. A DOCTYPE can only come
** before the root element: once that has started ('root', set by the
** parser's callbacks), the rest (nearly all of it) is handed over
** unread. Transparent; zero it, then set 'f' or 'mem' and 'len'.
*/
typedef struct cr_prof_input {
  FILE *f;               /* the file, or NULL: */
  const char *mem;       /*   the bytes in memory */
  size_t len, pos;       /*   their length, the next one */
  char tail[8];          /* last bytes of the previous chunk */
  size_t ntail;
  int doctype;           /* set when a DOCTYPE was seen: its line */
  long nl;               /* newlines in the bytes scanned so far */
  int ioerr;             /* errno of a read error */
  int root;              /* the root element has started: scan no more */
} cr_prof_input;

/* Up to 'len' more bytes of 'ctx' (a cr_prof_input) into 'buf': the
** count, 0 at the end, -1 on a read error or a DOCTYPE. */
int cr_prof__read(void *ctx, char *buf, int len);

#endif
