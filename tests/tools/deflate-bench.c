/*
** deflate-bench.c -- benchmark tool: every class entry of every jmod of a
** JDK compressed one by one, single-threaded, as the jar writer does
** (output room = input size, stored when that does not fit), with zlib
** level 1 and with 'cr_io__deflate'; best of N runs of each. Our streams
** are checked by inflating them back with zlib.
** Usage: deflate-bench [-n RUNS] [-o] [-d DIR | JAVA_HOME]
**        (-o: time ours only; -d: the class entries of the jars in DIR,
**        e.g. the output of 'cccp-rewrite --jdk', instead of the jmods;
**        default /usr/lib/jvm/java-17-openjdk-amd64, 5 runs)
*/
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <zlib.h>

#include "cccp/io.h"
#include "../../src/io/deflate.h"

typedef struct entry {
  uint8_t *data;
  size_t len;
} entry;

static entry *ents;
static size_t nents, capents, total;
static uint8_t *outbuf;         /* room for the largest entry */
static size_t maxlen;

static double now(clockid_t c) {
  struct timespec ts;
  clock_gettime(c, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int ends_with(const char *s, const char *suf) {
  size_t a = strlen(s), b = strlen(suf);
  return a >= b && !strcmp(s + a - b, suf);
}

/* Read every '.class' entry of the jmod at 'path' into 'ents'. */
static int load_jmod(const char *path) {
  cr_diag d;
  cr_diag_clear(&d);
  cr_input *in;
  if (cr_input_open(&in, path, &d)) {
    char msg[2048];
    cr_diag_format(&d, msg, sizeof msg);
    fprintf(stderr, "deflate-bench: %s\n", msg);
    return -1;
  }
  for (size_t i = 0; i < cr_input_count(in); i++) {
    cr_entry_info e;
    cr_input_info(in, i, &e);
    if (e.is_dir || !ends_with(e.name, ".class")) continue;
    uint8_t *b;
    size_t n;
    if (cr_input_read(in, i, &b, &n, &d)) {
      char msg[2048];
      cr_diag_format(&d, msg, sizeof msg);
      fprintf(stderr, "deflate-bench: %s\n", msg);
      cr_input_close(in);
      return -1;
    }
    if (nents == capents) {
      capents = capents ? 2 * capents : 4096;
      ents = realloc(ents, capents * sizeof *ents);
      if (!ents) abort();
    }
    ents[nents].data = b;
    ents[nents++].len = n;
    total += n;
    if (n > maxlen) maxlen = n;
  }
  cr_input_close(in);
  return 0;
}

static int cmpstr(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* One pass with zlib level 1; returns the jar-equivalent total size. */
static size_t run_zlib(z_stream *s) {
  size_t sum = 0;
  for (size_t i = 0; i < nents; i++) {
    deflateReset(s);
    s->next_in = ents[i].data;
    s->avail_in = (uInt)ents[i].len;
    s->next_out = outbuf;
    s->avail_out = (uInt)ents[i].len;
    int zr = deflate(s, Z_FINISH);
    sum += zr == Z_STREAM_END && s->total_out < ents[i].len ? s->total_out
                                                             : ents[i].len;
  }
  return sum;
}

/* One pass with ours; same accounting. */
static size_t run_ours(cr_deflater *z) {
  size_t sum = 0;
  for (size_t i = 0; i < nents; i++) {
    size_t c = cr_io__deflate(z, outbuf, ents[i].len, ents[i].data,
                              ents[i].len);
    sum += c && c < ents[i].len ? c : ents[i].len;
  }
  return sum;
}

/* Inflate every stream of ours back; returns the number of failures. */
static size_t verify(cr_deflater *z, size_t *nstored) {
  uint8_t *back = malloc(maxlen + 1);
  if (!back) abort();
  size_t bad = 0;
  *nstored = 0;
  for (size_t i = 0; i < nents; i++) {
    size_t c = cr_io__deflate(z, outbuf, ents[i].len, ents[i].data,
                              ents[i].len);
    if (!c) {
      (*nstored)++;
      continue;
    }
    z_stream s;
    memset(&s, 0, sizeof s);
    if (inflateInit2(&s, -15) != Z_OK) abort();
    s.next_in = outbuf;
    s.avail_in = (uInt)c;
    s.next_out = back;
    s.avail_out = (uInt)maxlen + 1;
    int zr = inflate(&s, Z_FINISH);
    if (zr != Z_STREAM_END || s.total_out != ents[i].len ||
        s.total_in != c || memcmp(back, ents[i].data, ents[i].len)) {
      if (bad < 5)
        fprintf(stderr, "deflate-bench: entry %zu (%zu bytes) does not "
                "inflate back (zlib %d)\n", i, ents[i].len, zr);
      bad++;
    }
    inflateEnd(&s);
  }
  free(back);
  return bad;
}

int main(int argc, char **argv) {
  int runs = 5, a = 1, only = 0;
  const char *jars = NULL;
  for (;;) {
    if (a + 1 < argc && !strcmp(argv[a], "-n")) {
      runs = atoi(argv[a + 1]);
      a += 2;
    } else if (a < argc && !strcmp(argv[a], "-o")) {
      only = 1;           /* time ours only (for profilers) */
      a++;
    } else if (a + 1 < argc && !strcmp(argv[a], "-d")) {
      jars = argv[a + 1];
      a += 2;
    } else {
      break;
    }
  }
  if (runs < 1 || argc - a > 1 || (jars && a < argc)) {
    fputs("usage: deflate-bench [-n RUNS] [-o] [-d DIR | JAVA_HOME]\n",
          stderr);
    return 2;
  }
  const char *home = a < argc ? argv[a]
                              : "/usr/lib/jvm/java-17-openjdk-amd64";
  const char *ext = jars ? ".jar" : ".jmod";
  char dir[4096];
  if (jars)
    snprintf(dir, sizeof dir, "%s", jars);
  else
    snprintf(dir, sizeof dir, "%s/jmods", home);
  DIR *dp = opendir(dir);
  if (!dp) {
    perror(dir);
    return 2;
  }
  char **names = NULL;
  size_t nn = 0;
  struct dirent *de;
  while ((de = readdir(dp)) != NULL) {
    if (!ends_with(de->d_name, ext)) continue;
    names = realloc(names, (nn + 1) * sizeof *names);
    if (!names) abort();
    size_t l = strlen(dir) + strlen(de->d_name) + 2;
    names[nn] = malloc(l);
    if (!names[nn]) abort();
    snprintf(names[nn++], l, "%s/%s", dir, de->d_name);
  }
  closedir(dp);
  qsort(names, nn, sizeof *names, cmpstr);
  for (size_t i = 0; i < nn; i++) {
    if (load_jmod(names[i])) return 2;
    free(names[i]);
  }
  free(names);
  if (!nents) {
    fprintf(stderr, "deflate-bench: no class entries under %s\n", dir);
    return 2;
  }
  outbuf = malloc(maxlen + 8);
  if (!outbuf) abort();
  printf("%zu class entries from %zu %ss, %zu bytes (%.1f MB), "
         "mean %.0f, largest %zu\n", nents, nn, ext + 1, total, total / 1e6,
         (double)total / (double)nents, maxlen);

  z_stream s;
  memset(&s, 0, sizeof s);
  if (deflateInit2(&s, 1, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY) != Z_OK)
    abort();
  cr_deflater *z = cr_io__deflater_new();
  if (!z) abort();

  size_t nstored;
  size_t bad = verify(z, &nstored);
  printf("ours: %zu entries stored, %zu fail to inflate back\n", nstored,
         bad);

  double wz = 1e30, cz = 1e30, wo = 1e30, co = 1e30;
  size_t sz = 0, so = 0;
  for (int r = 0; r < runs; r++) {      /* alternate, best of each */
    double t0 = now(CLOCK_MONOTONIC), c0 = now(CLOCK_PROCESS_CPUTIME_ID);
    if (!only) sz = run_zlib(&s);
    double t1 = now(CLOCK_MONOTONIC), c1 = now(CLOCK_PROCESS_CPUTIME_ID);
    so = run_ours(z);
    double t2 = now(CLOCK_MONOTONIC), c2 = now(CLOCK_PROCESS_CPUTIME_ID);
    if (t1 - t0 < wz) wz = t1 - t0;
    if (c1 - c0 < cz) cz = c1 - c0;
    if (t2 - t1 < wo) wo = t2 - t1;
    if (c2 - c1 < co) co = c2 - c1;
  }
  printf("%-8s %9s %9s %9s %12s %8s\n", "variant", "wall s", "cpu s",
         "MB/s", "bytes", "ratio");
  printf("%-8s %9.4f %9.4f %9.1f %12zu %8.4f\n", "zlib-1", wz, cz,
         total / 1e6 / wz, sz, (double)sz / (double)total);
  printf("%-8s %9.4f %9.4f %9.1f %12zu %8.4f\n", "ours", wo, co,
         total / 1e6 / wo, so, (double)so / (double)total);
  printf("ours/zlib-1: size %.4f, speed %.2fx (wall), %.2fx (cpu)\n",
         (double)so / (double)sz, wz / wo, cz / co);
  deflateEnd(&s);
  cr_io__deflater_free(z);
  for (size_t i = 0; i < nents; i++) cr_free(ents[i].data);
  free(ents);
  free(outbuf);
  return bad ? 1 : 0;
}
