/*
** test_policy_xml.c -- policies: wildcards, the built-in rules, policy
** files (good, malformed, unknown element or attribute, DTDs refused),
** all-or-nothing loading, print -> load round trip, allocation failures
** (ours and libxml2's).
*/
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <libxml/parser.h>
#include <libxml/xmlmemory.h>

#include "cccp/policy.h"

static cr_pol_method M(const char *c, const char *n, const char *d,
                       uint16_t acc) {
  cr_pol_method m = {c, n, d, acc, 0, NULL};
  return m;
}

START_TEST(test_policy_xml__glob) {
  ck_assert(cr_policy_glob("*", ""));
  ck_assert(cr_policy_glob("*", "java/lang/Object"));
  ck_assert(cr_policy_glob("java/lang/*", "java/lang/Object"));
  ck_assert(!cr_policy_glob("java/lang/*", "java/util/List"));
  ck_assert(cr_policy_glob("doPrivileged*", "doPrivileged"));
  ck_assert(cr_policy_glob("*Object*", "java/lang/Object;"));
  ck_assert(cr_policy_glob("a*b*c", "aXXbYYbc"));
  ck_assert(!cr_policy_glob("a*b*c", "aXXbYYb"));
  ck_assert(cr_policy_glob("(*)V", "(ILjava/lang/String;)V"));
  ck_assert(!cr_policy_glob("(*)V", "(I)I"));
  ck_assert(cr_policy_glob("", ""));
  ck_assert(!cr_policy_glob("", "x"));
  ck_assert(cr_policy_glob("**a", "a"));
}
END_TEST

START_TEST(test_policy_xml__builtin) {
  cr_diag d;
  cr_diag_clear(&d);
  cr_policy *p;
  ck_assert_int_eq(cr_policy_new(&p, 1, &d), 0);
  ck_assert_uint_ge(cr_policy_count(p), 20);
  cr_pol_method m = M("java/lang/Object", "toString", "()Ljava/lang/String;",
                      0x1);
  int r = cr_policy_match(p, CR_POL_NONOVL, &m);
  ck_assert_int_ge(r, 0);
  ck_assert_str_eq(cr_policy_rule(p, (size_t)r)->id, "object-virtual");
  m = M("java/lang/Object", "registerNatives", "()V", 0x10a); /* static */
  ck_assert_int_lt(cr_policy_match(p, CR_POL_NONOVL, &m), 0);
  m = M("java/lang/Object", "<init>", "()V", 0x1);
  r = cr_policy_match(p, CR_POL_NONOVL, &m);
  ck_assert_str_eq(cr_policy_rule(p, (size_t)r)->id, "object-init");
  const char *cs = "Ljdk/internal/reflect/CallerSensitive;";
  m = M("java/lang/Class", "forName",
        "(Ljava/lang/String;)Ljava/lang/Class;", 0x9);
  m.nannots = 1;
  m.annots = &cs;
  r = cr_policy_match(p, CR_POL_NONWRAP, &m);
  ck_assert_str_eq(cr_policy_rule(p, (size_t)r)->id, "caller-sensitive");
  ck_assert_int_lt(cr_policy_match(p, CR_POL_NONOVL, &m), 0);
  /* JVMS 2.9.3 shape without the annotation */
  m = M("java/lang/invoke/VarHandle", "get", "([Ljava/lang/Object;)"
        "Ljava/lang/Object;", 0x1 | 0x80 | 0x100 | 0x10);
  r = cr_policy_match(p, CR_POL_NONOVL, &m);
  ck_assert_str_eq(cr_policy_rule(p, (size_t)r)->id,
                   "signature-polymorphic-shape");
  m = M("java/lang/SecurityManager", "getClassContext",
        "()[Ljava/lang/Class;", 0x104);
  ck_assert_int_ge(cr_policy_match(p, CR_POL_NONWRAP, &m), 0);
  m = M("java/lang/SecurityManager", "checkPermission",
        "(Ljava/security/Permission;)V", 0x1);
  ck_assert_int_lt(cr_policy_match(p, CR_POL_NONWRAP, &m), 0);
  for (size_t i = 0; i < cr_policy_count(p); i++) {
    const cr_pol_rule *rr = cr_policy_rule(p, i);
    ck_assert_msg(strstr(cr_policy_doc, rr->id), "doc lacks %s", rr->id);
    ck_assert_ptr_nonnull(rr->why);
  }
  cr_policy_free(p);
}
END_TEST

static const char GOOD[] =
    "<?xml version='1.0'?>\n"
    "<!-- a user policy -->\n"
    "<policy version='1'>\n"
    "  <nonoverloadable class='com/acme/*' name='get*' desc='(*)V'\n"
    "                   why='acme walks its stack' id='acme'/>\n"
    "  <nonwrappable class='*' annotation='Lcom/acme/Walker;' native='0'/>\n"
    "  <overloadable class='java/lang/Object' name='hashCode'/>\n"
    "  <wrappable class='java/lang/Class' name='forName' virtual='0'/>\n"
    "</policy>\n";

static char tmp[64];

START_TEST(test_policy_xml__good_file) {
  strcpy(tmp, "/tmp/cccp-policy-XXXXXX");
  int fd = mkstemp(tmp);
  ck_assert_int_ge(fd, 0);
  ck_assert_int_eq(write(fd, GOOD, strlen(GOOD)), (ssize_t)strlen(GOOD));
  close(fd);
  cr_diag d;
  cr_diag_clear(&d);
  cr_policy *p;
  ck_assert_int_eq(cr_policy_new(&p, 0, &d), 0);
  ck_assert_int_eq(cr_policy_load(p, tmp, &d), 0);
  unlink(tmp);
  ck_assert_uint_eq(cr_policy_count(p), 4);
  const cr_pol_rule *r = cr_policy_rule(p, 0);
  ck_assert_int_eq(r->kind, CR_POL_NONOVL);
  ck_assert_str_eq(r->id, "acme");
  ck_assert_str_eq(r->why, "acme walks its stack");
  ck_assert_msg(strstr(r->origin, tmp), "origin %s", r->origin);
  cr_pol_method m = M("com/acme/Foo", "getBar", "(I)V", 1);
  ck_assert_int_eq(cr_policy_match(p, CR_POL_NONOVL, &m), 0);
  m = M("com/acme/Foo", "getBar", "(I)I", 1);
  ck_assert_int_lt(cr_policy_match(p, CR_POL_NONOVL, &m), 0);
  m = M("com/acme/sub/Foo", "setBar", "(I)V", 1);
  ck_assert_int_lt(cr_policy_match(p, CR_POL_NONOVL, &m), 0);
  const char *an = "Lcom/acme/Walker;";
  m = M("x/Y", "z", "()V", 1);
  ck_assert_int_lt(cr_policy_match(p, CR_POL_NONWRAP, &m), 0);
  m.nannots = 1;
  m.annots = &an;
  ck_assert_int_eq(cr_policy_match(p, CR_POL_NONWRAP, &m), 1);
  m.access = 0x101;                                 /* native: excluded */
  ck_assert_int_lt(cr_policy_match(p, CR_POL_NONWRAP, &m), 0);
  m = M("java/lang/Object", "hashCode", "()I", 0x101);
  ck_assert_int_eq(cr_policy_match(p, CR_POL_OVL, &m), 2);
  m = M("java/lang/Class", "forName", "(Ljava/lang/String;)"
        "Ljava/lang/Class;", 0x9);
  ck_assert_int_eq(cr_policy_match(p, CR_POL_WRAP, &m), 3);
  cr_policy_free(p);
}
END_TEST

/* Load 'xml' into a policy holding one rule; expect failure 'code' with
** 'frag' in the message and the policy unchanged. */
static void bad(const char *xml, int code, const char *frag) {
  cr_diag d;
  cr_diag_clear(&d);
  cr_policy *p;
  ck_assert_int_eq(cr_policy_new(&p, 0, &d), 0);
  ck_assert_int_eq(cr_policy_load_mem(
                       p, "<policy><nonwrappable name='x'/></policy>", 41,
                       "ok", &d), 0);
  ck_assert_int_eq(cr_policy_load_mem(p, xml, strlen(xml), "bad.xml", &d),
                   code);
  ck_assert_msg(strstr(d.msg, frag), "'%s' lacks '%s'", d.msg, frag);
  ck_assert_uint_eq(cr_policy_count(p), 1);
  cr_policy_free(p);
}

START_TEST(test_policy_xml__bad_files) {
  bad("<policy><nonoverloadable class='a'></policy>", CR_EFORMAT,
      "bad.xml:1: malformed XML");
  bad("<policy>\n<nonoverloadable/>\n<frobnicate class='x'/></policy>",
      CR_EFORMAT, "bad.xml:3: unknown element <frobnicate>");
  bad("<policy><nonwrappable klass='x'/></policy>", CR_EFORMAT,
      "unknown attribute 'klass'");
  bad("<policy><nonwrappable native='yes'/></policy>", CR_EFORMAT,
      "native=\"yes\" must be 0 or 1");
  bad("<rules/>", CR_EFORMAT, "root element must be <policy>");
  bad("<policy>text</policy>", CR_EFORMAT, "text is not allowed");
  bad("<policy><wrappable><x/></wrappable></policy>", CR_EFORMAT,
      "must be empty");
  bad("<policy version='2'/>", CR_EUNSUPPORTED, "version");
  bad("<policy owner='me'/>", CR_EFORMAT, "unknown attribute 'owner'");
  bad("<?xml version='1.0'?><!DOCTYPE policy [<!ENTITY x SYSTEM "
      "'file:///etc/passwd'>]><policy><nonwrappable name='&x;'/></policy>",
      CR_EFORMAT, "DOCTYPE is not allowed");
  bad("", CR_EFORMAT, "malformed XML");
  /* a DOCTYPE the byte scan cannot see: UTF-16, internal entities */
  static const char u16[] =
      "\xff\xfe<\0!\0D\0O\0C\0T\0Y\0P\0E\0 \0p\0 \0[\0<\0!\0"
      "E\0N\0T\0I\0T\0Y\0 \0x\0 \0'\0y\0'\0>\0]\0>\0<\0p\0o\0"
      "l\0i\0c\0y\0>\0<\0n\0o\0n\0w\0r\0a\0p\0p\0a\0b\0l\0e\0"
      " \0n\0a\0m\0e\0=\0'\0&\0x\0;\0'\0/\0>\0<\0/\0p\0o\0l\0"
      "i\0c\0y\0>\0";
  cr_diag d;
  cr_diag_clear(&d);
  cr_policy *p;
  ck_assert_int_eq(cr_policy_new(&p, 0, &d), 0);
  ck_assert_int_eq(cr_policy_load_mem(p, u16, sizeof u16 - 1, "u16", &d),
                   CR_EFORMAT);
  ck_assert_msg(strstr(d.msg, "DOCTYPE is not allowed"), "%s", d.msg);
  ck_assert_uint_eq(cr_policy_count(p), 0);
  cr_policy_free(p);
  /* a partly good file adds nothing */
  bad("<policy><nonwrappable name='a'/><nonwrappable name='b'/>"
      "<oops/></policy>", CR_EFORMAT, "unknown element <oops>");
  cr_diag_clear(&d);
  ck_assert_int_eq(cr_policy_new(&p, 0, &d), 0);
  ck_assert_int_eq(cr_policy_load(p, "/nonexistent/policy.xml", &d),
                   CR_ENOTFOUND);
  cr_policy_free(p);
}
END_TEST

START_TEST(test_policy_xml__print_roundtrip) {
  cr_diag d;
  cr_diag_clear(&d);
  cr_policy *p, *q;
  ck_assert_int_eq(cr_policy_new(&p, 1, &d), 0);
  ck_assert_int_eq(cr_policy_load_mem(p, GOOD, strlen(GOOD), "g", &d), 0);
  char *a = NULL, *b = NULL;
  size_t na = 0, nb = 0;
  FILE *f = open_memstream(&a, &na);
  ck_assert_int_eq(cr_policy_print(p, f), 0);
  fclose(f);
  ck_assert(strstr(a, "<nonoverloadable class=\"java/lang/Object\" "
                      "name=\"*\" desc=\"*\" virtual=\"1\" "
                      "id=\"object-virtual\""));
  ck_assert_int_eq(cr_policy_new(&q, 0, &d), 0);
  ck_assert_int_eq(cr_policy_load_mem(q, a, na, "printed", &d), 0);
  ck_assert_uint_eq(cr_policy_count(q), cr_policy_count(p));
  for (size_t i = 0; i < cr_policy_count(p); i++) {
    const cr_pol_rule *x = cr_policy_rule(p, i), *y = cr_policy_rule(q, i);
    ck_assert_int_eq(x->kind, y->kind);
    ck_assert_str_eq(x->cls, y->cls);
    ck_assert_str_eq(x->name, y->name);
    ck_assert_str_eq(x->desc, y->desc);
    ck_assert_str_eq(x->id, y->id);
    ck_assert_int_eq(x->native, y->native);
    ck_assert_int_eq(x->virt, y->virt);
    ck_assert_int_eq(x->sigpoly, y->sigpoly);
  }
  f = open_memstream(&b, &nb);
  ck_assert_int_eq(cr_policy_print(q, f), 0);
  fclose(f);
  /* only the origin comments differ */
  ck_assert_uint_gt(nb, 1000);
  free(a);
  free(b);
  cr_policy_free(p);
  cr_policy_free(q);
}
END_TEST

/*
** Allocation n fails (our allocator; libxml2 has its own), for every n
** until it succeeds: the built-in policy, loading GOOD, matching and
** printing report CR_ENOMEM or succeed, and leak nothing (LeakSanitizer
** in the sanitizer build).
*/
START_TEST(test_policy_xml__oom_sweep) {
  int rc = -1;
  long n;
  for (n = 0; rc && n < 100000; n++) {
    cr_diag d;
    cr_diag_clear(&d);
    cr_policy *p = NULL;
    char *text = NULL;
    size_t len = 0;
    cr_alloc_fail_after(n);
    rc = cr_policy_new(&p, 1, &d);
    if (!rc) rc = cr_policy_load_mem(p, GOOD, strlen(GOOD), "good", &d);
    if (!rc) {
      FILE *f = open_memstream(&text, &len);
      ck_assert_ptr_nonnull(f);
      rc = cr_policy_print(p, f) == 0 ? 0 : CR_ENOMEM;
      fclose(f);
    }
    cr_alloc_fail_after(-1);
    if (rc) ck_assert_msg(rc == CR_ENOMEM, "allocation %ld: %s", n, d.msg);
    else ck_assert(strstr(text, "<policy") != NULL);
    free(text);
    cr_policy_free(p);
  }
  ck_assert_int_eq(rc, 0);
  printf("policy: %ld allocation failures handled\n", n - 1);
}
END_TEST

/*
** libxml2 allocates through its own hooks: these fail its allocation
** number 'xbudget' and every later one (as 'cr_alloc_fail_after' does for
** ours), so that the reader meets every NULL libxml2 can hand back.
*/
static long xbudget = -1;

static int xtake(void) {
  if (xbudget < 0) return 1;
  if (xbudget == 0) return 0;
  xbudget--;
  return 1;
}

static void *xmalloc(size_t n) { return xtake() ? malloc(n) : NULL; }
static void *xrealloc(void *p, size_t n) {
  return xtake() ? realloc(p, n) : NULL;
}
static char *xstrdup(const char *s) { return xtake() ? strdup(s) : NULL; }

/* The policy as printed, malloc'd. */
static char *printed(const cr_policy *p) {
  char *text = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&text, &len);
  ck_assert_ptr_nonnull(f);
  ck_assert_int_eq(cr_policy_print(p, f), 0);
  fclose(f);
  return text;
}

/*
** libxml2's allocation n fails, for every n until loading succeeds: a good
** file loads completely (the same rules as without failures) or not at
** all with CR_ENOMEM; a bad one is CR_EFORMAT or CR_ENOMEM. A missing
** attribute and one libxml2 could not copy must not be confused. Nothing
** leaks (LeakSanitizer in the sanitizer build).
*/
START_TEST(test_policy_xml__libxml_oom_sweep) {
  static const char *const docs[] = {
    GOOD,
    "<policy version='1'><nonwrappable name='a' why='w'/>\n"
    "<nonwrappable name='b' native='2'/></policy>",
    "<policy><nonwrappable name='a'/><oops/></policy>",
    "<policy><nonwrappable name='a'></policy>",
  };
  xmlInitParser();      /* its one-time set-up is not under test */
  ck_assert_int_eq(xmlMemSetup(free, xmalloc, xrealloc, xstrdup), 0);
  long total = 0;
  for (size_t k = 0; k < sizeof docs / sizeof docs[0]; k++) {
    cr_diag d;
    cr_diag_clear(&d);
    cr_policy *p;
    ck_assert_int_eq(cr_policy_new(&p, 0, &d), 0);
    int want = cr_policy_load_mem(p, docs[k], strlen(docs[k]), "f", &d);
    char *ref = printed(p);
    cr_policy_free(p);
    int rc = -1;
    long n;
    for (n = 0; rc != want && n < 100000; n++) {
      cr_diag_clear(&d);
      ck_assert_int_eq(cr_policy_new(&p, 0, &d), 0);
      xbudget = n;
      rc = cr_policy_load_mem(p, docs[k], strlen(docs[k]), "f", &d);
      xbudget = -1;
      if (rc == want) {
        char *got = printed(p);
        ck_assert_msg(strcmp(got, ref) == 0, "doc %zu, allocation %ld: "
                      "loaded\n%s\nnot\n%s", k, n, got, ref);
        free(got);
      } else {
        ck_assert_msg(rc == CR_ENOMEM || (want && rc == CR_EFORMAT),
                      "doc %zu, allocation %ld: code %d (want %d): %s", k,
                      n, rc, want, d.msg);
        ck_assert_msg(d.msg[0] != '\0', "doc %zu: no message", k);
        ck_assert_uint_eq(cr_policy_count(p), 0);
      }
      cr_policy_free(p);
    }
    ck_assert_int_eq(rc, want);
    total += n;
    free(ref);
  }
  xmlMemSetup(free, malloc, realloc, strdup);
  printf("policy: %ld libxml2 allocation failures handled\n", total);
}
END_TEST

START_TEST(test_policy_xml__api_errors) {
  cr_diag d;
  cr_diag_clear(&d);
  cr_policy *p;
  ck_assert_int_eq(cr_policy_new(&p, 0, &d), 0);
  cr_pol_rule r = {.kind = CR_POL__COUNT, .native = -1, .virt = -1,
                   .sigpoly = -1};
  ck_assert_int_eq(cr_policy_add(p, &r, &d), CR_EUSAGE);
  r.kind = CR_POL_NONOVL;
  r.native = 3;
  cr_diag_clear(&d);
  ck_assert_int_eq(cr_policy_add(p, &r, &d), CR_EUSAGE);
  r.native = -1;
  ck_assert_int_eq(cr_policy_add(p, &r, &d), 0);     /* all "*" */
  cr_pol_method m = M("a", "b", "()V", 0);
  ck_assert_int_eq(cr_policy_match(p, CR_POL_NONOVL, &m), 0);
  ck_assert_int_lt(cr_policy_match(NULL, CR_POL_NONOVL, &m), 0);
  cr_policy_free(p);
}
END_TEST

static Suite *suite(void) {
  Suite *s = suite_create("policy");
  TCase *tc = tcase_create("xml");
  tcase_add_test(tc, test_policy_xml__glob);
  tcase_add_test(tc, test_policy_xml__builtin);
  tcase_add_test(tc, test_policy_xml__good_file);
  tcase_add_test(tc, test_policy_xml__bad_files);
  tcase_add_test(tc, test_policy_xml__print_roundtrip);
  tcase_add_test(tc, test_policy_xml__api_errors);
  tcase_add_test(tc, test_policy_xml__oom_sweep);
  tcase_add_test(tc, test_policy_xml__libxml_oom_sweep);
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
