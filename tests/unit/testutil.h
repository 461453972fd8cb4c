/*
** testutil.h -- helpers shared by the unit tests: fixture discovery, file
** lists, JDK extraction, inline class-file assembly.
*/
#ifndef CCCP_TESTUTIL_H
#define CCCP_TESTUTIL_H

#include <stddef.h>
#include <stdint.h>

#include "cccp/util.h"

/* A list of paths (malloc'd). */
typedef struct tu_files {
  size_t n;
  char **path;
} tu_files;

/* The compiled Java fixtures directory ($CCCP_FIXTURES), or NULL. */
const char *tu_fixtures(void);
/* Every '*.class' under 'dir', sorted; 0 or -1 if 'dir' is unreadable. */
int tu_list_classes(tu_files *out, const char *dir);
void tu_files_free(tu_files *f);
/* Fixture 'name' ("fx/Lambdas") read into malloc'd memory; NULL if absent. */
uint8_t *tu_fixture(const char *name, size_t *len);
/* The whole file (malloc'd, a NUL after the last byte), or NULL. */
uint8_t *tu_slurp(const char *path, size_t *len);
/*
** Extract the classes of a jmod into a fresh temporary directory, once per
** process and jmod (cached). Returns the directory or NULL (with a reason
** printed) if the jmod or 'unzip' is missing.
*/
const char *tu_jmod_classes(const char *jmod);
#define TU_JDK "/usr/lib/jvm/java-17-openjdk-amd64/jmods"

/*
** Assemble a class file in 'out' (capacity 'cap'): magic, version
** 0.'major', constant_pool_count 'count', the pool bytes, then 'body'
** (access_flags onward). Returns the length.
*/
size_t tu_class(uint8_t *out, size_t cap, unsigned major, unsigned count,
                const uint8_t *pool, size_t plen, const uint8_t *body,
                size_t blen);

/* Make a fresh directory "/tmp/cccp-TAG-XXXXXX" into 'dir' (asserts). */
void tu_tmpdir(char *dir, size_t dirsz, const char *tag);
/* Remove a directory tree made by 'tu_tmpdir' (warns on failure). */
void tu_rmdir(const char *dir);
/*
** Open 'path' with cr_input and read every entry while allocation n fails,
** n = 0, 1, ...: each failure must be CR_ENOMEM (and leak nothing), and
** some n must succeed. Returns the number of allocation points swept.
*/
long tu_input_oom_sweep(const char *path);

#endif
