/*
** test_cf_mutf8.c -- modified UTF-8: validation, UTF-16 decoding,
** encoding from UTF-8, comparison.
*/
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "cccp/classfile.h"

#define CHECK_AT(s, n) cr_mutf8_check((s), (n))

START_TEST(test_cf_mutf8__check) {
  ck_assert_int_eq(CHECK_AT("plain ascii text, long enough", 29), -1);
  ck_assert_int_eq(CHECK_AT("", 0), -1);
  ck_assert_int_eq(CHECK_AT("a\xc0\x80" "b", 4), -1);        /* U+0000 */
  ck_assert_int_eq(CHECK_AT("\xc3\xa9", 2), -1);             /* U+00E9 */
  ck_assert_int_eq(CHECK_AT("\xe2\x82\xac", 3), -1);         /* U+20AC */
  ck_assert_int_eq(CHECK_AT("\xed\xa0\xbd\xed\xb8\x80", 6), -1); /* pair */
  ck_assert_int_eq(CHECK_AT("abcdefgh\0jk", 11), 8);         /* NUL byte */
  ck_assert_int_eq(CHECK_AT("ab\xf0\x9f\x98\x80", 6), 2);    /* 4-byte */
  ck_assert_int_eq(CHECK_AT("a\x80", 2), 1);                 /* stray */
  ck_assert_int_eq(CHECK_AT("a\xc3", 2), 1);                 /* cut */
  ck_assert_int_eq(CHECK_AT("\xe2\x82", 2), 0);              /* cut */
  ck_assert_int_eq(CHECK_AT("\xc1\x81", 2), 0);              /* overlong */
  ck_assert_int_eq(CHECK_AT("\xe0\x81\x81", 3), 0);          /* overlong */
  ck_assert_int_eq(CHECK_AT("\xff", 1), 0);
  ck_assert_int_eq(CHECK_AT("\xc3\x28", 2), 0);              /* bad cont. */
}
END_TEST

START_TEST(test_cf_mutf8__utf16) {
  uint16_t u[8];
  const char *s = "A\xc0\x80\xc3\xa9\xe2\x82\xac\xed\xa0\xbd\xed\xb8\x80";
  long n = cr_mutf8_to_utf16(u, 8, s, strlen(s));
  ck_assert_int_eq(n, 6);
  ck_assert_uint_eq(u[0], 'A');
  ck_assert_uint_eq(u[1], 0);
  ck_assert_uint_eq(u[2], 0xE9);
  ck_assert_uint_eq(u[3], 0x20AC);
  ck_assert_uint_eq(u[4], 0xD83D);
  ck_assert_uint_eq(u[5], 0xDE00);
  ck_assert_int_eq(cr_mutf8_to_utf16(u, 2, s, strlen(s)), 6);  /* cap */
  ck_assert_int_eq(cr_mutf8_to_utf16(u, 8, "\xf0", 1), -1);
}
END_TEST

START_TEST(test_cf_mutf8__encode) {
  char out[32];
  const char *u = "A\xc3\xa9\xf0\x9f\x98\x80";     /* A, U+00E9, U+1F600 */
  long n = cr_mutf8_enclen(u, strlen(u));
  ck_assert_int_eq(n, 1 + 2 + 6);
  cr_mutf8_encode(out, u, strlen(u));
  ck_assert(memcmp(out, "A\xc3\xa9\xed\xa0\xbd\xed\xb8\x80", 9) == 0);
  ck_assert_int_eq(cr_mutf8_check(out, 9), -1);
  /* an embedded U+0000 (length given) becomes C0 80 */
  ck_assert_int_eq(cr_mutf8_enclen("a\0b", 3), 4);
  cr_mutf8_encode(out, "a\0b", 3);
  ck_assert(memcmp(out, "a\xc0\x80" "b", 4) == 0);
  /* invalid UTF-8 */
  ck_assert_int_eq(cr_mutf8_enclen("\xed\xa0\xbd", 3), -1);  /* surrogate */
  ck_assert_int_eq(cr_mutf8_enclen("\xc0\x80", 2), -1);      /* overlong */
  ck_assert_int_eq(cr_mutf8_enclen("\xf4\x90\x80\x80", 4), -1); /* >10FFFF */
  ck_assert_int_eq(cr_mutf8_enclen("\xe2\x82", 2), -1);
}
END_TEST

START_TEST(test_cf_mutf8__eq) {
  ck_assert(cr_mutf8_eq("java/lang/Object", 16, "java/lang/Object"));
  ck_assert(!cr_mutf8_eq("java/lang/Object", 16, "java/lang/Objec"));
  ck_assert(!cr_mutf8_eq("java/lang/Objec", 15, "java/lang/Object"));
  ck_assert(cr_mutf8_eq("", 0, ""));
  ck_assert(cr_mutf8_eq("caf\xc3\xa9", 5, "caf\xc3\xa9"));
  ck_assert(cr_mutf8_eq("x\xed\xa0\xbd\xed\xb8\x80y", 8,
                        "x\xf0\x9f\x98\x80y"));
  ck_assert(!cr_mutf8_eq("x\xed\xa0\xbd\xed\xb8\x81y", 8,
                         "x\xf0\x9f\x98\x80y"));
  ck_assert(!cr_mutf8_eq("x\xed\xa0\xbd", 4, "x\xf0\x9f\x98\x80"));
  ck_assert(!cr_mutf8_eq("a\xc0\x80", 3, "a"));   /* U+0000 is not end */
  ck_assert(!cr_mutf8_eq("\xf0", 1, "\xf0"));     /* invalid mutf8 */
}
END_TEST

static Suite *suite(void) {
  Suite *s = suite_create("classfile");
  TCase *tc = tcase_create("mutf8");
  tcase_add_test(tc, test_cf_mutf8__check);
  tcase_add_test(tc, test_cf_mutf8__utf16);
  tcase_add_test(tc, test_cf_mutf8__encode);
  tcase_add_test(tc, test_cf_mutf8__eq);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) {
  SRunner *sr = srunner_create(suite());
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
