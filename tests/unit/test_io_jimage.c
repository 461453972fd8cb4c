/*
** test_io_jimage.c -- the JDK run-time image reader: a synthetic image
** (plain, "zip" and unsupported compression, fuzzed), JDK 17 against its
** jmod, JDK 25, and damaged copies of the real image.
*/
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "cccp/io.h"
#include "testutil.h"

#define JDK17 "/usr/lib/jvm/java-17-openjdk-amd64"
#define JDK25 "/usr/lib/jvm/temurin-25-jdk-amd64"

static char dir[64];

static void mkdir_tmp(void) { tu_tmpdir(dir, sizeof dir, "jimage"); }

static void rm_tmp(void) { tu_rmdir(dir); }

/* (unlink first: ext4 flushes a file truncated and rewritten in place) */
static void put_file(const char *path, const void *p, size_t n) {
  unlink(path);
  FILE *f = fopen(path, "wb");
  ck_assert_ptr_nonnull(f);
  ck_assert_uint_eq(fwrite(p, 1, n, f), n);
  fclose(f);
}

/* ---- a tiny jimage builder (host byte order, as jlink writes) ---- */

enum { PLAIN, ZIP, COMPACT, BADZIP };

typedef struct res {
  const char *module, *parent, *base, *ext;
  const char *data;
  int how;
} res;

static void u4le(cr_buf *b, uint32_t v) { cr_buf_put(b, &v, 4); }
static void u8le(cr_buf *b, uint64_t v) { cr_buf_put(b, &v, 8); }

static uint32_t addstr(cr_buf *s, const char *str) {
  uint32_t off = (uint32_t)s->len;
  if (!*str) return 0;
  cr_buf_put(s, str, strlen(str) + 1);
  return off;
}

static void attr(cr_buf *l, unsigned kind, uint64_t v) {
  unsigned n = 1;
  while (n < 8 && v >> (8 * n)) n++;
  cr_buf_u1(l, kind << 3 | (n - 1));
  for (unsigned i = n; i-- > 0;) cr_buf_u1(l, (uint32_t)(v >> (8 * i)));
}

static uint8_t *build(const res *rs, size_t n, size_t *len) {
  cr_buf strs, locs, data, out;
  cr_buf_init(&strs);
  cr_buf_init(&locs);
  cr_buf_init(&data);
  cr_buf_init(&out);
  cr_buf_u1(&strs, 0);                  /* "" at offset 0 */
  uint32_t zipname = addstr(&strs, "zip");
  uint32_t ccpname = addstr(&strs, "compact-cp");
  uint32_t *offs = calloc(n, 4);
  for (size_t i = 0; i < n; i++) {
    const res *r = &rs[i];
    size_t dl = strlen(r->data);
    uint64_t at = data.len, csize = 0;
    if (r->how == PLAIN) {
      cr_buf_put(&data, r->data, dl);
    } else {
      uLongf zl = compressBound(dl);
      uint8_t *z = malloc(zl);
      ck_assert_int_eq(compress2(z, &zl, (const Bytef *)r->data, dl, 6),
                       Z_OK);
      if (r->how == BADZIP) z[zl / 2] ^= 0xff, z[2] ^= 0x33;
      u4le(&data, 0xCAFEFAFAu);
      u8le(&data, zl);
      u8le(&data, dl);
      u4le(&data, r->how == COMPACT ? ccpname : zipname);
      u4le(&data, 0);
      cr_buf_u1(&data, 1);
      cr_buf_put(&data, z, zl);
      csize = 29 + zl;
      free(z);
    }
    offs[i] = (uint32_t)locs.len;
    attr(&locs, 1, addstr(&strs, r->module));
    attr(&locs, 2, addstr(&strs, r->parent));
    attr(&locs, 3, addstr(&strs, r->base));
    attr(&locs, 4, addstr(&strs, r->ext));
    attr(&locs, 5, at);
    if (csize) attr(&locs, 6, csize);
    attr(&locs, 7, dl);
    cr_buf_u1(&locs, 0);
  }
  u4le(&out, 0xCAFEDADAu);
  u4le(&out, 1u << 16);
  u4le(&out, 0);
  u4le(&out, (uint32_t)n);
  u4le(&out, (uint32_t)n);
  u4le(&out, (uint32_t)locs.len);
  u4le(&out, (uint32_t)strs.len);
  for (size_t i = 0; i < n; i++) u4le(&out, 0);   /* redirect: unused */
  for (size_t i = 0; i < n; i++) u4le(&out, offs[i]);
  cr_buf_put(&out, locs.data, locs.len);
  cr_buf_put(&out, strs.data, strs.len);
  cr_buf_put(&out, data.data, data.len);
  ck_assert_int_eq(out.err, 0);
  free(offs);
  cr_buf_free(&strs);
  cr_buf_free(&locs);
  cr_buf_free(&data);
  return cr_buf_detach(&out, len);
}

static const res sample[] = {
    {"modules", "", "java.base", "", "", PLAIN},
    {"packages", "", "java.lang", "", "", PLAIN},
    {"m.two", "p", "B", "class", "B's bytes", PLAIN},
    {"java.base", "java/lang", "Object", "class", "\xca\xfe\xba\xbe obj",
     ZIP},
    {"java.base", "", "module-info", "class", "modinfo modinfo modinfo",
     PLAIN},
    {"java.base", "x/y", "Shared", "class", "cp cp cp cp", COMPACT},
    {"java.base", "x/y", "Broken", "class",
     "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", BADZIP},
    {"m.two", "", "README", "", "no extension", PLAIN},
};
#define NSAMPLE (sizeof sample / sizeof sample[0])

static size_t find(cr_input *in, const char *mod, const char *name) {
  for (size_t i = 0; i < cr_input_count(in); i++) {
    cr_entry_info e;
    cr_input_info(in, i, &e);
    if (!strcmp(e.module, mod) && !strcmp(e.name, name)) return i;
  }
  return (size_t)-1;
}

START_TEST(test_io_jimage__synthetic) {
  mkdir_tmp();
  size_t len;
  uint8_t *img = build(sample, NSAMPLE, &len);
  char path[128];
  snprintf(path, sizeof path, "%s/modules", dir);
  put_file(path, img, len);
  cr_free(img);
  cr_diag d;
  cr_diag_clear(&d);
  cr_input *in;
  ck_assert_int_eq(cr_input_open(&in, path, &d), 0);
  ck_assert_int_eq(cr_input_kind_of(in), CR_IN_JIMAGE);
  const char *want[][2] = {
      {"java.base", "java/lang/Object.class"},
      {"java.base", "module-info.class"},
      {"java.base", "x/y/Broken.class"},
      {"java.base", "x/y/Shared.class"},
      {"m.two", "README"},
      {"m.two", "p/B.class"},
  };
  ck_assert_uint_eq(cr_input_count(in), 6);
  for (size_t i = 0; i < 6; i++) {
    cr_entry_info e;
    cr_input_info(in, i, &e);
    ck_assert_str_eq(e.module, want[i][0]);
    ck_assert_str_eq(e.name, want[i][1]);
    ck_assert_int_eq(e.is_dir, 0);
  }
  uint8_t *b;
  size_t n;
  ck_assert_int_eq(cr_input_read(in, 0, &b, &n, &d), 0);   /* zip */
  ck_assert_uint_eq(n, strlen(sample[3].data));
  ck_assert_mem_eq(b, sample[3].data, n);
  cr_free(b);
  ck_assert_int_eq(cr_input_read(in, 5, &b, &n, &d), 0);   /* plain */
  ck_assert_mem_eq(b, "B's bytes", n);
  cr_free(b);
  ck_assert_int_eq(cr_input_read(in, 3, &b, &n, &d), CR_EUNSUPPORTED);
  ck_assert_ptr_nonnull(strstr(d.msg, "compact-cp"));
  ck_assert_str_eq(d.entry, "x/y/Shared.class");
  ck_assert_str_eq(d.file, path);
  cr_diag_clear(&d);
  ck_assert_int_eq(cr_input_read(in, 2, &b, &n, &d), CR_EFORMAT);
  ck_assert_str_eq(d.entry, "x/y/Broken.class");
  cr_input_set_limits(in, 5, CR_DEFAULT_MAX_TOTAL);
  cr_diag_clear(&d);
  ck_assert_int_eq(cr_input_read(in, 0, &b, &n, &d), CR_ETOOLARGE);
  cr_input_close(in);
  rm_tmp();
}
END_TEST

/* Random damage to the synthetic image: errors, never a crash. */
START_TEST(test_io_jimage__fuzz_synthetic) {
  mkdir_tmp();
  size_t len;
  uint8_t *img = build(sample, NSAMPLE, &len);
  uint8_t *copy = malloc(len);
  char path[128];
  snprintf(path, sizeof path, "%s/modules", dir);
  uint32_t seed = 12345;
  int opened = 0, failed = 0;
  for (int it = 0; it < 1500; it++) {
    memcpy(copy, img, len);
    size_t l = len;
    int k = 1 + it % 4;
    for (int j = 0; j < k; j++) {
      seed = seed * 1103515245u + 12345u;
      size_t at = (seed >> 8) % len;
      seed = seed * 1103515245u + 12345u;
      copy[at] = (uint8_t)(seed >> 16);
    }
    if (it % 5 == 0) l = (seed >> 4) % len;
    put_file(path, copy, l);
    cr_diag d;
    cr_diag_clear(&d);
    cr_input *in;
    int rc = cr_input_open(&in, path, &d);
    if (rc) {
      ck_assert(rc == CR_EFORMAT || rc == CR_EUNSUPPORTED);
      failed++;
      continue;
    }
    opened++;
    for (size_t i = 0; i < cr_input_count(in); i++) {
      uint8_t *b;
      size_t n;
      cr_diag_clear(&d);
      rc = cr_input_read(in, i, &b, &n, &d);
      if (!rc) cr_free(b);
      else
        ck_assert(rc == CR_EFORMAT || rc == CR_EUNSUPPORTED ||
                  rc == CR_ETOOLARGE);
    }
    cr_input_close(in);
  }
  ck_assert_int_gt(opened, 0);
  ck_assert_int_gt(failed, 0);
  free(copy);
  cr_free(img);
  rm_tmp();
}
END_TEST

START_TEST(test_io_jimage__oom_sweep) {
  mkdir_tmp();
  res ok[] = {sample[0], sample[2], sample[3], sample[4], sample[7]};
  size_t len;
  uint8_t *img = build(ok, sizeof ok / sizeof ok[0], &len);
  char path[128];
  snprintf(path, sizeof path, "%s/modules", dir);
  put_file(path, img, len);
  cr_free(img);
  ck_assert_int_gt(tu_input_oom_sweep(path), 5);
  rm_tmp();
}
END_TEST

static uint8_t *read_entry(cr_input *in, const char *mod, const char *name,
                           size_t *n) {
  size_t i = find(in, mod, name);
  ck_assert_uint_ne(i, (size_t)-1);
  cr_diag d;
  cr_diag_clear(&d);
  uint8_t *b;
  ck_assert_int_eq(cr_input_read(in, i, &b, n, &d), 0);
  return b;
}

static int cmpstr(const void *a, const void *b) {
  return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/*
** JDK 17: java.base in the image is the jmod's classes/ plus what jlink
** generates: the pre-generated BoundMethodHandle$Species_* classes
** (--generate-jli-classes) and SystemModules$all/$default
** (--system-modules). Checked for real: 17 + 2 extra names, none missing.
*/
START_TEST(test_io_jimage__jdk17) {
  const char *img = JDK17 "/lib/modules", *jm = JDK17 "/jmods/java.base.jmod";
  if (access(img, R_OK) != 0 || access(jm, R_OK) != 0) {
    printf("JDK 17 image or jmod missing: skipped\n");
    return;
  }
  cr_diag d;
  cr_diag_clear(&d);
  cr_input *in, *mod;
  ck_assert_int_eq(cr_input_open(&in, img, &d), 0);
  ck_assert_int_eq(cr_input_open(&mod, jm, &d), 0);
  ck_assert_uint_gt(cr_input_count(in), 20000);
  size_t nmod = cr_input_count(mod), nbase = 0, extra = 0;
  const char **names = malloc(nmod * sizeof *names);
  for (size_t i = 0; i < nmod; i++) {
    cr_entry_info e;
    cr_input_info(mod, i, &e);
    names[i] = e.name;
  }
  qsort(names, nmod, sizeof *names, cmpstr);
  cr_entry_info prev = {0};
  for (size_t i = 0; i < cr_input_count(in); i++) {
    cr_entry_info e;
    cr_input_info(in, i, &e);
    ck_assert_ptr_nonnull(e.module);
    ck_assert(strcmp(e.module, "modules") && strcmp(e.module, "packages"));
    if (i) {
      int c = strcmp(prev.module, e.module);
      ck_assert(c < 0 || (c == 0 && strcmp(prev.name, e.name) < 0));
    }
    prev = e;
    if (strcmp(e.module, "java.base")) continue;
    nbase++;
    if (bsearch(&e.name, names, nmod, sizeof *names, cmpstr)) continue;
    extra++;
    ck_assert_msg(strstr(e.name, "java/lang/invoke/BoundMethodHandle$Species_")
                  || strstr(e.name, "jdk/internal/module/SystemModules$"),
                  "unexpected %s", e.name);
  }
  free(names);
  /* every jmod class is in the image, plus exactly the generated ones */
  ck_assert_uint_eq(extra, 19);
  ck_assert_uint_eq(nbase, nmod + extra);
  size_t n1, n2;
  uint8_t *a = read_entry(in, "java.base", "java/lang/Object.class", &n1);
  uint8_t *b = read_entry(mod, "java.base", "java/lang/Object.class", &n2);
  ck_assert_uint_eq(n1, n2);
  ck_assert_mem_eq(a, b, n1);
  cr_free(a);
  cr_free(b);
  cr_input_close(mod);
  cr_input_close(in);
}
END_TEST

START_TEST(test_io_jimage__jdk25) {
  const char *img = JDK25 "/lib/modules";
  if (access(img, R_OK) != 0) {
    printf("%s missing: skipped\n", img);
    return;
  }
  cr_diag d;
  cr_diag_clear(&d);
  cr_input *in;
  ck_assert_int_eq(cr_input_open(&in, img, &d), 0);
  size_t mods = 0;
  const char *last = "";
  for (size_t i = 0; i < cr_input_count(in); i++) {
    cr_entry_info e;
    cr_input_info(in, i, &e);
    if (strcmp(e.module, last)) mods++;
    last = e.module;
  }
  ck_assert_uint_gt(mods, 20);
  size_t n;
  uint8_t *b = read_entry(in, "java.base", "java/lang/Object.class", &n);
  ck_assert_uint_gt(n, 100);
  ck_assert_mem_eq(b, "\xca\xfe\xba\xbe", 4);
  ck_assert_uint_eq(cr_be16(b + 6), 69);
  cr_free(b);
  cr_input_close(in);
}
END_TEST

/* Copy the first 'n' bytes of 'src' to 'dst', optionally patching a u4. */
static void prefix_copy(const uint8_t *src, size_t n, const char *dst,
                        long patch_at, uint32_t patch) {
  uint8_t *p = malloc(n ? n : 1);
  memcpy(p, src, n);
  if (patch_at >= 0) memcpy(p + patch_at, &patch, 4);
  put_file(dst, p, n);
  free(p);
}

START_TEST(test_io_jimage__damaged_real_image) {
  const char *img = JDK17 "/lib/modules";
  if (access(img, R_OK) != 0) {
    printf("%s missing: skipped\n", img);
    return;
  }
  mkdir_tmp();
  /* read only the index plus 2 MiB of resources */
  FILE *f = fopen(img, "rb");
  uint32_t h[7];
  ck_assert_uint_eq(fread(h, 4, 7, f), 7);
  size_t index = 28 + 8 * (size_t)h[4] + h[5] + h[6];
  size_t have = index + (2u << 20);
  uint8_t *src = malloc(have);
  rewind(f);
  ck_assert_uint_eq(fread(src, 1, have, f), have);
  fclose(f);
  char path[128];
  snprintf(path, sizeof path, "%s/modules", dir);
  cr_diag d;
  cr_input *in;
  size_t cuts[] = {0, 4, 27, 28, 1000, index / 2, index - 1};
  for (size_t k = 0; k < sizeof cuts / sizeof cuts[0]; k++) {
    prefix_copy(src, cuts[k], path, -1, 0);
    cr_diag_clear(&d);
    int rc = cr_input_open(&in, path, &d);
    /* short files have no magic and are then taken for zips */
    ck_assert_int_eq(rc, CR_EFORMAT);
    ck_assert_str_eq(d.file, path);
  }
  /* header damage: table length, locations size, an offset, version */
  struct { long at; uint32_t v; int code; } dmg[] = {
      {16, 0xFFFFFFF0u, CR_EFORMAT}, {20, 0x7FFFFFFFu, CR_EFORMAT},
      {28 + 4 * (long)h[4] + 40, 0xFFFFFF00u, CR_EFORMAT},
      {4, 2u << 16, CR_EUNSUPPORTED}};
  for (size_t k = 0; k < sizeof dmg / sizeof dmg[0]; k++) {
    prefix_copy(src, have, path, dmg[k].at, dmg[k].v);
    cr_diag_clear(&d);
    ck_assert_int_eq(cr_input_open(&in, path, &d), dmg[k].code);
  }
  /* index intact, resources cut: the lost ones fail, the rest read */
  prefix_copy(src, have, path, -1, 0);
  cr_diag_clear(&d);
  ck_assert_int_eq(cr_input_open(&in, path, &d), 0);
  size_t good = 0, bad = 0;
  for (size_t i = 0; i < cr_input_count(in); i++) {
    uint8_t *b;
    size_t n;
    cr_diag_clear(&d);
    int rc = cr_input_read(in, i, &b, &n, &d);
    if (!rc) {
      good++;
      cr_free(b);
    } else {
      ck_assert_int_eq(rc, CR_EFORMAT);
      bad++;
    }
  }
  ck_assert_uint_gt(good, 0);
  ck_assert_uint_gt(bad, 0);
  cr_input_close(in);
  free(src);
  rm_tmp();
}
END_TEST

int main(void) {
  Suite *s = suite_create("io_jimage");
  TCase *tc = tcase_create("jimage");
  tcase_set_timeout(tc, 120);
  tcase_add_test(tc, test_io_jimage__synthetic);
  tcase_add_test(tc, test_io_jimage__fuzz_synthetic);
  tcase_add_test(tc, test_io_jimage__oom_sweep);
  tcase_add_test(tc, test_io_jimage__jdk17);
  tcase_add_test(tc, test_io_jimage__jdk25);
  tcase_add_test(tc, test_io_jimage__damaged_real_image);
  suite_add_tcase(s, tc);
  SRunner *sr = srunner_create(s);
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
