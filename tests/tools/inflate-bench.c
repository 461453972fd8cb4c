/*
** inflate-bench.c -- test tool: time cr_io__inflate against zlib's raw
** inflate on every deflated entry of the jmods of a JDK, in memory.
** Usage: inflate-bench [-n RUNS] [-c] [JAVA_HOME]
**   -n RUNS  best of RUNS passes per decoder (default 5)
**   -c       only the class files ('classes/...class')
** Both decoders must give the bytes libzip gives (checked once, CRC too);
** prints CPU seconds, MB/s of inflated output and the speed ratio.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <dirent.h>
#include <zip.h>
#include <zlib.h>

#include "cccp/util.h"
#include "../../src/io/inflate.h"

#define DEFAULT_JDK "/usr/lib/jvm/java-17-openjdk-amd64"

/* One deflated entry: its raw deflate bytes and what they inflate to. */
typedef struct ent {
  uint8_t *raw;
  size_t rawlen, size;
  uint32_t crc;
} ent;

static ent *ents;
static size_t nents, capents, maxsize;
static uint64_t total_in, total_out;

static void *xrealloc(void *p, size_t n) {
  p = realloc(p, n ? n : 1);
  if (!p) {
    fputs("inflate-bench: out of memory\n", stderr);
    exit(2);
  }
  return p;
}

static int endswith(const char *s, const char *suf) {
  size_t a = strlen(s), b = strlen(suf);
  return a >= b && !strcmp(s + a - b, suf);
}

/* Read the deflated entries of the jmod 'path' (a zip after "JM\1\0"). */
static int load_jmod(const char *path, int classes_only) {
  uint8_t *file;
  size_t len;
  cr_diag d;
  cr_diag_clear(&d);
  if (cr_read_file(&file, &len, path, &d)) {
    fprintf(stderr, "inflate-bench: %s: %s\n", path, d.msg);
    return -1;
  }
  if (len < 4 || memcmp(file, "JM\1\0", 4)) {
    fprintf(stderr, "inflate-bench: %s: not a jmod\n", path);
    cr_free(file);
    return -1;
  }
  zip_error_t ze;
  zip_error_init(&ze);
  zip_source_t *src = zip_source_buffer_create(file + 4, len - 4, 0, &ze);
  zip_t *za = src ? zip_open_from_source(src, ZIP_RDONLY, &ze) : NULL;
  if (!za) {
    fprintf(stderr, "inflate-bench: %s: %s\n", path, zip_error_strerror(&ze));
    if (src) zip_source_free(src);
    cr_free(file);
    return -1;
  }
  zip_int64_t n = zip_get_num_entries(za, 0);
  for (zip_int64_t i = 0; i < n; i++) {
    zip_stat_t st;
    if (zip_stat_index(za, (zip_uint64_t)i, 0, &st) ||
        st.comp_method != ZIP_CM_DEFLATE || st.size == 0)
      continue;
    if (classes_only && (strncmp(st.name, "classes/", 8) ||
                         !endswith(st.name, ".class")))
      continue;
    zip_file_t *zf = zip_fopen_index(za, (zip_uint64_t)i, ZIP_FL_COMPRESSED);
    if (!zf) continue;
    ent e = {xrealloc(NULL, st.comp_size), st.comp_size, st.size, st.crc};
    zip_int64_t got = zip_fread(zf, e.raw, e.rawlen);
    zip_fclose(zf);
    if (got != (zip_int64_t)e.rawlen) {
      free(e.raw);
      continue;
    }
    if (nents == capents) {
      capents = capents ? 2 * capents : 1024;
      ents = xrealloc(ents, capents * sizeof *ents);
    }
    ents[nents++] = e;
    total_in += e.rawlen;
    total_out += e.size;
    if (e.size > maxsize) maxsize = e.size;
  }
  zip_close(za);
  cr_free(file);
  return 0;
}

static double cpu_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Inflate every entry into 'out' with zlib; 0 or the failing index + 1. */
static size_t run_zlib(z_stream *z, uint8_t *out) {
  for (size_t i = 0; i < nents; i++) {
    inflateReset(z);
    z->next_in = ents[i].raw;
    z->avail_in = (uInt)ents[i].rawlen;
    z->next_out = out;
    z->avail_out = (uInt)ents[i].size;
    if (inflate(z, Z_FINISH) != Z_STREAM_END ||
        z->total_out != ents[i].size)
      return i + 1;
  }
  return 0;
}

static size_t run_ours(uint8_t *out) {
  for (size_t i = 0; i < nents; i++) {
    size_t n;
    if (cr_io__inflate(out, ents[i].size, &n, ents[i].raw,
                       ents[i].rawlen) != CR_INFL_OK ||
        n != ents[i].size)
      return i + 1;
  }
  return 0;
}

int main(int argc, char **argv) {
  int runs = 5, classes_only = 0, a = 1;
  for (; a < argc && argv[a][0] == '-'; a++) {
    if (!strcmp(argv[a], "-n") && a + 1 < argc) {
      runs = atoi(argv[++a]);
    } else if (!strcmp(argv[a], "-c")) {
      classes_only = 1;
    } else {
      fputs("usage: inflate-bench [-n RUNS] [-c] [JAVA_HOME]\n", stderr);
      return 2;
    }
  }
  const char *jdk = a < argc ? argv[a] : DEFAULT_JDK;
  char dir[4096];
  snprintf(dir, sizeof dir, "%s/jmods", jdk);
  DIR *dp = opendir(dir);
  if (!dp) {
    perror(dir);
    return 2;
  }
  struct dirent *de;
  while ((de = readdir(dp)) != NULL) {
    if (!endswith(de->d_name, ".jmod")) continue;
    char path[8192];
    snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
    load_jmod(path, classes_only);
  }
  closedir(dp);
  if (!nents) {
    fprintf(stderr, "inflate-bench: no deflated entries under %s\n", dir);
    return 2;
  }
  printf("%zu deflated entries, %.1f MB -> %.1f MB\n", nents, total_in / 1e6,
         total_out / 1e6);

  uint8_t *a_out = xrealloc(NULL, maxsize), *b_out = xrealloc(NULL, maxsize);
  z_stream z;
  memset(&z, 0, sizeof z);
  if (inflateInit2(&z, -15) != Z_OK) return 2;
  /* check: same bytes from both, and the CRC the zip declares */
  for (size_t i = 0; i < nents; i++) {
    ent *e = &ents[i];
    size_t n;
    inflateReset(&z);
    z.next_in = e->raw;
    z.avail_in = (uInt)e->rawlen;
    z.next_out = a_out;
    z.avail_out = (uInt)e->size;
    int zr = inflate(&z, Z_FINISH);
    int r = cr_io__inflate(b_out, e->size, &n, e->raw, e->rawlen);
    if (zr != Z_STREAM_END || r != CR_INFL_OK || n != e->size ||
        memcmp(a_out, b_out, n) ||
        crc32(0, b_out, (uInt)n) != e->crc) {
      fprintf(stderr, "inflate-bench: entry %zu: zlib %d, ours %d: differ\n",
              i, zr, r);
      return 1;
    }
  }
  double best_z = 1e30, best_o = 1e30;
  for (int r = 0; r < runs; r++) {
    double t0 = cpu_now();
    size_t bad = run_zlib(&z, a_out);
    double t1 = cpu_now();
    bad |= run_ours(b_out);
    double t2 = cpu_now();
    if (bad) {
      fputs("inflate-bench: an entry failed while timing\n", stderr);
      return 1;
    }
    if (t1 - t0 < best_z) best_z = t1 - t0;
    if (t2 - t1 < best_o) best_o = t2 - t1;
  }
  inflateEnd(&z);
  printf("zlib   %.3f s  %7.1f MB/s\n", best_z, total_out / 1e6 / best_z);
  printf("cccp   %.3f s  %7.1f MB/s\n", best_o, total_out / 1e6 / best_o);
  printf("ratio  %.2fx zlib (best of %d, CPU time, one thread)\n",
         best_z / best_o, runs);
  for (size_t i = 0; i < nents; i++) free(ents[i].raw);
  free(ents);
  free(a_out);
  free(b_out);
  return 0;
}
