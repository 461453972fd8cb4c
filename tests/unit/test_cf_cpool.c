/*
** test_cf_cpool.c -- constant-pool getters and find-or-add.
*/
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cccp/classfile.h"
#include "testutil.h"

typedef struct fix {
  uint8_t *bytes;
  size_t len;
  cr_arena *a;
  cr_class *c;
} fix;

static void load(fix *f, const char *name) {
  cr_diag d;
  cr_diag_clear(&d);
  f->bytes = tu_fixture(name, &f->len);
  ck_assert_ptr_nonnull(f->bytes);
  f->a = cr_arena_new();
  ck_assert_int_eq(cr_cf_parse(&f->c, f->a, f->bytes, f->len, &d), 0);
}

static void unload(fix *f) {
  cr_arena_free(f->a);
  free(f->bytes);
}

START_TEST(test_cf_cpool__getters) {
  fix f;
  load(&f, "fx/Consts");
  cr_cpool *cp = f.c->cp;
  ck_assert_str_eq(cr_cf_this_name(f.c), "fx/Consts");
  ck_assert_str_eq(cr_cp_class_name(cp, f.c->super_class),
                   "java/lang/Object");
  ck_assert_ptr_null(cr_cp_get(cp, 0));
  ck_assert_ptr_null(cr_cp_get(cp, cr_cp_count(cp)));
  ck_assert_ptr_null(cr_cp_utf8(cp, f.c->this_class, NULL));
  ck_assert_int_eq(cr_cp_tag(cp, 70000), 0);
  int longs = 0;
  for (uint32_t i = 1; i < cr_cp_count(cp); i++) {
    const cr_cpentry *e = cr_cp_get(cp, i);
    if (e && e->tag == CR_CP_LONG) {
      longs++;
      ck_assert_ptr_null(cr_cp_get(cp, i + 1));   /* second slot */
      ck_assert_int_eq(cr_cp_tag(cp, i + 1), 0);
    }
  }
  ck_assert_int_gt(longs, 0);
  int nm = 0;
  for (uint32_t i = 0; i < f.c->nmethods; i++)
    if (strcmp(cr_member_name(f.c, &f.c->methods[i]), "strSwitch") == 0) {
      ck_assert_str_eq(cr_member_desc(f.c, &f.c->methods[i]),
                       "(Ljava/lang/String;)I");
      ck_assert_ptr_nonnull(cr_member_code(&f.c->methods[i]));
      nm++;
    }
  ck_assert_int_eq(nm, 1);
  unload(&f);
}
END_TEST

START_TEST(test_cf_cpool__find_existing) {
  fix f;
  cr_diag d;
  load(&f, "fx/Consts");
  cr_cpool *cp = f.c->cp;
  uint32_t count = cr_cp_count(cp);
  cr_diag_clear(&d);
  ck_assert_int_eq(cr_cp_add_class(cp, "fx/Consts", &d), f.c->this_class);
  ck_assert_int_eq(cr_cp_add_class(cp, "java/lang/Object", &d),
                   f.c->super_class);
  int i = cr_cp_add_int(cp, 123456789, &d);
  ck_assert_int_eq(cr_cp_get(cp, (uint32_t)i)->v.u4, 123456789u);
  i = cr_cp_add_long(cp, 0x123456789ABCDEFLL, &d);
  ck_assert_int_eq(cr_cp_tag(cp, (uint32_t)i), CR_CP_LONG);
  i = cr_cp_add_string(cp, "alpha", &d);
  ck_assert_int_eq(cr_cp_tag(cp, (uint32_t)i), CR_CP_STRING);
  /* the constant with U+0000 and a supplementary character */
  i = cr_cp_add_string(cp, "caf\xc3\xa9 ", &d);   /* absent */
  ck_assert_uint_eq(cr_cp_count(cp), count + 2);
  count = cr_cp_count(cp);
  ck_assert_int_eq(cr_cp_add_methodref(cp, "java/lang/String", "length",
                                       "()I", &d) > 0, 1);
  ck_assert_uint_eq(cr_cp_count(cp), count);        /* Consts calls it */
  ck_assert_int_eq(d.code, 0);
  unload(&f);
}
END_TEST

START_TEST(test_cf_cpool__append_and_reparse) {
  fix f;
  cr_diag d;
  load(&f, "fx/Lambdas");
  cr_cpool *cp = f.c->cp;
  cr_diag_clear(&d);
  uint32_t count = cr_cp_count(cp);
  int m = cr_cp_add_methodref(cp, "cccp/rt/CC", "enter",
                              "(Lcccp/rt/CC;I)Lcccp/rt/CC;", &d);
  ck_assert_uint_eq((uint32_t)m, count + 5);  /* 3 utf8, class, nat, ref */
  ck_assert_int_eq(cr_cp_add_methodref(cp, "cccp/rt/CC", "enter",
                                       "(Lcccp/rt/CC;I)Lcccp/rt/CC;", &d), m);
  int im = cr_cp_add_imethodref(cp, "cccp/rt/I", "f", "()V", &d);
  int fr = cr_cp_add_fieldref(cp, "java/lang/Thread", "cccp$cc",
                              "Lcccp/rt/CC;", &d);
  int mh = cr_cp_add_methodhandle(cp, CR_REF_GETFIELD, (uint32_t)fr, &d);
  int mt = cr_cp_add_methodtype(cp, "(I)V", &d);
  int lg = cr_cp_add_long(cp, -5, &d);
  int db = cr_cp_add_double(cp, 0x400921FB54442D18ull, &d);
  int fl = cr_cp_add_float(cp, 0x7FC00001u, &d);   /* a NaN's bits kept */
  int nul = cr_cp_add_utf8(cp, "a\xf0\x9f\x98\x80z", &d);   /* U+1F600 */
  ck_assert_int_eq(d.code, 0);
  ck_assert_int_eq(cr_cp_tag(cp, (uint32_t)lg + 1), 0);
  ck_assert_int_eq(db, lg + 2);
  ck_assert_int_eq(cr_cp_add_methodhandle(cp, 12, (uint32_t)fr, &d),
                   CR_EUSAGE);
  size_t ulen;
  const char *u = cr_cp_utf8(cp, (uint32_t)nul, &ulen);
  ck_assert_uint_eq(ulen, 8);                  /* 1 + 3 + 3 + 1 */
  ck_assert(memcmp(u, "a\xed\xa0\xbd\xed\xb8\x80z", 8) == 0);
  ck_assert(cr_cp_eq(cp, (uint32_t)nul, "a\xf0\x9f\x98\x80z"));

  cr_buf out;
  cr_buf_init(&out);
  ck_assert_int_eq(cr_cf_write(&out, f.c, &d), 0);
  cr_class *c2;
  ck_assert_msg(cr_cf_parse(&c2, f.a, out.data, out.len, &d) == 0, "%s",
                d.msg);
  cr_cpool *p2 = c2->cp;
  ck_assert_uint_eq(cr_cp_count(p2), cr_cp_count(cp));
  ck_assert_int_eq(cr_cp_tag(p2, (uint32_t)im), CR_CP_IMETHODREF);
  ck_assert_int_eq(cr_cp_get(p2, (uint32_t)mh)->kind, CR_REF_GETFIELD);
  ck_assert_int_eq(cr_cp_tag(p2, (uint32_t)mt), CR_CP_METHODTYPE);
  ck_assert_uint_eq(cr_cp_get(p2, (uint32_t)db)->v.u8,
                    0x400921FB54442D18ull);
  ck_assert_uint_eq(cr_cp_get(p2, (uint32_t)fl)->v.u4, 0x7FC00001u);
  ck_assert_uint_eq(cr_cp_get(p2, (uint32_t)lg)->v.u8, (uint64_t)-5);
  /* the reparsed pool finds the same indices */
  ck_assert_int_eq(cr_cp_add_methodref(p2, "cccp/rt/CC", "enter",
                                       "(Lcccp/rt/CC;I)Lcccp/rt/CC;", &d), m);
  ck_assert_int_eq(cr_cp_add_utf8(p2, "a\xf0\x9f\x98\x80z", &d), nul);
  ck_assert_int_eq(cr_cp_add_class(p2, "fx/Lambdas", &d), c2->this_class);
  /* the original bytes are a prefix-preserving copy up to the pool end */
  ck_assert(memcmp(out.data, f.bytes, 8) == 0);
  cr_buf_free(&out);
  unload(&f);
}
END_TEST

START_TEST(test_cf_cpool__hash_many) {
  fix f;
  cr_diag d;
  char s[32];
  load(&f, "fx/Color");
  cr_cpool *cp = f.c->cp;
  cr_diag_clear(&d);
  int idx[5000];
  for (int i = 0; i < 5000; i++) {
    snprintf(s, sizeof s, "name%d", i);
    idx[i] = cr_cp_add_utf8(cp, s, &d);
    ck_assert_int_gt(idx[i], 0);
  }
  for (int i = 0; i < 5000; i++) {
    snprintf(s, sizeof s, "name%d", i);
    ck_assert_int_eq(cr_cp_add_utf8(cp, s, &d), idx[i]);
    ck_assert(cr_cp_eq(cp, (uint32_t)idx[i], s));
  }
  for (int i = 0; i < 2000; i++) ck_assert_int_gt(cr_cp_add_int(cp, i, &d), 0);
  for (int i = 0; i < 2000; i++)
    ck_assert_int_eq(cr_cp_get(cp, (uint32_t)cr_cp_add_int(cp, i, &d))->v.u4,
                     (uint32_t)i);
  unload(&f);
}
END_TEST

START_TEST(test_cf_cpool__overflow) {
  fix f;
  cr_diag d;
  load(&f, "fx/Color");
  cr_cpool *cp = f.c->cp;
  cr_diag_clear(&d);
  int rc = 0, i = 0;
  while (rc >= 0) rc = cr_cp_add_int(cp, 1000000 + i++, &d);
  ck_assert_int_eq(rc, CR_ETOOLARGE);
  ck_assert_uint_eq(cr_cp_count(cp), 65535);
  ck_assert_msg(strstr(d.msg, "constant pool full"), "%s", d.msg);
  /* still finds what is there; a Long needs two slots */
  ck_assert_int_gt(cr_cp_add_int(cp, 1000000, NULL), 0);
  ck_assert_int_eq(cr_cp_add_long(cp, 1, NULL), CR_ETOOLARGE);
  cr_buf out;
  cr_buf_init(&out);
  ck_assert_int_eq(cr_cf_write(&out, f.c, &d), 0);
  cr_class *c2;
  ck_assert_int_eq(cr_cf_parse(&c2, f.a, out.data, out.len, &d), 0);
  ck_assert_uint_eq(cr_cp_count(c2->cp), 65535);
  cr_buf_free(&out);
  unload(&f);
}
END_TEST

START_TEST(test_cf_cpool__alloc_failure) {
  long k;
  for (k = 0;; k++) {
    size_t n;
    uint8_t *b = tu_fixture("fx/Color", &n);
    cr_diag d;
    cr_class *c;
    cr_diag_clear(&d);
    cr_alloc_fail_after(k);
    cr_arena *a = cr_arena_new();
    int rc = a ? cr_cf_parse(&c, a, b, n, &d) : CR_ENOMEM;
    for (int i = 0; rc == 0 && i < 300; i++) {
      char s[32];
      snprintf(s, sizeof s, "x%d", i);
      rc = cr_cp_add_nat(c->cp, s, "I", &d);
      if (rc > 0) rc = 0;
    }
    cr_alloc_fail_after(-1);
    cr_arena_free(a);
    free(b);
    if (rc == 0) break;
    ck_assert_int_eq(rc, CR_ENOMEM);
    ck_assert_int_lt(k, 100000);
  }
  printf("cpool alloc failure: %ld failing points\n", k);
}
END_TEST

static Suite *suite(void) {
  Suite *s = suite_create("classfile");
  TCase *tc = tcase_create("cpool");
  tcase_add_test(tc, test_cf_cpool__getters);
  tcase_add_test(tc, test_cf_cpool__find_existing);
  tcase_add_test(tc, test_cf_cpool__append_and_reparse);
  tcase_add_test(tc, test_cf_cpool__hash_many);
  tcase_add_test(tc, test_cf_cpool__overflow);
  tcase_add_test(tc, test_cf_cpool__alloc_failure);
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
