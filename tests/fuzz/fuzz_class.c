/*
** fuzz_class.c -- fuzz target: class-file bytes through the parser and
** the writer (JVMS chapter 4). A class that parses must write back to
** exactly its bytes; after find-or-add pool entries it must still write,
** re-parse and write back identically. A class that does not parse must
** leave one diagnostic with an offset inside the input.
*/
#include <string.h>

#include "cccp/classfile.h"
#include "fuzz.h"

/* Walk the model through the getters, as later stages do. */
static void walk(cr_class *c) {
  cr_cpool *cp = c->cp;
  uint32_t n = cr_cp_count(cp);
  for (uint32_t i = 0; i < n + 2; i++) {
    const cr_cpentry *e = cr_cp_get(cp, i);
    FUZZ_CHECK((e != NULL) == (cr_cp_tag(cp, i) != 0),
               "cr_cp_get and cr_cp_tag disagree on entry %u", i);
    if (e && e->tag == CR_CP_UTF8) {
      size_t len;
      const char *s = cr_cp_utf8(cp, i, &len);
      FUZZ_CHECK(s && len == e->len, "Utf8 entry %u: wrong bytes", i);
      uint16_t u16[8];
      FUZZ_CHECK(cr_mutf8_to_utf16(u16, 8, s, len) >= 0,
                 "Utf8 entry %u accepted by the parser but not decodable",
                 i);
      (void)cr_cp_str(cp, i);
    } else if (e && e->tag == CR_CP_CLASS) {
      (void)cr_cp_class_name(cp, i);
    }
  }
  (void)cr_cf_this_name(c);
  for (int pass = 0; pass < 2; pass++) {
    uint32_t nm = pass ? c->nmethods : c->nfields;
    cr_member *ms = pass ? c->methods : c->fields;
    for (uint32_t i = 0; i < nm; i++) {
      size_t dl;
      const char *desc = cr_cp_utf8(cp, ms[i].desc, &dl);
      FUZZ_CHECK(desc != NULL, "member descriptor is not Utf8");
      (void)cr_member_name(c, &ms[i]);
      (void)cr_member_desc(c, &ms[i]);
      if (!pass) {
        (void)cr_desc_is_field(desc, dl);
        continue;
      }
      int slots = cr_desc_arg_slots(desc, dl);
      FUZZ_CHECK((slots >= 0) == (cr_desc_is_method(desc, dl) == 1),
                 "cr_desc_arg_slots and cr_desc_is_method disagree");
      if (slots >= 0) {
        size_t rl;
        FUZZ_CHECK(cr_desc_ret(desc, dl, &rl) != NULL,
                   "valid method descriptor without a return type");
        cr_desc_iter it;
        const char *t;
        size_t tl;
        int k, sum = 0;
        FUZZ_CHECK(cr_desc_iter_init(&it, desc, dl) == 0, "iter_init");
        while ((k = cr_desc_next(&it, &t, &tl)) == 1) sum += cr_desc_slots(*t);
        FUZZ_CHECK(k == 0 && sum == slots,
                   "descriptor iteration gives %d slots, expected %d", sum,
                   slots);
      }
      cr_code *code = cr_member_code(&ms[i]);
      if (code)
        FUZZ_CHECK(code->code_len >= 1 && code->code_len <= 65535,
                   "Code of %u bytes accepted", code->code_len);
    }
  }
}

/* Find-or-add entries, write, re-parse, write again: must be stable. */
static void grow(cr_class *c, cr_arena *a) {
  cr_diag d;
  cr_diag_clear(&d);
  uint32_t before = cr_cp_count(c->cp);
  int rc = cr_cp_add_methodref(c->cp, "cccp/Fuzz", "hit", "(IJ)V", &d);
  if (rc >= 0) rc = cr_cp_add_long(c->cp, 0x123456789abcdefLL, &d);
  if (rc >= 0) rc = cr_cp_add_string(c->cp, "caf\xc3\xa9 \xf0\x9f\x98\x80", &d);
  if (rc == CR_ETOOLARGE) return;      /* pool full: fine */
  FUZZ_CHECK(rc >= 0, "cr_cp_add_*: %s", d.msg);
  /* adding again finds the same entries */
  uint32_t mid = cr_cp_count(c->cp);
  FUZZ_CHECK(mid > before, "pool did not grow");
  FUZZ_CHECK(cr_cp_add_methodref(c->cp, "cccp/Fuzz", "hit", "(IJ)V", &d) > 0 &&
                 cr_cp_count(c->cp) == mid,
             "find-or-add added a duplicate");
  cr_buf b;
  cr_buf_init(&b);
  rc = cr_cf_write(&b, c, &d);
  FUZZ_CHECK(rc == 0 && !b.err, "write after adding entries: %s", d.msg);
  cr_class *c2;
  rc = cr_cf_parse(&c2, a, b.data, b.len, &d);
  FUZZ_CHECK(rc == 0, "grown class does not re-parse: offset %ld: %s",
             d.offset, d.msg);
  FUZZ_CHECK(cr_cp_count(c2->cp) == mid, "re-parsed pool has %u entries, "
             "wrote %u", cr_cp_count(c2->cp), mid);
  cr_buf b2;
  cr_buf_init(&b2);
  rc = cr_cf_write(&b2, c2, &d);
  FUZZ_CHECK(rc == 0 && b2.len == b.len && !memcmp(b.data, b2.data, b.len),
             "grown class does not round-trip");
  cr_buf_free(&b2);
  cr_buf_free(&b);
}

int fuzz_class(const uint8_t *data, size_t size) {
  cr_arena *a = cr_arena_new();
  if (!a) return 0;
  cr_diag d;
  cr_diag_clear(&d);
  cr_class *c = NULL;
  int rc = cr_cf_parse(&c, a, data, size, &d);
  if (rc) {
    fuzz_check_diag(&d, rc, size, "cr_cf_parse");
    FUZZ_CHECK(rc != CR_ENOMEM, "parse ran out of memory on %zu bytes",
               size);
    cr_arena_free(a);
    return 0;
  }
  FUZZ_CHECK(d.code == 0, "parse succeeded but left an error: %s", d.msg);
  cr_buf b;
  cr_buf_init(&b);
  rc = cr_cf_write(&b, c, &d);
  FUZZ_CHECK(rc == 0 && !b.err, "a parsed class does not write: %s",
             d.msg);
  if (b.len != size || memcmp(b.data, data, size) != 0) {
    size_t k = 0;
    while (k < b.len && k < size && b.data[k] == data[k]) k++;
    fuzz_fail("round trip differs: %zu bytes in, %zu out, first at %zu",
              size, b.len, k);
  }
  cr_buf_free(&b);
  walk(c);
  grow(c, a);
  cr_arena_free(a);
  return 0;
}
