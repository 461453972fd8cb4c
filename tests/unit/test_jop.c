/*
** test_jop.c -- the JOP timing model: every opcode of both tables costed
** and consistent with the tables' own values at r = 1, w = 2; the r and w
** formulas and the load-time terms against hand-computed values; the
** software and unsupported bytecodes; the completion of small
** cross-profiles with hand-computed answers.
*/
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cccp/jop.h"

static cr_diag d;

static cr_jop_model model(int year, int r, int w, int sw) {
  cr_jop_model m;
  cr_diag_clear(&d);
  ck_assert_int_eq(cr_jop_model_init(&m, year, r, w, sw, &d), 0);
  return m;
}

/* Every row of both tables: a kind, a formula where the kind needs one,
** and the formula gives the table's value at r = 1, w = 2 (the hit cost
** for invokes and returns). */
START_TEST(test_jop__tables) {
  static const int years[] = {2014, 2008};
  for (int y = 0; y < 2; y++) {
    cr_jop_model m = model(years[y], 1, 2, 200);
    int counts[5] = {0};
    for (unsigned op = 0; op < 202; op++) {
      int kind, v;
      const char *f;
      ck_assert_int_eq(cr_jop_table_entry(years[y], op, &kind, &v, &f), 0);
      ck_assert_int_ge(kind, CR_JOP_CONST);
      ck_assert_int_le(kind, CR_JOP_UNSUPPORTED);
      counts[kind]++;
      ck_assert_int_eq(m.kind[op], kind);
      if (kind == CR_JOP_SOFTWARE || kind == CR_JOP_UNSUPPORTED) {
        ck_assert_int_eq(v, -1);
        ck_assert_str_eq(f, "");
        ck_assert_uint_eq(m.block[op], 200);
        continue;
      }
      ck_assert_int_ge(v, 1);
      ck_assert_int_eq(cr_jop_eval(f, 1, 2, 4, 0), v);
      ck_assert_uint_eq(m.hit[op], (unsigned)v);
      ck_assert_uint_eq(m.block[op], kind == CR_JOP_RETURN ? 0u
                                                           : (unsigned)v);
      if (kind == CR_JOP_CONST) ck_assert_ptr_null(strchr(f, 'b'));
      else ck_assert_ptr_nonnull(strstr(f, "max(0,b-"));
    }
    ck_assert_int_eq(counts[CR_JOP_INVOKE], 4);
    ck_assert_int_eq(counts[CR_JOP_RETURN], 6);
    for (unsigned op = 202; op < 256; op++) {
      ck_assert_int_eq(m.kind[op], CR_JOP_UNSUPPORTED);
      ck_assert_uint_eq(m.block[op], 200);
    }
    ck_assert_int_ne(cr_jop_table_entry(years[y], 202, &counts[0],
                                        &counts[1], &(const char *){0}), 0);
  }
  /* the kinds of the facts' lists: 2014 has 46 software and 6
  ** unsupported opcodes; 2008 more of both */
  cr_jop_model a = model(2014, 1, 2, 200), b = model(2008, 1, 2, 200);
  int sw14 = 0, un14 = 0, sw08 = 0, un08 = 0;
  for (unsigned op = 0; op < 202; op++) {
    sw14 += a.kind[op] == CR_JOP_SOFTWARE;
    un14 += a.kind[op] == CR_JOP_UNSUPPORTED;
    sw08 += b.kind[op] == CR_JOP_SOFTWARE;
    un08 += b.kind[op] == CR_JOP_UNSUPPORTED;
  }
  ck_assert_int_eq(sw14, 46);
  ck_assert_int_eq(un14, 6);
  ck_assert_int_gt(sw08 + un08, sw14 + un14);
  ck_assert_str_eq(cr_jop_mnemonic(182), "invokevirtual");
  ck_assert_str_eq(cr_jop_mnemonic(0), "nop");
  ck_assert_str_eq(cr_jop_mnemonic(240), "?");
}
END_TEST

/* Wait states: formulas in r and w, hand-computed. */
START_TEST(test_jop__wait_states) {
  cr_jop_model m = model(2014, 1, 2, 200);
  ck_assert_uint_eq(m.block[18], 8);       /* ldc: 7+r */
  ck_assert_uint_eq(m.block[79], 14);      /* iastore: 10+2r+w */
  ck_assert_uint_eq(m.block[80], 52);      /* lastore: 48+2r+w+max(0,w-3) */
  ck_assert_uint_eq(m.block[179], 7);      /* putstatic: 5+w */
  ck_assert_uint_eq(m.hit[182], 100);
  ck_assert_uint_eq(m.hit[183], 74);
  ck_assert_uint_eq(m.hit[185], 115);
  m = model(2014, 3, 5, 200);
  ck_assert_uint_eq(m.block[18], 10);
  ck_assert_uint_eq(m.block[79], 21);      /* 10+6+5 */
  ck_assert_uint_eq(m.block[80], 61);      /* 48+6+5+2 */
  ck_assert_uint_eq(m.block[179], 10);
  ck_assert_uint_eq(m.hit[182], 105);      /* 98+6+0+1 */
  ck_assert_uint_eq(m.hit[184], 77);       /* 73+3+0+1 */
  ck_assert_uint_eq(m.hit[185], 124);      /* 111+12+0+1 */
  ck_assert_uint_eq(m.hit[177], 21);       /* 21+max(0,r-3) */
  m = model(2014, 5, 9, 200);
  ck_assert_uint_eq(m.hit[182], 98 + 10 + 2 + 3);
  ck_assert_uint_eq(m.hit[172], 25);
  m = model(2014, 0, 0, 200);
  ck_assert_uint_eq(m.block[179], 5);
  /* the paper-era table: invokes 100+2r, 74+r, 114+4r */
  m = model(2008, 1, 1, 200);
  ck_assert_uint_eq(m.hit[182], 102);
  ck_assert_uint_eq(m.hit[184], 75);
  ck_assert_uint_eq(m.hit[185], 118);
  ck_assert_int_eq(m.kind[11], CR_JOP_SOFTWARE);   /* fconst_0 */
  ck_assert_int_eq(m.kind[99], CR_JOP_UNSUPPORTED); /* dadd */
  m = model(2008, 1, 2, 300);
  ck_assert_uint_eq(m.block[99], 300);
  ck_assert_uint_eq(m.block[97], 300);     /* ladd: software in 2008 */
}
END_TEST

/* Load times and the size-dependent parts (the facts' closed forms). */
START_TEST(test_jop__load) {
  cr_jop_model m = model(2014, 1, 2, 200);
  for (unsigned op = 172; op <= 185; op++) {
    if (op == 178) op = 182;
    unsigned h = op >= 182 ? 37 : op == 177 ? 9
                 : op == 173 || op == 175 ? 11 : 10;
    ck_assert_uint_eq(m.hidden[op], h);
  }
  for (uint32_t n = 0; n < 300; n++) {
    uint64_t b = cr_jop_load_miss(&m, n);
    ck_assert_uint_eq(b, 2 * n + 8);
    long inv = 2 * (long)n - 29, ret = 2 * (long)n - 1,
         iret = 2 * (long)n - 2, lret = 2 * (long)n - 3;
    ck_assert_uint_eq(cr_jop_cost_b(&m, 182, b), 100 + (inv > 0 ? inv : 0));
    ck_assert_uint_eq(cr_jop_cost_b(&m, 177, b), 21 + (ret > 0 ? ret : 0));
    ck_assert_uint_eq(cr_jop_cost_b(&m, 172, b), 23 + (iret > 0 ? iret : 0));
    ck_assert_uint_eq(cr_jop_cost_b(&m, 175, b), 25 + (lret > 0 ? lret : 0));
    ck_assert_uint_eq(cr_jop_cost_b(&m, 182, 4), 100);   /* a hit */
  }
  ck_assert_uint_eq(cr_jop_cost_b(&m, 182, cr_jop_load_miss(&m, 64)), 199);
  ck_assert_uint_eq(cr_jop_cost_b(&m, 96, 1000), m.block[96]);  /* iadd */
  m = model(2014, 3, 5, 200);
  for (uint32_t n = 0; n < 100; n++) {
    ck_assert_uint_eq(cr_jop_load_miss(&m, n), 4 * n + 10);
    long inv = 4 * (long)n - 27;
    ck_assert_uint_eq(cr_jop_cost_b(&m, 182, cr_jop_load_miss(&m, n)),
                      105 + (inv > 0 ? inv : 0));
  }
  m = model(2014, 0, 0, 200);                 /* c clamps at 0 */
  ck_assert_uint_eq(cr_jop_load_miss(&m, 10), 28);
  ck_assert_uint_eq(cr_jop_words(0), 0);
  ck_assert_uint_eq(cr_jop_words(1), 1);
  ck_assert_uint_eq(cr_jop_words(4), 1);
  ck_assert_uint_eq(cr_jop_words(5), 2);
  ck_assert_uint_eq(cr_jop_words(65535), 16384);
}
END_TEST

START_TEST(test_jop__eval) {
  ck_assert_int_eq(cr_jop_eval("1", 0, 0, 0, 0), 1);
  ck_assert_int_eq(cr_jop_eval("2+3*4-1", 0, 0, 0, 0), 13);
  ck_assert_int_eq(cr_jop_eval("(2+3)*4", 0, 0, 0, 0), 20);
  ck_assert_int_eq(cr_jop_eval("max(0,r-3)+w*2", 5, 4, 0, 0), 10);
  ck_assert_int_eq(cr_jop_eval("max(0,b-37)", 0, 0, 30, 0), 0);
  ck_assert_int_eq(cr_jop_eval("6+(n+1)*(2+max(0,r-1))", 3, 0, 0, 10), 50);
  static const char *bad[] = {"", "1+", "max(1)", "x", "(1", "1)", "max(1,2",
                              "2**3", "r w", "-"};
  for (size_t k = 0; k < sizeof bad / sizeof *bad; k++)
    ck_assert_msg(cr_jop_eval(bad[k], 1, 1, 1, 1) == -1, "%s", bad[k]);
}
END_TEST

START_TEST(test_jop__settings) {
  cr_jop_model m;
  ck_assert_int_eq(cr_jop_model_init(&m, 2010, 1, 2, 200, &d), CR_EUSAGE);
  cr_diag_clear(&d);
  ck_assert_int_eq(cr_jop_model_init(&m, 2014, -1, 2, 200, &d), CR_EUSAGE);
  cr_diag_clear(&d);
  ck_assert_int_eq(cr_jop_model_init(&m, 2014, 1, CR_JOP_MAX_WS + 1, 200, &d),
                   CR_EUSAGE);
  cr_diag_clear(&d);
  ck_assert_int_eq(cr_jop_model_init(&m, 2014, 1, 2, -5, &d), CR_EUSAGE);
  ck_assert_int_eq(cr_jop_return_op("()V"), 177);
  ck_assert_int_eq(cr_jop_return_op("(I)Z"), 172);
  ck_assert_int_eq(cr_jop_return_op("()C"), 172);
  ck_assert_int_eq(cr_jop_return_op("(J)J"), 173);
  ck_assert_int_eq(cr_jop_return_op("()F"), 174);
  ck_assert_int_eq(cr_jop_return_op("()D"), 175);
  ck_assert_int_eq(cr_jop_return_op("()Ljava/lang/String;"), 176);
  ck_assert_int_eq(cr_jop_return_op("()[I"), 176);
}
END_TEST

/*
** The completion on a hand-made tree (2014 table, r = 1, w = 2: miss
** load time 2n+8):
**   main (40 bytes: 10 words)          1 call,  1000 cycles of blocks
**     a  (100 bytes: 25 words, int)    3 calls,  500
**       b (8 bytes: 2 words, void)     2 calls,   50
**     List.sort (library)              5 calls
**       a                              1 call,   100
**     Object.hashCode (native)         4 calls
*/
static cr_profile *hand(int split) {
  cr_profile *p = cr_profile_new("cccp");
  ck_assert_ptr_nonnull(p);
  p->jop = (cr_prof_jop){.year = 2014, .r = 1, .w = 2, .software = 200,
                         .split = split};
  uint32_t mm = cr_profile_add_method(p, "M", "main", "([Ljava/lang/String;)V",
                                      40, 0, 0);
  uint32_t ma = cr_profile_add_method(p, "M", "a", "(I)I", 100, 0, 0);
  uint32_t mb = cr_profile_add_method(p, "M", "b", "()V", 8, 0, 0);
  uint32_t ml = cr_profile_add_method(p, "java/util/List", "sort",
                                      "(Ljava/util/Comparator;)V", 0, 0, 1);
  uint32_t mn = cr_profile_add_method(p, "java/lang/Object", "hashCode",
                                      "()I", 0, 1, 1);
  long t = cr_profile_add_tree(p, "main");
  ck_assert_int_ge(t, 0);
  int cy = cr_profile_add_metric(p, "cycles");
  int rt = split ? cr_profile_add_metric(p, "returns") : -1;
  uint32_t nm = cr_profile_add_node(p, (uint32_t)t, 0, mm, 1);
  uint32_t na = cr_profile_add_node(p, (uint32_t)t, nm, ma, 3);
  uint32_t nb = cr_profile_add_node(p, (uint32_t)t, na, mb, 2);
  uint32_t nl = cr_profile_add_node(p, (uint32_t)t, nm, ml, 5);
  uint32_t na2 = cr_profile_add_node(p, (uint32_t)t, nl, ma, 1);
  uint32_t nn = cr_profile_add_node(p, (uint32_t)t, nm, mn, 4);
  ck_assert_uint_eq(nn, 6);
  p->mval[cy][nm] = 1000;
  p->mval[cy][na] = 500;
  p->mval[cy][nb] = 50;
  p->mval[cy][na2] = 100;
  if (split) {        /* one call of a threw; b always returned */
    p->mval[rt][nm] = 1;
    p->mval[rt][na] = 2;
    p->mval[rt][nb] = 2;
    p->mval[rt][na2] = 1;
  }
  return p;
}

START_TEST(test_jop__complete) {
  for (int split = 0; split < 2; split++) {
    cr_profile *p = hand(split);
    cr_diag_clear(&d);
    ck_assert_int_eq(cr_jop_complete(p, &d), 0);
    int cy = cr_profile_find_metric(p, "cycles");
    /* main: + 3 * (58-37) invoking a (25 words), + 21 for its own return
    ** (top level: no caller, the constant part); b (2 words) and the
    ** library and native callees add nothing */
    ck_assert_uint_eq(p->mval[cy][1], 1000 + 3 * 21 + 21);
    /* a: returns (ireturn 23, H 10) to main (10 words: b 28): 41 each,
    ** 3 times, or the 2 normal returns; + 0 for invoking b */
    ck_assert_uint_eq(p->mval[cy][2], 500 + (split ? 2 : 3) * 41);
    /* b: return (21, H 9) to a (25 words: b 58): 70 each */
    ck_assert_uint_eq(p->mval[cy][3], 50 + 2 * 70);
    ck_assert_uint_eq(p->mval[cy][4], 0);           /* library: unknown */
    ck_assert_uint_eq(p->mval[cy][5], 100 + 23);    /* to a library caller */
    ck_assert_uint_eq(p->mval[cy][6], 0);           /* native */
    ck_assert_int_eq(p->jop.completed, 1);
    cr_diag_clear(&d);
    ck_assert_int_eq(cr_jop_complete(p, &d), CR_EUSAGE);
    ck_assert_ptr_nonnull(strstr(d.msg, "completed already"));
    cr_profile_free(p);
  }
  /* a run that simulated the method cache charged the misses itself:
  ** only the constant part of each return is added */
  for (int split = 0; split < 2; split++) {
    cr_profile *p = hand(split);
    p->jop.cache_words = 1024;
    p->jop.cache_blocks = 16;
    cr_diag_clear(&d);
    ck_assert_int_eq(cr_jop_complete(p, &d), 0);
    int cy = cr_profile_find_metric(p, "cycles");
    ck_assert_uint_eq(p->mval[cy][1], 1000 + 21);
    ck_assert_uint_eq(p->mval[cy][2], 500 + (split ? 2 : 3) * 23);
    ck_assert_uint_eq(p->mval[cy][3], 50 + 2 * 21);
    ck_assert_uint_eq(p->mval[cy][4], 0);
    ck_assert_uint_eq(p->mval[cy][5], 100 + 23);
    cr_profile_free(p);
  }
  cr_profile *q = cr_profile_new("cccp");
  cr_diag_clear(&d);
  ck_assert_int_eq(cr_jop_complete(q, &d), CR_EUSAGE);
  ck_assert_ptr_nonnull(strstr(d.msg, "--jop"));
  cr_profile_free(q);
}
END_TEST

/* The settings travel through the profile file; merging keeps equal ones
** and refuses different ones. */
START_TEST(test_jop__profile_attrs) {
  cr_profile *p = hand(1);
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  ck_assert_int_eq(cr_profile_write(p, f, &d), 0);
  fclose(f);
  ck_assert_ptr_nonnull(strstr(buf, "jop-model=\"2014\" jop-rws=\"1\" "
                                    "jop-wws=\"2\" jop-software=\"200\" "
                                    "jop-split=\"1\" jop-completed=\"0\""));
  cr_profile *r = NULL;
  cr_diag_clear(&d);
  ck_assert_int_eq(cr_profile_load_memory(&r, buf, len, "t.xml", &d), 0);
  ck_assert_int_eq(r->jop.year, 2014);
  ck_assert_int_eq(r->jop.r, 1);
  ck_assert_int_eq(r->jop.w, 2);
  ck_assert_int_eq(r->jop.software, 200);
  ck_assert_int_eq(r->jop.split, 1);
  ck_assert_int_eq(r->jop.completed, 0);
  ck_assert_int_eq(r->jop.cache_blocks, 0);
  const cr_profile *two[2] = {p, r};
  cr_profile *m = NULL;
  ck_assert_int_eq(cr_profile_merge(&m, two, 2, CR_MERGE_BY_NAME, &d), 0);
  ck_assert_int_eq(m->jop.year, 2014);
  ck_assert_int_eq(cr_jop_complete(m, &d), 0);
  cr_profile_free(m);
  r->jop.w = 3;
  cr_diag_clear(&d);
  ck_assert_int_eq(cr_profile_merge(&m, two, 2, CR_MERGE_BY_NAME, &d),
                   CR_EUSAGE);
  cr_profile_free(r);
  free(buf);
  /* a profile without settings has none; half a setting is an error */
  static const char *plain = "<cct version=\"1\" mode=\"cccp\"></cct>";
  cr_diag_clear(&d);
  ck_assert_int_eq(cr_profile_load_memory(&r, plain, strlen(plain), "p.xml",
                                          &d), 0);
  ck_assert_int_eq(r->jop.year, 0);
  cr_profile_free(r);
  static const char *half =
      "<cct version=\"1\" mode=\"cccp\" jop-model=\"2014\"></cct>";
  cr_diag_clear(&d);
  ck_assert_int_eq(cr_profile_load_memory(&r, half, strlen(half), "h.xml",
                                          &d), CR_EFORMAT);
  static const char *cache =
      "<cct version=\"1\" mode=\"cccp\" jop-model=\"2014\" jop-rws=\"1\" "
      "jop-wws=\"2\" jop-cache-words=\"1024\" jop-cache-blocks=\"16\">"
      "</cct>";
  cr_diag_clear(&d);
  ck_assert_int_eq(cr_profile_load_memory(&r, cache, strlen(cache), "c.xml",
                                          &d), 0);
  ck_assert_int_eq(r->jop.cache_words, 1024);
  ck_assert_int_eq(r->jop.cache_blocks, 16);
  f = open_memstream(&buf, &len);
  ck_assert_int_eq(cr_profile_write(r, f, &d), 0);
  fclose(f);
  ck_assert_ptr_nonnull(strstr(buf, "jop-cache-words=\"1024\" "
                                    "jop-cache-blocks=\"16\""));
  free(buf);
  cr_profile_free(r);
  static const char *badcache =
      "<cct version=\"1\" mode=\"cccp\" jop-model=\"2014\" jop-rws=\"1\" "
      "jop-wws=\"2\" jop-cache-words=\"1000\" jop-cache-blocks=\"16\">"
      "</cct>";
  cr_diag_clear(&d);
  ck_assert_int_eq(cr_profile_load_memory(&r, badcache, strlen(badcache),
                                          "b.xml", &d), CR_EFORMAT);
  static const char *year =
      "<cct version=\"1\" mode=\"cccp\" jop-model=\"2011\" jop-rws=\"1\" "
      "jop-wws=\"1\"></cct>";
  cr_diag_clear(&d);
  ck_assert_int_eq(cr_profile_load_memory(&r, year, strlen(year), "y.xml",
                                          &d), CR_EFORMAT);
  cr_profile_free(p);
}
END_TEST

static Suite *suite(void) {
  Suite *s = suite_create("jop");
  TCase *t = tcase_create("core");
  tcase_add_test(t, test_jop__tables);
  tcase_add_test(t, test_jop__wait_states);
  tcase_add_test(t, test_jop__load);
  tcase_add_test(t, test_jop__eval);
  tcase_add_test(t, test_jop__settings);
  tcase_add_test(t, test_jop__complete);
  tcase_add_test(t, test_jop__profile_attrs);
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
