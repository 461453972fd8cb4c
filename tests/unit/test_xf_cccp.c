/*
** test_xf_cccp.c -- the CCCP instrumentation on the xf fixtures
** (tests/data/java/XfCases.java) against JDK 17's java.base: the method
** variants of each category with their flags and descriptors, the call
** sites of each kind, the exception-table order, determinism, and
** HotSpot's verifier (-Xverify:all) on a run of the rewritten classes.
*/
#include <check.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cccp/classfile.h"
#include "cccp/hier.h"
#include "cccp/io.h"
#include "cccp/jop.h"
#include "cccp/xform.h"
#include "testutil.h"

#define BASE_JMOD TU_JDK "/java.base.jmod"
#define CCD "Lcccp/rt/CC;"

/* One non-overloadable and one non-wrappable application method. */
static const char SEEDS[] =
    "<policy>\n"
    "  <nonoverloadable class='xf/XfByLen' name='compare'"
    " desc='(Ljava/lang/String;Ljava/lang/String;)I' id='t-osi'/>\n"
    "  <nonwrappable class='xf/XfBase' name='sq' id='t-nonwrap'/>\n"
    "</policy>\n";

static cr_hier *H;              /* java.base (library) + xf (instrumented) */
static tu_files XF;             /* the fixture class files */

static void add_file(cr_hier *h, const uint8_t *b, size_t n, int inst,
                     uint64_t order) {
  cr_diag d;
  cr_diag_clear(&d);
  cr_arena *a = cr_arena_new();
  cr_class *c;
  ck_assert_int_eq(cr_cf_parse(&c, a, b, n, &d), 0);
  ck_assert_int_eq(cr_hier_add_class(h, c, inst, order, &d), 0);
  cr_arena_free(a);
}

/* Build the hierarchy once per process (the tests share it). */
static cr_hier *hier(void) {
  if (H) return H;
  cr_diag d;
  cr_diag_clear(&d);
  ck_assert_int_eq(cr_hier_new(&H, &d), 0);
  cr_input *in;
  ck_assert_int_eq(cr_input_open(&in, BASE_JMOD, &d), 0);
  for (size_t i = 0; i < cr_input_count(in); i++) {
    cr_entry_info e;
    cr_input_info(in, i, &e);
    size_t k = strlen(e.name);
    if (e.is_dir || k < 6 || strcmp(e.name + k - 6, ".class") != 0 ||
        strstr(e.name, "module-info"))
      continue;
    uint8_t *b;
    size_t n;
    ck_assert_int_eq(cr_input_read(in, i, &b, &n, &d), 0);
    add_file(H, b, n, 0, (1ull << 32) | i);
    cr_free(b);
  }
  cr_input_close(in);
  char dir[4096];
  ck_assert_ptr_nonnull(tu_fixtures());
  snprintf(dir, sizeof dir, "%s/xf", tu_fixtures());
  ck_assert_int_eq(tu_list_classes(&XF, dir), 0);
  ck_assert_uint_ge(XF.n, 8);
  for (size_t i = 0; i < XF.n; i++) {
    size_t n;
    uint8_t *b = tu_slurp(XF.path[i], &n);
    ck_assert_ptr_nonnull(b);
    add_file(H, b, n, 1, i);
    free(b);
  }
  ck_assert_int_eq(cr_hier_link(H, &d), 0);
  cr_policy *p;
  ck_assert_int_eq(cr_policy_new(&p, 1, &d), 0);
  ck_assert_int_eq(cr_policy_load_mem(p, SEEDS, strlen(SEEDS), "seeds", &d),
                   0);
  ck_assert_int_eq(cr_hier_analyze(H, p, &d), 0);
  cr_policy_free(p);
  return H;
}

/* One instrumented fixture: the model (in 'a') and its written bytes. */
typedef struct inst {
  cr_arena *a;
  cr_class *c;
  uint8_t *in, *out;
  size_t inlen, outlen;
  cr_xf_opts o;
} inst;

static cr_typeinfo TI;
static int N2B;                 /* --n2b-wrappers for the next 'instrument' */
static int COMPACT;             /* --compact-above 1 for it */
static const cr_jop_model *JOP; /* --jop for it, or NULL */
static cr_policy *POL;          /* the policy's upcalls etc. for it, or NULL */

static void instrument(inst *x, const char *simple) {
  char path[4096];
  cr_diag d;
  cr_diag_clear(&d);
  memset(x, 0, sizeof *x);
  snprintf(path, sizeof path, "%s/xf/%s.class", tu_fixtures(), simple);
  x->in = tu_slurp(path, &x->inlen);
  ck_assert_ptr_nonnull(x->in);
  x->a = cr_arena_new();
  ck_assert_int_eq(cr_cf_parse(&x->c, x->a, x->in, x->inlen, &d), 0);
  TI = cr_hier_typeinfo(hier());
  x->o.h = hier();
  x->o.env.ti = &TI;
  x->o.n2b = N2B;
  x->o.compact_above = COMPACT;
  x->o.jop = JOP;
  x->o.pol = POL;
  ck_assert_msg(cr_xf_cccp(x->c, &x->o, &d) == 0, "%s", d.msg);
  ck_assert_uint_eq(x->o.nfailed, 0);
  cr_buf b;
  cr_buf_init(&b);
  ck_assert_int_eq(cr_cf_write(&b, x->c, &d), 0);
  x->out = cr_buf_detach(&b, &x->outlen);
}

static void done(inst *x) {
  cr_arena_free(x->a);
  free(x->in);
  cr_free(x->out);
}

static cr_member *method(const inst *x, const char *name, const char *desc) {
  for (uint32_t k = 0; k < x->c->nmethods; k++) {
    cr_member *m = &x->c->methods[k];
    if (strcmp(cr_member_name(x->c, m), name) == 0 &&
        strcmp(cr_member_desc(x->c, m), desc) == 0)
      return m;
  }
  return NULL;
}

/* Index of the first invoke of 'owner.name desc' ('op') in 'm', or -1;
** '*enter_before' set if a call to CC.enter comes earlier. */
static int find_call(const inst *x, cr_member *m, unsigned op,
                     const char *owner, const char *name, const char *desc,
                     int *enter_before) {
  cr_body *b;
  cr_diag d;
  cr_diag_clear(&d);
  ck_assert_int_eq(cr_body_decode(&b, x->c, m, x->a, &d), 0);
  int k = 0, enter = 0;
  for (cr_insn *i = b->first; i; i = i->next, k++) {
    if (!(cr_op_info(i->op)->flags & CR_OPF_INVOKE) ||
        i->op == CR_OP_INVOKEDYNAMIC)
      continue;
    const cr_cpentry *r = cr_cp_get(x->c->cp, (uint32_t)i->a);
    const cr_cpentry *nt = cr_cp_get(x->c->cp, r->b);
    const char *o = cr_cp_class_name(x->c->cp, r->a);
    const char *n = cr_cp_str(x->c->cp, nt->a);
    const char *ds = cr_cp_str(x->c->cp, nt->b);
    if (strcmp(o, "cccp/rt/CC") == 0 && strcmp(n, "enter") == 0) enter = 1;
    if (i->op == op && strcmp(o, owner) == 0 && strcmp(n, name) == 0 &&
        strcmp(ds, desc) == 0) {
      if (enter_before) *enter_before = enter;
      return k;
    }
  }
  return -1;
}

enum { PUB = 1, PRIV = 2, STAT = 8, NAT = 0x100, ABS = 0x400, SYN = 0x1000 };

START_TEST(test_xf_cccp__interface) {
  inst x;
  instrument(&x, "XfShape");
  /* abstract -> a default twin that is never abstract */
  cr_member *a = method(&x, "area", "(" CCD ")I");
  ck_assert_ptr_nonnull(a);
  ck_assert_uint_eq(a->flags & (PUB | ABS | SYN), PUB | SYN);
  ck_assert_ptr_nonnull(cr_member_code(a));
  ck_assert_int_ge(find_call(&x, a, CR_OP_INVOKEINTERFACE, "xf/XfShape",
                             "area", "()I", NULL), 0);
  ck_assert_uint_eq(method(&x, "area", "()I")->flags & ABS, ABS);
  /* default method: ESI twin with the owner check, whose other way is
  ** the original call; the original instrumented in place (OSI) */
  cr_member *t = method(&x, "twice", "(" CCD ")I");
  ck_assert_ptr_nonnull(t);
  ck_assert_int_ge(find_call(&x, t, CR_OP_INVOKEINTERFACE, "xf/XfShape",
                             "area", "(" CCD ")I", NULL), 0);
  ck_assert_int_ge(find_call(&x, t, CR_OP_INVOKESTATIC, "cccp/rt/CC",
                             "owns", "(Ljava/lang/Object;I)Z", NULL), 0);
  ck_assert_int_ge(find_call(&x, t, CR_OP_INVOKEINTERFACE, "xf/XfShape",
                             "twice", "()I", NULL), 0);
  cr_member *orig = method(&x, "twice", "()I");
  ck_assert_int_ge(find_call(&x, orig, CR_OP_INVOKESTATIC, "cccp/rt/CC",
                             "get", "()" CCD, NULL), 0);
  ck_assert_int_lt(find_call(&x, orig, CR_OP_INVOKESPECIAL, "xf/XfShape",
                             "twice", "(" CCD ")I", NULL), 0);
  ck_assert_int_ge(find_call(&x, orig, CR_OP_INVOKEINTERFACE, "xf/XfShape",
                             "area", "(" CCD ")I", NULL), 0);
  done(&x);
  /* with N2B wrappers: the original passes the slot's node to the twin,
  ** which has no owner check (closed world) */
  N2B = 1;
  instrument(&x, "XfShape");
  N2B = 0;
  cr_member *n2b = method(&x, "twice", "()I");
  ck_assert_int_ge(find_call(&x, n2b, CR_OP_INVOKESTATIC, "cccp/rt/CC",
                             "get", "()" CCD, NULL), 0);
  ck_assert_int_ge(find_call(&x, n2b, CR_OP_INVOKESPECIAL, "xf/XfShape",
                             "twice", "(" CCD ")I", NULL), 0);
  ck_assert_int_lt(find_call(&x, method(&x, "twice", "(" CCD ")I"),
                             CR_OP_INVOKESTATIC, "cccp/rt/CC", "owns",
                             "(Ljava/lang/Object;I)Z", NULL), 0);
  /* static: twin static; the site 'new XfSquare(s)' calls the <init> twin */
  cr_member *s = method(&x, "square", "(I" CCD ")Lxf/XfShape;");
  ck_assert_ptr_nonnull(s);
  ck_assert_uint_eq(s->flags & STAT, STAT);
  ck_assert_int_ge(find_call(&x, s, CR_OP_INVOKESPECIAL, "xf/XfSquare",
                             "<init>", "(I" CCD ")V", NULL), 0);
  ck_assert_uint_eq(x.o.nfallback, 1);
  done(&x);
}
END_TEST

/* A policy of the built-in entries and 'xml'. */
static cr_policy *policy(const char *xml) {
  cr_diag d;
  cr_diag_clear(&d);
  cr_policy *p;
  ck_assert_int_eq(cr_policy_new(&p, 1, &d), 0);
  ck_assert_msg(cr_policy_load_mem(p, xml, strlen(xml), "t", &d) == 0, "%s",
                d.msg);
  return p;
}

/*
** The policy's <upcall> entries decide how an entry from the original
** signature reads its caller's node: CC.upcall for an upcall (an instance
** method), CC.get otherwise, also where a removal cancels the entry.
*/
START_TEST(test_xf_cccp__upcall_policy) {
  static const char *const xml[] = {
    "<policy/>",
    "<policy><upcall class='xf/XfShape' name='twice' desc='()I'/></policy>",
    "<policy><upcall class='xf/XfShape' name='twice' desc='()I'/>"
    "<upcall class='xf/*' remove='1'/></policy>",
    "<policy><upcall class='xf/XfShape' name='square' desc='*'/></policy>",
  };
  static const int want[] = {0, 1, 0, 0};  /* square is static */
  for (int k = 0; k < 4; k++) {
    POL = policy(xml[k]);
    for (N2B = 0; N2B <= 1; N2B++) {
      inst x;
      instrument(&x, "XfShape");
      cr_member *orig = method(&x, "twice", "()I");
      int up = find_call(&x, orig, CR_OP_INVOKESTATIC, "cccp/rt/CC",
                         "upcall", "()" CCD, NULL) >= 0;
      int get = find_call(&x, orig, CR_OP_INVOKESTATIC, "cccp/rt/CC", "get",
                          "()" CCD, NULL) >= 0;
      ck_assert_msg(up == want[k] && get == !want[k],
                    "policy %d, n2b %d: upcall %d get %d", k, N2B, up, get);
      cr_member *sq = method(&x, "square", "(I)Lxf/XfShape;");
      ck_assert_int_lt(find_call(&x, sq, CR_OP_INVOKESTATIC, "cccp/rt/CC",
                                 "upcall", "()" CCD, NULL), 0);
      done(&x);
    }
    N2B = 0;
    cr_policy_free(POL);
    POL = NULL;
  }
}
END_TEST

START_TEST(test_xf_cccp__class_variants) {
  inst x;
  instrument(&x, "XfBase");
  /* constructors get twins, and keep their own instrumented bodies */
  ck_assert_ptr_nonnull(method(&x, "<init>", "(I" CCD ")V"));
  ck_assert_ptr_nonnull(method(&x, "<init>", "(Ljava/lang/String;" CCD ")V"));
  ck_assert_int_lt(find_call(&x, method(&x, "<init>", "(I)V"),
                             CR_OP_INVOKESPECIAL, "xf/XfBase", "<init>",
                             "(I" CCD ")V", NULL), 0);
  ck_assert_int_ge(find_call(&x, method(&x, "<init>", "(I)V"),
                             CR_OP_INVOKESTATIC, "cccp/rt/CC", "get",
                             "()" CCD, NULL), 0);
  /* no owner check in constructors, static or private methods */
  ck_assert_int_lt(find_call(&x, method(&x, "<init>", "(I" CCD ")V"),
                             CR_OP_INVOKESTATIC, "cccp/rt/CC", "owns",
                             "(Ljava/lang/Object;I)Z", NULL), 0);
  ck_assert_int_lt(find_call(&x, method(&x, "sq", "(I" CCD ")I"),
                             CR_OP_INVOKESTATIC, "cccp/rt/CC", "owns",
                             "(Ljava/lang/Object;I)Z", NULL), 0);
  ck_assert_int_lt(find_call(&x, method(&x, "priv", "(I" CCD ")I"),
                             CR_OP_INVOKESTATIC, "cccp/rt/CC", "owns",
                             "(Ljava/lang/Object;I)Z", NULL), 0);
  /* this(...) in the twin goes to the twin, after library calls */
  int enter = 0;
  ck_assert_int_ge(find_call(&x, method(&x, "<init>",
                                        "(Ljava/lang/String;" CCD ")V"),
                             CR_OP_INVOKESPECIAL, "xf/XfBase", "<init>",
                             "(I" CCD ")V", &enter), 0);
  ck_assert_int_eq(enter, 1);
  /* private and static methods: twins with the same access */
  cr_member *p = method(&x, "priv", "(I" CCD ")I");
  ck_assert_ptr_nonnull(p);
  ck_assert_uint_eq(p->flags & (PRIV | SYN), PRIV | SYN);
  ck_assert_ptr_nonnull(method(&x, "sq", "(I" CCD ")I"));
  /* sync() calls priv and sq through their twins */
  cr_member *sy = method(&x, "sync", "(I" CCD ")I");
  ck_assert_int_ge(find_call(&x, sy, CR_OP_INVOKESTATIC, "xf/XfBase", "sq",
                             "(I" CCD ")I", NULL), 0);
  /* native overloadable: stays native, gets a B2N twin */
  cr_member *nat = method(&x, "nat", "(I" CCD ")I");
  ck_assert_ptr_nonnull(nat);
  ck_assert_uint_eq(nat->flags & (NAT | STAT), STAT);
  ck_assert_uint_eq(method(&x, "nat", "(I)I")->flags & NAT, NAT);
  ck_assert_int_ge(find_call(&x, nat, CR_OP_INVOKESTATIC, "xf/XfBase",
                             "nat", "(I)I", &enter), 0);
  ck_assert_int_eq(enter, 1);
  ck_assert_uint_eq(x.o.nb2n, 2);
  /* <clinit>: instrumented in place (OSI), no twin */
  ck_assert_ptr_null(method(&x, "<clinit>", "(" CCD ")V"));
  ck_assert_int_ge(find_call(&x, method(&x, "<clinit>", "()V"),
                             CR_OP_INVOKESTATIC, "cccp/rt/CC", "get",
                             "()" CCD, NULL), 0);
  done(&x);
}
END_TEST

START_TEST(test_xf_cccp__nonoverloadable) {
  inst x;
  instrument(&x, "XfByLen");
  /* seeded non-overloadable: OSI only, no twin */
  const char *sd = "(Ljava/lang/String;Ljava/lang/String;)I";
  ck_assert_ptr_null(method(&x, "compare", "(Ljava/lang/String;"
                            "Ljava/lang/String;" CCD ")I"));
  ck_assert_int_ge(find_call(&x, method(&x, "compare", sd),
                             CR_OP_INVOKESTATIC, "cccp/rt/CC", "get",
                             "()" CCD, NULL), 0);
  /* the bridge (overloadable: its library super method does not reach
  ** down) calls it by the thread-local protocol: CC.set, no CC.enter */
  cr_member *br = method(&x, "compare", "(Ljava/lang/Object;"
                         "Ljava/lang/Object;" CCD ")I");
  ck_assert_ptr_nonnull(br);
  int enter = 1;
  ck_assert_int_ge(find_call(&x, br, CR_OP_INVOKESTATIC, "cccp/rt/CC",
                             "set", "(" CCD ")" CCD, NULL), 0);
  int k = find_call(&x, br, CR_OP_INVOKEVIRTUAL, "xf/XfByLen", "compare",
                    sd, &enter);
  ck_assert_int_ge(k, 0);
  ck_assert_int_eq(enter, 1);       /* only the method's own entry */
  ck_assert_uint_ge(x.o.nosi, 1);
  ck_assert_uint_ge(x.o.nsites_tl, 1);
  done(&x);
  /* seeded non-wrappable: ESI twin + OSI (not an N2B wrapper) */
  instrument(&x, "XfBase");
  ck_assert_ptr_nonnull(method(&x, "sq", "(I" CCD ")I"));
  cr_member *o = method(&x, "sq", "(I)I");
  ck_assert_int_lt(find_call(&x, o, CR_OP_INVOKESTATIC, "xf/XfBase", "sq",
                             "(I" CCD ")I", NULL), 0);
  ck_assert_int_ge(find_call(&x, o, CR_OP_INVOKESTATIC, "cccp/rt/CC",
                             "enter", "(" CCD "I)" CCD, NULL), 0);
  done(&x);
}
END_TEST

/* 'm' decoded. */
static cr_body *body(const inst *x, cr_member *m) {
  cr_body *b;
  cr_diag d;
  cr_diag_clear(&d);
  ck_assert_int_eq(cr_body_decode(&b, x->c, m, x->a, &d), 0);
  return b;
}

/* The instruction before 'i' that is not a label. */
static const cr_insn *before(const cr_insn *i) {
  for (i = i->prev; i && i->op == CR_OP_LABEL; i = i->prev) {}
  ck_assert_ptr_nonnull(i);
  return i;
}

/* 1 if 'i' is "invokestatic cccp/rt/CC.'name'". */
static int cc_call(const inst *x, const cr_insn *i, const char *name) {
  if (i->op != CR_OP_INVOKESTATIC) return 0;
  const cr_cpentry *r = cr_cp_get(x->c->cp, (uint32_t)i->a);
  const cr_cpentry *nt = cr_cp_get(x->c->cp, r->b);
  return strcmp(cr_cp_class_name(x->c->cp, r->a), "cccp/rt/CC") == 0 &&
         strcmp(cr_cp_str(x->c->cp, nt->a), name) == 0;
}

/* 1 if 'i' and the instruction after it are "aload 'k'; CC.restore". */
static int restores(const inst *x, const cr_insn *i, int k) {
  return i->op == CR_OP_ALOAD && i->a == k && cc_call(x, i->next, "restore");
}

enum { NO_HANDLER, AFTER_ENTRY, AFTER_INIT, AFTER_READ };

/*
** App mode: reader 'm' (an OSI body or N2B wrapper) keeps the node its
** entry reads in a local and puts it back ("aload; CC.restore") before
** each return and, but with NO_HANDLER, in a catch-all handler last in
** the table ("...; athrow"), which covers the body from 'from' on: after
** the entry ("CC.enter; astore cc"), after the call that initialises
** 'this' in a constructor, or after the read's store (N2B).
*/
static void puts_back(const inst *x, cr_member *m, int from) {
  cr_body *b = body(x, m);
  const cr_insn *rd = b->first;
  while (rd && !cc_call(x, rd, "get")) rd = rd->next;
  ck_assert_ptr_nonnull(rd);
  const cr_insn *st = rd->next;
  if (st->op == CR_OP_DUP) st = st->next;
  ck_assert_uint_eq(st->op, CR_OP_ASTORE);
  int k = st->a, nret = 0;
  for (const cr_insn *i = b->first; i; i = i->next) {
    if (i->op == CR_OP_LABEL || !(cr_op_info(i->op)->flags & CR_OPF_RETURN))
      continue;
    nret++;
    ck_assert(restores(x, before(before(i)), k));
  }
  ck_assert_int_gt(nret, 0);
  if (from == NO_HANDLER) {
    for (uint32_t j = 0; j < b->ntcb; j++)
      ck_assert_uint_ne(b->tcb[j].type, 0);
    return;
  }
  const cr_tcb *t = &b->tcb[b->ntcb - 1];
  ck_assert_uint_eq(t->type, 0);
  /* up to the handler; a wrapper's up to its call's end */
  if (from != AFTER_READ) ck_assert_ptr_eq(t->end, t->handler);
  else ck_assert(restores(x, t->end->next, k));
  const cr_insn *h = t->handler;
  while (h->op == CR_OP_LABEL) h = h->next;
  ck_assert(restores(x, h, k));
  ck_assert_uint_eq(h->next->next->op, CR_OP_ATHROW);
  const cr_insn *s = t->start;
  while (s->op == CR_OP_LABEL) s = s->next;
  const cr_insn *p = before(s);
  switch (from) {
  case AFTER_ENTRY:
    ck_assert_uint_eq(p->op, CR_OP_ASTORE);
    ck_assert(cc_call(x, before(p), "enter"));
    break;
  case AFTER_INIT:
    ck_assert_uint_eq(p->op, CR_OP_INVOKESPECIAL);
    break;
  default:
    ck_assert_ptr_eq(p, st);
  }
}

START_TEST(test_xf_cccp__sites) {
  inst x;
  instrument(&x, "XfBase");
  /* library call inside try/catch/finally (app mode): the node is made
  ** and published, "CC.enter; CC.set; pop", with no restore and no
  ** handler; the readers put the slot back */
  cr_member *g = method(&x, "guarded", "(Ljava/lang/String;" CCD ")I");
  int enter = 0;
  int k = find_call(&x, g, CR_OP_INVOKESTATIC, "java/lang/Integer",
                    "parseInt", "(Ljava/lang/String;)I", &enter);
  ck_assert_int_ge(k, 0);
  ck_assert_int_eq(enter, 1);
  cr_body *gb = body(&x, g);
  const cr_insn *call = gb->first;
  for (int j = 0; j < k; j++) call = call->next;
  ck_assert_uint_eq(before(call)->op, CR_OP_POP);
  ck_assert(cc_call(&x, before(before(call)), "set"));
  ck_assert(cc_call(&x, before(before(before(call))), "enter"));
  ck_assert_uint_ne(call->next->op, CR_OP_ALOAD);
  /* no handler of the site's own: the twin has javac's four and its
  ** forwarding call's, the OSI body javac's four and its catch-all */
  ck_assert_uint_eq(cr_member_code(g)->nexc, 5);
  ck_assert_uint_eq(cr_member_code(g)->nexc,
                    cr_member_code(method(&x, "guarded",
                                          "(Ljava/lang/String;)I"))->nexc);
  /* OSI bodies put back what they read, on both ways out; a
  ** constructor's handler starts after super(...) */
  puts_back(&x, method(&x, "guarded", "(Ljava/lang/String;)I"), AFTER_ENTRY);
  puts_back(&x, method(&x, "<clinit>", "()V"), AFTER_ENTRY);
  puts_back(&x, method(&x, "<init>", "(I)V"), AFTER_INIT);
  /* a.clone() on an array: library node */
  ck_assert_int_ge(find_call(&x, method(&x, "cloned", "([I" CCD ")[I"),
                             CR_OP_INVOKEVIRTUAL, "[I", "clone",
                             "()Ljava/lang/Object;", &enter), 0);
  ck_assert_int_eq(enter, 1);
  ck_assert_uint_gt(x.o.nsites_esi, 0);
  ck_assert_uint_gt(x.o.nsites_node, 0);
  ck_assert_uint_gt(x.o.nsites_tl, 0);     /* invokedynamic */
  done(&x);
  /* interface call to an app interface: passes the node */
  instrument(&x, "XfCases");
  cr_member *m = method(&x, "main", "([Ljava/lang/String;" CCD ")V");
  ck_assert_ptr_nonnull(m);
  ck_assert_int_ge(find_call(&x, m, CR_OP_INVOKEINTERFACE, "xf/XfShape",
                             "area", "(" CCD ")I", NULL), 0);
  ck_assert_int_ge(find_call(&x, m, CR_OP_INVOKEVIRTUAL, "xf/XfAbs",
                             "twiceWeight", "(" CCD ")J", NULL), 0);
  /* List.sort is a library method: the original signature stays; the
  ** node of the method the receiver selects is made and published in one
  ** call, which leaves out a JDK leaf's publishing (cccp.leaves):
  ** "spill; dup; aload cc; MID; CC.publishv; unspill" */
  k = find_call(&x, m, CR_OP_INVOKEINTERFACE, "java/util/List", "sort",
                "(Ljava/util/Comparator;)V", &enter);
  ck_assert_int_ge(k, 0);
  cr_body *mb = body(&x, m);
  call = mb->first;
  for (int j = 0; j < k; j++) call = call->next;
  const cr_insn *pv = before(call);
  while (pv->op == CR_OP_ALOAD) pv = before(pv);       /* unspill */
  ck_assert(cc_call(&x, pv, "publishv"));
  ck_assert_uint_eq(before(before(before(pv)))->op, CR_OP_DUP);
  ck_assert(!cc_call(&x, before(pv), "set"));
  done(&x);
  /* super.sync(x) goes to the superclass's original by invokespecial
  ** and the thread-local protocol: the superclass twin's owner check
  ** would send it back here */
  instrument(&x, "XfSub");
  cr_member *sub = method(&x, "sync", "(I" CCD ")I");
  ck_assert_int_ge(find_call(&x, sub, CR_OP_INVOKESPECIAL, "xf/XfBase",
                             "sync", "(I)I", NULL), 0);
  ck_assert_int_ge(find_call(&x, sub, CR_OP_INVOKESTATIC, "cccp/rt/CC",
                             "owns", "(Ljava/lang/Object;I)Z", NULL), 0);
  done(&x);
  /* with N2B wrappers: to the superclass twin */
  N2B = 1;
  instrument(&x, "XfSub");
  N2B = 0;
  ck_assert_int_ge(find_call(&x, method(&x, "sync", "(I" CCD ")I"),
                             CR_OP_INVOKESPECIAL, "xf/XfBase", "sync",
                             "(I" CCD ")I", NULL), 0);
  /* the wrappers put back what they read, a constructor's on its return
  ** only */
  puts_back(&x, method(&x, "sync", "(I)I"), AFTER_READ);
  puts_back(&x, method(&x, "<init>", "()V"), NO_HANDLER);
  done(&x);
}
END_TEST

/*
** App mode, every body compact: the slot holds the method's node 'cc'
** from the entry on until an ESI call or a library call (which only
** publishes its node) may have left another there; the class
** initialisations put 'cc' back first ("aload cc; CC.restore") only
** then, whatever the paths that reach them (XfFlow.flow's comments).
*/
START_TEST(test_xf_cccp__compact) {
  inst x;
  COMPACT = 1;
  instrument(&x, "XfFlow");
  COMPACT = 0;
  const char *ds[2] = {"(ILjava/lang/String;)I",
                       "(ILjava/lang/String;" CCD ")I"};
  for (int v = 0; v < 2; v++) {
    cr_member *m = method(&x, "flow", ds[v]);
    ck_assert_ptr_nonnull(m);
    cr_body *b = body(&x, m);
    const cr_insn *i = b->first;
    while (i && !cc_call(&x, i, "enter")) i = i->next;
    ck_assert_ptr_nonnull(i);
    ck_assert_uint_eq(i->next->op, CR_OP_ASTORE);
    int cc = i->next->a;
    char seen[6] = "", *p = seen;
    int nputs = 0;
    for (i = b->first; i; i = i->next) {
      if (restores(&x, i, cc)) nputs++;
      if (cc_call(&x, i, "set") && i->prev->a == cc) nputs += 100;
      if (i->op == CR_OP_INVOKESTATIC && !cc_call(&x, i, "restore")) {
        const cr_cpentry *r = cr_cp_get(x.c->cp, (uint32_t)i->a);
        if (strcmp(cr_cp_class_name(x.c->cp, r->a), "java/lang/Integer") == 0)
          ck_assert(!restores(&x, i->next, cc) && !cc_call(&x, i->next->next,
                                                              "set"));
      }
      if (i->op != CR_OP_GETSTATIC) continue;
      const cr_cpentry *r = cr_cp_get(x.c->cp, (uint32_t)i->a);
      if (strcmp(cr_cp_class_name(x.c->cp, r->a), "xf/XfFlowK") != 0)
        continue;
      ck_assert_int_lt(p - seen, 5);
      const cr_insn *q = before(i);
      *p++ = cc_call(&x, q, "restore") && restores(&x, before(q), cc) ? 'R'
                                                                       : '-';
    }
    *p = 0;
    ck_assert_str_eq(seen, "-R-RR");
    /* once at the entry ("aload cc; CC.set"), three times before a read */
    ck_assert_int_eq(nputs, 103);
  }
  done(&x);
  /* with JOP, a return's event and the slot's value put back are one
  ** call: "aload cc; aload prev; CC.returned(CC, CC); ireturn" */
  cr_jop_model jm;
  cr_diag d;
  cr_diag_clear(&d);
  ck_assert_int_eq(cr_jop_model_init(&jm, 2014, 1, 2, 300, &d), 0);
  COMPACT = 1;
  JOP = &jm;
  instrument(&x, "XfFlow");
  COMPACT = 0;
  JOP = NULL;
  for (int v = 0; v < 2; v++) {
    cr_body *b = body(&x, method(&x, "flow", ds[v]));
    int nret = 0;
    for (const cr_insn *i = b->first; i; i = i->next) {
      if (i->op != CR_OP_IRETURN) continue;
      nret++;
      const cr_insn *c = before(i);
      ck_assert(cc_call(&x, c, "returned"));
      const cr_cpentry *r = cr_cp_get(x.c->cp, (uint32_t)c->a);
      const cr_cpentry *nt = cr_cp_get(x.c->cp, r->b);
      ck_assert_str_eq(cr_cp_str(x.c->cp, nt->b), "(" CCD CCD ")V");
      ck_assert_uint_eq(before(c)->op, CR_OP_ALOAD);
      ck_assert_uint_eq(before(before(c))->op, CR_OP_ALOAD);
      ck_assert_int_ne(before(c)->a, before(before(c))->a);
    }
    ck_assert_int_eq(nret, 1);
  }
  done(&x);
}
END_TEST

enum { SYNC = 0x20 };

/*
** The shape of a synchronized twin 'm' (name 'name', original descriptor
** 'desc') that locks by itself: "aload 0; astore lk" first, one
** monitorenter after the owner check, the last exception-table entry
** catch-any from the enter to its handler "aload lk; monitorexit;
** athrow", "aload lk; monitorexit" before each return inside that range
** and before none outside it, and the forwarding call (the original,
** virtually) outside it. 0 if 'm' has no monitor instruction at all.
*/
static int locks_itself(const inst *x, cr_member *m, const char *name,
                        const char *desc) {
  cr_body *b;
  cr_diag d;
  cr_diag_clear(&d);
  ck_assert_int_eq(cr_body_decode(&b, x->c, m, x->a, &d), 0);
  int nmon = 0;
  for (cr_insn *i = b->first; i; i = i->next)
    nmon += i->op == CR_OP_MONITORENTER || i->op == CR_OP_MONITOREXIT;
  if (!nmon) return 0;
  const cr_tcb *t = &b->tcb[b->ntcb - 1];
  ck_assert_uint_eq(t->type, 0);
  ck_assert_ptr_eq(t->end, t->handler);
  const cr_insn *enter = t->start->prev;
  while (enter->op == CR_OP_LABEL) enter = enter->prev;
  ck_assert_uint_eq(enter->op, CR_OP_MONITORENTER);
  ck_assert_uint_eq(enter->prev->op, CR_OP_ALOAD);
  int lk = enter->prev->a;
  ck_assert_int_gt(lk, 0);
  const cr_insn *f = b->first;
  while (f->op == CR_OP_LABEL) f = f->next;
  ck_assert_uint_eq(f->op, CR_OP_ALOAD);
  ck_assert_int_eq(f->a, 0);
  ck_assert_uint_eq(f->next->op, CR_OP_ASTORE);
  ck_assert_int_eq(f->next->a, lk);
  const cr_insn *h = t->handler->next;
  ck_assert_uint_eq(h->op, CR_OP_ALOAD);
  ck_assert_int_eq(h->a, lk);
  ck_assert_uint_eq(h->next->op, CR_OP_MONITOREXIT);
  ck_assert_uint_eq(h->next->next->op, CR_OP_ATHROW);
  int in = 0, owns = 0, fwd = 0, nin = 0, nenter = 0, nexit = 0;
  for (cr_insn *i = b->first; i; i = i->next) {
    if (i == t->start) in = 1;
    if (i == t->end) in = 0;
    nenter += i->op == CR_OP_MONITORENTER;
    nexit += i->op == CR_OP_MONITOREXIT;
    if (i->op == CR_OP_INVOKESTATIC || i->op == CR_OP_INVOKEVIRTUAL) {
      const cr_cpentry *r = cr_cp_get(x->c->cp, (uint32_t)i->a);
      const cr_cpentry *nt = cr_cp_get(x->c->cp, r->b);
      const char *n = cr_cp_str(x->c->cp, nt->a);
      if (strcmp(n, "owns") == 0 && !nenter) owns = 1;
      if (i->op == CR_OP_INVOKEVIRTUAL && strcmp(n, name) == 0 &&
          strcmp(cr_cp_str(x->c->cp, nt->b), desc) == 0) {
        ck_assert_int_eq(in, 0);          /* forwarding: not locked */
        fwd = 1;
      }
    }
    if (i->op == CR_OP_LABEL ||
        !(cr_op_info(i->op)->flags & CR_OPF_RETURN))
      continue;
    const cr_insn *p = i->prev;
    while (p->op == CR_OP_LABEL) p = p->prev;
    if (!in) {
      ck_assert_uint_ne(p->op, CR_OP_MONITOREXIT);
      continue;
    }
    nin++;
    ck_assert_uint_eq(p->op, CR_OP_MONITOREXIT);
    ck_assert_uint_eq(p->prev->op, CR_OP_ALOAD);
    ck_assert_int_eq(p->prev->a, lk);
  }
  ck_assert_int_eq(owns, 1);              /* the check before the enter */
  ck_assert_int_eq(fwd, 1);
  ck_assert_int_eq(nenter, 1);
  ck_assert_int_ge(nin, 1);
  ck_assert_int_eq(nexit, nin + 1);
  return 1;
}

START_TEST(test_xf_cccp__synchronized) {
  inst x;
  instrument(&x, "XfBase");
  /* overridable: the twin is not synchronized, it locks after the owner
  ** check; the original (OSI) keeps its flag */
  cr_member *tw = method(&x, "sync", "(I" CCD ")I");
  ck_assert_uint_eq(tw->flags & SYNC, 0);
  ck_assert_int_eq(locks_itself(&x, tw, "sync", "(I)I"), 1);
  ck_assert_uint_eq(method(&x, "sync", "(I)I")->flags & SYNC, SYNC);
  /* static and final: no owner check, the twin stays synchronized */
  tw = method(&x, "ssync", "(I" CCD ")I");
  ck_assert_uint_eq(tw->flags & (SYNC | STAT), SYNC | STAT);
  ck_assert_int_eq(locks_itself(&x, tw, "ssync", "(I)I"), 0);
  tw = method(&x, "fsync", "(I" CCD ")I");
  ck_assert_uint_eq(tw->flags & SYNC, SYNC);
  ck_assert_int_eq(locks_itself(&x, tw, "fsync", "(I)I"), 0);
  /* a delegating twin (B2N) with the owner check: not synchronized, the
  ** native original it calls locks */
  tw = method(&x, "lockedNat", "(I" CCD ")I");
  ck_assert_uint_eq(tw->flags & (SYNC | NAT), 0);
  ck_assert_int_ge(find_call(&x, tw, CR_OP_INVOKESTATIC, "cccp/rt/CC",
                             "owns", "(Ljava/lang/Object;I)Z", NULL), 0);
  ck_assert_int_ge(find_call(&x, tw, CR_OP_INVOKESPECIAL, "xf/XfBase",
                             "lockedNat", "(I)I", NULL), 0);
  ck_assert_uint_eq(method(&x, "lockedNat", "(I)I")->flags & SYNC, SYNC);
  ck_assert_int_eq(locks_itself(&x, tw, "lockedNat", "(I)I"), 0);
  done(&x);
  instrument(&x, "XfSub");
  tw = method(&x, "sync", "(I" CCD ")I");
  ck_assert_uint_eq(tw->flags & SYNC, 0);
  ck_assert_int_eq(locks_itself(&x, tw, "sync", "(I)I"), 1);
  done(&x);
  /* N2B wrappers (closed world): no owner check, the twin keeps its flag */
  N2B = 1;
  instrument(&x, "XfBase");
  N2B = 0;
  tw = method(&x, "sync", "(I" CCD ")I");
  ck_assert_uint_eq(tw->flags & SYNC, SYNC);
  ck_assert_int_eq(locks_itself(&x, tw, "sync", "(I)I"), 0);
  done(&x);
}
END_TEST

START_TEST(test_xf_cccp__deterministic_and_idempotent_refusal) {
  inst x, y;
  instrument(&x, "XfBase");
  instrument(&y, "XfBase");
  ck_assert_uint_eq(x.outlen, y.outlen);
  ck_assert_int_eq(memcmp(x.out, y.out, x.outlen), 0);
  /* instrumenting the output again is refused (class left unchanged) */
  cr_arena *a = cr_arena_new();
  cr_class *c;
  cr_diag d;
  cr_diag_clear(&d);
  ck_assert_int_eq(cr_cf_parse(&c, a, x.out, x.outlen, &d), 0);
  cr_xf_opts o;
  memset(&o, 0, sizeof o);
  o.h = hier();
  o.env.ti = &TI;
  uint32_t n = c->nmethods;
  ck_assert_int_eq(cr_xf_cccp(c, &o, &d), 0);
  ck_assert_uint_eq(o.nskipped, 1);
  ck_assert_uint_eq(c->nmethods, n);
  cr_arena_free(a);
  done(&x);
  done(&y);
}
END_TEST

/* Run 'cmd' and return its output (malloc'd) or NULL. */
static char *run(const char *cmd) {
  FILE *p = popen(cmd, "r");
  if (!p) return NULL;
  size_t cap = 4096, n = 0;
  char *s = malloc(cap);
  size_t k;
  while ((k = fread(s + n, 1, cap - n - 1, p)) > 0) {
    n += k;
    if (n + 1 >= cap) s = realloc(s, cap *= 2);
  }
  s[n] = 0;
  pclose(p);
  return s;
}

/*
** Names that are modified UTF-8 but not UTF-8: a supplementary character
** (a legal Java identifier, as javac writes it: a surrogate pair) and
** U+0000. The twins and wrappers carry the same name bytes; the pool API
** takes such names back from 'cr_cp_str' as they are.
*/
START_TEST(test_xf_cccp__mutf8_names) {
  static const uint8_t pool[] = {
    1, 0, 6, 'x', 's', '/', 'S', 'u', 'p',                   /* 1 */
    7, 0, 1,                                                 /* 2 */
    1, 0, 16, 'j', 'a', 'v', 'a', '/', 'l', 'a', 'n', 'g', '/',
    'O', 'b', 'j', 'e', 'c', 't',                            /* 3 */
    7, 0, 3,                                                 /* 4 */
    1, 0, 7, 'a', 0xed, 0xa0, 0xb5, 0xed, 0xb2, 0x9c,        /* 5 a U+1D49C */
    1, 0, 4, '(', 'I', ')', 'I',                             /* 6 */
    1, 0, 4, 'C', 'o', 'd', 'e',                             /* 7 */
    12, 0, 5, 0, 6,                                          /* 8 */
    10, 0, 2, 0, 8,                                          /* 9 */
    1, 0, 1, 'f',                                            /* 10 */
    1, 0, 3, 'n', 0xc0, 0x80,                                /* 11 n U+0000 */
  };
  static const uint8_t body[] = {
    0, 0x21, 0, 2, 0, 4, 0, 0, 0, 0, 0, 3,
    /* public static a𝒜(I)I { return x + 1; } */
    0, 0x09, 0, 5, 0, 6, 0, 1, 0, 7, 0, 0, 0, 16, 0, 2, 0, 1, 0, 0, 0, 4,
    0x1a, 0x04, 0x60, 0xac, 0, 0, 0, 0,
    /* public f(I)I { return a𝒜(y); } */
    0, 0x01, 0, 10, 0, 6, 0, 1, 0, 7, 0, 0, 0, 17, 0, 1, 0, 2, 0, 0, 0, 5,
    0x1b, 0xb8, 0, 9, 0xac, 0, 0, 0, 0,
    /* public static n\0(I)I { return x + 1; } */
    0, 0x09, 0, 11, 0, 6, 0, 1, 0, 7, 0, 0, 0, 16, 0, 2, 0, 1, 0, 0, 0, 4,
    0x1a, 0x04, 0x60, 0xac, 0, 0, 0, 0,
    0, 0};
  uint8_t buf[512];
  size_t n = tu_class(buf, sizeof buf, 52, 12, pool, sizeof pool, body,
                      sizeof body);
  ck_assert_uint_gt(n, 0);
  cr_diag d;
  cr_diag_clear(&d);
  inst x;
  memset(&x, 0, sizeof x);
  x.a = cr_arena_new();
  ck_assert_int_eq(cr_cf_parse(&x.c, x.a, buf, n, &d), 0);
  cr_hier *h;
  cr_policy *p;
  ck_assert_int_eq(cr_hier_new(&h, &d), 0);
  ck_assert_int_eq(cr_hier_add_class(h, x.c, 1, 0, &d), 0);
  ck_assert_int_eq(cr_hier_link(h, &d), 0);
  ck_assert_int_eq(cr_policy_new(&p, 1, &d), 0);
  ck_assert_int_eq(cr_hier_analyze(h, p, &d), 0);
  cr_typeinfo ti = cr_hier_typeinfo(h);
  x.o.h = h;
  x.o.env.ti = &ti;
  ck_assert_msg(cr_xf_cccp(x.c, &x.o, &d) == 0, "%s", d.msg);
  ck_assert_uint_eq(x.o.nfailed, 0);
  const char *sup = "a\xed\xa0\xb5\xed\xb2\x9c", *nul = "n\xc0\x80";
  ck_assert_ptr_nonnull(method(&x, sup, "(I" CCD ")I"));
  ck_assert_ptr_nonnull(method(&x, nul, "(I" CCD ")I"));
  cr_member *f = method(&x, "f", "(I" CCD ")I");
  ck_assert_ptr_nonnull(f);
  ck_assert_int_ge(find_call(&x, f, CR_OP_INVOKESTATIC, "xs/Sup", sup,
                             "(I" CCD ")I", NULL), 0);
  cr_buf b;
  cr_buf_init(&b);
  ck_assert_int_eq(cr_cf_write(&b, x.c, &d), 0);
  cr_arena *a2 = cr_arena_new();
  cr_class *c2;
  ck_assert_int_eq(cr_cf_parse(&c2, a2, b.data, b.len, &d), 0);
  cr_arena_free(a2);
  cr_buf_free(&b);
  cr_policy_free(p);
  cr_hier_free(h);
  cr_arena_free(x.a);
}
END_TEST

/*
** Allocation n fails, for every n until it succeeds, while each fixture
** class is instrumented and written: the transform reports CR_ENOMEM and
** the class arena takes everything back (LeakSanitizer in the sanitizer
** build); the successful run gives the same bytes as without failures.
*/
START_TEST(test_xf_cccp__oom_sweep) {
  hier();
  long total = 0;
  for (size_t i = 0; i < XF.n; i++) {
    size_t inlen;
    uint8_t *in = tu_slurp(XF.path[i], &inlen);
    ck_assert_ptr_nonnull(in);
    uint8_t *want = NULL;
    size_t wantlen = 0;
    int rc = -1;
    long n;
    for (n = -1; rc && n < 100000; n++) {
      cr_diag d;
      cr_diag_clear(&d);
      cr_arena *a = cr_arena_new();
      ck_assert_ptr_nonnull(a);
      cr_class *c;
      ck_assert_int_eq(cr_cf_parse(&c, a, in, inlen, &d), 0);
      TI = cr_hier_typeinfo(hier());
      cr_xf_opts o;
      memset(&o, 0, sizeof o);
      o.h = hier();
      o.env.ti = &TI;
      cr_buf b;
      cr_buf_init(&b);
      cr_alloc_fail_after(n);
      rc = cr_xf_cccp(c, &o, &d);
      if (!rc) rc = cr_cf_write(&b, c, &d);
      cr_alloc_fail_after(-1);
      if (n < 0) {              /* the reference run */
        ck_assert_int_eq(rc, 0);
        want = cr_buf_detach(&b, &wantlen);
        rc = -1;
      } else if (rc) {
        ck_assert_msg(rc == CR_ENOMEM, "%s, allocation %ld: %s",
                      XF.path[i], n, d.msg);
      } else {
        ck_assert_uint_eq(b.len, wantlen);
        ck_assert(memcmp(b.data, want, wantlen) == 0);
      }
      cr_buf_free(&b);
      cr_arena_free(a);
    }
    ck_assert_int_eq(rc, 0);
    total += n;
    cr_free(want);
    free(in);
  }
  printf("instrumentation of %zu classes: %ld allocation failures handled\n",
         XF.n, total);
}
END_TEST

START_TEST(test_xf_cccp__hotspot_verifies) {
  const char *rt = getenv("CCCP_RT");
  char rtbuf[4096], dir[] = "/tmp/cccp-xf-XXXXXX", cmd[16384], rel[4096];
  if (!rt) {
    snprintf(rel, sizeof rel, "%s/../cccp-rt.jar", tu_fixtures());
    rt = realpath(rel, rtbuf) ? rtbuf : rel;
  }
  if (access(rt, R_OK) != 0 || system("java -version >/dev/null 2>&1")) {
    printf("test_xf_cccp: skip verification: no %s or no java\n", rt);
    return;
  }
  ck_assert_ptr_nonnull(mkdtemp(dir));
  snprintf(cmd, sizeof cmd, "mkdir -p %s/xf", dir);
  ck_assert_int_eq(system(cmd), 0);
  hier();
  for (size_t i = 0; i < XF.n; i++) {
    const char *b = strrchr(XF.path[i], '/') + 1;
    char simple[256], out[8192];
    snprintf(simple, sizeof simple, "%.*s", (int)(strlen(b) - 6), b);
    inst x;
    instrument(&x, simple);
    snprintf(out, sizeof out, "%s/xf/%s.class", dir, simple);
    FILE *f = fopen(out, "wb");
    ck_assert_ptr_nonnull(f);
    ck_assert_uint_eq(fwrite(x.out, 1, x.outlen, f), x.outlen);
    fclose(f);
    done(&x);
  }
  char fx[4096];
  ck_assert_ptr_nonnull(realpath(tu_fixtures(), fx));
  snprintf(cmd, sizeof cmd, "cd %s && java -cp %s xf.XfCases 2>&1", dir,
           fx);
  char *plain = run(cmd);
  snprintf(cmd, sizeof cmd, "cd %s && java -Xverify:all "
           "-Xbootclasspath/a:%s -cp %s xf.XfCases 2>&1", dir, rt, dir);
  char *ins = run(cmd);
  ck_assert_ptr_nonnull(plain);
  ck_assert_ptr_nonnull(ins);
  ck_assert_msg(strstr(plain, "sub 7") != NULL, "plain run: %s", plain);
  ck_assert_str_eq(ins, plain);
  snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
  ck_assert_int_eq(system(cmd), 0);
  free(plain);
  free(ins);
}
END_TEST

static Suite *suite(void) {
  Suite *s = suite_create("xf");
  TCase *tc = tcase_create("cccp");
  tcase_set_timeout(tc, 120);
  tcase_add_test(tc, test_xf_cccp__interface);
  tcase_add_test(tc, test_xf_cccp__upcall_policy);
  tcase_add_test(tc, test_xf_cccp__class_variants);
  tcase_add_test(tc, test_xf_cccp__nonoverloadable);
  tcase_add_test(tc, test_xf_cccp__sites);
  tcase_add_test(tc, test_xf_cccp__compact);
  tcase_add_test(tc, test_xf_cccp__synchronized);
  tcase_add_test(tc, test_xf_cccp__deterministic_and_idempotent_refusal);
  tcase_add_test(tc, test_xf_cccp__mutf8_names);
  tcase_add_test(tc, test_xf_cccp__oom_sweep);
  tcase_add_test(tc, test_xf_cccp__hotspot_verifies);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) {
  SRunner *sr = srunner_create(suite());
  srunner_set_fork_status(sr, CK_NOFORK);
  srunner_run_all(sr, CK_NORMAL);
  int nf = srunner_ntests_failed(sr);
  srunner_free(sr);
  return nf == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
