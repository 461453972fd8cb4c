/*
** cli.h -- shared state of the 'cccp-rewrite' command: options, the plan
** (which input entries go to which output), the parallel pipeline.
*/
#ifndef CCCP_CLI_H
#define CCCP_CLI_H

#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdint.h>

#include "cccp/classfile.h"
#include "cccp/io.h"
#include "cccp/typeinfo.h"
#include "cccp/util.h"

/* Exit statuses (documented in man/cccp-rewrite.1). */
enum {
  EXIT_OK = 0,
  EXIT_INPUT = 1,       /* bad or unreadable input */
  EXIT_USAGE = 2,       /* bad command line */
  EXIT_OUTPUT = 3       /* output could not be written, or out of memory */
};

typedef enum cli_mode {
  MODE_NONE,
  MODE_IDENTITY,        /* parse and write back every class */
  MODE_COPY,            /* copy every entry without parsing */
  MODE_ANALYZE,         /* hierarchy and overloadability analysis only */
  MODE_REENCODE,        /* every method through the IR, frames recomputed */
  MODE_CCCP             /* CCCP instrumentation (the default mode) */
} cli_mode;

/* One path of --patch-module MODULE=PATH[:PATH]... */
typedef struct cli_patch {
  const char *module;
  const char *path;
  const cr_input *in;   /* that path opened: one of the inputs */
  int planned;          /* its entries have an output */
} cli_patch;

typedef struct cli_opts {
  cli_mode mode;
  const char *output;   /* -o */
  const char *jdk;      /* --jdk */
  const cr_input *corelib;  /* an input that is a class library, or NULL */
  cli_patch *patches;   /* --patch-module, in the order given */
  size_t npatches;
  int jobs;             /* -j, >= 1 */
  int verbose;          /* -v count; -1 for -q */
  int lenient;          /* --lenient: copy unparsable classes through */
  uint64_t max_entry;   /* --max-entry-size */
  int level;            /* -l: deflate level 0..9 */
  int progress;         /* draw a progress bar */
  const char **classpath;   /* --classpath entries (library classes) */
  size_t nclasspath;
  const char **policies;    /* --policy files */
  size_t npolicies;
  const char **summaries;   /* --summary files */
  size_t nsummaries;
  const char *report;       /* --report FILE.xml */
  const char *emit_summary; /* --emit-summary FILE */
  int print_policy;         /* --print-policy */
  int stress;               /* --stress-probes (test only) */
  int n2b;                  /* --n2b-wrappers */
  int closure;              /* follow manifest Class-Path (-1: by mode) */
  int jop;                  /* --jop */
  int jop_year, jop_r, jop_w, jop_sw, jop_split;  /* --jop-* */
  int jop_set;              /* some --jop-* option was given */
  int count_bytecodes;      /* --count-bytecodes */
  int count_allocs;         /* --count-allocations */
  int compact_above;        /* --compact-above N (0: default) */
  const struct cr_jop_model *jopm;  /* the model of --jop, or NULL */
  int no_jdk_cache;         /* --no-jdk-cache */
  const char *explain;      /* --explain CLASS[.METHOD] */
  int load_time;            /* the agent instruments the classes that
                               were not rewritten (default; 0 with
                               --no-load-time) */
  int agent;                /* --agent: no inputs; the options file runs
                               any program under the load-time rewriter */
  const char *whole_summary;  /* --whole-summary FILE ('-': stdout) */
  const char *jdk_lib;      /* a --classpath JDK image, read through the
                               cache instead of as a class-path entry */
} cli_opts;

/* One entry to process: input 'in', entry index 'idx', output unit;
** 'data' (owned by the plan), when set, replaces the entry's bytes. */
typedef struct cli_task {
  cr_input *in;
  uint32_t input;       /* index of 'in' among the inputs: its classes'
                           'order >> 32' in the hierarchy */
  size_t idx;
  size_t unit;
  uint8_t *data;
  size_t len;
} cli_task;

/* One output file and the range of tasks that fill it, in order. */
typedef struct cli_unit {
  char *path;           /* output path (malloc'd) */
  const char *label;    /* short name for progress ("java.base") */
  int single_class;     /* write a bare .class file instead of a jar */
  int patch;            /* a module's instrumented patch jar: gets
                           CLI_PATCH_MARKER (--identity and --copy write
                           the image's entries only) */
  size_t first, count;  /* tasks [first, first+count) */
} cli_unit;

/*
** The entry every patch jar of an instrumented JDK holds. The runtime
** opens each patched module's reader before it profiles by asking for
** this name: found in the patch, it does not open the module's reader of
** the JDK image as well (which loads libjimage, work a plain run does
** not do).
*/
#define CLI_PATCH_MARKER "META-INF/cccp.patch"

typedef struct cli_plan {
  cli_task *tasks;
  size_t ntasks;
  cli_unit *units;
  size_t nunits;
} cli_plan;

/*
** Is 'module' (an entry's module, NULL outside jimages and jmods) one whose
** packages the JVM's boot layer owns? Every module of a JDK image except
** the incubator ones (jdk.incubator.*), which resolve only on request.
*/
int cli_jdk_module(const char *module);

/*
** The module whose classes input 'in' holds without being a module of a
** JDK image: java.base for a class library given as an input
** ('o->corelib'), MODULE for a path of --patch-module MODULE=...; NULL
** for any other input, or without 'o'.
*/
const char *cli_input_module(const cli_opts *o, const cr_input *in);

/* Statistics gathered by the run. */
typedef struct cli_stats {
  size_t entries, classes, lenient_copies, skipped_dups;
  size_t methods_unchanged, missing_types;
  uint64_t bytes_in, bytes_out;
  size_t xf_classes;        /* classes instrumented */
  size_t xf_methods;        /* ESI + OSI bodies, wrappers and twins */
  size_t xf_sites;          /* call sites rewritten */
  size_t jdk_pkg_copies;    /* classes in JDK packages left unchanged */
  size_t xf_blocks;         /* basic blocks given counters */
  size_t xf_unsup;          /* bytecodes JOP cannot run */
  size_t xf_unsup_classes;  /* classes with such bytecodes */
  size_t xf_compact;        /* bodies in the compact form */
  size_t xf_exit;           /* methods given the profile's dump (CC.exit) */
  size_t xf_huge;           /* bodies past HotSpot's compile limit only
                               once instrumented */
  size_t xf_huge_run;       /* those that are no class initialiser */
  size_t xf_huge_orig;      /* methods past it in the original code */
} cli_stats;

/*
** Run the plan with 'o->jobs' workers. On failure 'd' holds the first error
** in plan order and '*exit_code' the status to exit with; nothing is left
** at any output path. Returns 0 on success.
** 'h' and 'pol' are the analysed hierarchy and its policy (instrumenting).
** 'side' (may be NULL) is called once with 'side_ctx' by a worker thread
** that finds no task left to claim, while the last ones are finished and
** written; not at all with one job, or once a task failed.
*/
struct cr_hier;
struct cr_policy;
int cli_run(const cli_opts *o, const cli_plan *p, const cr_typeinfo *ti,
            const struct cr_hier *h, const struct cr_policy *pol,
            cli_stats *st, void (*side)(void *), void *side_ctx,
            int *exit_code, cr_diag *d);

/*
** After an instrumenting run: copy the runtime jar and the native agent
** next to the output and write the JVM options file ('OUTPUT.args', or
** 'DIR/cccp.args'), which loads both. 'out'
** is the -o path, 'is_dir' whether it names a directory; 'extra' (may be
** NULL) is one more option line, as for the JOP settings. With 'h' (app
** mode), the JDK's leaves that the rewritten virtual calls may select
** ('cr_hier_virtual_leaves') go to 'OUTPUT.leaves' or 'DIR/cccp.leaves',
** under a first line "cccp-leaves 1 BUILD" ('build': the library JDK's
** java.runtime.version), and the options file names it (cccp.leaves);
** without leaves, or without a build, neither. With 'lt' (load-time
** rewriting, the default) its hierarchy without the JDK's classes goes
** to 'OUTPUT.summary' or 'DIR/cccp.summary', which the options file
** gives the native agent ("app=PATH"). With 'agent_opt' instead, the
** native agent gets that option (see 'cli_agent_files').
*/
struct cr_hier;
int cli_runtime_files(const char *out, int is_dir, const char *extra,
                      const struct cr_hier *lt, const struct cr_hier *h,
                      const char *build, const char *agent_opt, cr_diag *d);
/*
** --agent -o DIR: no rewrite. DIR gets the runtime, the native agent,
** 'DIR/cccp.agent' (the first line "cccp-agent 1", then one argument per
** line: this rewriter's path and the options the agent runs it with to
** analyse a program's class path, e.g. --policy FILE) and 'DIR/cccp.args',
** which has the agent read that file.
*/
int cli_agent_files(const cli_opts *o, cr_diag *d);
/* The hierarchy 'h' without the JDK's classes into 'path' (atomically),
** for the load-time rewriter. */
int cli_app_summary(const char *path, const struct cr_hier *h, cr_diag *d);
/* JDK mode: the options of the instrumented JDK whose summary is 'sum'
** (DIR/cccp.args beside it) into 'args', the native agent given option
** 'opt'. */
int cli_jdk_agent_args(const char *sum, const char *args, const char *opt,
                       cr_diag *d);
/* Append option line 'line' to the options file that the runtime files
** of output 'out' ('is_dir' as there) include, unless it has it. */
int cli_args_append(const char *out, int is_dir, const char *line,
                    cr_diag *d);
/* Copy file 'from' to 'to' atomically. */
int cli_copy_file(const char *from, const char *to, cr_diag *d);
/* Write 's' to 'f' as one argfile token (quoted when it needs to be). */
void cli_put_token(FILE *f, const char *s);
/*
** After instrumenting a JDK image into directory 'dir' with plan 'p' (one
** jar per module): the JDK mode's runtime (cccp-rt-jdk.jar), the native
** agent, the method table 'dir/jdk.methods' from 'h', and 'dir/cccp.args'
** with the --patch-module of every module of the default boot layer (read
** from the module descriptors of JDK image 'image'), the exports the
** runtime needs and the agent; with 'exit_dump' (CC.exit was inserted: see the profile-dump
** rule) -Dcccp.exit=inserted, and the runtime then registers no shutdown
** hook of its own.
*/
struct cli_jdk_pre;
int cli_jdk_files(const char *dir, const char *jdk_home, const cli_plan *p,
                  const struct cr_hier *h, cr_input *image,
                  struct cli_jdk_pre *pre, int exit_dump, cr_diag *d);
/*
** After instrumenting an application against the summary 'summary' of an
** instrumented JDK (DIR/jdk.summary): the application's options file
** ('OUTPUT.args' or 'OUTPUT/cccp.args', as 'cli_runtime_files' names it)
** is a copy of DIR/cccp.args; with 'lt' (load-time rewriting) its
** hierarchy without the JDK's classes goes to 'OUTPUT.summary' or
** 'OUTPUT/cccp.summary' and the copy's native agent is given it
** ("japp=PATH"). -1 (with a warning or an error) when there is none, or
** it cannot be written: the caller writes app mode's.
*/
int cli_jdk_app_args(const char *out, int is_dir, const char *summary,
                     const struct cr_hier *lt);
/*
** A class library among the inputs 'ins' (an rt.jar, or a jar of
** java.base's classes: the input that holds java/lang/Object): '*lib', with
** the build its classes are from in 'build' ("unknown" when they do not
** say). It is instrumented as an instrumented JDK's java.base. An error
** when it is not alone, or from before Java 11.
*/
int cli_corelib_find(cr_input **ins, size_t n, cr_input **lib, char *build,
                     size_t bn, cr_diag *d);
/*
** After instrumenting a class library into 'out' (a jar, or a folder):
** in out's folder, what 'cli_jdk_files' writes for a JDK, with the
** options file patching java.base with the plan's jars; OUT.args too for
** a jar.
*/
int cli_corelib_files(const char *out, int is_dir, const cli_plan *p,
                      const struct cr_hier *h, const char *build,
                      int exit_dump, cr_diag *d);
/*
** Instrumenting JDK classes: every <redirect> of 'pol' that may apply
** calls a static method that must exist when the JDK runs, in the JDK
** runtime (cccp-rt-jdk.jar beside runtime jar 'rtjar') or in the JDK's
** classes ('h'); a missing one would be a NoSuchMethodError in the JDK's
** reflection or stack traces. CR_ENOTFOUND naming the policy entry.
*/
struct cr_policy;
int cli_jdk_check_redirects(const struct cr_policy *pol,
                            const struct cr_hier *h, const char *rtjar,
                            cr_diag *d);
/* Where the runtime jar is (CCCP_RT, installed, source tree), or NULL. */
const char *cli_runtime_jar(char *buf, size_t n);
/* Where the native agent libcccp-agent.so is (beside the runtime jar), or
** NULL. */
const char *cli_runtime_agent(char *buf, size_t n);
/*
** Copy the native agent into folder 'real' (a real path, without '=':
** -agentpath ends the path there), unless a file of the same bytes is
** there; its path to 'out' ('n' bytes).
*/
int cli_agent_copy(char *out, size_t n, const char *real, cr_diag *d);
/* The option line that loads the native agent at 'path'; 'summary' (may
** be NULL) the hierarchy summary the agent's load-time rewriter reads */
void cli_put_agent(FILE *f, const char *path, const char *summary);

/*
** A set of strings (copied), for warn-once bookkeeping and duplicate
** entry names. Not thread-safe; callers lock. Transparent.
*/
typedef struct cli_names {
  char **slots;
  size_t cap, n;
} cli_names;
/* Insert a copy of 'name'; returns 1 if new, 0 if present, -1 on OOM. */
int cli_names_add(cli_names *s, const char *name);
/* Does 's' hold 'name'? */
int cli_names_has(const cli_names *s, const char *name);
void cli_names_free(cli_names *s);

/*
** First pass: parse every class entry of 'ins' with 'jobs' threads and
** call 'fn' for each (from several threads at once: 'fn' must be
** thread-safe). The class model lives only for the call; with
** 'headers' it is only the header ('cr_cf_parse_header'). Stops at the
** first error, which lands in 'd' naming file and entry.
*/
typedef int (*cli_scan_fn)(void *ctx, cr_class *c,
                           cr_input *in, size_t idx, cr_diag *d);
int cli_scan(cr_input **ins, size_t nins, int jobs, int headers,
             cli_scan_fn fn, void *ctx, cr_diag *d);

/* Whole-program facts: policy and analysed hierarchy. */
struct cr_hier;
struct cr_policy;
typedef struct cli_whole {
  struct cr_policy *pol;
  struct cr_hier *h;
  char jdk_build[128];      /* the library JDK's java.runtime.version, or
                               "" (none read from an image) */
} cli_whole;

/*
** Build the policy (built-in + --policy files), load --summary files, add
** every class of 'ins' (instrumented) and 'cp' (library), link, warn about
** missing supertypes and summary conflicts, and analyse.
*/
int cli_whole_build(const cli_opts *o, cr_input **ins, size_t nins,
                    cr_input **cp, size_t ncp, cli_whole *w, int *exit_code,
                    cr_diag *d);
/* Write --report and --emit-summary (renaming 'presum' when it is
** prepared: see 'cli_jdk_pre'), print the counts. */
struct cli_afile;
int cli_whole_outputs(const cli_opts *o, const cli_whole *w,
                      struct cli_afile *presum, int *exit_code, cr_diag *d);
void cli_whole_free(cli_whole *w);

/* The colours of the method ids (colour.c): the calls of the
** instrumented classes of 'ins' into 'cr_hier_colour'. */
int cli_colour(const cli_opts *o, struct cr_hier *h, cr_input **ins,
               size_t nins, cr_diag *d);

/* The lib/modules of the JDK that completes a hierarchy lacking
** java/lang/Object: $JAVA_HOME's, else the one of the 'java' on PATH;
** 0, or -1 when there is none. */
int cli_default_jdk(char *out, size_t outsz);

/* --explain: print to 'f' what the rewrite does with one class or method
** of the analysed hierarchy, and why (explain.c); an exit status. */
int cli_explain(const cli_opts *o, const struct cr_hier *h, cr_input **ins,
                size_t nins, cr_input **cp, size_t ncp, FILE *f);
/* -v: how many methods of the inputs are non-overloadable (but
** '<clinit>') and how many of their classes are kept as libraries for
** JEP 261; with 'list' (-vv) also one line each, with the reason chain. */
void cli_explain_verbose(const struct cr_hier *h, size_t nins, int list,
                         FILE *f);

/*
** Manifest Class-Path (manifest.c). A jar's manifest may name more jars
** (space-separated URLs relative to the jar, or absolute); the JVM puts
** each, then what its own manifest names, right after the jar on the
** class path, and ignores entries it cannot open.
*/
typedef struct cli_cpref {
  char *token;          /* as written in the manifest */
  char *path;           /* the absolute path it names; NULL if the JVM */
  const char *why;      /*   does not follow it: why, if worth a warning */
} cli_cpref;

/* The manifest facts of one jar. Transparent. */
typedef struct cli_jarmf {
  size_t entry;         /* index of the manifest entry; SIZE_MAX if none */
  int has_cp;           /* it has a Class-Path header */
  cli_cpref *refs;      /* its entries, in order */
  size_t nrefs;
} cli_jarmf;

/*
** Read the manifest of 'in' (jars only; nothing for other kinds) and
** resolve its Class-Path against 'base', the absolute path the JVM knows
** the jar by. Errors name the entry.
*/
int cli_jarmf_read(cli_jarmf *out, cr_input *in, const char *base,
                   cr_diag *d);
void cli_jarmf_free(cli_jarmf *m);
/*
** The manifest of 'in' with its Class-Path value replaced by 'value'
** (header removed when empty), every other byte kept: malloc'd in '*out'.
*/
int cli_jarmf_rewrite(const cli_jarmf *m, cr_input *in, const char *value,
                      uint8_t **out, size_t *outlen, cr_diag *d);
/* Append 'path' to 'b' as a URL path (%XX where a URL needs it). */
void cli_url_path(cr_buf *b, const char *path);

/* What is known of one opened input. Transparent. */
typedef struct cli_inmeta {
  cli_jarmf mf;         /* manifest facts (jars, when asked for) */
  const char *via;      /* the jar whose manifest named it first (path
                           owned by that input); NULL: the command line */
  int named;            /* given on the command line */
  int mf_read;          /* 'mf' holds the manifest facts */
  uint64_t dev, ino;    /* identity of the file; 0, 0 if unknown */
} cli_inmeta;

/*
** A list of opened inputs in class-path order. Files are told apart by
** device and inode, so a jar reached twice (also through a symbolic link)
** is listed once. 'v[i]' may be NULL in a list inputs are taken from.
** Transparent.
*/
typedef struct cli_inputs {
  cr_input **v;
  cli_inmeta *m;
  size_t n, cap;
} cli_inputs;

/* Append 'in' (now owned by 'set'; closed on failure); CR_ENOMEM. */
int cli_inputs_push(cli_inputs *set, cr_input *in, const char *via,
                    cr_diag *d);
/* Index of the input that is file 'path' in 'set', or -1. */
long cli_inputs_find(const cli_inputs *set, const char *path);
void cli_inputs_free(cli_inputs *set);   /* closes every input */

/* How a list is built from the command line's inputs. */
typedef struct cli_closure {
  cli_inputs *named;        /* opened command-line inputs, taken from */
  const cli_inputs *skip;   /* files a manifest never adds (--classpath) */
  int follow;               /* follow manifests */
  int want_mf;              /* read manifest facts even without following */
  const cli_opts *o;
} cli_closure;

/*
** Move command-line input 'j' of 'c->named' to 'set' (unless that file is
** there already) and, when following, then the jars its
** manifest names, depth first, each once, in the JVM's order: a jar named
** by a manifest that is also a command-line input is placed there, under
** its own name. A manifest's entry the JVM would not open (a missing
** file, a folder, not a jar) is skipped with a warning (with -v for a
** missing file). Limits are set on every input opened.
*/
int cli_inputs_place(cli_inputs *set, cli_closure *c, size_t j, cr_diag *d);
/* Read the manifest of input 'i' of 'src' (once) and add the jars it
** names, and theirs, to 'dst' (which may be 'src'), as above. */
int cli_inputs_follow(cli_inputs *src, size_t i, cli_inputs *dst,
                      cli_closure *c, cr_diag *d);

/*
** A file written under a temporary name and renamed when complete.
** '_open_gzip': what is written to 'f' is gzip-compressed into the file
** (one member, deflate level 1).
*/
typedef struct cli_afile {
  FILE *f;
  FILE *raw;             /* the temporary file under a compressing 'f' */
  char path[4096];
  char tmp[4200];
} cli_afile;
int cli_atomic_open(cli_afile *af, const char *path, cr_diag *d);
int cli_atomic_open_gzip(cli_afile *af, const char *path, cr_diag *d);
int cli_atomic_commit(cli_afile *af, cr_diag *d);   /* closes */
void cli_atomic_abort(cli_afile *af);               /* closes, unlinks */
/* 'write' (a report or a summary of 'h') into 'path', atomically. */
struct cr_hier;
int cli_atomic_hier(const char *path, const struct cr_hier *h,
                    int (*write)(const struct cr_hier *, FILE *, cr_diag *),
                    cr_diag *d);
/* mkdir -p, new folders with 'mode'; 0 if 'path' is then a folder. */
int cli_mkdirs(const char *path, unsigned mode);

/*
** The summary of a JDK image's classes as a library, cached in the user's
** cache folder (jdkcache.c): open (the key and the entry's path; -1 when
** there is no cache folder, 'why' says why), load into a hierarchy not
** yet linked (0; -1 when absent or not valid, 'why' says what was wrong
** when there was an entry; CR_ENOMEM), lock the entry against other
** processes while building it, store a built hierarchy atomically.
*/
typedef struct cli_jdk_cache {
  char key[2 * PATH_MAX + 256]; /* the entry's first line */
  char dir[PATH_MAX];
  char path[PATH_MAX + 64];
  char why[600];
  int lock;                     /* descriptor of the lock file, or -1 */
} cli_jdk_cache;
struct cr_hier;
int cli_jdk_cache_open(cli_jdk_cache *c, const char *img);
/* The build of the JDK at 'home' (JAVA_RUNTIME_VERSION of its release
** file) into 'buf', "unknown" when there is none; never has a space. */
void cli_jdk_build(const char *home, char *buf, size_t n);
int cli_jdk_cache_load(cli_jdk_cache *c, struct cr_hier *h, cr_diag *d);
void cli_jdk_cache_lock(cli_jdk_cache *c);
void cli_jdk_cache_unlock(cli_jdk_cache *c);
int cli_jdk_cache_store(cli_jdk_cache *c, const struct cr_hier *lib,
                        cr_diag *d);

/*
** What --jdk -o DIR writes from the analysed hierarchy alone, the method
** table and the summary ('summary'), prepared by 'cli_jdk_prepare' while
** the last classes are still being rewritten ('cli_run''s side job):
** written and synced under temporary names, which 'cli_jdk_files' and
** 'cli_whole_outputs' only rename. A file whose preparation fails is
** left to those, which write it as before and report the failure.
*/
typedef struct cli_jdk_pre {
  const char *dir, *jdk_home, *summary;
  const struct cr_hier *h;
  cli_afile methods, sum;   /* 'f' set: prepared, not yet renamed */
} cli_jdk_pre;
void cli_jdk_prepare(void *pre);
/* Remove what was prepared and not renamed. */
void cli_jdk_pre_free(cli_jdk_pre *pre);

/* Progress bar on stderr (no-ops unless enabled). */
void cli_progress_start(int enabled, size_t total);
void cli_progress_update(size_t done, const char *label);
void cli_progress_end(void);

/* Messages: "cccp-rewrite: ..." on stderr; progress-bar aware. */
void cli_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* "cccp-rewrite: note: ..." (callers leave it out under -q). */
void cli_note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void cli_error_diag(const cr_diag *d);

#endif
