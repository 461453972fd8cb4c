/*
** io.h -- containers: read jars/zips (libzip), jmods, the JDK run-time image
** (lib/modules, jimage format), directories and single class files; write
** deterministic jars atomically.
*/
#ifndef CCCP_IO_H
#define CCCP_IO_H

#include <stddef.h>
#include <stdint.h>

#include "cccp/util.h"

typedef enum cr_input_kind {
  CR_IN_JAR,            /* zip or jar file */
  CR_IN_JMOD,           /* "JM" 1.0 header followed by a zip */
  CR_IN_JIMAGE,         /* JDK run-time image, lib/modules */
  CR_IN_DIR,            /* a directory tree of files */
  CR_IN_CLASS           /* one .class file */
} cr_input_kind;

/* Limits guarding against zip bombs; see cr_input_set_limits. */
#define CR_DEFAULT_MAX_ENTRY ((uint64_t)256 << 20)   /* 256 MiB */
#define CR_DEFAULT_MAX_TOTAL ((uint64_t)16 << 30)    /* 16 GiB */

/*
** One entry of an input, as the output will name it. Transparent; strings
** are owned by the input and live until 'cr_input_close'.
*/
typedef struct cr_entry_info {
  const char *name;     /* output path: "java/lang/Object.class",
                           "META-INF/MANIFEST.MF", "a/b/" for a directory.
                           jmod: the "classes/" prefix dropped; jimage: the
                           path inside its module; dir: relative path. */
  const char *module;   /* jimage and jmod: module name; otherwise NULL */
  uint64_t size;        /* uncompressed size as the container declares it */
  int is_dir;           /* directory entry (name ends in '/') */
  uint16_t dos_time;    /* jar and jmod: the entry's modification time and */
  uint16_t dos_date;    /* date, DOS encoding; 0 0 when there is none */
  uint8_t os;           /* jar and jmod: the system that made the entry */
  uint32_t ext_attr;    /* (0 MS-DOS, 3 Unix: the high byte of "version
                           made by") and its external attributes (Unix:
                           the file mode in the high 16 bits); 0 0 when
                           there are none */
  int method;           /* jar and jmod: 0 stored, 1 deflated; -1 other
                           kinds of input, or another method */
} cr_entry_info;

typedef struct cr_input cr_input;

/*
** Open 'path', detecting its kind: a directory; a file starting "JM\1\0"
** (jmod); a file with the jimage magic (lib/modules); a file starting
** 0xCAFEBABE (class); otherwise a zip. A directory that is a JDK home
** (has lib/modules) is NOT opened as an image here: the caller decides
** (see cr_jdk_modules_path). Only the entries the output keeps are listed:
** for a jmod the "classes/" section, for a jimage the resources of every
** module (not the /packages and /modules directory entries).
** Entry order is the container's own, except jimage and directories,
** which are sorted by (module, name) so that the order is deterministic.
*/
int cr_input_open(cr_input **out, const char *path, cr_diag *d);
void cr_input_close(cr_input *in);
cr_input_kind cr_input_kind_of(const cr_input *in);
const char *cr_input_path(const cr_input *in);
size_t cr_input_count(const cr_input *in);
/* Fill '*out' for entry 'i' (< count). */
void cr_input_info(const cr_input *in, size_t i, cr_entry_info *out);

/*
** Read entry 'i' into a malloc'd buffer ('cr_free' it). Safe to call from
** several threads at once on one input. Enforces the entry-size limit and
** checks the CRC where the container has one. Errors name the entry.
*/
int cr_input_read(cr_input *in, size_t i, uint8_t **data, size_t *len,
                  cr_diag *d);
void cr_input_set_limits(cr_input *in, uint64_t max_entry, uint64_t max_total);
/* Sum of the declared sizes of all entries. */
uint64_t cr_input_total(const cr_input *in);

/*
** Two passes over the same classes (the hierarchy, then the rewrite) read
** every entry twice, and reading (mostly inflating) costs about as much
** as parsing. 'cr_input_set_keep' lets 'in' hold up to 'max' bytes of
** entries between the two (0, the default, holds none). 'cr_input_keep'
** hands entry 'i' just read back to 'in': it returns 1 and owns 'data'
** if it fits and had to be inflated (jar, jmod, compressed image
** resource), else 0 and the caller still owns it. The next
** 'cr_input_read' of that entry returns the kept bytes without reading the
** container, once. Thread-safe like 'cr_input_read'.
*/
void cr_input_set_keep(cr_input *in, uint64_t max);
int cr_input_keep(cr_input *in, size_t i, uint8_t *data, size_t len);

/*
** If 'home' is a JDK home (contains lib/modules) or is itself a jimage
** file, write the image path to 'out' and return 0; else CR_ENOTFOUND.
*/
int cr_jdk_modules_path(char *out, size_t outsz, const char *home,
                        cr_diag *d);

/*
** Deterministic jar writer. The jar goes to a temporary file in the target
** folder and is renamed over 'path' by 'cr_jarw_commit'; 'cr_jarw_abort'
** (or a crash) never leaves anything at 'path'. Every entry gets the
** timestamp given by 'cr_zentry_set_time', by default 1980-01-01 00:00
** (programs compare entry times: Clojure loads a .clj source instead of
** its compiled class when the class is not newer), and the system and
** attributes given by 'cr_zentry_set_attrs', by default none; entries
** appear in the order they are added; duplicate names are refused
** (CR_EFORMAT).
**
** Compression can run in worker threads: 'cr_zentry_new' deflates one
** entry (thread-safe, no writer needed) and 'cr_jarw_add_entry' appends a
** prepared entry (single thread, in order). 'cr_jarw_add' does both.
*/
typedef struct cr_jarw cr_jarw;
typedef struct cr_zentry cr_zentry;

int cr_jarw_open(cr_jarw **out, const char *path, cr_diag *d);
int cr_zentry_new(cr_zentry **out, const char *name, const uint8_t *data,
                  size_t len, cr_diag *d);
/*
** The same at zlib level 'level': 0 stores, 1 (fastest) .. 9 (smallest).
** 'cr_zentry_new' uses CR_ZLEVEL_DEFAULT. Entries are stored whenever
** deflate would not make them smaller, and always for empty entries and
** directories (names ending in '/'). CR_EUSAGE for a level outside 0..9.
*/
#define CR_ZLEVEL_DEFAULT 6
int cr_zentry_new_level(cr_zentry **out, const char *name,
                        const uint8_t *data, size_t len, int level,
                        cr_diag *d);
/*
** The same, stored when 'method' is 0 and deflated when it is 1 even
** where that does not make the entry smaller (the entry keeps its input's
** method: the JDK reads a stored and a deflated entry through other
** streams, and a program can tell); -1 as 'cr_zentry_new_level'.
*/
int cr_zentry_new_as(cr_zentry **out, const char *name, const uint8_t *data,
                     size_t len, int level, int method, cr_diag *d);
void cr_zentry_free(cr_zentry *e);
/* The entry's DOS time and date (as 'cr_entry_info' gives them); 0 0
** keeps the default. */
void cr_zentry_set_time(cr_zentry *e, uint16_t dos_time, uint16_t dos_date);
/* The system that made the entry and its external attributes (as
** 'cr_entry_info' gives them; by default 0 0: MS-DOS, none). Programs read
** them: Ant's ZipFile treats '\\' in names of MS-DOS entries as '/'. */
void cr_zentry_set_attrs(cr_zentry *e, uint8_t os, uint32_t ext_attr);
/* Appends 'e' and takes ownership of it (also on error). */
int cr_jarw_add_entry(cr_jarw *w, cr_zentry *e, cr_diag *d);
int cr_jarw_add(cr_jarw *w, const char *name, const uint8_t *data,
                size_t len, cr_diag *d);
int cr_jarw_commit(cr_jarw *w, cr_diag *d);  /* frees 'w' */
void cr_jarw_abort(cr_jarw *w);              /* frees 'w' */
/*
** What 'cr_jarw_commit' does before the rename (central directory, sync,
** close), done now, so that a caller with more work can write and sync
** each jar as it is complete and rename them all at the end. A sealed
** writer takes no more entries; commit or abort it as any other.
*/
int cr_jarw_seal(cr_jarw *w, cr_diag *d);

/*
** 'cr_zentry_new' keeps a few deflate streams for reuse across calls and
** threads. Free them (e.g. before exit, for leak checkers); later calls
** simply allocate new ones. Not to be called while entries are deflated.
*/
void cr_io_release_caches(void);

#endif
