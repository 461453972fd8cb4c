/*
** io_int.h -- private to src/io: the input object shared by the container
** readers (zip.c for jars and jmods, jimage.c, input.c for the rest).
*/
#ifndef CCCP_IO_INT_H
#define CCCP_IO_INT_H

#include <pthread.h>
#include <stdint.h>

#include <zip.h>

#include "cccp/io.h"

/* One listed entry. Strings live in the input's arena (or its mapping). */
typedef struct io_ent {
  const char *name;     /* output name */
  const char *module;   /* jmod/jimage module, else NULL */
  uint64_t size;        /* declared uncompressed size */
  uint64_t ref;         /* zip: entry index; jimage: resource offset */
  uint64_t csize;       /* jimage: compressed size, 0 if stored; zip:
                           compressed size when 'direct' */
  uint32_t crc;         /* zip: CRC-32 of the data when 'direct' */
  uint8_t direct;       /* zip: deflated, not encrypted, plausible sizes:
                           inflated here rather than by libzip */
  int is_dir;
  uint16_t dtime, ddate;  /* zip: DOS time and date, 0 0 when not known */
  uint8_t os;           /* zip: system that made the entry, attributes */
  uint32_t attr;        /*   (see cr_entry_info) */
  int8_t method;        /* zip: 0 stored, 1 deflated; -1 other or none */
} io_ent;

/* A libzip handle with what one reader needs besides it. */
typedef struct io_zh {
  zip_t *za;
  uint8_t *raw;         /* compressed bytes of a 'direct' entry */
  size_t rawcap;
} io_zh;

struct cr_input {
  cr_input_kind kind;
  char *path;           /* as given to 'cr_input_open' */
  cr_arena *arena;      /* names */
  io_ent *ents;
  size_t n, cap;
  uint64_t max_entry, max_total;
  uint64_t total;       /* sum of declared sizes */
  /* entries kept between two reads ('cr_input_keep') */
  pthread_mutex_t kmu;
  int kmu_ok;
  uint8_t **kept;       /* per entry, NULL when not kept */
  uint64_t keep_max, keep_used;
  /* jar and jmod: a pool of libzip handles, one per concurrent reader */
  pthread_mutex_t mu;
  int mu_ok;            /* 'mu' initialised */
  io_zh **zall;         /* every open handle */
  io_zh **zidle;        /* handles not checked out (subset of 'zall') */
  size_t nzall, nzidle, capz;
  uint64_t zstart;      /* offset of the zip inside the file (jmod: 4) */
  /* jimage: the whole file mapped read-only */
  const uint8_t *map;
  size_t maplen;
  int swap;             /* image byte order differs from ours */
  uint64_t strings;     /* offset and size of the strings table */
  uint64_t nstrings;
  uint64_t index;       /* resources start here */
};

/* Append an entry slot (zeroed) or NULL on OOM. */
io_ent *cr_io__add(cr_input *in);
/* Copy 'n' bytes of 's' into the input's arena, NUL-terminated. */
char *cr_io__strdup(cr_input *in, const char *s, size_t n);

/*
** Per-kind hooks. 'open' lists the entries, 'read' fills 'buf' with
** exactly 'e->size' bytes; both record errors in 'd' (the caller adds the
** file and entry names); 'close' releases kind-specific resources.
*/
int cr_io__zip_open(cr_input *in, cr_diag *d);
int cr_io__zip_read(cr_input *in, const io_ent *e, uint8_t *buf,
                    cr_diag *d);
void cr_io__zip_close(cr_input *in);

int cr_io__jimage_open(cr_input *in, cr_diag *d);
int cr_io__jimage_read(cr_input *in, const io_ent *e, uint8_t *buf,
                       cr_diag *d);
void cr_io__jimage_close(cr_input *in);
/* Does 'p' (4 bytes) hold the jimage magic in either byte order? */
int cr_io__jimage_magic(const uint8_t *p);

/*
** True if 'name' can be a module name used as a file name: non-empty, not
** "." or "..", no '/', no control bytes (a hostile image must not make
** the caller write outside its output folder).
*/
int cr_io__module_name_ok(const char *name);

#endif
