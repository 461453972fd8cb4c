/*
** test_cf_write.c -- class-file writer: byte-identical round trips of the
** fixtures and of the JDK's java.base, attributes built from scratch,
** limits.
*/
#include <check.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cccp/classfile.h"
#include "testutil.h"

/* Parse 'b', write it back, compare; returns 0 or the failing code. */
static int roundtrip(const uint8_t *b, size_t n, cr_buf *out, cr_diag *d) {
  cr_arena *a = cr_arena_new();
  cr_class *c;
  cr_diag_clear(d);
  out->len = 0;
  int rc = cr_cf_parse(&c, a, b, n, d);
  if (!rc) rc = cr_cf_write(out, c, d);
  if (!rc && (out->len != n || memcmp(out->data, b, n) != 0))
    rc = cr_diag_set(d, CR_EFORMAT, -1, "written bytes differ");
  cr_arena_free(a);
  return rc;
}

START_TEST(test_cf_write__fixtures_identical) {
  tu_files f;
  cr_buf out;
  ck_assert_ptr_nonnull(tu_fixtures());
  ck_assert_int_eq(tu_list_classes(&f, tu_fixtures()), 0);
  cr_buf_init(&out);
  for (size_t i = 0; i < f.n; i++) {
    size_t n;
    uint8_t *b = tu_slurp(f.path[i], &n);
    cr_diag d;
    ck_assert_msg(roundtrip(b, n, &out, &d) == 0, "%s: %s", f.path[i],
                  d.msg);
    free(b);
  }
  cr_buf_free(&out);
  tu_files_free(&f);
}
END_TEST

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* Round-trip every class of one jmod; prints count and throughput. */
static void jmod_roundtrip(const char *jmod) {
  const char *dir = tu_jmod_classes(jmod);
  if (!dir) return;
  tu_files f;
  ck_assert_int_eq(tu_list_classes(&f, dir), 0);
  uint8_t **b = calloc(f.n, sizeof *b);
  size_t *len = calloc(f.n, sizeof *len), total = 0;
  for (size_t i = 0; i < f.n; i++) {
    b[i] = tu_slurp(f.path[i], &len[i]);
    ck_assert_ptr_nonnull(b[i]);
    total += len[i];
  }
  cr_buf out;
  cr_buf_init(&out);
  double t0 = now();
  for (size_t i = 0; i < f.n; i++) {
    cr_diag d;
    ck_assert_msg(roundtrip(b[i], len[i], &out, &d) == 0, "%s: %s",
                  f.path[i], d.msg);
  }
  double t = now() - t0;
  printf("%s: %zu classes, %.1f MB identical; parse+write %.3f s, "
         "%.0f classes/s, %.0f MB/s\n", strrchr(jmod, '/') + 1, f.n,
         (double)total / 1e6, t, (double)f.n / t, (double)total / 1e6 / t);
  for (size_t i = 0; i < f.n; i++) free(b[i]);
  free(b);
  free(len);
  cr_buf_free(&out);
  tu_files_free(&f);
}

START_TEST(test_cf_write__jdk_java_base) {
  jmod_roundtrip(TU_JDK "/java.base.jmod");
}
END_TEST

/* Every other jmod of the JDK, when CCCP_JDK_ALL is set (slower). */
START_TEST(test_cf_write__jdk_all) {
  if (!getenv("CCCP_JDK_ALL")) {
    printf("skip: set CCCP_JDK_ALL=1 to round-trip every jmod\n");
    return;
  }
  DIR *dir = opendir(TU_JDK);
  struct dirent *e;
  if (!dir) {
    printf("skip: %s not found\n", TU_JDK);
    return;
  }
  while ((e = readdir(dir))) {
    char p[1024];
    size_t k = strlen(e->d_name);
    if (k < 5 || strcmp(e->d_name + k - 5, ".jmod") != 0 ||
        strcmp(e->d_name, "java.base.jmod") == 0)
      continue;
    snprintf(p, sizeof p, "%s/%s", TU_JDK, e->d_name);
    jmod_roundtrip(p);
  }
  closedir(dir);
}
END_TEST

/* Append 'at' to the list 'as' (new arena array). */
static cr_attr *push(cr_arena *a, cr_attrs *as, uint16_t name, int kind) {
  cr_attr *v = cr_arena_calloc(a, as->n + 1, sizeof *v);
  ck_assert_ptr_nonnull(v);
  if (as->n) memcpy(v, as->v, as->n * sizeof *v);
  as->v = v;
  cr_attr *at = &v[as->n++];
  at->name = name;
  at->kind = (uint8_t)kind;
  return at;
}

static int name_of(cr_class *c, int kind) {
  int i = cr_cp_add_utf8(c->cp, cr_attr_kind_name((cr_attr_kind)kind),
                         NULL);
  ck_assert_int_gt(i, 0);
  return i;
}

/* Write 'c', reparse into a new class, and check that rewriting that
** gives the same bytes. */
static cr_class *rewrite(cr_arena *a, const cr_class *c, cr_buf *out) {
  cr_diag d;
  cr_class *c2;
  cr_diag_clear(&d);
  out->len = 0;
  ck_assert_int_eq(cr_cf_write(out, c, &d), 0);
  ck_assert_msg(cr_cf_parse(&c2, a, out->data, out->len, &d) == 0, "%s",
                d.msg);
  cr_buf again;
  cr_buf_init(&again);
  ck_assert_int_eq(cr_cf_write(&again, c2, &d), 0);
  ck_assert_uint_eq(again.len, out->len);
  ck_assert(memcmp(again.data, out->data, out->len) == 0);
  cr_buf_free(&again);
  return c2;
}

/* Attributes javac 17 does not emit, plus CONSTANT_Dynamic, built into a
** fixture, written, reparsed. */
START_TEST(test_cf_write__built_attributes) {
  size_t n;
  uint8_t *b = tu_fixture("fx/Lambdas", &n);
  ck_assert_ptr_nonnull(b);
  cr_arena *a = cr_arena_new();
  cr_class *c;
  cr_diag d;
  cr_diag_clear(&d);
  ck_assert_int_eq(cr_cf_parse(&c, a, b, n, &d), 0);
  cr_cpool *cp = c->cp;
  /* CONSTANT_Dynamic using bootstrap method 0, loaded by a new ldc. */
  cr_cpentry e;
  memset(&e, 0, sizeof e);
  e.tag = CR_CP_DYNAMIC;
  e.a = 0;
  e.b = (uint16_t)cr_cp_add_nat(cp, "answer", "I", &d);
  int dyn = cr_cp_add(cp, &e, &d);
  ck_assert_int_gt(dyn, 0);
  /* LocalVariableTable and LocalVariableTypeTable on run() */
  cr_code *code = NULL;
  for (uint32_t i = 0; i < c->nmethods; i++)
    if (strcmp(cr_member_name(c, &c->methods[i]), "run") == 0)
      code = cr_member_code(&c->methods[i]);
  ck_assert_ptr_nonnull(code);
  cr_attr *lvt = push(a, &code->attrs,
                      (uint16_t)name_of(c, CR_ATTR_LOCALVARIABLETABLE),
                      CR_ATTR_LOCALVARIABLETABLE);
  lvt->u.vars = cr_arena_calloc(a, 1, sizeof *lvt->u.vars);
  lvt->u.vars->n = 1;
  lvt->u.vars->v = cr_arena_calloc(a, 1, sizeof(cr_localvar));
  lvt->u.vars->v[0] = (cr_localvar){
      0, (uint16_t)code->code_len, (uint16_t)cr_cp_add_utf8(cp, "this", &d),
      (uint16_t)cr_cp_add_utf8(cp, "Lfx/Lambdas;", &d), 0};
  cr_attr *lvtt = push(a, &code->attrs,
                       (uint16_t)name_of(c, CR_ATTR_LOCALVARIABLETYPETABLE),
                       CR_ATTR_LOCALVARIABLETYPETABLE);
  lvtt->u.vars = lvt->u.vars;
  /* Synthetic, a verbatim SourceDebugExtension */
  push(a, &c->attrs, (uint16_t)name_of(c, CR_ATTR_SYNTHETIC),
       CR_ATTR_SYNTHETIC);
  cr_attr *sde = push(a, &c->attrs,
                      (uint16_t)cr_cp_add_utf8(cp, "SourceDebugExtension",
                                               &d), CR_ATTR_OTHER);
  sde->raw = (const uint8_t *)"SMAP\n";
  sde->len = 5;

  cr_buf out;
  cr_buf_init(&out);
  cr_class *c2 = rewrite(a, c, &out);
  ck_assert_int_eq(cr_cp_tag(c2->cp, (uint32_t)dyn), CR_CP_DYNAMIC);
  ck_assert_ptr_nonnull(cr_attrs_find(&c2->attrs, CR_ATTR_SYNTHETIC));
  cr_attr *s2 = &c2->attrs.v[c2->attrs.n - 1];
  ck_assert_int_eq(s2->kind, CR_ATTR_OTHER);
  ck_assert_uint_eq(s2->len, 5);
  ck_assert(memcmp(s2->raw, "SMAP\n", 5) == 0);
  cr_code *code2 = NULL;
  for (uint32_t i = 0; i < c2->nmethods; i++)
    if (cr_cp_eq(c2->cp, c2->methods[i].name, "run"))
      code2 = cr_member_code(&c2->methods[i]);
  ck_assert_ptr_nonnull(code2);
  cr_attr *l2 = cr_attrs_find(&code2->attrs, CR_ATTR_LOCALVARIABLETYPETABLE);
  ck_assert_ptr_nonnull(l2);
  ck_assert(cr_cp_eq(c2->cp, l2->u.vars->v[0].name, "this"));

  /* A Dynamic pointing past the bootstrap methods is rejected. */
  e.a = 1000;
  e.b = (uint16_t)cr_cp_add_nat(cp, "bad", "I", &d);
  ck_assert_int_gt(cr_cp_add(cp, &e, &d), 0);
  out.len = 0;
  ck_assert_int_eq(cr_cf_write(&out, c, &d), 0);
  cr_diag_clear(&d);
  ck_assert_int_eq(cr_cf_parse(&c2, a, out.data, out.len, &d), CR_EFORMAT);
  ck_assert_msg(strstr(d.msg, "bootstrap method 1000 out of range"), "%s",
                d.msg);
  cr_buf_free(&out);
  cr_arena_free(a);
  free(b);
}
END_TEST

START_TEST(test_cf_write__module_attributes) {
  size_t n;
  uint8_t *b = tu_fixture("module-info", &n);
  ck_assert_ptr_nonnull(b);
  cr_arena *a = cr_arena_new();
  cr_class *c;
  cr_diag d;
  cr_diag_clear(&d);
  ck_assert_int_eq(cr_cf_parse(&c, a, b, n, &d), 0);
  cr_attr *m = cr_attrs_find(&c->attrs, CR_ATTR_MODULE);
  ck_assert_ptr_nonnull(m);
  ck_assert_uint_eq(m->u.module->nexports, 1);
  ck_assert_uint_eq(m->u.module->nopens, 1);
  ck_assert_uint_eq(m->u.module->uses.n, 1);
  ck_assert_uint_eq(m->u.module->nprovides, 1);
  ck_assert_uint_ge(m->u.module->nrequires, 3);   /* + java.base */
  cr_attr *pk = push(a, &c->attrs,
                     (uint16_t)name_of(c, CR_ATTR_MODULEPACKAGES),
                     CR_ATTR_MODULEPACKAGES);
  pk->u.list.n = 1;
  pk->u.list.v = cr_arena_alloc(a, sizeof(uint16_t));
  pk->u.list.v[0] = m->u.module->exports[0].package;
  cr_attr *mc = push(a, &c->attrs,
                     (uint16_t)name_of(c, CR_ATTR_MODULEMAINCLASS),
                     CR_ATTR_MODULEMAINCLASS);
  mc->u.index = (uint16_t)cr_cp_add_class(c->cp, "fx/Lambdas", &d);
  cr_buf out;
  cr_buf_init(&out);
  cr_class *c2 = rewrite(a, c, &out);
  cr_attr *mc2 = cr_attrs_find(&c2->attrs, CR_ATTR_MODULEMAINCLASS);
  ck_assert_ptr_nonnull(mc2);
  ck_assert_str_eq(cr_cp_class_name(c2->cp, mc2->u.index), "fx/Lambdas");
  ck_assert_ptr_nonnull(cr_attrs_find(&c2->attrs, CR_ATTR_MODULEPACKAGES));
  cr_buf_free(&out);
  cr_arena_free(a);
  free(b);
}
END_TEST

START_TEST(test_cf_write__limits) {
  size_t n;
  uint8_t *b = tu_fixture("fx/Consts", &n);
  ck_assert_ptr_nonnull(b);
  cr_arena *a = cr_arena_new();
  cr_class *c;
  cr_diag d;
  cr_diag_clear(&d);
  ck_assert_int_eq(cr_cf_parse(&c, a, b, n, &d), 0);
  cr_buf out;
  cr_buf_init(&out);
  /* 70000 methods: the count does not fit a u2 */
  cr_member *ms = cr_arena_calloc(a, 70000, sizeof *ms);
  for (uint32_t i = 0; i < 70000; i++) ms[i] = c->methods[0];
  c->methods = ms;
  c->nmethods = 70000;
  ck_assert_int_eq(cr_cf_write(&out, c, &d), CR_ETOOLARGE);
  ck_assert_msg(strstr(d.msg, "method count"), "%s", d.msg);
  ck_assert_uint_eq(out.len, 0);
  cr_buf_free(&out);
  cr_arena_free(a);
  free(b);
}
END_TEST

static Suite *suite(void) {
  Suite *s = suite_create("classfile");
  TCase *tc = tcase_create("write");
  tcase_set_timeout(tc, 600);
  tcase_add_test(tc, test_cf_write__fixtures_identical);
  tcase_add_test(tc, test_cf_write__built_attributes);
  tcase_add_test(tc, test_cf_write__module_attributes);
  tcase_add_test(tc, test_cf_write__limits);
  tcase_add_test(tc, test_cf_write__jdk_java_base);
  tcase_add_test(tc, test_cf_write__jdk_all);
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
