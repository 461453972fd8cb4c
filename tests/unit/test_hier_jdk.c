/*
** test_hier_jdk.c -- the analysis on JDK 17's java.base: golden facts,
** golden category counts (tests/data/golden/hier-java.base-17.txt), the
** rule-based call-site answer against the exhaustive oracle, summaries
** ([java.base summary + app] == [java.base + app]), app mode, exemptions.
** Skipped, with a message, when the jmod is missing.
*/
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cccp/classfile.h"
#include "cccp/hier.h"
#include "cccp/io.h"
#include "testutil.h"

#define BASE_JMOD TU_JDK "/java.base.jmod"
#define GOLDEN "tests/data/golden/hier-java.base-17.txt"

static int have_jdk(void) {
  if (access(BASE_JMOD, R_OK) == 0) return 1;
  printf("test_hier_jdk: SKIPPED: %s not found\n", BASE_JMOD);
  return 0;
}

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static void add_input(cr_hier *h, const char *path, int inst, uint64_t base) {
  cr_diag d;
  cr_diag_clear(&d);
  cr_input *in;
  ck_assert_int_eq(cr_input_open(&in, path, &d), 0);
  for (size_t i = 0; i < cr_input_count(in); i++) {
    cr_entry_info e;
    cr_input_info(in, i, &e);
    size_t l = strlen(e.name);
    if (l < 6 || strcmp(e.name + l - 6, ".class") != 0) continue;
    uint8_t *b;
    size_t n;
    ck_assert_int_eq(cr_input_read(in, i, &b, &n, &d), 0);
    cr_arena *a = cr_arena_new();
    cr_class *c;
    ck_assert_int_eq(cr_cf_parse(&c, a, b, n, &d), 0);
    ck_assert_int_eq(cr_hier_add_class(h, c, inst, base + i, &d), 0);
    cr_arena_free(a);
    cr_free(b);
  }
  cr_input_close(in);
}

/* The hi/ fixtures as the "application" (all instrumented). */
static void add_app(cr_hier *h) {
  tu_files f;
  char dir[4096];
  ck_assert_ptr_nonnull(tu_fixtures());
  snprintf(dir, sizeof dir, "%s/hi", tu_fixtures());
  ck_assert_int_eq(tu_list_classes(&f, dir), 0);
  for (size_t i = 0; i < f.n; i++) {
    if (strstr(f.path[i], "/Cy")) continue;     /* the cycle pair */
    size_t n;
    uint8_t *b = tu_slurp(f.path[i], &n);
    cr_diag d;
    cr_diag_clear(&d);
    cr_arena *a = cr_arena_new();
    cr_class *c;
    ck_assert_int_eq(cr_cf_parse(&c, a, b, n, &d), 0);
    ck_assert_int_eq(cr_hier_add_class(h, c, 1, (2ull << 32) + i, &d), 0);
    cr_arena_free(a);
    free(b);
  }
  tu_files_free(&f);
}

static cr_hier *base(int inst, int app, const char *xml) {
  cr_hier *h;
  cr_diag d;
  cr_diag_clear(&d);
  ck_assert_int_eq(cr_hier_new(&h, &d), 0);
  add_input(h, BASE_JMOD, inst, 1ull << 32);
  if (app) add_app(h);
  ck_assert_int_eq(cr_hier_link(h, &d), 0);
  cr_policy *p;
  ck_assert_int_eq(cr_policy_new(&p, 1, &d), 0);
  if (xml)
    ck_assert_int_eq(cr_policy_load_mem(p, xml, strlen(xml), "x", &d), 0);
  ck_assert_int_eq(cr_hier_analyze(h, p, &d), 0);
  cr_policy_free(p);
  return h;
}

static const cr_hmethod *get(cr_hier *h, const char *c, const char *n,
                             const char *de) {
  const cr_hmethod *m = cr_hier_method(h, c, n, de);
  ck_assert_msg(m != NULL, "%s.%s%s missing", c, n, de);
  return m;
}

#define OBJ "Ljava/lang/Object;"
#define STR "Ljava/lang/String;"

START_TEST(test_hier_jdk__golden_facts) {
  if (!have_jdk()) return;
  cr_hier *h = base(1, 0, NULL);
  char why[1024];
  const cr_hmethod *m;
  m = get(h, "java/lang/Object", "toString", "()" STR);
  ck_assert(!cr_hmethod_overloadable(m));
  ck_assert_str_eq(cr_hier_reason(m, 0, why, sizeof why),
                   "seed object-virtual");
  m = get(h, "java/lang/String", "toString", "()" STR);
  ck_assert(cr_hmethod_overloadable(m));
  ck_assert(cr_hier_site(h, "java/lang/String", "toString", "()" STR,
                         CR_SITE_VIRTUAL, NULL));
  ck_assert(!cr_hier_site(h, "java/util/Comparator", "equals", "(" OBJ ")Z",
                          CR_SITE_INTERFACE, NULL));
  /* every known CharSequence overrides toString: an unknown one reaches
     Object.toString through the twin's default fallback */
  ck_assert(cr_hier_site(h, "java/lang/CharSequence", "toString", "()" STR,
                         CR_SITE_INTERFACE, NULL));
  m = get(h, "java/util/Comparator", "equals", "(" OBJ ")Z");
  ck_assert(!cr_hmethod_overloadable(m));
  cr_hier_reason(m, 0, why, sizeof why);
  ck_assert_msg(strncmp(why, "rule 3 via ", 11) == 0 &&
                strstr(why, "inheriting (rule 2) java/lang/Object.equals"
                            "(Ljava/lang/Object;)Z < seed object-virtual"),
                "%s", why);
  m = get(h, "java/lang/Class", "forName", "(" STR ")Ljava/lang/Class;");
  ck_assert(cr_hmethod_flags(m) & CR_HM_CALLER_SENSITIVE);
  ck_assert(!cr_hmethod_wrappable(m));
  ck_assert(cr_hmethod_overloadable(m));
  ck_assert_str_eq(cr_hier_reason(m, 1, why, sizeof why),
                   "seed caller-sensitive");
  m = get(h, "java/lang/invoke/MethodHandle", "invokeExact",
          "([" OBJ ")" OBJ);
  ck_assert(cr_hmethod_access(m) & 0x100);
  ck_assert(cr_hmethod_flags(m) & CR_HM_POLYSIG);
  ck_assert(!cr_hmethod_overloadable(m));
  /* a signature-polymorphic call site resolves to it, any descriptor */
  const cr_hmethod *t;
  ck_assert(!cr_hier_site(h, "java/lang/invoke/MethodHandle", "invokeExact",
                          "(ILjava/lang/String;)J", CR_SITE_VIRTUAL, &t));
  ck_assert_ptr_eq(t, m);
  m = get(h, "java/lang/reflect/Method", "invoke",
          "(" OBJ "[" OBJ ")" OBJ);
  ck_assert(!cr_hmethod_overloadable(m));
  ck_assert_str_eq(cr_hier_reason(m, 0, why, sizeof why),
                   "seed method-invoke");
  m = get(h, "java/util/ArrayList", "add", "(" OBJ ")Z");
  ck_assert(cr_hmethod_overloadable(m) && cr_hmethod_wrappable(m));
  ck_assert(cr_hier_site(h, "java/util/ArrayList", "add", "(" OBJ ")Z",
                         CR_SITE_VIRTUAL, NULL));
  m = get(h, "jdk/internal/reflect/Reflection", "getCallerClass",
          "()Ljava/lang/Class;");
  ck_assert(!cr_hmethod_overloadable(m));
  ck_assert_str_eq(cr_hier_reason(m, 0, why, sizeof why),
                   "native and non-wrappable < seed caller-sensitive");
  m = get(h, "java/lang/Object", "<init>", "()V");
  ck_assert(!cr_hmethod_overloadable(m));
  m = get(h, "java/security/AccessController", "executePrivileged",
          "(Ljava/security/PrivilegedAction;Ljava/security/"
          "AccessControlContext;Ljava/lang/Class;)" OBJ);
  ck_assert(!cr_hmethod_overloadable(m));
  ck_assert(cr_hmethod_flags(m) & CR_HM_HIDDEN);
  ck_assert(!cr_hier_site(h, "[I", "clone", "()" OBJ, CR_SITE_VIRTUAL,
                          NULL));
  ck_assert(cr_hmethod_flags(get(h, "java/lang/Math", "sin", "(D)D")) &
            CR_HM_INTRINSIC);
  cr_hier_free(h);
}
END_TEST

/* Counts of the analysis, and seeds per rule id, as "key value" lines. */
static char *counts(cr_hier *h) {
  cr_hier_stats s;
  cr_hier_stats_get(h, &s);
  char *out = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&out, &len);
  fprintf(f, "classes %zu\ninterfaces %zu\nmethods %zu\nvirtual %zu\n"
             "native %zu\nnonoverloadable %zu\nnonoverloadable.seed %zu\n"
             "nonoverloadable.native_nonwrappable %zu\n"
             "nonoverloadable.rule1 %zu\nnonoverloadable.rule3 %zu\n"
             "nonoverloadable.native %zu\nnonwrappable %zu\n"
             "nonwrappable.implied %zu\nmissing %zu\n",
          s.classes, s.interfaces, s.methods, s.virt, s.natives, s.nonovl,
          s.by_seed, s.by_native_nonwrap, s.by_rule1, s.by_rule3,
          s.nonovl_native, s.nonwrap, s.by_implied, s.missing);
  /* seeds per rule id, in a fixed order */
  static const char *const ids[] = {
    "object-virtual", "object-init", "clinit", "signature-polymorphic",
    "signature-polymorphic-shape", "method-invoke", "lambda-form-compiled",
    "execute-privileged", "scoped-value-bindings", "caller-sensitive",
    "get-caller-class", "security-manager-stack", "access-control-stack",
    "do-privileged-native", "fill-in-stack-trace", "stack-walker",
    "continuation", "stack-depth-idiom"};
  for (size_t k = 0; k < sizeof ids / sizeof ids[0]; k++) {
    size_t no = 0, nw = 0;
    char want[128], why[2048];
    snprintf(want, sizeof want, "seed %s", ids[k]);
    for (size_t i = 0; i < cr_hier_class_count(h); i++) {
      const cr_hclass *c = cr_hier_class_at(h, i);
      if (!cr_hclass_instrumented(c)) continue;
      for (uint32_t j = 0; j < cr_hclass_method_count(c); j++) {
        const cr_hmethod *m = cr_hclass_method_at(c, j);
        if (strcmp(cr_hier_reason(m, 0, why, sizeof why), want) == 0) no++;
        if (strcmp(cr_hier_reason(m, 1, why, sizeof why), want) == 0) nw++;
      }
    }
    fprintf(f, "seed.%s.nonoverloadable %zu\nseed.%s.nonwrappable %zu\n",
            ids[k], no, ids[k], nw);
  }
  fclose(f);
  return out;
}

START_TEST(test_hier_jdk__golden_counts) {
  if (!have_jdk()) return;
  cr_hier *h = base(1, 0, NULL);
  char *counted = counts(h);
  char *got = malloc(strlen(counted) + 2);
  got[0] = '\n';
  strcpy(got + 1, counted);
  free(counted);
  size_t n;
  char *gold = (char *)tu_slurp(GOLDEN, &n);
  if (getenv("CCCP_GOLDEN_PRINT")) printf("%s", got);
  ck_assert_msg(gold != NULL, "%s missing", GOLDEN);
  /* compare "key value" lines; '#' starts a comment */
  char *save = NULL;
  size_t checked = 0;
  for (char *line = strtok_r(gold, "\n", &save); line;
       line = strtok_r(NULL, "\n", &save)) {
    char *hash = strchr(line, '#');
    if (hash) *hash = 0;
    char key[128];
    unsigned long want;
    if (sscanf(line, "%127s %lu", key, &want) != 2) continue;
    char pat[160];
    snprintf(pat, sizeof pat, "\n%s ", key);
    char *hit = strstr(got, pat);
    ck_assert_msg(hit != NULL, "key %s not computed", key);
    hit++;
    unsigned long have = strtoul(hit + strlen(key) + 1, NULL, 10);
    ck_assert_msg(have == want, "%s: golden %lu, now %lu", key, want, have);
    checked++;
  }
  ck_assert_uint_ge(checked, 14);
  free(gold);
  free(got);
  cr_hier_free(h);
}
END_TEST

/*
** The rule-based call-site answer agrees with the exhaustive oracle for
** every class and every virtual method it declares or an interface of it
** declares.
*/
START_TEST(test_hier_jdk__site_oracle) {
  if (!have_jdk()) return;
  cr_hier *h = base(1, 1, NULL);
  size_t n = 0, pass = 0;
  double t0 = now();
  for (size_t i = 0; i < cr_hier_class_count(h); i++) {
    const cr_hclass *c = cr_hier_class_at(h, i);
    const char *name = cr_hclass_name(c);
    int itf = (cr_hclass_access(c) & 0x200) != 0;
    for (uint32_t k = 0; k < cr_hclass_method_count(c); k++) {
      const cr_hmethod *m = cr_hclass_method_at(c, k);
      if (!(cr_hmethod_flags(m) & CR_HM_VIRTUAL)) continue;
      int kind = itf ? CR_SITE_INTERFACE : CR_SITE_VIRTUAL;
      int fast = cr_hier_site(h, name, cr_hmethod_name(m),
                              cr_hmethod_desc(m), kind, NULL);
      int slow = cr_hier_site_exhaustive(h, name, cr_hmethod_name(m),
                                         cr_hmethod_desc(m), kind);
      ck_assert_msg(fast == slow, "%s.%s%s: rules %d, oracle %d", name,
                    cr_hmethod_name(m), cr_hmethod_desc(m), fast, slow);
      n++;
      pass += (size_t)fast;
    }
  }
  printf("site oracle: %zu virtual call targets, %zu may pass the node "
         "(%.2fs)\n", n, pass, now() - t0);
  cr_hier_free(h);
}
END_TEST

/* Every method's flags of every class in 'names', one line each. */
static char *dump(cr_hier *h, const char *const *names, size_t k) {
  cr_buf b;
  cr_buf_init(&b);
  for (size_t i = 0; i < k; i++) {
    const cr_hclass *c = cr_hier_class(h, names[i]);
    ck_assert_msg(c != NULL, "%s missing", names[i]);
    for (uint32_t j = 0; j < cr_hclass_method_count(c); j++) {
      const cr_hmethod *m = cr_hclass_method_at(c, j);
      char line[2048];
      snprintf(line, sizeof line, "%s.%s%s %u %d\n", names[i],
               cr_hmethod_name(m), cr_hmethod_desc(m), cr_hmethod_flags(m),
               cr_hier_site(h, names[i], cr_hmethod_name(m),
                            cr_hmethod_desc(m), CR_SITE_VIRTUAL, NULL));
      cr_buf_puts(&b, line);
    }
  }
  cr_buf_u1(&b, 0);
  return (char *)b.data;
}

/* A policy whose seeds reach into java.base from the application. */
static const char APPSEEDS[] =
    "<policy><nonoverloadable class='hi/R1C' name='m'/>"
    "<nonoverloadable class='hi/LbSub' name='m'/></policy>";

START_TEST(test_hier_jdk__summary_equality) {
  if (!have_jdk()) return;
  char dir[] = "/tmp/cccp-hjdk-XXXXXX";
  ck_assert_ptr_nonnull(mkdtemp(dir));
  char path[128];
  snprintf(path, sizeof path, "%s/java.base.sum", dir);
  cr_diag d;
  cr_diag_clear(&d);
  /* the JDK alone, saved */
  cr_hier *j = base(1, 0, NULL);
  double t0 = now();
  ck_assert_int_eq(cr_hier_save(j, path, &d), 0);
  double t1 = now();
  cr_hier_free(j);
  /* [JDK + app] */
  cr_hier *both = base(1, 1, APPSEEDS);
  /* [summary + app] */
  cr_hier *s;
  ck_assert_int_eq(cr_hier_new(&s, &d), 0);
  double t2 = now();
  ck_assert_int_eq(cr_hier_load(s, path, &d), 0);
  double t3 = now();
  add_app(s);
  ck_assert_int_eq(cr_hier_link(s, &d), 0);
  cr_policy *p;
  ck_assert_int_eq(cr_policy_new(&p, 1, &d), 0);
  ck_assert_int_eq(cr_policy_load_mem(p, APPSEEDS, strlen(APPSEEDS), "a",
                                      &d), 0);
  ck_assert_int_eq(cr_hier_analyze(s, p, &d), 0);
  cr_policy_free(p);
  printf("summary: save %.3fs, load %.3fs\n", t1 - t0, t3 - t2);
  static const char *const names[] = {
    "java/lang/Object", "java/lang/String", "java/util/Comparator",
    "java/util/AbstractList", "java/util/ArrayList", "java/lang/Class",
    "java/lang/invoke/MethodHandle", "hi/R1A", "hi/R1C", "hi/R3I", "hi/CI",
    "hi/DfTop", "hi/NaA", "hi/LbBase", "hi/LbSub", "hi/MsA", "hi/MsMissing"};
  char *a = dump(both, names, sizeof names / sizeof names[0]);
  char *b = dump(s, names, sizeof names / sizeof names[0]);
  ck_assert_str_eq(a, b);
  /* the whole report too */
  char *ra = NULL, *rb = NULL;
  size_t na = 0, nb = 0;
  FILE *f = open_memstream(&ra, &na);
  ck_assert_int_eq(cr_hier_write_report(both, f, &d), 0);
  fclose(f);
  f = open_memstream(&rb, &nb);
  ck_assert_int_eq(cr_hier_write_report(s, f, &d), 0);
  fclose(f);
  ck_assert_uint_eq(na, nb);
  ck_assert(memcmp(ra, rb, na) == 0);
  /* the app seeds changed nothing in java.base: no conflicts */
  ck_assert_uint_eq(cr_hier_conflict_count(s), 0);
  free(ra);
  free(rb);
  free(a);
  free(b);
  cr_hier_free(both);
  cr_hier_free(s);
  unlink(path);
  rmdir(dir);
}
END_TEST

/* App mode: java.base as a library; the app's own answers stand. */
START_TEST(test_hier_jdk__app_mode) {
  if (!have_jdk()) return;
  double t0 = now();
  cr_hier *h = base(0, 1, NULL);
  printf("app mode (java.base library + fixtures): %.3fs\n", now() - t0);
  ck_assert(!cr_hmethod_overloadable(
      get(h, "java/lang/String", "toString", "()" STR)));
  ck_assert(!cr_hier_site(h, "java/util/ArrayList", "add", "(" OBJ ")Z",
                          CR_SITE_VIRTUAL, NULL));
  ck_assert(cr_hmethod_overloadable(get(h, "hi/R1E", "m", "()V")));
  ck_assert(cr_hier_site(h, "hi/R1E", "m", "()V", CR_SITE_VIRTUAL, NULL));
  cr_hier_stats s;
  cr_hier_stats_get(h, &s);
  ck_assert_uint_gt(s.library, 6000);
  ck_assert_uint_lt(s.instrumented, 100);
  cr_hier_free(h);
}
END_TEST

/* Exemptions drop seeds, not rules. */
START_TEST(test_hier_jdk__exemption) {
  if (!have_jdk()) return;
  cr_hier *h = base(1, 0,
                    "<policy><wrappable class='java/lang/Class' "
                    "name='forName' desc='(Ljava/lang/String;)*'/><overloadable class='java/lang/reflect/"
                    "Method' name='invoke'/></policy>");
  ck_assert(cr_hmethod_wrappable(
      get(h, "java/lang/Class", "forName", "(" STR ")Ljava/lang/Class;")));
  ck_assert(cr_hmethod_overloadable(
      get(h, "java/lang/reflect/Method", "invoke", "(" OBJ "[" OBJ ")" OBJ)));
  ck_assert(!cr_hmethod_wrappable(get(h, "java/lang/Class", "forName",
                                      "(" STR "Z"
                                      "Ljava/lang/ClassLoader;)"
                                      "Ljava/lang/Class;")));
  cr_hier_free(h);
}
END_TEST

static Suite *suite(void) {
  Suite *s = suite_create("hier");
  TCase *tc = tcase_create("jdk");
  tcase_set_timeout(tc, 300);
  tcase_add_test(tc, test_hier_jdk__golden_facts);
  tcase_add_test(tc, test_hier_jdk__golden_counts);
  tcase_add_test(tc, test_hier_jdk__site_oracle);
  tcase_add_test(tc, test_hier_jdk__summary_equality);
  tcase_add_test(tc, test_hier_jdk__app_mode);
  tcase_add_test(tc, test_hier_jdk__exemption);
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
