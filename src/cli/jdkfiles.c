/*
** jdkfiles.c -- what an instrumented JDK (--jdk JAVA_HOME -o DIR) needs to
** run: the runtime patched into java.base, the native agent, DIR/jdk.methods
** (the names of the method ids the rewriter fixed) and DIR/cccp.args, the
** options that put every module's patch jar in place and load the agent:
**   java @DIR/cccp.args -cp APP Main
*/
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cccp/hier.h"
#include "cli.h"

enum { ACC_STATIC = 0x0008, ACC_NATIVE = 0x0100, ACC_STATIC_PHASE = 0x0040 };

/* ------------------------------------------------------------ boot layer */

/* What decides whether a module is in the boot layer (module-info). */
typedef struct jmod {
  char *name;
  char **req, **uses, **prov;   /* requires (not static), uses, provides */
  size_t nreq, nuses, nprov;
  int api;                      /* exports a package to everyone */
  int no_default;               /* ModuleResolution: not by default */
  int in;                       /* in the boot layer */
} jmod;

typedef struct jmods {
  jmod *v;
  size_t n;
} jmods;

static char *dup_or_null(const char *s) {
  if (!s) return NULL;
  size_t n = strlen(s) + 1;
  char *r = cr_malloc(n);
  if (r) memcpy(r, s, n);
  return r;
}

static int push_str(char ***v, size_t *n, const char *s) {
  char **nv = cr_realloc(*v, (*n + 1) * sizeof *nv);
  if (!nv) return -1;
  *v = nv;
  if (!(nv[*n] = dup_or_null(s))) return -1;
  (*n)++;
  return 0;
}

/* The name of CONSTANT_Module 'i'. */
static const char *module_name(cr_cpool *cp, uint32_t i) {
  const cr_cpentry *e = cr_cp_get(cp, i);
  return e ? cr_cp_str(cp, e->a) : NULL;
}

/* Add the descriptor of module-info 'c' to 'ms'. */
static int add_descriptor(jmods *ms, cr_class *c) {
  const cr_attr *at = cr_attrs_find(&c->attrs, CR_ATTR_MODULE);
  if (!at) return 0;
  const cr_module *md = at->u.module;
  jmod m;
  memset(&m, 0, sizeof m);
  m.name = dup_or_null(module_name(c->cp, md->name));
  int rc = m.name ? 0 : -1;
  for (uint32_t k = 0; k < md->nrequires && !rc; k++)
    if (!(md->requires[k].flags & ACC_STATIC_PHASE))
      rc = push_str(&m.req, &m.nreq,
                    module_name(c->cp, md->requires[k].module));
  for (uint32_t k = 0; k < md->nexports; k++)
    if (md->exports[k].to.n == 0) m.api = 1;
  for (uint32_t k = 0; k < md->uses.n && !rc; k++)
    rc = push_str(&m.uses, &m.nuses, cr_cp_class_name(c->cp, md->uses.v[k]));
  for (uint32_t k = 0; k < md->nprovides && !rc; k++)
    rc = push_str(&m.prov, &m.nprov,
                  cr_cp_class_name(c->cp, md->provides[k].service));
  /* ModuleResolution (JDK 9+): bit 0, do not resolve by default */
  for (uint32_t k = 0; k < c->attrs.n; k++) {
    const cr_attr *a = &c->attrs.v[k];
    if (a->kind == CR_ATTR_OTHER && a->len >= 2 &&
        cr_cp_eq(c->cp, a->name, "ModuleResolution"))
      m.no_default = a->raw[1] & 1;
  }
  jmod *nv = rc ? NULL : cr_realloc(ms->v, (ms->n + 1) * sizeof *nv);
  if (!nv) return -1;
  ms->v = nv;
  ms->v[ms->n++] = m;
  return 0;
}

static void free_str(char **v, size_t n) {
  for (size_t i = 0; i < n; i++) cr_free(v[i]);
  cr_free(v);
}

static void free_jmods(jmods *ms) {
  for (size_t i = 0; i < ms->n; i++) {
    cr_free(ms->v[i].name);
    free_str(ms->v[i].req, ms->v[i].nreq);
    free_str(ms->v[i].uses, ms->v[i].nuses);
    free_str(ms->v[i].prov, ms->v[i].nprov);
  }
  cr_free(ms->v);
}

static jmod *find_mod(jmods *ms, const char *name) {
  for (size_t i = 0; name && i < ms->n; i++)
    if (strcmp(ms->v[i].name, name) == 0) return &ms->v[i];
  return NULL;
}

static int provides(const jmod *m, const char *service) {
  for (size_t i = 0; i < m->nprov; i++)
    if (strcmp(m->prov[i], service) == 0) return 1;
  return 0;
}

/*
** The modules of the boot layer when the main class is on the class path
** (JEP 261, JDK 11 and later): the roots are the modules that export a
** package to everyone and are resolved by default (not the incubator
** ones); then, to a fixed point, what they require (not 'requires
** static') and, service binding, every module providing a service that
** a module in the layer uses. Patching or exporting to a module outside
** it makes the JVM warn ("Unknown module").
*/
static void boot_layer(jmods *ms) {
  for (size_t i = 0; i < ms->n; i++)
    ms->v[i].in = ms->v[i].api && !ms->v[i].no_default;
  for (int changed = 1; changed;) {
    changed = 0;
    for (size_t i = 0; i < ms->n; i++) {
      jmod *m = &ms->v[i];
      if (!m->in) continue;
      for (size_t k = 0; k < m->nreq; k++) {
        jmod *r = find_mod(ms, m->req[k]);
        if (r && !r->in) r->in = changed = 1;
      }
      for (size_t k = 0; k < m->nuses; k++)
        for (size_t j = 0; j < ms->n; j++)
          if (!ms->v[j].in && provides(&ms->v[j], m->uses[k]))
            ms->v[j].in = changed = 1;
    }
  }
}

/* Read every module-info.class of JDK image 'in'. */
static int read_modules(jmods *ms, cr_input *in, cr_diag *d) {
  for (size_t i = 0, n = cr_input_count(in); i < n; i++) {
    cr_entry_info info;
    cr_input_info(in, i, &info);
    if (!info.module || strcmp(info.name, "module-info.class") != 0) continue;
    uint8_t *data;
    size_t len;
    int rc = cr_input_read(in, i, &data, &len, d);
    if (rc) return rc;
    cr_arena *a = cr_arena_new();
    cr_class *c;
    if (!a) rc = cr_diag_set(d, CR_ENOMEM, -1, "out of memory");
    else if ((rc = cr_cf_parse(&c, a, data, len, d)) == 0 &&
             add_descriptor(ms, c))
      rc = cr_diag_set(d, CR_ENOMEM, -1, "out of memory");
    cr_arena_free(a);
    cr_free(data);
    if (rc) {
      cr_diag_where(d, cr_input_path(in), info.name);
      return rc;
    }
  }
  boot_layer(ms);
  return 0;
}

/*
** DIR/jdk.methods (runtime-java/cccp/rt/JdkMethods.java reads it): a
** header with the count and the JDK's build, then each class with fixed
** ids ("C NAME") and its methods in id order ("M NAME DESC FLAGS", FLAGS 1
** for native).
*/
static int methods_open(cli_afile *af, const char *path, const cr_hier *h,
                        const char *build, cr_diag *d) {
  int rc = cli_atomic_open(af, path, d);
  if (rc) return rc;
  fprintf(af->f, "cccp-jdk-methods 1 %u %s\n", cr_hier_mid_count(h), build);
  for (size_t i = 0, n = cr_hier_class_count(h); i < n; i++) {
    const cr_hclass *c = cr_hier_class_at(h, i);
    uint32_t nm = cr_hclass_method_count(c);
    if (!nm || !cr_hier_mid(cr_hclass_method_at(c, 0))) continue;
    fprintf(af->f, "C %s\n", cr_hclass_name(c));
    for (uint32_t k = 0; k < nm; k++) {
      const cr_hmethod *m = cr_hclass_method_at(c, k);
      fprintf(af->f, "M %s %s %d\n", cr_hmethod_name(m), cr_hmethod_desc(m),
              (cr_hmethod_access(m) & ACC_NATIVE) ? 1 : 0);
    }
  }
  if (ferror(af->f)) {
    cli_atomic_abort(af);
    return cr_diag_set(d, CR_EIO, -1, "cannot write %s", path);
  }
  return 0;
}

static int write_methods(const char *path, const cr_hier *h,
                         const char *build, cr_diag *d) {
  cli_afile af;
  int rc = methods_open(&af, path, h, build, d);
  return rc ? rc : cli_atomic_commit(&af, d);
}

/* The module a unit of a --jdk plan is for ("DIR/MODULE.jar"), into
** 'buf', or NULL. */
static const char *unit_module(const cli_unit *u, char *buf, size_t n) {
  const char *b = strrchr(u->path, '/');
  b = b ? b + 1 : u->path;
  size_t k = strlen(b);
  if (k <= 4 || k - 4 >= n || strcmp(b + k - 4, ".jar") != 0) return NULL;
  memcpy(buf, b, k - 4);
  buf[k - 4] = '\0';
  return buf;
}

/*
** The build of the JDK at 'home' as its java.runtime.version says it
** (JAVA_RUNTIME_VERSION in the release file), into 'buf'; "unknown" when
** there is none. Never has a space.
*/
void cli_jdk_build(const char *home, char *buf, size_t n) {
  char path[PATH_MAX], line[512];
  snprintf(buf, n, "unknown");
  snprintf(path, sizeof path, "%s/release", home);
  FILE *f = fopen(path, "r");
  if (!f) return;
  static const char key[] = "JAVA_RUNTIME_VERSION=";
  while (fgets(line, sizeof line, f)) {
    if (strncmp(line, key, sizeof key - 1) != 0) continue;
    char *v = line + sizeof key - 1;
    if (*v == '"') v++;
    v[strcspn(v, "\"\r\n \t")] = '\0';
    size_t k = strlen(v);
    if (k && k < n) memcpy(buf, v, k + 1);
    break;
  }
  fclose(f);
}

int cli_jdk_app_args(const char *out, int is_dir, const char *summary,
                     const struct cr_hier *lt) {
  char from[PATH_MAX], to[PATH_MAX];
  const char *slash = strrchr(summary, '/');
  snprintf(from, sizeof from, "%.*s/cccp.args",
           slash ? (int)(slash - summary) : 1, slash ? summary : ".");
  if (is_dir) snprintf(to, sizeof to, "%s/cccp.args", out);
  else snprintf(to, sizeof to, "%s.args", out);
  struct stat st;
  if (stat(from, &st) != 0 || !S_ISREG(st.st_mode)) {
    cli_warn("%s: no cccp.args beside this summary of JDK classes: the "
             "options file is app mode's; run with the options of the "
             "instrumented JDK instead", summary);
    return -1;
  }
  cr_diag d;
  cr_diag_clear(&d);
  if (!lt) {
    if (cli_copy_file(from, to, &d) == 0) return 0;
    cli_error_diag(&d);
    return -1;
  }
  /* load time: the application's classes for the agent, which finds the
  ** JDK's summary beside itself ("japp=") */
  char sum[PATH_MAX + 16], real[PATH_MAX], opt[PATH_MAX + 32];
  if (is_dir) snprintf(sum, sizeof sum, "%s/cccp.summary", out);
  else snprintf(sum, sizeof sum, "%s.summary", out);
  if (cli_app_summary(sum, lt, &d) == 0 && realpath(sum, real)) {
    snprintf(opt, sizeof opt, "japp=%s", real);
    if (strchr(real, '='))
      cr_diag_set(&d, CR_EUSAGE, -1, "%s: the JVM's -agentpath cannot name "
                  "a path with '=' in it", real);
    else if (cli_jdk_agent_args(summary, to, opt, &d) == 0)
      return 0;
  } else if (!d.code) {
    cr_diag_set(&d, CR_EIO, -1, "%s: %s", sum, strerror(errno));
  }
  cli_error_diag(&d);
  return -1;
}

/*
** Into folder 'real' (a real path): the JDK mode's runtime
** (cccp-rt-jdk.jar, found beside cccp-rt.jar), the native agent (its path
** to 'agent', 'an' bytes) and the method table jdk.methods of 'h', for JDK
** build 'build'.
*/
static int rt_and_methods(char *agent, size_t an, const char *real,
                          const cr_hier *h, const char *build,
                          cli_jdk_pre *pre, cr_diag *d) {
  char rt[PATH_MAX], src[PATH_MAX], path[PATH_MAX * 2];
  if (strchr(real, ':'))
    return cr_diag_set(d, CR_EUSAGE, -1, "%s: the JVM's --patch-module "
                       "cannot name a path with ':' in it", real);
  if (!cli_runtime_jar(rt, sizeof rt))
    return cr_diag_set(d, CR_ENOTFOUND, -1, "the runtime cccp-rt.jar was "
                       "not found (set CCCP_RT to its path)");
  /* cccp-rt-jdk.jar lies next to cccp-rt.jar */
  char *slash = strrchr(rt, '/');
  snprintf(src, sizeof src, "%.*s/cccp-rt-jdk.jar",
           slash ? (int)(slash - rt) : 1, slash ? rt : ".");
  snprintf(path, sizeof path, "%s/cccp-rt-jdk.jar", real);
  int rc = cli_copy_file(src, path, d);
  if (rc || (rc = cli_agent_copy(agent, an, real, d))) return rc;
  snprintf(path, sizeof path, "%s/jdk.methods", real);
  if (pre && pre->methods.f && strcmp(pre->methods.path, path) == 0)
    return cli_atomic_commit(&pre->methods, d);
  return write_methods(path, h, build, d);
}

/* Flush and sync a prepared file; 0 when it is safely on disk. */
static int synced(cli_afile *af) {
  return ferror(af->f) || fflush(af->f) != 0 || fsync(fileno(af->f)) != 0;
}

void cli_jdk_prepare(void *arg) {
  cli_jdk_pre *pre = arg;
  char real[PATH_MAX], path[PATH_MAX * 2], build[128];
  cr_diag d;
  cr_diag_clear(&d);
  if (realpath(pre->dir, real) && !strchr(real, ':')) {
    cli_jdk_build(pre->jdk_home, build, sizeof build);
    snprintf(path, sizeof path, "%s/jdk.methods", real);
    if (methods_open(&pre->methods, path, pre->h, build, &d) == 0 &&
        synced(&pre->methods))
      cli_atomic_abort(&pre->methods);
  }
  cr_diag_clear(&d);
  if (pre->summary && cli_atomic_open(&pre->sum, pre->summary, &d) == 0 &&
      (cr_hier_save_stream(pre->h, pre->sum.f, &d) || synced(&pre->sum)))
    cli_atomic_abort(&pre->sum);
}

void cli_jdk_pre_free(cli_jdk_pre *pre) {
  if (pre->methods.f) cli_atomic_abort(&pre->methods);
  if (pre->sum.f) cli_atomic_abort(&pre->sum);
}

/* The options file's last lines: where the method table is, and the
** native agent at 'agent'. */
static void methods_option(FILE *f, const char *real, int exit_dump,
                           const char *agent) {
  char path[PATH_MAX * 2];
  fprintf(f, "\n-Dcccp.jdk.methods=");
  snprintf(path, sizeof path, "%s/jdk.methods", real);
  cli_put_token(f, path);
  fputc('\n', f);
  if (exit_dump) fputs("-Dcccp.exit=inserted\n", f);
  cli_put_agent(f, agent, NULL);
}

int cli_jdk_files(const char *dir, const char *jdk_home, const cli_plan *p,
                  const cr_hier *h, cr_input *image, cli_jdk_pre *pre,
                  int exit_dump, cr_diag *d) {
  char real[PATH_MAX], src[PATH_MAX], path[PATH_MAX * 2],
      agent[PATH_MAX * 2];
  if (!realpath(dir, real))
    return cr_diag_set(d, CR_EIO, -1, "%s: %s", dir, strerror(errno));
  char build[128];
  cli_jdk_build(jdk_home, build, sizeof build);
  int rc = rt_and_methods(agent, sizeof agent, real, h, build, pre, d);
  if (rc) return rc;

  jmods ms;
  memset(&ms, 0, sizeof ms);
  if ((rc = read_modules(&ms, image, d))) {
    free_jmods(&ms);
    return rc;
  }
  snprintf(path, sizeof path, "%s/cccp.args", real);
  cli_afile af;
  if ((rc = cli_atomic_open(&af, path, d))) {
    free_jmods(&ms);
    return rc;
  }
  FILE *f = af.f;
  for (size_t u = 0; u < p->nunits; u++) {
    char mb[256];
    const char *m = unit_module(&p->units[u], mb, sizeof mb);
    const jmod *jm = m ? find_mod(&ms, m) : NULL;
    if (!jm || !jm->in) continue;
    char v[PATH_MAX * 3];
    if (!realpath(p->units[u].path, src)) snprintf(src, sizeof src, "%s",
                                                   p->units[u].path);
    snprintf(v, sizeof v, "%s=%s%s%s%s", m, src,
             strcmp(m, "java.base") == 0 ? ":" : "",
             strcmp(m, "java.base") == 0 ? real : "",
             strcmp(m, "java.base") == 0 ? "/cccp-rt-jdk.jar" : "");
    fprintf(f, "--patch-module\n");
    cli_put_token(f, v);
    fputc('\n', f);
  }
  /* every module's instrumented code calls the runtime */
  fprintf(f, "--add-exports\njava.base/cccp.rt=ALL-UNNAMED");
  for (size_t u = 0; u < p->nunits; u++) {
    char mb[256];
    const char *m = unit_module(&p->units[u], mb, sizeof mb);
    const jmod *jm = m ? find_mod(&ms, m) : NULL;
    if (jm && jm->in && strcmp(m, "java.base") != 0) fprintf(f, ",%s", m);
  }
  methods_option(f, real, exit_dump, agent);
  free_jmods(&ms);
  snprintf(path, sizeof path, "%s/cccp.args", real);
  if (ferror(f)) {
    cli_atomic_abort(&af);
    return cr_diag_set(d, CR_EIO, -1, "cannot write %s", path);
  }
  return cli_atomic_commit(&af, d);
}

/* ------------------------------------------------- a class library input */

/* Index of entry 'name' of 'in', or (size_t)-1. */
static size_t find_entry(const cr_input *in, const char *name) {
  for (size_t i = 0, n = cr_input_count(in); i < n; i++) {
    cr_entry_info info;
    cr_input_info(in, i, &info);
    if (!info.module && strcmp(info.name, name) == 0) return i;
  }
  return (size_t)-1;
}

/* Entry 'name' of 'in' parsed into arena 'a' (NULL when absent or
** unreadable; 'd' says why when it is there). */
static cr_class *read_class(cr_input *in, const char *name, cr_arena *a,
                            uint8_t **bytes, cr_diag *d) {
  size_t i = find_entry(in, name), len;
  *bytes = NULL;
  cr_class *c = NULL;
  if (i == (size_t)-1 || cr_input_read(in, i, bytes, &len, d)) return NULL;
  if (cr_cf_parse(&c, a, *bytes, len, d)) return NULL;
  return c;
}

/*
** The build a java.base's classes are from: the constant value of
** java.lang.VersionProps.java_runtime_version (the string the JDK's build
** puts there), into 'buf'; "unknown" when there is none.
*/
static void corelib_build(cr_input *in, char *buf, size_t n) {
  snprintf(buf, n, "unknown");
  cr_arena *a = cr_arena_new();
  if (!a) return;
  uint8_t *bytes;
  cr_diag d;
  cr_diag_clear(&d);
  cr_class *c = read_class(in, "java/lang/VersionProps.class", a, &bytes, &d);
  for (uint32_t k = 0; c && k < c->nfields; k++) {
    const cr_member *f = &c->fields[k];
    if (strcmp(cr_member_name(c, f), "java_runtime_version") != 0) continue;
    const cr_attr *cv = cr_attrs_find(&f->attrs, CR_ATTR_CONSTANTVALUE);
    const cr_cpentry *e = cv ? cr_cp_get(c->cp, cv->u.index) : NULL;
    const char *v = e && e->tag == CR_CP_STRING ? cr_cp_str(c->cp, e->a)
                                                 : NULL;
    if (v && *v && strlen(v) < n && !strpbrk(v, " \t\r\n")) snprintf(buf, n, "%s", v);
    break;
  }
  cr_free(bytes);
  cr_arena_free(a);
}

int cli_corelib_find(cr_input **ins, size_t n, cr_input **lib, char *build,
                     size_t bn, cr_diag *d) {
  *lib = NULL;
  for (size_t i = 0; i < n; i++) {
    if (find_entry(ins[i], "java/lang/Object.class") == (size_t)-1) continue;
    if (n > 1)
      return cr_diag_set(d, CR_EUSAGE, -1, "%s holds a class library "
                         "(java/lang/Object): instrument it alone, and "
                         "applications against its summary",
                         cr_input_path(ins[i]));
    cr_arena *a = cr_arena_new();
    if (!a) return cr_diag_set(d, CR_ENOMEM, -1, "out of memory");
    uint8_t *bytes;
    cr_class *c = read_class(ins[i], "java/lang/Object.class", a, &bytes, d);
    int major = c ? c->major : 0;
    cr_free(bytes);
    cr_arena_free(a);
    if (!c) {
      cr_diag_where(d, cr_input_path(ins[i]), "java/lang/Object.class");
      return d->code;
    }
    if (major < 55)
      return cr_diag_set(d, CR_EUNSUPPORTED, -1, "%s holds the class "
                         "library of Java %d (java/lang/Object is of class "
                         "version %d): an instrumented class library needs "
                         "Java 11 or later (the runtime patched into it "
                         "walks stacks and modules)", cr_input_path(ins[i]),
                         major - 44, major);
    *lib = ins[i];
    corelib_build(ins[i], build, bn);
  }
  return 0;
}

int cli_corelib_files(const char *out, int is_dir, const cli_plan *p,
                      const cr_hier *h, const char *build, int exit_dump,
                      cr_diag *d) {
  char dir[PATH_MAX], real[PATH_MAX], jar[PATH_MAX], path[PATH_MAX * 2],
      agent[PATH_MAX * 2];
  const char *slash = strrchr(out, '/');
  if (is_dir) snprintf(dir, sizeof dir, "%s", out);
  else snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - out) + 1 : 1,
                slash ? out : ".");
  if (!realpath(dir, real))
    return cr_diag_set(d, CR_EIO, -1, "%s: %s", dir, strerror(errno));
  int rc = rt_and_methods(agent, sizeof agent, real, h, build, NULL, d);
  if (rc) return rc;
  snprintf(path, sizeof path, "%s/cccp.args", real);
  cli_afile af;
  if ((rc = cli_atomic_open(&af, path, d))) return rc;
  FILE *f = af.f;
  char v[PATH_MAX * 4];
  size_t k = (size_t)snprintf(v, sizeof v, "java.base=");
  for (size_t u = 0; u < p->nunits && k < sizeof v; u++) {
    if (!realpath(p->units[u].path, jar))
      snprintf(jar, sizeof jar, "%s", p->units[u].path);
    k += (size_t)snprintf(v + k, sizeof v - k, "%s:", jar);
  }
  if (k < sizeof v) snprintf(v + k, sizeof v - k, "%s/cccp-rt-jdk.jar", real);
  fprintf(f, "--patch-module\n");
  cli_put_token(f, v);
  fprintf(f, "\n--add-exports\njava.base/cccp.rt=ALL-UNNAMED");
  methods_option(f, real, exit_dump, agent);
  if (ferror(f)) {
    cli_atomic_abort(&af);
    return cr_diag_set(d, CR_EIO, -1, "cannot write %s", path);
  }
  if ((rc = cli_atomic_commit(&af, d)) || is_dir) return rc;
  char to[PATH_MAX];
  snprintf(to, sizeof to, "%s.args", out);
  return cli_copy_file(path, to, d);
}

/* ------------------------------------------------------ redirect targets */

/* 1 if runtime jar 'rt' has a class 'm->owner' that declares static
** method 'm'; 0 if not; a negative code on a read error. */
static int rt_has(cr_input *rt, const cr_pol_ref *m, cr_diag *d) {
  char entry[1024];
  snprintf(entry, sizeof entry, "%s.class", m->owner);
  for (size_t i = 0; i < cr_input_count(rt); i++) {
    cr_entry_info e;
    cr_input_info(rt, i, &e);
    if (e.is_dir || strcmp(e.name, entry) != 0) continue;
    uint8_t *b;
    size_t n;
    int rc = cr_input_read(rt, i, &b, &n, d);
    if (rc) return rc;
    cr_arena *a = cr_arena_new();
    cr_class *c = NULL;
    int found = 0;
    if (!a) rc = cr_diag_set(d, CR_ENOMEM, -1, "out of memory");
    else rc = cr_cf_parse(&c, a, b, n, d);
    for (uint32_t k = 0; !rc && k < c->nmethods && !found; k++) {
      const cr_member *mm = &c->methods[k];
      const char *nm = cr_member_name(c, mm), *ds = cr_member_desc(c, mm);
      found = nm && ds && (mm->flags & ACC_STATIC) &&
              strcmp(nm, m->name) == 0 && strcmp(ds, m->desc) == 0;
    }
    cr_arena_free(a);
    cr_free(b);
    return rc ? rc : found;
  }
  return 0;
}

int cli_jdk_check_redirects(const cr_policy *pol, const cr_hier *h,
                            const char *rtjar, cr_diag *d) {
  char path[PATH_MAX];
  const char *slash = strrchr(rtjar, '/');
  snprintf(path, sizeof path, "%.*s/cccp-rt-jdk.jar",
           slash ? (int)(slash - rtjar) : 1, slash ? rtjar : ".");
  cr_input *rt = NULL;
  int rc = 0;
  for (size_t i = 0; !rc && i < cr_policy_count(pol); i++) {
    const cr_pol_rule *r = cr_policy_rule(pol, i);
    if (r->kind != CR_POL_REDIRECT || cr_policy_removed(pol, i)) continue;
    const cr_hmethod *m = h ? cr_hier_method(h, r->to.owner, r->to.name,
                                             r->to.desc)
                            : NULL;
    if (m && (cr_hmethod_access(m) & ACC_STATIC)) continue;
    if (!rt && (rc = cr_input_open(&rt, path, d))) break;
    int has = rt_has(rt, &r->to, d);
    if (has < 0) {
      rc = has;
    } else if (!has) {
      rc = cr_diag_set(d, CR_ENOTFOUND, -1,
                       "%s: <redirect> to %s.%s%s: no such static method "
                       "in %s or the JDK", r->origin ? r->origin : "policy",
                       r->to.owner, r->to.name, r->to.desc, path);
    }
  }
  cr_input_close(rt);
  return rc;
}
