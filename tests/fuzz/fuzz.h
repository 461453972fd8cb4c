/*
** fuzz.h -- the fuzz targets of cccp. Each target is one entry function
** that takes arbitrary bytes and must neither crash, leak nor break a
** contract of the library; 'fuzz_fail' aborts with a message when it does.
** libfuzzer.c wraps one target for libFuzzer; replay.c runs corpora and
** regression inputs through every target with any compiler.
*/
#ifndef CCCP_FUZZ_H
#define CCCP_FUZZ_H

#include <stddef.h>
#include <stdint.h>

#include "cccp/util.h"

/* Class bytes: parse, write back (must equal the input), grow the pool. */
int fuzz_class(const uint8_t *data, size_t size);
/* A jar/zip file: open, list, read every entry. */
int fuzz_jar(const uint8_t *data, size_t size);
/* A jmod: "JM\1\0" is prepended to the input, then as 'fuzz_jar'. */
int fuzz_jmod(const uint8_t *data, size_t size);
/* A jimage (lib/modules) file: open, list, read every resource. */
int fuzz_jimage(const uint8_t *data, size_t size);

/* Class bytes past the parser: every method re-encoded with new frames
** (plain and under stress probes) and the class instrumented (CCCP)
** against a hierarchy of just itself; each result must write and parse. */
int fuzz_code(const uint8_t *data, size_t size);
/* A policy XML document: load; a loaded policy must print and reload. */
int fuzz_policy(const uint8_t *data, size_t size);
/* A hierarchy summary file: load, link, analyse, save, load again. */
int fuzz_summary(const uint8_t *data, size_t size);
/* Output capacity (u2, little endian) then a raw deflate stream: our
** inflate and zlib's must agree on the result and the bytes. */
int fuzz_inflate(const uint8_t *data, size_t size);
/* Bytes to compress with our deflate: zlib must inflate every result
** back to them, within the room promised. */
int fuzz_deflate(const uint8_t *data, size_t size);

/* Profile XML: load; a loaded profile keeps its invariants, writes and
** reads back the same, merges with itself, compares with itself at 100%. */
int fuzz_profile(const uint8_t *data, size_t size);

/* Targets by name, for the replay driver. ORDER as in replay.c. */
typedef struct fuzz_target {
  const char *name;
  int (*run)(const uint8_t *data, size_t size);
} fuzz_target;
extern const fuzz_target fuzz_targets[];

/* Report a broken contract on stderr and abort (libFuzzer saves the input). */
__attribute__((noreturn, format(printf, 1, 2)))
void fuzz_fail(const char *fmt, ...);

#define FUZZ_CHECK(cond, ...) \
  do { if (!(cond)) fuzz_fail(__VA_ARGS__); } while (0)

/*
** Check that a failed call left a proper diagnostic: code 'rc' recorded,
** a message, an offset of -1 or inside [0, size].
*/
void fuzz_check_diag(const cr_diag *d, int rc, size_t size,
                     const char *what);

/*
** Write 'prefix' then 'data' to a scratch file (a memfd where the kernel
** has them) and run the container checks on it: open with
** 'cr_input_open', list every entry, read each, check sizes and errors,
** and that the kind detected is the one the first bytes call for.
*/
int fuzz_container(const uint8_t *prefix, size_t plen, const uint8_t *data,
                   size_t size);

/* Put 'data' in the scratch file; its path (valid until the next call). */
const char *fuzz_scratch(const uint8_t *data, size_t size);

#endif
