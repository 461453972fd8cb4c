/*
** main.c -- 'cccp-report': reads calling-context profiles and renders
** them (top, tree, folded, callgrind, flame), compares two (compare), or
** takes one from a running JVM (dump). Command line, output file, exit
** statuses; the commands are in the other files of src/report.
*/
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../cli/cli.h"
#include "report.h"

#ifndef CCCP_VERSION
#define CCCP_VERSION "dev"
#endif

/* Commands, as bits for the options they take. ORDER as 'cmds'. */
enum {
  C_TOP = 1, C_TREE = 2, C_FOLDED = 4, C_CALLGRIND = 8, C_FLAME = 16,
  C_COMPARE = 32, C_MERGE = 64, C_STATS = 128, C_DIFF = 256, C_PPROF = 512,
  C_JOP = 1024, C_DUMP = 2048,
  C_VIEW = C_TOP | C_TREE | C_FOLDED | C_CALLGRIND | C_FLAME | C_MERGE |
           C_STATS | C_PPROF,
  C_NOMETRIC = C_CALLGRIND | C_MERGE | C_STATS,
  /* pprof takes -m, but its help says what for */
  C_ALL = C_VIEW | C_COMPARE | C_DIFF | C_JOP
};

typedef struct cmd {
  const char *name;
  int bit;
  int (*run)(const rp_opts *, rp_view *, FILE *);
  const char *args;      /* after the options */
  const char *what;      /* one line */
  const char *help;      /* the command's own options */
} cmd;

static int compare(const rp_opts *o, rp_view *v, FILE *out) {
  (void)v;
  return rp_cmd_compare(o, out);
}

static int diff(const rp_opts *o, rp_view *v, FILE *out) {
  (void)v;
  return rp_cmd_diff(o, out);
}

static int jop(const rp_opts *o, rp_view *v, FILE *out) {
  (void)v;
  return rp_cmd_jop(o, out);
}

static int dump(const rp_opts *o, rp_view *v, FILE *out) {
  (void)v;
  (void)out;
  return rp_cmd_dump(o);
}

static const cmd cmds[] = {
  {"top", C_TOP, rp_cmd_top, "PROFILE...",
   "the hottest methods and calling contexts",
   "  -n, --limit N          rows per table (default 10, 0 for all)\n"
   "      --sort self|total  order by the exclusive value (default) or the\n"
   "                         inclusive one\n"
   "      --min X[%]         leave out rows under X (or X% of the total)\n"
   "      --include PREFIX   only methods whose class starts with PREFIX\n"
   "                         ('java/util/' or 'java.util.'; repeatable)\n"
   "      --exclude PREFIX   leave out methods whose class starts with\n"
   "                         PREFIX (repeatable)\n"
   "      --methods          only the methods table\n"
   "      --contexts         only the contexts table\n"},
  {"tree", C_TREE, rp_cmd_tree, "PROFILE...",
   "the calling-context tree, indented, heaviest first",
   "      --depth N          at most N levels of frames (0: threads only)\n"
   "      --min X[%]         sum up the contexts under X (or X% of the\n"
   "                         total; default 0.01%, 0 for all) into one\n"
   "                         line per parent\n"
   "      --color[=WHEN]     colour the output: auto (on a terminal, the\n"
   "                         default), always or never\n"},
  {"folded", C_FOLDED, rp_cmd_folded, "PROFILE...",
   "folded stacks, 'frame;frame;frame N' (flamegraph.pl, speedscope)",
   "      --min X[%]         leave out contexts under X (or X% of the\n"
   "                         total) with everything under them (default:\n"
   "                         none; a deep profile's lines can be long)\n"},
  {"callgrind", C_CALLGRIND, rp_cmd_callgrind, "PROFILE...",
   "callgrind format, every metric an event (KCachegrind,\n"
   "             callgrind_annotate)",
   ""},
  {"pprof", C_PPROF, rp_cmd_pprof, "PROFILE...",
   "the profile for pprof (gzipped profile.proto), every metric a sample\n"
   "             type",
   "  -m, --metric NAME      the default sample type (default calls)\n"},
  {"flame", C_FLAME, rp_cmd_flame, "PROFILE...",
   "an interactive flame graph, one self-contained HTML file",
   "      --min X[%]         leave out contexts under X (or X% of the\n"
   "                         total; default 0.01%)\n"
   "      --title TEXT       the page's title\n"},
  {"stats", C_STATS, rp_cmd_stats, "PROFILE...",
   "the shape of a profile: native share, calls app/JDK, depth, fan-out",
   "      --app-prefix P     application classes start with P\n"
   "                         (repeatable; default: every class outside the\n"
   "                         JDK's packages)\n"},
  {"merge", C_MERGE, rp_cmd_merge, "PROFILE...",
   "several profiles (runs, threads) merged into one profile",
   "      --keep-threads     keep every thread's tree apart (default:\n"
   "                         the trees of equal thread names are merged)\n"},
  {"jop", C_JOP, jop, "PROFILE",
   "complete a JOP cross-profile: add the invoke and return cycles that\n"
   "             depend on method sizes (the other commands do it in\n"
   "             memory); the profile is marked completed",
   ""},
  {"diff", C_DIFF, diff, "A B",
   "what changed from A to B, context by context, or as a flame graph",
   "  -n, --limit N          list the N contexts that changed most\n"
   "                         (default 10, 0 for all)\n"
   "      --sort self|total  compare the contexts' own values (default) or\n"
   "                         their totals\n"
   "      --min X[%]         leave out changes under X (or X% of A's total)\n"
   "      --flame            write a differential flame graph (HTML): B's\n"
   "                         frames, red where they grew, blue where they\n"
   "                         shrank\n"
   "      --title TEXT       the flame graph's title\n"},
  {"compare", C_COMPARE, compare, "A B | --expect FILE P | --contexts P",
   "the overlap of two profiles and the contexts that differ most",
   "  -n, --top N            list the N contexts that differ most\n"
   "                         (default 10)\n"
   "      --min-overlap X    exit 4 when the overlap is below X percent\n"
   "      --app-prefix P     application classes start with P\n"
   "                         (repeatable); only app-visible contexts count\n"
   "      --collapse-generated  remove lambda, LambdaForm, reflection and\n"
   "                         proxy frames\n"
   "      --hide-vm-upcalls  frames the JVM calls without an invoke\n"
   "                         bytecode (class loading, linkage, library\n"
   "                         <clinit>, implicit exceptions) count as\n"
   "                         library internals on both sides\n"
   "      --hide CLS.NAME    hide the frames of method CLS.NAME\n"
   "                         (pkg/Cls.name) on both sides (repeatable);\n"
   "                         PREFIX* hides every method of the classes\n"
   "                         whose names start with PREFIX\n"
   "      --prune CLS.NAME   leave out the frames of method CLS.NAME and\n"
   "                         every call under them, on both sides\n"
   "                         (repeatable; PREFIX* as for --hide)\n"
   "      --prune-root CLS.NAME  the same, only where CLS.NAME is called\n"
   "                         at a thread's root (repeatable)\n"
   "      --library-by-name  with --app-prefix: library frames match by\n"
   "                         name and descriptor\n"
   "      --expect FILE      check profile P against FILE (lines\n"
   "                         \"CALLS FRAME > FRAME ...\"): every listed\n"
   "                         context must have exactly its calls, every\n"
   "                         unlisted one ending in an application method\n"
   "                         is an error; exit 4 on any mismatch\n"
   "      --contexts         print the visible contexts of P in the\n"
   "                         --expect format, sorted by path\n"},
  {"dump", C_DUMP, dump, "PID -o FILE",
   "a snapshot of the profile of a running instrumented JVM",
   "  -o, --output FILE      the snapshot's file (required; relative to\n"
   "                         this folder; the JVM's user writes it)\n"
   "      --reset            later profiles count from this snapshot on\n"
   "      --timeout SECONDS  wait at most SECONDS for the snapshot\n"
   "                         (default 300, 0 for no limit)\n"
   "  -v, --verbose          say on standard error what was written\n"
   "  -h, --help             show this help\n"},
};
#define NCMDS (sizeof cmds / sizeof cmds[0])

static const char metric_help[] =
    "  -m, --metric NAME      the metric (default calls; any other numeric\n"
    "                         node attribute of the profile, e.g. cycles)\n";
static const char merge_help[] =
    "      --merge-threads    add the trees of all threads together\n";
static const char common_help[] =
    "  -o, --output FILE      write FILE (replaced when complete) instead of\n"
    "                         standard output ('-'); gzip-compressed when\n"
    "                         FILE ends in .gz\n"
    "  -h, --help             show this help\n";
static const char pprof_output_help[] =
    "  -o, --output FILE      write FILE (replaced when complete) instead of\n"
    "                         standard output ('-'); gzip always, whatever\n"
    "                         the name\n"
    "  -h, --help             show this help\n";

static void usage_all(FILE *f) {
  fputs("Usage: cccp-report COMMAND [OPTION]... PROFILE...\n"
        "Read calling-context profiles written by programs instrumented\n"
        "with cccp-rewrite and report on them.\n\nCommands:\n", f);
  for (size_t i = 0; i < NCMDS; i++)
    fprintf(f, "  %-10s %s\n", cmds[i].name, cmds[i].what);
  fputs("\n'cccp-report COMMAND --help' lists the options of COMMAND.\n"
        "Several profiles are merged (threads of the same name together).\n"
        "\nGeneral:\n"
        "  -h, --help             show this help\n"
        "  -V, --version          show the version\n"
        "\nProfiles may be gzip-compressed (told by their first bytes);\n"
        "-o FILE.gz writes gzip (pprof always does), standard output is\n"
        "never compressed.\n"
        "\nExit status: 0 ok, 1 bad or unreadable profile, 2 usage error,\n"
        "3 output not written, 4 profiles differ (compare), 5 the process\n"
        "cannot be dumped, 6 the snapshot failed (dump). See cccp-report(1)\n"
        "and, for the format, cccp-profile(5).\n", f);
}

static void usage_cmd(FILE *f, const cmd *c) {
  fprintf(f, "Usage: cccp-report %s [OPTION]... %s\n%c%s.\n\nOptions:\n",
          c->name, c->args, c->what[0] - 'a' + 'A', c->what + 1);
  fputs(c->help, f);
  if (c->bit & ((C_VIEW & ~(C_NOMETRIC | C_PPROF)) | C_DIFF))
    fputs(metric_help, f);
  if (c->bit & (C_VIEW | C_DIFF)) fputs(merge_help, f);
  if (c->bit != C_DUMP)
    fputs(c->bit == C_PPROF ? pprof_output_help : common_help, f);
}

/* ------------------------------------------------------------ errors */

void rp_error(const char *fmt, ...) {
  char msg[2048], clean[2048];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  cr_escape(clean, sizeof clean, msg);
  fprintf(stderr, "cccp-report: %s\n", clean);
}

void rp_error_diag(const cr_diag *d) {
  char msg[2048];
  cr_diag_format(d, msg, sizeof msg);
  fprintf(stderr, "cccp-report: %s\n", msg);
}

/* ----------------------------------------------------------- options */

enum {
  O_OUTPUT = 'o', O_METRIC = 'm', O_LIMIT = 'n', O_HELP = 'h',
  O_VERSION = 'V',
  O_MERGE = 256, O_SORT, O_MIN, O_INCLUDE, O_EXCLUDE, O_METHODS,
  O_CONTEXTS, O_DEPTH, O_COLOR, O_TITLE, O_APP, O_COLLAPSE, O_UPCALLS,
  O_HIDE, O_PRUNE, O_PRUNE_ROOT, O_BYNAME, O_TOP, O_MINOV, O_EXPECT, O_KEEP, O_FLAME,
  O_RESET, O_TIMEOUT, O_VERBOSE = 'v'
};

typedef struct opt {
  struct option o;
  int cmds;              /* C_* bits of the commands that take it */
} opt;

static const opt opts[] = {
  {{"output", required_argument, NULL, O_OUTPUT}, C_ALL | C_DUMP},
  {{"metric", required_argument, NULL, O_METRIC},
   (C_VIEW & ~C_NOMETRIC) | C_DIFF},
  {{"merge-threads", no_argument, NULL, O_MERGE}, C_VIEW | C_DIFF},
  {{"keep-threads", no_argument, NULL, O_KEEP}, C_MERGE},
  {{"limit", required_argument, NULL, O_LIMIT}, C_TOP | C_DIFF},
  {{"sort", required_argument, NULL, O_SORT}, C_TOP | C_DIFF},
  {{"min", required_argument, NULL, O_MIN},
   C_TOP | C_TREE | C_FOLDED | C_FLAME | C_DIFF},
  {{"flame", no_argument, NULL, O_FLAME}, C_DIFF},
  {{"include", required_argument, NULL, O_INCLUDE}, C_TOP},
  {{"exclude", required_argument, NULL, O_EXCLUDE}, C_TOP},
  {{"methods", no_argument, NULL, O_METHODS}, C_TOP},
  {{"contexts", no_argument, NULL, O_CONTEXTS}, C_TOP | C_COMPARE},
  {{"depth", required_argument, NULL, O_DEPTH}, C_TREE},
  {{"color", optional_argument, NULL, O_COLOR}, C_TREE},
  {{"colour", optional_argument, NULL, O_COLOR}, C_TREE},
  {{"title", required_argument, NULL, O_TITLE}, C_FLAME | C_DIFF},
  {{"app-prefix", required_argument, NULL, O_APP}, C_COMPARE | C_STATS},
  {{"collapse-generated", no_argument, NULL, O_COLLAPSE}, C_COMPARE},
  {{"hide-vm-upcalls", no_argument, NULL, O_UPCALLS}, C_COMPARE},
  {{"hide", required_argument, NULL, O_HIDE}, C_COMPARE},
  {{"prune", required_argument, NULL, O_PRUNE}, C_COMPARE},
  {{"prune-root", required_argument, NULL, O_PRUNE_ROOT}, C_COMPARE},
  {{"library-by-name", no_argument, NULL, O_BYNAME}, C_COMPARE},
  {{"top", required_argument, NULL, O_TOP}, C_COMPARE},
  {{"min-overlap", required_argument, NULL, O_MINOV}, C_COMPARE},
  {{"expect", required_argument, NULL, O_EXPECT}, C_COMPARE},
  {{"reset", no_argument, NULL, O_RESET}, C_DUMP},
  {{"timeout", required_argument, NULL, O_TIMEOUT}, C_DUMP},
  {{"verbose", no_argument, NULL, O_VERBOSE}, C_DUMP},
  {{"help", no_argument, NULL, O_HELP}, C_ALL | C_DUMP},
  {{"version", no_argument, NULL, O_VERSION}, C_ALL | C_DUMP},
};
#define NOPTS (sizeof opts / sizeof opts[0])

/* A non-negative integer (at most 'max'); -1 when 's' is not one. */
static long count(const char *s, long max) {
  char *e;
  errno = 0;
  if (*s < '0' || *s > '9') return -1;
  long v = strtol(s, &e, 10);
  return *e || errno || v > max ? -1 : v;
}

/* "X" or "X%" with X a non-negative number. */
static int threshold(rp_min *m, const char *s) {
  char *e;
  errno = 0;
  if (!((*s >= '0' && *s <= '9') || *s == '.')) return -1;
  double v = strtod(s, &e);
  m->percent = *e == '%';
  if (m->percent) e++;
  if (*e || errno || !(v >= 0) || v > 1e300) return -1;
  m->value = v;
  return 0;
}

/* A class prefix as internal names are written: dots become slashes. */
static const char *slashed(const char *s) {
  char *c = strdup(s);
  if (!c) return NULL;
  for (char *x = c; *x; x++)
    if (*x == '.') *x = '/';
  return c;
}

/* The name of option 'id' for messages. */
static const char *optname(int id) {
  for (size_t i = 0; i < NOPTS; i++)
    if (opts[i].o.val == id) return opts[i].o.name;
  return "?";
}

/*
** Parse the options of command 'c' into 'o'. Returns -1 to go on, or an
** exit status (after --help, --version or a usage error).
*/
static int parse(rp_opts *o, const cmd *c, int argc, char **argv) {
  struct option lo[NOPTS + 1];
  size_t n = 0;
  for (size_t i = 0; i < NOPTS; i++)
    if (opts[i].cmds & c->bit) lo[n++] = opts[i].o;
  memset(&lo[n], 0, sizeof lo[n]);
  char shorts[16] = ":o:hV";
  if (c->bit & ((C_VIEW & ~C_NOMETRIC) | C_DIFF)) strcat(shorts, "m:");
  if (c->bit & (C_TOP | C_COMPARE | C_DIFF)) strcat(shorts, "n:");
  if (c->bit & C_DUMP) strcat(shorts, "v");
  opterr = 0;
  optind = 1;
  int ch, li;
  while ((ch = getopt_long(argc, argv, shorts, lo, &li)) != -1) {
    const char *a = optarg;
    long v;
    switch (ch) {
    case O_OUTPUT: o->output = strcmp(a, "-") == 0 ? NULL : a; break;
    case O_METRIC: o->metric = a; break;
    case O_MERGE: o->merge_threads = 1; break;
    case O_KEEP: o->keep_threads = 1; break;
    case O_LIMIT:
      if (c->bit == C_COMPARE) goto top;
      if ((v = count(a, 1L << 40)) < 0) goto bad_value;
      o->limit = (size_t)v;
      break;
    case O_SORT:
      if (strcmp(a, "self") == 0) o->sort_total = 0;
      else if (strcmp(a, "total") == 0) o->sort_total = 1;
      else goto bad_value;
      break;
    case O_MIN:
      if (threshold(&o->min, a)) goto bad_value;
      o->min_set = 1;
      break;
    case O_INCLUDE:
    case O_EXCLUDE: {
      const char *s = slashed(a);
      if (!s) goto nomem;
      if (ch == O_INCLUDE) o->include[o->ninclude++] = s;
      else o->exclude[o->nexclude++] = s;
      break;
    }
    case O_METHODS: o->sections = RP_METHODS; break;
    case O_CONTEXTS:
      if (c->bit == C_COMPARE) o->contexts = 1;
      else o->sections = RP_CONTEXTS;
      break;
    case O_DEPTH:
      if ((o->depth = count(a, 1L << 30)) < 0) goto bad_value;
      break;
    case O_COLOR:
      if (!a || strcmp(a, "always") == 0) o->color = RP_COLOR_ALWAYS;
      else if (strcmp(a, "auto") == 0) o->color = RP_COLOR_AUTO;
      else if (strcmp(a, "never") == 0) o->color = RP_COLOR_NEVER;
      else goto bad_value;
      break;
    case O_TITLE: o->title = a; break;
    case O_FLAME: o->flame = 1; break;
    case O_APP: o->app[o->cmp.napp++] = a; break;
    case O_COLLAPSE: o->cmp.collapse_generated = 1; break;
    case O_UPCALLS: o->cmp.hide_vm_upcalls = 1; break;
    case O_HIDE: o->hide[o->cmp.nhide++] = a; break;
    case O_PRUNE: o->prune[o->cmp.nprune++] = a; break;
    case O_PRUNE_ROOT: o->prune_root[o->cmp.nprune_root++] = a; break;
    case O_BYNAME: o->cmp.library_by_name = 1; break;
    case O_TOP:
    top:
      if ((v = count(a, 1L << 40)) < 0) goto bad_value;
      o->top = (size_t)v;
      break;
    case O_MINOV: {
      char *e;
      o->min_overlap = strtod(a, &e);
      if (*e || !*a || !(o->min_overlap >= 0)) goto bad_value;
      break;
    }
    case O_EXPECT: o->expect = a; break;
    case O_RESET: o->reset = 1; break;
    case O_TIMEOUT:
      if ((o->timeout = count(a, 1L << 30)) < 0) goto bad_value;
      break;
    case O_VERBOSE: o->verbose = 1; break;
    case O_HELP:
      usage_cmd(stdout, c);
      return fflush(stdout) ? RP_EXIT_OUTPUT : RP_EXIT_OK;
    case O_VERSION:
      printf("cccp-report %s\n", CCCP_VERSION);
      return fflush(stdout) ? RP_EXIT_OUTPUT : RP_EXIT_OK;
    case ':':
      rp_error("%s: %s needs a value", c->name, argv[optind - 1]);
      return RP_EXIT_USAGE;
    default:
      if (optopt)
        rp_error("%s: unknown option -%c (see cccp-report %s --help)",
                 c->name, optopt, c->name);
      else
        rp_error("%s: unknown option %s (see cccp-report %s --help)",
                 c->name, argv[optind - 1], c->name);
      return RP_EXIT_USAGE;
    }
    continue;
  bad_value:
    rp_error("%s: --%s: bad value \"%s\"", c->name,
             c->bit == C_COMPARE && ch == O_LIMIT ? "top" : optname(ch), a);
    return RP_EXIT_USAGE;
  nomem:
    rp_error("out of memory");
    return RP_EXIT_OUTPUT;
  }
  o->files = argv + optind;
  o->nfiles = (size_t)(argc - optind);
  return -1;
}

/* ------------------------------------------------------------ output */

/* 1 if 'out' names the same file as one of the inputs. */
static int is_input(const rp_opts *o, const char *out) {
  struct stat so, si;
  if (stat(out, &so) != 0) return 0;
  for (size_t i = 0; i < o->nfiles; i++)
    if (stat(o->files[i], &si) == 0 && si.st_dev == so.st_dev &&
        si.st_ino == so.st_ino)
      return 1;
  if (o->expect && stat(o->expect, &si) == 0 && si.st_dev == so.st_dev &&
      si.st_ino == so.st_ino)
    return 1;
  return 0;
}

/* 1 if output 'path' is to be gzip-compressed: it ends in ".gz", and
** command 'c' does not write gzip already (pprof). */
static int gzipped(const char *path, const cmd *c) {
  size_t n = strlen(path);
  return c->bit != C_PPROF && n > 3 && strcmp(path + n - 3, ".gz") == 0;
}

/* Run command 'c' with its output on standard output or '-o FILE'. */
static int run(const rp_opts *o, const cmd *c) {
  rp_view v;
  memset(&v, 0, sizeof v);
  int st;
  if ((c->bit & C_VIEW) && (st = rp_view_open(&v, o)) != RP_EXIT_OK)
    return st;
  cli_afile af;
  cr_diag d;
  cr_diag_clear(&d);
  FILE *out = stdout;
  if (o->output) {
    if ((gzipped(o->output, c) ? cli_atomic_open_gzip
                               : cli_atomic_open)(&af, o->output, &d)) {
      rp_error_diag(&d);
      rp_view_close(&v);
      return RP_EXIT_OUTPUT;
    }
    out = af.f;
  }
  st = c->run(o, &v, out);
  rp_view_close(&v);
  if (o->output) {
    if (st == RP_EXIT_OK || st == RP_EXIT_DIFFER) {
      if (cli_atomic_commit(&af, &d)) {
        rp_error_diag(&d);
        st = RP_EXIT_OUTPUT;
      }
    } else {
      cli_atomic_abort(&af);
    }
  } else if (fflush(stdout) != 0 || ferror(stdout)) {
    rp_error("cannot write the standard output: %s", strerror(errno));
    st = RP_EXIT_OUTPUT;
  }
  return st;
}

int main(int argc, char **argv) {
  if (argc < 2) {
    usage_all(stderr);
    return RP_EXIT_USAGE;
  }
  const char *name = argv[1];
  if (strcmp(name, "-h") == 0 || strcmp(name, "--help") == 0 ||
      strcmp(name, "help") == 0) {
    if (argc > 2 && strcmp(name, "help") == 0)
      for (size_t i = 0; i < NCMDS; i++)
        if (strcmp(argv[2], cmds[i].name) == 0) {
          usage_cmd(stdout, &cmds[i]);
          return fflush(stdout) ? RP_EXIT_OUTPUT : RP_EXIT_OK;
        }
    usage_all(stdout);
    return fflush(stdout) ? RP_EXIT_OUTPUT : RP_EXIT_OK;
  }
  if (strcmp(name, "-V") == 0 || strcmp(name, "--version") == 0) {
    printf("cccp-report %s\n", CCCP_VERSION);
    return fflush(stdout) ? RP_EXIT_OUTPUT : RP_EXIT_OK;
  }
  const cmd *c = NULL;
  for (size_t i = 0; i < NCMDS; i++)
    if (strcmp(name, cmds[i].name) == 0) c = &cmds[i];
  if (!c) {
    if (name[0] == '-')
      rp_error("the command comes first (see cccp-report --help)");
    else
      rp_error("unknown command \"%s\" (see cccp-report --help)", name);
    return RP_EXIT_USAGE;
  }

  rp_opts o;
  memset(&o, 0, sizeof o);
  o.cmd = c->name;
  o.limit = 10;
  o.sections = RP_METHODS | RP_CONTEXTS;
  o.depth = -1;
  o.min_overlap = -1;
  o.top = 10;
  o.timeout = 300;
  /* Repeatable options: at most one per argument. */
  o.include = calloc((size_t)argc, sizeof *o.include);
  o.exclude = calloc((size_t)argc, sizeof *o.exclude);
  o.app = calloc((size_t)argc, sizeof *o.app);
  o.hide = calloc((size_t)argc, sizeof *o.hide);
  o.prune = calloc((size_t)argc, sizeof *o.prune);
  o.prune_root = calloc((size_t)argc, sizeof *o.prune_root);
  int st;
  if (!o.include || !o.exclude || !o.app || !o.hide || !o.prune ||
      !o.prune_root) {
    rp_error("out of memory");
    st = RP_EXIT_OUTPUT;
    goto out;
  }
  if ((st = parse(&o, c, argc - 1, argv + 1)) >= 0) goto out;
  o.cmp.app_prefix = o.app;
  o.cmp.hide = o.hide;
  o.cmp.prune = o.prune;
  o.cmp.prune_root = o.prune_root;
  st = RP_EXIT_USAGE;
  if (c->bit == C_DUMP) {
    /* the JVM writes -o FILE itself: no output file is opened here */
    if (o.nfiles != 1)
      rp_error("dump: needs one process id (see cccp-report dump --help)");
    else if (!o.output || !*o.output)
      rp_error("dump: -o FILE is required: the JVM writes the snapshot "
               "there");
    else
      st = rp_cmd_dump(&o);
    goto out;
  }
  if (c->bit == C_COMPARE) {
    size_t want = o.expect || o.contexts ? 1 : 2;
    if (o.expect && o.contexts) {
      rp_error("compare: --expect and --contexts exclude each other");
      goto out;
    }
    if (o.nfiles != want) {
      rp_error("compare: %s", want == 1 ? "needs one profile"
                                        : "needs two profiles, A and B");
      goto out;
    }
  } else if (c->bit == C_DIFF && o.nfiles != 2) {
    rp_error("diff: needs two profiles, A and B");
    goto out;
  } else if (c->bit == C_JOP && o.nfiles != 1) {
    rp_error("jop: needs one profile");
    goto out;
  } else if (o.nfiles == 0) {
    rp_error("%s: no profile given (see cccp-report %s --help)", c->name,
             c->name);
    goto out;
  }
  if (o.merge_threads && o.keep_threads) {
    rp_error("merge: --merge-threads and --keep-threads exclude each other");
    goto out;
  }
  if (o.output && is_input(&o, o.output)) {
    rp_error("%s: the output %s is an input", c->name, o.output);
    goto out;
  }
  o.use_color = o.color == RP_COLOR_ALWAYS;
  if (o.color == RP_COLOR_AUTO && !o.output && isatty(STDOUT_FILENO)) {
    const char *term = getenv("TERM"), *no = getenv("NO_COLOR");
    o.use_color = term && strcmp(term, "dumb") != 0 && !(no && *no);
  }
  st = run(&o, c);
out:
  for (size_t i = 0; i < o.ninclude; i++) free((void *)o.include[i]);
  for (size_t i = 0; i < o.nexclude; i++) free((void *)o.exclude[i]);
  free(o.include);
  free(o.exclude);
  free(o.app);
  free(o.hide);
  free(o.prune);
  free(o.prune_root);
  return st;
}
