/*
** test_util.c -- arena, byte buffer, diagnostics, fault injection, SHA-1,
** XML attribute text.
*/
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cccp/util.h"

START_TEST(test_util_arena__many_small_and_big) {
  cr_arena *a = cr_arena_new();
  ck_assert_ptr_nonnull(a);
  char *prev = NULL;
  for (int i = 0; i < 100000; i++) {
    char *p = cr_arena_alloc(a, (size_t)(i % 97) + 1);
    ck_assert_ptr_nonnull(p);
    ck_assert_uint_eq((uintptr_t)p % 8, 0);
    memset(p, 0xAB, (size_t)(i % 97) + 1);
    prev = p;
  }
  (void)prev;
  char *big = cr_arena_alloc(a, 5u << 20);
  ck_assert_ptr_nonnull(big);
  memset(big, 1, 5u << 20);
  ck_assert_uint_ge(cr_arena_used(a), 5u << 20);
  int *z = cr_arena_calloc(a, 1000, sizeof *z);
  for (int i = 0; i < 1000; i++) ck_assert_int_eq(z[i], 0);
  ck_assert_str_eq(cr_arena_strndup(a, "hello world", 5), "hello");
  ck_assert_ptr_null(cr_arena_calloc(a, SIZE_MAX / 2, 4));
  /* reset: the arena is reusable, old and new objects do not clash */
  for (int round = 0; round < 3; round++) {
    cr_arena_reset(a);
    char *x = cr_arena_alloc(a, 100), *y = cr_arena_alloc(a, 1u << 20);
    ck_assert_ptr_nonnull(x);
    ck_assert_ptr_nonnull(y);
    memset(x, 'x', 100);
    memset(y, 'y', 1u << 20);
    ck_assert_int_eq(x[99], 'x');
  }
  cr_arena_free(a);
}
END_TEST

START_TEST(test_util_buf__big_endian_and_patch) {
  cr_buf b;
  cr_buf_init(&b);
  cr_buf_u1(&b, 0xCA);
  cr_buf_u2(&b, 0xFEBA);
  cr_buf_u4(&b, 0xBE000102);
  cr_buf_set_u2(&b, 1, 0x1234);
  ck_assert_uint_eq(b.len, 7);
  ck_assert_uint_eq(cr_be16(b.data + 1), 0x1234);
  ck_assert_uint_eq(cr_be32(b.data + 3), 0xBE000102);
  for (int i = 0; i < 10000; i++) cr_buf_puts(&b, "xyz");
  ck_assert_uint_eq(b.len, 7 + 30000);
  ck_assert_int_eq(b.err, 0);
  size_t n;
  uint8_t *p = cr_buf_detach(&b, &n);
  ck_assert_uint_eq(n, 30007);
  ck_assert_ptr_null(b.data);
  cr_free(p);
}
END_TEST

START_TEST(test_util_buf__sticky_oom) {
  cr_buf b;
  cr_buf_init(&b);
  cr_alloc_fail_after(0);
  cr_buf_u4(&b, 1);
  cr_alloc_fail_after(-1);
  ck_assert_int_eq(b.err, CR_ENOMEM);
  cr_buf_u4(&b, 2);   /* sticky: still nothing appended */
  ck_assert_uint_eq(b.len, 0);
  cr_buf_free(&b);
}
END_TEST

START_TEST(test_util_diag__first_error_wins) {
  cr_diag d;
  cr_diag_clear(&d);
  ck_assert_int_eq(cr_diag_set(&d, CR_EFORMAT, 12, "bad %s", "tag"),
                   CR_EFORMAT);
  ck_assert_int_eq(cr_diag_set(&d, CR_EIO, 3, "later"), CR_EIO);
  cr_diag_where(&d, "a.jar", "p/A.class");
  cr_diag_where(&d, "b.jar", "q/B.class");
  char msg[256];
  cr_diag_format(&d, msg, sizeof msg);
  ck_assert_str_eq(msg, "a.jar: p/A.class: offset 12: bad tag");
  ck_assert_int_eq(d.code, CR_EFORMAT);
  cr_diag_format(&d, msg, 8);   /* truncation is safe */
  ck_assert_uint_eq(strlen(msg), 7);
}
END_TEST

START_TEST(test_util_alloc__fault_injection_sweep) {
  /* An arena that needs several chunks fails cleanly at every point. */
  for (long n = 0;; n++) {
    cr_alloc_fail_after(n);
    cr_arena *a = cr_arena_new();
    int ok = a != NULL;
    for (int i = 0; ok && i < 2000; i++) ok = cr_arena_alloc(a, 100) != NULL;
    cr_alloc_fail_after(-1);
    cr_arena_free(a);
    if (ok) {
      ck_assert_int_gt(n, 2);
      break;
    }
    ck_assert_int_lt(n, 3000);   /* 2001 with CR_DEBUG_ARENA */
  }
}
END_TEST

START_TEST(test_util_file__read) {
  cr_diag d;
  cr_diag_clear(&d);
  uint8_t *p;
  size_t n;
  ck_assert_int_eq(cr_read_file(&p, &n, "/nonexistent/x", &d), CR_ENOTFOUND);
  ck_assert(strstr(d.msg, "cannot open") != NULL);
  cr_diag_clear(&d);
  ck_assert_int_eq(cr_read_file(&p, &n, "/", &d), CR_EIO);
  cr_diag_clear(&d);
  ck_assert_int_eq(cr_read_file(&p, &n, "/proc/self/exe", &d), 0);
  ck_assert_uint_gt(n, 4);
  ck_assert_mem_eq(p, "\177ELF", 4);
  cr_free(p);
}
END_TEST

/* FIPS 180-2 appendix A test vectors, and lengths around the padding
** boundaries (55, 56, 64 bytes) against values from sha1sum. */
static void hex(const uint8_t h[20], char out[41]) {
  for (int i = 0; i < 20; i++) sprintf(out + 2 * i, "%02x", h[i]);
}

START_TEST(test_util_sha1__vectors) {
  static const struct { const char *in; const char *want; } v[] = {
    {"", "da39a3ee5e6b4b0d3255bfef95601890afd80709"},
    {"abc", "a9993e364706816aba3e25717850c26c9cd0d89d"},
    {"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
     "84983e441c3bd26ebaae4aa1f95129e5e54670f1"},
  };
  uint8_t h[20];
  char got[41];
  for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
    cr_sha1(v[i].in, strlen(v[i].in), h);
    hex(h, got);
    ck_assert_str_eq(got, v[i].want);
  }
  char *m = malloc(1000000);
  ck_assert_ptr_nonnull(m);
  memset(m, 'a', 1000000);
  cr_sha1(m, 1000000, h);
  hex(h, got);
  ck_assert_str_eq(got, "34aa973cd4c4daa4f61eeb2bdbad27316534016f");
  static const struct { size_t n; const char *want; } b[] = {
    {55, "c1c8bbdc22796e28c0e15163d20899b65621d65a"},
    {56, "c2db330f6083854c99d4b5bfb6e8f29f201be699"},
    {64, "0098ba824b5c16427bd7a1122a5a442a25ec644d"},
  };
  for (size_t i = 0; i < sizeof b / sizeof b[0]; i++) {
    cr_sha1(m, b[i].n, h);
    hex(h, got);
    ck_assert_str_eq(got, b[i].want);
  }
  free(m);
}
END_TEST

/* What cr_xml_attr writes for 's'. */
static char *xml_of(const char *s) {
  static char buf[256];
  FILE *f = fmemopen(buf, sizeof buf, "w");
  ck_assert_ptr_nonnull(f);
  cr_xml_attr(f, s);
  fclose(f);
  return buf;
}

START_TEST(test_util_xml__attr) {
  ck_assert_str_eq(xml_of("a<b>&\"c'"), "a&lt;b&gt;&amp;&quot;c'");
  ck_assert_str_eq(xml_of("t\tn\nr\r"), "t&#9;n&#10;r&#13;");
  /* control characters are not XML characters, not even as references */
  ck_assert_str_eq(xml_of("x\001y\037z"), "x?y?z");
  /* modified UTF-8: NUL as C0 80; U+1F600 as a surrogate pair */
  ck_assert_str_eq(xml_of("a\xC0\x80" "b"), "a?b");
  ck_assert_str_eq(xml_of("\xED\xA0\xBD\xED\xB8\x80"), "\xF0\x9F\x98\x80");
  ck_assert_str_eq(xml_of("\xED\xA0\xBDx"), "?x");     /* lone surrogate */
  ck_assert_str_eq(xml_of("\xC3\xA9\xE2\x82\xAC"), "\xC3\xA9\xE2\x82\xAC");
  ck_assert_str_eq(xml_of("\xFF\x80\xC3"), "???");      /* not UTF-8 */
  ck_assert_str_eq(xml_of("\xEF\xBF\xBE"), "?");         /* U+FFFE */
}
END_TEST

int main(void) {
  Suite *s = suite_create("util");
  TCase *tc = tcase_create("util");
  tcase_add_test(tc, test_util_arena__many_small_and_big);
  tcase_add_test(tc, test_util_buf__big_endian_and_patch);
  tcase_add_test(tc, test_util_buf__sticky_oom);
  tcase_add_test(tc, test_util_diag__first_error_wins);
  tcase_add_test(tc, test_util_alloc__fault_injection_sweep);
  tcase_add_test(tc, test_util_file__read);
  tcase_add_test(tc, test_util_sha1__vectors);
  tcase_add_test(tc, test_util_xml__attr);
  /* the sweep makes about two million allocations: under the sanitizers,
  ** beside the integration suites, past check's default of 4 s */
  tcase_set_timeout(tc, 60);
  suite_add_tcase(s, tc);
  SRunner *sr = srunner_create(s);
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
