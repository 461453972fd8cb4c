/*
** test_hier_rules.c -- the hierarchy database and the analysis on small
** hierarchies compiled from tests/data/java/Hi*.java: each rule alone,
** chains, diamonds, defaults, abstract and native methods, non-virtual
** methods, the library boundary, missing supertypes, a cycle, the report,
** summaries (round trip and corruption) and adding from two threads.
*/
#include <check.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include <libxml/parser.h>

#include "cccp/classfile.h"
#include "cccp/hier.h"
#include "cccp/io.h"
#include "testutil.h"

#define BASE_JMOD TU_JDK "/java.base.jmod"

static const char SEEDS[] =
    "<policy>\n"
    "  <nonoverloadable class='hi/R1C' name='m' desc='()V' id='t-r1'/>\n"
    "  <nonoverloadable class='hi/R2A' name='m' id='t-r2'/>\n"
    "  <nonoverloadable class='hi/R3A' name='m' id='t-r3'/>\n"
    "  <nonoverloadable class='hi/CB' name='m' id='t-chain'/>\n"
    "  <nonoverloadable class='hi/DmC' name='m' id='t-diamond'/>\n"
    "  <nonoverloadable class='hi/DfI' name='m' id='t-default'/>\n"
    "  <nonoverloadable class='hi/NaB' name='m' id='t-abstract'/>\n"
    "  <nonwrappable class='hi/NaB' name='n' native='1' id='t-native'/>\n"
    "  <nonoverloadable class='hi/NvA' name='*' id='t-nonvirtual'/>\n"
    "</policy>\n";

/* java/lang/Object from JDK 17's java.base (bytes cached), or NULL. */
static uint8_t *object_bytes(size_t *len) {
  static uint8_t *b;
  static size_t n;
  static int tried;
  if (!tried) {
    tried = 1;
    cr_diag d;
    cr_diag_clear(&d);
    cr_input *in;
    if (cr_input_open(&in, BASE_JMOD, &d) == 0) {
      for (size_t i = 0; i < cr_input_count(in); i++) {
        cr_entry_info e;
        cr_input_info(in, i, &e);
        if (strcmp(e.name, "java/lang/Object.class") == 0) {
          if (cr_input_read(in, i, &b, &n, &d)) b = NULL;
          break;
        }
      }
      cr_input_close(in);
    }
    if (!b) printf("test_hier_rules: %s missing: no java/lang/Object\n",
                   BASE_JMOD);
  }
  *len = n;
  return b;
}

static void add_bytes(cr_hier *h, const uint8_t *b, size_t n, int inst,
                      uint64_t order, int patch_cycle) {
  cr_diag d;
  cr_diag_clear(&d);
  cr_arena *a = cr_arena_new();
  cr_class *c;
  ck_assert_int_eq(cr_cf_parse(&c, a, b, n, &d), 0);
  if (patch_cycle && strcmp(cr_cf_this_name(c), "hi/CyB") == 0) {
    /* point CyB's superclass at CyA (CyB.ref() holds a Class entry) */
    for (uint32_t i = 1; i < cr_cp_count(c->cp); i++)
      if (cr_cp_tag(c->cp, i) == CR_CP_CLASS &&
          strcmp(cr_cp_class_name(c->cp, i), "hi/CyA") == 0)
        c->super_class = (uint16_t)i;
  }
  ck_assert_int_eq(cr_hier_add_class(h, c, inst, order, &d), 0);
  cr_arena_free(a);
}

/* Kinds of fixture classes: -1 leave out, 0 library, 1 instrumented. */
static int kind_of(const char *simple) {
  if (strcmp(simple, "MsMissing") == 0) return -1;
  if (strcmp(simple, "LbBase") == 0 || strcmp(simple, "LbLibChild") == 0)
    return 0;
  return 1;
}

static tu_files hi_files(void) {
  tu_files f;
  char dir[4096];
  const char *fx = tu_fixtures();
  ck_assert_msg(fx != NULL, "CCCP_FIXTURES not set");
  snprintf(dir, sizeof dir, "%s/hi", fx);
  ck_assert_int_eq(tu_list_classes(&f, dir), 0);
  ck_assert_uint_gt(f.n, 40);
  return f;
}

static const char *simple_name(const char *path) {
  static char s[256];
  const char *b = strrchr(path, '/');
  snprintf(s, sizeof s, "%s", b ? b + 1 : path);
  char *dot = strstr(s, ".class");
  if (dot) *dot = 0;
  return s;
}

/* A new hierarchy holding java/lang/Object of kind 'kind' (when the JDK
** is there to take it from). */
static cr_hier *with_object(unsigned kind) {
  cr_hier *h;
  cr_diag d;
  cr_diag_clear(&d);
  ck_assert_int_eq(cr_hier_new(&h, &d), 0);
  size_t on;
  uint8_t *ob = object_bytes(&on);
  if (ob) add_bytes(h, ob, on, kind, 0, 0);
  return h;
}

/* Build, link and analyse the fixtures with the built-in policy plus
** SEEDS. 'cycle': patch the cycle in; then linking fails. */
static cr_hier *build(int cycle, int *link_rc, cr_diag *ld) {
  cr_hier *h = with_object(0);
  cr_diag d;
  cr_diag_clear(&d);
  tu_files f = hi_files();
  for (size_t i = 0; i < f.n; i++) {
    const char *s = simple_name(f.path[i]);
    int k = kind_of(s);
    if (k < 0) continue;
    if (!cycle && (strcmp(s, "CyA") == 0 || strcmp(s, "CyB") == 0)) continue;
    size_t n;
    uint8_t *b = tu_slurp(f.path[i], &n);
    ck_assert_ptr_nonnull(b);
    add_bytes(h, b, n, k, i + 1, cycle);
    free(b);
  }
  tu_files_free(&f);
  cr_diag_clear(ld);
  *link_rc = cr_hier_link(h, ld);
  cr_policy *p;
  ck_assert_int_eq(cr_policy_new(&p, 1, &d), 0);
  ck_assert_int_eq(cr_policy_load_mem(p, SEEDS, strlen(SEEDS), "seeds", &d),
                   0);
  ck_assert_int_eq(cr_hier_analyze(h, p, &d), 0);
  cr_policy_free(p);
  return h;
}

static const cr_hmethod *meth(cr_hier *h, const char *c, const char *n,
                              const char *de) {
  char cls[256];
  snprintf(cls, sizeof cls, "hi/%s", c);
  const cr_hmethod *m = cr_hier_method(h, cls, n, de);
  ck_assert_msg(m != NULL, "%s.%s%s not found", cls, n, de);
  return m;
}

static int ovl(cr_hier *h, const char *c, const char *n, const char *de) {
  const cr_hmethod *m = meth(h, c, n, de);
  /* the implication holds everywhere */
  if (!cr_hmethod_overloadable(m)) ck_assert(!cr_hmethod_wrappable(m));
  return cr_hmethod_overloadable(m);
}

static const char *why(cr_hier *h, const char *c, const char *n,
                       const char *de) {
  static char buf[1024];
  return cr_hier_reason(meth(h, c, n, de), 0, buf, sizeof buf);
}

static int site(cr_hier *h, const char *c, const char *n, const char *de,
                int kind) {
  char cls[256];
  snprintf(cls, sizeof cls, "hi/%s", c);
  int fast = cr_hier_site(h, cls, n, de, kind, NULL);
  int slow = cr_hier_site_exhaustive(h, cls, n, de, kind);
  ck_assert_msg(fast == slow, "site %s.%s: rules %d, oracle %d", cls, n,
                fast, slow);
  return fast;
}

#define HAS(s, frag) ck_assert_msg(strstr((s), (frag)), "'%s' lacks '%s'", \
                                   (s), (frag))

START_TEST(test_hier_rules__rule1) {
  int rc;
  cr_diag ld;
  cr_hier *h = build(0, &rc, &ld);
  ck_assert(!ovl(h, "R1C", "m", "()V"));
  HAS(why(h, "R1C", "m", "()V"), "seed t-r1");
  ck_assert(!ovl(h, "R1A", "m", "()V"));
  HAS(why(h, "R1A", "m", "()V"), "rule 1 from subclass hi/R1C.m()V");
  ck_assert(ovl(h, "R1A", "k", "()V"));
  ck_assert(ovl(h, "R1E", "m", "()V"));
  ck_assert(!site(h, "R1D", "m", "()V", CR_SITE_VIRTUAL));
  ck_assert(!site(h, "R1B", "m", "()V", CR_SITE_VIRTUAL));
  ck_assert(!site(h, "R1A", "m", "()V", CR_SITE_VIRTUAL));
  ck_assert(site(h, "R1E", "m", "()V", CR_SITE_VIRTUAL));
  ck_assert(site(h, "R1A", "k", "()V", CR_SITE_VIRTUAL));
  cr_hier_free(h);
}
END_TEST

START_TEST(test_hier_rules__rule2) {
  int rc;
  cr_diag ld;
  cr_hier *h = build(0, &rc, &ld);
  ck_assert(!ovl(h, "R2A", "m", "()V"));
  ck_assert(ovl(h, "R2C", "m", "()V"));
  ck_assert(!site(h, "R2B", "m", "()V", CR_SITE_VIRTUAL));
  ck_assert(site(h, "R2C", "m", "()V", CR_SITE_VIRTUAL));
  ck_assert_ptr_eq(cr_hier_select(h, "hi/R2B", "m", "()V"),
                   meth(h, "R2A", "m", "()V"));
  cr_hier_free(h);
}
END_TEST

START_TEST(test_hier_rules__rule3) {
  int rc;
  cr_diag ld;
  cr_hier *h = build(0, &rc, &ld);
  ck_assert(!ovl(h, "R3I", "m", "()V"));
  HAS(why(h, "R3I", "m", "()V"),
      "rule 3 via hi/R3B inheriting (rule 2) hi/R3A.m()V < seed t-r3");
  ck_assert(ovl(h, "R3J", "m", "()V"));
  ck_assert(ovl(h, "R3C", "m", "()V"));
  ck_assert(!site(h, "R3I", "m", "()V", CR_SITE_INTERFACE));
  ck_assert(site(h, "R3J", "m", "()V", CR_SITE_INTERFACE));
  cr_hier_free(h);
}
END_TEST

START_TEST(test_hier_rules__chain) {
  int rc;
  cr_diag ld;
  cr_hier *h = build(0, &rc, &ld);
  ck_assert(!ovl(h, "CB", "m", "()V"));
  ck_assert(!ovl(h, "CA", "m", "()V"));
  ck_assert(!ovl(h, "CI", "m", "()V"));
  HAS(why(h, "CI", "m", "()V"), "seed t-chain");
  ck_assert(ovl(h, "CC", "m", "()V"));
  ck_assert(ovl(h, "CJ", "m", "()V"));
  ck_assert(ovl(h, "CG", "m", "()V"));
  ck_assert(!site(h, "CF", "m", "()V", CR_SITE_VIRTUAL)); /* -> CI.m */
  ck_assert(site(h, "CG", "m", "()V", CR_SITE_VIRTUAL));
  ck_assert(site(h, "CD", "m", "()V", CR_SITE_VIRTUAL));  /* -> CC.m */
  ck_assert(site(h, "CJ", "m", "()V", CR_SITE_INTERFACE));
  cr_hier_free(h);
}
END_TEST

START_TEST(test_hier_rules__diamond_default) {
  int rc;
  cr_diag ld;
  cr_hier *h = build(0, &rc, &ld);
  ck_assert(!ovl(h, "DmC", "m", "()V"));
  ck_assert(!ovl(h, "DmTop", "m", "()V"));
  ck_assert(!ovl(h, "DmR", "m", "()V"));
  ck_assert(!site(h, "DmL", "m", "()V", CR_SITE_INTERFACE));
  /* defaults */
  ck_assert(!ovl(h, "DfI", "m", "()V"));
  ck_assert(!ovl(h, "DfTop", "m", "()V"));
  ck_assert(ovl(h, "DfD", "m", "()V"));
  ck_assert(ovl(h, "DfOther", "m", "()V"));
  ck_assert_ptr_eq(cr_hier_select(h, "hi/DfQ", "m", "()V"),
                   meth(h, "DfI", "m", "()V"));
  /* only an abstract one is maximally specific: that one (rule 1 slot) */
  ck_assert_ptr_eq(cr_hier_select(h, "hi/DfP", "m", "()V"),
                   meth(h, "DfTop", "m", "()V"));
  ck_assert(!site(h, "DfQ", "m", "()V", CR_SITE_VIRTUAL));
  ck_assert(!site(h, "DfP", "m", "()V", CR_SITE_VIRTUAL));
  ck_assert(site(h, "DfD", "m", "()V", CR_SITE_VIRTUAL));
  ck_assert(site(h, "DfE", "m", "()V", CR_SITE_VIRTUAL));
  cr_hier_free(h);
}
END_TEST

START_TEST(test_hier_rules__abstract_native) {
  int rc;
  cr_diag ld;
  cr_hier *h = build(0, &rc, &ld);
  ck_assert(!ovl(h, "NaB", "m", "()V"));
  ck_assert(!ovl(h, "NaA", "m", "()V"));          /* abstract */
  ck_assert(!ovl(h, "NaB", "n", "()V"));
  HAS(why(h, "NaB", "n", "()V"), "native and non-wrappable < seed t-native");
  ck_assert(!ovl(h, "NaA", "n", "()V"));          /* native, rule 1 */
  HAS(why(h, "NaA", "n", "()V"), "rule 1 from subclass hi/NaB.n()V");
  ck_assert(ovl(h, "NaD", "m", "()V"));
  ck_assert(ovl(h, "NaD", "n", "()V"));
  ck_assert(!site(h, "NaC", "n", "()V", CR_SITE_VIRTUAL));
  /* an inherited native, nothing seeded: B2N twin */
  ck_assert(ovl(h, "NiA", "q", "()V"));
  ck_assert(cr_hmethod_wrappable(meth(h, "NiA", "q", "()V")));
  ck_assert(site(h, "NiB", "q", "()V", CR_SITE_VIRTUAL));
  cr_hier_free(h);
}
END_TEST

START_TEST(test_hier_rules__nonvirtual) {
  int rc;
  cr_diag ld;
  cr_hier *h = build(0, &rc, &ld);
  ck_assert(!ovl(h, "NvA", "<init>", "()V"));
  ck_assert(!ovl(h, "NvA", "<init>", "(I)V"));
  ck_assert(!ovl(h, "NvA", "s", "()V"));
  ck_assert(!ovl(h, "NvA", "p", "()V"));
  ck_assert(!ovl(h, "NvA", "v", "()V"));
  ck_assert(ovl(h, "NvB", "s", "()V"));
  ck_assert(ovl(h, "NvB", "p", "()V"));
  ck_assert(ovl(h, "NvB", "v", "()V"));             /* overrides: own */
  ck_assert(ovl(h, "NvB", "<init>", "()V"));
  ck_assert(!site(h, "NvA", "s", "()V", CR_SITE_STATIC));
  ck_assert(site(h, "NvB", "s", "()V", CR_SITE_STATIC));
  ck_assert(!site(h, "NvA", "<init>", "(I)V", CR_SITE_SPECIAL));
  ck_assert(site(h, "NvB", "<init>", "()V", CR_SITE_SPECIAL));
  /* clinit-free classes; Object methods reach every class */
  ck_assert(!site(h, "NvB", "toString", "()Ljava/lang/String;",
                  CR_SITE_VIRTUAL));
  cr_hier_free(h);
}
END_TEST

START_TEST(test_hier_rules__library) {
  int rc;
  cr_diag ld;
  cr_hier *h = build(0, &rc, &ld);
  ck_assert(ovl(h, "LbSub", "m", "()V"));
  ck_assert(!ovl(h, "LbBase", "m", "()V"));
  HAS(why(h, "LbBase", "m", "()V"), "library class");
  ck_assert(cr_hmethod_flags(meth(h, "LbBase", "k", "()V")) & CR_HM_LIBRARY);
  ck_assert(!site(h, "LbSub", "k", "()V", CR_SITE_VIRTUAL));
  ck_assert(site(h, "LbSub", "m", "()V", CR_SITE_VIRTUAL));
  ck_assert(!ovl(h, "LbInst", "m", "()V"));
  HAS(why(h, "LbInst", "m", "()V"),
      "rule 1 from subclass hi/LbLibChild.m()V < library class");
  ck_assert(ovl(h, "LbInst", "k", "()V"));
  ck_assert(!cr_hclass_instrumented(cr_hier_class(h, "hi/LbBase")));
  cr_hier_free(h);
}
END_TEST

START_TEST(test_hier_rules__missing) {
  int rc;
  cr_diag ld;
  size_t on;
  cr_hier *h = build(0, &rc, &ld);
  ck_assert_int_eq(rc, 0);
  size_t want = object_bytes(&on) ? 1 : 2;   /* + java/lang/Object */
  ck_assert_uint_eq(cr_hier_missing_count(h), want);
  int found = 0;
  for (size_t i = 0; i < want; i++) {
    const char *ref, *n = cr_hier_missing(h, i, &ref);
    if (strcmp(n, "hi/MsMissing") == 0) {
      found = 1;
      ck_assert_str_eq(ref, "hi/MsA");       /* first referrer by name */
    }
  }
  ck_assert(found);
  ck_assert(!cr_hclass_complete(cr_hier_class(h, "hi/MsA")));
  ck_assert(ovl(h, "MsA", "m", "()V"));
  ck_assert(site(h, "MsA", "m", "()V", CR_SITE_VIRTUAL));
  int unk = 0;
  ck_assert_ptr_null(cr_hier_resolve(h, "hi/MsA", "k", "()V", &unk));
  ck_assert_int_eq(unk, 1);
  ck_assert(!site(h, "MsA", "k", "()V", CR_SITE_VIRTUAL));     /* unknown */
  ck_assert(!site(h, "MsA", "hashCode", "()I", CR_SITE_VIRTUAL));
  ck_assert(site(h, "MsB", "i", "()V", CR_SITE_VIRTUAL));
  ck_assert(!site(h, "Nope", "i", "()V", CR_SITE_VIRTUAL));
  cr_typeinfo ti = cr_hier_typeinfo(h);
  const char *sup;
  int itf;
  ck_assert_int_eq(ti.lookup(ti.ctx, "hi/MsA", &sup, &itf), 0);
  ck_assert_str_eq(sup, "hi/MsMissing");
  ck_assert_int_eq(itf, 0);
  ck_assert_int_eq(ti.lookup(ti.ctx, "hi/MsI", &sup, &itf), 0);
  ck_assert_str_eq(sup, "java/lang/Object");
  ck_assert_int_eq(itf, 1);
  ck_assert_int_eq(ti.lookup(ti.ctx, "hi/MsMissing", &sup, &itf),
                   CR_ENOTFOUND);
  cr_hier_free(h);
}
END_TEST

START_TEST(test_hier_rules__cycle) {
  int rc;
  cr_diag ld;
  cr_hier *h = build(1, &rc, &ld);
  ck_assert_int_eq(rc, CR_EFORMAT);
  HAS(ld.msg, "cyclic class hierarchy");
  HAS(ld.msg, "hi/CyA");
  HAS(ld.msg, "hi/CyB");
  /* the class that names the cycle's origin: one of them, added */
  const cr_hclass *cc = cr_hier_cycle_class(h);
  ck_assert_ptr_nonnull(cc);
  ck_assert(strncmp(cr_hclass_name(cc), "hi/Cy", 5) == 0);
  ck_assert_uint_gt(cr_hclass_order(cc), 0);
  /* the cut hierarchy still answers, and nothing hangs */
  int unk = 0;
  cr_hier_resolve(h, "hi/CyA", "ref", "()Ljava/lang/Object;", &unk);
  cr_hier_site(h, "hi/CyA", "nothing", "()V", CR_SITE_VIRTUAL, NULL);
  cr_hier_site_exhaustive(h, "hi/CyB", "ref", "()Ljava/lang/Object;",
                          CR_SITE_VIRTUAL);
  ck_assert(!cr_hclass_complete(cr_hier_class(h, "hi/CyA")) ||
            !cr_hclass_complete(cr_hier_class(h, "hi/CyB")));
  cr_hier_free(h);
}
END_TEST

/* A two-class cycle built entirely by hand: A extends B, B extends A. */
START_TEST(test_hier_rules__cycle_selfmade) {
  cr_hier *h;
  cr_diag d;
  cr_diag_clear(&d);
  ck_assert_int_eq(cr_hier_new(&h, &d), 0);
  /* #1 Class #2 "A", #3 Class #4 "B" */
  static const uint8_t pa[] = {7, 0, 2, 1, 0, 1, 'A', 7, 0, 4, 1, 0, 1, 'B'};
  static const uint8_t body_a[] = {0, 0x21, 0, 1, 0, 3, 0, 0, 0, 0, 0, 0,
                                   0, 0};
  static const uint8_t body_b[] = {0, 0x21, 0, 3, 0, 1, 0, 0, 0, 0, 0, 0,
                                   0, 0};
  uint8_t buf[256];
  size_t n = tu_class(buf, sizeof buf, 52, 5, pa, sizeof pa, body_a,
                      sizeof body_a);
  add_bytes(h, buf, n, 1, 1, 0);
  n = tu_class(buf, sizeof buf, 52, 5, pa, sizeof pa, body_b, sizeof body_b);
  add_bytes(h, buf, n, 1, 2, 0);
  ck_assert_int_eq(cr_hier_link(h, &d), CR_EFORMAT);
  HAS(d.msg, "A -> B -> A");
  ck_assert_str_eq(cr_hclass_name(cr_hier_cycle_class(h)), "A");
  ck_assert_uint_eq(cr_hclass_order(cr_hier_cycle_class(h)), 1);
  cr_diag_clear(&d);
  ck_assert_int_eq(cr_hier_analyze(h, NULL, &d), 0);
  cr_hier_free(h);
}
END_TEST

START_TEST(test_hier_rules__report) {
  int rc;
  cr_diag ld, d;
  cr_diag_clear(&d);
  cr_hier *h = build(0, &rc, &ld);
  char *out = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&out, &len);
  ck_assert_int_eq(cr_hier_write_report(h, f, &d), 0);
  fclose(f);
  HAS(out, "<class name=\"hi/R3I\" super=\"java/lang/Object\" "
           "interface=\"1\">");
  HAS(out, "<method name=\"m\" desc=\"()V\" native=\"0\" "
           "overloadable=\"no\" wrappable=\"no\" reason=\"rule 3 via");
  HAS(out, "<method name=\"q\" desc=\"()V\" native=\"1\" "
           "overloadable=\"yes\" wrappable=\"yes\"/>");
  ck_assert(!strstr(out, "<class name=\"hi/LbBase\""));      /* library: not reported */
  xmlDocPtr doc = xmlReadMemory(out, (int)len, "report", NULL, XML_PARSE_NONET);
  ck_assert_ptr_nonnull(doc);
  xmlFreeDoc(doc);
  free(out);
  char s[1024];
  cr_hier_summary(h, s, sizeof s);
  HAS(s, "non-overloadable");
  cr_hier_free(h);
}
END_TEST

/* Every method's answers in a canonical string, for comparisons. */
static char *answers(cr_hier *h, const char *const *classes, size_t n) {
  cr_buf b;
  cr_buf_init(&b);
  for (size_t i = 0; i < n; i++) {
    const cr_hclass *c = cr_hier_class(h, classes[i]);
    ck_assert_ptr_nonnull(c);
    for (uint32_t k = 0; k < cr_hclass_method_count(c); k++) {
      const cr_hmethod *m = cr_hclass_method_at(c, k);
      char line[1024];
      /* not the leaf bit: only a JDK module's classes have leaves, and
      ** Object is added as another library's (test_hier_rules__leaves) */
      snprintf(line, sizeof line, "%s.%s%s %u\n", classes[i],
               cr_hmethod_name(m), cr_hmethod_desc(m),
               cr_hmethod_flags(m) & ~(unsigned)CR_HM_LEAF);
      cr_buf_puts(&b, line);
    }
  }
  cr_buf_u1(&b, 0);
  return (char *)b.data;
}

/* Every class's methods and flags (not the leaf bit), in name order. */
static char *all_answers(cr_hier *h) {
  cr_buf b;
  cr_buf_init(&b);
  for (size_t i = 0; i < cr_hier_class_count(h); i++) {
    const cr_hclass *c = cr_hier_class_at(h, i);
    for (uint32_t k = 0; k < cr_hclass_method_count(c); k++) {
      const cr_hmethod *m = cr_hclass_method_at(c, k);
      char line[1024];
      snprintf(line, sizeof line, "%s.%s%s %u\n", cr_hclass_name(c),
               cr_hmethod_name(m), cr_hmethod_desc(m),
               cr_hmethod_flags(m) & ~(unsigned)CR_HM_LEAF);
      cr_buf_puts(&b, line);
    }
  }
  cr_buf_u1(&b, 0);
  return (char *)b.data;
}

/*
** A hierarchy extended by one class (the load-time rewriter's way) gives
** every answer the analysis of all the classes together gives: for each
** fixture class that no other one extends or implements, the others are
** linked and analysed first, then it is added with cr_hier_extend.
*/
START_TEST(test_hier_rules__extend) {
  int lrc;
  cr_diag d, ld;
  cr_diag_clear(&d);
  cr_hier *whole = build(0, &lrc, &ld);
  ck_assert_int_eq(lrc, 0);
  char *want = all_answers(whole);
  cr_policy *p;
  ck_assert_int_eq(cr_policy_new(&p, 1, &d), 0);
  ck_assert_int_eq(cr_policy_load_mem(p, SEEDS, strlen(SEEDS), "seeds", &d),
                   0);
  tu_files f = hi_files();
  size_t tried = 0;
  for (size_t x = 0; x < f.n; x++) {
    const char *sx = simple_name(f.path[x]);
    char name[256];
    snprintf(name, sizeof name, "hi/%s", sx);
    const cr_hclass *hx = cr_hier_class(whole, name);
    if (kind_of(sx) != 1 || !hx || strncmp(sx, "Cy", 2) == 0) continue;
    int extended = 0;               /* another class's supertype? */
    for (size_t i = 0; i < cr_hier_class_count(whole) && !extended; i++) {
      const cr_hclass *c = cr_hier_class_at(whole, i);
      const char *sup = cr_hclass_super(c);
      if (sup && strcmp(sup, name) == 0) extended = 1;
      for (uint32_t k = 0; k < cr_hclass_all_iface_count(c); k++) {
        const cr_hclass *it = cr_hclass_all_iface_at(c, k);
        if (it && it == hx) extended = 1;
      }
    }
    if (extended) continue;
    cr_hier *h = with_object(0);
    uint8_t *xb = NULL;
    size_t xn = 0;
    for (size_t i = 0; i < f.n; i++) {
      const char *s = simple_name(f.path[i]);
      int k = kind_of(s);
      if (k < 0 || strncmp(s, "Cy", 2) == 0) continue;
      size_t n;
      uint8_t *b = tu_slurp(f.path[i], &n);
      ck_assert_ptr_nonnull(b);
      if (i == x) {
        xb = b;
        xn = n;
        continue;
      }
      add_bytes(h, b, n, k, i + 1, 0);
      free(b);
    }
    ck_assert_int_eq(cr_hier_link(h, &d), 0);
    ck_assert_int_eq(cr_hier_analyze(h, p, &d), 0);
    cr_arena *a = cr_arena_new();
    cr_class *c;
    ck_assert_int_eq(cr_cf_parse(&c, a, xb, xn, &d), 0);
    const cr_hclass *got;
    ck_assert_int_eq(cr_hier_extend(h, c, CR_HIER_INSTRUMENTED, x + 1, p,
                                    &got, &d), 0);
    ck_assert_ptr_nonnull(got);
    ck_assert_ptr_eq(cr_hier_class(h, name), got);
    /* a class known already is refused */
    const cr_hclass *again;
    ck_assert_int_eq(cr_hier_extend(h, c, CR_HIER_INSTRUMENTED, x + 1, p,
                                    &again, &d), CR_EUSAGE);
    char *have = all_answers(h);
    ck_assert_msg(strcmp(have, want) == 0, "extended by %s:\n%s\nwant:\n%s",
                  name, have, want);
    /* its methods are in the method table, and calls resolve to them */
    for (uint32_t k = 0; k < cr_hclass_method_count(got); k++) {
      const cr_hmethod *m = cr_hclass_method_at(got, k);
      ck_assert_ptr_eq(cr_hier_method(h, name, cr_hmethod_name(m),
                                      cr_hmethod_desc(m)), m);
    }
    free(have);
    free(xb);
    cr_arena_free(a);
    cr_hier_free(h);
    tried++;
  }
  ck_assert_uint_gt(tried, 10);
  tu_files_free(&f);
  cr_policy_free(p);
  free(want);
  cr_hier_free(whole);
}
END_TEST

static const char *const SOME[] = {
  "hi/R1A", "hi/R1C", "hi/R3I", "hi/CI", "hi/CA", "hi/DfTop", "hi/DfI",
  "hi/NaA", "hi/NaB", "hi/NvA", "hi/LbInst", "hi/LbBase", "hi/MsA"};

static char tmpdir[64];

static void mktmp(void) {
  strcpy(tmpdir, "/tmp/cccp-hier-XXXXXX");
  ck_assert_ptr_nonnull(mkdtemp(tmpdir));
}

static void rmtmp(void) {
  char cmd[128];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
  if (system(cmd) != 0) fprintf(stderr, "cannot remove %s\n", tmpdir);
}

static cr_hier *from_summary(const char *path, int *rc_load, cr_diag *d) {
  cr_hier *h;
  ck_assert_int_eq(cr_hier_new(&h, d), 0);
  *rc_load = cr_hier_load(h, path, d);
  return h;
}

/* 'h' saved as a summary and loaded into a new hierarchy, linked. */
static cr_hier *resaved(const cr_hier *h) {
  cr_diag d;
  cr_diag_clear(&d);
  mktmp();
  char path[128];
  snprintf(path, sizeof path, "%s/re.sum", tmpdir);
  ck_assert_int_eq(cr_hier_save(h, path, &d), 0);
  int rc;
  cr_hier *g = from_summary(path, &rc, &d);
  ck_assert_int_eq(rc, 0);
  ck_assert_int_eq(cr_hier_link(g, &d), 0);
  rmtmp();
  return g;
}

/* Classes of input CR_HIER_EXTERNAL (a JDK read as a library) are left
** out of summaries; cr_hier_load_mem can give a summary's classes that
** input index (the JDK cache does). */
START_TEST(test_hier_rules__summary_external) {
  size_t n;
  const uint8_t *ob = object_bytes(&n);
  if (!ob) return;
  mktmp();
  cr_diag d;
  cr_diag_clear(&d);
  cr_hier *h;
  ck_assert_int_eq(cr_hier_new(&h, &d), 0);
  add_bytes(h, ob, n, 0, (uint64_t)5 << 32 | 7, 0);
  ck_assert_int_eq(cr_hier_link(h, &d), 0);
  char path[128];
  snprintf(path, sizeof path, "%s/ext.sum", tmpdir);
  ck_assert_int_eq(cr_hier_save(h, path, &d), 0);
  uint8_t *buf;
  size_t len;
  ck_assert_int_eq(cr_read_file(&buf, &len, path, &d), 0);
  cr_hier *g;
  ck_assert_int_eq(cr_hier_new(&g, &d), 0);
  ck_assert_int_eq(cr_hier_load_mem(g, buf, len, path, CR_HIER_EXTERNAL, &d),
                   0);
  ck_assert_int_eq(cr_hier_link(g, &d), 0);
  const cr_hclass *o = cr_hier_class(g, "java/lang/Object");
  ck_assert_ptr_nonnull(o);
  ck_assert_uint_eq(cr_hclass_order(o), (uint64_t)CR_HIER_EXTERNAL << 32 | 7);
  /* saved again: Object is external now, so the summary is empty */
  ck_assert_int_eq(cr_hier_save(g, path, &d), 0);
  int rc;
  cr_hier *e = from_summary(path, &rc, &d);
  ck_assert_int_eq(rc, 0);
  ck_assert_int_eq(cr_hier_link(e, &d), 0);
  ck_assert_ptr_null(cr_hier_class(e, "java/lang/Object"));
  /* a truncated copy adds nothing */
  cr_hier *t;
  ck_assert_int_eq(cr_hier_new(&t, &d), 0);
  ck_assert_int_ne(cr_hier_load_mem(t, buf, len - 1, path, -1, &d), 0);
  ck_assert_int_eq(cr_hier_link(t, &d), 0);
  ck_assert_ptr_null(cr_hier_class(t, "java/lang/Object"));
  cr_free(buf);
  cr_hier_free(t);
  cr_hier_free(e);
  cr_hier_free(g);
  cr_hier_free(h);
  rmtmp();
}
END_TEST

START_TEST(test_hier_rules__summary_roundtrip) {
  mktmp();
  int rc;
  cr_diag ld, d;
  cr_diag_clear(&d);
  cr_hier *h = build(0, &rc, &ld);
  char path[128];
  snprintf(path, sizeof path, "%s/hi.sum", tmpdir);
  ck_assert_int_eq(cr_hier_save(h, path, &d), 0);
  char *a = answers(h, SOME, sizeof SOME / sizeof SOME[0]);
  cr_hier *g = from_summary(path, &rc, &d);
  ck_assert_int_eq(rc, 0);
  ck_assert_int_eq(cr_hier_link(g, &d), 0);
  cr_policy *p;
  ck_assert_int_eq(cr_policy_new(&p, 1, &d), 0);
  ck_assert_int_eq(cr_policy_load_mem(p, SEEDS, strlen(SEEDS), "s", &d), 0);
  ck_assert_int_eq(cr_hier_analyze(g, p, &d), 0);
  char *b = answers(g, SOME, sizeof SOME / sizeof SOME[0]);
  ck_assert_str_eq(a, b);
  ck_assert_uint_eq(cr_hier_conflict_count(g), 0);
  char r1[512], r2[512];
  ck_assert_str_eq(
      cr_hier_reason(cr_hier_method(h, "hi/R3I", "m", "()V"), 0, r1, 512),
      cr_hier_reason(cr_hier_method(g, "hi/R3I", "m", "()V"), 0, r2, 512));
  /* analysed with the built-in policy only: the seeds' effects conflict */
  ck_assert_int_eq(cr_hier_analyze(g, NULL, &d), 0);
  ck_assert_uint_gt(cr_hier_conflict_count(g), 5);
  free(a);
  free(b);
  cr_policy_free(p);
  cr_hier_free(g);
  cr_hier_free(h);
  rmtmp();
}
END_TEST

/*
** Allocation n fails, for every n until the whole pipeline succeeds:
** adding, linking, the policy, the analysis, saving and loading a summary
** each report CR_ENOMEM and release what they took (LeakSanitizer checks
** that in the sanitizer build). java/lang/Object and a dozen fixtures.
*/
/* Two bodies of the hierarchy's methods, coloured. */
static int colour_some(cr_hier *h, cr_diag *d) {
  const cr_hmethod *v[32];
  size_t n = 0;
  for (size_t i = 0; i < cr_hier_class_count(h) && n < 32; i++) {
    const cr_hclass *c = cr_hier_class_at(h, i);
    for (uint32_t j = 0; j < cr_hclass_method_count(c) && n < 32; j++)
      v[n++] = cr_hclass_method_at(c, j);
  }
  int rc = cr_hier_colour_body(h, v, n, d);
  if (!rc) rc = cr_hier_colour_body(h, v + n / 2, n - n / 2, d);
  return rc ? rc : cr_hier_colour(h, d);
}

START_TEST(test_hier_rules__oom_sweep) {
  mktmp();
  char path[128];
  snprintf(path, sizeof path, "%s/oom.sum", tmpdir);
  cr_diag d;
  cr_diag_clear(&d);
  enum { N = 13 };
  cr_arena *a = cr_arena_new();
  cr_class *cls[N];
  int kind[N], k = 0;
  size_t on;
  uint8_t *ob = object_bytes(&on);
  ck_assert_ptr_nonnull(ob);
  ck_assert_int_eq(cr_cf_parse(&cls[k], a, ob, on, &d), 0);
  kind[k++] = 0;
  tu_files f = hi_files();
  uint8_t *keep[N];
  int nkeep = 0;
  for (size_t i = 0; i < f.n && k < N; i++) {
    const char *s = simple_name(f.path[i]);
    if (kind_of(s) < 0 || strncmp(s, "Cy", 2) == 0) continue;
    size_t n;
    uint8_t *b = tu_slurp(f.path[i], &n);
    ck_assert_ptr_nonnull(b);
    keep[nkeep++] = b;
    ck_assert_int_eq(cr_cf_parse(&cls[k], a, b, n, &d), 0);
    kind[k++] = kind_of(s);
  }
  tu_files_free(&f);
  int rc = -1;
  long n;
  for (n = 0; rc && n < 100000; n++) {
    cr_hier *h = NULL, *g = NULL;
    cr_policy *p = NULL;
    cr_diag_clear(&d);
    cr_alloc_fail_after(n);
    rc = cr_hier_new(&h, &d);
    for (int i = 0; i < k && !rc; i++)
      rc = cr_hier_add_class(h, cls[i], kind[i], (uint64_t)i, &d);
    if (!rc) rc = cr_hier_link(h, &d);
    if (!rc) rc = cr_policy_new(&p, 1, &d);
    if (!rc) rc = cr_hier_analyze(h, p, &d);
    if (!rc) rc = colour_some(h, &d);
    if (!rc) rc = cr_hier_save(h, path, &d);
    if (!rc) rc = cr_hier_new(&g, &d);
    if (!rc) rc = cr_hier_load(g, path, &d);
    cr_alloc_fail_after(-1);
    if (rc) ck_assert_msg(rc == CR_ENOMEM, "allocation %ld: %s", n, d.msg);
    cr_policy_free(p);
    cr_hier_free(g);
    cr_hier_free(h);
  }
  ck_assert_int_eq(rc, 0);
  ck_assert_int_gt(n, 50);
  printf("hierarchy, analysis, summary: %ld allocation failures handled\n",
         n - 1);
  for (int i = 0; i < nkeep; i++) free(keep[i]);
  cr_arena_free(a);
  rmtmp();
}
END_TEST

/* Parsed fixture classes (and java/lang/Object first), in one arena. */
typedef struct parsed {
  cr_arena *a;
  size_t n;
  cr_class *c[128];
  int kind[128];
  int cyclic[128];            /* CyA, CyB (CyB patched into the cycle) */
  uint8_t *bytes[128];
} parsed;

static void parse_all(parsed *ps) {
  memset(ps, 0, sizeof *ps);
  ps->a = cr_arena_new();
  ck_assert_ptr_nonnull(ps->a);
  cr_diag d;
  cr_diag_clear(&d);
  size_t on;
  uint8_t *ob = object_bytes(&on);
  ck_assert_ptr_nonnull(ob);
  ck_assert_int_eq(cr_cf_parse(&ps->c[0], ps->a, ob, on, &d), 0);
  ps->n = 1;
  tu_files f = hi_files();
  for (size_t i = 0; i < f.n && ps->n < 128; i++) {
    const char *s = simple_name(f.path[i]);
    int k = kind_of(s);
    if (k < 0) continue;
    size_t n;
    uint8_t *b = tu_slurp(f.path[i], &n);
    ck_assert_ptr_nonnull(b);
    cr_class *c;
    ck_assert_int_eq(cr_cf_parse(&c, ps->a, b, n, &d), 0);
    ps->cyclic[ps->n] = strncmp(s, "Cy", 2) == 0;
    if (strcmp(s, "CyB") == 0)
      for (uint32_t j = 1; j < cr_cp_count(c->cp); j++)
        if (cr_cp_tag(c->cp, j) == CR_CP_CLASS &&
            strcmp(cr_cp_class_name(c->cp, j), "hi/CyA") == 0)
          c->super_class = (uint16_t)j;
    ps->bytes[ps->n] = b;
    ps->kind[ps->n] = k;
    ps->c[ps->n++] = c;
  }
  tu_files_free(&f);
}

static void parsed_free(parsed *ps) {
  for (size_t i = 0; i < ps->n; i++) free(ps->bytes[i]);
  cr_arena_free(ps->a);
}

/*
** The application half of the fixtures against a summary of the other
** half, allocation 'n' failing (n < 0: none): load, add (some supertypes
** stay missing), link, the policy, the analysis with its conflicts, then
** the report. Returns the code; on success '*out' (malloc'd) holds the
** report, the conflicts and the call-site answers.
*/
static int app_run(const parsed *ps, const char *sum, long n, char **out,
                   cr_diag *d) {
  cr_hier *g = NULL;
  cr_policy *p = NULL;
  cr_diag_clear(d);
  *out = NULL;
  cr_alloc_fail_after(n);
  int rc = cr_hier_new(&g, d);
  if (!rc) rc = cr_hier_load(g, sum, d);
  for (size_t i = 1; i < ps->n && !rc; i += 2)
    if (!ps->cyclic[i])
      rc = cr_hier_add_class(g, ps->c[i], ps->kind[i], 1000 + i, d);
  if (!rc) rc = cr_hier_link(g, d);
  if (!rc) rc = cr_policy_new(&p, 1, d);
  if (!rc) rc = cr_policy_load_mem(p, SEEDS, strlen(SEEDS), "seeds", d);
  if (!rc) rc = cr_hier_analyze(g, p, d);
  cr_alloc_fail_after(-1);
  if (!rc) {
    size_t len;
    FILE *f = open_memstream(out, &len);
    ck_assert_ptr_nonnull(f);
    ck_assert_int_eq(cr_hier_write_report(g, f, d), 0);
    fprintf(f, "missing %zu, conflicts %zu\n", cr_hier_missing_count(g),
            cr_hier_conflict_count(g));
    for (size_t i = 0; i < cr_hier_conflict_count(g); i++) {
      const cr_hmethod *m = cr_hier_conflict(g, i);
      fprintf(f, "conflict %s.%s%s\n", cr_hclass_name(cr_hmethod_class(m)),
              cr_hmethod_name(m), cr_hmethod_desc(m));
    }
    for (size_t i = 0; i < cr_hier_class_count(g); i++) {
      const cr_hclass *c = cr_hier_class_at(g, i);
      for (uint32_t k = 0; k < cr_hclass_method_count(c); k++) {
        const cr_hmethod *m = cr_hclass_method_at(c, k);
        fprintf(f, "site %s.%s%s %d\n", cr_hclass_name(c),
                cr_hmethod_name(m), cr_hmethod_desc(m),
                cr_hier_site(g, cr_hclass_name(c), cr_hmethod_name(m),
                             cr_hmethod_desc(m), CR_SITE_VIRTUAL, NULL));
      }
    }
    fclose(f);
  }
  cr_policy_free(p);
  cr_hier_free(g);
  return rc;
}

/*
** Allocation n fails, for every n until it succeeds: an application on
** top of a saved summary (the path of --summary), and a hierarchy with a
** cycle (an error path: CR_EFORMAT or CR_ENOMEM). Every failure is
** CR_ENOMEM with nothing leaked (LeakSanitizer in the sanitizer build);
** the run that succeeds answers exactly as the run without failures.
*/
START_TEST(test_hier_rules__oom_sweep_summary_app) {
  mktmp();
  char path[128];
  snprintf(path, sizeof path, "%s/lib.sum", tmpdir);
  parsed ps;
  parse_all(&ps);
  cr_diag d;
  cr_diag_clear(&d);
  /* the summary: java/lang/Object and every other fixture */
  cr_hier *lib;
  cr_policy *p;
  ck_assert_int_eq(cr_hier_new(&lib, &d), 0);
  for (size_t i = 0; i < ps.n; i += 2)
    if (!ps.cyclic[i])
      ck_assert_int_eq(cr_hier_add_class(lib, ps.c[i], ps.kind[i], i, &d),
                       0);
  ck_assert_int_eq(cr_hier_link(lib, &d), 0);
  ck_assert_uint_gt(cr_hier_missing_count(lib), 0);
  ck_assert_int_eq(cr_policy_new(&p, 1, &d), 0);
  ck_assert_int_eq(cr_policy_load_mem(p, SEEDS, strlen(SEEDS), "s", &d), 0);
  ck_assert_int_eq(cr_hier_analyze(lib, p, &d), 0);
  ck_assert_int_eq(cr_hier_save(lib, path, &d), 0);
  cr_policy_free(p);
  cr_hier_free(lib);

  char *want, *got;
  ck_assert_int_eq(app_run(&ps, path, -1, &want, &d), 0);
  ck_assert(strstr(want, "<class name=\"hi/") != NULL);
  int rc = -1;
  long n;
  for (n = 0; rc && n < 100000; n++) {
    rc = app_run(&ps, path, n, &got, &d);
    if (rc) {
      ck_assert_msg(rc == CR_ENOMEM, "allocation %ld: %s", n, d.msg);
    } else {
      ck_assert_msg(strcmp(got, want) == 0, "allocation %ld: answers "
                    "differ", n);
      free(got);
    }
  }
  ck_assert_int_eq(rc, 0);
  free(want);
  printf("application on a summary: %ld allocation failures handled\n",
         n - 1);

  /* the cycle: linking fails whatever the allocations do */
  long m;
  for (m = 0, rc = 0; rc != CR_EFORMAT && m < 100000; m++) {
    cr_hier *h = NULL;
    cr_diag_clear(&d);
    cr_alloc_fail_after(m);
    rc = cr_hier_new(&h, &d);
    for (size_t i = 0; i < ps.n && !rc; i++)
      rc = cr_hier_add_class(h, ps.c[i], ps.kind[i], i, &d);
    if (!rc) rc = cr_hier_link(h, &d);
    cr_alloc_fail_after(-1);
    ck_assert_msg(rc == CR_ENOMEM || rc == CR_EFORMAT,
                  "cycle, allocation %ld: code %d: %s", m, rc, d.msg);
    if (rc == CR_EFORMAT) HAS(d.msg, "hi/Cy");
    cr_hier_free(h);
  }
  ck_assert_int_eq(rc, CR_EFORMAT);
  printf("hierarchy with a cycle: %ld allocation failures handled\n", m - 1);

  /* a summary cut in its class records, length and CRC made right: the
     reader fails half-way, and adds nothing whatever the allocations do */
  size_t len;
  uint8_t *b = tu_slurp(path, &len);
  ck_assert_ptr_nonnull(b);
  ck_assert_uint_gt(len, 200);
  len = len * 3 / 5;
  uint64_t plen = len - 24;
  for (int i = 0; i < 8; i++) b[16 + i] = (uint8_t)(plen >> (56 - 8 * i));
  uint32_t crc = (uint32_t)crc32(crc32(0, Z_NULL, 0), b + 24, (uInt)plen);
  for (int i = 0; i < 4; i++) b[12 + i] = (uint8_t)(crc >> (24 - 8 * i));
  char cut[128];
  snprintf(cut, sizeof cut, "%s/cut.sum", tmpdir);
  FILE *f = fopen(cut, "wb");
  ck_assert_ptr_nonnull(f);
  ck_assert_uint_eq(fwrite(b, 1, len, f), len);
  fclose(f);
  free(b);
  for (m = 0, rc = 0; rc != CR_EFORMAT && m < 100000; m++) {
    cr_hier *h = NULL;
    cr_diag_clear(&d);
    cr_alloc_fail_after(m);
    rc = cr_hier_new(&h, &d);
    if (!rc) rc = cr_hier_load(h, cut, &d);
    cr_alloc_fail_after(-1);
    ck_assert_msg(rc == CR_ENOMEM || rc == CR_EFORMAT,
                  "cut summary, allocation %ld: code %d: %s", m, rc, d.msg);
    if (h) ck_assert_uint_eq(cr_hier_class_count(h), 0);
    cr_hier_free(h);
  }
  ck_assert_int_eq(rc, CR_EFORMAT);
  printf("summary cut short: %ld allocation failures handled\n", m - 1);
  parsed_free(&ps);
  rmtmp();
}
END_TEST

START_TEST(test_hier_rules__summary_corrupt) {
  mktmp();
  int rc;
  cr_diag ld, d;
  cr_diag_clear(&d);
  cr_hier *h = build(0, &rc, &ld);
  char path[128], bad[128];
  snprintf(path, sizeof path, "%s/hi.sum", tmpdir);
  snprintf(bad, sizeof bad, "%s/bad.sum", tmpdir);
  ck_assert_int_eq(cr_hier_save(h, path, &d), 0);
  cr_hier_free(h);
  size_t n;
  uint8_t *b = tu_slurp(path, &n);
  ck_assert_ptr_nonnull(b);
  /* every truncation */
  size_t step = n > 4000 ? n / 2000 : 1;
  for (size_t k = 0; k < n; k += step) {
    FILE *f = fopen(bad, "wb");
    fwrite(b, 1, k, f);
    fclose(f);
    cr_diag_clear(&d);
    cr_hier *g = from_summary(bad, &rc, &d);
    ck_assert_int_ne(rc, 0);
    ck_assert(d.msg[0]);
    cr_hier_free(g);
  }
  /* flipped bytes: the header checks and the CRC catch them all */
  for (size_t k = 0; k < n; k += step) {
    b[k] ^= 0x5a;
    FILE *f = fopen(bad, "wb");
    fwrite(b, 1, n, f);
    fclose(f);
    b[k] ^= 0x5a;
    cr_diag_clear(&d);
    cr_hier *g = from_summary(bad, &rc, &d);
    ck_assert_int_ne(rc, 0);
    cr_hier_free(g);
  }
  /* a structural defect behind a valid CRC: huge string count */
  b[24] = 0x7f;
  uint32_t crc = (uint32_t)crc32(crc32(0, Z_NULL, 0), b + 24, (uInt)(n - 24));
  b[12] = (uint8_t)(crc >> 24);
  b[13] = (uint8_t)(crc >> 16);
  b[14] = (uint8_t)(crc >> 8);
  b[15] = (uint8_t)crc;
  FILE *f = fopen(bad, "wb");
  fwrite(b, 1, n, f);
  fclose(f);
  cr_diag_clear(&d);
  cr_hier *g = from_summary(bad, &rc, &d);
  ck_assert_int_eq(rc, CR_EFORMAT);
  HAS(d.msg, "corrupt summary");
  ck_assert_ptr_null(cr_hier_class(g, "hi/R1A"));   /* nothing added */
  cr_hier_free(g);
  /* not a summary at all */
  cr_diag_clear(&d);
  g = from_summary("/etc/hostname", &rc, &d);
  ck_assert_int_eq(rc, CR_EFORMAT);
  cr_hier_free(g);
  free(b);
  rmtmp();
}
END_TEST

/* Two threads adding the fixtures alternately give the same answers. */
typedef struct job { cr_hier *h; tu_files *f; int part; } job;

static void *adder(void *arg) {
  job *j = arg;
  for (size_t i = (size_t)j->part; i < j->f->n; i += 2) {
    const char *s = simple_name(j->f->path[i]);
    int k = kind_of(s);
    if (k < 0 || strcmp(s, "CyA") == 0 || strcmp(s, "CyB") == 0) continue;
    size_t n;
    uint8_t *b = tu_slurp(j->f->path[i], &n);
    cr_diag d;
    cr_diag_clear(&d);
    cr_arena *a = cr_arena_new();
    cr_class *c;
    if (cr_cf_parse(&c, a, b, n, &d) == 0)
      cr_hier_add_class(j->h, c, k, i + 1, &d);
    cr_arena_free(a);
    free(b);
  }
  return NULL;
}

START_TEST(test_hier_rules__threads) {
  int rc;
  cr_diag ld, d;
  cr_diag_clear(&d);
  cr_hier *h1 = build(0, &rc, &ld);
  char *a = answers(h1, SOME, sizeof SOME / sizeof SOME[0]);
  cr_hier_free(h1);
  cr_hier *h;
  ck_assert_int_eq(cr_hier_new(&h, &d), 0);
  size_t on;
  uint8_t *ob = object_bytes(&on);
  if (ob) add_bytes(h, ob, on, 0, 0, 0);
  tu_files f = hi_files();
  job j0 = {h, &f, 0}, j1 = {h, &f, 1};
  pthread_t t0, t1;
  pthread_create(&t0, NULL, adder, &j0);
  pthread_create(&t1, NULL, adder, &j1);
  pthread_join(t0, NULL);
  pthread_join(t1, NULL);
  tu_files_free(&f);
  ck_assert_int_eq(cr_hier_link(h, &d), 0);
  cr_policy *p;
  ck_assert_int_eq(cr_policy_new(&p, 1, &d), 0);
  ck_assert_int_eq(cr_policy_load_mem(p, SEEDS, strlen(SEEDS), "s", &d), 0);
  ck_assert_int_eq(cr_hier_analyze(h, p, &d), 0);
  char *b = answers(h, SOME, sizeof SOME / sizeof SOME[0]);
  ck_assert_str_eq(a, b);
  /* adding after linking is refused */
  {
    char p1[4096];
    snprintf(p1, sizeof p1, "%s/hi/R1A.class", tu_fixtures());
    size_t n;
    uint8_t *bb = tu_slurp(p1, &n);
    cr_arena *ar = cr_arena_new();
    cr_class *c;
    ck_assert_int_eq(cr_cf_parse(&c, ar, bb, n, &d), 0);
    ck_assert_int_eq(cr_hier_add_class(h, c, 1, 0, &d), CR_EUSAGE);
    cr_arena_free(ar);
    free(bb);
  }
  free(a);
  free(b);
  cr_policy_free(p);
  cr_hier_free(h);
}
END_TEST

/* The colour of hi/'c'.'n''de'. */
static unsigned colour(cr_hier *h, const char *c, const char *n,
                       const char *de) {
  return cr_hmethod_colour(meth(h, c, n, de));
}

/* Record one body calling CoLib's static methods named by 'names'. */
static void body(cr_hier *h, const char *names) {
  const cr_hmethod *v[16];
  size_t n = 0;
  for (const char *p = names; *p; p++) {
    char nm[2] = {*p, 0};
    v[n++] = meth(h, "CoLib", nm, "()V");
  }
  cr_diag d;
  cr_diag_clear(&d);
  ck_assert_int_eq(cr_hier_colour_body(h, v, n, &d), 0);
}

START_TEST(test_hier_rules__colours) {
  int rc;
  cr_diag ld, d;
  cr_diag_clear(&d);
  cr_hier *h = build(0, &rc, &ld);
  /* eight methods of one body: eight colours */
  body(h, "abcdefgh");
  /* an overridden method, its overrides and the interface's method are
  ** one vertex; with a, a body apart from it */
  const cr_hmethod *ov[2] = {meth(h, "CoI", "m", "()V"),
                             meth(h, "CoLib", "a", "()V")};
  ck_assert_int_eq(cr_hier_colour_body(h, ov, 2, &d), 0);
  /* a body of one method meets nothing */
  const cr_hmethod *one = meth(h, "CoLib", "alone", "()V");
  ck_assert_int_eq(cr_hier_colour_body(h, &one, 1, &d), 0);
  ck_assert_int_eq(cr_hier_colour(h, &d), 0);
  unsigned seen = 0;
  for (const char *p = "abcdefgh"; *p; p++) {
    char nm[2] = {*p, 0};
    unsigned c = colour(h, "CoLib", nm, "()V");
    ck_assert_msg(c >= 1 && c <= 8, "colour of %s: %u", nm, c);
    ck_assert_msg(!(seen & 1u << c), "%s shares colour %u", nm, c);
    seen |= 1u << c;
  }
  unsigned m = colour(h, "CoI", "m", "()V");
  ck_assert_uint_ne(m, 0);
  ck_assert_uint_ne(m, colour(h, "CoLib", "a", "()V"));
  ck_assert_uint_eq(colour(h, "CoBase", "m", "()V"), m);
  ck_assert_uint_eq(colour(h, "CoSub", "m", "()V"), m);
  ck_assert_uint_eq(colour(h, "CoOther", "m", "()V"), m);
  ck_assert_uint_eq(colour(h, "CoLib", "alone", "()V"), 0);
  ck_assert_uint_eq(colour(h, "CoLib", "i", "()V"), 0);
  /* nine vertices (a..h, the m family); both bodies with each apart */
  cr_hier_stats s;
  cr_hier_stats_get(h, &s);
  ck_assert_uint_eq(s.coloured, 9);
  ck_assert_uint_eq(s.small_bodies, 2);
  ck_assert_uint_eq(s.apart, 2);
  cr_hier_free(h);
}
END_TEST

/* A body over the cap adds nothing: its methods stay uncoloured. */
START_TEST(test_hier_rules__colours_cap) {
  int rc;
  cr_diag ld, d;
  cr_diag_clear(&d);
  cr_hier *h = build(0, &rc, &ld);
  static const cr_hmethod *v[CR_HIER_COLOUR_BODY_MAX + 1];
  const char *names = "abcdefgh";
  for (size_t k = 0; k < CR_HIER_COLOUR_BODY_MAX + 1; k++) {
    char nm[2] = {names[k % 8], 0};
    v[k] = meth(h, "CoLib", nm, "()V");
  }
  ck_assert_int_eq(cr_hier_colour_body(h, v, CR_HIER_COLOUR_BODY_MAX + 1, &d),
                   0);
  ck_assert_int_eq(cr_hier_colour(h, &d), 0);
  ck_assert_uint_eq(colour(h, "CoLib", "a", "()V"), 0);
  cr_hier_stats s;
  cr_hier_stats_get(h, &s);
  ck_assert_uint_eq(s.coloured, 0);
  /* the same methods in a body under the cap are coloured */
  body(h, "ab");
  ck_assert_int_eq(cr_hier_colour(h, &d), 0);
  ck_assert_uint_ne(colour(h, "CoLib", "a", "()V"), 0);
  cr_hier_free(h);
}
END_TEST

/* Nine methods in one body: all eight colours, one shared; the same
** colours whatever the order the bodies come in. */
START_TEST(test_hier_rules__colours_order) {
  static const char *const bodies[] = {"abcdefghi", "ab", "cde", "ia", "hg"};
  char got[2][16];
  for (int pass = 0; pass < 2; pass++) {
    int rc;
    cr_diag ld, d;
    cr_diag_clear(&d);
    cr_hier *h = build(0, &rc, &ld);
    for (int k = 0; k < 5; k++) body(h, bodies[pass ? 4 - k : k]);
    ck_assert_int_eq(cr_hier_colour(h, &d), 0);
    unsigned seen = 0;
    for (int k = 0; k < 9; k++) {
      char nm[2] = {(char)('a' + k), 0};
      unsigned c = colour(h, "CoLib", nm, "()V");
      ck_assert(c >= 1 && c <= 8);
      seen |= 1u << c;
      got[pass][k] = (char)('0' + c);
    }
    got[pass][9] = 0;
    ck_assert_uint_eq(seen, 0x1feu);
    cr_hier_free(h);
  }
  ck_assert_str_eq(got[0], got[1]);
}
END_TEST

/* Duplicate definitions: instrumented beats library, then lower order. */
START_TEST(test_hier_rules__duplicates) {
  cr_hier *h;
  cr_diag d;
  cr_diag_clear(&d);
  ck_assert_int_eq(cr_hier_new(&h, &d), 0);
  const char *fx = tu_fixtures();
  char p1[4096];
  snprintf(p1, sizeof p1, "%s/hi/R1A.class", fx);
  size_t n;
  uint8_t *b = tu_slurp(p1, &n);
  ck_assert_ptr_nonnull(b);
  add_bytes(h, b, n, 0, 1, 0);
  add_bytes(h, b, n, 1, 9, 0);
  add_bytes(h, b, n, 0, 0, 0);
  ck_assert_int_eq(cr_hier_link(h, &d), 0);
  ck_assert(cr_hclass_instrumented(cr_hier_class(h, "hi/R1A")));
  free(b);
  cr_hier_free(h);
}
END_TEST

static void note_redef(void *ctx, const char *name, uint32_t kept,
                       uint32_t other) {
  char *buf = ctx;
  size_t len = strlen(buf);
  snprintf(buf + len, 256 - len, "%s %u %u;", name, kept, other);
}

/*
** Two inputs define hi/R1A: an identical copy changes nothing; a copy
** whose method has other access flags makes it redefined, and with it the
** resolution path of its subclass R1B, so that no site through them passes
** the node. Identical and JDK module copies are never listed.
*/
START_TEST(test_hier_rules__redefined) {
  const char *fx = tu_fixtures();
  char p[4096];
  size_t n[2];
  uint8_t *b[2];
  snprintf(p, sizeof p, "%s/hi/R1A.class", fx);
  b[0] = tu_slurp(p, &n[0]);
  snprintf(p, sizeof p, "%s/hi/R1B.class", fx);
  b[1] = tu_slurp(p, &n[1]);
  ck_assert_ptr_nonnull(b[0]);
  ck_assert_ptr_nonnull(b[1]);
  for (int variant = 0; variant < 2; variant++) {
    cr_hier *h;
    cr_diag d;
    cr_diag_clear(&d);
    ck_assert_int_eq(cr_hier_new(&h, &d), 0);
    add_bytes(h, b[0], n[0], CR_HIER_INSTRUMENTED, 1ull << 32, 0);
    add_bytes(h, b[0], n[0], CR_HIER_INSTRUMENTED, 2ull << 32, 0);
    add_bytes(h, b[1], n[1], CR_HIER_INSTRUMENTED, 4ull << 32, 0);
    if (variant) {            /* the same class with a final method */
      cr_arena *a = cr_arena_new();
      cr_class *c;
      ck_assert_int_eq(cr_cf_parse(&c, a, b[0], n[0], &d), 0);
      ck_assert_uint_gt(c->nmethods, 1);
      c->methods[1].flags ^= 0x10;
      ck_assert_int_eq(
          cr_hier_add_class(h, c, CR_HIER_INSTRUMENTED, 3ull << 32, &d), 0);
      cr_arena_free(a);
    }
    ck_assert_int_eq(cr_hier_link(h, &d), 0);
    const cr_hclass *r1a = cr_hier_class(h, "hi/R1A");
    ck_assert_uint_eq(cr_hclass_order(r1a), 1ull << 32);
    ck_assert_int_eq(cr_hclass_redefined(r1a), variant);
    ck_assert_int_eq(cr_hier_redefined_path(h, "hi/R1A"), variant);
    ck_assert_int_eq(cr_hier_redefined_path(h, "hi/R1B"), variant);
    ck_assert_int_eq(cr_hier_redefined_path(h, "hi/Nope"), 0);
    char buf[256] = "";
    ck_assert_uint_eq(cr_hier_each_redefined(h, note_redef, buf),
                      (size_t)variant);
    ck_assert_str_eq(buf, variant ? "hi/R1A 1 3;" : "");
    ck_assert_int_eq(cr_hier_analyze(h, NULL, &d), 0);
    ck_assert_int_eq(
        cr_hier_site(h, "hi/R1B", "m", "()V", CR_SITE_VIRTUAL, NULL),
        !variant);
    ck_assert_int_eq(cr_hier_site_exhaustive(h, "hi/R1B", "m", "()V",
                                             CR_SITE_VIRTUAL),
                     !variant);
    cr_hier_free(h);
  }
  free(b[0]);
  free(b[1]);
}
END_TEST

/*
** A JDK module's definition beats the inputs' (JEP 261: the module's class
** is the one loaded), and a class of the inputs in a package of a JDK
** module becomes a library class; other packages are not touched. The
** module bit survives a summary.
*/
START_TEST(test_hier_rules__jdk_packages) {
  cr_hier *h;
  cr_diag d;
  cr_diag_clear(&d);
  ck_assert_int_eq(cr_hier_new(&h, &d), 0);
  const char *fx = tu_fixtures();
  static const char *const names[] = {"hi/R1A", "hi/R1B", "fx/Shape"};
  uint8_t *b[3];
  size_t n[3];
  for (int i = 0; i < 3; i++) {
    char p[4096];
    snprintf(p, sizeof p, "%s/%s.class", fx, names[i]);
    b[i] = tu_slurp(p, &n[i]);
    ck_assert_ptr_nonnull(b[i]);
  }
  add_bytes(h, b[0], n[0], CR_HIER_INSTRUMENTED, 0, 0);
  add_bytes(h, b[0], n[0], CR_HIER_JDK_MODULE, 5, 0);
  add_bytes(h, b[1], n[1], CR_HIER_INSTRUMENTED, 1, 0);
  add_bytes(h, b[2], n[2], CR_HIER_INSTRUMENTED, 2, 0);
  ck_assert_int_eq(cr_hier_jdk_package(h, "hi/R1B"), 0);  /* not linked */
  ck_assert_int_eq(cr_hier_link(h, &d), 0);
  const cr_hclass *a = cr_hier_class(h, "hi/R1A");
  const cr_hclass *bb = cr_hier_class(h, "hi/R1B");
  const cr_hclass *sh = cr_hier_class(h, "fx/Shape");
  ck_assert(cr_hclass_jdk_module(a) && !cr_hclass_instrumented(a));
  ck_assert_uint_eq(cr_hclass_order(a), 5);
  ck_assert(!cr_hclass_in_jdk_package(a));
  ck_assert(cr_hclass_in_jdk_package(bb) && !cr_hclass_instrumented(bb));
  ck_assert(cr_hmethod_flags(cr_hier_method(h, "hi/R1B", "<init>", "()V")) &
            CR_HM_LIBRARY);
  ck_assert(cr_hclass_instrumented(sh) && !cr_hclass_in_jdk_package(sh));
  ck_assert_int_eq(cr_hier_jdk_package(h, "hi/Other"), 1);
  ck_assert_int_eq(cr_hier_jdk_package(h, "hi/sub/Other"), 0);
  ck_assert_int_eq(cr_hier_jdk_package(h, "fx/Shape"), 0);
  ck_assert_int_eq(cr_hier_jdk_package(h, "Top"), 0);

  cr_hier *g = resaved(h);
  ck_assert(cr_hclass_jdk_module(cr_hier_class(g, "hi/R1A")));
  ck_assert(cr_hclass_in_jdk_package(cr_hier_class(g, "hi/R1B")));
  ck_assert_int_eq(cr_hier_jdk_package(g, "hi/X"), 1);
  cr_hier_free(g);
  for (int i = 0; i < 3; i++) free(b[i]);
  cr_hier_free(h);
}
END_TEST

/* 1 if method 'name' 'desc' of class lf/'cls' is a leaf. */
static int leaf(const cr_hier *h, const char *cls, const char *name,
                const char *desc) {
  char c[64];
  snprintf(c, sizeof c, "lf/%s", cls);
  const cr_hmethod *m = cr_hier_method(h, c, name, desc);
  ck_assert_msg(m != NULL, "%s.%s%s missing", c, name, desc);
  return (cr_hmethod_flags(m) & CR_HM_LEAF) != 0;
}

/* The fixtures as classes of a JDK module (only those have leaves), but
** LfApp, instrumented; or as another library's ('jdk' 0). */
static cr_hier *leaf_hier(int jdk) {
  unsigned lib = jdk ? CR_HIER_JDK_MODULE : 0;
  cr_hier *h = with_object(lib);
  cr_diag d;
  cr_diag_clear(&d);
  tu_files f;
  char dir[4096];
  snprintf(dir, sizeof dir, "%s/lf", tu_fixtures());
  ck_assert_int_eq(tu_list_classes(&f, dir), 0);
  ck_assert_uint_eq(f.n, 5);
  for (size_t i = 0; i < f.n; i++) {
    size_t n;
    uint8_t *b = tu_slurp(f.path[i], &n);
    ck_assert_ptr_nonnull(b);
    int app = strcmp(simple_name(f.path[i]), "LfApp") == 0;
    add_bytes(h, b, n, app ? CR_HIER_INSTRUMENTED : lib, i + 1, 0);
    free(b);
  }
  tu_files_free(&f);
  ck_assert_int_eq(cr_hier_link(h, &d), 0);
  return h;
}

/* The leaf analysis on tests/data/java/Leaves.java: one reason each; a
** summary keeps the answers; another library has no leaves. */
START_TEST(test_hier_rules__leaves) {
  size_t on;
  if (!object_bytes(&on)) return;
  cr_hier *h = leaf_hier(1);
  ck_assert(cr_hmethod_flags(cr_hier_method(h, "java/lang/Object", "<init>",
                                            "()V")) & CR_HM_LEAF);
  ck_assert(leaf(h, "LfFinal", "<init>", "(I)V"));
  ck_assert(leaf(h, "LfFinal", "get", "()I"));
  ck_assert(leaf(h, "LfFinal", "twice", "()I"));
  ck_assert(leaf(h, "LfOpen", "get", "()I"));
  ck_assert(!leaf(h, "LfOpen", "viaVirtual", "()I"));
  ck_assert(leaf(h, "LfOpen", "fin", "()I"));
  ck_assert(leaf(h, "LfOpen", "viaFinal", "()I"));
  ck_assert(leaf(h, "LfOpen", "sum", "(II)I"));
  ck_assert(leaf(h, "LfOpen", "viaStatic", "()I"));
  ck_assert(leaf(h, "LfOpen", "recA", "(I)I"));
  ck_assert(leaf(h, "LfOpen", "recB", "(I)I"));
  ck_assert(!leaf(h, "LfOpen", "viaIface", "(Ljava/lang/Runnable;)I"));
  ck_assert(!leaf(h, "LfOpen", "nat", "()I"));
  ck_assert(!leaf(h, "LfOpen", "viaNative", "()I"));
  ck_assert(leaf(h, "LfOpen", "hash", "()I"));
  ck_assert(leaf(h, "LfOpen", "klass", "()Ljava/lang/Object;"));
  ck_assert(!leaf(h, "LfOpen", "callsApp", "()I"));
  ck_assert(leaf(h, "LfOpen", "makes", "()Ljava/lang/Object;"));
  ck_assert(!leaf(h, "LfOpen", "makesInit", "()Ljava/lang/Object;"));
  ck_assert(leaf(h, "LfOpen", "readsQuiet", "()I"));
  ck_assert(!leaf(h, "LfOpen", "lambda", "()Ljava/lang/Runnable;"));
  ck_assert(!leaf(h, "LfInit", "<clinit>", "()V"));
  ck_assert(!leaf(h, "LfInit", "read", "()I"));
  ck_assert(leaf(h, "LfInit", "inst", "()I"));
  ck_assert(leaf(h, "LfQuiet", "<clinit>", "()V"));
  ck_assert(leaf(h, "LfQuiet", "read", "()I"));
  ck_assert(!leaf(h, "LfApp", "f", "()I"));         /* instrumented */

  /* a summary keeps them */
  cr_hier *g = resaved(h);
  ck_assert(leaf(g, "LfFinal", "get", "()I"));
  ck_assert(leaf(g, "LfQuiet", "read", "()I"));
  ck_assert(!leaf(g, "LfInit", "read", "()I"));
  ck_assert(!leaf(g, "LfOpen", "viaVirtual", "()I"));
  cr_hier_free(g);
  cr_hier_free(h);

  /* another library's classes: none */
  h = leaf_hier(0);
  ck_assert(!leaf(h, "LfFinal", "get", "()I"));
  ck_assert(!leaf(h, "LfOpen", "sum", "(II)I"));
  cr_hier_free(h);
}
END_TEST

static Suite *suite(void) {
  Suite *s = suite_create("hier");
  TCase *tc = tcase_create("rules");
  tcase_set_timeout(tc, 120);
  tcase_add_test(tc, test_hier_rules__rule1);
  tcase_add_test(tc, test_hier_rules__rule2);
  tcase_add_test(tc, test_hier_rules__rule3);
  tcase_add_test(tc, test_hier_rules__chain);
  tcase_add_test(tc, test_hier_rules__diamond_default);
  tcase_add_test(tc, test_hier_rules__abstract_native);
  tcase_add_test(tc, test_hier_rules__nonvirtual);
  tcase_add_test(tc, test_hier_rules__library);
  tcase_add_test(tc, test_hier_rules__missing);
  tcase_add_test(tc, test_hier_rules__cycle);
  tcase_add_test(tc, test_hier_rules__cycle_selfmade);
  tcase_add_test(tc, test_hier_rules__report);
  tcase_add_test(tc, test_hier_rules__summary_roundtrip);
  tcase_add_test(tc, test_hier_rules__summary_external);
  tcase_add_test(tc, test_hier_rules__summary_corrupt);
  tcase_add_test(tc, test_hier_rules__oom_sweep);
  tcase_add_test(tc, test_hier_rules__oom_sweep_summary_app);
  tcase_add_test(tc, test_hier_rules__threads);
  tcase_add_test(tc, test_hier_rules__duplicates);
  tcase_add_test(tc, test_hier_rules__redefined);
  tcase_add_test(tc, test_hier_rules__jdk_packages);
  tcase_add_test(tc, test_hier_rules__leaves);
  tcase_add_test(tc, test_hier_rules__extend);
  tcase_add_test(tc, test_hier_rules__colours);
  tcase_add_test(tc, test_hier_rules__colours_order);
  tcase_add_test(tc, test_hier_rules__colours_cap);
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
