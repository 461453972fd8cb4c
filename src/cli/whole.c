/*
** whole.c -- whole-program facts for the command line: the policy, the
** class hierarchy of all inputs (instrumented) and class-path entries
** (library), loaded summaries, the overloadability analysis, and its
** outputs (report, summary file).
*/
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <string.h>

#include "cccp/hier.h"
#include "cccp/policy.h"
#include "cli.h"

typedef struct addctx {
  cr_hier *h;
  const cli_opts *o;    /* its corelib and patches hold JDK classes */
  cr_input **all;       /* inputs, then class-path entries */
  size_t nall, ninstr;
  size_t base;          /* order index of all[0] */
} addctx;

/*
** A cycle in the hierarchy: name the input and entry of its first class
** that was read from the inputs or the class path ('add_one' orders them).
*/
static void cycle_where(const cr_hier *h, cr_input **ins, size_t nins,
                        cr_input **cp, size_t ncp, cr_diag *d) {
  const cr_hclass *c = cr_hier_cycle_class(h);
  if (!c) return;
  uint64_t order = cr_hclass_order(c);
  size_t k = (size_t)(order >> 32), idx = (size_t)(order & 0xffffffffu);
  cr_input *in = k < nins ? ins[k] : k - nins < ncp ? cp[k - nins] : NULL;
  if (!in || idx >= cr_input_count(in)) return;
  cr_entry_info info;
  cr_input_info(in, idx, &info);
  cr_diag_where(d, cr_input_path(in), info.name);
}

/*
** Re-encoding only joins types: the overloadability answers (and so the
** methods and their annotations) are for the instrumentation, the report
** and summaries. Without those the first pass reads only class headers.
*/
static int headers_only(const cli_opts *o) {
  return o->mode == MODE_REENCODE && !o->emit_summary && !o->report;
}

int cli_jdk_module(const char *module) {
  return module && strncmp(module, "jdk.incubator.", 14) != 0;
}

const char *cli_input_module(const cli_opts *o, const cr_input *in) {
  if (!o || !in) return NULL;
  if (in == o->corelib) return "java.base";
  for (size_t i = 0; i < o->npatches; i++)
    if (o->patches[i].in == in) return o->patches[i].module;
  return NULL;
}

static int add_one(void *ctx, cr_class *c, cr_input *in, size_t idx,
                   cr_diag *d) {
  addctx *x = ctx;
  size_t k = 0;
  while (k < x->nall && x->all[k] != in) k++;
  cr_entry_info info;
  cr_input_info(in, idx, &info);
  unsigned kind = (k < x->ninstr ? CR_HIER_INSTRUMENTED : 0) |
                  (cli_jdk_module(info.module) || cli_input_module(x->o, in)
                       ? CR_HIER_JDK_MODULE : 0);
  /* An instrumented JDK keeps java.lang.Object as it is: HotSpot takes a
  ** non-empty Object.finalize for a finalizer of every class, and
  ** Object.<init> runs at every allocation. A library class: its
  ** methods are profiled at their call sites. */
  const char *name = cr_cf_this_name(c);
  if (name && strcmp(name, "java/lang/Object") == 0)
    kind &= ~(unsigned)CR_HIER_INSTRUMENTED;
  return cr_hier_add_class(x->h, c, kind,
                           (uint64_t)(x->base + k) << 32 | (uint64_t)idx, d);
}

/*
** The JDK whose classes complete the hierarchy when neither the inputs,
** the class path nor a summary hold java/lang/Object: $JAVA_HOME, else
** the 'java' found on PATH. Writes its lib/modules path to 'out'.
*/
int cli_default_jdk(char *out, size_t outsz) {
  cr_diag d;
  const char *home = getenv("JAVA_HOME");
  cr_diag_clear(&d);
  if (home && *home && cr_jdk_modules_path(out, outsz, home, &d) == 0)
    return 0;
  const char *path = getenv("PATH");
  if (!path) return -1;
  char buf[PATH_MAX], real[PATH_MAX];
  for (const char *p = path; *p;) {
    const char *colon = strchr(p, ':');
    size_t n = colon ? (size_t)(colon - p) : strlen(p);
    snprintf(buf, sizeof buf, "%.*s/java", (int)n, p);
    p += n + (colon ? 1 : 0);
    if (access(buf, X_OK) != 0 || !realpath(buf, real)) continue;
    char *slash = strrchr(real, '/');          /* .../bin/java */
    if (!slash) continue;
    *slash = '\0';
    slash = strrchr(real, '/');
    if (!slash) continue;
    *slash = '\0';                             /* JDK home */
    cr_diag_clear(&d);
    if (cr_jdk_modules_path(out, outsz, real, &d) == 0) return 0;
  }
  return -1;
}

/*
** A JDK read as a library (the default one, or one given with
** --classpath) comes after every input and class-path entry: its classes
** win over theirs anyway (JEP 261), its order never names an input, and
** --emit-summary leaves it out (every run finds it again).
*/
#define JDK_LIB_ORDER CR_HIER_EXTERNAL

static int scan_jdk(const cli_opts *o, addctx *x, const char *img,
                    int headers, cr_diag *d) {
  cr_input *in;
  int rc = cr_input_open(&in, img, d);
  if (rc) return rc;
  cr_input_set_limits(in, o->max_entry, CR_DEFAULT_MAX_TOTAL);
  x->all = &in;
  rc = cli_scan(&in, 1, o->jobs, headers, add_one, x, d);
  cr_input_close(in);
  return rc;
}

/* The image's classes straight into the hierarchy. */
static int read_jdk(const cli_opts *o, cr_hier *h, const char *img,
                    int headers, cr_diag *d) {
  addctx x = {h, NULL, NULL, 1, 0, JDK_LIB_ORDER};
  return scan_jdk(o, &x, img, headers, d);
}

/* The JDK's classes without an analysis, as the cache keeps them. */
static int build_jdk_entry(const cli_opts *o, cli_jdk_cache *c,
                           const char *img, cr_diag *d) {
  cr_hier *lib;
  int rc = cr_hier_new(&lib, d);
  if (rc) return rc;
  addctx x = {lib, NULL, NULL, 1, 0, 0};     /* input 0 in the entry */
  if ((rc = scan_jdk(o, &x, img, 0, d)) == 0 &&
      (rc = cr_hier_link(lib, d)) == 0)
    rc = cli_jdk_cache_store(c, lib, d);
  cr_hier_free(lib);
  return rc;
}

/*
** Add the classes of JDK image 'img' as library classes: from the user's
** cache (jdkcache.c), built there on first use, or read from the image
** when there is no cache (--no-jdk-cache, no cache folder, or it cannot
** be written).
*/
static int add_jdk_library(const cli_opts *o, cr_hier *h, const char *img,
                           cr_diag *d) {
  cli_jdk_cache c;
  if (o->no_jdk_cache || headers_only(o))
    return read_jdk(o, h, img, headers_only(o), d);
  if (cli_jdk_cache_open(&c, img) != 0) {
    if (o->verbose > 0)
      fprintf(stderr, "cccp-rewrite: the JDK's classes are not cached: %s\n",
              c.why[0] ? c.why : "no cache folder");
    return read_jdk(o, h, img, 0, d);
  }
  int rc = cli_jdk_cache_load(&c, h, d);
  if (rc == -1) {
    cli_jdk_cache_lock(&c);
    rc = cli_jdk_cache_load(&c, h, d);      /* built meanwhile? */
    if (rc == -1) {
      cr_diag e;
      cr_diag_clear(&e);
      if (c.why[0])
        cli_note("%s: %s: built again", c.path, c.why);
      else if (o->verbose > 0)
        fprintf(stderr, "cccp-rewrite: summarising the JDK's classes into "
                "%s (once per JDK)\n", c.path);
      rc = build_jdk_entry(o, &c, img, &e);
      if (rc == 0) rc = cli_jdk_cache_load(&c, h, d);
      else if (e.code == CR_ENOMEM) *d = e;
      else {
        cli_warn("cannot keep the JDK's classes in %s: %s (the JDK is read "
                 "in full on every run; --no-jdk-cache says not to try)",
                 c.dir, e.msg);
        rc = -1;
      }
    }
    cli_jdk_cache_unlock(&c);
  }
  if (rc == 0) {
    if (o->verbose > 0)
      fprintf(stderr, "cccp-rewrite: the classes of %s from %s\n", img,
              c.path);
    return 0;
  }
  if (rc != -1) return rc;
  cr_diag_clear(d);
  return read_jdk(o, h, img, 0, d);
}

/* The build of the JDK whose image 'img' (HOME/lib/modules) is. */
static void image_build(const char *img, char *buf, size_t n) {
  char home[PATH_MAX];
  snprintf(home, sizeof home, "%s", img);
  size_t k = strlen(home);
  static const char tail[] = "/lib/modules";
  if (k >= sizeof tail - 1 && strcmp(home + k - (sizeof tail - 1), tail) == 0)
    home[k - (sizeof tail - 1)] = '\0';
  cli_jdk_build(home, buf, n);
}

static int add_default_jdk(const cli_opts *o, cli_whole *w, cr_diag *d) {
  char img[PATH_MAX];
  if (cli_default_jdk(img, sizeof img) != 0) {
    cli_warn("no JDK among the inputs and none found through JAVA_HOME or "
             "PATH: give one with --classpath");
    return 0;
  }
  if (o->verbose > 0)
    fprintf(stderr, "cccp-rewrite: library classes from %s (--classpath "
            "chooses another JDK)\n", img);
  image_build(img, w->jdk_build, sizeof w->jdk_build);
  return add_jdk_library(o, w->h, img, d);
}

/* Classes that two inputs define differently, per pair of inputs. */
typedef struct redef_pair {
  uint32_t kept, other;
  size_t n;
  const char *names[3];
} redef_pair;

typedef struct redef_ctx {
  redef_pair *v;
  size_t n, cap;
  int oom;
} redef_ctx;

static void note_redefined(void *ctx, const char *name, uint32_t kept,
                           uint32_t other) {
  redef_ctx *r = ctx;
  if (kept == other || r->oom) return;  /* one input: its own business */
  size_t i = 0;
  while (i < r->n && (r->v[i].kept != kept || r->v[i].other != other)) i++;
  if (i == r->n) {
    if (r->n == r->cap) {
      size_t nc = r->cap ? r->cap * 2 : 8;
      redef_pair *nv = cr_realloc(r->v, nc * sizeof *nv);
      if (!nv) {
        r->oom = 1;
        return;
      }
      r->v = nv;
      r->cap = nc;
    }
    memset(&r->v[r->n], 0, sizeof r->v[r->n]);
    r->v[r->n].kept = kept;
    r->v[r->n++].other = other;
  }
  redef_pair *p = &r->v[i];
  if (p->n < 3) p->names[p->n] = name;
  p->n++;
}

/*
** One warning per pair of inputs that define classes of the same names
** with other supertypes, access or method signatures: the JVM loads the
** copy of the input that comes first on the class path, and the analysis
** follows the first input on the command line. The instrumentation stays
** transparent either way (no twin call resolves through such a class, and
** the hidden copies get no twins); what the profile shows of calls into
** them follows the copy the analysis saw. A --patch-module path
** replaces the JDK's classes on purpose: no warning.
*/
static void warn_redefined(const cli_opts *o, const cr_hier *h,
                           cr_input **ins, size_t nins) {
  redef_ctx r = {0};
  cr_hier_each_redefined(h, note_redefined, &r);
  for (size_t i = 0; i < r.n; i++) {
    const redef_pair *p = &r.v[i];
    if (p->kept >= nins || p->other >= nins) continue;
    if (ins[p->kept] != o->corelib && cli_input_module(o, ins[p->kept]))
      continue;
    char list[1024];
    size_t len = 0;
    list[0] = '\0';
    for (size_t k = 0; k < p->n && k < 3; k++) {
      int m = snprintf(list + len, sizeof list - len, "%s%s", k ? ", " : "",
                       p->names[k]);
      if (m < 0 || (size_t)m >= sizeof list - len) break;
      len += (size_t)m;
    }
    cli_warn("%s and %s define %zu %s of the same name%s differently (%s%s):"
             " the JVM loads the copies of the one first on the class path;"
             " the analysis follows %s (give the inputs in class path "
             "order); calls through these classes use the thread-local "
             "protocol",
             cr_input_path(ins[p->kept]), cr_input_path(ins[p->other]),
             p->n, p->n == 1 ? "class" : "classes", p->n == 1 ? "" : "s",
             list, p->n > 3 ? ", ..." : "", cr_input_path(ins[p->kept]));
  }
  cr_free(r.v);
}

int cli_whole_build(const cli_opts *o, cr_input **ins, size_t nins,
                    cr_input **cp, size_t ncp, cli_whole *w, int *exit_code,
                    cr_diag *d) {
  int rc;
  memset(w, 0, sizeof *w);
  *exit_code = EXIT_INPUT;
  if ((rc = cr_policy_new(&w->pol, 1, d))) goto fail;
  for (size_t i = 0; i < o->npolicies; i++)
    if ((rc = cr_policy_load(w->pol, o->policies[i], d))) {
      cr_diag_where(d, o->policies[i], NULL);
      goto fail;
    }
  if ((rc = cr_hier_new(&w->h, d))) goto fail;
  for (size_t i = 0; i < o->nsummaries; i++)
    if ((rc = cr_hier_load(w->h, o->summaries[i], d))) {
      cr_diag_where(d, o->summaries[i], NULL);
      goto fail;
    }

  size_t nall = nins + ncp;
  cr_input **all = cr_calloc(nall ? nall : 1, sizeof *all);
  if (!all) {
    rc = cr_diag_set(d, CR_ENOMEM, -1, "out of memory");
    goto fail;
  }
  memcpy(all, ins, nins * sizeof *all);
  if (ncp) memcpy(all + nins, cp, ncp * sizeof *all);
  addctx x = {w->h, o, all, nall, nins, 0};
  rc = cli_scan(all, nall, o->jobs, headers_only(o), add_one, &x, d);
  cr_free(all);
  if (rc) goto fail;

  if (o->jdk_lib) {
    image_build(o->jdk_lib, w->jdk_build, sizeof w->jdk_build);
    rc = add_jdk_library(o, w->h, o->jdk_lib, d);
  } else if (!cr_hier_class(w->h, "java/lang/Object")) {
    rc = add_default_jdk(o, w, d);
  }
  if (rc) goto fail;

  rc = cr_hier_link(w->h, d);
  if (rc) {
    cycle_where(w->h, ins, nins, cp, ncp, d);
    goto fail;
  }
  size_t nmiss = cr_hier_missing_count(w->h);
  size_t show = o->verbose > 0 ? nmiss : nmiss < 10 ? nmiss : 10;
  for (size_t i = 0; i < show; i++) {
    const char *referrer = NULL;
    const char *name = cr_hier_missing(w->h, i, &referrer);
    cli_warn("class %s not found (supertype of %s); add it with --classpath",
             name, referrer ? referrer : "?");
  }
  if (nmiss > show)
    cli_warn("%zu more missing classes (-v lists them)", nmiss - show);
  warn_redefined(o, w->h, ins, nins);

  if (headers_only(o)) {
    *exit_code = EXIT_OK;
    return 0;
  }
  rc = cr_hier_analyze(w->h, w->pol, d);
  if (rc) goto fail;
  /* ids coloured for the tree's slots (an analysis colours too: its
  ** summaries carry the colours to the agent and to later rewrites) */
  if ((o->mode == MODE_CCCP || o->mode == MODE_ANALYZE) && nins > 0) {
    cr_diag cd;
    cr_diag_clear(&cd);
    if (cli_colour(o, w->h, ins, nins, &cd) && o->verbose > 0)
      cli_note("method ids not coloured: %s", cd.msg);
  }
  /* Methods a summary recorded as overloadable that the new classes make
  ** non-overloadable (the rules only ever add non-overloadability). The
  ** summary's classes still call their twins; a new class without a twin
  ** is reached through a fallback twin or an owner check, which make the
  ** original call: the same program, a slower path. */
  size_t nconf = cr_hier_conflict_count(w->h);
  for (size_t i = 0; o->verbose >= 0 && i < nconf &&
                     (o->verbose > 0 || i == 0); i++) {
    const cr_hmethod *m = cr_hier_conflict(w->h, i);
    cli_note("%s.%s%s%s is non-overloadable through the new classes, "
             "overloadable in the summary: the summary's calls reach them "
             "through owner checks (same result, slower)",
             cr_hclass_name(cr_hmethod_class(m)), cr_hmethod_name(m),
             cr_hmethod_desc(m), nconf > 1 && o->verbose <= 0 ? " (and "
             "more: -v lists them)" : "");
  }
  *exit_code = EXIT_OK;
  return 0;
fail:
  if (rc == CR_ENOMEM || rc == CR_EIO) *exit_code = EXIT_OUTPUT;
  cli_whole_free(w);
  return rc;
}

int cli_whole_outputs(const cli_opts *o, const cli_whole *w,
                      struct cli_afile *presum, int *exit_code, cr_diag *d) {
  int rc = 0;
  *exit_code = EXIT_OUTPUT;
  if (o->report &&
      (rc = cli_atomic_hier(o->report, w->h, cr_hier_write_report, d)))
    return rc;
  if (o->emit_summary && presum && presum->f &&
      strcmp(presum->path, o->emit_summary) == 0) {
    if ((rc = cli_atomic_commit(presum, d))) {
      cr_diag_where(d, o->emit_summary, NULL);
      return rc;
    }
  } else if (o->emit_summary &&
             (rc = cr_hier_save(w->h, o->emit_summary, d))) {
    cr_diag_where(d, o->emit_summary, NULL);
    return rc;
  }
  if (o->whole_summary && strcmp(o->whole_summary, "-") == 0) {
    if ((rc = cr_hier_save_whole(w->h, stdout, d))) return rc;
    if (fflush(stdout) != 0 || ferror(stdout))
      return cr_diag_set(d, CR_EIO, -1, "cannot write the summary to the "
                         "standard output: %s", strerror(errno));
  } else if (o->whole_summary &&
             (rc = cli_atomic_hier(o->whole_summary, w->h,
                                   cr_hier_save_whole, d))) {
    return rc;
  }
  if (o->mode == MODE_ANALYZE ? o->verbose >= 0 : o->verbose > 0) {
    char buf[2048];
    cr_hier_summary(w->h, buf, sizeof buf);
    fprintf(stderr, "cccp-rewrite: %s\n", buf);
  }
  *exit_code = EXIT_OK;
  return 0;
}

void cli_whole_free(cli_whole *w) {
  cr_hier_free(w->h);
  cr_policy_free(w->pol);
  memset(w, 0, sizeof *w);
}
