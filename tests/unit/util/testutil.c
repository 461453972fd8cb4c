/*
** testutil.c -- helpers shared by the unit tests (see testutil.h).
*/
#include <check.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cccp/io.h"
#include "testutil.h"

const char *tu_fixtures(void) {
  const char *d = getenv("CCCP_FIXTURES");
  return d && *d ? d : NULL;
}

static int add(tu_files *f, size_t *cap, const char *p) {
  if (f->n == *cap) {
    size_t nc = *cap ? *cap * 2 : 64;
    char **np = realloc(f->path, nc * sizeof *np);
    if (!np) return -1;
    f->path = np;
    *cap = nc;
  }
  f->path[f->n] = strdup(p);
  return f->path[f->n++] ? 0 : -1;
}

static int walk(tu_files *f, size_t *cap, const char *dir) {
  DIR *d = opendir(dir);
  struct dirent *e;
  if (!d) return -1;
  while ((e = readdir(d))) {
    char p[4096];
    struct stat st;
    if (e->d_name[0] == '.') continue;
    snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
    if (stat(p, &st) != 0) continue;
    if (S_ISDIR(st.st_mode)) {
      walk(f, cap, p);
    } else {
      size_t n = strlen(p);
      if (n > 6 && strcmp(p + n - 6, ".class") == 0 && add(f, cap, p)) {
        closedir(d);
        return -1;
      }
    }
  }
  closedir(d);
  return 0;
}

static int cmp(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

int tu_list_classes(tu_files *out, const char *dir) {
  size_t cap = 0;
  memset(out, 0, sizeof *out);
  if (walk(out, &cap, dir)) return -1;
  qsort(out->path, out->n, sizeof *out->path, cmp);
  return 0;
}

void tu_files_free(tu_files *f) {
  for (size_t i = 0; i < f->n; i++) free(f->path[i]);
  free(f->path);
  memset(f, 0, sizeof *f);
}

uint8_t *tu_slurp(const char *path, size_t *len) {
  FILE *fp = fopen(path, "rb");
  if (!fp) return NULL;
  fseek(fp, 0, SEEK_END);
  long n = ftell(fp);
  fseek(fp, 0, SEEK_SET);
  uint8_t *p = n < 0 ? NULL : malloc((size_t)n + 1);
  if (p && fread(p, 1, (size_t)n, fp) != (size_t)n) {
    free(p);
    p = NULL;
  }
  if (p) p[n] = 0;  /* text files can be used as C strings */
  fclose(fp);
  *len = (size_t)n;
  return p;
}

uint8_t *tu_fixture(const char *name, size_t *len) {
  const char *d = tu_fixtures();
  char p[4096];
  if (!d) return NULL;
  snprintf(p, sizeof p, "%s/%s.class", d, name);
  return tu_slurp(p, len);
}

static char dirs[8][512];
static char jmods[8][512];
static int ndirs;

/* Remove the extracted trees (their parent is the mkdtemp dir). */
static void cleanup(void) {
  for (int i = 0; i < ndirs; i++) {
    char cmd[1100];
    snprintf(cmd, sizeof cmd, "rm -rf '%.*s'",
             (int)(strrchr(dirs[i], '/') - dirs[i]), dirs[i]);
    if (system(cmd) != 0) fprintf(stderr, "cannot remove %s\n", dirs[i]);
  }
  ndirs = 0;
}

const char *tu_jmod_classes(const char *jmod) {
  int n = ndirs;
  struct stat st;
  for (int i = 0; i < n; i++)
    if (strcmp(jmods[i], jmod) == 0) return dirs[i];
  if (n == 8) cleanup(), n = 0;     /* recycle: drop the older trees */
  if (stat(jmod, &st) != 0) {
    printf("skip: %s not found\n", jmod);
    return NULL;
  }
  char tmpl[] = "/tmp/cccp-jmod-XXXXXX";
  if (!mkdtemp(tmpl)) return NULL;
  char cmd[2048];
  snprintf(cmd, sizeof cmd,
           "cd '%s' && unzip -q -o '%s' 'classes/*' >/dev/null 2>&1; "
           "test -d classes", tmpl, jmod);
  if (system(cmd) != 0) {
    printf("skip: cannot unzip %s (is 'unzip' installed?)\n", jmod);
    return NULL;
  }
  snprintf(jmods[n], sizeof jmods[n], "%s", jmod);
  snprintf(dirs[n], sizeof dirs[n], "%s/classes", tmpl);
  if (ndirs++ == 0) atexit(cleanup);
  return dirs[n];
}

size_t tu_class(uint8_t *out, size_t cap, unsigned major, unsigned count,
                const uint8_t *pool, size_t plen, const uint8_t *body,
                size_t blen) {
  size_t n = 10 + plen + blen;
  if (n > cap) return 0;
  const uint8_t hdr[10] = {0xCA, 0xFE, 0xBA, 0xBE, 0, 0,
                           (uint8_t)(major >> 8), (uint8_t)major,
                           (uint8_t)(count >> 8), (uint8_t)count};
  memcpy(out, hdr, 10);
  if (plen) memcpy(out + 10, pool, plen);
  if (blen) memcpy(out + 10 + plen, body, blen);
  return n;
}

void tu_tmpdir(char *dir, size_t dirsz, const char *tag) {
  snprintf(dir, dirsz, "/tmp/cccp-%s-XXXXXX", tag);
  ck_assert_ptr_nonnull(mkdtemp(dir));
}

void tu_rmdir(const char *dir) {
  char cmd[256];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
  if (system(cmd) != 0) fprintf(stderr, "cannot remove %s\n", dir);
}

long tu_input_oom_sweep(const char *path) {
  int rc = -1;
  long n;
  for (n = 0; n < 1000 && rc; n++) {
    cr_diag d;
    cr_diag_clear(&d);
    cr_input *in = NULL;
    cr_alloc_fail_after(n);
    rc = cr_input_open(&in, path, &d);
    for (size_t i = 0; !rc && i < cr_input_count(in); i++) {
      uint8_t *b;
      size_t len;
      rc = cr_input_read(in, i, &b, &len, &d);
      if (!rc) cr_free(b);
    }
    cr_alloc_fail_after(-1);
    cr_input_close(in);
    if (rc) ck_assert_int_eq(rc, CR_ENOMEM);
  }
  ck_assert_int_eq(rc, 0);
  return n;
}
