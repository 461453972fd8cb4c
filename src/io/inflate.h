/*
** inflate.h -- private to src/io: a one-call decoder of raw DEFLATE
** streams (RFC 1951) for jar and jmod entries. No allocation, no state
** outside the call: any number of threads may inflate at once.
*/
#ifndef CCCP_IO_INFLATE_H
#define CCCP_IO_INFLATE_H

#include <stddef.h>
#include <stdint.h>

/* Result of cr_io__inflate. */
enum { CR_INFL_OK = 0, CR_INFL_BAD = 1, CR_INFL_SHORT = 2 };

/*
** Inflate the raw deflate stream 'in' ('inlen' bytes) into 'out', which
** holds 'outcap' bytes. CR_INFL_OK: the final block was decoded, '*outlen'
** bytes written (bytes after the final block are ignored). CR_INFL_SHORT:
** the data decodes to more than 'outcap' bytes. CR_INFL_BAD: anything
** invalid or truncated. On SHORT and BAD, '*outlen' is 0 and 'out' holds
** scratch. Valid and invalid streams are those of zlib's raw inflate
** (window bits 15); SHORT is reported when the stream, read in order, is
** still valid at the point where it asks for byte 'outcap' + 1.
*/
int cr_io__inflate(uint8_t *out, size_t outcap, size_t *outlen,
                   const uint8_t *in, size_t inlen);

#endif
