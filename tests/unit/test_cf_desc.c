/*
** test_cf_desc.c -- descriptor validation, slots, return types, iteration.
*/
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "cccp/classfile.h"

#define F(s) cr_desc_is_field((s), strlen(s))
#define M(s) cr_desc_is_method((s), strlen(s))
#define SLOTS(s) cr_desc_arg_slots((s), strlen(s))

START_TEST(test_cf_desc__field) {
  ck_assert(F("I"));
  ck_assert(F("J"));
  ck_assert(F("[[D"));
  ck_assert(F("Ljava/lang/String;"));
  ck_assert(F("[Ljava/util/Map$Entry;"));
  ck_assert(!F(""));
  ck_assert(!F("V"));
  ck_assert(!F("II"));
  ck_assert(!F("L;"));
  ck_assert(!F("Ljava/lang/String"));
  ck_assert(!F("Ljava.lang.String;"));
  ck_assert(!F("Ljava//String;"));
  ck_assert(!F("L/a;"));
  ck_assert(!F("La/;"));
  ck_assert(!F("La[b;"));
  ck_assert(!F("["));
  ck_assert(!F("Q"));
  char dims[260];
  memset(dims, '[', 255);
  strcpy(dims + 255, "I");
  ck_assert(F(dims));
  memset(dims, '[', 256);
  strcpy(dims + 256, "I");
  ck_assert(!F(dims));
  ck_assert_uint_eq(cr_desc_field_len("JI", 2), 1);
  ck_assert_uint_eq(cr_desc_field_len("La/B;I", 6), 5);
}
END_TEST

START_TEST(test_cf_desc__method) {
  ck_assert(M("()V"));
  ck_assert(M("(IJ)D"));
  ck_assert(M("([Ljava/lang/String;)V"));
  ck_assert(M("(Ljava/lang/Object;[[JZ)Ljava/lang/String;"));
  ck_assert(!M("()"));
  ck_assert(!M("(V)V"));
  ck_assert(!M("V"));
  ck_assert(!M("(I"));
  ck_assert(!M("(I)"));
  ck_assert(!M("()VV"));
  ck_assert(!M("()[V"));
  ck_assert(!M("(L;)V"));
  ck_assert(!M(""));
}
END_TEST

START_TEST(test_cf_desc__slots) {
  ck_assert_int_eq(SLOTS("()V"), 0);
  ck_assert_int_eq(SLOTS("(I)V"), 1);
  ck_assert_int_eq(SLOTS("(J)V"), 2);
  ck_assert_int_eq(SLOTS("(D)V"), 2);
  ck_assert_int_eq(SLOTS("([J)V"), 1);
  ck_assert_int_eq(SLOTS("([D[[JLa;)V"), 3);
  ck_assert_int_eq(SLOTS("(IJLjava/lang/Object;DZ)J"), 7);
  ck_assert_int_eq(SLOTS("(X)V"), -1);
  ck_assert_int_eq(cr_desc_slots('V'), 0);
  ck_assert_int_eq(cr_desc_slots('J'), 2);
  ck_assert_int_eq(cr_desc_slots('D'), 2);
  ck_assert_int_eq(cr_desc_slots('L'), 1);
  ck_assert_int_eq(cr_desc_slots('['), 1);
}
END_TEST

START_TEST(test_cf_desc__ret_and_iter) {
  const char *d = "(I[JLjava/lang/String;)[Ljava/lang/Object;";
  size_t n;
  const char *r = cr_desc_ret(d, strlen(d), &n);
  ck_assert_ptr_nonnull(r);
  ck_assert_uint_eq(n, 19);
  ck_assert(memcmp(r, "[Ljava/lang/Object;", n) == 0);
  ck_assert_ptr_null(cr_desc_ret("(I", 2, &n));
  r = cr_desc_ret("()V", 3, &n);
  ck_assert(n == 1 && r[0] == 'V');

  static const char *want[] = {"I", "[J", "Ljava/lang/String;"};
  cr_desc_iter it;
  const char *t;
  size_t k;
  int i = 0, rc;
  ck_assert_int_eq(cr_desc_iter_init(&it, d, strlen(d)), 0);
  while ((rc = cr_desc_next(&it, &t, &k)) == 1) {
    ck_assert_int_lt(i, 3);
    ck_assert_uint_eq(k, strlen(want[i]));
    ck_assert(memcmp(t, want[i], k) == 0);
    i++;
  }
  ck_assert_int_eq(rc, 0);
  ck_assert_int_eq(i, 3);
  ck_assert_int_eq(cr_desc_iter_init(&it, "I", 1), -1);
  ck_assert_int_eq(cr_desc_iter_init(&it, "(Q)V", 4), 0);
  ck_assert_int_eq(cr_desc_next(&it, &t, &k), -1);
  ck_assert_int_eq(cr_desc_iter_init(&it, "(I", 2), 0);
  ck_assert_int_eq(cr_desc_next(&it, &t, &k), 1);
  ck_assert_int_eq(cr_desc_next(&it, &t, &k), -1);
}
END_TEST

static Suite *suite(void) {
  Suite *s = suite_create("classfile");
  TCase *tc = tcase_create("desc");
  tcase_add_test(tc, test_cf_desc__field);
  tcase_add_test(tc, test_cf_desc__method);
  tcase_add_test(tc, test_cf_desc__slots);
  tcase_add_test(tc, test_cf_desc__ret_and_iter);
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
