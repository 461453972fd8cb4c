/*
** test_cf_parse.c -- class-file reader: fixtures, one pass/fail pair per
** JVMS rule, every truncation, byte corruption, allocation failure.
*/
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cccp/classfile.h"
#include "testutil.h"

/* #1 Class A, #2 Utf8 "A", #3 Class Object, #4 Utf8 "java/lang/Object" */
static const uint8_t BASE[] = {
  7, 0, 2, 1, 0, 1, 'A', 7, 0, 4, 1, 0, 16, 'j', 'a', 'v', 'a', '/', 'l',
  'a', 'n', 'g', '/', 'O', 'b', 'j', 'e', 'c', 't'};
/* public class A extends Object, no members, no attributes */
static const uint8_t BODY[] = {0, 0x21, 0, 1, 0, 3, 0, 0, 0, 0, 0, 0, 0, 0};

/* Class with the BASE pool plus 'extra' entries ('count' slots total). */
static size_t mk(uint8_t *out, unsigned major, unsigned count,
                 const uint8_t *extra, size_t elen, const uint8_t *body,
                 size_t blen) {
  uint8_t pool[1024];
  memcpy(pool, BASE, sizeof BASE);
  if (elen) memcpy(pool + sizeof BASE, extra, elen);
  return tu_class(out, 4096, major, count, pool, sizeof BASE + elen, body,
                  blen);
}

/* Parse; return the code, leave the diagnostic in 'd'. */
static int parse(const uint8_t *b, size_t n, cr_diag *d) {
  cr_arena *a = cr_arena_new();
  cr_class *c;
  cr_diag_clear(d);
  int rc = cr_cf_parse(&c, a, b, n, d);
  if (rc == 0) {          /* whatever parses must write back identically */
    cr_buf out;
    cr_buf_init(&out);
    ck_assert_int_eq(cr_cf_write(&out, c, d), 0);
    ck_assert_uint_eq(out.len, n);
    ck_assert(memcmp(out.data, b, n) == 0);
    cr_buf_free(&out);
  } else {
    ck_assert_int_eq(d->code, rc);
    ck_assert(d->msg[0] != '\0');
  }
  cr_arena_free(a);
  return rc;
}

#define FAILS(b, n, code, frag)                                         \
  do {                                                                  \
    cr_diag d_;                                                         \
    ck_assert_int_eq(parse((b), (n), &d_), (code));                     \
    ck_assert_msg(strstr(d_.msg, (frag)), "message '%s' lacks '%s'",    \
                  d_.msg, (frag));                                      \
  } while (0)
#define PASSES(b, n)                                                    \
  do {                                                                  \
    cr_diag d_;                                                         \
    ck_assert_msg(parse((b), (n), &d_) == 0, "%s", d_.msg);            \
  } while (0)

START_TEST(test_cf_parse__minimal_and_magic) {
  uint8_t b[4096];
  size_t n = mk(b, 52, 5, NULL, 0, BODY, sizeof BODY);
  PASSES(b, n);
  b[3] = 0xBF;
  FAILS(b, n, CR_EFORMAT, "bad magic");
  FAILS(b, 0, CR_EFORMAT, "truncated");
}
END_TEST

START_TEST(test_cf_parse__version) {
  uint8_t b[4096];
  size_t n = mk(b, 69, 5, NULL, 0, BODY, sizeof BODY);
  PASSES(b, n);
  n = mk(b, 45, 5, NULL, 0, BODY, sizeof BODY);
  PASSES(b, n);
  n = mk(b, 70, 5, NULL, 0, BODY, sizeof BODY);
  FAILS(b, n, CR_EUNSUPPORTED, "newer than 69");
  n = mk(b, 44, 5, NULL, 0, BODY, sizeof BODY);
  FAILS(b, n, CR_EFORMAT, "below 45");
  n = mk(b, 61, 5, NULL, 0, BODY, sizeof BODY);
  b[5] = 3;                                   /* 61.3 */
  FAILS(b, n, CR_EFORMAT, "minor");
  b[4] = b[5] = 0xFF;                         /* 61.65535: preview */
  PASSES(b, n);
}
END_TEST

START_TEST(test_cf_parse__cp_index) {
  uint8_t b[4096], body[sizeof BODY];
  memcpy(body, BODY, sizeof body);
  body[3] = 9;                                /* this_class = #9 */
  size_t n = mk(b, 52, 5, NULL, 0, body, sizeof body);
  FAILS(b, n, CR_EFORMAT, "constant pool index 9 out of range (count 5)");
  body[3] = 2;                                /* this_class = Utf8 */
  n = mk(b, 52, 5, NULL, 0, body, sizeof body);
  FAILS(b, n, CR_EFORMAT, "is Utf8, expected Class");
  body[3] = 1;
  body[5] = 0;                                /* super_class 0 is fine */
  n = mk(b, 52, 5, NULL, 0, body, sizeof body);
  PASSES(b, n);
  /* a Class naming a Class */
  static const uint8_t cc[] = {7, 0, 1};
  n = mk(b, 52, 6, cc, sizeof cc, BODY, sizeof BODY);
  FAILS(b, n, CR_EFORMAT, "constant pool entry 5 (Class)");
  /* bad tag */
  static const uint8_t bt[] = {2, 0, 1};
  n = mk(b, 52, 6, bt, sizeof bt, BODY, sizeof BODY);
  FAILS(b, n, CR_EFORMAT, "invalid tag 2");
  n = mk(b, 52, 0, NULL, 0, NULL, 0);
  FAILS(b, 10, CR_EFORMAT, "constant_pool_count is 0");
}
END_TEST

START_TEST(test_cf_parse__long_slots) {
  uint8_t b[4096];
  static const uint8_t l[] = {5, 1, 2, 3, 4, 5, 6, 7, 8};
  size_t n = mk(b, 52, 7, l, sizeof l, BODY, sizeof BODY);
  PASSES(b, n);
  n = mk(b, 52, 6, l, sizeof l, BODY, sizeof BODY);
  FAILS(b, n, CR_EFORMAT, "Long in the last slot");
  /* the slot after a Long is unusable */
  static const uint8_t s[] = {5, 0, 0, 0, 0, 0, 0, 0, 1, 8, 0, 6};
  n = mk(b, 52, 8, s, sizeof s, BODY, sizeof BODY);
  FAILS(b, n, CR_EFORMAT, "index 6 is unusable");
}
END_TEST

/* #5 MethodHandle kind K -> #6, #6 Methodref #1.#7, #7 NAT #8:#9,
** #8 "m" / "<init>", #9 "()V" */
static size_t mh(uint8_t *b, unsigned major, int kind, int init) {
  uint8_t e[64];
  size_t k = 0;
  const uint8_t head[] = {15, (uint8_t)kind, 0, 6, 10, 0, 1, 0, 7,
                          12, 0, 8, 0, 9};
  memcpy(e, head, sizeof head);
  k = sizeof head;
  if (init) {
    const uint8_t nm[] = {1, 0, 6, '<', 'i', 'n', 'i', 't', '>'};
    memcpy(e + k, nm, sizeof nm);
    k += sizeof nm;
  } else {
    const uint8_t nm[] = {1, 0, 1, 'm'};
    memcpy(e + k, nm, sizeof nm);
    k += sizeof nm;
  }
  const uint8_t d[] = {1, 0, 3, '(', ')', 'V'};
  memcpy(e + k, d, sizeof d);
  k += sizeof d;
  return mk(b, major, 10, e, k, BODY, sizeof BODY);
}

START_TEST(test_cf_parse__methodhandle) {
  uint8_t b[4096];
  size_t n = mh(b, 52, CR_REF_INVOKESTATIC, 0);
  PASSES(b, n);
  n = mh(b, 52, CR_REF_NEWINVOKESPECIAL, 1);
  PASSES(b, n);
  n = mh(b, 52, 10, 0);
  FAILS(b, n, CR_EFORMAT, "invalid reference_kind 10");
  n = mh(b, 52, 0, 0);
  FAILS(b, n, CR_EFORMAT, "invalid reference_kind 0");
  n = mh(b, 52, CR_REF_GETFIELD, 0);
  FAILS(b, n, CR_EFORMAT, "expected Fieldref");
  n = mh(b, 52, CR_REF_NEWINVOKESPECIAL, 0);
  FAILS(b, n, CR_EFORMAT, "may not refer to method 'm'");
  n = mh(b, 52, CR_REF_INVOKEVIRTUAL, 1);
  FAILS(b, n, CR_EFORMAT, "may not refer to method '<init>'");
  n = mh(b, 50, CR_REF_INVOKESTATIC, 0);
  FAILS(b, n, CR_EFORMAT, "needs class version 51");
}
END_TEST

/* Pool: BASE + #5 "SourceFile"; class attribute SourceFile -> #2 with the
** declared length 'len' and 'extra' bytes of contents beyond the u2. */
static size_t srcfile(uint8_t *b, uint32_t len, int extra) {
  static const uint8_t e[] = {1, 0, 10, 'S', 'o', 'u', 'r', 'c', 'e', 'F',
                              'i', 'l', 'e'};
  uint8_t body[64];
  memcpy(body, BODY, sizeof BODY);
  size_t k = sizeof BODY - 2;
  const uint8_t at[] = {0, 1, 0, 5, (uint8_t)(len >> 24),
                        (uint8_t)(len >> 16), (uint8_t)(len >> 8),
                        (uint8_t)len, 0, 2};
  memcpy(body + k, at, sizeof at);
  k += sizeof at;
  for (int i = 0; i < extra; i++) body[k++] = 0;
  return mk(b, 52, 6, e, sizeof e, body, k);
}

START_TEST(test_cf_parse__attr_length) {
  uint8_t b[4096];
  size_t n = srcfile(b, 2, 0);
  PASSES(b, n);
  n = srcfile(b, 3, 1);
  FAILS(b, n, CR_EFORMAT, "SourceFile attribute length 3 but its contents "
                          "end after 2 bytes");
  n = srcfile(b, 1, 1);   /* one byte of attribute, then a spare byte */
  FAILS(b, n, CR_EFORMAT, "truncated SourceFile");
  n = srcfile(b, 0x7FFFFFFF, 0);
  FAILS(b, n, CR_EFORMAT, "exceeds the 2 bytes left");
}
END_TEST

START_TEST(test_cf_parse__trailing) {
  uint8_t b[4096];
  size_t n = mk(b, 52, 5, NULL, 0, BODY, sizeof BODY);
  b[n] = 0;
  FAILS(b, n + 1, CR_EFORMAT, "1 trailing bytes after the class");
}
END_TEST

START_TEST(test_cf_parse__mutf8) {
  uint8_t b[4096];
  uint8_t e[] = {1, 0, 3, 'x', 0xC0, 0x80};   /* U+0000 as C0 80 */
  size_t n = mk(b, 52, 6, e, sizeof e, BODY, sizeof BODY);
  PASSES(b, n);
  e[4] = 0;
  e[5] = 'y';
  n = mk(b, 52, 6, e, sizeof e, BODY, sizeof BODY);
  FAILS(b, n, CR_EFORMAT, "invalid modified UTF-8 byte 0x00");
  e[4] = 0xF0;
  n = mk(b, 52, 6, e, sizeof e, BODY, sizeof BODY);
  FAILS(b, n, CR_EFORMAT, "invalid modified UTF-8 byte 0xf0");
  uint8_t t[] = {1, 0, 2, 'x', 0xE2};         /* cut 3-byte form */
  n = mk(b, 52, 6, t, sizeof t, BODY, sizeof BODY);
  FAILS(b, n, CR_EFORMAT, "invalid modified UTF-8");
}
END_TEST

/* #5 Dynamic bsm 'bsm' nat #6, #6 NAT #2:#7, #7 "I". */
START_TEST(test_cf_parse__dynamic) {
  uint8_t b[4096];
  const uint8_t e[] = {17, 0, 0, 0, 6, 12, 0, 2, 0, 7, 1, 0, 1, 'I'};
  size_t n = mk(b, 55, 8, e, sizeof e, BODY, sizeof BODY);
  FAILS(b, n, CR_EFORMAT, "no BootstrapMethods attribute");
  n = mk(b, 54, 8, e, sizeof e, BODY, sizeof BODY);
  FAILS(b, n, CR_EFORMAT, "needs class version 55");
}
END_TEST

START_TEST(test_cf_parse__interfaces) {
  uint8_t b[4096];
  uint8_t body[] = {0, 0x21, 0, 1, 0, 3, 0, 2, 0, 3, 0, 1, 0, 0, 0, 0, 0, 0};
  size_t n = mk(b, 52, 5, NULL, 0, body, sizeof body);
  PASSES(b, n);
  body[11] = 4;
  n = mk(b, 52, 5, NULL, 0, body, sizeof body);
  FAILS(b, n, CR_EFORMAT, "interface: constant pool index 4 is Utf8");
}
END_TEST

/*
** The header alone: names and supertypes as a full parse gives them, no
** members, not writable; what is wrong after the interfaces is left for
** the full parse, what is wrong before them is not.
*/
START_TEST(test_cf_parse__header_only) {
  uint8_t b[4096];
  uint8_t body[] = {0, 0x21, 0, 1, 0, 3, 0, 1, 0, 3, 0, 0, 0, 0, 0, 0};
  size_t n = mk(b, 52, 5, NULL, 0, body, sizeof body);
  cr_arena *a = cr_arena_new();
  cr_class *c;
  cr_diag d;
  cr_diag_clear(&d);
  ck_assert_int_eq(cr_cf_parse_header(&c, a, b, n, &d), 0);
  ck_assert_str_eq(cr_cf_this_name(c), "A");
  ck_assert_str_eq(cr_cp_class_name(c->cp, c->super_class),
                   "java/lang/Object");
  ck_assert_uint_eq(c->interfaces.n, 1);
  ck_assert_uint_eq(c->nmethods + c->nfields + c->attrs.n, 0);
  ck_assert_int_eq(c->header_only, 1);
  cr_buf out;
  cr_buf_init(&out);
  ck_assert_int_eq(cr_cf_write(&out, c, &d), CR_EUSAGE);
  cr_buf_free(&out);
  /* a method count with no methods after it */
  body[sizeof body - 3] = 1;
  n = mk(b, 52, 5, NULL, 0, body, sizeof body);
  ck_assert_int_eq(cr_cf_parse_header(&c, a, b, n, &d), 0);
  FAILS(b, n, CR_EFORMAT, "truncated");
  /* a bad interface entry is the header's */
  body[sizeof body - 3] = 0;
  body[9] = 2;
  n = mk(b, 52, 5, NULL, 0, body, sizeof body);
  cr_diag_clear(&d);
  ck_assert_int_eq(cr_cf_parse_header(&c, a, b, n, &d), CR_EFORMAT);
  ck_assert_msg(strstr(d.msg, "interface: constant pool index 2 is Utf8"),
                "%s", d.msg);
  cr_arena_free(a);
}
END_TEST

/* Feature coverage: which pool tags and attribute kinds the fixtures hit. */
typedef struct seen {
  uint32_t tags;
  uint64_t kinds;
  int lv_offsets, insn_offsets;
} seen;

static void scan_attrs(seen *s, const cr_attrs *as) {
  for (uint32_t i = 0; i < as->n; i++) {
    const cr_attr *at = &as->v[i];
    s->kinds |= 1ull << at->kind;
    if (at->kind == CR_ATTR_CODE) scan_attrs(s, &at->u.code->attrs);
    if (at->kind == CR_ATTR_RECORD)
      for (uint32_t j = 0; j < at->u.record->n; j++)
        scan_attrs(s, &at->u.record->v[j].attrs);
    if (at->kind == CR_ATTR_RVTYPEANNOTATIONS ||
        at->kind == CR_ATTR_RITYPEANNOTATIONS)
      for (uint32_t j = 0; j < at->u.tannots->n; j++) {
        const cr_typeannot *ta = &at->u.tannots->v[j];
        if (ta->target == 0x40 && ta->nlv > 0) s->lv_offsets++;
        if (ta->target >= 0x43 && ta->target <= 0x4B) s->insn_offsets++;
      }
  }
}

/* The class file at 'path', parsed into a new arena '*a' from the bytes
** '*b' (both the caller's to free). */
static cr_class *parse_file(const char *path, cr_arena **a, uint8_t **b) {
  size_t n;
  cr_class *c;
  cr_diag d;
  cr_diag_clear(&d);
  *b = tu_slurp(path, &n);
  *a = cr_arena_new();
  ck_assert_ptr_nonnull(*b);
  ck_assert_msg(cr_cf_parse(&c, *a, *b, n, &d) == 0, "%s: %s", path, d.msg);
  return c;
}

START_TEST(test_cf_parse__fixtures) {
  const char *dir = tu_fixtures();
  tu_files f;
  seen s = {0, 0, 0, 0};
  ck_assert_msg(dir != NULL, "CCCP_FIXTURES not set");
  ck_assert_int_eq(tu_list_classes(&f, dir), 0);
  ck_assert_uint_ge(f.n, 10);
  for (size_t i = 0; i < f.n; i++) {
    cr_arena *a;
    uint8_t *b;
    cr_class *c = parse_file(f.path[i], &a, &b);
    for (uint32_t k = 1; k < cr_cp_count(c->cp); k++)
      s.tags |= 1u << cr_cp_tag(c->cp, k);
    scan_attrs(&s, &c->attrs);
    for (uint32_t k = 0; k < c->nfields; k++)
      scan_attrs(&s, &c->fields[k].attrs);
    for (uint32_t k = 0; k < c->nmethods; k++)
      scan_attrs(&s, &c->methods[k].attrs);
    ck_assert_ptr_nonnull(cr_cf_this_name(c));
    cr_arena_free(a);
    free(b);
  }
  static const int tags[] = {
    CR_CP_UTF8, CR_CP_INTEGER, CR_CP_FLOAT, CR_CP_LONG, CR_CP_DOUBLE,
    CR_CP_CLASS, CR_CP_STRING, CR_CP_FIELDREF, CR_CP_METHODREF,
    CR_CP_IMETHODREF, CR_CP_NAMEANDTYPE, CR_CP_METHODHANDLE,
    CR_CP_METHODTYPE, CR_CP_INVOKEDYNAMIC, CR_CP_MODULE, CR_CP_PACKAGE};
  for (size_t i = 0; i < sizeof tags / sizeof tags[0]; i++)
    ck_assert_msg(s.tags & (1u << tags[i]), "no %d entry in fixtures",
                  tags[i]);
  /* javac 17 never emits these; test_cf_write builds them instead. */
  const uint64_t built = 1ull << CR_ATTR_LOCALVARIABLETABLE |
                         1ull << CR_ATTR_LOCALVARIABLETYPETABLE |
                         1ull << CR_ATTR_SYNTHETIC |
                         1ull << CR_ATTR_MODULEPACKAGES |
                         1ull << CR_ATTR_MODULEMAINCLASS;
  for (int k = 1; k < CR_ATTR__COUNT; k++)
    if (!(built >> k & 1))
      ck_assert_msg(s.kinds >> k & 1, "no %s attribute in fixtures",
                    cr_attr_kind_name((cr_attr_kind)k));
  ck_assert_int_gt(s.lv_offsets, 0);
  ck_assert_int_gt(s.insn_offsets, 0);
  printf("fixtures: %zu classes parsed\n", f.n);
  tu_files_free(&f);
}
END_TEST

/*
** cr_cf_reparse_attr: every Code attribute of every fixture parsed again
** gives the same code, handlers and attributes, in tables of its own (a
** committed body rewrites the offsets of the first model's tables in
** place); an attribute without its original bytes is refused.
*/
START_TEST(test_cf_parse__reparse_code) {
  const char *dir = tu_fixtures();
  tu_files f;
  ck_assert_msg(dir != NULL, "CCCP_FIXTURES not set");
  ck_assert_int_eq(tu_list_classes(&f, dir), 0);
  size_t ncode = 0, nlines = 0;
  for (size_t i = 0; i < f.n; i++) {
    cr_arena *a;
    uint8_t *b;
    cr_class *c = parse_file(f.path[i], &a, &b);
    cr_diag d;
    cr_diag_clear(&d);
    for (uint32_t k = 0; k < c->nmethods; k++) {
      const cr_attr *at = cr_attrs_find(&c->methods[k].attrs, CR_ATTR_CODE);
      if (!at) continue;
      cr_attr cp;
      ck_assert_msg(cr_cf_reparse_attr(c, a, at, &cp, &d) == 0, "%s: %s",
                    f.path[i], d.msg);
      const cr_code *x = at->u.code, *y = cp.u.code;
      ck_assert_ptr_ne(x, y);
      ck_assert_uint_eq(x->code_len, y->code_len);
      ck_assert_int_eq(memcmp(x->code, y->code, x->code_len), 0);
      ck_assert_uint_eq(x->nexc, y->nexc);
      if (x->nexc)
        ck_assert_int_eq(memcmp(x->exc, y->exc, x->nexc * sizeof *x->exc),
                         0);
      ck_assert_uint_eq(x->attrs.n, y->attrs.n);
      for (uint32_t j = 0; j < x->attrs.n; j++) {
        ck_assert_int_eq(x->attrs.v[j].kind, y->attrs.v[j].kind);
        if (x->attrs.v[j].kind != CR_ATTR_LINENUMBERTABLE) continue;
        const cr_linenums *l1 = x->attrs.v[j].u.lines,
                          *l2 = y->attrs.v[j].u.lines;
        ck_assert_uint_eq(l1->n, l2->n);
        ck_assert_ptr_ne(l1->v, l2->v);
        ck_assert_int_eq(memcmp(l1->v, l2->v, l1->n * sizeof *l1->v), 0);
        nlines++;
      }
      ncode++;
      cr_attr noraw = *at;
      noraw.raw = NULL;
      ck_assert_int_eq(cr_cf_reparse_attr(c, a, &noraw, &cp, &d), CR_EUSAGE);
    }
    cr_arena_free(a);
    free(b);
  }
  ck_assert_uint_gt(ncode, 10);
  ck_assert_uint_gt(nlines, 10);
  tu_files_free(&f);
}
END_TEST

/* The fixture with the most structure, for the destructive tests. */
#define VICTIM "fx/Annotated"

START_TEST(test_cf_parse__every_truncation) {
  size_t n;
  uint8_t *b = tu_fixture(VICTIM, &n);
  ck_assert_ptr_nonnull(b);
  size_t hdr = 0;         /* shortest length whose header parses */
  for (size_t len = 0; len < n; len++) {
    /* A copy of exactly 'len' bytes so ASan sees any overread. */
    uint8_t *p = malloc(len ? len : 1);
    memcpy(p, b, len);
    cr_diag d;
    int rc = parse(p, len, &d);
    ck_assert_msg(rc == CR_EFORMAT, "len %zu: rc %d", len, rc);
    /* the header alone: an error until the interfaces are whole, then
       never again */
    cr_arena *a = cr_arena_new();
    cr_class *c;
    rc = cr_cf_parse_header(&c, a, p, len, &d);
    ck_assert_msg(rc == (hdr ? 0 : rc) && (rc == 0 || rc == CR_EFORMAT),
                  "len %zu: rc %d", len, rc);
    if (rc == 0 && !hdr) hdr = len;
    cr_arena_free(a);
    free(p);
  }
  ck_assert_uint_gt(hdr, 10);
  ck_assert_uint_lt(hdr, n);
  free(b);
}
END_TEST

START_TEST(test_cf_parse__corruption) {
  size_t n;
  uint8_t *b = tu_fixture(VICTIM, &n);
  static const uint8_t vals[] = {0x00, 0x01, 0x07, 0x40, 0x7F, 0x80, 0xFF};
  int ok = 0, bad = 0;
  ck_assert_ptr_nonnull(b);
  uint8_t *p = malloc(n);
  for (size_t i = 0; i < n; i++)
    for (size_t v = 0; v < sizeof vals; v++) {
      if ((i + v) % 3 && i > 64) continue;    /* a sample past the header */
      memcpy(p, b, n);
      if (p[i] == vals[v]) continue;
      p[i] = vals[v];
      cr_diag d;
      if (parse(p, n, &d) == 0) ok++;
      else bad++;
    }
  printf("corruption: %d accepted (and round-tripped), %d rejected\n", ok,
         bad);
  free(p);
  free(b);
}
END_TEST

START_TEST(test_cf_parse__alloc_failure) {
  size_t n;
  uint8_t *b = tu_fixture(VICTIM, &n);
  ck_assert_ptr_nonnull(b);
  long k;
  for (k = 0;; k++) {
    cr_diag d;
    cr_diag_clear(&d);
    cr_alloc_fail_after(k);
    cr_arena *a = cr_arena_new();
    if (!a) continue;
    cr_class *c;
    int rc = cr_cf_parse(&c, a, b, n, &d);
    cr_arena_free(a);
    if (rc == 0) break;
    ck_assert_int_eq(rc, CR_ENOMEM);
    ck_assert_int_eq(d.code, CR_ENOMEM);
    ck_assert_int_lt(k, 100000);
  }
  cr_alloc_fail_after(-1);
  printf("alloc failure: %ld failing points, all CR_ENOMEM\n", k);
  free(b);
}
END_TEST

static Suite *suite(void) {
  Suite *s = suite_create("classfile");
  TCase *tc = tcase_create("parse");
  tcase_set_timeout(tc, 120);
  tcase_add_test(tc, test_cf_parse__minimal_and_magic);
  tcase_add_test(tc, test_cf_parse__version);
  tcase_add_test(tc, test_cf_parse__cp_index);
  tcase_add_test(tc, test_cf_parse__long_slots);
  tcase_add_test(tc, test_cf_parse__methodhandle);
  tcase_add_test(tc, test_cf_parse__attr_length);
  tcase_add_test(tc, test_cf_parse__trailing);
  tcase_add_test(tc, test_cf_parse__mutf8);
  tcase_add_test(tc, test_cf_parse__dynamic);
  tcase_add_test(tc, test_cf_parse__interfaces);
  tcase_add_test(tc, test_cf_parse__header_only);
  tcase_add_test(tc, test_cf_parse__fixtures);
  tcase_add_test(tc, test_cf_parse__reparse_code);
  tcase_add_test(tc, test_cf_parse__every_truncation);
  tcase_add_test(tc, test_cf_parse__corruption);
  tcase_add_test(tc, test_cf_parse__alloc_failure);
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
