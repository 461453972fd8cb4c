/*
** jdkfiles.c -- what an instrumented JDK (--jdk JAVA_HOME -o DIR) needs to
** run: the runtime patched into java.base, DIR/jdk.methods (the names of
** the method ids the rewriter fixed) and DIR/cccp.args, the options that
** put every module's patch jar in place:
**   java @DIR/cccp.args -cp APP Main
*/
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cccp/hier.h"
#include "cli.h"

enum { ACC_NATIVE = 0x0100, ACC_STATIC_PHASE = 0x0040 };

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
static int write_methods(const char *path, const cr_hier *h,
                         const char *build, cr_diag *d) {
  cli_afile af;
  int rc = cli_atomic_open(&af, path, d);
  if (rc) return rc;
  fprintf(af.f, "cccp-jdk-methods 1 %u %s\n", cr_hier_mid_count(h), build);
  for (size_t i = 0, n = cr_hier_class_count(h); i < n; i++) {
    const cr_hclass *c = cr_hier_class_at(h, i);
    uint32_t nm = cr_hclass_method_count(c);
    if (!nm || !cr_hier_mid(cr_hclass_method_at(c, 0))) continue;
    fprintf(af.f, "C %s\n", cr_hclass_name(c));
    for (uint32_t k = 0; k < nm; k++) {
      const cr_hmethod *m = cr_hclass_method_at(c, k);
      fprintf(af.f, "M %s %s %d\n", cr_hmethod_name(m), cr_hmethod_desc(m),
              (cr_hmethod_access(m) & ACC_NATIVE) ? 1 : 0);
    }
  }
  if (ferror(af.f)) {
    cli_atomic_abort(&af);
    return cr_diag_set(d, CR_EIO, -1, "cannot write %s", path);
  }
  return cli_atomic_commit(&af, d);
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
static void jdk_build(const char *home, char *buf, size_t n) {
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

int cli_jdk_app_args(const char *out, int is_dir, const char *summary) {
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
  if (cli_copy_file(from, to, &d) == 0) return 0;
  cli_error_diag(&d);
  return -1;
}

int cli_jdk_files(const char *dir, const char *jdk_home, const cli_plan *p,
                  const cr_hier *h, cr_input *image, cr_diag *d) {
  char real[PATH_MAX], rt[PATH_MAX], src[PATH_MAX], path[PATH_MAX * 2];
  if (!realpath(dir, real))
    return cr_diag_set(d, CR_EIO, -1, "%s: %s", dir, strerror(errno));
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
  if (rc) return rc;
  snprintf(path, sizeof path, "%s/jdk.methods", real);
  char build[128];
  jdk_build(jdk_home, build, sizeof build);
  if ((rc = write_methods(path, h, build, d))) return rc;

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
  fprintf(f, "\n-Dcccp.jdk.methods=");
  snprintf(path, sizeof path, "%s/jdk.methods", real);
  cli_put_token(f, path);
  fputc('\n', f);
  free_jmods(&ms);
  snprintf(path, sizeof path, "%s/cccp.args", real);
  if (ferror(f)) {
    cli_atomic_abort(&af);
    return cr_diag_set(d, CR_EIO, -1, "cannot write %s", path);
  }
  return cli_atomic_commit(&af, d);
}
