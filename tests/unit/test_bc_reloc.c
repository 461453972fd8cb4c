/*
** test_bc_reloc.c -- the instruction IR under edits: the opcode table,
** far branches (goto_w, inverted conditionals), switch padding, wide
** locals and ldc_w, the 64 KiB limit, a constructor branching before
** super(), dead code inside a try range, jsr/ret in a version-49 class,
** a body copied for a method with a copy of the same code.
** Edited classes are also run on the JVM (when 'java' is on the PATH)
** and must print what the unedited fixture prints.
*/
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cccp/analysis.h"
#include "testutil.h"

/* ------------------------------------------------------------ helpers */

typedef struct fx {
  cr_arena *a;
  uint8_t *bytes;
  cr_class *c;
  cr_an *an;
  cr_an_env env;
} fx;

static void fx_open(fx *f, const char *name) {
  size_t n;
  memset(f, 0, sizeof *f);
  f->bytes = tu_fixture(name, &n);
  ck_assert_msg(f->bytes != NULL, "fixture %s missing", name);
  f->a = cr_arena_new();
  cr_diag d;
  cr_diag_clear(&d);
  ck_assert_int_eq(cr_cf_parse(&f->c, f->a, f->bytes, n, &d), 0);
  ck_assert_int_eq(cr_an_new(&f->an, f->c, &f->env, &d), 0);
}

static void fx_close(fx *f) {
  cr_arena_free(f->a);
  free(f->bytes);
}

static cr_member *method(cr_class *c, const char *name) {
  for (uint32_t i = 0; i < c->nmethods; i++)
    if (strcmp(cr_member_name(c, &c->methods[i]), name) == 0)
      return &c->methods[i];
  ck_abort_msg("no method %s", name);
  return NULL;
}

static cr_body *decode(fx *f, const char *name) {
  cr_body *b;
  cr_diag d;
  cr_diag_clear(&d);
  ck_assert_msg(cr_body_decode(&b, f->c, method(f->c, name), f->a, &d) == 0,
                "%s", d.msg);
  return b;
}

static void commit(fx *f, cr_body *b) {
  cr_diag d;
  cr_diag_clear(&d);
  ck_assert_msg(cr_an_commit(f->an, b, &d) == 0, "%s", d.msg);
}

static cr_insn *add(cr_body *b, cr_insn *after, unsigned op, int32_t a,
                    int32_t bb) {
  cr_insn *i = cr_insn_new(b, op);
  ck_assert_ptr_nonnull(i);
  i->a = a;
  i->b = bb;
  cr_body_insert_after(b, after, i);
  return i;
}

static cr_insn *find_op(cr_body *b, unsigned op) {
  for (cr_insn *i = b->first; i; i = i->next)
    if (i->op == op) return i;
  ck_abort_msg("opcode %s not found", cr_op_info(op)->name);
  return NULL;
}

/* Does the code contain byte sequence 's'? */
static int has_bytes(const cr_code *code, const uint8_t *s, size_t n) {
  for (uint32_t i = 0; i + n <= code->code_len; i++)
    if (memcmp(code->code + i, s, n) == 0) return 1;
  return 0;
}

/* Output of 'java -cp CP main' (malloc'd), or NULL if java is missing. */
static char *run_java(const char *cp, const char *main) {
  if (system("java -version >/dev/null 2>&1") != 0) return NULL;
  char cmd[4096];
  snprintf(cmd, sizeof cmd, "java -Xshare:off -cp '%s' %s 2>&1", cp, main);
  FILE *p = popen(cmd, "r");
  ck_assert_ptr_nonnull(p);
  size_t cap = 1 << 16, n = 0;
  char *out = malloc(cap);
  size_t k;
  while ((k = fread(out + n, 1, cap - n - 1, p)) > 0) n += k;
  out[n] = 0;
  pclose(p);
  return out;
}

/* Write 'f's class under a temporary class path, run 'main' with the
** fixtures behind it, compare with the fixtures alone. */
static void run_compare(fx *f, const char *name, const char *main) {
  char dir[] = "/tmp/cccp-bc-XXXXXX";
  ck_assert_ptr_nonnull(mkdtemp(dir));
  char path[1024], cp[2048];
  snprintf(path, sizeof path, "%s/bc", dir);
  mkdir(path, 0700);
  snprintf(path, sizeof path, "%s/%s.class", dir, name);
  cr_buf out;
  cr_buf_init(&out);
  cr_diag d;
  cr_diag_clear(&d);
  ck_assert_msg(cr_cf_write(&out, f->c, &d) == 0, "%s", d.msg);
  FILE *fp = fopen(path, "wb");
  ck_assert_ptr_nonnull(fp);
  fwrite(out.data, 1, out.len, fp);
  fclose(fp);
  /* it parses back */
  cr_arena *a = cr_arena_new();
  cr_class *c2;
  ck_assert_msg(cr_cf_parse(&c2, a, out.data, out.len, &d) == 0, "%s",
                d.msg);
  cr_arena_free(a);
  cr_buf_free(&out);
  snprintf(cp, sizeof cp, "%s:%s", dir, tu_fixtures());
  char *got = run_java(cp, main);
  if (!got) {
    printf("skip: no 'java' on the PATH; %s not run\n", main);
  } else {
    char *want = run_java(tu_fixtures(), main);
    ck_assert_msg(strcmp(got, want) == 0, "%s output differs:\n%s\n--- "
                  "expected:\n%s", main, got, want);
    free(want);
    free(got);
  }
  snprintf(cp, sizeof cp, "rm -rf '%s'", dir);
  ck_assert_int_eq(system(cp), 0);
}

/* -------------------------------------------------------------- tests */

START_TEST(test_bc_reloc__opcode_table) {
  ck_assert_str_eq(cr_op_info(CR_OP_GOTO_W)->name, "goto_w");
  ck_assert_int_eq(cr_op_info(CR_OP_GOTO_W)->fmt, CR_FMT_BR4);
  ck_assert_int_eq(cr_op_info(CR_OP_TABLESWITCH)->fmt, CR_FMT_TSWITCH);
  ck_assert_int_eq(cr_op_info(CR_OP_WIDE)->fmt, CR_FMT_WIDE);
  ck_assert_int_eq(cr_op_info(CR_OP_LSTORE_3)->pop, 2);
  ck_assert(cr_op_info(CR_OP_ATHROW)->flags & CR_OPF_NOFALL);
  ck_assert(cr_op_info(CR_OP_IFNULL)->flags & CR_OPF_COND);
  ck_assert_int_eq(cr_op_info(202)->fmt, CR_FMT_BAD);
  ck_assert_int_eq(CR_OP_JSR_W, 201);
  for (unsigned op = CR_OP_IFEQ; op <= CR_OP_IF_ACMPNE; op++)
    ck_assert_uint_eq(cr_op_invert(cr_op_invert(op)), op);
  ck_assert_uint_eq(cr_op_invert(CR_OP_IFEQ), CR_OP_IFNE);
  ck_assert_uint_eq(cr_op_invert(CR_OP_IF_ICMPLT), CR_OP_IF_ICMPGE);
  ck_assert_uint_eq(cr_op_invert(CR_OP_IFNULL), CR_OP_IFNONNULL);
}
END_TEST

/* decode then layout without edits gives the same offsets everywhere, and
** the same locals measured */
START_TEST(test_bc_reloc__identity_layout) {
  fx f;
  fx_open(&f, "bc/BcFlow");
  for (uint32_t k = 0; k < f.c->nmethods; k++) {
    cr_member *m = &f.c->methods[k];
    if (!cr_member_code(m)) continue;
    cr_body *b;
    cr_diag d;
    cr_diag_clear(&d);
    ck_assert_int_eq(cr_body_decode(&b, f.c, m, f.a, &d), 0);
    /* the decoder measures the locals as the layout does */
    ck_assert_uint_eq(cr_body_max_locals_laid(b), cr_body_max_locals(b));
    uint32_t top = b->locals_top;
    uint32_t *old = calloc(b->ninsn, sizeof *old);
    for (cr_insn *i = b->first; i; i = i->next) old[i->id] = i->off;
    ck_assert_int_eq(cr_body_layout(b, &d), 0);
    ck_assert_uint_eq(b->locals_top, top);
    for (cr_insn *i = b->first; i; i = i->next)
      ck_assert_uint_eq(i->off, old[i->id]);
    ck_assert_uint_eq(b->code_len, cr_member_code(m)->code_len);
    ck_assert_uint_eq(b->nlong, 0);
    free(old);
  }
  fx_close(&f);
}
END_TEST

/* 40000 nops inside the outer loop: its exit test and back jump no longer
** reach with 16 bits. */
START_TEST(test_bc_reloc__far_branch) {
  fx f;
  fx_open(&f, "bc/BcFlow");
  cr_body *b = decode(&f, "nested");
  cr_insn *at = find_op(b, CR_OP_IF_ICMPGE);
  for (int k = 0; k < 40000; k++) add(b, at, CR_OP_NOP, 0, 0);
  commit(&f, b);
  ck_assert_uint_ge(b->nlong, 2);
  const cr_code *code = cr_member_code(method(f.c, "nested"));
  ck_assert_uint_gt(code->code_len, 40000);
  /* if_icmplt +8; goto_w */
  const uint8_t inv[] = {CR_OP_IF_ICMPLT, 0, 8, CR_OP_GOTO_W};
  ck_assert(has_bytes(code, inv, sizeof inv));
  run_compare(&f, "BcFlow", "bc.BcFlow");
  fx_close(&f);
}
END_TEST

/* 1, 2, 3 nops before three switches: padding changes each time. */
START_TEST(test_bc_reloc__switch_padding) {
  fx f;
  fx_open(&f, "bc/BcFlow");
  const char *ms[3] = {"table", "lookup", "strings"};
  for (int k = 0; k < 3; k++) {
    cr_body *b = decode(&f, ms[k]);
    for (int j = 0; j <= k; j++) add(b, NULL, CR_OP_NOP, 0, 0);
    commit(&f, b);
    /* the new code decodes again and its switch pads to 4 */
    cr_body *b2 = decode(&f, ms[k]);
    int seen = 0;
    for (cr_insn *i = b2->first; i; i = i->next)
      if (i->sw) {
        seen = 1;
        ck_assert_ptr_nonnull(i->sw->dflt);
      }
    ck_assert(seen);
  }
  run_compare(&f, "BcFlow", "bc.BcFlow");
  fx_close(&f);
}
END_TEST

/* local 300 and an iinc by 1000 need 'wide'; an ldc of pool index > 255
** becomes ldc_w. */
START_TEST(test_bc_reloc__wide_and_ldc_w) {
  fx f;
  fx_open(&f, "bc/BcFlow");
  cr_diag d;
  cr_diag_clear(&d);
  int idx = 0;
  for (int k = 0; k < 300; k++)
    idx = cr_cp_add_int(f.c->cp, 1000000 + k, &d);
  ck_assert_int_gt(idx, 255);
  cr_body *b = decode(&f, "longs");
  cr_insn *i = add(b, NULL, CR_OP_SIPUSH, 1000, 0);
  i = add(b, i, CR_OP_ISTORE, 300, 0);
  i = add(b, i, CR_OP_IINC, 300, 1000);
  i = add(b, i, CR_OP_ILOAD, 300, 0);
  i = add(b, i, CR_OP_POP, 0, 0);
  i = add(b, i, CR_OP_LDC, idx, 0);
  i = add(b, i, CR_OP_POP, 0, 0);
  commit(&f, b);
  const cr_code *code = cr_member_code(method(f.c, "longs"));
  ck_assert_uint_ge(code->max_locals, 301);
  const uint8_t st[] = {CR_OP_WIDE, CR_OP_ISTORE, 1, 44};
  const uint8_t inc[] = {CR_OP_WIDE, CR_OP_IINC, 1, 44, 3, 232};
  const uint8_t ld[] = {CR_OP_WIDE, CR_OP_ILOAD, 1, 44};
  const uint8_t ldcw[] = {CR_OP_LDC_W, (uint8_t)(idx >> 8), (uint8_t)idx};
  ck_assert(has_bytes(code, st, sizeof st));
  ck_assert(has_bytes(code, inc, sizeof inc));
  ck_assert(has_bytes(code, ld, sizeof ld));
  ck_assert(has_bytes(code, ldcw, sizeof ldcw));
  run_compare(&f, "BcFlow", "bc.BcFlow");
  fx_close(&f);
}
END_TEST

/* 70000 nops: CR_ETOOLARGE, and the method keeps its code. */
START_TEST(test_bc_reloc__too_large) {
  fx f;
  fx_open(&f, "bc/BcFlow");
  cr_member *m = method(f.c, "nested");
  const uint8_t *before = cr_member_code(m)->code;
  cr_body *b = decode(&f, "nested");
  for (int k = 0; k < 70000; k++) add(b, NULL, CR_OP_NOP, 0, 0);
  cr_diag d;
  cr_diag_clear(&d);
  ck_assert_int_eq(cr_an_commit(f.an, b, &d), CR_ETOOLARGE);
  ck_assert_msg(strstr(d.msg, "nested(I)I") && strstr(d.msg, "65535"),
                "%s", d.msg);
  ck_assert_ptr_eq(cr_member_code(m)->code, before);
  /* whole-class re-encoding reports it and keeps going */
  fx_close(&f);
}
END_TEST

/* A branch before super(): the frame at the join holds uninitializedThis
** in local 0 and on the stack. */
START_TEST(test_bc_reloc__ctor_branch_before_super) {
  fx f;
  fx_open(&f, "bc/BcFlow");
  cr_body *b = decode(&f, "<init>");
  cr_insn *a0 = find_op(b, CR_OP_ALOAD_0);
  cr_insn *lab = cr_label_new(b);
  cr_insn *i = add(b, a0, CR_OP_ILOAD_1, 1, 0);
  cr_insn *br = add(b, i, CR_OP_IFEQ, 0, 0);
  br->target = lab;
  i = add(b, br, CR_OP_ICONST_0, 0, 0);
  i = add(b, i, CR_OP_POP, 0, 0);
  cr_body_insert_after(b, i, lab);
  commit(&f, b);
  cr_member *m = method(f.c, "<init>");
  cr_code *code = cr_member_code(m);
  cr_attr *at = cr_attrs_find(&code->attrs, CR_ATTR_STACKMAPTABLE);
  ck_assert_ptr_nonnull(at);
  cr_xframe *fr;
  uint32_t n;
  cr_diag d;
  cr_diag_clear(&d);
  ck_assert_int_eq(cr_smt_expand(&fr, &n, f.c, m, at->u.smt, &d), 0);
  ck_assert_uint_ge(n, 1);
  ck_assert_uint_eq(fr[0].off, lab->off);
  ck_assert_int_eq(fr[0].locals[0].tag, CR_VT_UNINITTHIS);
  ck_assert_int_eq(fr[0].locals[1].tag, CR_VT_INTEGER);
  ck_assert_uint_eq(fr[0].nstack, 1);
  ck_assert_int_eq(fr[0].stack[0].tag, CR_VT_UNINITTHIS);
  run_compare(&f, "BcFlow", "bc.BcFlow");
  fx_close(&f);
}
END_TEST

/* Unreachable code inside a try range: nop...athrow with a Throwable
** frame, and the range split around it (ASM's rule). */
START_TEST(test_bc_reloc__dead_code_in_try) {
  fx f;
  fx_open(&f, "bc/BcFlow");
  cr_body *b = decode(&f, "deadInTry");
  /* javac leaves the returns out: [0,5) [6,7); make it one range [0,7) */
  ck_assert_uint_eq(b->ntcb, 2);
  b->tcb[0].end = b->tcb[1].end;
  b->ntcb = 1;
  cr_insn *ret = find_op(b, CR_OP_IRETURN);
  cr_insn *ifle = find_op(b, CR_OP_IFLE);
  cr_insn *i = add(b, ret, CR_OP_ICONST_5, 0, 0);
  i = add(b, i, CR_OP_POP, 0, 0);
  i = add(b, i, CR_OP_GOTO, 0, 0);
  i->target = ifle->target;
  commit(&f, b);
  cr_code *code = cr_member_code(method(f.c, "deadInTry"));
  ck_assert_uint_eq(code->nexc, 2);
  const uint8_t dead[] = {CR_OP_NOP, CR_OP_NOP, CR_OP_NOP, CR_OP_NOP,
                          CR_OP_ATHROW};
  ck_assert(has_bytes(code, dead, sizeof dead));
  ck_assert_uint_eq(code->exc[0].end, ret->off + 1);
  ck_assert_uint_eq(code->exc[1].start, ret->off + 1 + 5);
  run_compare(&f, "BcFlow", "bc.BcFlow");
  fx_close(&f);
}
END_TEST

/* Version 49: jsr/ret written with the IR survive re-encoding, also in
** stress mode (jsr_w), and no StackMapTable is written. */
START_TEST(test_bc_reloc__jsr_ret_v49) {
  for (int stress = 0; stress < 2; stress++) {
    fx f;
    fx_open(&f, "bc/BcOld");
    f.c->major = 49;
    cr_member *m = method(f.c, "jsrf");
    cr_code *code = cr_member_code(m);
    code->attrs.n = 0;            /* no debug tables to rebind */
    cr_body *b = decode(&f, "jsrf");
    while (b->first) cr_body_remove(b, b->first);
    cr_insn *sub = cr_label_new(b);
    cr_insn *i = add(b, NULL, CR_OP_JSR, 0, 0);
    i->target = sub;
    i = add(b, i, CR_OP_ILOAD_0, 0, 0);
    i = add(b, i, CR_OP_IRETURN, 0, 0);
    cr_body_insert_after(b, i, sub);
    i = add(b, sub, CR_OP_ASTORE_1, 1, 0);
    i = add(b, i, CR_OP_IINC, 0, 1);
    i = add(b, i, CR_OP_RET, 1, 0);
    commit(&f, b);
    ck_assert_uint_eq(code->max_locals, 2);
    ck_assert_uint_eq(code->max_stack, 1);
    const uint8_t want[] = {CR_OP_JSR, 0, 5, CR_OP_ILOAD_0, CR_OP_IRETURN,
                            CR_OP_ASTORE_1, CR_OP_IINC, 0, 1, CR_OP_RET, 1};
    ck_assert_uint_eq(code->code_len, sizeof want);
    ck_assert(memcmp(code->code, want, sizeof want) == 0);
    cr_diag d;
    cr_diag_clear(&d);
    cr_reencode_opts o;
    memset(&o, 0, sizeof o);
    o.flags = stress ? CR_REENCODE_STRESS : 0;
    ck_assert_msg(cr_reencode(f.c, &o, &d) == 0, "%s", d.msg);
    ck_assert_uint_eq(o.nfail, 0);
    for (uint32_t k = 0; k < f.c->nmethods; k++) {
      cr_code *mc = cr_member_code(&f.c->methods[k]);
      ck_assert_ptr_null(cr_attrs_find(&mc->attrs, CR_ATTR_STACKMAPTABLE));
    }
    if (stress) {
      const uint8_t jw[] = {CR_OP_JSR_W};
      ck_assert(has_bytes(code, jw, 1));
    } else {
      ck_assert(memcmp(code->code, want, sizeof want) == 0);
    }
    char *want_out = NULL;
    {
      /* the expected output of the original main */
      want_out = run_java(tu_fixtures(), "bc.BcOld");
    }
    if (want_out) {
      ck_assert_str_eq(want_out, "41\n45\n");
      free(want_out);
    }
    /* our jsrf returns x + 1 */
    char dir[] = "/tmp/cccp-bc-XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    char path[1024], cp[2048];
    snprintf(path, sizeof path, "%s/bc", dir);
    mkdir(path, 0700);
    snprintf(path, sizeof path, "%s/bc/BcOld.class", dir);
    cr_buf out;
    cr_buf_init(&out);
    ck_assert_int_eq(cr_cf_write(&out, f.c, &d), 0);
    FILE *fp = fopen(path, "wb");
    fwrite(out.data, 1, out.len, fp);
    fclose(fp);
    cr_buf_free(&out);
    snprintf(cp, sizeof cp, "%s", dir);
    char *got = run_java(cp, "bc.BcOld");
    if (got) {
      ck_assert_msg(strcmp(got, "42\n45\n") == 0, "got %s", got);
      free(got);
    }
    snprintf(cp, sizeof cp, "rm -rf '%s'", dir);
    ck_assert_int_eq(system(cp), 0);
    /* version 51: jsr is refused with a message naming the method */
    f.c->major = 51;
    cr_diag_clear(&d);
    cr_body *b2 = decode(&f, "jsrf");
    ck_assert_int_eq(cr_an_commit(f.an, b2, &d), CR_EFORMAT);
    ck_assert_msg(strstr(d.msg, "jsrf(I)I"), "%s", d.msg);
    fx_close(&f);
  }
}
END_TEST

/* A copy of 'm' whose Code attribute is parsed again (a twin's copy). */
static cr_member *code_copy(fx *f, const cr_member *m) {
  cr_member *m2 = cr_arena_alloc(f->a, sizeof *m2);
  cr_attr *v = cr_arena_alloc(f->a, (m->attrs.n + 1) * sizeof *v);
  ck_assert(m2 && v);
  *m2 = *m;
  memcpy(v, m->attrs.v, m->attrs.n * sizeof *v);
  m2->attrs.v = v;
  for (uint32_t k = 0; k < m->attrs.n; k++) {
    if (v[k].kind != CR_ATTR_CODE) continue;
    cr_diag d;
    cr_diag_clear(&d);
    ck_assert_msg(cr_cf_reparse_attr(f->c, f->a, &m->attrs.v[k], &v[k],
                                     &d) == 0, "%s", d.msg);
  }
  return m2;
}

/* An edited body copied for another method with the same code commits to
** the same bytes, and its line table is the copy's own: committing the
** copy leaves the original's tables alone and rebinds its method's. */
START_TEST(test_bc_reloc__clone) {
  fx f;
  fx_open(&f, "bc/BcFlow");
  int lines = 0;
  for (uint32_t k = 0; k < f.c->nmethods; k++) {
    cr_member *m = &f.c->methods[k];
    if (!cr_member_code(m)) continue;
    cr_member *m2 = code_copy(&f, m);
    cr_diag d;
    cr_diag_clear(&d);
    cr_body *b;
    ck_assert_int_eq(cr_body_decode(&b, f.c, m, f.a, &d), 0);
    /* every offset moves */
    cr_insn *nop = cr_insn_new(b, CR_OP_NOP);
    cr_body_insert_before(b, b->first, nop);
    cr_insn *xl[2] = {nop, NULL}, *c0 = b->first;
    cr_body *c;
    ck_assert_msg(cr_body_clone(&c, b, m2, f.a, xl, 2, &d) == 0, "%s",
                  d.msg);
    ck_assert_ptr_eq(xl[0], c->first);
    ck_assert_ptr_ne(xl[0], nop);
    ck_assert_ptr_null(xl[1]);
    ck_assert_ptr_eq(b->first, c0);
    ck_assert_ptr_eq(c->m, m2);
    commit(&f, b);
    commit(&f, c);
    const cr_code *x = cr_member_code(m), *y = cr_member_code(m2);
    ck_assert_ptr_ne(x, y);
    ck_assert_uint_eq(x->code_len, y->code_len);
    ck_assert(memcmp(x->code, y->code, x->code_len) == 0);
    ck_assert_uint_eq(x->max_stack, y->max_stack);
    ck_assert_uint_eq(x->max_locals, y->max_locals);
    ck_assert_uint_eq(x->nexc, y->nexc);
    for (uint32_t e = 0; e < x->nexc; e++) {
      ck_assert_uint_eq(x->exc[e].start, y->exc[e].start);
      ck_assert_uint_eq(x->exc[e].handler, y->exc[e].handler);
    }
    const cr_attr *lx = cr_attrs_find(&x->attrs, CR_ATTR_LINENUMBERTABLE);
    const cr_attr *ly = cr_attrs_find(&y->attrs, CR_ATTR_LINENUMBERTABLE);
    ck_assert(!lx == !ly);
    if (!lx) continue;
    ck_assert_ptr_ne(lx->u.lines->v, ly->u.lines->v);
    ck_assert_uint_eq(lx->u.lines->n, ly->u.lines->n);
    for (uint32_t j = 0; j < lx->u.lines->n; j++) {
      ck_assert_uint_eq(lx->u.lines->v[j].pc, ly->u.lines->v[j].pc);
      ck_assert_uint_eq(lx->u.lines->v[j].line, ly->u.lines->v[j].line);
    }
    ck_assert_uint_ge(lx->u.lines->v[0].pc, 1);
    lines++;
    /* a method whose tables differ gets no copy */
    cr_member *m3 = code_copy(&f, m);
    cr_member_code(m3)->attrs.n = 0;
    ck_assert_int_eq(cr_body_decode(&b, f.c, m, f.a, &d), 0);
    ck_assert_int_eq(cr_body_clone(&c, b, m3, f.a, NULL, 0, &d), CR_EUSAGE);
  }
  ck_assert_int_gt(lines, 0);
  fx_close(&f);
}
END_TEST

static Suite *suite(void) {
  Suite *s = suite_create("bytecode");
  TCase *tc = tcase_create("reloc");
  tcase_set_timeout(tc, 120);
  tcase_add_test(tc, test_bc_reloc__opcode_table);
  tcase_add_test(tc, test_bc_reloc__identity_layout);
  tcase_add_test(tc, test_bc_reloc__far_branch);
  tcase_add_test(tc, test_bc_reloc__switch_padding);
  tcase_add_test(tc, test_bc_reloc__wide_and_ldc_w);
  tcase_add_test(tc, test_bc_reloc__too_large);
  tcase_add_test(tc, test_bc_reloc__ctor_branch_before_super);
  tcase_add_test(tc, test_bc_reloc__dead_code_in_try);
  tcase_add_test(tc, test_bc_reloc__jsr_ret_v49);
  tcase_add_test(tc, test_bc_reloc__clone);
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
