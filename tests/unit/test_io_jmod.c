/*
** test_io_jmod.c -- jmod files: only the "classes/" section, prefix
** dropped, module named after the file; a synthetic jmod and JDK 17's.
*/
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zip.h>

#include "cccp/io.h"
#include "testutil.h"

#define BASE_JMOD "/usr/lib/jvm/java-17-openjdk-amd64/jmods/java.base.jmod"

static char dir[64];

static void mkdir_tmp(void) { tu_tmpdir(dir, sizeof dir, "jmod"); }

static void rm_tmp(void) { tu_rmdir(dir); }

/* A jmod is "JM\1\0" and a zip whose offsets count from byte 4. */
static void make_jmod(const char *path) {
  char zpath[128];
  snprintf(zpath, sizeof zpath, "%s/tmp.zip", dir);
  cr_diag d;
  cr_diag_clear(&d);
  cr_jarw *w;
  ck_assert_int_eq(cr_jarw_open(&w, zpath, &d), 0);
  ck_assert_int_eq(cr_jarw_add(w, "classes/", NULL, 0, &d), 0);
  ck_assert_int_eq(cr_jarw_add(w, "classes/module-info.class",
                               (uint8_t *)"\xca\xfe\xba\xbe", 4, &d), 0);
  ck_assert_int_eq(cr_jarw_add(w, "lib/libfoo.so", (uint8_t *)"ELF", 3, &d),
                   0);
  ck_assert_int_eq(cr_jarw_add(w, "classes/p/Q.class",
                               (uint8_t *)"\xca\xfe\xba\xbeQQ", 6, &d), 0);
  ck_assert_int_eq(cr_jarw_add(w, "conf/x.properties", (uint8_t *)"a=b", 3,
                               &d), 0);
  ck_assert_int_eq(cr_jarw_commit(w, &d), 0);
  uint8_t *z;
  size_t n;
  ck_assert_int_eq(cr_read_file(&z, &n, zpath, &d), 0);
  FILE *f = fopen(path, "wb");
  fwrite("JM\1\0", 1, 4, f);
  fwrite(z, 1, n, f);
  fclose(f);
  cr_free(z);
  unlink(zpath);
}

START_TEST(test_io_jmod__synthetic) {
  mkdir_tmp();
  char path[128];
  snprintf(path, sizeof path, "%s/my.mod.jmod", dir);
  make_jmod(path);
  cr_diag d;
  cr_diag_clear(&d);
  cr_input *in;
  ck_assert_int_eq(cr_input_open(&in, path, &d), 0);
  ck_assert_int_eq(cr_input_kind_of(in), CR_IN_JMOD);
  ck_assert_uint_eq(cr_input_count(in), 2);
  cr_entry_info e;
  cr_input_info(in, 0, &e);
  ck_assert_str_eq(e.name, "module-info.class");
  ck_assert_str_eq(e.module, "my.mod");
  cr_input_info(in, 1, &e);
  ck_assert_str_eq(e.name, "p/Q.class");
  ck_assert_uint_eq(e.size, 6);
  uint8_t *b;
  size_t n;
  ck_assert_int_eq(cr_input_read(in, 1, &b, &n, &d), 0);
  ck_assert_mem_eq(b, "\xca\xfe\xba\xbeQQ", 6);
  cr_free(b);
  cr_input_close(in);
  /* the header alone, or a broken zip after it */
  FILE *f = fopen(path, "wb");
  fwrite("JM\1\0PK\3\4garbage", 1, 15, f);
  fclose(f);
  cr_diag_clear(&d);
  ck_assert_int_eq(cr_input_open(&in, path, &d), CR_EFORMAT);
  ck_assert_str_eq(d.file, path);
  rm_tmp();
}
END_TEST

START_TEST(test_io_jmod__java_base) {
  if (access(BASE_JMOD, R_OK) != 0) {
    printf("%s missing: skipped\n", BASE_JMOD);
    return;
  }
  /* what libzip sees under classes/ */
  zip_source_t *src = zip_source_file_create(BASE_JMOD, 4, -1, NULL);
  ck_assert_ptr_nonnull(src);
  zip_t *za = zip_open_from_source(src, ZIP_RDONLY, NULL);
  ck_assert_ptr_nonnull(za);
  size_t want = 0;
  for (zip_int64_t i = 0; i < zip_get_num_entries(za, 0); i++) {
    const char *nm = zip_get_name(za, (zip_uint64_t)i, ZIP_FL_ENC_RAW);
    if (!strncmp(nm, "classes/", 8) && nm[8]) want++;
  }
  zip_close(za);

  cr_diag d;
  cr_diag_clear(&d);
  cr_input *in;
  ck_assert_int_eq(cr_input_open(&in, BASE_JMOD, &d), 0);
  ck_assert_int_eq(cr_input_kind_of(in), CR_IN_JMOD);
  ck_assert_uint_eq(cr_input_count(in), want);
  ck_assert_uint_gt(want, 5000);
  size_t obj = (size_t)-1;
  for (size_t i = 0; i < cr_input_count(in); i++) {
    cr_entry_info e;
    cr_input_info(in, i, &e);
    ck_assert_str_eq(e.module, "java.base");
    ck_assert(strncmp(e.name, "classes/", 8) != 0);
    if (!strcmp(e.name, "java/lang/Object.class")) obj = i;
  }
  ck_assert_uint_ne(obj, (size_t)-1);
  uint8_t *b;
  size_t n;
  ck_assert_int_eq(cr_input_read(in, obj, &b, &n, &d), 0);
  ck_assert_uint_gt(n, 100);
  ck_assert_mem_eq(b, "\xca\xfe\xba\xbe", 4);
  ck_assert_uint_eq(cr_be16(b + 6), 61);       /* JDK 17 */
  cr_free(b);
  cr_input_close(in);
}
END_TEST

START_TEST(test_io_jmod__oom_sweep) {
  mkdir_tmp();
  char path[128];
  snprintf(path, sizeof path, "%s/m.jmod", dir);
  make_jmod(path);
  ck_assert_int_gt(tu_input_oom_sweep(path), 3);
  rm_tmp();
}
END_TEST

int main(void) {
  Suite *s = suite_create("io_jmod");
  TCase *tc = tcase_create("jmod");
  tcase_set_timeout(tc, 60);
  tcase_add_test(tc, test_io_jmod__synthetic);
  tcase_add_test(tc, test_io_jmod__java_base);
  tcase_add_test(tc, test_io_jmod__oom_sweep);
  suite_add_tcase(s, tc);
  SRunner *sr = srunner_create(s);
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  cr_io_release_caches();
  return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
