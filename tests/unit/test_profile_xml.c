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

/* A run's facts about its trees, and the fold nodes' method: read, kept
** by a one-profile merge, written back; a value that is not a number is
** information lost, not an error. */
START_TEST(test_profile_xml__run) {
  static const char xml[] =
      "<cct version=\"1\" mode=\"cccp\" tree-nodes=\"12\" "
      "tree-bytes=\"1056\" budget=\"2048\" folded-calls=\"30\" "
      "folded-methods=\"2\" folding-since=\"1000\" time=\"5000\" "
      "interval-start=\"900\" resets=\"x\" huge-interpreted=\"4\">"
      "<method id=\"1\" class=\"a/B\" name=\"m\" desc=\"()V\"/>"
      "<method id=\"2\" class=\"cccp\" name=\"(folded)\" desc=\"\" "
      "folded=\"1\"/>"
      "<tree thread=\"main\"><node method=\"1\" calls=\"3\">"
      "<node method=\"2\" calls=\"0\" folded=\"30\"/></node>"
      "<node method=\"2\" calls=\"0\"><node method=\"1\" calls=\"30\"/>"
      "</node></tree></cct>";
  cr_profile *p, *m;
  ck_assert_int_eq(load(&p, xml), 0);
  ck_assert_uint_eq(p->run.nodes, 12);
  ck_assert_uint_eq(p->run.bytes, 1056);
  ck_assert_uint_eq(p->run.budget, 2048);
  ck_assert_uint_eq(p->run.folded_calls, 30);
  ck_assert_uint_eq(p->run.folded_methods, 2);
  ck_assert_uint_eq(p->run.folding_since, 1000);
  ck_assert_uint_eq(p->run.time, 5000);
  ck_assert_uint_eq(p->run.interval_start, 900);
  ck_assert_uint_eq(p->run.resets, 0);
  ck_assert_uint_eq(p->run.huge_interpreted, 4);
  ck_assert_int_eq(p->methods[1].folded, 0);
  ck_assert_int_eq(p->methods[2].folded, 1);
  const cr_profile *in[] = {p};
  ck_assert_int_eq(cr_profile_merge(&m, in, 1, CR_MERGE_KEEP, &d), 0);
  ck_assert_uint_eq(m->run.budget, 2048);
  size_t len;
  char *out = to_xml(m, &len);
  ck_assert_ptr_nonnull(strstr(out, " tree-nodes=\"12\" "));
  ck_assert_ptr_nonnull(strstr(out, " folded-calls=\"30\" "));
  ck_assert_ptr_nonnull(strstr(out, " huge-interpreted=\"4\""));
  ck_assert_ptr_null(strstr(out, "resets"));
  ck_assert_ptr_nonnull(strstr(out, "name=\"(folded)\" desc=\"\" size=\"0\" "
                                   "folded=\"1\""));
  cr_profile *q;
  ck_assert_int_eq(load(&q, out), 0);
  ck_assert_int_eq(q->methods[2].folded, 1);
  ck_assert_uint_eq(q->run.interval_start, 900);
  const char *badbit = "<cct version=\"1\"><method id=\"1\" class=\"a\" "
                       "name=\"b\" desc=\"()V\" folded=\"2\"/></cct>";
  cr_profile *r = NULL;
  ck_assert_int_eq(load(&r, badbit), CR_EFORMAT);
  ck_assert_ptr_nonnull(strstr(d.msg, "'folded' must be 0 or 1"));
  free(out);
  cr_profile_free(q);
  cr_profile_free(m);
  cr_profile_free(p);
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

/* The scan for "<!DOCTYPE" stops at the root element; one after it, far
** past the first read chunk, is still refused (by the XML parser), and
** text hidden among long runs of spaces is still found. */
START_TEST(test_profile_xml__after_root) {
  static const char *const tails[] = {
    "<!DOCTYPE cct [<!ENTITY a \"b\">]></cct>",
    "x</cct>",
    "        x       </cct>",
  };
  /* the first: malformed XML or, as libxml2 2.9 reports it, text */
  static const char *const msgs[] = {"t.xml:2: ", "unexpected text",
                                     "unexpected text"};
  for (size_t k = 0; k < sizeof tails / sizeof *tails; k++) {
    char *x = malloc(20000 + 100);
    strcpy(x, "<cct version=\"1\">\n");
    size_t n = strlen(x);
    memset(x + n, ' ', 20000);
    strcpy(x + n + 20000, tails[k]);
    cr_profile *p = (cr_profile *)1;
    ck_assert_int_eq(load(&p, x), CR_EFORMAT);
    ck_assert_ptr_null(p);
    ck_assert_msg(strstr(d.msg, msgs[k]), "case %zu: %s", k, d.msg);
    free(x);
  }
  /* only whitespace around the nodes: fine */
  char *x = malloc(20000 + 100);
  strcpy(x, "<cct version=\"1\">\n");
  size_t n = strlen(x);
  for (size_t i = 0; i < 20000; i++) x[n + i] = " \t\r\n      "[i % 10];
  strcpy(x + n + 20000, "</cct>");
  cr_profile *p;
  ck_assert_int_eq(load(&p, x), 0);
  cr_profile_free(p);
  free(x);
}
END_TEST

/* Nested nodes are indented two spaces per level down to depth 10 (a
** top-level node is at depth 2), not further. */
START_TEST(test_profile_xml__indent) {
  cr_profile *p = cr_profile_new("cccp");
  ck_assert_uint_eq(cr_profile_add_method(p, "a/B", "f", "()V", 0, 0, 0), 1);
  ck_assert_int_eq(cr_profile_add_tree(p, "main"), 0);
  uint32_t n = 0;
  for (int i = 0; i < 30; i++) n = cr_profile_add_node(p, 0, n, 1, 1);
  size_t len;
  char *xml = to_xml(p, &len);
  size_t most = 0, lines = 0;
  for (const char *l = xml; *l; l = strchr(l, '\n') + 1) {
    size_t sp = strspn(l, " ");
    if (sp > most) most = sp;
    if (strncmp(l + sp, "<node ", 6) == 0 && sp == 2 * (lines + 2)) lines++;
    if (!strchr(l, '\n')) break;
  }
  ck_assert_uint_eq(most, 20);
  ck_assert_uint_eq(lines, 9);   /* depths 2..10 */
  cr_profile *q;
  ck_assert_int_eq(load(&q, xml), 0);
  ck_assert_uint_eq(q->nnodes, 30);
  ck_assert_uint_eq(q->nodes[30].parent, 29);
  free(xml);
  cr_profile_free(p);
  cr_profile_free(q);
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
  ck_assert(cr_profile_generated("java/lang/String$$StringConcat/0x00000000be083000"));
  ck_assert(!cr_profile_generated("java/lang/String"));
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

/* Numeric <node> attributes are metrics; round trip through the writer. */
START_TEST(test_profile_xml__metrics) {
  cr_profile *p;
  ck_assert_int_eq(load(&p, "<cct version=\"1\"><method id=\"1\" "
                            "class=\"a\" name=\"b\" desc=\"()V\"/>"
                            "<tree thread=\"t\"><node method=\"1\" "
                            "calls=\"2\" cycles=\"9\" note=\"x1\">"
                            "<node method=\"1\" calls=\"1\" bytecodes="
                            "\"18446744073709551615\" cycles=\"4\"/>"
                            "<node method=\"1\" calls=\"1\" note=\"7\"/>"
                            "</node></tree></cct>"), 0);
  ck_assert_uint_eq(p->nmetrics, 4);
  ck_assert_str_eq(p->metric[0], "calls");
  ck_assert_str_eq(p->metric[1], "cycles");
  ck_assert_str_eq(p->metric[2], "bytecodes");
  ck_assert_str_eq(p->metric[3], "note");  /* numeric somewhere */
  ck_assert_int_eq(cr_profile_find_metric(p, "cycles"), 1);
  ck_assert_int_eq(cr_profile_find_metric(p, "allocations"), -1);
  ck_assert_uint_eq(cr_profile_value(p, 0, 1), 2);
  ck_assert_uint_eq(cr_profile_value(p, 1, 1), 9);
  ck_assert_uint_eq(cr_profile_value(p, 1, 2), 4);
  ck_assert_uint_eq(cr_profile_value(p, 2, 1), 0);
  ck_assert_uint_eq(cr_profile_value(p, 2, 2), UINT64_MAX);
  ck_assert_uint_eq(cr_profile_value(p, 3, 1), 0);  /* "x1": not a number */
  ck_assert_uint_eq(cr_profile_value(p, 3, 3), 7);
  size_t len;
  char *xml = to_xml(p, &len);
  cr_profile *q;
  ck_assert_int_eq(cr_profile_load_memory(&q, xml, len, "w.xml", &d), 0);
  ck_assert_uint_eq(q->nmetrics, 4);
  for (uint32_t i = 1; i <= 3; i++)
    for (size_t k = 0; k < 4; k++) {
      int kq = cr_profile_find_metric(q, p->metric[k]);
      ck_assert_int_ge(kq, 0);
      ck_assert_uint_eq(cr_profile_value(q, (size_t)kq, i),
                        cr_profile_value(p, k, i));
    }
  free(xml);
  cr_profile_free(q);
  /* Columns follow the nodes as they grow. */
  ck_assert_int_eq(cr_profile_add_metric(p, "cycles"), 1);
  ck_assert_int_eq(cr_profile_add_metric(p, "calls"), 0);
  ck_assert_int_eq(cr_profile_add_metric(p, "bad name"), -1);
  ck_assert_int_eq(cr_profile_add_metric(p, "method"), -1);
  ck_assert_int_eq(cr_profile_add_metric(p, "9x"), -1);
  int k = cr_profile_add_metric(p, "allocations");
  ck_assert_int_eq(k, 4);
  for (int i = 0; i < 1000; i++) {
    uint32_t n = cr_profile_add_node(p, 0, 0, 1, 1);
    ck_assert_uint_ne(n, 0);
    p->mval[k][n] = (uint64_t)i;
    ck_assert_uint_eq(p->mval[1][n], 0);
  }
  ck_assert_uint_eq(p->mval[k][p->nnodes], 999);
  cr_profile_free(p);
  /* At most CR_PROF_MAX_METRICS, "calls" included. */
  char big[4096];
  size_t n = (size_t)snprintf(big, sizeof big, "<cct version=\"1\">"
                              "<method id=\"1\" class=\"a\" name=\"b\" "
                              "desc=\"()V\"/><tree>\n<node method=\"1\" "
                              "calls=\"1\"");
  for (int i = 0; i < CR_PROF_MAX_METRICS; i++)
    n += (size_t)snprintf(big + n, sizeof big - n, " m%d=\"1\"", i);
  snprintf(big + n, sizeof big - n, "/></tree></cct>");
  ck_assert_int_eq(load(&p, big), CR_ETOOLARGE);
  ck_assert_ptr_nonnull(strstr(d.msg, "t.xml:2: more than 16 metrics"));
}
END_TEST

/* Errors name the file and the line: "FILE:LINE: ...". */
START_TEST(test_profile_xml__lines) {
  static const struct { const char *xml; const char *where; } c[] = {
    {"<cct version=\"1\">\n<method id=\"1\" class=\"a\" name=\"b\" "
     "desc=\"()V\"/>\n<tree>\n<node method=\"1\" calls=\"1\">\n",
     "t.xml:5: malformed XML"},
    {"<cct version=\"1\">\n\n<tree><node method=\"1\" calls=\"1\"/>",
     "t.xml:3: <node> names method 1"},
    {"<cct version=\"1\">\n<tree>\n</tre>", "t.xml:3: malformed XML"},
    {"\n\n<cct version=\"7\"/>", "t.xml:3: profile version"},
    {"<?xml version=\"1.0\"?>\n<!-- a\nb -->\n<!DOCTYPE cct>\n<cct/>",
     "t.xml:4: DOCTYPE is not allowed"},
    {"<cct version=\"1\">\n<method id=\"1\" class=\"a\" name=\"b\" "
     "desc=\"()V\"/>\n<tree>\n<node method=\"1\" calls=\"1", 
     "t.xml:4: malformed XML"},
  };
  for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
    cr_profile *p = (cr_profile *)1;
    ck_assert_int_ne(load(&p, c[i].xml), 0);
    ck_assert_ptr_null(p);
    ck_assert_msg(strncmp(d.msg, c[i].where, strlen(c[i].where)) == 0,
                  "case %zu: '%s'", i, d.msg);
    ck_assert_ptr_null(strchr(d.msg, '\n'));
  }
}
END_TEST

/* Merging: methods by name across profiles, trees kept / by name / all. */
START_TEST(test_profile_xml__merge) {
  /* a: main(1) > f(2) in thread "main"; f has cycles 10. */
  const char *pa[] = {"1:1", "1 2:2", NULL};
  cr_profile *a = build(M, NM, pa, "main");
  int ka = cr_profile_add_metric(a, "cycles");
  ck_assert_int_eq(ka, 1);
  a->mval[ka][2] = 10;
  /* b: its own method table (f first), main(1) > f(3), then a second
     tree "w": f(4), and a metric 'bytecodes'. */
  cr_profile *b = cr_profile_new("cccp");
  ck_assert_uint_eq(cr_profile_add_method(b, "app/Main", "f", "()V", 9, 0,
                                          1), 1);
  ck_assert_uint_eq(cr_profile_add_method(b, "app/Main", "main",
                                          "([Ljava/lang/String;)V", 0, 0, 0),
                    2);
  ck_assert_int_eq(cr_profile_add_tree(b, "main"), 0);
  ck_assert_int_eq(cr_profile_add_tree(b, "w"), 1);
  uint32_t m = cr_profile_add_node(b, 0, 0, 2, 1);
  uint32_t f = cr_profile_add_node(b, 0, m, 1, 3);
  uint32_t w = cr_profile_add_node(b, 1, 0, 1, 4);
  int kb = cr_profile_add_metric(b, "bytecodes");
  b->mval[kb][f] = 5;
  b->mval[kb][w] = 7;
  const cr_profile *in[] = {a, b};
  cr_profile *r;

  ck_assert_int_eq(cr_profile_merge(&r, in, 2, CR_MERGE_KEEP, &d), 0);
  ck_assert_uint_eq(r->ntrees, 3);
  ck_assert_uint_eq(r->nmethods, NM);     /* b's two are a's */
  ck_assert_uint_eq(r->methods[2].size, 9);
  ck_assert_int_eq(r->methods[2].library, 1);
  ck_assert_uint_eq(r->nnodes, 5);
  ck_assert_str_eq(r->mode, "merged");
  cr_profile_free(r);

  ck_assert_int_eq(cr_profile_merge(&r, in, 2, CR_MERGE_BY_NAME, &d), 0);
  ck_assert_uint_eq(r->ntrees, 2);
  ck_assert_str_eq(r->trees[0].thread, "main");
  ck_assert_str_eq(r->trees[1].thread, "w");
  ck_assert_uint_eq(r->nnodes, 3);
  uint32_t rm = r->trees[0].child, rf = r->nodes[rm].child;
  ck_assert_uint_eq(r->nodes[rm].calls, 2);
  ck_assert_uint_eq(r->nodes[rf].calls, 5);
  ck_assert_uint_eq(r->nodes[rf].next, 0);
  int kc = cr_profile_find_metric(r, "cycles");
  int kbb = cr_profile_find_metric(r, "bytecodes");
  ck_assert_uint_eq(cr_profile_value(r, (size_t)kc, rf), 10);
  ck_assert_uint_eq(cr_profile_value(r, (size_t)kbb, rf), 5);
  cr_profile_free(r);

  ck_assert_int_eq(cr_profile_merge(&r, in, 2, CR_MERGE_ALL, &d), 0);
  ck_assert_uint_eq(r->ntrees, 1);
  ck_assert_str_eq(r->trees[0].thread, "all threads");
  ck_assert_uint_eq(r->nnodes, 3);        /* main, main > f, f */
  uint32_t top2 = r->nodes[r->trees[0].child].next;
  ck_assert_uint_eq(r->nodes[top2].calls, 4);
  ck_assert_uint_eq(cr_profile_value(r, (size_t)cr_profile_find_metric(
                                            r, "bytecodes"), top2), 7);
  /* The merged profile compares equal to its inputs folded together. */
  cr_cmp_result cr;
  cr_profile *ab;
  ck_assert_int_eq(cr_profile_merge(&ab, in, 2, CR_MERGE_KEEP, &d), 0);
  ck_assert_int_eq(cr_profile_compare(&cr, r, ab, NULL, 0, &d), 0);
  ck_assert_double_eq(cr.overlap, 100.0);
  ck_assert_uint_eq(cr.differing, 0);
  cr_cmp_result_free(&cr);
  cr_profile_free(ab);
  cr_profile_free(r);

  /* Nothing to merge: an empty profile. */
  ck_assert_int_eq(cr_profile_merge(&r, in, 0, CR_MERGE_KEEP, &d), 0);
  ck_assert_uint_eq(r->nnodes, 0);
  cr_profile_free(r);
  cr_profile_free(a);
  cr_profile_free(b);
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

/* Allocation failures while merging: CR_ENOMEM or success, no leak. */
START_TEST(test_profile_xml__merge_oom) {
  const char *pa[] = {"1:1", "1 2:2", "1 3:1", "1 3 8:4", NULL};
  cr_profile *a = build(M, NM, pa, "main");
  ck_assert_int_eq(cr_profile_add_metric(a, "cycles"), 1);
  const cr_profile *in[] = {a, a};
  int done = 0;
  for (long n = 0; !done && n < 10000; n++) {
    cr_profile *r = NULL;
    cr_diag_clear(&d);
    cr_alloc_fail_after(n);
    int rc = cr_profile_merge(&r, in, 2, n % 2 ? CR_MERGE_ALL
                                                : CR_MERGE_BY_NAME, &d);
    cr_alloc_fail_after(-1);
    ck_assert(rc == 0 || rc == CR_ENOMEM);
    if (!rc) {
      ck_assert_uint_eq(r->nnodes, 4);
      ck_assert_uint_eq(r->nodes[4].calls, 8);
      done = 1;
    } else {
      ck_assert_ptr_null(r);
    }
    cr_profile_free(r);
  }
  ck_assert(done);
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
  tcase_add_test(t, test_profile_xml__run);
  tcase_add_test(t, test_profile_xml__after_root);
  tcase_add_test(t, test_profile_xml__indent);
  tcase_add_test(t, test_profile_xml__file_errors);
  tcase_add_test(t, test_profile_xml__overlap);
  tcase_add_test(t, test_profile_xml__threads_merge);
  tcase_add_test(t, test_profile_xml__visibility);
  tcase_add_test(t, test_profile_xml__generated);
  tcase_add_test(t, test_profile_xml__upcalls);
  tcase_add_test(t, test_profile_xml__expect);
  tcase_add_test(t, test_profile_xml__metrics);
  tcase_add_test(t, test_profile_xml__lines);
  tcase_add_test(t, test_profile_xml__merge);
  tcase_add_test(t, test_profile_xml__merge_oom);
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
