/*
** main.c -- 'cccp-rewrite': command line, input opening and the plan that
** maps input entries to output files. The work itself is in run.c.
*/
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cccp/hier.h"
#include "cccp/policy.h"
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
    "The runtime cccp-rt.jar is copied next to the output and the JVM\n"
    "options go to OUTPUT.args (-o FILE) or DIR/cccp.args (-o DIR):\n"
    "  java @app.inst.jar.args -cp app.inst.jar Main\n"
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
    "Inputs and output:\n"
    "      --jdk PATH         read every module of the JDK at PATH (a JDK\n"
    "                         home or its lib/modules file); needs -o DIR\n"
    "  -o, --output PATH      FILE.jar: all inputs merged into one jar;\n"
    "                         DIR or DIR/: one jar per input (a jmod gives\n"
    "                         DIR/MODULE.jar, --jdk one jar per module);\n"
    "                         FILE.class: for a single class input\n"
    "      --lenient          copy classes that cannot be parsed through\n"
    "                         unchanged, with a warning, instead of failing\n"
    "      --classpath PATHS  jars, jmods, directories or JDK images (':'-\n"
    "                         separated, repeatable) whose classes complete\n"
    "                         the hierarchy but are not rewritten (library)\n"
    "      --policy FILE      add or remove policy entries (XML, repeatable)\n"
    "      --print-policy     print the effective policy and exit\n"
    "      --report FILE.xml  write the analysis of every input class\n"
    "      --emit-summary F   save the hierarchy and analysis of the inputs\n"
    "      --summary F        load a saved summary instead of re-reading\n"
    "                         those classes (repeatable)\n"
    "  -l, --level N          deflate level of output entries, 0 (store) to\n"
    "                         9 (default 1, fast)\n"
    "      --max-entry-size N refuse entries larger than N bytes\n"
    "                         (default 256 MiB; suffixes K, M, G)\n"
    "\n"
    "General:\n"
    "  -j, --jobs N           worker threads (default: number of cores)\n"
    "  -q, --quiet            print errors only\n"
    "  -v, --verbose          print each output written\n"
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
                     cr_input *in, int input, size_t idx,
                     const char *unit_path) {
  cr_entry_info info;
  cr_input_info(in, idx, &info);
  int fresh = cli_names_add(names, info.name);
  if (fresh < 0) {
    fputs("cccp-rewrite: out of memory\n", stderr);
    exit(EXIT_OUTPUT);
  }
  if (!fresh) {
    if (!info.is_dir) {
      cli_warn("%s: %s: duplicate entry in %s, first one kept",
               cr_input_path(in), info.name, unit_path);
      st->skipped_dups++;
    }
    return;
  }
  if (pl->p.ntasks == pl->tcap) {
    pl->tcap = pl->tcap ? pl->tcap * 2 : 1024;
    pl->p.tasks = xrealloc(pl->p.tasks, pl->tcap * sizeof *pl->p.tasks);
  }
  cli_task *t = &pl->p.tasks[pl->p.ntasks++];
  t->in = in;
  t->input = (uint32_t)input;
  t->idx = idx;
  t->unit = pl->p.nunits - 1;
  pl->p.units[t->unit].count++;
}

/* Start the output unit for 'in' (or one module of it) inside -o DIR. */
static void open_dir_unit(planner *pl, cli_names *names, const cli_opts *o,
                          const cr_input *in, const char *module) {
  char name[PATH_MAX], path[PATH_MAX * 2];
  unit_name(name, sizeof name, in, module);
  snprintf(path, sizeof path, "%s%s%s", o->output,
           ends_with(o->output, "/") ? "" : "/", name);
  for (size_t u = 0; u < pl->p.nunits; u++)
    if (strcmp(pl->p.units[u].path, path) == 0)
      usage_error("two inputs would both be written to '%s'", path);
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

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static int mkdirs(const char *path) {
  char buf[PATH_MAX];
  snprintf(buf, sizeof buf, "%s", path);
  for (char *p = buf + 1; *p; p++) {
    if (*p != '/') continue;
    *p = '\0';
    if (mkdir(buf, 0777) != 0 && errno != EEXIST) return -1;
    *p = '/';
  }
  if (mkdir(buf, 0777) != 0 && errno != EEXIST) return -1;
  struct stat st;
  return stat(buf, &st) == 0 && S_ISDIR(st.st_mode) ? 0 : -1;
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

static void close_all(cr_input **ins, size_t nins, cr_input **cp,
                      size_t ncp, cli_opts *o) {
  for (size_t i = 0; i < nins; i++) cr_input_close(ins[i]);
  for (size_t i = 0; i < ncp; i++) cr_input_close(cp[i]);
  cr_free(ins);
  cr_free(cp);
  cr_free((void *)o->classpath);
  cr_free((void *)o->policies);
  cr_free((void *)o->summaries);
  cr_io_release_caches();
}

int main(int argc, char **argv) {
  enum {
    OPT_IDENTITY = 256, OPT_COPY, OPT_ANALYZE, OPT_JDK, OPT_LENIENT,
    OPT_MAXENTRY, OPT_CLASSPATH, OPT_POLICY, OPT_PRINT_POLICY, OPT_REPORT,
    OPT_EMIT_SUMMARY, OPT_SUMMARY, OPT_REENCODE, OPT_STRESS, OPT_CCCP
  };
  static const struct option longopts[] = {
      {"cccp", no_argument, NULL, OPT_CCCP},
      {"identity", no_argument, NULL, OPT_IDENTITY},
      {"copy", no_argument, NULL, OPT_COPY},
      {"analyze", no_argument, NULL, OPT_ANALYZE},
      {"reencode", no_argument, NULL, OPT_REENCODE},
      {"stress-probes", no_argument, NULL, OPT_STRESS},
      {"classpath", required_argument, NULL, OPT_CLASSPATH},
      {"policy", required_argument, NULL, OPT_POLICY},
      {"print-policy", no_argument, NULL, OPT_PRINT_POLICY},
      {"report", required_argument, NULL, OPT_REPORT},
      {"emit-summary", required_argument, NULL, OPT_EMIT_SUMMARY},
      {"summary", required_argument, NULL, OPT_SUMMARY},
      {"jdk", required_argument, NULL, OPT_JDK},
      {"output", required_argument, NULL, 'o'},
      {"lenient", no_argument, NULL, OPT_LENIENT},
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
  long cores = sysconf(_SC_NPROCESSORS_ONLN);
  o.jobs = cores > 0 ? (int)(cores > 64 ? 64 : cores) : 1;

  /* A file-size limit must end in a clean error, not a signal death. */
  signal(SIGXFSZ, SIG_IGN);
  /* libzip converts the DOS time of every entry it lists with mktime(),
  ** and with TZ unset glibc then checks /etc/localtime with a stat() each
  ** time: tens of thousands of system calls for a JDK. The same zone,
  ** named, is read once. (cccp uses no local time itself.) */
  if (!getenv("TZ")) setenv("TZ", ":/etc/localtime", 1);

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
    case OPT_CLASSPATH:
      for (char *p = optarg, *tok; (tok = strsep(&p, ":"));)
        if (*tok) push(&o.classpath, &o.nclasspath, tok);
      break;
    case OPT_POLICY: push(&o.policies, &o.npolicies, optarg); break;
    case OPT_SUMMARY: push(&o.summaries, &o.nsummaries, optarg); break;
    case OPT_PRINT_POLICY: o.print_policy = 1; break;
    case OPT_REPORT: o.report = optarg; break;
    case OPT_EMIT_SUMMARY: o.emit_summary = optarg; break;
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
    close_all(NULL, 0, NULL, 0, &o);
    return rc;
  }
  if (o.mode == MODE_NONE) o.mode = MODE_CCCP;
  if (!o.output && o.mode != MODE_ANALYZE)
    usage_error("%s", "no output given (-o)");
  if (o.output && o.mode == MODE_ANALYZE)
    usage_error("%s", "--analyze writes no jar: use --report FILE.xml");
  if (o.report && o.mode != MODE_ANALYZE)
    usage_error("%s", "--report goes with --analyze");
  if (optind == argc && !o.jdk) usage_error("%s", "no input given");
  o.progress = o.verbose >= 0 && isatty(STDERR_FILENO);

  /* Where does the output go? */
  struct stat ost;
  int out_is_dir = o.output && (ends_with(o.output, "/") ||
                   (stat(o.output, &ost) == 0 && S_ISDIR(ost.st_mode)));
  if (o.jdk && o.output && !out_is_dir && ends_with(o.output, ".jar"))
    usage_error("--jdk writes one jar per module: -o needs a directory, "
                "not '%s'", o.output);
  if (o.jdk && o.output) out_is_dir = 1;

  /* Open every input. */
  int ninputs = argc - optind + (o.jdk ? 1 : 0);
  cr_input **ins = cr_calloc((size_t)ninputs, sizeof *ins);
  cr_input **cp = cr_calloc(o.nclasspath ? o.nclasspath : 1, sizeof *cp);
  if (!ins || !cp) {
    fputs("cccp-rewrite: out of memory\n", stderr);
    return EXIT_OUTPUT;
  }
/* Release what is open and leave with 'code' (every early exit). */
#define LEAVE(code)                                             \
  do {                                                          \
    close_all(ins, (size_t)ninputs, cp, o.nclasspath, &o);      \
    return (code);                                              \
  } while (0)
  cr_diag d;
  cr_diag_clear(&d);
  int k = 0, status = EXIT_OK;
  if (o.jdk) {
    char img[PATH_MAX];
    if (cr_jdk_modules_path(img, sizeof img, o.jdk, &d) ||
        cr_input_open(&ins[k], img, &d)) {
      cr_diag_where(&d, o.jdk, NULL);
      cli_error_diag(&d);
      LEAVE(EXIT_INPUT);
    }
    k++;
  }
  for (int i = optind; i < argc; i++, k++) {
    if (cr_input_open(&ins[k], argv[i], &d)) {
      cr_diag_where(&d, argv[i], NULL);
      cli_error_diag(&d);
      LEAVE(EXIT_INPUT);
    }
  }
  /* The hierarchy pass reads every class that the rewrite reads again:
  ** it keeps them for it, as long as the inputs fit in KEEP_MAX in all. */
  uint64_t keep_left = o.mode == MODE_REENCODE || o.mode == MODE_CCCP
                           ? KEEP_MAX : 0;
  for (int i = 0; i < ninputs; i++) {
    cr_input_set_limits(ins[i], o.max_entry, CR_DEFAULT_MAX_TOTAL);
    uint64_t n = cr_input_total(ins[i]);
    if (n <= keep_left) {
      cr_input_set_keep(ins[i], n);
      keep_left -= n;
    }
  }
  for (size_t i = 0; i < o.nclasspath; i++) {
    char img[PATH_MAX];
    const char *path = o.classpath[i];
    cr_diag_clear(&d);
    if (cr_jdk_modules_path(img, sizeof img, path, &d) == 0) path = img;
    cr_diag_clear(&d);
    if (cr_input_open(&cp[i], path, &d)) {
      cr_diag_where(&d, o.classpath[i], NULL);
      cli_error_diag(&d);
      LEAVE(EXIT_INPUT);
    }
    cr_input_set_limits(cp[i], o.max_entry, CR_DEFAULT_MAX_TOTAL);
  }

  /* Whole-program facts, when the mode or an option needs them. */
  cli_whole whole;
  memset(&whole, 0, sizeof whole);
  int need_whole =
      o.mode == MODE_ANALYZE || o.mode == MODE_REENCODE ||
      o.mode == MODE_CCCP || o.emit_summary;
  char rtjar[PATH_MAX];
  if (o.mode == MODE_CCCP && !cli_runtime_jar(rtjar, sizeof rtjar)) {
    fprintf(stderr, "cccp-rewrite: the runtime cccp-rt.jar was not found "
            "(set CCCP_RT to its path)\n");
    LEAVE(EXIT_INPUT);
  }
  if (need_whole) {
    if (cli_whole_build(&o, ins, (size_t)ninputs, cp, o.nclasspath, &whole,
                        &status, &d)) {
      cli_error_diag(&d);
      LEAVE(status);
    }
  }
  if (o.mode == MODE_ANALYZE) {
    int rc = cli_whole_outputs(&o, &whole, &status, &d);
    if (rc) cli_error_diag(&d);
    cli_whole_free(&whole);
    close_all(ins, (size_t)ninputs, cp, o.nclasspath, &o);
    return rc ? status : EXIT_OK;
  }

  int single_class = !out_is_dir && ends_with(o.output, ".class");
  if (single_class &&
      (ninputs != 1 || cr_input_kind_of(ins[0]) != CR_IN_CLASS))
    usage_error("-o '%s' names a class file: give exactly one class file "
                "as input", o.output);
  if (out_is_dir && mkdirs(o.output) != 0) {
    fprintf(stderr, "cccp-rewrite: %s: cannot create directory: %s\n",
            o.output, strerror(errno));
    cli_whole_free(&whole);
    LEAVE(EXIT_OUTPUT);
  }

  /* Build the plan. */
  planner pl;
  memset(&pl, 0, sizeof pl);
  cli_stats st;
  memset(&st, 0, sizeof st);
  cli_names names;
  memset(&names, 0, sizeof names);
  if (!out_is_dir) {
    char label[PATH_MAX];
    cli_unit *u = add_unit(&pl, o.output, NULL);
    u->single_class = single_class;
    u->label = xstrdup(base_name(o.output, label, sizeof label));
    for (int i = 0; i < ninputs; i++)
      for (size_t e = 0, n = cr_input_count(ins[i]); e < n; e++)
        add_task(&pl, &names, &st, ins[i], i, e, o.output);
  } else {
    for (int i = 0; i < ninputs; i++) {
      size_t n = cr_input_count(ins[i]);
      int per_module = cr_input_kind_of(ins[i]) == CR_IN_JIMAGE;
      const char *cur = NULL;
      if (!per_module) open_dir_unit(&pl, &names, &o, ins[i], NULL);
      for (size_t e = 0; e < n; e++) {
        cr_entry_info info;
        cr_input_info(ins[i], e, &info);
        if (per_module && (!cur || strcmp(cur, info.module) != 0)) {
          cur = info.module;
          open_dir_unit(&pl, &names, &o, ins[i], cur);
        }
        add_task(&pl, &names, &st, ins[i], i, e,
                 pl.p.units[pl.p.nunits - 1].path);
      }
    }
  }
  cli_names_free(&names);

  /* Never overwrite an input. */
  for (size_t u = 0; u < pl.p.nunits; u++)
    for (int i = 0; i < ninputs; i++)
      if (same_file(pl.p.units[u].path, cr_input_path(ins[i])))
        usage_error("refusing to overwrite input '%s'", pl.p.units[u].path);

  double t0 = now();
  cr_typeinfo ti;
  if (whole.h) ti = cr_hier_typeinfo(whole.h);
  int rc = cli_run(&o, &pl.p, whole.h ? &ti : NULL, whole.h, &st, &status,
                   &d);
  if (rc == 0 && o.mode == MODE_CCCP &&
      (rc = cli_runtime_files(o.output, out_is_dir, &d)))
    status = EXIT_OUTPUT;
  double dt = now() - t0;
  if (rc == 0 && need_whole) rc = cli_whole_outputs(&o, &whole, &status, &d);
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
    if (st.methods_unchanged)
      fprintf(stderr, "cccp-rewrite: %zu method%s left unchanged\n",
              st.methods_unchanged, st.methods_unchanged == 1 ? "" : "s");
    fprintf(stderr,
            "cccp-rewrite: %d input%s, %zu entries (%zu classes, %.1f MB); "
            "wrote %zu file%s (%.1f MB) in %.2f s with %d thread%s\n",
            ninputs, ninputs == 1 ? "" : "s", st.entries, st.classes,
            st.bytes_in / 1e6, pl.p.nunits, pl.p.nunits == 1 ? "" : "s",
            out_bytes / 1e6, dt, o.jobs, o.jobs == 1 ? "" : "s");
  }

  for (size_t u = 0; u < pl.p.nunits; u++) {
    cr_free(pl.p.units[u].path);
    cr_free((void *)pl.p.units[u].label);
  }
  cr_free(pl.p.units);
  cr_free(pl.p.tasks);
  close_all(ins, (size_t)ninputs, cp, o.nclasspath, &o);
  return rc ? status : EXIT_OK;
}
