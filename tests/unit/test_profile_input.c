/*
** test_profile_input.c -- the profile reader's input (src/profile/
** input.c): gzip-compressed profiles read as the plain ones, member after
** member, from memory and from files; every truncation, corruption and
** trailing garbage a clean one-line error naming the input; the DOCTYPE
** refusal inside gzip; the bound on XML between two tags; allocation
** failure sweep.
*/
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <zlib.h>

#include "cccp/profile.h"

static cr_diag d;

static const char XML[] =
    "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
    "<cct version=\"1\" mode=\"cccp\">\n"
    "  <method id=\"1\" class=\"app/Main\" name=\"main\" desc=\"()V\"/>\n"
    "  <method id=\"2\" class=\"app/Main\" name=\"work\" desc=\"()V\"/>\n"
    "  <tree thread=\"main\">\n"
    "    <node method=\"1\" calls=\"1\" cycles=\"5\">\n"
    "      <node method=\"2\" calls=\"10\" cycles=\"100\"/>\n"
    "    </node>\n"
    "  </tree>\n"
    "</cct>\n";

/*
** 'len' bytes at 'p' as gzip, cut into 'members' members of about equal
** size, appended to 'b' (grown with realloc; '*n' its length).
*/
static void gz(unsigned char **b, size_t *n, const void *p, size_t len,
               int members) {
  const unsigned char *s = p;
  for (int m = 0; m < members; m++) {
    size_t from = len * (size_t)m / (size_t)members;
    size_t to = len * (size_t)(m + 1) / (size_t)members;
    z_stream z;
    memset(&z, 0, sizeof z);
    ck_assert_int_eq(deflateInit2(&z, 6, Z_DEFLATED, 16 + MAX_WBITS, 8,
                                  Z_DEFAULT_STRATEGY), Z_OK);
    size_t cap = deflateBound(&z, (uLong)(to - from));
    *b = realloc(*b, *n + cap);
    ck_assert_ptr_nonnull(*b);
    z.next_in = (unsigned char *)s + from;
    z.avail_in = (uInt)(to - from);
    z.next_out = *b + *n;
    z.avail_out = (uInt)cap;
    ck_assert_int_eq(deflate(&z, Z_FINISH), Z_STREAM_END);
    *n += cap - z.avail_out;
    deflateEnd(&z);
  }
}

static int load(cr_profile **out, const unsigned char *b, size_t n) {
  cr_diag_clear(&d);
  return cr_profile_load_memory(out, (const char *)b, n, "t.xml.gz", &d);
}

/* The profile of XML, as read from the plain text. */
static void same_as_plain(const cr_profile *p) {
  ck_assert_uint_eq(p->nmethods, 2);
  ck_assert_uint_eq(p->nnodes, 2);
  ck_assert_uint_eq(p->ntrees, 1);
  ck_assert_uint_eq(p->nmetrics, 2);
  ck_assert_str_eq(p->mode, "cccp");
  ck_assert_uint_eq(p->nodes[2].calls, 10);
  ck_assert_uint_eq(p->nodes[2].parent, 1);
  ck_assert_uint_eq(p->mval[1][2], 100);
}

START_TEST(test_profile_input__gzip) {
  for (int members = 1; members <= 4; members++) {
    unsigned char *b = NULL;
    size_t n = 0;
    gz(&b, &n, XML, strlen(XML), members);
    cr_profile *p = NULL;
    ck_assert_msg(load(&p, b, n) == 0, "%d members: %s", members, d.msg);
    same_as_plain(p);
    cr_profile_free(p);
    free(b);
  }
  /* empty members, before, between and after */
  unsigned char *b = NULL;
  size_t n = 0;
  gz(&b, &n, "", 0, 1);
  gz(&b, &n, XML, 100, 1);
  gz(&b, &n, "", 0, 1);
  gz(&b, &n, XML + 100, strlen(XML) - 100, 1);
  gz(&b, &n, "", 0, 1);
  cr_profile *p = NULL;
  ck_assert_msg(load(&p, b, n) == 0, "%s", d.msg);
  same_as_plain(p);
  cr_profile_free(p);
  free(b);
}
END_TEST

/* Every proper prefix of a gzip profile is truncated gzip data, but for
** the one byte 1f (not gzip) and the first member alone (whole gzip data
** of a part of the XML): malformed XML. */
START_TEST(test_profile_input__truncated) {
  unsigned char *b = NULL;
  size_t n = 0, first;
  gz(&b, &n, XML, strlen(XML) / 2, 1);
  first = n;
  gz(&b, &n, XML + strlen(XML) / 2, strlen(XML) - strlen(XML) / 2, 1);
  for (size_t k = 1; k < n; k++) {
    cr_profile *p = (cr_profile *)1;
    int rc = load(&p, b, k);
    ck_assert_int_eq(rc, CR_EFORMAT);
    ck_assert_ptr_null(p);
    if (k == first)
      ck_assert_msg(strncmp(d.msg, "t.xml.gz:4: malformed XML", 25) == 0,
                    "%s", d.msg);
    else if (k == 1)
      ck_assert_msg(strncmp(d.msg, "t.xml.gz:1: ", 12) == 0, "%s", d.msg);
    else
      ck_assert_msg(strcmp(d.msg, "t.xml.gz: truncated gzip data") == 0,
                    "cut at %zu: %s", k, d.msg);
  }
  free(b);
}
END_TEST

/* Bits changed in turn: the same profile (a header field nobody checks,
** a padding bit) or CR_EFORMAT with one line naming the input. */
START_TEST(test_profile_input__corrupt) {
  unsigned char *b = NULL;
  size_t n = 0;
  gz(&b, &n, XML, strlen(XML), 1);
  size_t gzmsgs = 0;
  for (size_t i = 0; i < n; i++)
    for (int bit = 0; bit < 8; bit += 3) {
      b[i] ^= (unsigned char)(1u << bit);
      cr_profile *p = NULL;
      int rc = load(&p, b, n);
      b[i] ^= (unsigned char)(1u << bit);
      if (!rc) {
        same_as_plain(p);
        cr_profile_free(p);
        continue;
      }
      ck_assert_msg(rc == CR_EFORMAT, "byte %zu: rc %d %s", i, rc, d.msg);
      ck_assert_msg(strncmp(d.msg, "t.xml.gz:", 9) == 0 &&
                        !strchr(d.msg, '\n'), "byte %zu: %s", i, d.msg);
      gzmsgs += strstr(d.msg, "gzip data") != NULL;
    }
  ck_assert_uint_gt(gzmsgs, 0);
  /* the CRC-32 of the data and the length, as zlib words them */
  b[n - 6] ^= 1;
  cr_profile *p = NULL;
  ck_assert_int_eq(load(&p, b, n), CR_EFORMAT);
  ck_assert_str_eq(d.msg, "t.xml.gz: corrupt gzip data (incorrect data "
                          "check)");
  b[n - 6] ^= 1;
  b[n - 2] ^= 1;
  ck_assert_int_eq(load(&p, b, n), CR_EFORMAT);
  ck_assert_str_eq(d.msg, "t.xml.gz: corrupt gzip data (incorrect length "
                          "check)");
  b[n - 2] ^= 1;
  b[2] = 7;   /* compression method */
  ck_assert_int_eq(load(&p, b, n), CR_EFORMAT);
  ck_assert_str_eq(d.msg, "t.xml.gz: corrupt gzip data (unknown "
                          "compression method)");
  free(b);
}
END_TEST

/* After the last member: nothing, or another member. */
START_TEST(test_profile_input__trailing) {
  static const struct { const char *bytes; size_t n; const char *msg; } t[] = {
    {"hello", 5, "trailing garbage after gzip data"},
    {"\0\0\0\0", 4, "trailing garbage after gzip data"},
    {"\x1f", 1, "truncated gzip data"},
    {"\x1f\x8b", 2, "truncated gzip data"},
    {"\x1f\x8b\x08", 3, "truncated gzip data"},
    {"\x8b\x1f", 2, "trailing garbage after gzip data"},
  };
  for (size_t k = 0; k < sizeof t / sizeof *t; k++) {
    unsigned char *b = NULL;
    size_t n = 0;
    gz(&b, &n, XML, strlen(XML), 1);
    b = realloc(b, n + t[k].n);
    memcpy(b + n, t[k].bytes, t[k].n);
    cr_profile *p = NULL;
    ck_assert_int_eq(load(&p, b, n + t[k].n), CR_EFORMAT);
    ck_assert_msg(strstr(d.msg, t[k].msg) && !strncmp(d.msg, "t.xml.gz: ", 10),
                  "case %zu: %s", k, d.msg);
    free(b);
  }
}
END_TEST

START_TEST(test_profile_input__doctype) {
  static const char x[] =
      "<?xml version=\"1.0\"?>\n<!DOCTYPE cct [<!ENTITY x SYSTEM "
      "\"file:///etc/passwd\">]><cct version=\"1\" mode=\"&x;\"/>";
  unsigned char *b = NULL;
  size_t n = 0;
  gz(&b, &n, x, strlen(x), 1);
  cr_profile *p = NULL;
  ck_assert_int_eq(load(&p, b, n), CR_EFORMAT);
  ck_assert_str_eq(d.msg, "t.xml.gz:2: DOCTYPE is not allowed in a profile");
  free(b);
}
END_TEST

/* Whitespace, a comment, an attribute value: at most CR_PROF_MAX_GAP
** bytes of XML between two tags when compressed; a plain file is read
** as it is. */
START_TEST(test_profile_input__gap) {
  static const char *const shapes[][2] = {
    {"<cct version=\"1\">", "</cct>"},
    {"", "<cct version=\"1\"/>"},
    {"<cct version=\"1\"><!--", "--></cct>"},
    {"<cct version=\"1\" mode=\"", "\"/>"},
    {"<cct version=\"1\"/>", ""},
  };
  size_t big = CR_PROF_MAX_GAP + 4096, fits = CR_PROF_MAX_GAP - 8192;
  char *x = malloc(big + 100);
  ck_assert_ptr_nonnull(x);
  for (size_t k = 0; k < sizeof shapes / sizeof *shapes; k++)
    for (int over = 0; over <= 1; over++) {
      size_t fill = over ? big : fits;
      size_t a = strlen(shapes[k][0]), c = strlen(shapes[k][1]);
      memcpy(x, shapes[k][0], a);
      memset(x + a, k == 2 || k == 3 ? 'x' : ' ', fill);
      memcpy(x + a + fill, shapes[k][1], c);
      unsigned char *b = NULL;
      size_t n = 0;
      gz(&b, &n, x, a + fill + c, 1);
      cr_profile *p = NULL;
      int rc = load(&p, b, n);
      if (over) {
        ck_assert_msg(rc == CR_ETOOLARGE, "shape %zu: %d %s", k, rc, d.msg);
        ck_assert_msg(strstr(d.msg, "more than 16 MiB of XML between two "
                                    "tags") &&
                          !strncmp(d.msg, "t.xml.gz:", 9),
                      "%s", d.msg);
        cr_diag_clear(&d);
        ck_assert_int_eq(cr_profile_load_memory(&p, x, a + fill + c, "t.xml",
                                                &d), 0);
      } else {
        ck_assert_msg(rc == 0, "shape %zu: %s", k, d.msg);
      }
      cr_profile_free(p);
      free(b);
    }
  free(x);
}
END_TEST

/* From a file: plain, gzip, and files too short to tell. */
START_TEST(test_profile_input__file) {
  char path[] = "/tmp/cccp-gz-XXXXXX";
  int fd = mkstemp(path);
  ck_assert_int_ge(fd, 0);
  unsigned char *b = NULL;
  size_t n = 0;
  gz(&b, &n, XML, strlen(XML), 3);
  ck_assert_int_eq(write(fd, b, n), (long)n);
  cr_profile *p = NULL;
  cr_diag_clear(&d);
  ck_assert_msg(cr_profile_load(&p, path, &d) == 0, "%s", d.msg);
  same_as_plain(p);
  cr_profile_free(p);
  ck_assert_int_eq(ftruncate(fd, (off_t)n - 1), 0);
  ck_assert_int_eq(cr_profile_load(&p, path, &d), CR_EFORMAT);
  ck_assert_ptr_nonnull(strstr(d.msg, ": truncated gzip data"));
  ck_assert_int_eq(ftruncate(fd, 0), 0);
  ck_assert_int_eq(pwrite(fd, XML, strlen(XML), 0), (long)strlen(XML));
  cr_diag_clear(&d);
  ck_assert_msg(cr_profile_load(&p, path, &d) == 0, "%s", d.msg);
  same_as_plain(p);
  cr_profile_free(p);
  static const char *const shorts[] = {"", "<", "\x1f"};
  for (size_t k = 0; k < 3; k++) {
    ck_assert_int_eq(ftruncate(fd, 0), 0);
    ck_assert_int_eq(pwrite(fd, shorts[k], strlen(shorts[k]), 0),
                     (long)strlen(shorts[k]));
    cr_diag_clear(&d);
    ck_assert_int_eq(cr_profile_load(&p, path, &d), CR_EFORMAT);
    ck_assert_msg(strncmp(d.msg, path, strlen(path)) == 0 &&
                      d.msg[strlen(path)] == ':' &&
                      d.msg[strlen(path) + 1] == '1',
                  "%s", d.msg);
  }
  close(fd);
  unlink(path);
  free(b);
}
END_TEST

/* Every allocation failure gives CR_ENOMEM (or success), never a crash. */
START_TEST(test_profile_input__oom) {
  unsigned char *b = NULL;
  size_t n = 0;
  gz(&b, &n, XML, strlen(XML), 2);
  int done = 0;
  for (long k = 0; !done && k < 10000; k++) {
    cr_alloc_fail_after(k);
    cr_profile *p = NULL;
    int rc = load(&p, b, n);
    cr_alloc_fail_after(-1);
    ck_assert_msg(rc == 0 || rc == CR_ENOMEM, "%ld: %d %s", k, rc, d.msg);
    if (!rc) {
      same_as_plain(p);
      done = 1;
    }
    cr_profile_free(p);
  }
  ck_assert(done);
  free(b);
}
END_TEST

static Suite *suite(void) {
  Suite *s = suite_create("profile");
  TCase *t = tcase_create("input");
  tcase_set_timeout(t, 60);
  tcase_add_test(t, test_profile_input__gzip);
  tcase_add_test(t, test_profile_input__truncated);
  tcase_add_test(t, test_profile_input__corrupt);
  tcase_add_test(t, test_profile_input__trailing);
  tcase_add_test(t, test_profile_input__doctype);
  tcase_add_test(t, test_profile_input__gap);
  tcase_add_test(t, test_profile_input__file);
  tcase_add_test(t, test_profile_input__oom);
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
