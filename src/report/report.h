/*
** report.h -- shared state of the 'cccp-report' command: options, the view
** of a profile that the commands render (one metric, inclusive totals,
** children sorted by weight), and the commands.
*/
#ifndef CCCP_REPORT_H
#define CCCP_REPORT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "cccp/profile.h"
#include "cccp/util.h"

/* Exit statuses (documented in man/cccp-report.1). */
enum {
  RP_EXIT_OK = 0,
  RP_EXIT_INPUT = 1,     /* unreadable or malformed profile, no such metric */
  RP_EXIT_USAGE = 2,     /* bad command line */
  RP_EXIT_OUTPUT = 3,    /* output could not be written, or out of memory */
  RP_EXIT_DIFFER = 4,    /* compare: below --min-overlap, expectation unmet */
  RP_EXIT_TARGET = 5,    /* dump: the process cannot be dumped (nothing
                            was sent to it) */
  RP_EXIT_SNAPSHOT = 6   /* dump: the attach or the snapshot failed */
};

/* A threshold: an absolute value, or a percentage of the total. */
typedef struct rp_min {
  double value;
  int percent;           /* 'value' is a percentage */
} rp_min;

/* --color */
enum { RP_COLOR_AUTO, RP_COLOR_ALWAYS, RP_COLOR_NEVER };

typedef struct rp_opts {
  const char *cmd;
  const char *output;    /* -o, NULL for standard output */
  const char *metric;    /* -m, NULL for calls */
  int merge_threads;
  int keep_threads;      /* merge: keep every tree apart */
  size_t limit;          /* -n, 0 = no limit */
  rp_min min;            /* --min */
  int min_set;           /* --min was given */
  const char **include;  /* --include prefixes, '/'-separated */
  size_t ninclude;
  const char **exclude;
  size_t nexclude;
  int sort_total;        /* --sort total */
  int sections;          /* RP_METHODS | RP_CONTEXTS */
  long depth;            /* --depth, -1 = no limit */
  int color;             /* RP_COLOR_*, resolved to 0/1 in 'use_color' */
  int use_color;
  const char *title;     /* flame: --title */
  int flame;             /* diff: --flame */
  /* compare */
  cr_cmp_opts cmp;
  const char **app;      /* --app-prefix */
  const char **hide;     /* --hide */
  const char **prune;    /* --prune */
  const char **prune_root; /* --prune-root */
  double min_overlap;    /* -1 = none */
  const char *expect;    /* --expect FILE */
  int contexts;          /* --contexts */
  size_t top;            /* --top */
  /* dump */
  int reset;             /* --reset */
  long timeout;          /* --timeout, seconds (0: none) */
  int verbose;           /* -v */
  char **files;          /* the profiles (dump: the process id) */
  size_t nfiles;
} rp_opts;

enum { RP_METHODS = 1, RP_CONTEXTS = 2 };

/*
** Read profile 'path' (cr_profile_load); a JOP cross-profile that is not
** completed yet is completed on the way (cr_jop_complete), so that every
** command sees whole cycle counts.
*/
int rp_load(cr_profile **out, const char *path, cr_diag *d);

/*
** The view: a profile (the inputs merged, threads kept or merged), the
** metric chosen, and for every node its own value ('self', NULL when the
** metric is calls: read the nodes) and its subtree sum ('total'), for
** every tree its total, and the sum of all. Children in weight order:
** 'sfirst'/'snext' link them by decreasing total, file order on ties;
** 'tfirst' is each tree's first top-level node in that order.
*/
typedef struct rp_view {
  cr_profile *p;         /* owned */
  int metric;
  const char *mname;     /* the metric's name */
  const uint64_t *self;  /* [node], borrowed from 'p' (NULL for calls) */
  uint64_t *total;       /* [node] */
  uint64_t *ttotal;      /* [tree] */
  uint64_t grand;
  uint32_t *sfirst, *snext, *tfirst;  /* built by 'rp_view_sort' */
  int merged;            /* one tree, all threads */
  const uint64_t *before;  /* a comparison's totals before, or NULL: */
  const uint64_t *tbefore; /*   per node, per tree, in all */
  uint64_t gbefore;
  char label[1024];      /* the inputs, for titles */
} rp_view;

static inline uint64_t rp_self(const rp_view *v, uint32_t n) {
  return v->self ? v->self[n] : v->p->nodes[n].calls;
}

/* The node of a pre-order walk after the subtree of 'n': the next sibling
** of 'n' or of its nearest ancestor that has one (0: the walk is over).
** '*depth', the length of the path ending at 'n', follows to the length
** of the path before the node returned. */
static inline uint32_t rp_preorder_after(const cr_profile *p, uint32_t n,
                                         size_t *depth) {
  while (n && !p->nodes[n].next) {
    n = p->nodes[n].parent;
    (*depth)--;
  }
  if (n) {
    n = p->nodes[n].next;
    (*depth)--;
  }
  return n;
}

/* The next node of a pre-order walk after 'n': its first child, else as
** 'rp_preorder_after'. */
static inline uint32_t rp_preorder_next(const cr_profile *p, uint32_t n,
                                        size_t *depth) {
  if (p->nodes[n].child) return p->nodes[n].child;
  return rp_preorder_after(p, n, depth);
}

/*
** Load the profiles of 'o' and build the view of metric 'o->metric'.
** Several profiles are merged (trees of equal thread names together);
** '--merge-threads' merges every tree into one. Returns an RP_EXIT_*
** status, the message printed.
*/
int rp_view_open(rp_view *v, const rp_opts *o);
/* Link the children by weight (sfirst, snext, tfirst). */
int rp_view_sort(rp_view *v);
void rp_view_close(rp_view *v);

/* The threshold 'm' as a value against 'total' (0 when unset). */
uint64_t rp_min_value(const rp_min *m, uint64_t total);
/* The threshold of 'tree' and 'flame': --min, else 0.01% (a whole tree
** of a big program runs to gigabytes, and a flame graph's pixel is far
** wider). */
const rp_min *rp_min_opt(const rp_opts *o);

/* Write a profile string: bytes below 0x20 and DEL as '?', and each byte
** in 'avoid' (may be NULL) as '_'. */
void rp_puts(FILE *f, const char *s, const char *avoid);
/* "pkg/Cls.name(desc)" or, with 'desc' 0, "pkg/Cls.name". */
void rp_frame(FILE *f, const cr_prof_method *m, int desc, const char *avoid);

/*
** When the run folded calls (its trees reached their budget), one line
** saying how many and where they are counted; nothing otherwise.
*/
void rp_fold_note(FILE *f, const rp_view *v);
/* The note on method bodies of classes instrumented as they loaded that
** ran interpreted (past HotSpot's compile limit), if any. */
void rp_huge_note(FILE *f, const cr_prof_run *r);

/*
** The frames of node 'n' from its tree's root, " > " between them; a path
** of more than 128 frames loses its middle. '*st' / '*cap' is scratch
** room the caller frees (grown here). CR_ENOMEM or 0.
*/
int rp_path(FILE *f, const cr_profile *p, uint32_t n, uint32_t **st,
            size_t *cap);

/* Prints "cccp-report: MSG" on standard error. */
void rp_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Prints the diagnostic 'd' as one line. */
void rp_error_diag(const cr_diag *d);

/*
** The commands. Each writes to 'out' and returns an RP_EXIT_* status,
** having printed any error. 'rp_cmd_compare' loads its own inputs.
*/
int rp_cmd_top(const rp_opts *o, rp_view *v, FILE *out);
int rp_cmd_tree(const rp_opts *o, rp_view *v, FILE *out);
int rp_cmd_folded(const rp_opts *o, rp_view *v, FILE *out);
int rp_cmd_callgrind(const rp_opts *o, rp_view *v, FILE *out);
int rp_cmd_flame(const rp_opts *o, rp_view *v, FILE *out);
int rp_cmd_compare(const rp_opts *o, FILE *out);
int rp_cmd_diff(const rp_opts *o, FILE *out);
int rp_cmd_jop(const rp_opts *o, FILE *out);
int rp_cmd_pprof(const rp_opts *o, rp_view *v, FILE *out);
int rp_cmd_merge(const rp_opts *o, rp_view *v, FILE *out);
int rp_cmd_stats(const rp_opts *o, rp_view *v, FILE *out);
/* 'dump': a snapshot of a running JVM's profile, written by the JVM to
** '-o FILE' (not through 'out'; the process id is 'o->files[0]'). */
int rp_cmd_dump(const rp_opts *o);

#endif
