/*
** test_policy_xml.c -- policies: wildcards, the built-in rules (seeds and
** the JDK-mode entries), policy files (good, malformed, unknown element or
** attribute, incomplete entries of each kind, DTDs refused), removals,
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

/* The rules of a kind selected for a class answer as the whole policy:
** the first match, by index, for methods of classes the rules name and
** of others. */
START_TEST(test_policy_xml__select) {
  cr_diag d;
  cr_diag_clear(&d);
  cr_policy *p;
  ck_assert_int_eq(cr_policy_new(&p, 1, &d), 0);
  size_t n = cr_policy_count(p);
  uint8_t *mask = calloc(n + 1, 1);
  uint32_t *idx = calloc(n + 1, sizeof *idx);
  const cr_pol_method ms[] = {
      M("java/lang/Object", "toString", "()Ljava/lang/String;", 0x1),
      M("java/lang/Object", "<init>", "()V", 0x1),
      M("java/lang/SecurityManager", "getClassContext",
        "()[Ljava/lang/Class;", 0x104),
      M("java/lang/invoke/VarHandle", "get",
        "([Ljava/lang/Object;)Ljava/lang/Object;", 0x1 | 0x80 | 0x100 | 0x10),
      M("com/acme/Foo", "run", "()V", 0x1)};
  const cr_pol_kind kinds[] = {CR_POL_NONOVL, CR_POL_OVL, CR_POL_NONWRAP,
                               CR_POL_WRAP};
  int hits = 0;
  for (size_t i = 0; i < sizeof ms / sizeof ms[0]; i++) {
    cr_policy_prepare(p, ms[i].cls, mask);
    for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
      size_t ns = cr_policy_select(p, kinds[k], mask, idx);
      ck_assert_uint_le(ns, n);
      for (size_t j = 0; j < ns; j++) {
        ck_assert(mask[idx[j]]);
        ck_assert_int_eq(cr_policy_rule(p, idx[j])->kind, kinds[k]);
        if (j) ck_assert_uint_lt(idx[j - 1], idx[j]);
      }
      int want = cr_policy_match(p, kinds[k], &ms[i]);
      ck_assert_int_eq(cr_policy_match_in(p, kinds[k], &ms[i], idx, ns),
                       want);
      hits += want >= 0;
    }
  }
  ck_assert_int_ge(hits, 4);
  free(mask);
  free(idx);
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

#define M_ARR "[Ljava/lang/reflect/Method;"
#define D_FILTER "(Ljava/lang/Class;" M_ARR ")" M_ARR
#define D_LOAD "(Ljava/lang/String;)Ljava/lang/Class;"

/* The index of the first entry of 'kind' in class 'cls' named 'name', or
** -1 (for the kinds a class applies all of). */
static int entry(const cr_policy *p, cr_pol_kind kind, const char *cls,
                 const char *name) {
  for (size_t i = 0; i < cr_policy_count(p); i++) {
    const cr_pol_rule *r = cr_policy_rule(p, i);
    if (r->kind == kind && !r->remove && strcmp(r->cls, cls) == 0 &&
        strcmp(r->name, name) == 0)
      return (int)i;
  }
  return -1;
}

/* The built-in filter of the results of 'cls'.'name''desc' (called in
** 'cls' itself) takes them as 'to_desc' says. */
static void after_filter(const cr_policy *p, const char *cls,
                         const char *name, const char *desc,
                         const char *to_desc) {
  cr_pol_ref c = {cls, name, desc};
  int k = cr_policy_redirect(p, cls, &c);
  ck_assert_int_ge(k, 0);
  ck_assert_int_eq(cr_policy_rule(p, (size_t)k)->after, 1);
  ck_assert_str_eq(cr_policy_rule(p, (size_t)k)->to.desc, to_desc);
}

START_TEST(test_policy_xml__jdk_builtin) {
  cr_diag d;
  cr_diag_clear(&d);
  cr_policy *p;
  ck_assert_int_eq(cr_policy_new(&p, 1, &d), 0);
  cr_pol_ref c = {"jdk/internal/reflect/Reflection", "filterMethods",
                  D_FILTER};
  int k = cr_policy_redirect(p, "java/lang/Class", &c);
  ck_assert_int_ge(k, 0);
  const cr_pol_rule *r = cr_policy_rule(p, (size_t)k);
  ck_assert_str_eq(r->id, "reflection-filter");
  ck_assert_str_eq(r->to.owner, "cccp/rt/Reflect");
  ck_assert_str_eq(r->to.name, "filterMethods");
  ck_assert_str_eq(r->to.desc, D_FILTER);
  ck_assert_int_lt(cr_policy_redirect(p, "java/lang/ClassLoader", &c), 0);
  c.desc = "(Ljava/lang/Class;)V";
  ck_assert_int_lt(cr_policy_redirect(p, "java/lang/Class", &c), 0);
  /* a receiver becomes the first argument */
  cr_pol_ref f = {"java/lang/StackStreamFactory$CallerClassFinder",
                  "findCaller", "()Ljava/lang/Class;"};
  k = cr_policy_redirect(p, "java/lang/StackWalker", &f);
  ck_assert_int_ge(k, 0);
  ck_assert_str_eq(cr_policy_rule(p, (size_t)k)->to.desc,
                   "(Ljava/lang/Object;)Ljava/lang/Class;");
  ck_assert_int_eq(cr_policy_rule(p, (size_t)k)->after, 0);
  k = entry(p, CR_POL_REDIRECT, "jdk/internal/module/ModulePatcher$JarResourceFinder", "*");
  ck_assert_int_ge(k, 0);
  ck_assert_str_eq(cr_policy_rule(p, (size_t)k)->id, "patched-module-list");
  /* filters of a result: the call stays (a native the runtime cannot
  ** reach without a method handle) */
  after_filter(p, "java/lang/Class", "getDeclaredConstructors0",
               "(Z)[Ljava/lang/reflect/Constructor;",
               "([Ljava/lang/reflect/Constructor;)"
               "[Ljava/lang/reflect/Constructor;");
  after_filter(p, "java/io/ObjectStreamClass", "hasStaticInitializer",
               "(Ljava/lang/Class;)Z", "(Ljava/lang/Class;Z)Z");
  after_filter(p, "java/lang/NullPointerException", "getExtendedNPEMessage",
               "()Ljava/lang/String;",
               "(Ljava/lang/String;)Ljava/lang/String;");
  /* upcalls in any class; thread entries */
  k = cr_policy_find(p, CR_POL_UPCALL, "com/acme/Loader", "loadClass",
                     D_LOAD);
  ck_assert_int_ge(k, 0);
  ck_assert_str_eq(cr_policy_rule(p, (size_t)k)->id, "load-class-upcall");
  ck_assert_int_lt(cr_policy_find(p, CR_POL_UPCALL, "com/acme/Loader",
                                  "loadClass", "(Ljava/lang/String;Z)"
                                  "Ljava/lang/Class;"), 0);
  ck_assert_int_ge(cr_policy_find(p, CR_POL_THREAD_ENTRY,
                                  "java/lang/VirtualThread", "run",
                                  "(Ljava/lang/Runnable;)V"), 0);
  ck_assert_int_lt(cr_policy_find(p, CR_POL_THREAD_ENTRY, "java/lang/Thread",
                                  "run", "()V"), 0);
  /* the fields of the slot, in order, and the inserted calls */
  int cc = entry(p, CR_POL_THREAD_FIELD, "java/lang/Thread", "cccp$slot");
  int root = entry(p, CR_POL_THREAD_FIELD, "java/lang/Thread", "cccp$root");
  ck_assert_int_ge(cc, 0);
  ck_assert_int_gt(root, cc);
  ck_assert_str_eq(cr_policy_rule(p, (size_t)cc)->desc, "Lcccp/rt/CC$Slot;");
  ck_assert_str_eq(cr_policy_rule(p, (size_t)root)->desc, "Lcccp/rt/CC;");
  k = entry(p, CR_POL_INSERT_CALL, "java/lang/Thread", "exit");
  ck_assert_int_ge(k, 0);
  ck_assert_str_eq(cr_policy_rule(p, (size_t)k)->desc, "()V");
  ck_assert_str_eq(cr_policy_rule(p, (size_t)k)->call, "ended");
  ck_assert_int_eq(cr_policy_removed(p, (size_t)k), 0);
  k = entry(p, CR_POL_INSERT_CALL, "java/lang/System", "initPhase3");
  ck_assert_str_eq(cr_policy_rule(p, (size_t)k)->call, "start");
  k = entry(p, CR_POL_INSERT_CALL, "java/lang/Shutdown", "runHooks");
  ck_assert_str_eq(cr_policy_rule(p, (size_t)k)->call, "exit");
  k = entry(p, CR_POL_INSERT_CALL, "java/lang/VirtualThread", "run");
  ck_assert_str_eq(cr_policy_rule(p, (size_t)k)->call, "ended");
  size_t kinds[CR_POL__COUNT] = {0};
  for (size_t i = 0; i < cr_policy_count(p); i++)
    kinds[cr_policy_rule(p, i)->kind]++;
  ck_assert_uint_eq(kinds[CR_POL_REDIRECT], 15);
  k = entry(p, CR_POL_REDIRECT, "jdk/internal/loader/BuiltinClassLoader", "*");
  ck_assert_int_ge(k, 0);
  ck_assert_str_eq(cr_policy_rule(p, (size_t)k)->id, "patched-code-source");
  ck_assert_int_eq(cr_policy_rule(p, (size_t)k)->after, 1);
  k = entry(p, CR_POL_REDIRECT, "java/lang/SecurityManager", "*");
  ck_assert_int_ge(k, 0);
  ck_assert_str_eq(cr_policy_rule(p, (size_t)k)->id, "runtime-package-access");
  ck_assert_int_eq(cr_policy_rule(p, (size_t)k)->after, 0);
  k = entry(p, CR_POL_REDIRECT, "jdk/internal/module/ModulePatcher$JarResourceFinder", "*");
  ck_assert_int_ge(k, 0);
  ck_assert_str_eq(cr_policy_rule(p, (size_t)k)->id, "patched-module-list");
  ck_assert_uint_eq(kinds[CR_POL_THREAD_ENTRY], 1);
  ck_assert_uint_eq(kinds[CR_POL_UPCALL], 1);
  ck_assert_uint_eq(kinds[CR_POL_INSERT_CALL], 4);
  ck_assert_uint_eq(kinds[CR_POL_THREAD_FIELD], 2);
  /* no policy: nothing */
  ck_assert_int_lt(cr_policy_find(NULL, CR_POL_UPCALL, "a", "loadClass",
                                  D_LOAD), 0);
  ck_assert_int_lt(cr_policy_redirect(NULL, "java/lang/Class", &f), 0);
  cr_policy_free(p);
}
END_TEST

static const char JDK[] =
    "<policy>\n"
    "  <redirect class='com/acme/*' from='a/B.c(I)J' to='x/Y.z(I)J'\n"
    "            id='acme' why='w'/>\n"
    "  <redirect class='com/acme/V' from='a/B.v(Ljava/lang/String;)V'\n"
    "            to='x/Y.v([ILjava/lang/Object;)V'/>\n"
    "  <thread-entry class='com/acme/Pool' name='work*'/>\n"
    "  <upcall class='com/acme/Loader' name='find' desc='(I)V'/>\n"
    "  <insert-call class='com/acme/T' name='stop' desc='()V' "
    "call='ended'/>\n"
    "  <thread-field class='com/acme/T' name='slot' desc='Lcom/acme/S;'/>\n"
    "  <redirect class='com/acme/A' from='a/B.n(Ljava/lang/Object;)I'\n"
    "            to='x/Y.f(Ljava/lang/Object;I)I' after='1'/>\n"
    "</policy>\n";

START_TEST(test_policy_xml__jdk_file) {
  cr_diag d;
  cr_diag_clear(&d);
  cr_policy *p;
  ck_assert_int_eq(cr_policy_new(&p, 0, &d), 0);
  ck_assert_msg(cr_policy_load_mem(p, JDK, strlen(JDK), "jdk.xml", &d) == 0,
                "%s", d.msg);
  ck_assert_uint_eq(cr_policy_count(p), 7);
  ck_assert_int_eq(cr_policy_rule(p, 6)->after, 1);
  const cr_pol_rule *r = cr_policy_rule(p, 0);
  ck_assert_int_eq(r->kind, CR_POL_REDIRECT);
  ck_assert_str_eq(r->cls, "com/acme/*");
  ck_assert_str_eq(r->from.owner, "a/B");
  ck_assert_str_eq(r->from.name, "c");
  ck_assert_str_eq(r->from.desc, "(I)J");
  ck_assert_str_eq(r->to.owner, "x/Y");
  ck_assert_str_eq(r->to.name, "z");
  ck_assert_str_eq(r->to.desc, "(I)J");
  ck_assert_str_eq(r->id, "acme");
  /* libxml2 numbers an element by the line its start tag ends on */
  ck_assert_str_eq(r->origin, "jdk.xml:3");
  ck_assert_int_eq(r->remove, 0);
  cr_pol_ref c = {"a/B", "c", "(I)J"};
  ck_assert_int_eq(cr_policy_redirect(p, "com/acme/Foo", &c), 0);
  ck_assert_int_lt(cr_policy_redirect(p, "com/other/Foo", &c), 0);
  cr_pol_ref v = {"a/B", "v", "(Ljava/lang/String;)V"};
  ck_assert_int_eq(cr_policy_redirect(p, "com/acme/V", &v), 1);
  ck_assert_int_eq(cr_policy_find(p, CR_POL_THREAD_ENTRY, "com/acme/Pool",
                                  "workLoop", "()V"), 2);
  ck_assert_int_lt(cr_policy_find(p, CR_POL_THREAD_ENTRY, "com/acme/Pool",
                                  "run", "()V"), 0);
  ck_assert_int_eq(cr_policy_find(p, CR_POL_UPCALL, "com/acme/Loader",
                                  "find", "(I)V"), 3);
  ck_assert_int_lt(cr_policy_find(p, CR_POL_UPCALL, "com/acme/Loader",
                                  "find", "(J)V"), 0);
  r = cr_policy_rule(p, 4);
  ck_assert_int_eq(r->kind, CR_POL_INSERT_CALL);
  ck_assert_str_eq(r->call, "ended");
  r = cr_policy_rule(p, 5);
  ck_assert_int_eq(r->kind, CR_POL_THREAD_FIELD);
  ck_assert_str_eq(r->name, "slot");
  ck_assert_str_eq(r->desc, "Lcom/acme/S;");
  cr_policy_free(p);
}
END_TEST

/*
** Removals: by pattern, whatever their order, against built-in entries
** and a file's; each cancels only its kind, and only where it matches.
*/
START_TEST(test_policy_xml__removals) {
  static const char RM[] =
      "<policy>\n"
      "  <redirect class='java/lang/Class'\n"
      "            from='jdk/internal/reflect/Reflection.filterMethods'\n"
      "            remove='1'/>\n"
      "  <redirect class='java/lang/Thr*' from='*.*(*' remove='1'/>\n"
      "  <upcall class='com/acme/*' remove='1'/>\n"
      "  <insert-call class='java/lang/System' remove='1'/>\n"
      "  <thread-field name='cccp$root' remove='1'/>\n"
      "  <thread-entry remove='1'/>\n"
      "</policy>\n";
  cr_diag d;
  cr_diag_clear(&d);
  cr_policy *p;
  ck_assert_int_eq(cr_policy_new(&p, 1, &d), 0);
  size_t n0 = cr_policy_count(p);
  ck_assert_msg(cr_policy_load_mem(p, RM, strlen(RM), "rm.xml", &d) == 0,
                "%s", d.msg);
  ck_assert_uint_eq(cr_policy_count(p), n0 + 6);
  ck_assert_int_eq(cr_policy_rule(p, n0)->remove, 1);
  cr_pol_ref m = {"jdk/internal/reflect/Reflection", "filterMethods",
                  D_FILTER};
  ck_assert_int_lt(cr_policy_redirect(p, "java/lang/Class", &m), 0);
  cr_pol_ref f = {"jdk/internal/reflect/Reflection", "filterFields",
                  "(Ljava/lang/Class;[Ljava/lang/reflect/Field;)"
                  "[Ljava/lang/reflect/Field;"};
  ck_assert_int_ge(cr_policy_redirect(p, "java/lang/Class", &f), 0);
  cr_pol_ref t = {"java/lang/StackTraceElement", "of",
                  "(Ljava/lang/Throwable;I)[Ljava/lang/StackTraceElement;"};
  ck_assert_int_lt(cr_policy_redirect(p, "java/lang/Throwable", &t), 0);
  /* a removal by pattern exempts part of a wildcard entry */
  ck_assert_int_lt(cr_policy_find(p, CR_POL_UPCALL, "com/acme/L",
                                  "loadClass", D_LOAD), 0);
  ck_assert_int_ge(cr_policy_find(p, CR_POL_UPCALL, "org/other/L",
                                  "loadClass", D_LOAD), 0);
  ck_assert_int_lt(cr_policy_find(p, CR_POL_THREAD_ENTRY,
                                  "java/lang/VirtualThread", "run",
                                  "(Ljava/lang/Runnable;)V"), 0);
  int k = entry(p, CR_POL_INSERT_CALL, "java/lang/System", "initPhase3");
  ck_assert_int_eq(cr_policy_removed(p, (size_t)k), 1);
  k = entry(p, CR_POL_INSERT_CALL, "java/lang/Thread", "exit");
  ck_assert_int_eq(cr_policy_removed(p, (size_t)k), 0);
  k = entry(p, CR_POL_THREAD_FIELD, "java/lang/Thread", "cccp$root");
  ck_assert_int_eq(cr_policy_removed(p, (size_t)k), 1);
  k = entry(p, CR_POL_THREAD_FIELD, "java/lang/Thread", "cccp$slot");
  ck_assert_int_eq(cr_policy_removed(p, (size_t)k), 0);
  /* the seeds are untouched */
  cr_pol_method om = M("java/lang/Object", "hashCode", "()I", 0x101);
  ck_assert_int_ge(cr_policy_match(p, CR_POL_NONOVL, &om), 0);
  /* an entry added after a removal that matches it is cancelled too */
  static const char LATE[] =
      "<policy><upcall class='com/acme/X' name='m' desc='()V'/>"
      "<upcall class='org/Y' name='m' desc='()V'/></policy>";
  ck_assert_int_eq(cr_policy_load_mem(p, LATE, strlen(LATE), "late", &d),
                   0);
  ck_assert_int_lt(cr_policy_find(p, CR_POL_UPCALL, "com/acme/X", "m",
                                  "()V"), 0);
  ck_assert_int_ge(cr_policy_find(p, CR_POL_UPCALL, "org/Y", "m", "()V"),
                   0);
  cr_policy_free(p);
}
END_TEST

START_TEST(test_policy_xml__parse_ref) {
  cr_diag d;
  cr_diag_clear(&d);
  cr_arena *a = cr_arena_new();
  ck_assert_ptr_nonnull(a);
  cr_pol_ref r;
  ck_assert_int_eq(cr_policy_parse_ref(&r, a, "p/A$B.m([[IJ)[Lx;", 1, &d),
                   0);
  ck_assert_str_eq(r.owner, "p/A$B");
  ck_assert_str_eq(r.name, "m");
  ck_assert_str_eq(r.desc, "([[IJ)[Lx;");
  ck_assert_int_eq(cr_policy_parse_ref(&r, a, "p/A.<init>()V", 1, &d), 0);
  ck_assert_str_eq(r.name, "<init>");
  /* patterns, and a left out descriptor, in removals only */
  ck_assert_int_eq(cr_policy_parse_ref(&r, a, "p/*.get*", 0, &d), 0);
  ck_assert_str_eq(r.owner, "p/*");
  ck_assert_str_eq(r.name, "get*");
  ck_assert_str_eq(r.desc, "*");
  static const char *const lit_bad[] = {
    "p/A.m", "p/A.m(*)V", "p/A.m(I", "p/A.m()", "p/A.m(Lx)V", "p/A.m(L;)V",
    "p/A.m(Q)V", "p/A.m()VV", "p/A.m()[V", ".m()V", "p/A.()V", "p/A()V",
    "p.A.m()V", "", "p/A.m(I)V ",
  };
  for (size_t i = 0; i < sizeof lit_bad / sizeof *lit_bad; i++) {
    cr_diag_clear(&d);
    ck_assert_msg(cr_policy_parse_ref(&r, a, lit_bad[i], 1, &d) ==
                      CR_EFORMAT, "'%s' accepted", lit_bad[i]);
    ck_assert_msg(strstr(d.msg, "owner.name(desc)"), "%s", d.msg);
  }
  cr_arena_free(a);
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
  /* each new element, malformed or incomplete */
  bad("<policy><redirect from='a/B.c()V'/></policy>", CR_EFORMAT,
      "bad.xml:1: <redirect>: from and to are required");
  bad("<policy>\n<redirect to='a/B.c()V'/></policy>", CR_EFORMAT,
      "bad.xml:2: <redirect>: from and to are required");
  bad("<policy><redirect from='a/B.c()V' to='x/Y.z()I'/></policy>",
      CR_EFORMAT, "to must take the arguments of from");
  bad("<policy><redirect from='a/B.c(I)V' to='x/Y.z(II)V'/></policy>",
      CR_EFORMAT, "to must take the arguments of from");
  bad("<policy><redirect from='a/B.c()V' to='x/Y.z(I)V'/></policy>",
      CR_EFORMAT, "to must take the arguments of from");
  /* after: the filter takes the result, after the one operand if any */
  bad("<policy><redirect from='a/B.c()V' to='x/Y.z()V' after='1'/></policy>",
      CR_EFORMAT, "with after, to must take what from returns");
  bad("<policy><redirect from='a/B.c(I)I' to='x/Y.z(J)I' after='1'/>"
      "</policy>", CR_EFORMAT, "with after, to must take what from returns");
  bad("<policy><redirect from='a/B.c(II)I' to='x/Y.z(II)I' after='1'/>"
      "</policy>", CR_EFORMAT, "with after, to must take what from returns");
  bad("<policy><redirect from='a/B.c(I)I' to='x/Y.z(III)I' after='1'/>"
      "</policy>", CR_EFORMAT, "with after, to must take what from returns");
  bad("<policy><redirect from='a/B.c()I' to='x/Y.z()I' after='1'/>"
      "</policy>", CR_EFORMAT, "with after, to must take what from returns");
  bad("<policy><redirect from='a/B.c(J)I' to='x/Y.z(JI)I' after='1'/>"
      "</policy>", CR_EFORMAT, "with after, to must take what from returns");
  bad("<policy><redirect from='a/B.c(I)I' to='x/Y.z(I)I' after='2'/>"
      "</policy>", CR_EFORMAT, "after=\"2\" must be 0 or 1");
  bad("<policy><upcall name='x' after='1'/></policy>", CR_EFORMAT,
      "unknown attribute 'after' on <upcall>");
  bad("<policy><redirect from='a/B.c' to='x/Y.z()V'/></policy>", CR_EFORMAT,
      "<redirect> from: \"a/B.c\" is not of the form owner.name(desc)");
  bad("<policy><redirect from='a/B.c()V' to='x/Y.*()V'/></policy>",
      CR_EFORMAT, "<redirect> to: \"x/Y.*()V\" is not one method");
  bad("<policy><redirect from='aBc()V' to='x/Y.z()V'/></policy>", CR_EFORMAT,
      "is not of the form owner.name(desc)");
  bad("<policy><redirect class='x' to='x/Y.z()V' remove='1'/></policy>",
      CR_EFORMAT, "a removal has no to");
  bad("<policy><redirect name='x' from='a/B.c()V' to='x/Y.z()V'/></policy>",
      CR_EFORMAT, "unknown attribute 'name' on <redirect>");
  bad("<policy><redirect from='a/B.c()V' to='x/Y.z()V' call='start'/>"
      "</policy>", CR_EFORMAT, "unknown attribute 'call' on <redirect>");
  bad("<policy><thread-entry from='a/B.c()V'/></policy>", CR_EFORMAT,
      "unknown attribute 'from' on <thread-entry>");
  bad("<policy><thread-entry name='run' remove='yes'/></policy>", CR_EFORMAT,
      "remove=\"yes\" must be 0 or 1");
  bad("<policy><upcall native='1'/></policy>", CR_EFORMAT,
      "unknown attribute 'native' on <upcall>");
  bad("<policy><upcall name='x'><upcall/></upcall></policy>", CR_EFORMAT,
      "<upcall> must be empty");
  bad("<policy><insert-call class='a' name='b' desc='()V'/></policy>",
      CR_EFORMAT, "<insert-call>: class, name, desc (of one method) and "
      "call are required");
  bad("<policy><insert-call class='a' name='b*' desc='()V' call='ended'/>"
      "</policy>", CR_EFORMAT, "without '*'");
  bad("<policy><insert-call class='a' name='b' desc='(V' call='ended'/>"
      "</policy>", CR_EFORMAT, "<insert-call>: class, name, desc");
  bad("<policy><insert-call class='a' name='b' desc='()V' call='stop'/>"
      "</policy>", CR_EFORMAT, "call must be ended, start or exit");
  bad("<policy><thread-field class='a'/></policy>", CR_EFORMAT,
      "<thread-field>: class and name are required");
  /* an empty pattern means "*": not a name */
  bad("<policy><thread-field class='' name='b'/></policy>", CR_EFORMAT,
      "<thread-field>: class and name are required");
  bad("<policy><insert-call class='a' name='' desc='()V' call='ended'/>"
      "</policy>", CR_EFORMAT, "<insert-call>: class, name, desc");
  bad("<policy><thread-field class='a' name='b' desc='I'/></policy>",
      CR_EFORMAT, "<thread-field>: desc must be one class type");
  bad("<policy><thread-field class='a' name='b' desc='La;I'/></policy>",
      CR_EFORMAT, "<thread-field>: desc must be one class type");
  bad("<policy><nonoverloadable remove='1'/></policy>", CR_EFORMAT,
      "unknown attribute 'remove' on <nonoverloadable>");
  bad("<policy><nonwrappable to='x/Y.z()V'/></policy>", CR_EFORMAT,
      "unknown attribute 'to' on <nonwrappable>");
  bad("<policy><upcall/><redirect from='a/B.c()V'/></policy>", CR_EFORMAT,
      "from and to are required");
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
  ck_assert_int_eq(cr_policy_load_mem(p, JDK, strlen(JDK), "j", &d), 0);
  static const char RM[] =
      "<policy><redirect class='x/*' from='a/*.get*' remove='1'/>"
      "<insert-call remove='1' call='st*'/></policy>";
  ck_assert_int_eq(cr_policy_load_mem(p, RM, strlen(RM), "r", &d), 0);
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
    ck_assert_int_eq(x->remove, y->remove);
    ck_assert_str_eq(x->why ? x->why : "", y->why ? y->why : "");
    if (x->kind == CR_POL_REDIRECT) {
      ck_assert_str_eq(x->from.owner, y->from.owner);
      ck_assert_str_eq(x->from.name, y->from.name);
      ck_assert_str_eq(x->from.desc, y->from.desc);
      ck_assert_str_eq(x->to.owner ? x->to.owner : "-",
                       y->to.owner ? y->to.owner : "-");
      ck_assert_str_eq(x->to.name ? x->to.name : "-",
                       y->to.name ? y->to.name : "-");
      ck_assert_str_eq(x->to.desc ? x->to.desc : "-",
                       y->to.desc ? y->to.desc : "-");
    }
    if (x->kind == CR_POL_INSERT_CALL) ck_assert_str_eq(x->call, y->call);
  }
  ck_assert(strstr(a, "<redirect class=\"java/lang/Class\" "
                      "from=\"jdk/internal/reflect/Reflection.filterMethods("
                      "Ljava/lang/Class;[Ljava/lang/reflect/Method;)"
                      "[Ljava/lang/reflect/Method;\" to=\"cccp/rt/Reflect."
                      "filterMethods("));
  ck_assert(strstr(a, "<insert-call class=\"java/lang/Thread\" "
                      "name=\"exit\" desc=\"()V\" call=\"ended\" "
                      "id=\"thread-end\""));
  ck_assert(strstr(a, "<thread-field class=\"java/lang/Thread\" "
                      "name=\"cccp$slot\" desc=\"Lcccp/rt/CC$Slot;\" "
                      "id=\"thread-slot\""));
  ck_assert(strstr(a, "<redirect class=\"x/*\" from=\"a/*.get*\" "
                      "remove=\"1\""));
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
    if (!rc) rc = cr_policy_load_mem(p, JDK, strlen(JDK), "jdk", &d);
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
    JDK,
    "<policy><redirect class='x' from='a/B.c' remove='1'/>"
    "<redirect from='a/B.c()V' to='x/Y.z(I)V'/></policy>",
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
  /* the checks of the other kinds hold for the C interface too */
  size_t n = cr_policy_count(p);
  cr_pol_rule j = {.kind = CR_POL_REDIRECT, .native = -1, .virt = -1,
                   .sigpoly = -1, .from = {"a/B", "c", "()V"}};
  cr_diag_clear(&d);
  ck_assert_int_eq(cr_policy_add(p, &j, &d), CR_EUSAGE);
  ck_assert_msg(strstr(d.msg, "policy: <redirect>: from and to"), "%s",
                d.msg);
  j.to = (cr_pol_ref){"x/Y", "z", "()V"};
  j.virt = 1;
  cr_diag_clear(&d);
  ck_assert_int_eq(cr_policy_add(p, &j, &d), CR_EUSAGE);
  j.virt = -1;
  j.remove = 2;
  cr_diag_clear(&d);
  ck_assert_int_eq(cr_policy_add(p, &j, &d), CR_EUSAGE);
  j.remove = 0;
  j.call = "ended";
  cr_diag_clear(&d);
  ck_assert_int_eq(cr_policy_add(p, &j, &d), CR_EUSAGE);
  j.call = NULL;
  ck_assert_int_eq(cr_policy_add(p, &j, &d), 0);
  r.kind = CR_POL_NONOVL;
  r.remove = 1;
  cr_diag_clear(&d);
  ck_assert_int_eq(cr_policy_add(p, &r, &d), CR_EUSAGE);
  ck_assert_uint_eq(cr_policy_count(p), n + 1);
  ck_assert_int_eq(cr_policy_removed(p, n + 5), 1);   /* out of range */
  cr_policy_free(p);
}
END_TEST

static Suite *suite(void) {
  Suite *s = suite_create("policy");
  TCase *tc = tcase_create("xml");
  tcase_add_test(tc, test_policy_xml__glob);
  tcase_add_test(tc, test_policy_xml__builtin);
  tcase_add_test(tc, test_policy_xml__select);
  tcase_add_test(tc, test_policy_xml__good_file);
  tcase_add_test(tc, test_policy_xml__jdk_builtin);
  tcase_add_test(tc, test_policy_xml__jdk_file);
  tcase_add_test(tc, test_policy_xml__removals);
  tcase_add_test(tc, test_policy_xml__parse_ref);
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
