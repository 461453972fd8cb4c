/*
** input.c -- open any input container: detection, directories, single
** class files, limits, and the reads that every kind shares.
*/
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "io_int.h"

#define MAXDEPTH 128    /* directory nesting we accept */

io_ent *cr_io__add(cr_input *in) {
  if (in->n == in->cap) {
    size_t nc = in->cap ? in->cap * 2 : 64;
    if (nc > SIZE_MAX / sizeof *in->ents) return NULL;
    io_ent *p = cr_realloc(in->ents, nc * sizeof *p);
    if (!p) return NULL;
    in->ents = p;
    in->cap = nc;
  }
  io_ent *e = &in->ents[in->n++];
  memset(e, 0, sizeof *e);
  e->method = -1;
  return e;
}

char *cr_io__strdup(cr_input *in, const char *s, size_t n) {
  return cr_arena_strndup(in->arena, s, n);
}

/* Join 'a' + '/' + 'b' into a malloc'd string. */
static char *join(const char *a, const char *b) {
  size_t la = strlen(a), lb = strlen(b);
  char *p = cr_malloc(la + lb + 2);
  if (!p) return NULL;
  memcpy(p, a, la);
  p[la] = '/';
  memcpy(p + la + 1, b, lb + 1);
  return p;
}

static int cmpname(const void *a, const void *b) {
  const io_ent *x = a, *y = b;
  return strcmp(x->name, y->name);
}

/*
** Walk directory 'abs' (relative name 'rel', "" at the top) and list its
** regular files, depth first. Symbolic links to files are listed; links to
** directories are not followed, so a link cycle cannot loop.
*/
static int walk(cr_input *in, const char *abs, const char *rel, int depth,
                cr_diag *d) {
  if (depth > MAXDEPTH)
    return cr_diag_set(d, CR_ETOOLARGE, -1,
                       "directories nested deeper than %d at '%s'",
                       MAXDEPTH, rel);
  DIR *dir = opendir(abs);
  if (!dir)
    return cr_diag_set(d, CR_EIO, -1, "cannot open directory '%s': %s",
                       abs, strerror(errno));
  int rc = 0;
  struct dirent *de;
  while ((errno = 0, de = readdir(dir)) != NULL) {
    const char *nm = de->d_name;
    if (!strcmp(nm, ".") || !strcmp(nm, "..")) continue;
    struct stat st;
    if (fstatat(dirfd(dir), nm, &st, AT_SYMLINK_NOFOLLOW) != 0) {
      rc = cr_diag_set(d, CR_EIO, -1, "cannot stat '%s/%s': %s", abs, nm,
                       strerror(errno));
      break;
    }
    int isdir = S_ISDIR(st.st_mode);
    if (S_ISLNK(st.st_mode)) {
      /* follow links to files only; dangling links are skipped */
      if (fstatat(dirfd(dir), nm, &st, 0) != 0 || !S_ISREG(st.st_mode))
        continue;
    } else if (!isdir && !S_ISREG(st.st_mode)) {
      continue;         /* fifo, socket, device */
    }
    size_t lr = strlen(rel), ln = strlen(nm);
    char *r = cr_malloc(lr + ln + 2);
    char *a = join(abs, nm);
    if (!r || !a) {
      cr_free(r);
      cr_free(a);
      rc = cr_diag_set(d, CR_ENOMEM, -1, "out of memory listing '%s'", abs);
      break;
    }
    if (lr) {
      memcpy(r, rel, lr);
      r[lr] = '/';
      memcpy(r + lr + 1, nm, ln + 1);
    } else {
      memcpy(r, nm, ln + 1);
    }
    if (isdir) {
      rc = walk(in, a, r, depth + 1, d);
    } else {
      io_ent *e = cr_io__add(in);
      char *s = e ? cr_io__strdup(in, r, strlen(r)) : NULL;
      if (!s) {
        rc = cr_diag_set(d, CR_ENOMEM, -1, "out of memory listing '%s'",
                         abs);
      } else {
        e->name = s;
        e->size = (uint64_t)st.st_size;
      }
    }
    cr_free(r);
    cr_free(a);
    if (rc) break;
  }
  if (!rc && errno)
    rc = cr_diag_set(d, CR_EIO, -1, "cannot read directory '%s': %s", abs,
                     strerror(errno));
  closedir(dir);
  return rc;
}

static int open_dir(cr_input *in, cr_diag *d) {
  int rc = walk(in, in->path, "", 0, d);
  if (rc) return rc;
  if (in->n > 1) qsort(in->ents, in->n, sizeof *in->ents, cmpname);
  return 0;
}

static int open_class(cr_input *in, uint64_t size, cr_diag *d) {
  const char *base = strrchr(in->path, '/');
  base = base ? base + 1 : in->path;
  io_ent *e = cr_io__add(in);
  char *s = e ? cr_io__strdup(in, base, strlen(base)) : NULL;
  if (!s) return cr_diag_set(d, CR_ENOMEM, -1, "out of memory");
  e->name = s;
  e->size = size;
  return 0;
}

/* Read the first 4 bytes of 'path' (fewer for a short file: zeros). */
static int sniff(const char *path, uint8_t magic[4], cr_diag *d) {
  memset(magic, 0, 4);
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return cr_diag_set(d, errno == ENOENT ? CR_ENOTFOUND : CR_EIO, -1,
                       "cannot open: %s", strerror(errno));
  ssize_t k;
  do k = read(fd, magic, 4);
  while (k < 0 && errno == EINTR);
  int err = errno;
  close(fd);
  if (k < 0)
    return cr_diag_set(d, CR_EIO, -1, "cannot read: %s", strerror(err));
  return 0;
}

int cr_input_open(cr_input **out, const char *path, cr_diag *d) {
  *out = NULL;
  struct stat st;
  if (stat(path, &st) != 0) {
    int code = errno == ENOENT ? CR_ENOTFOUND : CR_EIO;
    cr_diag_set(d, code, -1, "cannot open: %s", strerror(errno));
    cr_diag_where(d, path, NULL);
    return code;
  }
  int rc = 0;
  cr_input *in = cr_calloc(1, sizeof *in);
  if (!in) {
    rc = cr_diag_set(d, CR_ENOMEM, -1, "out of memory");
    goto out;
  }
  in->max_entry = CR_DEFAULT_MAX_ENTRY;
  in->max_total = CR_DEFAULT_MAX_TOTAL;
  in->path = cr_malloc(strlen(path) + 1);
  in->arena = cr_arena_new();
  if (!in->path || !in->arena) {
    rc = cr_diag_set(d, CR_ENOMEM, -1, "out of memory");
    goto out;
  }
  strcpy(in->path, path);
  if (pthread_mutex_init(&in->kmu, NULL) != 0) {
    rc = cr_diag_set(d, CR_ENOMEM, -1, "cannot create a mutex");
    goto out;
  }
  in->kmu_ok = 1;
  if (S_ISDIR(st.st_mode)) {
    in->kind = CR_IN_DIR;
    rc = open_dir(in, d);
  } else if (!S_ISREG(st.st_mode)) {
    rc = cr_diag_set(d, CR_EUNSUPPORTED, -1,
                     "not a regular file or directory");
  } else {
    uint8_t m[4];
    rc = sniff(path, m, d);
    if (rc) goto out;
    if (m[0] == 'J' && m[1] == 'M' && m[2] == 1 && m[3] == 0) {
      in->kind = CR_IN_JMOD;
      in->zstart = 4;
      rc = cr_io__zip_open(in, d);
    } else if (cr_io__jimage_magic(m)) {
      in->kind = CR_IN_JIMAGE;
      rc = cr_io__jimage_open(in, d);
    } else if (cr_be32(m) == 0xCAFEBABEu) {
      in->kind = CR_IN_CLASS;
      rc = open_class(in, (uint64_t)st.st_size, d);
    } else if (strlen(path) > 6 &&
               strcmp(path + strlen(path) - 6, ".class") == 0) {
      /* Named like a class but not one: say so, not "bad zip". */
      rc = cr_diag_set(d, CR_EFORMAT, 0,
                       "not a class file (no 0xCAFEBABE magic)");
    } else {
      in->kind = CR_IN_JAR;
      rc = cr_io__zip_open(in, d);
    }
  }
  if (!rc)
    for (size_t i = 0; i < in->n; i++) {
      uint64_t s = in->ents[i].size;
      in->total = in->total + s < in->total ? UINT64_MAX : in->total + s;
    }
out:
  if (rc) {
    cr_diag_where(d, path, NULL);
    cr_input_close(in);
    return rc;
  }
  *out = in;
  return 0;
}

void cr_input_close(cr_input *in) {
  if (!in) return;
  if (in->kind == CR_IN_JAR || in->kind == CR_IN_JMOD) cr_io__zip_close(in);
  if (in->kind == CR_IN_JIMAGE) cr_io__jimage_close(in);
  if (in->kept)
    for (size_t i = 0; i < in->n; i++) cr_free(in->kept[i]);
  cr_free(in->kept);
  if (in->kmu_ok) pthread_mutex_destroy(&in->kmu);
  cr_free(in->ents);
  cr_arena_free(in->arena);
  cr_free(in->path);
  cr_free(in);
}

cr_input_kind cr_input_kind_of(const cr_input *in) { return in->kind; }
const char *cr_input_path(const cr_input *in) { return in->path; }
size_t cr_input_count(const cr_input *in) { return in->n; }

void cr_input_info(const cr_input *in, size_t i, cr_entry_info *out) {
  const io_ent *e = &in->ents[i];
  out->name = e->name;
  out->module = e->module;
  out->size = e->size;
  out->is_dir = e->is_dir;
  out->dos_time = e->dtime;
  out->dos_date = e->ddate;
  out->os = e->os;
  out->ext_attr = e->attr;
  out->method = e->method;
}

void cr_input_set_limits(cr_input *in, uint64_t max_entry,
                         uint64_t max_total) {
  in->max_entry = max_entry;
  in->max_total = max_total;
}

uint64_t cr_input_total(const cr_input *in) { return in->total; }

void cr_input_set_keep(cr_input *in, uint64_t max) { in->keep_max = max; }

/* Is reading entry 'e' again dear enough to keep it? Only when it had to
** be inflated: a run-time image or a directory is read with a copy. */
static int worth_keeping(const cr_input *in, const io_ent *e) {
  switch (in->kind) {
  case CR_IN_JAR: case CR_IN_JMOD: return 1;
  case CR_IN_JIMAGE: return e->csize != 0;
  default: return 0;
  }
}

int cr_input_keep(cr_input *in, size_t i, uint8_t *data, size_t len) {
  int kept = 0;
  if (i >= in->n || !worth_keeping(in, &in->ents[i])) return 0;
  pthread_mutex_lock(&in->kmu);
  if (!in->kept && in->keep_max && in->n)
    in->kept = cr_calloc(in->n, sizeof *in->kept);
  if (in->kept && !in->kept[i] &&
      len <= in->keep_max - in->keep_used &&
      in->ents[i].size == len) {
    in->kept[i] = data;
    in->keep_used += len;
    kept = 1;
  }
  pthread_mutex_unlock(&in->kmu);
  return kept;
}

/* Take back entry 'i' if it is kept (its size is the declared one). */
static uint8_t *unkeep(cr_input *in, size_t i) {
  uint8_t *p = NULL;
  pthread_mutex_lock(&in->kmu);
  if (in->kept && in->kept[i]) {
    p = in->kept[i];
    in->kept[i] = NULL;
    in->keep_used -= in->ents[i].size;
  }
  pthread_mutex_unlock(&in->kmu);
  return p;
}

/* Read a file of the directory (or the class file itself) into 'buf'. */
static int read_plain(cr_input *in, const io_ent *e, uint8_t **buf,
                      size_t *len, cr_diag *d) {
  char *p = in->kind == CR_IN_DIR ? join(in->path, e->name) : NULL;
  if (in->kind == CR_IN_DIR && !p)
    return cr_diag_set(d, CR_ENOMEM, -1, "out of memory");
  const char *fp = p ? p : in->path;
  int rc = 0;
  int fd = open(fp, O_RDONLY | O_CLOEXEC);
  struct stat st;
  if (fd < 0 || fstat(fd, &st) != 0) {
    rc = cr_diag_set(d, errno == ENOENT ? CR_ENOTFOUND : CR_EIO, -1,
                     "cannot open '%s': %s", fp, strerror(errno));
    goto out;
  }
  /* the file may have changed since it was listed: trust it, not the list */
  if ((uint64_t)st.st_size > in->max_entry) {
    rc = cr_diag_set(d, CR_ETOOLARGE, -1,
                     "entry of %llu bytes exceeds the limit of %llu",
                     (unsigned long long)st.st_size,
                     (unsigned long long)in->max_entry);
    goto out;
  }
  size_t n = (size_t)st.st_size, got = 0;
  uint8_t *b = cr_malloc(n);
  if (!b) {
    rc = cr_diag_set(d, CR_ENOMEM, -1, "out of memory for %zu bytes", n);
    goto out;
  }
  while (got < n) {
    ssize_t k = read(fd, b + got, n - got);
    if (k < 0 && errno == EINTR) continue;
    if (k <= 0) {
      rc = k < 0 ? cr_diag_set(d, CR_EIO, -1, "read error: %s",
                               strerror(errno))
                 : cr_diag_set(d, CR_EIO, -1, "file shrank while reading");
      cr_free(b);
      goto out;
    }
    got += (size_t)k;
  }
  *buf = b;
  *len = n;
out:
  if (fd >= 0) close(fd);
  cr_free(p);
  return rc;
}

int cr_input_read(cr_input *in, size_t i, uint8_t **data, size_t *len,
                  cr_diag *d) {
  *data = NULL;
  *len = 0;
  const io_ent *e = &in->ents[i];
  int rc = 0;
  uint8_t *buf = NULL;
  if (in->total > in->max_total) {
    rc = cr_diag_set(d, CR_ETOOLARGE, -1,
                     "entries declare %llu bytes in total, limit %llu",
                     (unsigned long long)in->total,
                     (unsigned long long)in->max_total);
    goto out;
  }
  if (in->keep_max && (buf = unkeep(in, i)) != NULL) {
    *data = buf;
    *len = (size_t)e->size;
    buf = NULL;
    goto out;
  }
  if (in->kind == CR_IN_DIR || in->kind == CR_IN_CLASS) {
    rc = read_plain(in, e, data, len, d);
    goto out;
  }
  if (e->size > in->max_entry || e->size > SIZE_MAX - 1) {
    rc = cr_diag_set(d, CR_ETOOLARGE, -1,
                     "entry of %llu bytes exceeds the limit of %llu",
                     (unsigned long long)e->size,
                     (unsigned long long)in->max_entry);
    goto out;
  }
  buf = cr_malloc((size_t)e->size);
  if (!buf) {
    rc = cr_diag_set(d, CR_ENOMEM, -1, "out of memory for %llu bytes",
                     (unsigned long long)e->size);
    goto out;
  }
  rc = in->kind == CR_IN_JIMAGE ? cr_io__jimage_read(in, e, buf, d)
                                : cr_io__zip_read(in, e, buf, d);
  if (rc) goto out;
  *data = buf;
  *len = (size_t)e->size;
  buf = NULL;
out:
  cr_free(buf);
  if (rc) cr_diag_where(d, in->path, e->name);
  return rc;
}

int cr_jdk_modules_path(char *out, size_t outsz, const char *home,
                        cr_diag *d) {
  struct stat st;
  const char *found = NULL;
  char *p = NULL;
  if (outsz) out[0] = '\0';
  int ok = stat(home, &st) == 0;
  if (ok && S_ISDIR(st.st_mode)) {
    p = join(home, "lib/modules");
    if (!p) return cr_diag_set(d, CR_ENOMEM, -1, "out of memory");
    if (stat(p, &st) == 0 && S_ISREG(st.st_mode)) found = p;
  } else if (ok && S_ISREG(st.st_mode)) {
    uint8_t m[4];
    cr_diag tmp;
    cr_diag_clear(&tmp);
    if (sniff(home, m, &tmp) == 0 && cr_io__jimage_magic(m)) found = home;
  }
  int rc = 0;
  if (!found) {
    rc = cr_diag_set(d, CR_ENOTFOUND, -1,
                     "neither a JDK home with lib/modules nor a jimage");
    cr_diag_where(d, home, NULL);
  } else if (strlen(found) >= outsz) {
    rc = cr_diag_set(d, CR_ETOOLARGE, -1, "path longer than %zu bytes",
                     outsz);
    cr_diag_where(d, home, NULL);
  } else {
    strcpy(out, found);
  }
  cr_free(p);
  return rc;
}

int cr_io__module_name_ok(const char *name) {
  if (!name[0] || !strcmp(name, ".") || !strcmp(name, "..")) return 0;
  for (const unsigned char *p = (const unsigned char *)name; *p; p++)
    if (*p == '/' || *p == '\\' || *p < 0x20 || *p == 0x7f) return 0;
  return 1;
}
