/*
** test_hier_jdk.c -- the analysis on JDK 17's java.base: golden facts,
** category counts against a recount of the jmod and their invariants on
** any build, exact golden counts on the build they were recorded on
** (tests/data/golden/hier-java.base-17.txt), the
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

/*
** Calls 'fn' on each class file of the input at 'path', parsed, with the
** entry's index; the class is freed after the call.
*/
static void each_class(const char *path,
                       void (*fn)(cr_class *c, size_t i, void *ctx),
                       void *ctx) {
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
    fn(c, i, ctx);
    cr_arena_free(a);
    cr_free(b);
  }
  cr_input_close(in);
}

typedef struct adding {
  cr_hier *h;
  int inst;
  uint64_t base;
} adding;

static void add_one(cr_class *c, size_t i, void *ctx) {
  adding *x = ctx;
  cr_diag d;
  cr_diag_clear(&d);
  ck_assert_int_eq(cr_hier_add_class(x->h, c, x->inst, x->base + i, &d), 0);
}

static void add_input(cr_hier *h, const char *path, int inst, uint64_t base) {
  adding x = {h, inst, base};
  each_class(path, add_one, &x);
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
    "continuation", "stack-depth-idiom", "iface-clinit"};
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

/* The value of "key" in a counts() text; fails when it is absent. */
static unsigned long count_of(const char *got, const char *key) {
  char pat[160];
  snprintf(pat, sizeof pat, "\n%s ", key);
  const char *hit = strstr(got, pat);
  ck_assert_msg(hit != NULL, "key %s not computed", key);
  return strtoul(hit + strlen(pat), NULL, 10);
}

/* counts(h) with a newline in front, so that every key follows one. */
static char *counted(cr_hier *h) {
  char *c = counts(h);
  char *got = malloc(strlen(c) + 2);
  ck_assert_ptr_nonnull(got);
  got[0] = '\n';
  strcpy(got + 1, c);
  free(c);
  if (getenv("CCCP_GOLDEN_PRINT")) printf("%s", got);
  return got;
}

/* What the class files of the jmod say, counted without the hierarchy. */
typedef struct recount {
  unsigned long classes, interfaces, methods, virt, natives, clinits;
  unsigned long object_virtual;   /* java/lang/Object's virtual methods */
  unsigned long polysig;          /* MethodHandle/VarHandle native varargs
                                     taking Object[] */
  unsigned long iface_clinit;     /* abstract methods of interfaces with a
                                     <clinit> and no default method */
} recount;

static void recount_one(cr_class *c, size_t i, void *ctx) {
  recount *r = ctx;
  (void)i;
  const char *cn = cr_cf_this_name(c);
  if (c->flags & 0x8000) return;            /* module-info */
  r->classes++;
  if (c->flags & 0x0200) r->interfaces++;
  int obj = strcmp(cn, "java/lang/Object") == 0;
  int mh = strcmp(cn, "java/lang/invoke/MethodHandle") == 0 ||
           strcmp(cn, "java/lang/invoke/VarHandle") == 0;
  unsigned long abs = 0;
  int clinit = 0, dflt = 0;
  for (uint32_t k = 0; k < c->nmethods; k++) {
    const cr_member *m = &c->methods[k];
    const char *mn = cr_member_name(c, m), *md = cr_member_desc(c, m);
    r->methods++;
    int v = !(m->flags & 0x000a) && mn[0] != '<';  /* private|static */
    r->virt += (unsigned long)v;
    r->object_virtual += (unsigned long)(v && obj);
    r->natives += (m->flags & 0x0100) != 0;
    r->clinits += strcmp(mn, "<clinit>") == 0;
    r->polysig += mh && (m->flags & 0x0180) == 0x0180 &&
                  strncmp(md, "([Ljava/lang/Object;)", 21) == 0;
    if (strcmp(mn, "<clinit>") == 0) clinit = 1;
    else if (!(m->flags & 0x0408)) dflt = 1;   /* abstract|static */
    abs += (m->flags & 0x0400) != 0;
  }
  if ((c->flags & 0x0200) && clinit && !dflt) r->iface_clinit += abs;
}

static void recount_jmod(const char *path, recount *r) {
  memset(r, 0, sizeof *r);
  each_class(path, recount_one, r);
}

/*
** Facts that hold on any build of the JDK, checked on the one at hand:
** the hierarchy's counts against a recount of the jmod's class files, the
** categories adding up, the seeds the class files determine, and every
** category that the analysis must find in java.base non-empty. (Exact
** counts differ between builds: 17.0.15 has 6425 classes in java.base,
** 17.0.21 6499.)
*/
START_TEST(test_hier_jdk__count_invariants) {
  if (!have_jdk()) return;
  recount r;
  recount_jmod(BASE_JMOD, &r);
  cr_hier *h = base(1, 0, NULL);
  char *got = counted(h);
  ck_assert_uint_gt(r.classes, 5000);
  ck_assert_uint_eq(count_of(got, "classes"), r.classes);
  ck_assert_uint_eq(count_of(got, "interfaces"), r.interfaces);
  ck_assert_uint_eq(count_of(got, "methods"), r.methods);
  ck_assert_uint_eq(count_of(got, "virtual"), r.virt);
  ck_assert_uint_eq(count_of(got, "native"), r.natives);
  ck_assert_uint_eq(count_of(got, "missing"), 0);   /* java.base is closed */
  /* seeds the class files decide */
  ck_assert_uint_eq(r.object_virtual, 11);
  ck_assert_uint_eq(count_of(got, "seed.object-virtual.nonoverloadable"),
                    r.object_virtual);
  ck_assert_uint_eq(count_of(got, "seed.object-init.nonoverloadable"), 1);
  ck_assert_uint_eq(count_of(got, "seed.clinit.nonoverloadable"),
                    r.clinits);
  ck_assert_uint_gt(r.polysig, 0);
  ck_assert_uint_eq(
      count_of(got, "seed.signature-polymorphic.nonoverloadable") +
          count_of(got, "seed.signature-polymorphic-shape.nonoverloadable"),
      r.polysig);
  /* the categories add up */
  unsigned long nonovl = count_of(got, "nonoverloadable");
  unsigned long seed = count_of(got, "nonoverloadable.seed");
  ck_assert_uint_eq(nonovl,
                    seed + count_of(got, "nonoverloadable.native_nonwrappable")
                        + count_of(got, "nonoverloadable.rule1")
                        + count_of(got, "nonoverloadable.rule3"));
  unsigned long seeds_no = 0, seeds_nw = 0;
  for (const char *p = got; (p = strstr(p, "\nseed.")) != NULL; p++) {
    char key[160];
    unsigned long v;
    if (sscanf(p + 1, "%159s %lu", key, &v) != 2) continue;
    size_t kl = strlen(key);
    if (kl > 16 && strcmp(key + kl - 16, ".nonoverloadable") == 0)
      seeds_no += v;
    else if (kl > 13 && strcmp(key + kl - 13, ".nonwrappable") == 0)
      seeds_nw += v;
  }
  /* every seed has its id; iface-clinit: the abstract methods of
  ** interfaces whose initialisation a default method would move */
  ck_assert_uint_eq(seed, seeds_no);
  ck_assert_uint_gt(r.iface_clinit, 0);
  ck_assert_uint_eq(count_of(got, "seed.iface-clinit.nonoverloadable"),
                    r.iface_clinit);
  unsigned long nonwrap = count_of(got, "nonwrappable");
  unsigned long implied = count_of(got, "nonwrappable.implied");
  ck_assert_uint_eq(nonwrap, implied + seeds_nw);
  ck_assert_uint_le(implied, nonovl);     /* non-overloadable => ... */
  ck_assert_uint_ge(nonwrap, nonovl);     /* ... non-wrappable */
  ck_assert_uint_le(count_of(got, "nonoverloadable.native"), r.natives);
  /* categories java.base must populate (golden_facts names members) */
  static const char *const nonempty[] = {
      "nonoverloadable.native_nonwrappable", "nonoverloadable.rule3",
      "seed.method-invoke.nonoverloadable",
      "seed.lambda-form-compiled.nonoverloadable",
      "seed.execute-privileged.nonoverloadable",
      "seed.caller-sensitive.nonwrappable",
      "seed.security-manager-stack.nonwrappable",
      "seed.access-control-stack.nonwrappable",
      "seed.fill-in-stack-trace.nonwrappable",
      "seed.stack-walker.nonwrappable"};
  for (size_t k = 0; k < sizeof nonempty / sizeof nonempty[0]; k++)
    ck_assert_msg(count_of(got, nonempty[k]) > 0, "%s is empty",
                  nonempty[k]);
  free(got);
  cr_hier_free(h);
}
END_TEST

/* The JDK's version ("17.0.15") from the 'release' file beside 'jmods'
** into 'out'; "" when there is none. */
static void jdk_version(char *out, size_t n) {
  out[0] = 0;
  size_t len;
  char *rel = (char *)tu_slurp(TU_JDK "/../release", &len);
  if (!rel) return;
  const char *k = strstr(rel, "\nJAVA_VERSION=\"");
  if (k) sscanf(k + 15, "%63[^\"]", out);
  (void)n;
  free(rel);
}

/*
** Exact counts as recorded (tests/data/golden), on the JDK build they were
** recorded on (the file's "jdk" line); on another build they are only
** printed, and the invariants above are what is checked.
*/
START_TEST(test_hier_jdk__golden_counts) {
  if (!have_jdk()) return;
  size_t n;
  char *gold = (char *)tu_slurp(GOLDEN, &n);
  ck_assert_msg(gold != NULL, "%s missing", GOLDEN);
  char have[64], want[64] = "";
  jdk_version(have, sizeof have);
  const char *jl = strstr(gold, "\njdk ");
  ck_assert_msg(jl != NULL, "%s: no 'jdk VERSION' line", GOLDEN);
  sscanf(jl + 5, "%63s", want);
  if (strcmp(have, want) != 0) {
    printf("test_hier_jdk: exact golden counts are for JDK %s, this is %s: "
           "invariants only\n", want, have[0] ? have : "(no release file)");
    free(gold);
    return;
  }
  cr_hier *h = base(1, 0, NULL);
  char *got = counted(h);
  /* compare "key value" lines; '#' starts a comment */
  char *save = NULL;
  size_t checked = 0;
  for (char *line = strtok_r(gold, "\n", &save); line;
       line = strtok_r(NULL, "\n", &save)) {
    char *hash = strchr(line, '#');
    if (hash) *hash = 0;
    char key[128];
    unsigned long v;
    if (sscanf(line, "%127s %lu", key, &v) != 2 || strcmp(key, "jdk") == 0)
      continue;
    unsigned long now_v = count_of(got, key);
    ck_assert_msg(now_v == v, "%s: golden %lu, now %lu", key, v, now_v);
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

/* 1 if method 'n' 'de' of class 'c' is a leaf. */
static int jleaf(cr_hier *h, const char *c, const char *n, const char *de) {
  return (cr_hmethod_flags(get(h, c, n, de)) & CR_HM_LEAF) != 0;
}

/* The leaf analysis on java.base as a library (app mode), and its answers
** through a summary of a JDK module's classes. */
/* What 'cr_hier_virtual_leaves' gave. */
typedef struct vl {
  size_t n;
  int itr, size, other;
} vl;

static void note_vl(void *ctx, const cr_hmethod *m) {
  vl *v = ctx;
  const char *c = cr_hclass_name(cr_hmethod_class(m));
  const char *n = cr_hmethod_name(m);
  v->n++;
  ck_assert_msg(cr_hmethod_flags(m) & CR_HM_LEAF, "%s.%s", c, n);
  ck_assert_msg(cr_hmethod_flags(m) & CR_HM_VIRTUAL, "%s.%s", c, n);
  if (strcmp(c, "java/util/ArrayList$Itr") == 0 && strcmp(n, "hasNext") == 0)
    v->itr = 1;
  else if (strcmp(c, "java/util/ArrayList") == 0 && strcmp(n, "size") == 0)
    v->size = 1;
  else if (strcmp(n, "hasNext") != 0 && strcmp(n, "size") != 0)
    v->other = 1;
}

START_TEST(test_hier_jdk__leaves) {
  if (!have_jdk()) return;
  cr_hier *h;
  cr_diag d;
  cr_diag_clear(&d);
  ck_assert_int_eq(cr_hier_new(&h, &d), 0);
  add_input(h, BASE_JMOD, CR_HIER_JDK_MODULE, 1ull << 32);
  ck_assert_int_eq(cr_hier_link(h, &d), 0);
  /* leaves: no code, fields, static arithmetic, final classes, the
  ** natives that run no Java code */
  ck_assert(jleaf(h, "java/lang/Object", "<init>", "()V"));
  ck_assert(jleaf(h, "java/lang/Integer", "compare", "(II)I"));
  ck_assert(jleaf(h, "java/lang/Integer", "intValue", "()I"));
  ck_assert(jleaf(h, "java/lang/Long", "longValue", "()J"));
  ck_assert(jleaf(h, "java/lang/Enum", "ordinal", "()I"));
  ck_assert(jleaf(h, "java/lang/String", "length", "()I"));
  ck_assert(jleaf(h, "java/lang/System", "arraycopy",
                  "(" OBJ "I" OBJ "II)V"));
  /* Class.desiredAssertionStatus, which the <clinit> of a class with an
  ** assert calls: StringLatin1's, which String.equals starts */
  ck_assert(jleaf(h, "java/lang/Class", "desiredAssertionStatus", "()Z"));
  ck_assert(jleaf(h, "java/lang/StringLatin1", "<clinit>", "()V"));
  ck_assert(jleaf(h, "java/lang/String", "equals", "(" OBJ ")Z"));
  /* not: calls that may reach other code, natives that run Java code */
  ck_assert(!jleaf(h, "java/util/HashMap", "get", "(" OBJ ")" OBJ));
  ck_assert(!jleaf(h, "java/lang/Object", "wait", "(J)V"));
  ck_assert(!jleaf(h, "java/lang/Thread", "start", "()V"));
  ck_assert(!jleaf(h, "java/lang/Class", "forName",
                   "(" STR ")Ljava/lang/Class;"));
  ck_assert(!jleaf(h, "java/util/ArrayList", "sort",
                   "(Ljava/util/Comparator;)V"));
  ck_assert(!jleaf(h, "java/lang/Object", "toString", "()" STR));
  /* invariants: no abstract method is a leaf; leaves are neither rare
  ** nor most methods (any JDK update) */
  size_t nleaf = 0, nm = 0;
  for (size_t i = 0; i < cr_hier_class_count(h); i++) {
    const cr_hclass *c = cr_hier_class_at(h, i);
    for (uint32_t k = 0; k < cr_hclass_method_count(c); k++) {
      const cr_hmethod *m = cr_hclass_method_at(c, k);
      nm++;
      if (!(cr_hmethod_flags(m) & CR_HM_LEAF)) continue;
      nleaf++;
      ck_assert_msg(!(cr_hmethod_access(m) & 0x400), "abstract leaf %s.%s",
                    cr_hclass_name(c), cr_hmethod_name(m));
    }
  }
  printf("java.base: %zu leaves of %zu methods\n", nleaf, nm);
  /* each answer has its reason: none for a leaf, one for the others */
  char why[512];
  for (size_t i = 0; i < cr_hier_class_count(h); i++) {
    const cr_hclass *c = cr_hier_class_at(h, i);
    for (uint32_t k = 0; k < cr_hclass_method_count(c); k++) {
      const cr_hmethod *m = cr_hclass_method_at(c, k);
      cr_hier_leaf_reason(h, m, why, sizeof why);
      if (cr_hmethod_flags(m) & CR_HM_LEAF) ck_assert_str_eq(why, "");
      else
        ck_assert_msg(why[0] && strcmp(why, "not known") != 0, "%s.%s%s",
                      cr_hclass_name(c), cr_hmethod_name(m),
                      cr_hmethod_desc(m));
    }
  }
  cr_hier_leaf_reason(h, get(h, "java/util/Collections", "sort",
                             "(Ljava/util/List;)V"), why, sizeof why);
  ck_assert_str_eq(why, "it makes an interface call");
  cr_hier_leaf_reason(h, get(h, "java/lang/Object", "wait", "(J)V"), why,
                      sizeof why);
  ck_assert_str_eq(why, "a native method that may run Java code");
  cr_hier_leaf_reason(h, get(h, "java/util/Comparator", "compare",
                             "(" OBJ OBJ ")I"), why, sizeof why);
  ck_assert_ptr_nonnull(strstr(why, "abstract"));
  /* the first call that is not a leaf, named for --explain to follow */
  cr_hier_leaf_reason(h, get(h, "java/lang/Object", "wait", "()V"), why,
                      sizeof why);
  ck_assert_str_eq(why, "it calls java/lang/Object.wait(J)V, which is not a "
                   "leaf");
  ck_assert_uint_gt(nleaf, nm / 20);
  ck_assert_uint_lt(nleaf, nm / 2);
  /* the leaves a noted virtual call may select: nothing noted, none;
  ** Iterator.hasNext noted, ArrayList$Itr's (a leaf below it), not
  ** Scanner's (its own: not a leaf) nor a leaf of another name */
  vl got = {0};
  ck_assert_uint_eq(cr_hier_virtual_leaves(h, note_vl, &got), 0);
  cr_hier_note_virtual_site(get(h, "java/util/Iterator", "hasNext", "()Z"));
  size_t nv = cr_hier_virtual_leaves(h, note_vl, &got);
  ck_assert_uint_eq(nv, got.n);
  ck_assert(got.itr && !got.other);
  ck_assert(!jleaf(h, "java/util/Scanner", "hasNext", "()Z"));
  ck_assert_uint_lt(nv, 100);
  /* List.size noted: ArrayList.size, not String.length (another name) */
  cr_hier_note_virtual_site(get(h, "java/util/List", "size", "()I"));
  memset(&got, 0, sizeof got);
  cr_hier_virtual_leaves(h, note_vl, &got);
  ck_assert(got.itr && got.size && !got.other);
  /* a summary keeps them: a JDK module's classes */
  char dir[] = "/tmp/cccp-hleaf-XXXXXX";
  ck_assert_ptr_nonnull(mkdtemp(dir));
  char path[128];
  snprintf(path, sizeof path, "%s/base.sum", dir);
  ck_assert_int_eq(cr_hier_save(h, path, &d), 0);
  cr_hier *s;
  ck_assert_int_eq(cr_hier_new(&s, &d), 0);
  ck_assert_int_eq(cr_hier_load(s, path, &d), 0);
  ck_assert_int_eq(cr_hier_link(s, &d), 0);
  size_t same = 0;
  for (size_t i = 0; i < cr_hier_class_count(h); i++) {
    const cr_hclass *c = cr_hier_class_at(h, i);
    for (uint32_t k = 0; k < cr_hclass_method_count(c); k++) {
      const cr_hmethod *m = cr_hclass_method_at(c, k);
      const cr_hmethod *o = get(s, cr_hclass_name(c), cr_hmethod_name(m),
                                cr_hmethod_desc(m));
      same += ((cr_hmethod_flags(m) ^ cr_hmethod_flags(o)) & CR_HM_LEAF) == 0;
      if (!(cr_hmethod_flags(o) & CR_HM_LEAF) &&
          !(cr_hmethod_access(o) & 0x400))
        ck_assert_ptr_nonnull(strstr(cr_hier_leaf_reason(s, o, why,
                                                         sizeof why),
                                     "summary"));
    }
  }
  ck_assert_uint_eq(same, nm);
  cr_hier_free(s);
  unlink(path);
  rmdir(dir);
  cr_hier_free(h);
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
  tcase_add_test(tc, test_hier_jdk__count_invariants);
  tcase_add_test(tc, test_hier_jdk__golden_counts);
  tcase_add_test(tc, test_hier_jdk__site_oracle);
  tcase_add_test(tc, test_hier_jdk__summary_equality);
  tcase_add_test(tc, test_hier_jdk__app_mode);
  tcase_add_test(tc, test_hier_jdk__leaves);
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
