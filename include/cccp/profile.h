/*
** profile.h -- calling-context profiles (profile XML version 1): a
** streaming reader (libxml2 xmlTextReader), a builder, a streaming writer,
** and the comparison of two profiles (overlap percentage, differing
** contexts). Used by the test tools and by cccp-report.
*/
#ifndef CCCP_PROFILE_H
#define CCCP_PROFILE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "cccp/util.h"

/*
** A profile, transparent and read-only for users (build one with the
** functions below). Index 0 of 'methods' and 'nodes' is unused, so that
** 0 means "none": method ids are 1..nmethods, node indices 1..nnodes.
** A node's parent always has a smaller index than the node (pre-order or
** creation order), so one pass in index order visits parents first.
** Strings are UTF-8 and live as long as the profile.
*/
typedef struct cr_prof_method {
  const char *cls;       /* internal class name, "pkg/Name" */
  const char *name;      /* method name */
  const char *desc;      /* method descriptor */
  uint32_t size;         /* bytecode length, 0 for natives/library */
  uint8_t native;        /* 1 for a native method */
  uint8_t library;       /* 1 for a library method profiled at its call site */
  uint8_t folded;        /* 1 for the fold nodes' method (cccp-profile(5)) */
} cr_prof_method;

typedef struct cr_prof_node {
  uint32_t method;       /* 1..nmethods */
  uint32_t parent;       /* node index; 0 when the node is top-level */
  uint32_t tree;         /* index into 'trees' */
  uint32_t child;        /* first child, 0 if none */
  uint32_t next;         /* next sibling, 0 if none */
  uint32_t last;         /* last child (builder's append point) */
  uint64_t calls;
} cr_prof_node;

typedef struct cr_prof_tree {
  const char *thread;    /* thread name (not unique) */
  uint32_t child;        /* first top-level node, 0 if none */
  uint32_t last;         /* last top-level node */
} cr_prof_tree;

/*
** Metrics: what was counted per context. Metric 0 is 'calls' (times the
** context was entered), kept in the nodes themselves; every other metric
** (a numeric <node> attribute such as 'bytecodes' or 'cycles') is a column
** 'mval[k]' indexed by node, 0 where a node does not have it. Values are
** exclusive (the context's own); inclusive values are subtree sums.
*/
#define CR_PROF_MAX_METRICS 16

/*
** The JOP settings of a cross-profile (attributes 'jop-*' of <cct>):
** 'year' 0 when the profile is not one. 'split': blocks end at
** instructions that may throw. 'cache_words' and 'cache_blocks': the run
** simulated JOP's method cache of that size (0: none, every load a
** miss), and charged the misses itself. 'completed': invoke and return
** costs were added (cr_jop_complete), which must happen once. Nodes
** count their normal returns (metric 'returns').
*/
typedef struct cr_prof_jop {
  int year;              /* timing table, 2014 or 2008; 0: none */
  int r, w;              /* memory wait states */
  int software;          /* cycles of a bytecode JOP runs in software */
  int split;             /* --jop-split-exceptions */
  int cache_words, cache_blocks;   /* method cache simulated; 0: none */
  int completed;
} cr_prof_jop;

/*
** What a run's profile says of its trees (attributes of <cct> the runtime
** writes; 0 when absent): their nodes and the bytes they took
** (estimated), the budget in bytes (0: none), the calls counted in fold
** nodes and the distinct methods they were calls of, when the first
** fold happened, when the profile was taken and when the interval it
** covers began (ms since the epoch), and the resets before it; the
** method bodies instrumented as their classes loaded that ran
** interpreted, past HotSpot's limit for compiling a method only once
** instrumented.
*/
typedef struct cr_prof_run {
  uint64_t nodes, bytes, budget, folded_calls, folded_methods;
  uint64_t folding_since, time, interval_start, resets;
  uint64_t huge_interpreted;
} cr_prof_run;

typedef struct cr_profile {
  int version;           /* 1 */
  char mode[32];         /* "cccp", "oracle", ... */
  size_t nmethods;
  cr_prof_method *methods;   /* [1..nmethods] */
  size_t nnodes;
  cr_prof_node *nodes;       /* [1..nnodes] */
  size_t ntrees;
  cr_prof_tree *trees;       /* [0..ntrees-1], in file order */
  size_t nmetrics;           /* 1 + the other metrics, in first-seen order */
  cr_prof_jop jop;           /* JOP settings (cross-profiles) */
  cr_prof_run run;           /* the run's trees (summed by merges) */
  const char *metric[CR_PROF_MAX_METRICS];  /* names; [0] is "calls" */
  uint64_t *mval[CR_PROF_MAX_METRICS];      /* [k][node] for k >= 1 */
  /* private */
  cr_arena *arena;
  size_t capm, capn, capt;
} cr_profile;

/*
** Limits the reader enforces (also make an absurd file fail cleanly).
** 'CR_PROF_MAX_GAP': in a gzip-compressed profile, the bytes of XML
** between two tags at most, so that a small file which inflates to
** endless whitespace, a comment or an attribute value fails early
** (CR_ETOOLARGE) instead of being read for as long as it inflates.
*/
#define CR_PROF_MAX_DEPTH 1000000
#define CR_PROF_MAX_ITEMS 0x7fffffffu
#define CR_PROF_MAX_GAP (16u << 20)
#define CR_PROF_MAX_GAP_TEXT "16 MiB"

/* Value of metric 'k' at 'node'. */
static inline uint64_t cr_profile_value(const cr_profile *p, size_t k,
                                        uint32_t node) {
  return k ? p->mval[k][node] : p->nodes[node].calls;
}

/*
** Read a profile file, plain XML or gzip-compressed (told by the magic
** bytes, not by the name; inflated as a stream, member after member as
** gzip(1) reads them). No network, no DTD (a document with a DOCTYPE is
** refused), no entities but XML's five predefined ones. A <node>
** attribute other than 'method' whose value is an unsigned decimal is a
** metric (at most CR_PROF_MAX_METRICS in all, else CR_ETOOLARGE); other
** unknown attributes are ignored. Unknown elements, text, bad numbers,
** undefined or out-of-order method ids are CR_EFORMAT, and malformed XML
** too; the message then reads "FILE:LINE: what". Corrupt or truncated
** gzip data, or bytes after the last gzip member that are not one, are
** CR_EFORMAT "FILE: corrupt gzip data (why)", "FILE: truncated gzip
** data", "FILE: trailing garbage after gzip data". Another version is
** CR_EUNSUPPORTED. On success '*out' is the caller's (cr_profile_free).
*/
int cr_profile_load(cr_profile **out, const char *path, cr_diag *d);
/* Same, from memory (plain or gzip); 'name' is used in messages. */
int cr_profile_load_memory(cr_profile **out, const char *xml, size_t len,
                           const char *name, cr_diag *d);
void cr_profile_free(cr_profile *p);

/*
** Builder. 'cr_profile_new' makes an empty profile of 'mode'. The add
** functions return the new method id / tree index / node index, or 0 on
** allocation failure ('cr_profile_add_tree' returns -1). 'parent' 0 makes
** a top-level node of 'tree'.
*/
cr_profile *cr_profile_new(const char *mode);
uint32_t cr_profile_add_method(cr_profile *p, const char *cls,
                               const char *name, const char *desc,
                               uint32_t size, int native, int library);
long cr_profile_add_tree(cr_profile *p, const char *thread);
uint32_t cr_profile_add_node(cr_profile *p, uint32_t tree, uint32_t parent,
                             uint32_t method, uint64_t calls);
/*
** Index of metric 'name' (0 for "calls"), added with a zeroed column when
** new; -1 when there are CR_PROF_MAX_METRICS already, memory runs out, or
** 'name' is not a metric name ([A-Za-z_][A-Za-z0-9_.-]*, at most 64 bytes,
** not "method"; the reader ignores attributes named otherwise).
** 'cr_profile_find_metric' only looks (-1 when absent).
*/
int cr_profile_add_metric(cr_profile *p, const char *name);
int cr_profile_find_metric(const cr_profile *p, const char *name);

/*
** Merge 'n' profiles into a new one ('*out', the caller's). Methods are
** identified by class, name and descriptor (flags ORed, largest size
** kept); metrics by name; equal contexts add up. 'how' says what becomes
** of the trees: CR_MERGE_KEEP keeps every tree, CR_MERGE_BY_NAME merges
** the trees of equal thread names (runs of one program), CR_MERGE_ALL
** makes one tree named "all threads". Node order in the result: parents
** before children (creation order). The mode is the inputs' common mode,
** or "merged"; the JOP settings are the inputs' (CR_EUSAGE when they
** differ). CR_ENOMEM, or CR_ETOOLARGE past the limits.
*/
enum { CR_MERGE_KEEP, CR_MERGE_BY_NAME, CR_MERGE_ALL };
int cr_profile_merge(cr_profile **out, const cr_profile *const *in, size_t n,
                     int how, cr_diag *d);

/* Write 'p' as profile XML version 1 (streamed). CR_EIO on write errors. */
int cr_profile_write(const cr_profile *p, FILE *f, cr_diag *d);

/*
** Comparison options.
** 'app_prefix': class-name prefixes of the application ("com/acme/"). When
**   given, only app-visible nodes count: a method of the application, or a
**   library method whose caller is an application method; deeper library
**   nodes are collapsed into the nearest kept ancestor (their own calls are
**   dropped, their children move up). Top-level library nodes (called by
**   the VM, e.g. 'Thread.run') are collapsed too. Runtime-generated
**   classes never count as application classes.
** 'collapse_generated': runtime-generated frames (see cr_profile_generated)
**   are removed, their children moved up to their parent; for visibility
**   the caller of such a child is the generated frame's own caller.
** 'library_by_name': with 'app_prefix', library frames are identified by
**   name and descriptor only, not by class (app mode names a call-site
**   node by the symbolic reference, 'java/util/List.add', where an oracle
**   sees the resolved 'java/util/ArrayList.add').
** Threads are merged: a context is the sequence of frames from the root.
*/
typedef struct cr_cmp_opts {
  const char *const *app_prefix;
  size_t napp;
  int collapse_generated;
  int library_by_name;
  int hide_vm_upcalls;   /* see cr_profile_vm_upcall */
  const char *const *hide;  /* frames "pkg/Cls.name" hidden on both sides */
  size_t nhide;             /*   like VM upcalls (an agent's blind spots) */
  const char *const *prune; /* frames left out on both sides with all the */
  size_t nprune;            /*   calls under them (same forms as 'hide') */
  const char *const *prune_root; /* the same, only where called at a */
  size_t nprune_root;            /*   thread's root */
} cr_cmp_opts;

/* One context whose calls differ. 'path' is "frame > frame > ...", frames
** written "pkg/Cls.name(desc)". */
typedef struct cr_cmp_diff {
  char *path;
  uint64_t a, b;         /* calls in A and B */
  uint8_t in_a, in_b;    /* the context occurs in A / in B */
  uint8_t leaf_app;      /* the last frame is an application method */
} cr_cmp_diff;

typedef struct cr_cmp_result {
  double overlap;        /* percent, 0..100 */
  uint64_t total_a, total_b;       /* calls counted */
  size_t contexts_a, contexts_b;   /* contexts with calls */
  size_t common;                   /* contexts in both */
  size_t differing;                /* contexts with a != b */
  size_t ndiff;
  cr_cmp_diff *diff;     /* the 'top' largest |a - b|, largest first */
} cr_cmp_result;

/*
** Compare 'a' and 'b'. The overlap percentage is the one of the CCCP paper
** (section 6.1, after Arnold and Ryder, PLDI 2001): with rc(C, X) =
** calls(C) / total calls of X, overlap(A, B) = 100 * sum over contexts C
** present in both of min(rc(C, A), rc(C, B)). Two empty profiles overlap
** 100%, an empty and a non-empty one 0%. Fills '*out' (free with
** cr_cmp_result_free); 'top' bounds the differences listed (SIZE_MAX for
** all). CR_ENOMEM on allocation failure.
*/
int cr_profile_compare(cr_cmp_result *out, const cr_profile *a,
                       const cr_profile *b, const cr_cmp_opts *o,
                       size_t top, cr_diag *d);
void cr_cmp_result_free(cr_cmp_result *r);

/*
** 1 if 'cls' is a runtime-generated class or a forwarding internal:
** hidden lambda classes ("$$Lambda"), LambdaForms ("LambdaForm$"),
** 'java/lang/invoke/' classes except 'MethodHandleNatives' (the VM's
** upcall entry), reflection accessors ('jdk/internal/reflect/Generated*',
** 'jdk/internal/reflect/DirectMethodHandleAccessor*') and proxies
** ("$Proxy").
*/
int cr_profile_generated(const char *cls);

/*
** 1 if method 'name' of 'cls' is one the JVM calls on its own, with no
** invoke bytecode in the calling frame, so that an instrumented run
** cannot see it where an agent does: class loading
** ('ClassLoader.loadClass', 'findNative', ...), method-handle and
** call-site linkage ('MethodHandleNatives'), class initializers, and
** the constructors of the exceptions bytecodes throw implicitly
** (NullPointerException, ...). With 'hide_vm_upcalls' such a frame of a
** library class counts as library internals on both sides (application
** frames under it attach to its caller). Application class initializers
** stay: the rewriter makes them visible.
*/
int cr_profile_vm_upcall(const char *cls, const char *name);

/*
** Expectations: a text file of lines "CALLS FRAME > FRAME > ...", '#'
** comments and blank lines ignored, FRAME written "pkg/Cls.name(desc)".
** Every prefix of a listed path must be listed itself. Read into a profile
** (mode "expect") with one tree; CR_EFORMAT with the line on bad input.
*/
int cr_profile_load_expect(cr_profile **out, const char *path, cr_diag *d);

#endif
