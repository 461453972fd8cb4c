/*
** test_profile_xml.c -- profiles: builder -> writer -> reader round trip,
** escaping, malformed files (one defect each, clean errors), DOCTYPE
** refusal across read chunks, expectation files, the overlap on small
** hand-made trees (collapsing, app visibility, by-name library frames),
** allocation failure sweep.
*/
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cccp/profile.h"

static cr_diag d;

/* Write 'p' to memory. */
static char *to_xml(const cr_profile *p, size_t *len) {
  char *buf = NULL;
  FILE *f = open_memstream(&buf, len);
  ck_assert_ptr_nonnull(f);
  ck_assert_int_eq(cr_profile_write(p, f, &d), 0);
  fclose(f);
  return buf;
}

static int load(cr_profile **out, const char *xml) {
  cr_diag_clear(&d);
  return cr_profile_load_memory(out, xml, strlen(xml), "t.xml", &d);
}

/* A profile of one method list and paths given as "m1 m2 ... :calls". */
typedef struct mdef { const char *cls, *name, *desc; } mdef;

static cr_profile *build(const mdef *m, size_t nm, const char *const *paths,
                         const char *thread) {
  cr_profile *p = cr_profile_new("test");
  ck_assert_ptr_nonnull(p);
  for (size_t i = 0; i < nm; i++)
    ck_assert_uint_eq(cr_profile_add_method(p, m[i].cls, m[i].name,
                                            m[i].desc, 0, 0, 0), i + 1);
  ck_assert_int_eq(cr_profile_add_tree(p, thread), 0);
  for (size_t k = 0; paths[k]; k++) {
    char *s = strdup(paths[k]), *save = NULL;
    uint32_t node = 0;
    unsigned long long calls = strtoull(strchr(s, ':') + 1, NULL, 10);
    *strchr(s, ':') = 0;
    for (char *t = strtok_r(s, " ", &save); t; t = strtok_r(NULL, " ", &save)) {
      uint32_t mid = (uint32_t)atoi(t);
      uint32_t c = node ? p->nodes[node].child : p->trees[0].child;
      while (c && p->nodes[c].method != mid) c = p->nodes[c].next;
      if (!c) c = cr_profile_add_node(p, 0, node, mid, 0);
      ck_assert_uint_ne(c, 0);
      node = c;
    }
    p->nodes[node].calls = calls;
    free(s);
  }
  return p;
}

static double overlap(const cr_profile *a, const cr_profile *b,
                      const cr_cmp_opts *o) {
  cr_cmp_result r;
  ck_assert_int_eq(cr_profile_compare(&r, a, b, o, 0, &d), 0);
  double v = r.overlap;
  cr_cmp_result_free(&r);
  return v;
}

START_TEST(test_profile_xml__roundtrip) {
  cr_profile *p = cr_profile_new("cccp");
  ck_assert_uint_eq(cr_profile_add_method(p, "a/B", "<init>", "()V", 5, 0, 0), 1);
  ck_assert_uint_eq(cr_profile_add_method(p, "a/B$C&\"q\"", "m\xc3\xa9",
                                          "(I)V", 0, 1, 1), 2);
  ck_assert_int_eq(cr_profile_add_tree(p, "main"), 0);
  ck_assert_int_eq(cr_profile_add_tree(p, "main"), 1);
  uint32_t n1 = cr_profile_add_node(p, 0, 0, 1, 1);
  uint32_t n2 = cr_profile_add_node(p, 0, n1, 2, 40);
  cr_profile_add_node(p, 0, n2, 1, 18446744073709551615ull);
  cr_profile_add_node(p, 0, n1, 1, 2);
  cr_profile_add_node(p, 1, 0, 2, 7);
  ck_assert_uint_eq(cr_profile_add_node(p, 0, 0, 3, 1), 0); /* no method 3 */
  size_t len;
  char *xml = to_xml(p, &len);
  ck_assert_ptr_nonnull(strstr(xml, "class=\"a/B$C&amp;&quot;q&quot;\""));
  ck_assert_ptr_nonnull(strstr(xml, "name=\"&lt;init&gt;\""));
  cr_profile *q;
  ck_assert_int_eq(load(&q, xml), 0);
  ck_assert_str_eq(q->mode, "cccp");
  ck_assert_uint_eq(q->nmethods, 2);
  ck_assert_str_eq(q->methods[1].name, "<init>");
  ck_assert_uint_eq(q->methods[1].size, 5);
  ck_assert_str_eq(q->methods[2].cls, "a/B$C&\"q\"");
  ck_assert_str_eq(q->methods[2].name, "m\xc3\xa9");
  ck_assert_int_eq(q->methods[2].native, 1);
  ck_assert_int_eq(q->methods[2].library, 1);
  ck_assert_uint_eq(q->ntrees, 2);
  ck_assert_uint_eq(q->nnodes, 5);
  ck_assert_uint_eq(q->nodes[3].calls, 18446744073709551615ull);
  ck_assert_uint_eq(q->nodes[3].parent, 2);
  ck_assert_uint_eq(q->nodes[4].parent, 1);
  ck_assert_uint_eq(q->nodes[5].tree, 1);
  size_t len2;
  char *xml2 = to_xml(q, &len2);
  ck_assert_str_eq(xml, xml2);   /* write -> read -> write is stable */
  free(xml);
  free(xml2);
  cr_profile_free(p);
  cr_profile_free(q);
}
END_TEST

static const struct { const char *xml, *msg; int code; } bad[] = {
  {"", "Document is empty", CR_EFORMAT},
  {"<cct version=\"1\">", "malformed XML", CR_EFORMAT},
  {"<x/>", "root element must be <cct>", CR_EFORMAT},
  {"<cct/>", "needs the attribute 'version'", CR_EFORMAT},
  {"<cct version=\"2\"/>", "version \"2\" is not supported", CR_EUNSUPPORTED},
  {"<cct version=\"1\">text</cct>", "unexpected text", CR_EFORMAT},
  {"<cct version=\"1\"><foo/></cct>", "unexpected element <foo>", CR_EFORMAT},
  {"<cct version=\"1\"><method id=\"2\" class=\"a\" name=\"b\" desc=\"()V\"/>"
   "</cct>", "dense and in order: expected 1, got 2", CR_EFORMAT},
  {"<cct version=\"1\"><method id=\"1\" name=\"b\" desc=\"()V\"/></cct>",
   "needs 'class', 'name' and 'desc'", CR_EFORMAT},
  {"<cct version=\"1\"><method id=\"1\" class=\"a\" name=\"b\" desc=\"()V\" "
   "native=\"2\"/></cct>", "'native' must be 0 or 1", CR_EFORMAT},
  {"<cct version=\"1\"><tree><node method=\"1\" calls=\"1\"/></tree></cct>",
   "method 1, which is not defined", CR_EFORMAT},
  {"<cct version=\"1\"><method id=\"1\" class=\"a\" name=\"b\" desc=\"()V\"/>"
   "<tree><node method=\"1\" calls=\"-1\"/></tree></cct>",
   "'calls' must be a decimal number", CR_EFORMAT},
  {"<cct version=\"1\"><method id=\"1\" class=\"a\" name=\"b\" desc=\"()V\"/>"
   "<tree><node method=\"1\" calls=\"18446744073709551616\"/></tree></cct>",
   "'calls' must be a decimal number", CR_EFORMAT},
  {"<cct version=\"1\"><method id=\"1\" class=\"a\" name=\"b\" desc=\"()V\"/>"
   "<tree><node method=\"1\"/></tree></cct>", "needs the attribute 'calls'",
   CR_EFORMAT},
  {"<cct version=\"1\"><method id=\"1\" class=\"a\" name=\"b\" desc=\"()V\"/>"
   "<node method=\"1\" calls=\"1\"/></cct>", "<node> outside a <tree>",
   CR_EFORMAT},
  {"<cct version=\"1\"><tree/><method id=\"1\" class=\"a\" name=\"b\" "
   "desc=\"()V\"/></cct>", "must come before the trees", CR_EFORMAT},
  {"<cct version=\"1\"><tree><tree/></tree></cct>", "unexpected element",
   CR_EFORMAT},
  {"<cct version=\"1\">&foo;</cct>", "", CR_EFORMAT},
  {"<?xml version=\"1.0\"?><!DOCTYPE cct [<!ENTITY a \"b\">]>"
   "<cct version=\"1\"/>", "DOCTYPE is not allowed", CR_EFORMAT},
  {"<cct version=\"1\"/><cct version=\"1\"/>", "malformed XML", CR_EFORMAT},
};

START_TEST(test_profile_xml__malformed) {
  cr_profile *p = (cr_profile *)1;
  int rc = load(&p, bad[_i].xml);
  ck_assert_msg(rc == bad[_i].code, "case %d: rc %d (%s)", _i, rc, d.msg);
  ck_assert_ptr_null(p);
  ck_assert_msg(strstr(d.msg, bad[_i].msg) != NULL, "case %d: '%s'", _i,
                d.msg);
  ck_assert_msg(strncmp(d.msg, "t.xml", 5) == 0, "names the file: %s",
                d.msg);
}
END_TEST

/* A DOCTYPE after a long comment, so it straddles libxml2's read chunks. */
START_TEST(test_profile_xml__doctype_chunks) {
  for (size_t pad = 4080; pad < 4110; pad += 3) {
    char *x = malloc(pad + 200);
    strcpy(x, "<?xml version=\"1.0\"?><!--");
    size_t n = strlen(x);
    memset(x + n, 'x', pad);
    strcpy(x + n + pad, "--><!DOCTYPE cct><cct version=\"1\"/>");
    cr_profile *p;
    ck_assert_int_eq(load(&p, x), CR_EFORMAT);
    ck_assert_ptr_nonnull(strstr(d.msg, "DOCTYPE"));
    free(x);
  }
}
END_TEST

START_TEST(test_profile_xml__file_errors) {
  cr_profile *p;
  cr_diag_clear(&d);
  ck_assert_int_eq(cr_profile_load(&p, "/nonexistent/x.xml", &d),
                   CR_ENOTFOUND);
  ck_assert_ptr_nonnull(strstr(d.msg, "/nonexistent/x.xml"));
  /* Unknown attributes are ignored (later metrics). */
  ck_assert_int_eq(load(&p, "<cct version=\"1\" mode=\"m\"><method id=\"1\" "
                            "class=\"a\" name=\"b\" desc=\"()V\" cycles=\"3\"/>"
                            "<tree thread=\"t\"><node method=\"1\" calls=\"2\" "
                            "cycles=\"9\"/></tree></cct>"), 0);
  ck_assert_uint_eq(p->nodes[1].calls, 2);
  ck_assert_str_eq(p->trees[0].thread, "t");
  cr_profile_free(p);
}
END_TEST

static const mdef M[] = {
  {"app/Main", "main", "([Ljava/lang/String;)V"},   /* 1 */
  {"app/Main", "f", "()V"},                          /* 2 */
  {"app/Main", "g", "()V"},                          /* 3 */
  {"app/Main", "h", "()V"},                          /* 4 */
  {"java/util/List", "sort", "(Ljava/util/Comparator;)V"},      /* 5 */
  {"java/util/ArrayList", "sort", "(Ljava/util/Comparator;)V"}, /* 6 */
  {"java/util/TimSort", "sort", "()V"},              /* 7 */
  {"app/Main$$Lambda$14.0x0000000800c0b000", "run", "()V"}, /* 8 */
  {"java/lang/Thread", "run", "()V"},                /* 9 */
  {"java/lang/invoke/LambdaForm$MH.0x01", "invoke", "()V"}, /* 10 */
};
#define NM (sizeof M / sizeof M[0])

START_TEST(test_profile_xml__overlap) {
  /* A: main 1, f 2, g 1 (total 4); B: main 1, f 1, h 2 (total 4):
     common main (1/4, 1/4) and f (2/4, 1/4): 25% + 25%. */
  const char *pa[] = {"1:1", "1 2:2", "1 3:1", NULL};
  const char *pb[] = {"1:1", "1 2:1", "1 4:2", NULL};
  cr_profile *a = build(M, NM, pa, "main"), *b = build(M, NM, pb, "main");
  ck_assert_double_eq_tol(overlap(a, b, NULL), 50.0, 1e-9);
  ck_assert_double_eq_tol(overlap(b, a, NULL), 50.0, 1e-9);
  ck_assert_double_eq(overlap(a, a, NULL), 100.0);
  cr_cmp_result r;
  ck_assert_int_eq(cr_profile_compare(&r, a, b, NULL, 2, &d), 0);
  ck_assert_uint_eq(r.total_a, 4);
  ck_assert_uint_eq(r.contexts_a, 3);
  ck_assert_uint_eq(r.common, 2);
  ck_assert_uint_eq(r.differing, 3);
  ck_assert_uint_eq(r.ndiff, 2);
  /* Largest |a-b| first: h (0 vs 2), then ties in context order. */
  ck_assert_str_eq(r.diff[0].path,
                   "app/Main.main([Ljava/lang/String;)V > app/Main.h()V");
  ck_assert_int_eq(r.diff[0].in_a, 0);
  ck_assert_int_eq(r.diff[0].in_b, 1);
  ck_assert_uint_eq(r.diff[0].b, 2);
  cr_cmp_result_free(&r);
  /* Scaling every count keeps 100%: the overlap is of relative calls. */
  const char *pc[] = {"1:3", "1 2:6", "1 3:3", NULL};
  cr_profile *c = build(M, NM, pc, "other");
  ck_assert_double_eq(overlap(a, c, NULL), 100.0);
  /* Empty profiles. */
  cr_profile *e = cr_profile_new("x");
  ck_assert_double_eq(overlap(e, e, NULL), 100.0);
  ck_assert_double_eq(overlap(a, e, NULL), 0.0);
  cr_profile_free(a);
  cr_profile_free(b);
  cr_profile_free(c);
  cr_profile_free(e);
}
END_TEST

START_TEST(test_profile_xml__threads_merge) {
  /* Two threads of the same shape equal one thread with the sums. */
  const char *pa[] = {"1:1", "1 2:3", NULL};
  cr_profile *a = build(M, NM, pa, "t");
  ck_assert_int_eq(cr_profile_add_tree(a, "t"), 1);
  uint32_t n = cr_profile_add_node(a, 1, 0, 1, 1);
  cr_profile_add_node(a, 1, n, 2, 3);
  const char *pb[] = {"1:2", "1 2:6", NULL};
  cr_profile *b = build(M, NM, pb, "main");
  cr_cmp_result r;
  ck_assert_int_eq(cr_profile_compare(&r, a, b, NULL, 10, &d), 0);
  ck_assert_double_eq(r.overlap, 100.0);
  ck_assert_uint_eq(r.differing, 0);
  cr_cmp_result_free(&r);
  cr_profile_free(a);
  cr_profile_free(b);
}
END_TEST

START_TEST(test_profile_xml__visibility) {
  const char *const app[] = {"app/"};
  cr_cmp_opts o = {.app_prefix = app, .napp = 1};
  /* Oracle: Thread.run > main > ArrayList.sort > TimSort.sort > f
     Instrumented (app mode): main > ArrayList.sort > f */
  const char *pa[] = {"9:1", "9 1:1", "9 1 6:2", "9 1 6 7:2", "9 1 6 7 2:5",
                      NULL};
  const char *pb[] = {"1:1", "1 6:2", "1 6 2:5", NULL};
  cr_profile *a = build(M, NM, pa, "main"), *b = build(M, NM, pb, "main");
  ck_assert_double_lt(overlap(a, b, NULL), 100.0);
  ck_assert_double_eq(overlap(a, b, &o), 100.0);
  /* A call-site node named by the symbolic reference (List.sort). */
  const char *pc[] = {"1:1", "1 5:2", "1 5 2:5", NULL};
  cr_profile *c = build(M, NM, pc, "main");
  ck_assert_double_lt(overlap(a, c, &o), 100.0);
  o.library_by_name = 1;
  ck_assert_double_eq(overlap(a, c, &o), 100.0);
  cr_profile_free(a);
  cr_profile_free(b);
  cr_profile_free(c);
}
END_TEST

START_TEST(test_profile_xml__generated) {
  /* main > Main$$Lambda.run > LambdaForm > f  vs  main > f */
  const char *pa[] = {"1:1", "1 8:2", "1 8 10:2", "1 8 10 2:2", NULL};
  const char *pb[] = {"1:1", "1 2:2", NULL};
  cr_profile *a = build(M, NM, pa, "main"), *b = build(M, NM, pb, "main");
  cr_cmp_opts o = {.collapse_generated = 1};
  ck_assert_double_lt(overlap(a, b, NULL), 100.0);
  ck_assert_double_eq(overlap(a, b, &o), 100.0);
  /* A hidden class with the app prefix is still not an app class. */
  const char *const app[] = {"app/"};
  cr_cmp_opts v = {.app_prefix = app, .napp = 1};
  cr_cmp_result r;
  ck_assert_int_eq(cr_profile_compare(&r, a, a, &v, 0, &d), 0);
  ck_assert_uint_eq(r.contexts_a, 3); /* main, lambda run, f */
  cr_cmp_result_free(&r);
  ck_assert(cr_profile_generated("p/A$$Lambda$3/0x0000000800c01000"));
  ck_assert(cr_profile_generated("p/A$$Lambda/0x0000000800c01000"));
  ck_assert(cr_profile_generated("java/lang/invoke/LambdaForm$DMH"));
  ck_assert(cr_profile_generated("java/lang/invoke/Invokers$Holder"));
  ck_assert(!cr_profile_generated("java/lang/invoke/MethodHandleNatives"));
  ck_assert(cr_profile_generated("jdk/internal/reflect/GeneratedMethodAccessor1"));
  ck_assert(cr_profile_generated("jdk/internal/reflect/DirectMethodHandleAccessor"));
  ck_assert(cr_profile_generated("jdk/proxy1/$Proxy0"));
  ck_assert(!cr_profile_generated("java/lang/reflect/Method"));
  ck_assert(!cr_profile_generated("app/Main"));
  cr_profile_free(a);
  cr_profile_free(b);
}
END_TEST

static const mdef U[] = {
  {"app/Main", "main", "([Ljava/lang/String;)V"},       /* 1 */
  {"app/Main", "f", "()V"},                              /* 2 */
  {"java/lang/ClassLoader", "loadClass",
   "(Ljava/lang/String;)Ljava/lang/Class;"},             /* 3 */
  {"java/lang/invoke/MethodHandleNatives", "linkCallSite", "()V"}, /* 4 */
  {"java/util/ResourceBundle", "<clinit>", "()V"},      /* 5 */
  {"app/Holder", "<clinit>", "()V"},                     /* 6 */
  {"java/lang/NullPointerException", "<init>", "()V"}, /* 7 */
  {"java/lang/Thread", "currentThread", "()Ljava/lang/Thread;"}, /* 8 */
  {"java/lang/String", "length", "()I"},                 /* 9 */
  {"app/Main$$Lambda.0x01", "apply", "()V"},             /* 10 */
};
#define NU (sizeof U / sizeof U[0])

START_TEST(test_profile_xml__upcalls) {
  /* An agent's view: the JVM's own calls under main (class loading,
     linkage, a library <clinit>, an implicit exception), an app <clinit>,
     an intrinsic, a library call made by a lambda class. The rewriter's:
     main > f, main > Holder.<clinit>, main > String.length. */
  const char *pa[] = {"1:1", "1 3:4", "1 3 2:1", "1 4:2", "1 5:1", "1 6:1",
                      "1 7:1", "1 8:3", "1 9:2", "1 10:1", "1 10 9:1", NULL};
  const char *pb[] = {"1:1", "1 2:1", "1 6:1", "1 9:2", NULL};
  cr_profile *a = build(U, NU, pa, "main"), *b = build(U, NU, pb, "main");
  const char *const app[] = {"app/"};
  const char *const blind[] = {"java/lang/Thread.currentThread"};
  cr_cmp_opts o = {.app_prefix = app, .napp = 1, .collapse_generated = 1};
  ck_assert_double_lt(overlap(a, b, &o), 100.0);
  o.hide_vm_upcalls = 1;
  ck_assert_double_lt(overlap(a, b, &o), 100.0);  /* the intrinsic */
  o.hide = blind;
  o.nhide = 1;
  ck_assert_double_eq(overlap(a, b, &o), 100.0);
  ck_assert(cr_profile_vm_upcall("java/lang/ClassLoader", "loadClass"));
  ck_assert(!cr_profile_vm_upcall("java/lang/ClassLoader", "getParent"));
  ck_assert(cr_profile_vm_upcall("java/lang/invoke/MethodHandleNatives",
                                 "linkMethod"));
  ck_assert(cr_profile_vm_upcall("java/util/ResourceBundle", "<clinit>"));
  ck_assert(cr_profile_vm_upcall("java/lang/ArithmeticException", "<init>"));
  ck_assert(!cr_profile_vm_upcall("java/lang/IllegalStateException",
                                  "<init>"));
  cr_profile_free(a);
  cr_profile_free(b);
}
END_TEST

static char *tmpfile_with(const char *text) {
  static char path[64];
  strcpy(path, "/tmp/cccp-expect-XXXXXX");
  int fd = mkstemp(path);
  ck_assert_int_ge(fd, 0);
  ck_assert_int_eq(write(fd, text, strlen(text)), (long)strlen(text));
  close(fd);
  return path;
}

START_TEST(test_profile_xml__expect) {
  cr_profile *p;
  char *f = tmpfile_with("# comment\n\n1 a/M.main()V\n"
                         "3 a/M.main()V > a/M.<init>(I)V\n"
                         "0 a/M.main()V > java/lang/Object.hashCode()I\r\n");
  cr_diag_clear(&d);
  ck_assert_int_eq(cr_profile_load_expect(&p, f, &d), 0);
  ck_assert_uint_eq(p->nnodes, 3);
  ck_assert_str_eq(p->methods[2].name, "<init>");
  ck_assert_str_eq(p->methods[2].desc, "(I)V");
  ck_assert_str_eq(p->methods[3].cls, "java/lang/Object");
  ck_assert_uint_eq(p->nodes[2].calls, 3);
  cr_profile_free(p);
  unlink(f);
  static const char *const badx[] = {
    "x a/M.main()V\n", "1 a/M.main\n", "1 .main()V\n",
    "1 a/M.main()V > a/M.f()V\n", "1 a/M.main()V\n1 a/M.main()V\n", NULL};
  for (int i = 0; badx[i]; i++) {
    f = tmpfile_with(badx[i]);
    cr_diag_clear(&d);
    ck_assert_int_eq(cr_profile_load_expect(&p, f, &d), CR_EFORMAT);
    ck_assert_msg(strstr(d.msg, ":1:") || strstr(d.msg, ":2:"),
                  "line in '%s'", d.msg);
    unlink(f);
  }
}
END_TEST

/* Every allocation failure gives CR_ENOMEM (or success), never a crash. */
START_TEST(test_profile_xml__oom) {
  const char *pa[] = {"1:1", "1 2:2", "1 3:1", "1 3 8:4", NULL};
  cr_profile *a = build(M, NM, pa, "main");
  size_t len;
  char *xml = to_xml(a, &len);
  int done = 0;
  for (long n = 0; !done && n < 10000; n++) {
    cr_alloc_fail_after(n);
    cr_profile *p = NULL;
    cr_diag_clear(&d);
    int rc = cr_profile_load_memory(&p, xml, len, "t.xml", &d);
    cr_cmp_result r;
    int rc2 = rc ? rc : cr_profile_compare(&r, p, a, NULL, 5, &d);
    cr_alloc_fail_after(-1);
    ck_assert(rc == 0 || rc == CR_ENOMEM);
    ck_assert(rc2 == 0 || rc2 == CR_ENOMEM);
    if (!rc2) {
      ck_assert_double_eq(r.overlap, 100.0);
      cr_cmp_result_free(&r);
      done = 1;
    }
    cr_profile_free(p);
  }
  ck_assert(done);
  free(xml);
  cr_profile_free(a);
}
END_TEST

static Suite *suite(void) {
  Suite *s = suite_create("profile");
  TCase *t = tcase_create("xml");
  tcase_add_test(t, test_profile_xml__roundtrip);
  tcase_add_loop_test(t, test_profile_xml__malformed, 0,
                      (int)(sizeof bad / sizeof bad[0]));
  tcase_add_test(t, test_profile_xml__doctype_chunks);
  tcase_add_test(t, test_profile_xml__file_errors);
  tcase_add_test(t, test_profile_xml__overlap);
  tcase_add_test(t, test_profile_xml__threads_merge);
  tcase_add_test(t, test_profile_xml__visibility);
  tcase_add_test(t, test_profile_xml__generated);
  tcase_add_test(t, test_profile_xml__upcalls);
  tcase_add_test(t, test_profile_xml__expect);
  tcase_add_test(t, test_profile_xml__oom);
  suite_add_tcase(s, t);
  return s;
}

int main(void) {
  SRunner *sr = srunner_create(suite());
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? 1 : 0;
}
