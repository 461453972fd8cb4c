/*
** xform.h -- the CCCP instrumentation of one class (DESIGN.md 1, CCCP
** paper 4.2-4.4): method variants (N2B, ESI, OSI, B2N) chosen by the
** overloadability analysis, method entries that make the method's CCT
** node, and call sites that pass the caller's node on.
**
** The runtime contract (class 'cccp/rt/CC', shipped as cccp-rt.jar):
**   static CC  enter(CC parent, int mid)   child node (null parent: null)
**   static CC  enterv(Object recv, CC parent, int mid)
**                                          child node of the method that
**                                          'recv' selects (library calls)
**   static void publishv(Object recv, CC parent, int mid)
**                                          app mode: 'enterv', published
**                                          by 'set' unless the method is a
**                                          JDK leaf (cccp.leaves)
**   static CC  get()                       the thread's current node
**   static CC  set(CC node)                store, return the previous one
**   static int register(String cls, String name, String desc, int size,
**                       int flags)         method id
**   static int mid(Lookup, String, Class, cls, name, desc, size, flags)
**                                          condy bootstrap of 'register'
**   static void cycles(CC node, int n)     block counters: add 'n' to the
**   static void bytecodes(CC node, int n)  node's metric (null: nothing)
**   static void allocations(CC node, int n)
**   static void returned(CC node)          JOP: before each return, and
**   static void caught(CC node)            at each exception handler
** Method ids are loaded by 'ldc' of a CONSTANT_Dynamic (class version
** >= 63), else from a static final synthetic int field per id, set by
** 'register' calls at the start of '<clinit>' (added when the class has
** none). A serializable class gets its original default serialVersionUID
** pinned (cr_xf_default_suid); instructions that may initialise another
** instrumented class publish the node the first time they run.
**
** Kinds of types: 'cr_xf_opts' is transparent. Everything the transform
** allocates lives in the class arena.
*/
#ifndef CCCP_XFORM_H
#define CCCP_XFORM_H

#include <stdint.h>

#include "cccp/analysis.h"
#include "cccp/classfile.h"
#include "cccp/hier.h"
#include "cccp/jop.h"

/* Method-id flags, as 'register' takes them. Bits 4-7 carry the
** method's colour ('cr_hmethod_colour'), 0 for none: the runtime gives a
** coloured method an id whose low three bits are the colour less one. */
enum {
  CR_XF_MID_NATIVE = 1,
  CR_XF_MID_LIBRARY = 2,
  CR_XF_MID_APP = 4,
  CR_XF_MID_COLOUR_SHIFT = 4
};

/*
** Options and results of 'cr_xf_cccp'. 'h' is the linked and analysed
** hierarchy the class was added to (required). 'env' gives frame joins
** (its 'ti' is wrapped so that 'cccp/rt/CC' is always known). 'warn'
** (may be NULL) hears about each method left uninstrumented and each
** class skipped, with a one-line message naming class and method.
*/
typedef struct cr_xf_opts {
  const cr_hier *h;
  /* the redirects, thread entries, upcalls, inserted calls and thread
  ** fields to apply (see policy.h), or NULL for none */
  const cr_policy *pol;
  cr_an_env env;
  void (*warn)(void *ctx, const cr_class *c, const char *msg);
  /* 'note' (may be NULL) hears about what is worth saying on request
  ** only: the bytecodes of a class that JOP cannot run */
  void (*note)(void *ctx, const cr_class *c, const char *msg);
  void *ctx;
  /* N2B wrappers (CCCP paper 4.3) for overloadable methods instead of
  ** instrumented copies of their bodies: smaller classes, but one more
  ** frame in stack traces and no owner check on super calls */
  int n2b;
  /* block counters (DESIGN.md 6): with 'jop', each basic block adds its
  ** JOP cost to the current node ('cycles') and each return counts
  ** ('returns'); 'jop_split' ends blocks at instructions that may throw;
  ** 'count_bytecodes' and 'count_allocs' add executed bytecodes and
  ** allocations ('bytecodes', 'allocations') */
  const cr_jop_model *jop;
  int jop_split;
  int count_bytecodes;
  int count_allocs;
  /* a method of at most 8,000 bytes (HotSpot's limit for compiling a
  ** method) whose instrumented code would pass this many bytes gets the
  ** compact form instead (0: 8,000) */
  uint32_t compact_above;
  /* the class or one of its supertypes has two definitions of other
  ** shapes (cr_hier_redefined_path): its methods get no twins. No call
  ** site reaches them through such a class, the analysis answered for
  ** only one of the definitions, and a twin could meet a final twin of
  ** the other one where the original meets the final original (the
  ** IncompatibleClassChangeError would name the twin) */
  int no_twins;
  /* out, added to by each call */
  uint32_t nesi;            /* ESI twins with instrumented bodies */
  uint32_t nosi;            /* methods instrumented in place (OSI) */
  uint32_t nn2b;            /* N2B wrappers */
  uint32_t nb2n;            /* B2N twins of native methods */
  uint32_t nfallback;       /* delegating twins (abstract, failed) */
  uint32_t nsites_esi;      /* call sites passing the node */
  uint32_t nsites_tl;       /* call sites using the thread-local slot */
  uint32_t nsites_node;     /* call sites making the callee's node */
  uint32_t ncompact;        /* bodies given the compact form, which
                               keeps them within HotSpot's limit for
                               compiling a method (8,000 bytes) */
  uint32_t nhuge;           /* bodies that pass that limit only once
                               instrumented */
  uint32_t nhuge_run;       /* those that are no class initialiser */
  uint32_t nhuge_orig;      /* methods past it in the original code */
  uint32_t nfailed;         /* methods left uninstrumented */
  uint32_t nexit;           /* methods given CC.exit (insert-call exit) */
  uint32_t nskipped;        /* classes left unchanged */
  uint32_t nblocks;         /* block counters inserted (a method with a
                               twin has two bodies) */
  uint32_t nunsup;          /* bytecodes JOP cannot run (costed as
                               software) */
  uint32_t nunsup_classes;  /* classes with such bytecodes */
} cr_xf_opts;

/*
** Instrument class 'c' in place (its model, in 'c->arena'). A method
** that cannot be instrumented (over 64 KiB, untypable) keeps its code and
** gets a warning; an overloadable one still gets a twin that delegates to
** it, so callers that pass the node keep working. Classes already
** instrumented (a descriptor mentions cccp/rt/CC) and the runtime's own
** classes are left unchanged with a warning. Returns 0, or CR_ENOMEM /
** CR_ETOOLARGE (constant pool full) / CR_EFORMAT (the '<clinit>' that must
** set the method ids does not decode) with 'd' set: the class must then
** not be written from 'c'.
*/
int cr_xf_cccp(cr_class *c, cr_xf_opts *o, cr_diag *d);
/* 1 if class 'c' was instrumented already (a method descriptor names
** cccp/rt/CC): cr_xf_cccp leaves it unchanged. */
int cr_xf_instrumented_already(const cr_class *c);

/*
** What cr_xf_cccp does with one method of an instrumented class, from
** the analysis's flags 'hflags' (cr_hmethod_flags; CR_HM_NONOVL |
** CR_HM_NONWRAP for a method the hierarchy does not know), its name,
** descriptor, access flags, code (NULL for none) and --n2b-wrappers. For
** CR_XF_KEEP, and for CR_XF_OSI when the method is overloadable by the
** analysis, '*why' says why (a constant string).
*/
typedef enum cr_xf_plan {
  CR_XF_KEEP,           /* left as it is */
  CR_XF_OSI,            /* instrumented in place (no twin) */
  CR_XF_ESI_OSI,        /* an ESI twin, the original instrumented in place */
  CR_XF_ESI_N2B,        /* an ESI twin, the original its N2B wrapper */
  CR_XF_ESI_KEEP,       /* an ESI twin, the original unchanged */
  CR_XF_TWIN_ABSTRACT,  /* abstract: a twin that calls the method */
  CR_XF_B2N             /* native: a B2N twin that calls the method */
} cr_xf_plan;
cr_xf_plan cr_xf_method_plan(unsigned hflags, const char *name,
                             const char *desc, uint16_t access,
                             const cr_code *code, int n2b, const char **why);
/* One line for 'p' ("an ESI twin; the original instrumented in place"). */
const char *cr_xf_plan_text(cr_xf_plan p);

/*
** The default serialVersionUID of class 'c' (Java Object Serialization
** Specification 4.6), as java.io.ObjectStreamClass computes it for the
** class loaded from these bytes by HotSpot (which drops a '<clinit>' that
** is only 'return'). 0, or CR_ENOMEM with 'd' set.
*/
int cr_xf_default_suid(const cr_class *c, int64_t *out, cr_diag *d);

/* The descriptor of the twin of 'desc': "Lcccp/rt/CC;" appended to the
** parameters, in arena 'a' (NULL on OOM or a bad descriptor). */
char *cr_xf_twin_desc(cr_arena *a, const char *desc);

#endif
