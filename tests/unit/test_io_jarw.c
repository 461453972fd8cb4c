/*
** test_io_jarw.c -- the deterministic jar writer: read-back through libzip,
** cr_input and unzip, determinism, atomic replace, errors, ZIP64, OOM.
*/
#include <check.h>
#include <dirent.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zip.h>

#include "cccp/io.h"
#include "testutil.h"

static char dir[64];

static void mkdir_tmp(void) { tu_tmpdir(dir, sizeof dir, "jarw"); }

static void rm_tmp(void) { tu_rmdir(dir); }

static int nfiles(const char *d) {
  DIR *dp = opendir(d);
  int n = 0;
  struct dirent *de;
  if (!dp) return -1;
  while ((de = readdir(dp)))
    if (strcmp(de->d_name, ".") && strcmp(de->d_name, "..")) n++;
  closedir(dp);
  return n;
}

static int have_unzip(void) {
  return system("command -v unzip >/dev/null 2>&1") == 0;
}

static int unzip_ok(const char *path) {
  char cmd[512];
  snprintf(cmd, sizeof cmd, "unzip -tq '%s' >/dev/null 2>&1", path);
  return system(cmd) == 0;
}

/* Deterministic pseudo-random bytes. */
static void fill_random(uint8_t *p, size_t n, uint32_t seed) {
  for (size_t i = 0; i < n; i++) {
    seed = seed * 1103515245u + 12345u;
    p[i] = (uint8_t)(seed >> 16);
  }
}

typedef struct tent {
  const char *name;
  uint8_t *data;
  size_t len;
} tent;

static tent ents[6];
static size_t nents;

/* The sample: directory, text, empty, non-ASCII, 1 MiB text, random. */
static void sample(void) {
  static uint8_t big[1 << 20], rnd[70000];
  static const char mf[] = "Manifest-Version: 1.0\r\nCreated-By: cccp\r\n";
  for (size_t i = 0; i < sizeof big; i++)
    big[i] = (uint8_t)("abcdefgh, the quick brown fox\n"[i % 30]);
  fill_random(rnd, sizeof rnd, 7);
  nents = 0;
  ents[nents++] = (tent){"META-INF/", NULL, 0};
  ents[nents++] = (tent){"META-INF/MANIFEST.MF", (uint8_t *)mf,
                         sizeof mf - 1};
  ents[nents++] = (tent){"empty.txt", (uint8_t *)"", 0};
  ents[nents++] = (tent){"d\xc3\xafr/na\xc3\xafve.class", (uint8_t *)"\xca"
                         "\xfe\xba\xbe", 4};
  ents[nents++] = (tent){"big.txt", big, sizeof big};
  ents[nents++] = (tent){"random.bin", rnd, sizeof rnd};
}

static int write_sample(const char *path, cr_diag *d) {
  cr_jarw *w;
  int rc = cr_jarw_open(&w, path, d);
  if (rc) return rc;
  for (size_t i = 0; i < nents; i++) {
    rc = cr_jarw_add(w, ents[i].name, ents[i].data, ents[i].len, d);
    if (rc) {
      cr_jarw_abort(w);
      return rc;
    }
  }
  return cr_jarw_commit(w, d);
}

START_TEST(test_io_jarw__roundtrip) {
  mkdir_tmp();
  sample();
  char path[128];
  snprintf(path, sizeof path, "%s/out.jar", dir);
  cr_diag d;
  cr_diag_clear(&d);
  ck_assert_int_eq(write_sample(path, &d), 0);
  ck_assert_int_eq(nfiles(dir), 1);
  struct stat st;
  ck_assert_int_eq(stat(path, &st), 0);
  mode_t mask = umask(0);
  umask(mask);
  ck_assert_int_eq(st.st_mode & 0777, 0666 & ~mask);  /* not mkstemp's 0600 */

  /* libzip */
  int err;
  zip_t *za = zip_open(path, ZIP_RDONLY | ZIP_CHECKCONS, &err);
  ck_assert_ptr_nonnull(za);
  ck_assert_int_eq(zip_get_num_entries(za, 0), (int)nents);
  for (size_t i = 0; i < nents; i++) {
    zip_stat_t zs;
    ck_assert_int_eq(zip_stat_index(za, i, ZIP_FL_ENC_RAW, &zs), 0);
    ck_assert_str_eq(zs.name, ents[i].name);
    ck_assert_uint_eq(zs.size, ents[i].len);
    if (!strcmp(ents[i].name, "big.txt"))
      ck_assert_uint_lt(zs.comp_size, ents[i].len / 50);
    if (!strcmp(ents[i].name, "random.bin"))
      ck_assert_int_eq(zs.comp_method, ZIP_CM_STORE);
    uint8_t *b = malloc(ents[i].len + 1);
    zip_file_t *zf = zip_fopen_index(za, i, 0);
    ck_assert_ptr_nonnull(zf);
    ck_assert_int_eq(zip_fread(zf, b, ents[i].len + 1), (int)ents[i].len);
    zip_fclose(zf);
    if (ents[i].len) ck_assert_mem_eq(b, ents[i].data, ents[i].len);
    free(b);
  }
  zip_close(za);

  /* cr_input */
  cr_input *in;
  ck_assert_int_eq(cr_input_open(&in, path, &d), 0);
  ck_assert_int_eq(cr_input_kind_of(in), CR_IN_JAR);
  ck_assert_uint_eq(cr_input_count(in), nents);
  for (size_t i = 0; i < nents; i++) {
    cr_entry_info e;
    cr_input_info(in, i, &e);
    ck_assert_str_eq(e.name, ents[i].name);
    ck_assert_int_eq(e.is_dir, i == 0);
    ck_assert_ptr_null(e.module);
    uint8_t *b;
    size_t n;
    ck_assert_int_eq(cr_input_read(in, i, &b, &n, &d), 0);
    ck_assert_uint_eq(n, ents[i].len);
    if (n) ck_assert_mem_eq(b, ents[i].data, n);
    cr_free(b);
  }
  cr_input_close(in);

  /* raw fields: fixed time, flag bit 11 for UTF-8 names, ASCII or not,
  ** in the local and the central headers */
  uint8_t *raw;
  size_t rawn;
  ck_assert_int_eq(cr_read_file(&raw, &rawn, path, &d), 0);
  ck_assert_mem_eq(raw, "PK\3\4\24\0\0\10\0\0\0\0\41\0", 14);
  size_t at = 0, k = 0;
  for (; k < nents && at + 30 <= rawn && memcmp(raw + at, "PK\3\4", 4) == 0;
       k++) {
    const uint8_t *h = raw + at;
    ck_assert_int_eq(h[6] | h[7] << 8, 0x0800);
    at += 30u + (h[26] | h[27] << 8) + (h[28] | h[29] << 8) +
          (h[18] | h[19] << 8 | (size_t)h[20] << 16 | (size_t)h[21] << 24);
  }
  ck_assert_uint_eq(k, nents);
  const uint8_t *end = raw + rawn - 22;
  ck_assert_mem_eq(end, "PK\5\6", 4);
  at = end[16] | end[17] << 8 | (size_t)end[18] << 16 | (size_t)end[19] << 24;
  for (k = 0; k < nents && memcmp(raw + at, "PK\1\2", 4) == 0; k++) {
    const uint8_t *h = raw + at;
    ck_assert_int_eq(h[8] | h[9] << 8, 0x0800);
    at += 46u + (h[28] | h[29] << 8) + (h[30] | h[31] << 8) +
          (h[32] | h[33] << 8);
  }
  ck_assert_uint_eq(k, nents);
  cr_free(raw);

  if (have_unzip()) ck_assert(unzip_ok(path));
  else printf("unzip not found: skipping the unzip -t check\n");
  rm_tmp();
}
END_TEST

START_TEST(test_io_jarw__deterministic_and_replace) {
  mkdir_tmp();
  sample();
  char a[128], b[128];
  snprintf(a, sizeof a, "%s/a.jar", dir);
  snprintf(b, sizeof b, "%s/b.jar", dir);
  cr_diag d;
  cr_diag_clear(&d);
  ck_assert_int_eq(write_sample(a, &d), 0);
  /* 'b' exists with other content; the commit replaces it by rename */
  FILE *f = fopen(b, "w");
  fputs("old content", f);
  fclose(f);
  struct stat before, after;
  ck_assert_int_eq(stat(b, &before), 0);
  cr_jarw *w;
  ck_assert_int_eq(cr_jarw_open(&w, b, &d), 0);
  for (size_t i = 0; i < nents; i++)
    ck_assert_int_eq(cr_jarw_add(w, ents[i].name, ents[i].data,
                                 ents[i].len, &d), 0);
  ck_assert_int_eq(nfiles(dir), 3);   /* a, b and the temporary */
  uint8_t *x, *y;
  size_t nx, ny;
  ck_assert_int_eq(cr_read_file(&y, &ny, b, &d), 0);
  ck_assert_str_eq((char *)y, "old content");
  cr_free(y);
  ck_assert_int_eq(cr_jarw_commit(w, &d), 0);
  ck_assert_int_eq(nfiles(dir), 2);
  ck_assert_int_eq(stat(b, &after), 0);
  ck_assert_uint_ne(before.st_ino, after.st_ino);
  ck_assert_int_eq(cr_read_file(&x, &nx, a, &d), 0);
  ck_assert_int_eq(cr_read_file(&y, &ny, b, &d), 0);
  ck_assert_uint_eq(nx, ny);
  ck_assert_mem_eq(x, y, nx);
  cr_free(x);
  cr_free(y);
  rm_tmp();
}
END_TEST

/* Entries deflated in 4 threads, added in order, equal a serial write. */
typedef struct job {
  int first, step;
  cr_zentry **out;
  int n;
} job;

static void name_of(char *buf, size_t sz, int i) {
  snprintf(buf, sz, "p%d/C%d.class", i % 7, i);
}

static void *deflate_job(void *arg) {
  job *j = arg;
  uint8_t data[3000];
  char nm[64];
  cr_diag d;
  cr_diag_clear(&d);
  for (int i = j->first; i < j->n; i += j->step) {
    for (size_t k = 0; k < sizeof data; k++)
      data[k] = (uint8_t)((k * (unsigned)i) % 61);
    name_of(nm, sizeof nm, i);
    if (cr_zentry_new(&j->out[i], nm, data, sizeof data, &d)) return arg;
  }
  return NULL;
}

START_TEST(test_io_jarw__threads) {
  enum { N = 400, T = 4 };
  mkdir_tmp();
  cr_zentry **es = calloc(N, sizeof *es);
  pthread_t th[T];
  job jobs[T];
  for (int t = 0; t < T; t++) {
    jobs[t] = (job){t, T, es, N};
    pthread_create(&th[t], NULL, deflate_job, &jobs[t]);
  }
  for (int t = 0; t < T; t++) {
    void *r;
    pthread_join(th[t], &r);
    ck_assert_ptr_null(r);
  }
  char a[128], b[128];
  snprintf(a, sizeof a, "%s/threads.jar", dir);
  snprintf(b, sizeof b, "%s/serial.jar", dir);
  cr_diag d;
  cr_diag_clear(&d);
  cr_jarw *w;
  ck_assert_int_eq(cr_jarw_open(&w, a, &d), 0);
  for (int i = 0; i < N; i++) ck_assert_int_eq(cr_jarw_add_entry(w, es[i], &d), 0);
  ck_assert_int_eq(cr_jarw_commit(w, &d), 0);
  job serial = {0, 1, es, N};
  ck_assert_ptr_null(deflate_job(&serial));
  ck_assert_int_eq(cr_jarw_open(&w, b, &d), 0);
  for (int i = 0; i < N; i++) ck_assert_int_eq(cr_jarw_add_entry(w, es[i], &d), 0);
  ck_assert_int_eq(cr_jarw_commit(w, &d), 0);
  free(es);
  uint8_t *x, *y;
  size_t nx, ny;
  ck_assert_int_eq(cr_read_file(&x, &nx, a, &d), 0);
  ck_assert_int_eq(cr_read_file(&y, &ny, b, &d), 0);
  ck_assert_uint_eq(nx, ny);
  ck_assert_mem_eq(x, y, nx);
  cr_free(x);
  cr_free(y);
  rm_tmp();
}
END_TEST

/* Levels: 0 stores everything; 1 and 9 still read back; others refused. */
START_TEST(test_io_jarw__levels) {
  mkdir_tmp();
  sample();
  cr_diag d;
  cr_diag_clear(&d);
  int levels[] = {0, 1, 9};
  for (size_t k = 0; k < 3; k++) {
    char path[128];
    snprintf(path, sizeof path, "%s/l%d.jar", dir, levels[k]);
    cr_jarw *w;
    ck_assert_int_eq(cr_jarw_open(&w, path, &d), 0);
    for (size_t i = 0; i < nents; i++) {
      cr_zentry *e;
      ck_assert_int_eq(cr_zentry_new_level(&e, ents[i].name, ents[i].data,
                                           ents[i].len, levels[k], &d), 0);
      ck_assert_int_eq(cr_jarw_add_entry(w, e, &d), 0);
    }
    ck_assert_int_eq(cr_jarw_commit(w, &d), 0);
    int err;
    zip_t *za = zip_open(path, ZIP_RDONLY | ZIP_CHECKCONS, &err);
    ck_assert_ptr_nonnull(za);
    zip_stat_t zs;
    ck_assert_int_eq(zip_stat(za, "big.txt", 0, &zs), 0);
    ck_assert_int_eq(zs.comp_method, levels[k] ? ZIP_CM_DEFLATE
                                               : ZIP_CM_STORE);
    zip_close(za);
    if (have_unzip()) ck_assert(unzip_ok(path));
  }
  cr_zentry *e;
  ck_assert_int_eq(cr_zentry_new_level(&e, "x", (uint8_t *)"x", 1, 10, &d),
                   CR_EUSAGE);
  rm_tmp();
}
END_TEST

/* An entry keeps its input's method: stored stays stored, deflated is
** deflated even where that makes it larger (random bytes, an empty
** entry, a directory), at levels 1 and 9; level 0 stores everything.
** Read back through libzip and cr_input, which reports the method. */
START_TEST(test_io_jarw__method_kept) {
  mkdir_tmp();
  sample();
  cr_diag d;
  cr_diag_clear(&d);
  int levels[] = {0, 1, 9};
  for (size_t k = 0; k < 3; k++) {
    for (int method = 0; method <= 1; method++) {
      char path[128];
      snprintf(path, sizeof path, "%s/m%d%d.jar", dir, levels[k], method);
      cr_jarw *w;
      ck_assert_int_eq(cr_jarw_open(&w, path, &d), 0);
      for (size_t i = 0; i < nents; i++) {
        cr_zentry *e;
        ck_assert_int_eq(cr_zentry_new_as(&e, ents[i].name, ents[i].data,
                                          ents[i].len, levels[k], method,
                                          &d), 0);
        ck_assert_int_eq(cr_jarw_add_entry(w, e, &d), 0);
      }
      ck_assert_int_eq(cr_jarw_commit(w, &d), 0);
      int want = levels[k] && method ? 1 : 0;
      cr_input *in;
      ck_assert_int_eq(cr_input_open(&in, path, &d), 0);
      ck_assert_uint_eq(cr_input_count(in), nents);
      for (size_t i = 0; i < nents; i++) {
        cr_entry_info info;
        cr_input_info(in, i, &info);
        ck_assert_msg(info.method == want, "%s: method %d, want %d (level "
                      "%d)", info.name, info.method, want, levels[k]);
        uint8_t *data;
        size_t len;
        ck_assert_int_eq(cr_input_read(in, i, &data, &len, &d), 0);
        ck_assert_uint_eq(len, ents[i].len);
        ck_assert(len == 0 || memcmp(data, ents[i].data, len) == 0);
        cr_free(data);
      }
      cr_input_close(in);
      if (have_unzip()) ck_assert(unzip_ok(path));
    }
  }
  /* -1: the writer chooses; a directory is stored */
  cr_zentry *e;
  char path[128];
  snprintf(path, sizeof path, "%s/choose.jar", dir);
  cr_jarw *w;
  ck_assert_int_eq(cr_jarw_open(&w, path, &d), 0);
  ck_assert_int_eq(cr_zentry_new_as(&e, "a/", NULL, 0, 1, -1, &d), 0);
  ck_assert_int_eq(cr_jarw_add_entry(w, e, &d), 0);
  ck_assert_int_eq(cr_jarw_commit(w, &d), 0);
  cr_input *in;
  ck_assert_int_eq(cr_input_open(&in, path, &d), 0);
  cr_entry_info info;
  cr_input_info(in, 0, &info);
  ck_assert_int_eq(info.method, 0);
  cr_input_close(in);
  rm_tmp();
}
END_TEST

START_TEST(test_io_jarw__duplicate_and_bad_names) {
  mkdir_tmp();
  char path[128];
  snprintf(path, sizeof path, "%s/dup.jar", dir);
  cr_diag d;
  cr_diag_clear(&d);
  cr_jarw *w;
  ck_assert_int_eq(cr_jarw_open(&w, path, &d), 0);
  ck_assert_int_eq(cr_jarw_add(w, "a/B.class", (uint8_t *)"x", 1, &d), 0);
  ck_assert_int_eq(cr_jarw_add(w, "a/", NULL, 0, &d), 0);
  ck_assert_int_eq(cr_jarw_add(w, "a/B.class", (uint8_t *)"y", 1, &d),
                   CR_EFORMAT);
  ck_assert_str_eq(d.msg, "duplicate entry a/B.class");
  ck_assert_str_eq(d.entry, "a/B.class");
  ck_assert_str_eq(d.file, path);
  cr_diag_clear(&d);
  ck_assert_int_eq(cr_jarw_add(w, "", (uint8_t *)"y", 1, &d), CR_EFORMAT);
  char *longname = malloc(65537);
  memset(longname, 'n', 65536);
  longname[65536] = '\0';
  cr_diag_clear(&d);
  ck_assert_int_eq(cr_jarw_add(w, longname, (uint8_t *)"y", 1, &d),
                   CR_EFORMAT);
  longname[65535] = '\0';     /* exactly the maximum is fine */
  ck_assert_int_eq(cr_jarw_add(w, longname, (uint8_t *)"y", 1, &d), 0);
  free(longname);
  /* a refused entry does not spoil the jar */
  cr_diag_clear(&d);
  ck_assert_int_eq(cr_jarw_commit(w, &d), 0);
  /* (unzip truncates names this long, so check with libzip) */
  int err;
  zip_t *za = zip_open(path, ZIP_RDONLY | ZIP_CHECKCONS, &err);
  ck_assert_ptr_nonnull(za);
  ck_assert_int_eq(zip_get_num_entries(za, 0), 3);
  ck_assert_uint_eq(strlen(zip_get_name(za, 2, 0)), 65535);
  zip_close(za);

  /* a name that is not UTF-8, or has control characters (libzip refuses
  ** them flagged), keeps its bytes without bit 11; tab, CR, LF are fine */
  static const struct { const char *name; int flag; } raws[] = {
    {"raw\xff.bin", 0}, {"p/\x1b[31mred.txt", 0}, {"a\tb\r\n.txt", 0x0800},
  };
  for (size_t i = 0; i < sizeof raws / sizeof *raws; i++) {
    ck_assert_int_eq(cr_jarw_open(&w, path, &d), 0);
    ck_assert_int_eq(cr_jarw_add(w, raws[i].name, (uint8_t *)"x", 1, &d), 0);
    ck_assert_int_eq(cr_jarw_commit(w, &d), 0);
    uint8_t *raw;
    size_t rawn;
    ck_assert_int_eq(cr_read_file(&raw, &rawn, path, &d), 0);
    ck_assert_mem_eq(raw + 30, raws[i].name, strlen(raws[i].name));
    ck_assert_int_eq(raw[6] | raw[7] << 8, raws[i].flag);
    cr_free(raw);
    cr_input *rin;    /* and libzip, our reader, reads it back */
    ck_assert_int_eq(cr_input_open(&rin, path, &d), 0);
    ck_assert_uint_eq(cr_input_count(rin), 1);
    cr_input_close(rin);
  }

  /* the system that made an entry and its attributes, read back */
  ck_assert_int_eq(cr_jarw_open(&w, path, &d), 0);
  cr_zentry *e;
  ck_assert_int_eq(cr_zentry_new(&e, "run.sh", (uint8_t *)"x", 1, &d), 0);
  cr_zentry_set_attrs(e, 3, 0100755u << 16);
  ck_assert_int_eq(cr_jarw_add_entry(w, e, &d), 0);
  ck_assert_int_eq(cr_jarw_add(w, "plain.txt", (uint8_t *)"y", 1, &d), 0);
  ck_assert_int_eq(cr_jarw_commit(w, &d), 0);
  cr_input *in;
  ck_assert_int_eq(cr_input_open(&in, path, &d), 0);
  cr_entry_info info;
  cr_input_info(in, 0, &info);
  ck_assert_int_eq(info.os, 3);
  ck_assert_uint_eq(info.ext_attr, 0100755u << 16);
  cr_input_info(in, 1, &info);
  ck_assert_int_eq(info.os, 0);
  ck_assert_uint_eq(info.ext_attr, 0);
  cr_input_close(in);
  rm_tmp();
}
END_TEST

START_TEST(test_io_jarw__abort_and_bad_folders) {
  mkdir_tmp();
  char path[128];
  snprintf(path, sizeof path, "%s/aborted.jar", dir);
  cr_diag d;
  cr_diag_clear(&d);
  cr_jarw *w;
  ck_assert_int_eq(cr_jarw_open(&w, path, &d), 0);
  ck_assert_int_eq(cr_jarw_add(w, "x", (uint8_t *)"hello", 5, &d), 0);
  ck_assert_int_eq(nfiles(dir), 1);
  cr_jarw_abort(w);
  ck_assert_int_eq(nfiles(dir), 0);

  snprintf(path, sizeof path, "%s/no/such/dir/x.jar", dir);
  ck_assert_int_eq(cr_jarw_open(&w, path, &d), CR_EIO);
  ck_assert_ptr_nonnull(strstr(d.msg, "No such file"));
  ck_assert_str_eq(d.file, path);
  cr_diag_clear(&d);
  ck_assert_int_eq(cr_jarw_open(&w, "/etc/passwd/x.jar", &d), CR_EIO);
  cr_diag_clear(&d);
  ck_assert_int_eq(cr_jarw_open(&w, dir, &d), CR_EUSAGE);
  if (geteuid() != 0) {
    char ro[96];
    snprintf(ro, sizeof ro, "%s/ro", dir);
    ck_assert_int_eq(mkdir(ro, 0555), 0);
    snprintf(path, sizeof path, "%s/x.jar", ro);
    cr_diag_clear(&d);
    ck_assert_int_eq(cr_jarw_open(&w, path, &d), CR_EIO);
    ck_assert_ptr_nonnull(strstr(d.msg, "Permission denied"));
  } else {
    printf("running as root: read-only folder case uses /proc\n");
    cr_diag_clear(&d);
    ck_assert_int_eq(cr_jarw_open(&w, "/proc/x.jar", &d), CR_EIO);
  }
  rm_tmp();
}
END_TEST

/* Sealed early, then committed: the same jar; sealed, then aborted:
** nothing left; a sealed writer refuses entries. */
START_TEST(test_io_jarw__seal) {
  mkdir_tmp();
  sample();
  char a[128], b[128], c[128];
  snprintf(a, sizeof a, "%s/a.jar", dir);
  snprintf(b, sizeof b, "%s/b.jar", dir);
  snprintf(c, sizeof c, "%s/c.jar", dir);
  cr_diag d;
  cr_diag_clear(&d);
  ck_assert_int_eq(write_sample(a, &d), 0);
  cr_jarw *w;
  ck_assert_int_eq(cr_jarw_open(&w, b, &d), 0);
  for (size_t i = 0; i < nents; i++)
    ck_assert_int_eq(cr_jarw_add(w, ents[i].name, ents[i].data,
                                 ents[i].len, &d), 0);
  ck_assert_int_eq(cr_jarw_seal(w, &d), 0);
  ck_assert_int_eq(cr_jarw_seal(w, &d), 0);     /* once is enough */
  ck_assert_int_eq(nfiles(dir), 2);             /* a and the temporary */
  ck_assert_int_eq(cr_jarw_commit(w, &d), 0);
  uint8_t *x, *y;
  size_t nx, ny;
  ck_assert_int_eq(cr_read_file(&x, &nx, a, &d), 0);
  ck_assert_int_eq(cr_read_file(&y, &ny, b, &d), 0);
  ck_assert_uint_eq(nx, ny);
  ck_assert_mem_eq(x, y, nx);
  cr_free(x);
  cr_free(y);

  ck_assert_int_eq(cr_jarw_open(&w, c, &d), 0);
  ck_assert_int_eq(cr_jarw_add(w, "x", (uint8_t *)"hello", 5, &d), 0);
  ck_assert_int_eq(cr_jarw_seal(w, &d), 0);
  ck_assert_int_ne(cr_jarw_add(w, "y", (uint8_t *)"hello", 5, &d), 0);
  cr_jarw_abort(w);
  ck_assert_int_eq(nfiles(dir), 2);             /* a and b */
  rm_tmp();
}
END_TEST

/* A file-size limit makes write(2) fail as a full disk would. */
START_TEST(test_io_jarw__write_error) {
  mkdir_tmp();
  char path[128];
  snprintf(path, sizeof path, "%s/full.jar", dir);
  signal(SIGXFSZ, SIG_IGN);
  struct rlimit old, lim;
  getrlimit(RLIMIT_FSIZE, &old);
  lim = old;
  lim.rlim_cur = 256 * 1024;
  ck_assert_int_eq(setrlimit(RLIMIT_FSIZE, &lim), 0);
  static uint8_t rnd[3 << 20];
  fill_random(rnd, sizeof rnd, 3);
  cr_diag d;
  cr_diag_clear(&d);
  cr_jarw *w;
  ck_assert_int_eq(cr_jarw_open(&w, path, &d), 0);
  int rc = cr_jarw_add(w, "random.bin", rnd, sizeof rnd, &d);
  ck_assert_int_eq(rc, CR_EIO);
  ck_assert_ptr_nonnull(strstr(d.msg, "too large"));
  ck_assert_int_eq(cr_jarw_add(w, "more", rnd, 10, &d), CR_EIO);
  ck_assert_int_eq(cr_jarw_commit(w, &d), CR_EIO);
  setrlimit(RLIMIT_FSIZE, &old);
  ck_assert_int_eq(nfiles(dir), 0);
  rm_tmp();
}
END_TEST

START_TEST(test_io_jarw__zip64_many_entries) {
  enum { N = 70000 };
  mkdir_tmp();
  char path[128], nm[32];
  snprintf(path, sizeof path, "%s/many.jar", dir);
  cr_diag d;
  cr_diag_clear(&d);
  cr_jarw *w;
  ck_assert_int_eq(cr_jarw_open(&w, path, &d), 0);
  for (int i = 0; i < N; i++) {
    snprintf(nm, sizeof nm, "e/%05d", i);
    ck_assert_int_eq(cr_jarw_add(w, nm, (uint8_t *)nm, i % 3 ? 0 : 7, &d),
                     0);
  }
  ck_assert_int_eq(cr_jarw_commit(w, &d), 0);
  uint8_t *raw;
  size_t n;
  ck_assert_int_eq(cr_read_file(&raw, &n, path, &d), 0);
  ck_assert_mem_eq(raw + n - 22, "PK\5\6\0\0\0\0\377\377\377\377", 12);
  ck_assert_mem_eq(raw + n - 22 - 20 - 56, "PK\6\6", 4);
  cr_free(raw);
  int err;
  zip_t *za = zip_open(path, ZIP_RDONLY, &err);
  ck_assert_ptr_nonnull(za);
  ck_assert_int_eq(zip_get_num_entries(za, 0), N);
  zip_stat_t zs;
  ck_assert_int_eq(zip_stat_index(za, N - 1, 0, &zs), 0);
  ck_assert_str_eq(zs.name, "e/69999");
  zip_close(za);
  cr_input *in;
  ck_assert_int_eq(cr_input_open(&in, path, &d), 0);
  ck_assert_uint_eq(cr_input_count(in), N);
  uint8_t *b;
  ck_assert_int_eq(cr_input_read(in, 69999, &b, &n, &d), 0);
  ck_assert_uint_eq(n, 7);
  ck_assert_mem_eq(b, "e/69999", 7);
  cr_free(b);
  cr_input_close(in);
  if (have_unzip()) ck_assert(unzip_ok(path));
  rm_tmp();
}
END_TEST

/* Fail allocation n = 0, 1, ... until the whole write succeeds. */
START_TEST(test_io_jarw__oom_sweep) {
  mkdir_tmp();
  sample();
  char path[128];
  snprintf(path, sizeof path, "%s/oom.jar", dir);
  int rc = -1;
  long n;
  for (n = 0; n < 1000 && rc; n++) {
    cr_io_release_caches();
    cr_diag d;
    cr_diag_clear(&d);
    cr_alloc_fail_after(n);
    rc = write_sample(path, &d);
    cr_alloc_fail_after(-1);
    if (rc) {
      ck_assert_int_eq(rc, CR_ENOMEM);
      ck_assert_int_eq(d.code, CR_ENOMEM);
      ck_assert_int_eq(nfiles(dir), 0);
    }
  }
  ck_assert_int_eq(rc, 0);
  ck_assert_int_gt(n, 3);
  ck_assert_int_eq(nfiles(dir), 1);
  cr_io_release_caches();
  rm_tmp();
}
END_TEST

int main(void) {
  Suite *s = suite_create("io_jarw");
  TCase *tc = tcase_create("jarw");
  tcase_set_timeout(tc, 60);
  tcase_add_test(tc, test_io_jarw__roundtrip);
  tcase_add_test(tc, test_io_jarw__deterministic_and_replace);
  tcase_add_test(tc, test_io_jarw__threads);
  tcase_add_test(tc, test_io_jarw__levels);
  tcase_add_test(tc, test_io_jarw__method_kept);
  tcase_add_test(tc, test_io_jarw__duplicate_and_bad_names);
  tcase_add_test(tc, test_io_jarw__abort_and_bad_folders);
  tcase_add_test(tc, test_io_jarw__seal);
  tcase_add_test(tc, test_io_jarw__write_error);
  tcase_add_test(tc, test_io_jarw__zip64_many_entries);
  tcase_add_test(tc, test_io_jarw__oom_sweep);
  suite_add_tcase(s, tc);
  SRunner *sr = srunner_create(s);
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  cr_io_release_caches();
  return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
