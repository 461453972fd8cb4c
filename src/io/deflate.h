/*
** deflate.h -- private to src/io: a fast raw-deflate compressor (RFC 1951)
** for jar entries: greedy LZ77 over a small hash table, one exact-cost
** choice of dynamic, fixed or stored coding per block.
*/
#ifndef CCCP_IO_DEFLATE_H
#define CCCP_IO_DEFLATE_H

#include <stddef.h>
#include <stdint.h>

/* Working memory of cr_io__deflate: one per thread, reusable. */
typedef struct cr_deflater cr_deflater;

/* NULL when out of memory (allocated with 'cr_malloc'). */
cr_deflater *cr_io__deflater_new(void);
void cr_io__deflater_free(cr_deflater *z);

/*
** Compress 'in' ('len' bytes) as one raw deflate stream into 'out', which
** holds 'outcap' bytes. Returns the compressed size, or 0 when it would
** not fit in 'outcap' (the caller then stores the data). Never writes
** past out[outcap). Deterministic: the same input gives the same bytes
** whatever 'z' compressed before. Any 'outcap' >= len + len/8 + 64 always
** fits (blocks fall back to stored).
*/
size_t cr_io__deflate(cr_deflater *z, uint8_t *out, size_t outcap,
                      const uint8_t *in, size_t len);

#endif
