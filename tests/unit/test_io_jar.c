/*
** test_io_jar.c -- reading jars, directories and class files: listing,
** corruption, truncation, limits, concurrent reads, OOM; JDK home lookup.
*/
#include <check.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cccp/io.h"
#include "testutil.h"

#define JDK17 "/usr/lib/jvm/java-17-openjdk-amd64"

static char dir[64];

static void mkdir_tmp(void) { tu_tmpdir(dir, sizeof dir, "jar"); }

static void rm_tmp(void) { tu_rmdir(dir); }

/* (unlink first: ext4 flushes a file truncated and rewritten in place) */
static void put_file(const char *path, const void *p, size_t n) {
  unlink(path);
  FILE *f = fopen(path, "wb");
  ck_assert_ptr_nonnull(f);
  ck_assert_uint_eq(fwrite(p, 1, n, f), n);
  fclose(f);
}

static uint8_t text[100000];

/* A jar: a directory, a deflated text, a stored (incompressible) one. */
static void make_jar(const char *path) {
  static uint8_t rnd[5000];
  uint32_t seed = 1;
  for (size_t i = 0; i < sizeof rnd; i++) {
    seed = seed * 1103515245u + 12345u;
    rnd[i] = (uint8_t)(seed >> 16);
  }
  for (size_t i = 0; i < sizeof text; i++)
    text[i] = (uint8_t)("lorem ipsum dolor sit amet "[i % 27] + i / 9000);
  cr_diag d;
  cr_diag_clear(&d);
  cr_jarw *w;
  ck_assert_int_eq(cr_jarw_open(&w, path, &d), 0);
  ck_assert_int_eq(cr_jarw_add(w, "z/", NULL, 0, &d), 0);
  ck_assert_int_eq(cr_jarw_add(w, "z/text.txt", text, sizeof text, &d), 0);
  ck_assert_int_eq(cr_jarw_add(w, "a/rnd.bin", rnd, sizeof rnd, &d), 0);
  ck_assert_int_eq(cr_jarw_commit(w, &d), 0);
}

START_TEST(test_io_jar__listing) {
  mkdir_tmp();
  char path[128];
  snprintf(path, sizeof path, "%s/t.jar", dir);
  make_jar(path);
  cr_diag d;
  cr_diag_clear(&d);
  cr_input *in;
  ck_assert_int_eq(cr_input_open(&in, path, &d), 0);
  ck_assert_int_eq(cr_input_kind_of(in), CR_IN_JAR);
  ck_assert_str_eq(cr_input_path(in), path);
  ck_assert_uint_eq(cr_input_count(in), 3);
  const char *want[] = {"z/", "z/text.txt", "a/rnd.bin"};  /* jar order */
  for (size_t i = 0; i < 3; i++) {
    cr_entry_info e;
    cr_input_info(in, i, &e);
    ck_assert_str_eq(e.name, want[i]);
    ck_assert_int_eq(e.is_dir, i == 0);
    ck_assert_uint_eq(e.size, i == 0 ? 0 : i == 1 ? sizeof text : 5000);
  }
  uint8_t *b;
  size_t n;
  ck_assert_int_eq(cr_input_read(in, 1, &b, &n, &d), 0);
  ck_assert_uint_eq(n, sizeof text);
  ck_assert_mem_eq(b, text, n);
  cr_free(b);
  ck_assert_int_eq(cr_input_read(in, 0, &b, &n, &d), 0);
  ck_assert_uint_eq(n, 0);
  cr_free(b);
  cr_input_close(in);
  rm_tmp();
}
END_TEST

/* Damage entry data in a copy; the read must fail, naming the entry. */
static void corrupt_case(const char *entry, size_t local_off) {
  char path[128];
  snprintf(path, sizeof path, "%s/t.jar", dir);
  make_jar(path);
  uint8_t *raw;
  size_t n;
  cr_diag d;
  cr_diag_clear(&d);
  ck_assert_int_eq(cr_read_file(&raw, &n, path, &d), 0);
  uint8_t *lh = memmem(raw + local_off, n - local_off, entry, strlen(entry));
  ck_assert_ptr_nonnull(lh);
  uint8_t *data = lh + strlen(entry);
  data[40] ^= 0x55;
  data[41] ^= 0xAA;
  put_file(path, raw, n);
  cr_free(raw);
  cr_input *in;
  ck_assert_int_eq(cr_input_open(&in, path, &d), 0);
  size_t i;
  for (i = 0; i < cr_input_count(in); i++) {
    cr_entry_info e;
    cr_input_info(in, i, &e);
    if (!strcmp(e.name, entry)) break;
  }
  uint8_t *b = (uint8_t *)"x";
  ck_assert_int_eq(cr_input_read(in, i, &b, &n, &d), CR_EFORMAT);
  ck_assert_ptr_null(b);
  ck_assert_str_eq(d.entry, entry);
  ck_assert_str_eq(d.file, path);
  char msg[2048];
  cr_diag_format(&d, msg, sizeof msg);
  printf("corrupted %s: %s\n", entry, msg);
  cr_input_close(in);
}

START_TEST(test_io_jar__corrupt_entry) {
  mkdir_tmp();
  corrupt_case("z/text.txt", 0);        /* deflated */
  corrupt_case("a/rnd.bin", 0);         /* stored: only the CRC tells */
  rm_tmp();
}
END_TEST

/* Declare a wrong uncompressed size for the deflated entry in the
** central directory: the read must say which way it is wrong. */
static void size_case(long delta, const char *want) {
  char path[128];
  snprintf(path, sizeof path, "%s/t.jar", dir);
  make_jar(path);
  uint8_t *raw;
  size_t n;
  cr_diag d;
  cr_diag_clear(&d);
  ck_assert_int_eq(cr_read_file(&raw, &n, path, &d), 0);
  uint8_t *cd = NULL;
  for (size_t k = 0; k + 46 + 10 <= n; k++)
    if (!memcmp(raw + k, "PK\1\2", 4) &&
        !memcmp(raw + k + 46, "z/text.txt", 10))
      cd = raw + k;
  ck_assert_ptr_nonnull(cd);
  uint32_t us = (uint32_t)((long)sizeof text + delta);
  for (int b = 0; b < 4; b++) cd[24 + b] = (uint8_t)(us >> (8 * b));
  put_file(path, raw, n);
  cr_free(raw);
  cr_input *in;
  ck_assert_int_eq(cr_input_open(&in, path, &d), 0);
  uint8_t *b;
  ck_assert_int_eq(cr_input_read(in, 1, &b, &n, &d), CR_EFORMAT);
  ck_assert_str_eq(d.entry, "z/text.txt");
  ck_assert_msg(strstr(d.msg, want), "%s", d.msg);
  cr_input_close(in);
}

START_TEST(test_io_jar__declared_size) {
  mkdir_tmp();
  size_case(-10, "more than the 99990 bytes declared");
  size_case(+10, "entry holds 100000 bytes, 100010 declared");
  rm_tmp();
}
END_TEST

/* Entries kept between two reads come back once, within the budget. */
START_TEST(test_io_jar__keep) {
  mkdir_tmp();
  char path[128];
  snprintf(path, sizeof path, "%s/t.jar", dir);
  make_jar(path);
  cr_diag d;
  cr_diag_clear(&d);
  cr_input *in;
  ck_assert_int_eq(cr_input_open(&in, path, &d), 0);
  ck_assert_uint_eq(cr_input_total(in), sizeof text + 5000);
  uint8_t *b, *b2;
  size_t n;
  ck_assert_int_eq(cr_input_read(in, 1, &b, &n, &d), 0);
  ck_assert_int_eq(cr_input_keep(in, 1, b, n), 0);    /* not enabled */
  cr_input_set_keep(in, sizeof text + 100);
  ck_assert_int_eq(cr_input_keep(in, 1, b, n), 1);
  ck_assert_int_eq(cr_input_read(in, 2, &b2, &n, &d), 0);
  ck_assert_int_eq(cr_input_keep(in, 2, b2, n), 0);   /* over budget */
  cr_free(b2);
  ck_assert_int_eq(cr_input_read(in, 1, &b2, &n, &d), 0);
  ck_assert_ptr_eq(b2, b);                            /* the kept bytes */
  ck_assert_uint_eq(n, sizeof text);
  ck_assert_mem_eq(b2, text, n);
  ck_assert_int_eq(cr_input_read(in, 1, &b, &n, &d), 0);
  ck_assert_ptr_ne(b, b2);                            /* read again */
  ck_assert_mem_eq(b, text, n);
  cr_free(b);
  ck_assert_int_eq(cr_input_keep(in, 1, b2, n), 1);   /* budget is back */
  cr_input_close(in);                                 /* frees it */
  rm_tmp();
}
END_TEST

START_TEST(test_io_jar__truncated_and_missing) {
  mkdir_tmp();
  char path[128];
  snprintf(path, sizeof path, "%s/t.jar", dir);
  make_jar(path);
  struct stat st;
  ck_assert_int_eq(stat(path, &st), 0);
  cr_diag d;
  cr_input *in;
  long cuts[] = {0, 3, 22, st.st_size / 2, st.st_size - 1};
  for (size_t k = 0; k < sizeof cuts / sizeof cuts[0]; k++) {
    ck_assert_int_eq(truncate(path, cuts[k]), 0);
    cr_diag_clear(&d);
    in = (cr_input *)1;
    ck_assert_int_eq(cr_input_open(&in, path, &d), CR_EFORMAT);
    ck_assert_ptr_null(in);
    ck_assert_str_eq(d.file, path);
    ck_assert_uint_gt(strlen(d.msg), 0);
  }
  snprintf(path, sizeof path, "%s/none.jar", dir);
  cr_diag_clear(&d);
  ck_assert_int_eq(cr_input_open(&in, path, &d), CR_ENOTFOUND);
  ck_assert_str_eq(d.file, path);
  rm_tmp();
}
END_TEST

START_TEST(test_io_jar__limits) {
  mkdir_tmp();
  char path[128];
  snprintf(path, sizeof path, "%s/t.jar", dir);
  make_jar(path);
  cr_diag d;
  cr_diag_clear(&d);
  cr_input *in;
  ck_assert_int_eq(cr_input_open(&in, path, &d), 0);
  uint8_t *b;
  size_t n;
  cr_input_set_limits(in, 99999, CR_DEFAULT_MAX_TOTAL);
  ck_assert_int_eq(cr_input_read(in, 1, &b, &n, &d), CR_ETOOLARGE);
  ck_assert_str_eq(d.entry, "z/text.txt");
  ck_assert_ptr_nonnull(strstr(d.msg, "100000"));
  cr_diag_clear(&d);
  ck_assert_int_eq(cr_input_read(in, 2, &b, &n, &d), 0);   /* 5000 */
  cr_free(b);
  cr_input_set_limits(in, CR_DEFAULT_MAX_ENTRY, 100);
  ck_assert_int_eq(cr_input_read(in, 2, &b, &n, &d), CR_ETOOLARGE);
  cr_input_close(in);
  rm_tmp();
}
END_TEST

typedef struct reader {
  cr_input *in;
  uint8_t **bytes;
  size_t *lens;
  int bad;
} reader;

static void *read_all(void *arg) {
  reader *r = arg;
  for (int round = 0; round < 3; round++)
    for (size_t i = 0; i < cr_input_count(r->in); i++) {
      cr_diag d;
      cr_diag_clear(&d);
      uint8_t *b;
      size_t n;
      if (cr_input_read(r->in, i, &b, &n, &d) || n != r->lens[i] ||
          (n && memcmp(b, r->bytes[i], n)))
        r->bad++;
      cr_free(b);
    }
  return NULL;
}

START_TEST(test_io_jar__concurrent_reads) {
  mkdir_tmp();
  char path[128];
  snprintf(path, sizeof path, "%s/t.jar", dir);
  const char *src = "/usr/share/java/asm.jar";
  if (access(src, R_OK) != 0) {
    printf("%s missing: using a jar written here\n", src);
    make_jar(path);
    src = path;
  }
  cr_diag d;
  cr_diag_clear(&d);
  cr_input *in;
  ck_assert_int_eq(cr_input_open(&in, src, &d), 0);
  size_t cnt = cr_input_count(in);
  ck_assert_uint_gt(cnt, 2);
  uint8_t **bytes = calloc(cnt, sizeof *bytes);
  size_t *lens = calloc(cnt, sizeof *lens);
  for (size_t i = 0; i < cnt; i++)
    ck_assert_int_eq(cr_input_read(in, i, &bytes[i], &lens[i], &d), 0);
  enum { T = 4 };
  pthread_t th[T];
  reader rs[T];
  for (int t = 0; t < T; t++) {
    rs[t] = (reader){in, bytes, lens, 0};
    pthread_create(&th[t], NULL, read_all, &rs[t]);
  }
  for (int t = 0; t < T; t++) {
    pthread_join(th[t], NULL);
    ck_assert_int_eq(rs[t].bad, 0);
  }
  for (size_t i = 0; i < cnt; i++) cr_free(bytes[i]);
  free(bytes);
  free(lens);
  cr_input_close(in);
  rm_tmp();
}
END_TEST

START_TEST(test_io_jar__directory_and_class) {
  mkdir_tmp();
  char p[256];
  snprintf(p, sizeof p, "%s/tree", dir);
  ck_assert_int_eq(mkdir(p, 0755), 0);
  const char *dirs[] = {"b", "b/c", "a"};
  for (size_t i = 0; i < 3; i++) {
    snprintf(p, sizeof p, "%s/tree/%s", dir, dirs[i]);
    ck_assert_int_eq(mkdir(p, 0755), 0);
  }
  const char *files[] = {"b/c/Z.class", "b/A.class", "a/x.txt", "top"};
  for (size_t i = 0; i < 4; i++) {
    snprintf(p, sizeof p, "%s/tree/%s", dir, files[i]);
    put_file(p, files[i], strlen(files[i]));
  }
  /* a link cycle (not followed) and a link to a file (followed) */
  snprintf(p, sizeof p, "%s/tree/b/c/loop", dir);
  ck_assert_int_eq(symlink("../..", p), 0);
  snprintf(p, sizeof p, "%s/tree/b/link", dir);
  ck_assert_int_eq(symlink("../top", p), 0);
  snprintf(p, sizeof p, "%s/tree", dir);
  cr_diag d;
  cr_diag_clear(&d);
  cr_input *in;
  ck_assert_int_eq(cr_input_open(&in, p, &d), 0);
  ck_assert_int_eq(cr_input_kind_of(in), CR_IN_DIR);
  const char *want[] = {"a/x.txt", "b/A.class", "b/c/Z.class", "b/link",
                        "top"};
  ck_assert_uint_eq(cr_input_count(in), 5);
  for (size_t i = 0; i < 5; i++) {
    cr_entry_info e;
    cr_input_info(in, i, &e);
    ck_assert_str_eq(e.name, want[i]);
    uint8_t *b;
    size_t n;
    ck_assert_int_eq(cr_input_read(in, i, &b, &n, &d), 0);
    const char *c = i == 3 ? "top" : want[i];
    ck_assert_uint_eq(n, strlen(c));
    ck_assert_mem_eq(b, c, n);
    cr_free(b);
  }
  cr_input_set_limits(in, 2, CR_DEFAULT_MAX_TOTAL);
  uint8_t *b;
  size_t n;
  ck_assert_int_eq(cr_input_read(in, 0, &b, &n, &d), CR_ETOOLARGE);
  ck_assert_str_eq(d.entry, "a/x.txt");
  cr_input_close(in);

  snprintf(p, sizeof p, "%s/Foo.class", dir);
  put_file(p, "\xca\xfe\xba\xbe\0\0\0\x34", 8);
  cr_diag_clear(&d);
  ck_assert_int_eq(cr_input_open(&in, p, &d), 0);
  ck_assert_int_eq(cr_input_kind_of(in), CR_IN_CLASS);
  ck_assert_uint_eq(cr_input_count(in), 1);
  cr_entry_info e;
  cr_input_info(in, 0, &e);
  ck_assert_str_eq(e.name, "Foo.class");
  ck_assert_int_eq(cr_input_read(in, 0, &b, &n, &d), 0);
  ck_assert_uint_eq(n, 8);
  cr_free(b);
  cr_input_close(in);
  rm_tmp();
}
END_TEST

START_TEST(test_io_jar__jdk_modules_path) {
  char out[512];
  cr_diag d;
  cr_diag_clear(&d);
  if (access(JDK17 "/lib/modules", R_OK) == 0) {
    ck_assert_int_eq(cr_jdk_modules_path(out, sizeof out, JDK17, &d), 0);
    ck_assert_str_eq(out, JDK17 "/lib/modules");
    ck_assert_int_eq(
        cr_jdk_modules_path(out, sizeof out, JDK17 "/lib/modules", &d), 0);
    ck_assert_str_eq(out, JDK17 "/lib/modules");
    ck_assert_int_eq(cr_jdk_modules_path(out, 10, JDK17, &d), CR_ETOOLARGE);
  } else {
    printf("JDK 17 missing: skipping the positive JAVA_HOME case\n");
  }
  cr_diag_clear(&d);
  ck_assert_int_eq(cr_jdk_modules_path(out, sizeof out, "/tmp", &d),
                   CR_ENOTFOUND);
  cr_diag_clear(&d);
  ck_assert_int_eq(cr_jdk_modules_path(out, sizeof out, "/etc/passwd", &d),
                   CR_ENOTFOUND);
  cr_diag_clear(&d);
  ck_assert_int_eq(cr_jdk_modules_path(out, sizeof out, "/no/such", &d),
                   CR_ENOTFOUND);
}
END_TEST

/* Open and read everything with allocation n failing, n = 0, 1, ... */
START_TEST(test_io_jar__oom_sweep) {
  mkdir_tmp();
  char path[128];
  snprintf(path, sizeof path, "%s/t.jar", dir);
  make_jar(path);
  ck_assert_int_gt(tu_input_oom_sweep(path), 3);
  rm_tmp();
}
END_TEST

int main(void) {
  Suite *s = suite_create("io_jar");
  TCase *tc = tcase_create("jar");
  tcase_set_timeout(tc, 60);
  tcase_add_test(tc, test_io_jar__listing);
  tcase_add_test(tc, test_io_jar__corrupt_entry);
  tcase_add_test(tc, test_io_jar__declared_size);
  tcase_add_test(tc, test_io_jar__keep);
  tcase_add_test(tc, test_io_jar__truncated_and_missing);
  tcase_add_test(tc, test_io_jar__limits);
  tcase_add_test(tc, test_io_jar__concurrent_reads);
  tcase_add_test(tc, test_io_jar__directory_and_class);
  tcase_add_test(tc, test_io_jar__jdk_modules_path);
  tcase_add_test(tc, test_io_jar__oom_sweep);
  suite_add_tcase(s, tc);
  SRunner *sr = srunner_create(s);
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  cr_io_release_caches();
  return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
