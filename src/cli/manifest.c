/*
** manifest.c -- a jar's manifest 'Class-Path' as the JVM follows it
** (jdk.internal.loader.URLClassPath): reading and resolving its entries,
** the closure of the inputs over them, and rewriting it in output jars so
** that it names the rewritten copies.
*/
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "cli.h"

#define MANIFEST "META-INF/MANIFEST.MF"

static char *dupn(const char *s, size_t n) {
  char *p = cr_malloc(n + 1);
  if (!p) return NULL;
  memcpy(p, s, n);
  p[n] = '\0';
  return p;
}

/* ------------------------------------------------------------ parsing */

/*
** One header of the main section: its lines span [start, end) of the
** manifest (terminators included); 'value' is the joined value.
*/
typedef struct header {
  size_t start, end;
  char *value;          /* malloc'd */
  const char *eol;      /* the first line's terminator: "\r\n", "\n", "\r"
                           or "" (the last line of the file) */
} header;

/* Length of the line at 'p' (up to 'end') without its terminator, and
** the terminator's length in '*eol'. */
static size_t line_len(const uint8_t *p, const uint8_t *end, size_t *eol) {
  const uint8_t *q = p;
  while (q < end && *q != '\n' && *q != '\r') q++;
  *eol = q == end ? 0 : (*q == '\r' && q + 1 < end && q[1] == '\n') ? 2 : 1;
  return (size_t)(q - p);
}

/*
** Find the last 'Class-Path' header of the main section of manifest 'mf'
** (java.util.jar.Manifest: lines end in CR LF, LF or CR; a line starting
** with a space continues the previous one; the main section ends at the
** first empty line; names are case-insensitive, "Name: value"; a repeated
** header replaces the earlier one). 1 if found, 0 if not, -1 on OOM.
*/
static int find_classpath(const uint8_t *mf, size_t len, header *out) {
  const uint8_t *p = mf, *end = mf + len;
  int found = 0;
  memset(out, 0, sizeof *out);
  while (p < end) {
    size_t eol, n = line_len(p, end, &eol);
    if (n == 0) break;                       /* end of the main section */
    size_t start = (size_t)(p - mf);
    const char *term = eol == 2 ? "\r\n" : eol == 0 ? "" : *(p + n) == '\n'
                                                            ? "\n" : "\r";
    int is_cp = n >= 12 &&
                strncasecmp((const char *)p, "Class-Path: ", 12) == 0;
    cr_buf v;
    cr_buf_init(&v);
    if (is_cp) cr_buf_put(&v, p + 12, n - 12);
    p += n + eol;
    while (p < end && *p == ' ') {           /* continuation lines */
      n = line_len(p, end, &eol);
      if (is_cp) cr_buf_put(&v, p + 1, n - 1);
      p += n + eol;
    }
    if (!is_cp) continue;
    cr_buf_u1(&v, 0);
    if (v.err) {
      cr_buf_free(&v);
      cr_free(out->value);
      return -1;
    }
    cr_free(out->value);
    size_t vl;
    out->value = (char *)cr_buf_detach(&v, &vl);
    cr_buf_free(&v);
    out->start = start;
    out->end = (size_t)(p - mf);
    out->eol = term;
    found = 1;
  }
  return found;
}

/* The manifest entry of 'in': "META-INF/MANIFEST.MF", else the same name
** in any case (as java.util.jar.JarFile looks it up); SIZE_MAX if none. */
static size_t manifest_entry(const cr_input *in) {
  size_t n = cr_input_count(in), alt = SIZE_MAX;
  for (size_t i = 0; i < n; i++) {
    cr_entry_info info;
    cr_input_info(in, i, &info);
    if (strcmp(info.name, MANIFEST) == 0) return i;
    if (alt == SIZE_MAX && strcasecmp(info.name, MANIFEST) == 0) alt = i;
  }
  return alt;
}

/* ------------------------------------------------------------ URLs */

static int hexval(int c) {
  return c >= '0' && c <= '9' ? c - '0'
         : c >= 'a' && c <= 'f' ? c - 'a' + 10
         : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

/* Percent-decode the 'n' bytes at 's' into '*out' (malloc'd): 0, 1 for
** a bad escape (the JVM fails on it too), or CR_ENOMEM. */
static int url_decode(char **out, const char *s, size_t n) {
  char *o = cr_malloc(n + 1), *q = o;
  *out = NULL;
  if (!o) return CR_ENOMEM;
  for (size_t i = 0; i < n; i++) {
    if (s[i] != '%') {
      *q++ = s[i];
      continue;
    }
    int h = i + 2 < n ? hexval((unsigned char)s[i + 1]) : -1;
    int l = i + 2 < n ? hexval((unsigned char)s[i + 2]) : -1;
    if (h < 0 || l < 0 || (h == 0 && l == 0)) {
      cr_free(o);
      return 1;
    }
    *q++ = (char)(h << 4 | l);
    i += 2;
  }
  *q = '\0';
  *out = o;
  return 0;
}

/*
** Remove "." and "name/.." segments of absolute path 'p' in place (URL
** resolution, RFC 2396 5.2; ".." above the root stays at the root, as the
** file system reads it).
*/
static void normalize(char *p) {
  char *out = p, *in = p;
  while (*in) {
    while (*in == '/') in++;
    if (!*in) break;
    char *seg = in;
    while (*in && *in != '/') in++;
    size_t n = (size_t)(in - seg);
    if (n == 1 && seg[0] == '.') continue;
    if (n == 2 && seg[0] == '.' && seg[1] == '.') {
      while (out > p && *--out != '/') {}
      continue;
    }
    *out++ = '/';
    memmove(out, seg, n);
    out += n;
  }
  if (out == p) *out++ = '/';
  *out = '\0';
}

/*
** Resolve Class-Path token 'tok' against the jar at 'base' (an absolute
** path) as URLClassPath does: a relative URL against the jar's file: URL.
** '*out' gets a malloc'd absolute path, or NULL when the JVM does not
** follow the token: a scheme other than file: (silently, '*why' NULL), an
** authority ("//host/") or a bad escape ('*why' says which). A fragment
** is dropped. 0 or CR_ENOMEM.
*/
static int resolve(char **out, const char *base, const char *tok,
                   const char **why) {
  *out = NULL;
  *why = NULL;
  const char *s = tok;
  size_t k = 0;
  while (s[k] && s[k] != '/' && s[k] != ':' && s[k] != '?' && s[k] != '#')
    k++;
  if (s[k] == ':') {
    if (k != 4 || strncasecmp(s, "file", 4) != 0) return 0;
    s += 5;
  }
  if (s[0] == '/' && s[1] == '/') {
    if (s[2] != '/') {
      *why = "a URL naming a host";
      return 0;
    }
    s += 2;                                 /* file:///path */
  }
  char *rel;
  int rc = url_decode(&rel, s, strcspn(s, "#"));
  if (rc == 1) *why = "a bad %-escape";
  if (rc) return rc == 1 ? 0 : rc;
  size_t bl = 0;
  if (rel[0] != '/') {
    const char *slash = strrchr(base, '/');
    bl = slash ? (size_t)(slash - base) + 1 : 0;
  }
  /* a URL ending in '/' names a folder: it keeps its slash */
  size_t rl = strlen(rel);
  int dir = rl && (rel[rl - 1] == '/' ||
                   (rel[rl - 1] == '.' && (rl == 1 || rel[rl - 2] == '/' ||
                    (rel[rl - 2] == '.' && (rl == 2 || rel[rl - 3] == '/')))));
  char *p = cr_malloc(bl + rl + 3);
  if (p) {
    memcpy(p, base, bl);
    strcpy(p + bl, rel);
    normalize(p);
    if (dir && strcmp(p, "/") != 0) strcat(p, "/");
  }
  cr_free(rel);
  *out = p;
  return p ? 0 : CR_ENOMEM;
}

/* Append path 'p' to 'b' as a URL path: bytes outside the unreserved and
** path characters become %XX (the JVM decodes them as UTF-8). */
static void url_path(cr_buf *b, const char *p) {
  static const char keep[] = "-._~/!$&'()*+,;=:@";
  for (; *p; p++) {
    unsigned char c = (unsigned char)*p;
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
        (c >= '0' && c <= '9') || (c && strchr(keep, c))) {
      cr_buf_u1(b, c);
    } else {
      char e[4];
      snprintf(e, sizeof e, "%%%02X", c);
      cr_buf_put(b, e, 3);
    }
  }
}

/* ------------------------------------------------------------ one jar */

void cli_jarmf_free(cli_jarmf *m) {
  for (size_t i = 0; i < m->nrefs; i++) {
    cr_free(m->refs[i].token);
    cr_free(m->refs[i].path);
  }
  cr_free(m->refs);
  memset(m, 0, sizeof *m);
  m->entry = SIZE_MAX;
}

int cli_jarmf_read(cli_jarmf *out, cr_input *in, const char *base,
                   cr_diag *d) {
  memset(out, 0, sizeof *out);
  out->entry = SIZE_MAX;
  if (cr_input_kind_of(in) != CR_IN_JAR) return 0;
  size_t e = manifest_entry(in);
  if (e == SIZE_MAX) return 0;
  out->entry = e;
  uint8_t *mf;
  size_t len;
  int rc = cr_input_read(in, e, &mf, &len, d);
  if (rc) {
    cr_entry_info info;
    cr_input_info(in, e, &info);
    cr_diag_where(d, cr_input_path(in), info.name);
    return rc;
  }
  header h;
  int found = find_classpath(mf, len, &h);
  cr_free(mf);
  if (found < 0) return cr_diag_set(d, CR_ENOMEM, -1, "out of memory");
  if (!found) return 0;
  out->has_cp = 1;
  /* java.util.StringTokenizer's default delimiters */
  static const char ws[] = " \t\n\r\f";
  for (const char *p = h.value + strspn(h.value, ws); *p;
       p += strspn(p, ws)) {
    size_t n = strcspn(p, ws);
    cli_cpref *v = cr_realloc(out->refs, (out->nrefs + 1) * sizeof *v);
    if (!v) goto oom;
    out->refs = v;
    cli_cpref *r = &v[out->nrefs];
    memset(r, 0, sizeof *r);
    if (!(r->token = dupn(p, n))) goto oom;
    out->nrefs++;
    if (resolve(&r->path, base, r->token, &r->why)) goto oom;
    p += n;
  }
  cr_free(h.value);
  return 0;
oom:
  cr_free(h.value);
  cli_jarmf_free(out);
  return cr_diag_set(d, CR_ENOMEM, -1, "out of memory");
}

/*
** Write 'mf' again with its last main-section Class-Path header replaced
** by "Class-Path: 'value'" (removed when 'value' is empty), in lines of
** at most 72 bytes as java.util.jar.Manifest writes them (continuations
** start with a space; UTF-8 sequences are not split), with the header's
** own line terminator. Every other byte is kept.
*/
static int set_classpath(const uint8_t *mf, size_t len, const char *value,
                         uint8_t **out, size_t *outlen) {
  header h;
  int found = find_classpath(mf, len, &h);
  if (found <= 0) return found < 0 ? CR_ENOMEM : CR_ENOTFOUND;
  cr_buf b;
  cr_buf_init(&b);
  cr_buf_put(&b, mf, h.start);
  if (*value) {
    const char *eol = *h.eol ? h.eol : "\r\n";
    size_t vl = strlen(value), col = 12, i = 0;
    cr_buf_put(&b, "Class-Path: ", 12);
    while (i < vl) {
      size_t room = 72 - col, k = vl - i < room ? vl - i : room;
      /* never end a line inside a UTF-8 sequence */
      while (k > 0 && i + k < vl &&
             ((unsigned char)value[i + k] & 0xc0) == 0x80)
        k--;
      if (k == 0) k = 1;
      cr_buf_put(&b, value + i, k);
      i += k;
      if (i < vl) {
        cr_buf_put(&b, eol, strlen(eol));
        cr_buf_u1(&b, ' ');
        col = 1;
      }
    }
    /* the header's own terminator ("" if it was the file's last line) */
    cr_buf_put(&b, h.eol, strlen(h.eol));
  }
  cr_buf_put(&b, mf + h.end, len - h.end);
  cr_free(h.value);
  if (b.err) {
    cr_buf_free(&b);
    return CR_ENOMEM;
  }
  *out = cr_buf_detach(&b, outlen);
  cr_buf_free(&b);
  return 0;
}

int cli_jarmf_rewrite(const cli_jarmf *m, cr_input *in, const char *value,
                      uint8_t **out, size_t *outlen, cr_diag *d) {
  *out = NULL;
  *outlen = 0;
  uint8_t *mf;
  size_t len;
  int rc = cr_input_read(in, m->entry, &mf, &len, d);
  if (rc) {
    cr_entry_info info;
    cr_input_info(in, m->entry, &info);
    cr_diag_where(d, cr_input_path(in), info.name);
    return rc;
  }
  rc = set_classpath(mf, len, value, out, outlen);
  cr_free(mf);
  if (rc == CR_ENOMEM) return cr_diag_set(d, CR_ENOMEM, -1, "out of memory");
  return 0;                 /* no header (cannot happen): left as it is */
}

void cli_url_path(cr_buf *b, const char *path) { url_path(b, path); }

/* ------------------------------------------------------------ closure */

static int file_id(const char *path, uint64_t *dev, uint64_t *ino) {
  struct stat st;
  if (stat(path, &st) != 0) {
    *dev = *ino = 0;
    return -1;
  }
  *dev = (uint64_t)st.st_dev;
  *ino = (uint64_t)st.st_ino;
  return 0;
}

int cli_inputs_push(cli_inputs *set, cr_input *in, const char *via,
                    cr_diag *d) {
  if (set->n == set->cap) {
    size_t nc = set->cap ? set->cap * 2 : 16;
    cr_input **v = cr_realloc(set->v, nc * sizeof *v);
    if (v) set->v = v;
    cli_inmeta *m = v ? cr_realloc(set->m, nc * sizeof *m) : NULL;
    if (!m) {
      cr_input_close(in);
      return cr_diag_set(d, CR_ENOMEM, -1, "out of memory");
    }
    set->m = m;
    set->cap = nc;
  }
  size_t i = set->n++;
  cli_inmeta *m = &set->m[i];
  set->v[i] = in;
  memset(m, 0, sizeof *m);
  m->mf.entry = SIZE_MAX;
  m->via = via;
  m->named = !via;
  file_id(cr_input_path(in), &m->dev, &m->ino);
  return 0;
}

long cli_inputs_find(const cli_inputs *set, const char *path) {
  uint64_t dev, ino;
  if (!set || file_id(path, &dev, &ino) != 0) return -1;
  for (size_t i = 0; i < set->n; i++)
    if (set->v[i] && set->m[i].dev == dev && set->m[i].ino == ino)
      return (long)i;
  return -1;
}

void cli_inputs_free(cli_inputs *set) {
  for (size_t i = 0; i < set->n; i++) {
    cr_input_close(set->v[i]);
    cli_jarmf_free(&set->m[i].mf);
  }
  cr_free(set->v);
  cr_free(set->m);
  memset(set, 0, sizeof *set);
}

/* Can 'path', named by a manifest, be on the JVM's class path as a jar?
** Warns (or, with -v, says) why not. */
static int followable(const char *path, const char *token, const char *via,
                      const cli_opts *o) {
  struct stat st;
  size_t n = strlen(token);
  if (n && token[n - 1] == '/') {
    cli_warn("%s: Class-Path entry '%s' is a folder: not followed (give it "
             "as an input or with --classpath)", via, token);
    return 0;
  }
  if (stat(path, &st) != 0) {
    if (o->verbose > 0)
      fprintf(stderr, "cccp-rewrite: %s: Class-Path entry '%s': %s not "
              "found (the JVM ignores it too)\n", via, token, path);
    return 0;
  }
  if (!S_ISREG(st.st_mode)) {
    cli_warn("%s: Class-Path entry '%s': %s is not a jar file; ignored, as "
             "the JVM does", via, token, path);
    return 0;
  }
  return 1;
}

static int take(cli_inputs *set, cli_closure *c, size_t j, const char *via,
                cr_diag *d);

/*
** Read the manifest facts of input 'me' of 'src' (once) and, when
** following, add the jars they name to 'dst', depth first ('dst' may be
** 'src'). A manifest that cannot be read is an error for a command-line
** input, a warning for a jar a manifest named.
*/
static int walk(cli_inputs *src, size_t me, cli_inputs *dst, cli_closure *c,
                cr_diag *d) {
  int rc;
  cr_input *in = src->v[me];
  cli_inmeta *m = &src->m[me];
  if (!c->follow && !c->want_mf) return 0;
  if (!m->mf_read) {
    /* The JVM resolves against the canonical path of a class path
    ** entry, and against the URL itself for a jar a manifest named. */
    char canon[PATH_MAX];
    const char *base = cr_input_path(in);
    if (!m->via && realpath(base, canon)) base = canon;
    cli_jarmf mf;
    if ((rc = cli_jarmf_read(&mf, in, base, d))) {
      if (m->named || rc == CR_ENOMEM) return rc;
      char msg[2048];
      cr_diag_format(d, msg, sizeof msg);
      cli_warn("%s: Class-Path entry: %s; its manifest is not followed",
               m->via, msg);
      cr_diag_clear(d);
      return 0;
    }
    m->mf = mf;
    m->mf_read = 1;
  }
  if (!c->follow) return 0;
  const char *self = cr_input_path(in);
  /* 'src->m' may move while recursing, the 'refs' array does not */
  const cli_cpref *refs = m->mf.refs;
  size_t nrefs = m->mf.nrefs;
  for (size_t i = 0; i < nrefs; i++) {
    const cli_cpref *r = &refs[i];
    if (!r->path) {
      if (r->why)
        cli_warn("%s: Class-Path entry '%s' is %s: ignored, as the JVM "
                 "does", self, r->token, r->why);
      continue;
    }
    long j;
    if (cli_inputs_find(dst, r->path) >= 0 ||
        cli_inputs_find(c->skip, r->path) >= 0)
      continue;
    if ((j = cli_inputs_find(c->named, r->path)) >= 0) {
      if ((rc = take(dst, c, (size_t)j, self, d))) return rc;
      continue;
    }
    if (!followable(r->path, r->token, self, c->o)) continue;
    cr_input *nin;
    rc = cr_input_open(&nin, r->path, d);
    if (rc == 0 && cr_input_kind_of(nin) != CR_IN_JAR) {
      cr_input_close(nin);
      rc = cr_diag_set(d, CR_EFORMAT, -1, "not a jar");
    }
    if (rc == CR_ENOMEM) return rc;
    if (rc) {
      char msg[2048];
      cr_diag_where(d, r->path, NULL);
      cr_diag_format(d, msg, sizeof msg);
      cli_warn("%s: Class-Path entry: %s; ignored, as the JVM does", self,
               msg);
      cr_diag_clear(d);
      continue;
    }
    cr_input_set_limits(nin, c->o->max_entry, CR_DEFAULT_MAX_TOTAL);
    if ((rc = cli_inputs_push(dst, nin, self, d)) ||
        (rc = walk(dst, dst->n - 1, dst, c, d)))
      return rc;
  }
  return 0;
}

/* Move input 'j' of 'c->named' (reached from the command line, 'via'
** NULL, or first through the manifest of 'via') to 'set' and walk it. */
static int take(cli_inputs *set, cli_closure *c, size_t j, const char *via,
                cr_diag *d) {
  cr_input *in = c->named->v[j];
  if (!in) return 0;
  c->named->v[j] = NULL;
  int rc = cli_inputs_push(set, in, via, d);
  if (rc) return rc;
  set->m[set->n - 1].named = 1;
  return walk(set, set->n - 1, set, c, d);
}

int cli_inputs_place(cli_inputs *set, cli_closure *c, size_t j,
                     cr_diag *d) {
  if (!c->named->v[j]) return 0;
  /* the same file given twice on the command line: once */
  const char *path = cr_input_path(c->named->v[j]);
  if (cli_inputs_find(set, path) >= 0) return 0;
  return take(set, c, j, NULL, d);
}

int cli_inputs_follow(cli_inputs *src, size_t i, cli_inputs *dst,
                      cli_closure *c, cr_diag *d) {
  return walk(src, i, dst, c, d);
}
