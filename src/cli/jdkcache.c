/*
** jdkcache.c -- the summary of a JDK's classes as a library, kept in the
** user's cache folder so that rewriting an application does not read the
** whole JDK image every time.
**
** An entry is "$XDG_CACHE_HOME/cccp/jdk-VERSION-HASH.summary" (else
** "$HOME/.cache/cccp/..."): one line of text, the key, then a hierarchy
** summary (hier_io.c). The key names everything the summary depends on:
** the image (real path, size, modification time), the JDK's build (its
** 'release' file) and the rewriter (its executable's path, size and
** modification time). The entry holds the classes, not the analysis's
** answers, which every run computes again with its own policy: one entry
** serves every policy. HASH is a hash of the key, and an entry is used
** only if its first line is the key exactly and the summary's checksum
** holds; anything else is built again. Entries are written under a
** temporary name and renamed, under an advisory lock per entry, so that
** builds running at once (make -j) build an entry once and never read
** half of one. Writing an entry removes the entries of older keys for the
** same image and rewriter (a JDK updated in place, the rewriter rebuilt).
*/
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "cccp/hier.h"

#define KEY_TAG "cccp-jdk-summary 1"

static uint64_t fnv64(uint64_t h, const void *p, size_t n) {
  const unsigned char *s = p;
  for (size_t i = 0; i < n; i++) h = (h ^ s[i]) * 0x100000001b3ull;
  return h;
}

/* The folder of the entries, created if needed; -1 when there is none. */
static int cache_dir(char *out, size_t n) {
  const char *x = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
  int m;
  if (x && x[0] == '/') m = snprintf(out, n, "%s/cccp", x);
  else if (home && home[0] == '/') m = snprintf(out, n, "%s/.cache/cccp", home);
  else return -1;
  if (m < 0 || (size_t)m >= n) return -1;
  return cli_mkdirs(out, 0700);
}

int cli_jdk_cache_open(cli_jdk_cache *c, const char *img) {
  memset(c, 0, sizeof *c);
  c->lock = -1;
  char dir[PATH_MAX], real[PATH_MAX], exe[PATH_MAX], build[128];
  struct stat si, se;
  if (!realpath(img, real) || stat(real, &si) != 0 ||
      !realpath("/proc/self/exe", exe) || stat(exe, &se) != 0 ||
      strchr(real, '\n') || strchr(exe, '\n')) {
    snprintf(c->why, sizeof c->why, "the image or the rewriter cannot be "
             "named for a key");
    return -1;
  }
  /* the build of the JDK whose lib/modules the image is */
  const char *lib = strstr(real, "/lib/modules");
  char home[PATH_MAX];
  snprintf(home, sizeof home, "%.*s",
           lib && !lib[12] ? (int)(lib - real) : (int)strlen(real), real);
  cli_jdk_build(home, build, sizeof build);
  /* what 'prune' compares first: the image and the rewriter's path */
  int m = snprintf(c->key, sizeof c->key,
                   KEY_TAG " image=%s tool=%s | size=%lld mtime=%lld.%09ld "
                   "build=%s tool-size=%lld tool-mtime=%lld.%09ld\n",
                   real, exe, (long long)si.st_size,
                   (long long)si.st_mtim.tv_sec, si.st_mtim.tv_nsec,
                   build, (long long)se.st_size,
                   (long long)se.st_mtim.tv_sec, se.st_mtim.tv_nsec);
  if (m < 0 || (size_t)m >= sizeof c->key) {
    snprintf(c->why, sizeof c->why, "paths too long for a key");
    return -1;
  }
  errno = 0;
  if (cache_dir(dir, sizeof dir) != 0) {
    snprintf(c->why, sizeof c->why, "no cache folder (%s)",
             errno ? strerror(errno) : "neither XDG_CACHE_HOME nor HOME");
    return -1;
  }
  /* the build in the name, for people looking at the folder */
  char tag[64];
  size_t k = 0;
  for (const char *s = build; *s && k + 1 < sizeof tag; s++)
    tag[k++] = (*s >= '0' && *s <= '9') || (*s >= 'a' && *s <= 'z') ||
               (*s >= 'A' && *s <= 'Z') || *s == '.' || *s == '-' ? *s : '_';
  tag[k] = '\0';
  uint64_t h = fnv64(0xcbf29ce484222325ull, c->key, strlen(c->key));
  m = snprintf(c->path, sizeof c->path, "%s/jdk-%s-%016llx.summary", dir, tag,
               (unsigned long long)h);
  if (m < 0 || (size_t)m >= sizeof c->path) return -1;
  snprintf(c->dir, sizeof c->dir, "%s", dir);
  return 0;
}

int cli_jdk_cache_load(cli_jdk_cache *c, struct cr_hier *h, cr_diag *d) {
  uint8_t *buf = NULL;
  size_t len = 0, kl = strlen(c->key);
  cr_diag e;
  cr_diag_clear(&e);
  if (cr_read_file(&buf, &len, c->path, &e) != 0) {
    c->why[0] = '\0';       /* not there yet */
    return -1;
  }
  int rc = -1;
  if (len < kl || memcmp(buf, c->key, kl) != 0)
    snprintf(c->why, sizeof c->why, "its key does not match");
  else if (cr_hier_load_mem(h, buf + kl, len - kl, c->path,
                            CR_HIER_EXTERNAL, &e) != 0) {
    if (e.code == CR_ENOMEM) {
      *d = e;
      rc = CR_ENOMEM;
    } else
      snprintf(c->why, sizeof c->why, "%s", e.msg);
  } else
    rc = 0;
  cr_free(buf);
  return rc;
}

void cli_jdk_cache_lock(cli_jdk_cache *c) {
  char lk[PATH_MAX + 8];
  snprintf(lk, sizeof lk, "%.*s.lock", (int)(strlen(c->path) - 8), c->path);
  c->lock = open(lk, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
  if (c->lock >= 0)
    while (flock(c->lock, LOCK_EX) != 0 && errno == EINTR) {}
}

void cli_jdk_cache_unlock(cli_jdk_cache *c) {
  if (c->lock >= 0) close(c->lock);   /* releases the lock */
  c->lock = -1;
}

/* Remove the entries (and their locks) of other keys for the same image
** and rewriter: what a JDK updated in place or a rebuilt rewriter left
** (other rewriters, such as a test build beside an installed one, keep
** theirs). */
static void prune(const cli_jdk_cache *c) {
  DIR *dp = opendir(c->dir);
  if (!dp) return;
  size_t wl = (size_t)(strstr(c->key, " | ") - c->key) + 3;
  struct dirent *de;
  while ((de = readdir(dp))) {
    size_t n = strlen(de->d_name);
    if (strncmp(de->d_name, "jdk-", 4) != 0 || n < 12 ||
        strcmp(de->d_name + n - 8, ".summary") != 0)
      continue;
    char path[PATH_MAX + 256], line[sizeof c->key];
    snprintf(path, sizeof path, "%s/%s", c->dir, de->d_name);
    if (strcmp(path, c->path) == 0) continue;
    FILE *f = fopen(path, "rb");
    if (!f) continue;
    int same = fgets(line, sizeof line, f) &&
               strncmp(line, c->key, wl) == 0;
    fclose(f);
    if (!same) continue;
    unlink(path);
    snprintf(path + strlen(path) - 8, 9, ".lock");
    unlink(path);
  }
  closedir(dp);
}

int cli_jdk_cache_store(cli_jdk_cache *c, const struct cr_hier *lib,
                        cr_diag *d) {
  cli_afile af;
  int rc = cli_atomic_open(&af, c->path, d);
  if (rc) return rc;
  if (fputs(c->key, af.f) == EOF) {
    cli_atomic_abort(&af);
    return cr_diag_set(d, CR_EIO, -1, "cannot write %s: %s", c->path,
                       strerror(errno));
  }
  if ((rc = cr_hier_save_stream(lib, af.f, d))) {
    cli_atomic_abort(&af);
    return rc;
  }
  if ((rc = cli_atomic_commit(&af, d))) return rc;
  prune(c);
  return 0;
}
