/*
** main.c -- 'cccp-rewrite': command line, input opening and the plan that
** maps input entries to output files. The work itself is in run.c.
*/
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cccp/hier.h"
#include "cccp/policy.h"
#include "cccp/jop.h"
#include "cli.h"

#ifndef CCCP_VERSION
#define CCCP_VERSION "dev"
#endif

/* Memory for classes kept between the hierarchy pass and the rewrite. */
#define KEEP_MAX ((uint64_t)256 << 20)

static const char usage_text[] =
    "Usage: cccp-rewrite [MODE] [OPTION]... INPUT... -o OUTPUT\n"
    "       cccp-rewrite [MODE] [OPTION]... --jdk JAVA_HOME -o DIR\n"
    "Rewrite Java class files in jars, jmods, directories, single classes\n"
    "or a JDK run-time image (lib/modules).\n"
    "\n"
    "Without a mode, instrument the inputs for complete calling-context\n"
    "profiling (CCCP): the classes of the inputs are rewritten, those of\n"
    "--classpath and the JDK are libraries profiled at their call sites.\n"
    "With -o DIR, the jars that an input's manifest names (Class-Path)\n"
    "are inputs too, and the output manifests name the rewritten copies\n"
    "(with -o FILE.jar they are libraries). Classes of packages that the\n"
    "JDK's modules own (javax.xml in xml-apis.jar, say) are never loaded\n"
    "from jars: they are copied unchanged.\n"
    "The runtime cccp-rt.jar and the native agent libcccp-agent.so are\n"
    "copied next to the output and the JVM options go to OUTPUT.args\n"
    "(-o FILE) or DIR/cccp.args (-o DIR):\n"
    "  java @app.inst.jar.args -cp app.inst.jar Main\n"
    "An input that holds java/lang/Object (a jar of java.base's classes,\n"
    "e.g. rt.jar -o INST_rt.jar) is instrumented as the JDK's java.base,\n"
    "as --jdk does (man cccp-rewrite, JDK MODE).\n"
    "\n"
    "Modes:\n"
    "      --cccp             the CCCP instrumentation (the default)\n"
    "      --identity         parse every class and write it back unchanged\n"
    "                         (each class is checked to round-trip\n"
    "                         byte-identically)\n"
    "      --copy             copy every entry without parsing (I/O floor)\n"
    "      --reencode         decode every method into the instruction IR,\n"
    "                         re-encode it and recompute its frames\n"
    "      --stress-probes    test only: --reencode, plus a probe at every\n"
    "                         basic block and wide branches everywhere\n"
    "      --analyze          build the class hierarchy of the inputs and\n"
    "                         decide which methods are overloadable and\n"
    "                         wrappable; no -o needed (see --report)\n"
    "\n"
    "Instrumentation:\n"
    "      --no-load-time     app mode: the options file does not have the\n"
    "                         native agent instrument, as they load, the\n"
    "                         classes that were not rewritten (classes\n"
    "                         defined at run time: scripts, generated\n"
    "                         functions; --load-time: it does, the default)\n"
    "      --agent            no inputs: write to -o DIR what runs any\n"
    "                         program under the native agent, which\n"
    "                         instruments every class as it loads:\n"
    "                         java @DIR/cccp.args -jar app.jar\n"
    "      --n2b-wrappers     overloadable methods become N2B wrappers of\n"
    "                         their twins (smaller classes) instead of\n"
    "                         instrumented copies; closed world only: stack\n"
    "                         traces gain a frame, and classes made at run\n"
    "                         time or not rewritten must not override them\n"
    "\n"
    "Cross-profiling for the JOP Java processor and block counters:\n"
    "      --jop              add each basic block's JOP cycles to its\n"
    "                         calling context ('cycles'); complete the\n"
    "                         profile with 'cccp-report jop'\n"
    "      --jop-model Y      timing table: 2014 (default) or 2008\n"
    "      --jop-rws N        memory read wait states (default 1)\n"
    "      --jop-wws N        memory write wait states (default 2)\n"
    "      --jop-software-cycles N\n"
    "                         cycles of a bytecode JOP runs in software\n"
    "                         (default 200)\n"
    "      --jop-split-exceptions\n"
    "                         end blocks at instructions that may throw and\n"
    "                         count normal returns: exact when exceptions\n"
    "                         fly\n"
    "      --count-bytecodes  executed bytecodes per context ('bytecodes')\n"
    "      --count-allocations\n"
    "                         objects and arrays allocated per context\n"
    "                         ('allocations')\n"
    "      --compact-above N  the compact form for a method of at most\n"
    "                         8000 bytes whose instrumented code would\n"
    "                         pass N bytes (default 8000, HotSpot's limit\n"
    "                         for compiling a method; 1: every such one)\n"
    "\n"
    "Inputs and output:\n"
    "      --jdk PATH         read every module of the JDK at PATH (a JDK\n"
    "                         home or its lib/modules file); needs -o DIR\n"
    "      --patch-module MODULE=PATH[:PATH...]\n"
    "                         with --jdk: the classes and resources at PATH\n"
    "                         replace and join MODULE's own, as the JVM's\n"
    "                         option does (give here what the program\n"
    "                         would give java; repeatable, once a module)\n"
    "  -o, --output PATH      FILE.jar: all inputs merged into one jar;\n"
    "                         DIR or DIR/: one jar per input (a jmod gives\n"
    "                         DIR/MODULE.jar, --jdk one jar per module);\n"
    "                         FILE.class: for a single class input\n"
    "      --lenient          copy classes that cannot be parsed through\n"
    "                         unchanged, with a warning, instead of failing\n"
    "      --classpath PATHS  jars, jmods, directories or JDK images (':'-\n"
    "                         separated, repeatable) whose classes complete\n"
    "                         the hierarchy but are not rewritten (library)\n"
    "      --no-manifest-closure\n"
    "                         read no manifest's Class-Path: the jars the\n"
    "                         inputs' manifests name are not even libraries\n"
    "      --manifest-closure rewrite those jars too, whatever -o and the\n"
    "                         mode (default: with -o DIR and --analyze)\n"
    "      --policy FILE      add or remove policy entries (XML, repeatable)\n"
    "      --print-policy     print the effective policy and exit\n"
    "      --report FILE.xml  write the analysis of every input class\n"
    "      --emit-summary F   save the hierarchy and analysis of the inputs\n"
    "      --whole-summary F  with --analyze: save the whole hierarchy,\n"
    "                         the JDK's classes too, to F ('-': standard\n"
    "                         output), as the native agent reads it\n"
    "      --summary F        load a saved summary instead of re-reading\n"
    "                         those classes (repeatable)\n"
    "      --explain CLASS[.METHOD]\n"
    "                         print what the rewrite does with one class or\n"
    "                         method and why (the analysis's reason chains),\n"
    "                         and exit without writing\n"
    "      --no-jdk-cache     read the JDK's classes from its image, not\n"
    "                         from the summary kept in ~/.cache/cccp\n"
    "  -l, --level N          deflate level of output entries, 0 (store) to\n"
    "                         9 (default 1, fast)\n"
    "      --max-entry-size N refuse entries larger than N bytes\n"
    "                         (default 256 MiB; suffixes K, M, G)\n"
    "\n"
    "General:\n"
    "  -j, --jobs N           worker threads (default: number of cores)\n"
    "  -q, --quiet            print errors and warnings only\n"
    "  -v, --verbose          print each output written and why methods are\n"
    "                         non-overloadable; -vv: every such method\n"
    "  -h, --help             show this help and exit\n"
    "  -V, --version          show the version and exit\n"
    "\n"
    "Exit status: 0 success, 1 bad or unreadable input, 2 usage error,\n"
    "3 output could not be written. See cccp-rewrite(1).\n";

__attribute__((format(printf, 1, 2), noreturn))
static void usage_error(const char *fmt, ...) {
  va_list ap;
  fputs("cccp-rewrite: ", stderr);
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fputs("\nTry 'cccp-rewrite --help' for more information.\n", stderr);
  exit(EXIT_USAGE);
}

/* A decimal option value in [lo, hi], or a usage error naming 'opt'. */
static int number(const char *s, long lo, long hi, const char *opt) {
  char *end;
  errno = 0;
  long v = strtol(s, &end, 10);
  if (!*s || *end || errno || v < lo || v > hi)
    usage_error("invalid value for %s: '%s' (%ld to %ld)", opt, s, lo, hi);
  return (int)v;
}

static int parse_size(const char *s, uint64_t *out) {
  char *end;
  errno = 0;
  unsigned long long v = strtoull(s, &end, 10);
  if (errno || end == s || *s == '-') return -1;
  unsigned shift = 0;
  switch (*end) {
  case 'K': case 'k': shift = 10; end++; break;
  case 'M': case 'm': shift = 20; end++; break;
  case 'G': case 'g': shift = 30; end++; break;
  default: break;
  }
  if (*end || v == 0 || v > (UINT64_MAX >> shift)) return -1;
  *out = (uint64_t)v << shift;
  return 0;
}

static int ends_with(const char *s, const char *suffix) {
  size_t n = strlen(s), k = strlen(suffix);
  return n >= k && memcmp(s + n - k, suffix, k) == 0;
}

static char *xstrdup(const char *s) {
  size_t n = strlen(s) + 1;
  char *p = cr_malloc(n);
  if (!p) {
    fputs("cccp-rewrite: out of memory\n", stderr);
    exit(EXIT_OUTPUT);
  }
  return memcpy(p, s, n);
}

static void *xrealloc(void *p, size_t n) {
  p = cr_realloc(p, n);
  if (!p) {
    fputs("cccp-rewrite: out of memory\n", stderr);
    exit(EXIT_OUTPUT);
  }
  return p;
}

/* The file name part of 'path' without a trailing slash, in 'buf'. */
static const char *base_name(const char *path, char *buf, size_t bufsz) {
  snprintf(buf, bufsz, "%s", path);
  size_t n = strlen(buf);
  while (n > 1 && buf[n - 1] == '/') buf[--n] = '\0';
  const char *b = strrchr(buf, '/');
  return b ? b + 1 : buf;
}

/* Output name for input 'in' written into a directory. */
static void unit_name(char *out, size_t outsz, const cr_input *in,
                      const char *module) {
  char buf[PATH_MAX];
  const char *b = base_name(cr_input_path(in), buf, sizeof buf);
  switch (cr_input_kind_of(in)) {
  case CR_IN_JMOD:
  case CR_IN_JIMAGE: {
    /* The module name: given, or the jmod's file name less ".jmod". */
    size_t n = strlen(b);
    if (!module && ends_with(b, ".jmod")) n -= 5;
    snprintf(out, outsz, "%.*s.jar", (int)(module ? strlen(module) : n),
             module ? module : b);
    break;
  }
  case CR_IN_DIR:
    snprintf(out, outsz, "%s.jar", b);
    break;
  default:
    snprintf(out, outsz, "%s", b);
    break;
  }
}

/* Plan building: growable task and unit arrays. */
typedef struct planner {
  cli_plan p;
  size_t tcap, ucap;
  cli_names reserved;     /* -o DIR: outputs of command-line inputs */
  const char *dup_first;  /* first duplicate entry of the current input */
  size_t ndup;            /* and how many there are */
} planner;

static cli_unit *add_unit(planner *pl, const char *path, const char *label) {
  if (pl->p.nunits == pl->ucap) {
    pl->ucap = pl->ucap ? pl->ucap * 2 : 8;
    pl->p.units = xrealloc(pl->p.units, pl->ucap * sizeof *pl->p.units);
  }
  cli_unit *u = &pl->p.units[pl->p.nunits++];
  memset(u, 0, sizeof *u);
  u->path = xstrdup(path);
  u->label = label;
  u->first = pl->p.ntasks;
  return u;
}

static void add_task(planner *pl, cli_names *names, cli_stats *st,
                     cr_input *in, int input, size_t idx) {
  cr_entry_info info;
  cr_input_info(in, idx, &info);
  int fresh = cli_names_add(names, info.name);
  if (fresh < 0) {
    fputs("cccp-rewrite: out of memory\n", stderr);
    exit(EXIT_OUTPUT);
  }
  if (!fresh) {
    if (!info.is_dir) {
      if (!pl->ndup++) pl->dup_first = info.name;
      st->skipped_dups++;
    }
    return;
  }
  if (pl->p.ntasks == pl->tcap) {
    pl->tcap = pl->tcap ? pl->tcap * 2 : 1024;
    pl->p.tasks = xrealloc(pl->p.tasks, pl->tcap * sizeof *pl->p.tasks);
  }
  cli_task *t = &pl->p.tasks[pl->p.ntasks++];
  memset(t, 0, sizeof *t);
  t->in = in;
  t->input = (uint32_t)input;
  t->idx = idx;
  t->unit = pl->p.nunits - 1;
  pl->p.units[t->unit].count++;
}

/* One warning for the duplicate entries of input 'in' left out of
** 'unit_path' (the first ones are kept). */
static void flush_dups(planner *pl, const cr_input *in,
                       const char *unit_path) {
  if (pl->ndup == 1)
    cli_warn("%s: %s: duplicate entry in %s, first one kept",
             cr_input_path(in), pl->dup_first, unit_path);
  else if (pl->ndup > 1)
    cli_warn("%s: %s: duplicate entry in %s, and %zu more: first ones kept",
             cr_input_path(in), pl->dup_first, unit_path, pl->ndup - 1);
  pl->ndup = 0;
}

/*
** Into the unit just opened for JDK module 'module': the entries of the
** paths --patch-module gives it, first, so that they replace the
** module's own of the same names (their module-info too, as the JVM
** ignores a patch's). Returns how many paths there were.
*/
static size_t plan_patches(planner *pl, cli_names *names, cli_stats *st,
                           cli_opts *o, const cli_inputs *set,
                           size_t *unit_of, const char *module) {
  size_t n = 0;
  for (size_t k = 0; k < o->npatches; k++) {
    cli_patch *p = &o->patches[k];
    if (strcmp(p->module, module) != 0) continue;
    size_t i = 0;
    while (set->v[i] != p->in) i++;
    for (size_t e = 0, ne = cr_input_count(set->v[i]); e < ne; e++) {
      cr_entry_info info;
      cr_input_info(set->v[i], e, &info);
      if (strcmp(info.name, "module-info.class") != 0)
        add_task(pl, names, st, set->v[i], (int)i, e);
    }
    flush_dups(pl, set->v[i], pl->p.units[pl->p.nunits - 1].path);
    unit_of[i] = pl->p.nunits - 1;
    p->planned = 1;
    n++;
  }
  return n;
}

static int unit_taken(const planner *pl, const char *path) {
  for (size_t u = 0; u < pl->p.nunits; u++)
    if (strcmp(pl->p.units[u].path, path) == 0) return 1;
  return 0;
}

/* The output path of 'in' (or one module of it) inside -o DIR. */
static void dir_unit_path(char *path, size_t n, const cli_opts *o,
                          const cr_input *in, const char *module) {
  char name[PATH_MAX];
  unit_name(name, sizeof name, in, module);
  snprintf(path, n, "%s%s%s", o->output, ends_with(o->output, "/") ? "" : "/",
           name);
}

/*
** Start the output unit for 'in' (or one module of it) inside -o DIR. Two
** inputs named alike are a usage error, unless the later one was found
** through a manifest ('renamable'): it becomes NAME-2.jar (-3, ...), a
** name no other output has or will have ('pl->reserved').
*/
static void open_dir_unit(planner *pl, cli_names *names, const cli_opts *o,
                          const cr_input *in, const char *module,
                          int renamable) {
  char name[PATH_MAX], path[PATH_MAX * 2];
  unit_name(name, sizeof name, in, module);
  const char *sep = ends_with(o->output, "/") ? "" : "/";
  snprintf(path, sizeof path, "%s%s%s", o->output, sep, name);
  if (unit_taken(pl, path) && !renamable)
    usage_error("two inputs would both be written to '%s'", path);
  char base[PATH_MAX];
  snprintf(base, sizeof base, "%s", name);
  size_t stem = ends_with(base, ".jar") ? strlen(base) - 4 : strlen(base);
  for (int k = 2; unit_taken(pl, path) ||
                  (renamable && pl->reserved.n &&
                   cli_names_add(&pl->reserved, path) == 0); k++) {
    snprintf(name, sizeof name, "%.*s-%d%s", (int)stem, base, k, base + stem);
    snprintf(path, sizeof path, "%s%s%s", o->output, sep, name);
  }
  cli_unit *u = add_unit(pl, path, NULL);
  u->label = xstrdup(name);
  cli_names_free(names);
}

/* True if 'a' and 'b' name the same existing file. */
static int same_file(const char *a, const char *b) {
  struct stat sa, sb;
  return stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev &&
         sa.st_ino == sb.st_ino;
}

static void free_plan(cli_plan *p) {
  for (size_t u = 0; u < p->nunits; u++) {
    cr_free(p->units[u].path);
    cr_free((void *)p->units[u].label);
  }
  for (size_t t = 0; t < p->ntasks; t++) cr_free(p->tasks[t].data);
  cr_free(p->units);
  cr_free(p->tasks);
}

/*
** The Class-Path value an output jar needs, for input 'i' written to unit
** 'ui': an entry naming an input of this run names that input's output
** instead (by its file name: every output is in the same folder), or is
** dropped when the input went into this same jar; a relative entry naming
** anything else (missing, a --classpath jar) becomes the absolute path it
** named from the input's place, so that the output sees what the input
** saw; absolute entries and entries the JVM does not follow stay. The
** tokens go to 'b' (space-separated), 'changed' says whether any did.
*/
static void new_classpath(cr_buf *b, int *changed, const cli_inputs *set,
                          size_t i, size_t ui, const cli_plan *p,
                          const size_t *unit_of) {
  const cli_jarmf *m = &set->m[i].mf;
  *changed = 0;
  for (size_t k = 0; k < m->nrefs; k++) {
    const cli_cpref *r = &m->refs[k];
    size_t at = b->len;
    if (b->len) cr_buf_u1(b, ' ');
    long j = r->path ? cli_inputs_find(set, r->path) : -1;
    const char *t = r->token;
    int absolute = t[0] == '/' || (strncasecmp(t, "file:", 5) == 0 &&
                                   t[5] == '/');
    if (j >= 0 && unit_of[j] == ui) {
      b->len = at;                          /* merged into this jar */
      *changed = 1;
    } else if (j >= 0) {
      char buf[PATH_MAX];
      cli_url_path(b, base_name(p->units[unit_of[j]].path, buf, sizeof buf));
      *changed = 1;
    } else if (r->path && !absolute) {
      cli_url_path(b, r->path);
      *changed = 1;
    } else {
      cr_buf_put(b, t, strlen(t));
    }
  }
  cr_buf_u1(b, 0);
}

/* Give the manifest task of every jar input whose Class-Path must change
** its new bytes. */
static int plan_manifests(cli_plan *p, const cli_inputs *set,
                          const size_t *unit_of, cr_diag *d) {
  for (size_t t = 0; t < p->ntasks; t++) {
    cli_task *task = &p->tasks[t];
    cr_entry_info info;
    cr_input_info(task->in, task->idx, &info);
    if (strcasecmp(info.name, "META-INF/MANIFEST.MF") != 0) continue;
    size_t i = 0;
    while (i < set->n && set->v[i] != task->in) i++;
    if (i == set->n || !set->m[i].mf.has_cp || set->m[i].mf.entry != task->idx)
      continue;
    cr_buf b;
    cr_buf_init(&b);
    int changed;
    new_classpath(&b, &changed, set, i, task->unit, p, unit_of);
    int rc = b.err ? cr_diag_set(d, CR_ENOMEM, -1, "out of memory") : 0;
    if (rc == 0 && changed)
      rc = cli_jarmf_rewrite(&set->m[i].mf, task->in, (const char *)b.data,
                             &task->data, &task->len, d);
    cr_buf_free(&b);
    if (rc) return rc;
  }
  return 0;
}

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Append 's' to a growable array of strings. */
static void push(const char ***arr, size_t *n, const char *s) {
  *arr = xrealloc((void *)*arr, (*n + 1) * sizeof **arr);
  (*arr)[(*n)++] = s;
}

static int print_policy(const cli_opts *o) {
  cr_policy *pol;
  cr_diag d;
  cr_diag_clear(&d);
  if (cr_policy_new(&pol, 1, &d)) {
    cli_error_diag(&d);
    return EXIT_OUTPUT;
  }
  for (size_t i = 0; i < o->npolicies; i++)
    if (cr_policy_load(pol, o->policies[i], &d)) {
      cr_diag_where(&d, o->policies[i], NULL);
      cli_error_diag(&d);
      cr_policy_free(pol);
      return EXIT_INPUT;
    }
  int rc = cr_policy_print(pol, stdout);
  cr_policy_free(pol);
  return rc ? EXIT_OUTPUT : EXIT_OK;
}

/*
 * Open input 'path' (named 'where' in a message) with the entry size
 * limit 'max_entry' and append it to 'set' (*in: the input): 0, or the
 * exit status, its message printed.
 */
static int open_into(cli_inputs *set, const char *path, const char *where,
                     uint64_t max_entry, cr_input **in, cr_diag *d) {
  if (cr_input_open(in, path, d)) {
    cr_diag_where(d, where, NULL);
    cli_error_diag(d);
    return EXIT_INPUT;
  }
  cr_input_set_limits(*in, max_entry, CR_DEFAULT_MAX_TOTAL);
  if (cli_inputs_push(set, *in, NULL, d)) {
    cli_error_diag(d);
    return EXIT_OUTPUT;
  }
  return 0;
}

/*
** --patch-module MODULE=PATH[:PATH]... ('arg' is split in place): the
** paths' classes and resources replace and join the module's own, as
** the JVM's option of that name has them do.
*/
static void add_patch(cli_opts *o, char *arg) {
  char *eq = strchr(arg, '=');
  if (!eq || eq == arg || !eq[1])
    usage_error("--patch-module takes MODULE=PATH[:PATH...], not '%s'", arg);
  *eq = '\0';
  for (size_t i = 0; i < o->npatches; i++)
    if (strcmp(o->patches[i].module, arg) == 0)
      usage_error("--patch-module %s may be given once: name all its paths "
                  "there, ':'-separated", arg);
  for (char *p = eq + 1, *tok; (tok = strsep(&p, ":"));) {
    if (!*tok) continue;
    o->patches = xrealloc(o->patches, (o->npatches + 1) * sizeof *o->patches);
    o->patches[o->npatches++] = (cli_patch){arg, tok, NULL, 0};
  }
}

static void close_all(cli_inputs *ins, cli_inputs *cp, cli_opts *o) {
  if (ins) cli_inputs_free(ins);
  if (cp) cli_inputs_free(cp);
  cr_free(o->patches);
  o->patches = NULL;
  cr_free((void *)o->classpath);
  cr_free((void *)o->policies);
  cr_free((void *)o->summaries);
  cr_free((void *)o->jdk_lib);
  o->jdk_lib = NULL;
  cr_io_release_caches();
}

/*
** Every class in flight gets an arena of chunks up to 1 MiB, freed when
** the class is written, and its input and output buffers. By default
** glibc maps blocks over 128 KiB afresh and gives the top of the heap
** back above 128 KiB free: the whole JDK then faulted in about 1.3 GB of
** zeroed pages (a third of a million faults) for a peak of 250 MiB.
** Keeping freed memory for reuse costs some 25 MiB more at the peak.
*/
static void keep_freed_memory(void) {
#ifdef __GLIBC__
  mallopt(M_MMAP_THRESHOLD, 32 << 20);
  mallopt(M_TRIM_THRESHOLD, 256 << 20);
#endif
}

int main(int argc, char **argv) {
  enum {
    OPT_IDENTITY = 256, OPT_COPY, OPT_ANALYZE, OPT_JDK, OPT_LENIENT,
    OPT_MAXENTRY, OPT_CLASSPATH, OPT_POLICY, OPT_PRINT_POLICY, OPT_REPORT,
    OPT_EMIT_SUMMARY, OPT_SUMMARY, OPT_REENCODE, OPT_STRESS, OPT_CCCP,
    OPT_CLOSURE, OPT_NO_CLOSURE, OPT_N2B, OPT_JOP, OPT_JOP_MODEL,
    OPT_JOP_RWS, OPT_JOP_WWS, OPT_JOP_SW, OPT_JOP_SPLIT, OPT_COUNT_BC,
    OPT_COUNT_ALLOC, OPT_COMPACT, OPT_NO_JDK_CACHE, OPT_EXPLAIN,
    OPT_LOAD_TIME, OPT_NO_LOAD_TIME, OPT_AGENT, OPT_WHOLE_SUMMARY,
    OPT_PATCH_MODULE
  };
  static const struct option longopts[] = {
      {"cccp", no_argument, NULL, OPT_CCCP},
      {"identity", no_argument, NULL, OPT_IDENTITY},
      {"copy", no_argument, NULL, OPT_COPY},
      {"analyze", no_argument, NULL, OPT_ANALYZE},
      {"reencode", no_argument, NULL, OPT_REENCODE},
      {"stress-probes", no_argument, NULL, OPT_STRESS},
      {"n2b-wrappers", no_argument, NULL, OPT_N2B},
      {"jop", no_argument, NULL, OPT_JOP},
      {"jop-model", required_argument, NULL, OPT_JOP_MODEL},
      {"jop-rws", required_argument, NULL, OPT_JOP_RWS},
      {"jop-wws", required_argument, NULL, OPT_JOP_WWS},
      {"jop-software-cycles", required_argument, NULL, OPT_JOP_SW},
      {"jop-split-exceptions", no_argument, NULL, OPT_JOP_SPLIT},
      {"count-bytecodes", no_argument, NULL, OPT_COUNT_BC},
      {"count-allocations", no_argument, NULL, OPT_COUNT_ALLOC},
      {"compact-above", required_argument, NULL, OPT_COMPACT},
      {"classpath", required_argument, NULL, OPT_CLASSPATH},
      {"policy", required_argument, NULL, OPT_POLICY},
      {"print-policy", no_argument, NULL, OPT_PRINT_POLICY},
      {"report", required_argument, NULL, OPT_REPORT},
      {"emit-summary", required_argument, NULL, OPT_EMIT_SUMMARY},
      {"summary", required_argument, NULL, OPT_SUMMARY},
      {"no-jdk-cache", no_argument, NULL, OPT_NO_JDK_CACHE},
      {"explain", required_argument, NULL, OPT_EXPLAIN},
      {"load-time", no_argument, NULL, OPT_LOAD_TIME},
      {"no-load-time", no_argument, NULL, OPT_NO_LOAD_TIME},
      {"agent", no_argument, NULL, OPT_AGENT},
      {"whole-summary", required_argument, NULL, OPT_WHOLE_SUMMARY},
      {"jdk", required_argument, NULL, OPT_JDK},
      {"patch-module", required_argument, NULL, OPT_PATCH_MODULE},
      {"output", required_argument, NULL, 'o'},
      {"lenient", no_argument, NULL, OPT_LENIENT},
      {"manifest-closure", no_argument, NULL, OPT_CLOSURE},
      {"no-manifest-closure", no_argument, NULL, OPT_NO_CLOSURE},
      {"max-entry-size", required_argument, NULL, OPT_MAXENTRY},
      {"level", required_argument, NULL, 'l'},
      {"jobs", required_argument, NULL, 'j'},
      {"quiet", no_argument, NULL, 'q'},
      {"verbose", no_argument, NULL, 'v'},
      {"help", no_argument, NULL, 'h'},
      {"version", no_argument, NULL, 'V'},
      {NULL, 0, NULL, 0}};
  cli_opts o;
  memset(&o, 0, sizeof o);
  o.max_entry = CR_DEFAULT_MAX_ENTRY;
  o.level = 1;
  o.closure = -1;
  o.load_time = 1;
  o.jop_year = CR_JOP_MODEL;
  o.jop_r = CR_JOP_RWS;
  o.jop_w = CR_JOP_WWS;
  o.jop_sw = CR_JOP_SOFTWARE_CYCLES;
  long cores = sysconf(_SC_NPROCESSORS_ONLN);
  o.jobs = cores > 0 ? (int)(cores > 64 ? 64 : cores) : 1;

  /* A file-size limit must end in a clean error, not a signal death. */
  signal(SIGXFSZ, SIG_IGN);
  /* libzip converts the DOS time of every entry it lists with mktime(),
  ** and with TZ unset glibc then checks /etc/localtime with a stat() each
  ** time: tens of thousands of system calls for a JDK. The same zone,
  ** named, is read once. (cccp uses no local time itself.) */
  if (!getenv("TZ")) setenv("TZ", ":/etc/localtime", 1);
  keep_freed_memory();

  int c;
  while ((c = getopt_long(argc, argv, "o:j:l:qvhV", longopts, NULL)) != -1) {
    switch (c) {
    case OPT_CCCP:
    case OPT_IDENTITY:
    case OPT_COPY:
    case OPT_ANALYZE:
    case OPT_REENCODE:
    case OPT_STRESS: {
      cli_mode m = c == OPT_CCCP       ? MODE_CCCP
                   : c == OPT_IDENTITY ? MODE_IDENTITY
                   : c == OPT_COPY     ? MODE_COPY
                   : c == OPT_ANALYZE  ? MODE_ANALYZE
                                       : MODE_REENCODE;
      if (c == OPT_STRESS) o.stress = 1;
      if (o.mode != MODE_NONE && o.mode != m)
        usage_error("%s", "only one mode may be given");
      o.mode = m;
      break;
    }
    case OPT_JDK:
      if (o.jdk) usage_error("%s", "--jdk may be given once");
      o.jdk = optarg;
      break;
    case 'o':
      if (o.output) usage_error("%s", "-o may be given once");
      o.output = optarg;
      break;
    case OPT_LENIENT: o.lenient = 1; break;
    case OPT_N2B: o.n2b = 1; break;
    case OPT_JOP: o.jop = 1; break;
    case OPT_JOP_MODEL:
      o.jop_year = number(optarg, 0, 9999, "--jop-model");
      if (o.jop_year != 2014 && o.jop_year != 2008)
        usage_error("invalid --jop-model: '%s' (2014 or 2008)", optarg);
      o.jop_set = 1;
      break;
    case OPT_JOP_RWS:
      o.jop_r = number(optarg, 0, CR_JOP_MAX_WS, "--jop-rws");
      o.jop_set = 1;
      break;
    case OPT_JOP_WWS:
      o.jop_w = number(optarg, 0, CR_JOP_MAX_WS, "--jop-wws");
      o.jop_set = 1;
      break;
    case OPT_JOP_SW:
      o.jop_sw = number(optarg, 0, CR_JOP_MAX_SOFTWARE,
                        "--jop-software-cycles");
      o.jop_set = 1;
      break;
    case OPT_JOP_SPLIT: o.jop_split = 1; o.jop_set = 1; break;
    case OPT_COUNT_BC: o.count_bytecodes = 1; break;
    case OPT_COUNT_ALLOC: o.count_allocs = 1; break;
    case OPT_COMPACT:
      o.compact_above = number(optarg, 1, 65535, "--compact-above");
      break;
    case OPT_CLOSURE: o.closure = 1; break;
    case OPT_NO_CLOSURE: o.closure = 0; break;
    case OPT_CLASSPATH:
      for (char *p = optarg, *tok; (tok = strsep(&p, ":"));)
        if (*tok) push(&o.classpath, &o.nclasspath, tok);
      break;
    case OPT_PATCH_MODULE: add_patch(&o, optarg); break;
    case OPT_POLICY: push(&o.policies, &o.npolicies, optarg); break;
    case OPT_SUMMARY: push(&o.summaries, &o.nsummaries, optarg); break;
    case OPT_NO_JDK_CACHE: o.no_jdk_cache = 1; break;
    case OPT_EXPLAIN: o.explain = optarg; break;
    case OPT_PRINT_POLICY: o.print_policy = 1; break;
    case OPT_REPORT: o.report = optarg; break;
    case OPT_EMIT_SUMMARY: o.emit_summary = optarg; break;
    case OPT_LOAD_TIME: o.load_time = 1; break;
    case OPT_NO_LOAD_TIME: o.load_time = 0; break;
    case OPT_AGENT: o.agent = 1; break;
    case OPT_WHOLE_SUMMARY: o.whole_summary = optarg; break;
    case OPT_MAXENTRY:
      if (parse_size(optarg, &o.max_entry))
        usage_error("invalid size for --max-entry-size: '%s'", optarg);
      break;
    case 'l':
      if (!optarg[0] || optarg[1] || optarg[0] < '0' || optarg[0] > '9')
        usage_error("invalid deflate level: '%s' (0 to 9)", optarg);
      o.level = optarg[0] - '0';
      break;
    case 'j': {
      char *end;
      long n = strtol(optarg, &end, 10);
      if (*end || n < 1 || n > 256)
        usage_error("invalid number of jobs: '%s' (1 to 256)", optarg);
      o.jobs = (int)n;
      break;
    }
    case 'q': o.verbose = -1; break;
    case 'v': if (o.verbose >= 0) o.verbose++; break;
    case 'h': fputs(usage_text, stdout); return EXIT_OK;
    case 'V': printf("cccp-rewrite %s\n", CCCP_VERSION); return EXIT_OK;
    default:
      fputs("Try 'cccp-rewrite --help' for more information.\n", stderr);
      return EXIT_USAGE;
    }
  }
  if (o.print_policy) {
    int rc = print_policy(&o);
    close_all(NULL, NULL, &o);
    return rc;
  }
  if (o.mode == MODE_NONE) o.mode = MODE_CCCP;
  if (o.agent) {
    if (o.mode != MODE_CCCP || o.jdk || optind < argc ||
        o.nclasspath || o.nsummaries > 1 || o.n2b || o.jop_set || o.jop ||
        o.count_bytecodes || o.count_allocs || o.report || o.emit_summary ||
        o.explain || o.whole_summary)
      usage_error("%s", "--agent rewrites nothing: it takes -o DIR, "
                  "--policy and the --summary of an instrumented JDK only");
    if (!o.output) usage_error("%s", "no output given (-o DIR)");
    cr_diag ad;
    cr_diag_clear(&ad);
    if (cli_agent_files(&o, &ad)) {
      cli_error_diag(&ad);
      close_all(NULL, NULL, &o);
      return ad.code == CR_EUSAGE ? EXIT_USAGE : EXIT_OUTPUT;
    }
    if (o.verbose >= 0)
      fprintf(stderr, "cccp-rewrite: run a program with 'java @%s/cccp.args "
              "...': its classes are instrumented as they load\n", o.output);
    close_all(NULL, NULL, &o);
    return EXIT_OK;
  }
  if (o.whole_summary && o.mode != MODE_ANALYZE)
    usage_error("%s", "--whole-summary goes with --analyze");
  if (!o.output && o.mode != MODE_ANALYZE && !o.explain)
    usage_error("%s", "no output given (-o)");
  if (o.output && o.mode == MODE_ANALYZE)
    usage_error("%s", "--analyze writes no jar: use --report FILE.xml");
  if (o.report && o.mode != MODE_ANALYZE)
    usage_error("%s", "--report goes with --analyze");
  if (optind == argc && !o.jdk) usage_error("%s", "no input given");
  if (o.npatches && (!o.jdk || o.mode != MODE_CCCP))
    usage_error("%s", "--patch-module goes with --jdk: it instruments the "
                "JDK with those classes in the module");
  if (o.n2b && o.mode != MODE_CCCP)
    usage_error("%s", "--n2b-wrappers goes with the CCCP instrumentation");
  if (o.jop_set && !o.jop)
    usage_error("%s", "the --jop-* options go with --jop");
  if ((o.jop || o.count_bytecodes || o.count_allocs) && o.mode != MODE_CCCP)
    usage_error("%s", "--jop and --count-* go with the CCCP "
                "instrumentation");
  /* a mode that does not keep the program the same says so */
  if (o.n2b)
    cli_warn("%s", "--n2b-wrappers assumes a closed world: a class that "
             "is not rewritten (made at run time, a mock or proxy, from "
             "another jar) must not override an instrumented method, and "
             "stack traces show the wrappers as extra frames");
  o.progress = o.verbose >= 0 && isatty(STDERR_FILENO);
  cr_jop_model jopm;
  if (o.jop) {
    cr_diag jd;
    cr_diag_clear(&jd);
    if (cr_jop_model_init(&jopm, o.jop_year, o.jop_r, o.jop_w, o.jop_sw,
                          &jd))
      usage_error("%s", jd.msg);
    o.jopm = &jopm;
  }

  /* Where does the output go? */
  struct stat ost;
  int out_is_dir = o.output && (ends_with(o.output, "/") ||
                   (stat(o.output, &ost) == 0 && S_ISDIR(ost.st_mode)));
  if (o.jdk && o.output && !out_is_dir && ends_with(o.output, ".jar"))
    usage_error("--jdk writes one jar per module: -o needs a directory, "
                "not '%s'", o.output);
  if (o.jdk && o.output) out_is_dir = 1;
  if (o.jdk && o.mode == MODE_CCCP &&
      (o.jop || o.count_bytecodes || o.count_allocs))
    usage_error("%s", "--jdk with block counters (--jop, --count-bytecodes, "
                "--count-allocations) is not supported: instrument the "
                "application alone for them");
  /* an instrumented JDK comes with the summary applications are
  ** rewritten against */
  char jdk_summary[PATH_MAX];
  if (o.jdk && o.output && o.mode == MODE_CCCP && !o.emit_summary) {
    snprintf(jdk_summary, sizeof jdk_summary, "%s/jdk.summary", o.output);
    o.emit_summary = jdk_summary;
  }

  /* Open every input, with the jars their manifests name (depth first,
  ** each once, as the JVM orders its class path). Class-path entries are
  ** opened first: a jar given there stays a library even when an input's
  ** manifest names it. By default the jars the manifests name are inputs
  ** when instrumenting into a folder (one jar per input) and when
  ** analysing; instrumenting into one jar, they are libraries, as merged
  ** jars would lose their own META-INF/services files and signatures. */
  int follow = o.closure >= 0 ? o.closure
               : (o.mode == MODE_CCCP && out_is_dir) || o.mode == MODE_ANALYZE;
  int follow_lib = o.closure != 0 && (follow || o.mode == MODE_CCCP);
  int want_mf = o.mode == MODE_CCCP;
  cli_inputs inset, cpset;
  memset(&inset, 0, sizeof inset);
  memset(&cpset, 0, sizeof cpset);
/* Release what is open and leave with 'code' (every early exit). */
#define LEAVE(code)                                             \
  do {                                                          \
    close_all(&inset, &cpset, &o);                              \
    return (code);                                              \
  } while (0)
  cr_diag d;
  cr_diag_clear(&d);
  int status = EXIT_OK;
  for (size_t i = 0; i < o.nclasspath; i++) {
    char img[PATH_MAX];
    const char *path = o.classpath[i];
    cr_diag_clear(&d);
    if (cr_jdk_modules_path(img, sizeof img, path, &d) == 0) {
      /* the first JDK named comes from the cache (see 'add_jdk_library') */
      if (!o.jdk_lib && !o.no_jdk_cache) {
        o.jdk_lib = xstrdup(img);
        continue;
      }
      path = img;
    }
    cr_diag_clear(&d);
    cr_input *cin;
    int rc = open_into(&cpset, path, o.classpath[i], o.max_entry, &cin, &d);
    if (rc) LEAVE(rc);
  }
  size_t ncp_named = cpset.n;
  /* the JDK's image comes after the paths that patch its modules: their
  ** classes come first in the analysis, as in the JVM */
  for (size_t i = 0; i < o.npatches; i++) {
    cr_input *pin;
    int rc = open_into(&inset, o.patches[i].path, o.patches[i].path,
                       o.max_entry, &pin, &d);
    if (rc) LEAVE(rc);
    o.patches[i].in = pin;
  }
  cr_input *jimage = NULL;
  if (o.jdk) {
    char img[PATH_MAX];
    cr_input *jin;
    if (cr_jdk_modules_path(img, sizeof img, o.jdk, &d)) {
      cr_diag_where(&d, o.jdk, NULL);
      cli_error_diag(&d);
      LEAVE(EXIT_INPUT);
    }
    int rc = open_into(&inset, img, o.jdk, o.max_entry, &jin, &d);
    if (rc) LEAVE(rc);
    jimage = jin;
  }
  cli_inputs named;
  memset(&named, 0, sizeof named);
  for (int i = optind; i < argc; i++) {
    cr_input *nin;
    int rc = open_into(&named, argv[i], argv[i], o.max_entry, &nin, &d);
    if (rc) {
      cli_inputs_free(&named);
      LEAVE(rc);
    }
  }
  cli_closure clo = {&named, &cpset, follow, want_mf, &o};
  for (size_t j = 0; j < named.n; j++)
    if (cli_inputs_place(&inset, &clo, j, &d)) {
      cli_error_diag(&d);
      cli_inputs_free(&named);
      LEAVE(d.code == CR_ENOMEM ? EXIT_OUTPUT : EXIT_INPUT);
    }
  cli_inputs_free(&named);    /* what is left: files given twice */
  /* the jars the libraries' manifests name are libraries, and so are
  ** those of the inputs' when they are not inputs themselves */
  cli_closure cpclo = {NULL, &inset, 1, 0, &o};
  for (size_t i = 0; follow_lib && !follow && i < inset.n; i++)
    if (cli_inputs_follow(&inset, i, &cpset, &cpclo, &d)) {
      cli_error_diag(&d);
      LEAVE(d.code == CR_ENOMEM ? EXIT_OUTPUT : EXIT_INPUT);
    }
  size_t nlib_mf = cpset.n - ncp_named;   /* libraries the inputs name */
  for (size_t i = 0; follow_lib && i < ncp_named; i++)
    if (cli_inputs_follow(&cpset, i, &cpset, &cpclo, &d)) {
      cli_error_diag(&d);
      LEAVE(d.code == CR_ENOMEM ? EXIT_OUTPUT : EXIT_INPUT);
    }
  cr_input **ins = inset.v, **cp = cpset.v;
  int ninputs = (int)inset.n;
  /* a class library given as an input (an rt.jar, a jar of java.base's
  ** classes) is instrumented as an instrumented JDK's java.base */
  char corelib_build[128], corelib_summary[PATH_MAX];
  cr_input *corelib = NULL;
  if (o.mode == MODE_CCCP && !o.jdk) {
    if (cli_corelib_find(ins, inset.n, &corelib, corelib_build,
                         sizeof corelib_build, &d)) {
      cli_error_diag(&d);
      LEAVE(d.code == CR_ENOMEM ? EXIT_OUTPUT
            : d.code == CR_EUSAGE ? EXIT_USAGE : EXIT_INPUT);
    }
    if (corelib && (o.jop || o.count_bytecodes || o.count_allocs))
      usage_error("%s: a class library with block counters (--jop, "
                  "--count-bytecodes, --count-allocations) is not supported",
                  cr_input_path(corelib));
    if (corelib && !o.emit_summary) {
      const char *sl = strrchr(o.output, '/');
      if (out_is_dir) snprintf(corelib_summary, sizeof corelib_summary,
                               "%s/jdk.summary", o.output);
      else snprintf(corelib_summary, sizeof corelib_summary,
                    "%.*sjdk.summary", sl ? (int)(sl - o.output) + 1 : 0,
                    o.output);
      o.emit_summary = corelib_summary;
    }
    o.corelib = corelib;
  }
  if (nlib_mf && o.verbose >= 0)
    fprintf(stderr, "cccp-rewrite: note: the %zu jar%s that the inputs' "
            "manifests name %s libraries, used uninstrumented where %s "
            "(-o DIR/ or --manifest-closure instruments them too)\n",
            nlib_mf, nlib_mf == 1 ? "" : "s",
            nlib_mf == 1 ? "is a" : "are", nlib_mf == 1 ? "it is" : "they are");
  if (o.verbose > 0)
    for (size_t i = 0; i < inset.n + cpset.n; i++) {
      const char *via = i < inset.n ? inset.m[i].via
                                    : cpset.m[i - inset.n].via;
      cr_input *in = i < inset.n ? ins[i] : cp[i - inset.n];
      if (via)
        fprintf(stderr, "cccp-rewrite: %s (named by the manifest of %s)%s\n",
                cr_input_path(in), via,
                i < inset.n ? "" : ": library");
    }
  /* The hierarchy pass reads every class that the rewrite reads again:
  ** it keeps them for it, as long as the inputs fit in KEEP_MAX in all. */
  uint64_t keep_left = o.mode == MODE_REENCODE || o.mode == MODE_CCCP
                           ? KEEP_MAX : 0;
  for (int i = 0; i < ninputs; i++) {
    uint64_t n = cr_input_total(ins[i]);
    if (n <= keep_left) {
      cr_input_set_keep(ins[i], n);
      keep_left -= n;
    }
  }

  /* Whole-program facts, when the mode or an option needs them. */
  cli_whole whole;
  memset(&whole, 0, sizeof whole);
  int need_whole =
      o.mode == MODE_ANALYZE || o.mode == MODE_REENCODE ||
      o.mode == MODE_CCCP || o.emit_summary;
  char rtjar[PATH_MAX], agent[PATH_MAX];
  if (o.mode == MODE_CCCP && !cli_runtime_jar(rtjar, sizeof rtjar)) {
    fprintf(stderr, "cccp-rewrite: the runtime cccp-rt.jar was not found "
            "(set CCCP_RT to its path)\n");
    LEAVE(EXIT_INPUT);
  }
  if (o.mode == MODE_CCCP && !cli_runtime_agent(agent, sizeof agent)) {
    fprintf(stderr, "cccp-rewrite: the native agent libcccp-agent.so was "
            "not found beside the runtime %s (they are built and installed "
            "together)\n", rtjar);
    LEAVE(EXIT_INPUT);
  }
  if (need_whole) {
    if (cli_whole_build(&o, ins, (size_t)ninputs, cp, cpset.n, &whole,
                        &status, &d)) {
      cli_error_diag(&d);
      LEAVE(status);
    }
  }
  if (o.verbose >= 1 && whole.h && !o.explain &&
      (o.mode == MODE_CCCP || o.mode == MODE_ANALYZE))
    cli_explain_verbose(whole.h, (size_t)ninputs, o.verbose >= 2, stderr);
  if (o.explain) {
    int rc = cli_explain(&o, whole.h, ins, (size_t)ninputs, cp, cpset.n,
                         stdout);
    cli_whole_free(&whole);
    LEAVE(rc);
  }
  if (o.mode == MODE_ANALYZE) {
    int rc = cli_whole_outputs(&o, &whole, NULL, &status, &d);
    if (rc) cli_error_diag(&d);
    cli_whole_free(&whole);
    close_all(&inset, &cpset, &o);
    return rc ? status : EXIT_OK;
  }

  if (o.mode == MODE_CCCP && (o.jdk || corelib) &&
      cli_jdk_check_redirects(whole.pol, whole.h, rtjar, &d)) {
    cli_error_diag(&d);
    cli_whole_free(&whole);
    LEAVE(d.code == CR_ENOMEM ? EXIT_OUTPUT : EXIT_INPUT);
  }
  int single_class = !out_is_dir && ends_with(o.output, ".class");
  if (single_class &&
      (ninputs != 1 || cr_input_kind_of(ins[0]) != CR_IN_CLASS))
    usage_error("-o '%s' names a class file: give exactly one class file "
                "as input", o.output);
  if (out_is_dir && cli_mkdirs(o.output, 0777) != 0) {
    fprintf(stderr, "cccp-rewrite: %s: cannot create directory: %s\n",
            o.output, strerror(errno));
    cli_whole_free(&whole);
    LEAVE(EXIT_OUTPUT);
  }

  /* Build the plan. */
  int rc = 0;
  planner pl;
  memset(&pl, 0, sizeof pl);
  cli_stats st;
  memset(&st, 0, sizeof st);
  cli_names names;
  memset(&names, 0, sizeof names);
  /* unit_of[i]: the output unit of input i (jar inputs have one) */
  size_t *unit_of = cr_calloc((size_t)ninputs + 1, sizeof *unit_of);
  if (!unit_of) {
    fputs("cccp-rewrite: out of memory\n", stderr);
    LEAVE(EXIT_OUTPUT);
  }
  if (!out_is_dir) {
    char label[PATH_MAX];
    cli_unit *u = add_unit(&pl, o.output, NULL);
    u->single_class = single_class;
    u->label = xstrdup(base_name(o.output, label, sizeof label));
    for (int i = 0; i < ninputs; i++) {
      for (size_t e = 0, n = cr_input_count(ins[i]); e < n; e++)
        add_task(&pl, &names, &st, ins[i], i, e);
      flush_dups(&pl, ins[i], o.output);
    }
  } else {
    /* command-line inputs keep their names; closure jars give way */
    for (int i = 0; i < ninputs; i++)
      if (inset.m[i].named && cr_input_kind_of(ins[i]) != CR_IN_JIMAGE &&
          !cli_input_module(&o, ins[i])) {
        char path[PATH_MAX * 2];
        dir_unit_path(path, sizeof path, &o, ins[i], NULL);
        if (cli_names_add(&pl.reserved, path) < 0) {
          fputs("cccp-rewrite: out of memory\n", stderr);
          LEAVE(EXIT_OUTPUT);
        }
      }
    for (int i = 0; i < ninputs; i++) {
      if (cli_input_module(&o, ins[i])) continue;   /* with its module */
      size_t n = cr_input_count(ins[i]);
      int per_module = cr_input_kind_of(ins[i]) == CR_IN_JIMAGE;
      const char *cur = NULL, *patched = NULL;
      if (!per_module)
        open_dir_unit(&pl, &names, &o, ins[i], NULL, !inset.m[i].named);
      unit_of[i] = pl.p.nunits ? pl.p.nunits - 1 : 0;
      for (size_t e = 0; e < n; e++) {
        cr_entry_info info;
        cr_input_info(ins[i], e, &info);
        if (per_module && (!cur || strcmp(cur, info.module) != 0)) {
          if (cur) flush_dups(&pl, ins[i], pl.p.units[pl.p.nunits - 1].path);
          cur = info.module;
          open_dir_unit(&pl, &names, &o, ins[i], cur, 0);
          pl.p.units[pl.p.nunits - 1].patch = o.jdk != NULL && o.mode == MODE_CCCP;
          patched = plan_patches(&pl, &names, &st, &o, &inset, unit_of, cur)
                        ? cur : NULL;
        }
        /* a patch jar's module-info is ignored, with a warning (JEP 261) */
        if (per_module && o.mode == MODE_CCCP &&
            strcmp(info.name, "module-info.class") == 0)
          continue;
        /* what --patch-module gave the module replaces its own */
        if (patched && cli_names_has(&names, info.name)) continue;
        add_task(&pl, &names, &st, ins[i], i, e);
      }
      if (pl.p.nunits)
        flush_dups(&pl, ins[i], pl.p.units[pl.p.nunits - 1].path);
    }
  }
  cli_names_free(&names);
  cli_names_free(&pl.reserved);
  for (size_t k = 0; k < o.npatches; k++)
    if (!o.patches[k].planned)
      usage_error("--patch-module %s: the JDK at %s has no module %s",
                  o.patches[k].module, o.jdk, o.patches[k].module);
  /* an rt.jar-shaped input becomes java.base's patch jar */
  for (int i = 0; corelib && o.mode == MODE_CCCP && i < ninputs; i++)
    if (ins[i] == corelib && !single_class) pl.p.units[unit_of[i]].patch = 1;

  /* Never overwrite an input or a class-path entry. */
  for (size_t u = 0; u < pl.p.nunits; u++)
    for (size_t i = 0; i < inset.n + cpset.n; i++)
      if (same_file(pl.p.units[u].path, cr_input_path(
                        i < inset.n ? ins[i] : cp[i - inset.n])))
        usage_error("refusing to overwrite input '%s'", pl.p.units[u].path);

  /* Output manifests name the rewritten copies of the jars they name. */
  if (o.mode == MODE_CCCP &&
      (rc = plan_manifests(&pl.p, &inset, unit_of, &d))) {
    cli_error_diag(&d);
    free_plan(&pl.p);
    cr_free(unit_of);
    cli_whole_free(&whole);
    LEAVE(d.code == CR_ENOMEM ? EXIT_OUTPUT : EXIT_INPUT);
  }
  cr_free(unit_of);

  double t0 = now();
  cr_typeinfo ti;
  if (whole.h) ti = cr_hier_typeinfo(whole.h);
  /* --jdk: the method table and the summary are written while the last
  ** classes are (see 'cli_jdk_pre') */
  cli_jdk_pre pre;
  memset(&pre, 0, sizeof pre);
  pre.dir = o.output;
  pre.jdk_home = o.jdk;
  pre.summary = need_whole ? o.emit_summary : NULL;
  pre.h = whole.h;
  int jdk_dir = o.mode == MODE_CCCP && o.jdk && out_is_dir && whole.h;
  rc = cli_run(&o, &pl.p, whole.h ? &ti : NULL, whole.h, whole.pol, &st,
               jdk_dir ? cli_jdk_prepare : NULL, &pre, &status, &d);
  /* the run learns the JOP settings from the options file */
  char jopprop[96];
  snprintf(jopprop, sizeof jopprop, "-Dcccp.jop=%d,%d,%d,%d,%d", o.jop_year,
           o.jop_r, o.jop_w, o.jop_sw, o.jop_split);
  if (rc == 0 && o.mode == MODE_CCCP && o.jdk && out_is_dir) {
    if ((rc = cli_jdk_files(o.output, o.jdk, &pl.p, whole.h, jimage, &pre,
                            st.xf_exit > 0, &d)))
      status = EXIT_OUTPUT;
  } else if (rc == 0 && o.mode == MODE_CCCP && corelib) {
    if ((rc = cli_corelib_files(o.output, out_is_dir, &pl.p, whole.h,
                                corelib_build, st.xf_exit > 0, &d)))
      status = EXIT_OUTPUT;
  } else if (rc == 0 && o.mode == MODE_CCCP && o.nsummaries &&
             cr_hier_mid_count(whole.h) &&
             cli_jdk_app_args(o.output, out_is_dir,
                              o.summaries[o.nsummaries - 1],
                              o.load_time ? whole.h : NULL) == 0) {
    /* rewritten against an instrumented JDK: run with its options */
  } else if (rc == 0 && o.mode == MODE_CCCP &&
      (rc = cli_runtime_files(o.output, out_is_dir,
                              o.jop ? jopprop
                              : o.count_bytecodes || o.count_allocs
                                  ? "-Dcccp.counters=true" : NULL,
                              o.load_time ? whole.h : NULL, whole.h,
                              whole.jdk_build, NULL, &d)))
    status = EXIT_OUTPUT;
  /* bodies that only instrumentation took past HotSpot's limit for
  ** compiling a method would run interpreted (docs/design.md); a class
  ** initialiser runs once */
  if (rc == 0 && o.mode == MODE_CCCP && st.xf_huge_run &&
      (rc = cli_args_append(o.output, out_is_dir,
                            "-XX:-DontCompileHugeMethods", &d)))
    status = EXIT_OUTPUT;
  double dt = now() - t0;
  if (rc == 0 && need_whole)
    rc = cli_whole_outputs(&o, &whole, &pre.sum, &status, &d);
  cli_jdk_pre_free(&pre);
  cli_whole_free(&whole);
  if (rc) {
    cli_error_diag(&d);
  } else if (o.verbose >= 0) {
    uint64_t out_bytes = 0;
    for (size_t u = 0; u < pl.p.nunits; u++) {
      struct stat s;
      if (stat(pl.p.units[u].path, &s) == 0) out_bytes += (uint64_t)s.st_size;
      if (o.verbose > 0)
        fprintf(stderr, "cccp-rewrite: wrote %s (%zu entries)\n",
                pl.p.units[u].path, pl.p.units[u].count);
    }
    if (o.mode == MODE_CCCP)
      fprintf(stderr, "cccp-rewrite: instrumented %zu classes: %zu method "
              "bodies and wrappers, %zu call sites\n", st.xf_classes,
              st.xf_methods, st.xf_sites);
    if (st.xf_blocks)
      fprintf(stderr, "cccp-rewrite: %zu block counters%s\n",
              st.xf_blocks, o.jop ? " (JOP cycles)" : "");
    if (st.xf_unsup)
      fprintf(stderr, "cccp-rewrite: %zu bytecode%s that JOP cannot run "
              "(invokedynamic, jsr, ret, goto_w) costed as software "
              "bytecodes, in %zu class%s%s\n", st.xf_unsup,
              st.xf_unsup == 1 ? "" : "s", st.xf_unsup_classes,
              st.xf_unsup_classes == 1 ? "" : "es",
              o.verbose > 0 ? "" : " (-v names them)");
    if (st.xf_compact)
      fprintf(stderr, "cccp-rewrite: %zu method bod%s in the compact form "
              "(for HotSpot's 8000-byte limit for compiling a method)\n",
              st.xf_compact, st.xf_compact == 1 ? "y" : "ies");
    if (st.xf_huge) {
      fprintf(stderr, "cccp-rewrite: note: %zu method bod%s past HotSpot's "
              "8000-byte limit for compiling a method only once "
              "instrumented%s", st.xf_huge, st.xf_huge == 1 ? "y" : "ies",
              o.verbose > 0 ? "" : " (-v names them)");
      if (!st.xf_huge_run)
        fprintf(stderr, ", class initialisers only (run once)");
      else
        fprintf(stderr, ": the options file turns the limit off "
                "(-XX:-DontCompileHugeMethods)");
      if (st.xf_huge_run && st.xf_huge_orig)
        fprintf(stderr, ", so the JIT may also compile the %zu method%s "
                "past it in the original code", st.xf_huge_orig,
                st.xf_huge_orig == 1 ? "" : "s");
      fputc('\n', stderr);
    }
    if (st.methods_unchanged)
      fprintf(stderr, "cccp-rewrite: %zu method%s left unchanged\n",
              st.methods_unchanged, st.methods_unchanged == 1 ? "" : "s");
    if (o.mode == MODE_CCCP && st.xf_classes)
      fprintf(stderr, "cccp-rewrite: note: identity hashes (default "
              "toString, the order of hash sets of enum constants) %s "
              "(cccp-rewrite(1), LIMITATIONS)\n",
              o.jdk || o.nsummaries ? "differ from plain runs"
                    : "drawn by threads other than the main thread differ "
                      "from plain runs");
    fprintf(stderr,
            "cccp-rewrite: %d input%s, %zu entries (%zu classes, %.1f MB); "
            "wrote %zu file%s (%.1f MB) in %.2f s with %d thread%s\n",
            ninputs, ninputs == 1 ? "" : "s", st.entries, st.classes,
            st.bytes_in / 1e6, pl.p.nunits, pl.p.nunits == 1 ? "" : "s",
            out_bytes / 1e6, dt, o.jobs, o.jobs == 1 ? "" : "s");
  }

  free_plan(&pl.p);
  close_all(&inset, &cpset, &o);
  return rc ? status : EXIT_OK;
}
