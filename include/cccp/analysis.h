/*
** analysis.h -- control flow and verification types over the instruction
** IR (JVMS 4.10.1): basic blocks, type inference to a fixpoint, the
** StackMapTable, max_stack/max_locals, and the re-encoding entry point.
**
** Kinds of types. 'cr_an' is opaque (one per class in flight, in the
** class arena: it caches verification types and hierarchy answers).
** 'cr_an_env', 'cr_reencode_opts' and 'cr_xframe' are transparent.
*/
#ifndef CCCP_ANALYSIS_H
#define CCCP_ANALYSIS_H

#include <stdint.h>

#include "cccp/bytecode.h"
#include "cccp/classfile.h"
#include "cccp/typeinfo.h"

/*
** Where the analysis gets the class hierarchy and reports what it lacks.
** Joining two class types walks superclass chains through 'ti' (may be
** NULL: only the class itself is then known). Interfaces join to
** java/lang/Object, as in ASM. A type 'ti' does not know (CR_ENOTFOUND)
** makes the join java/lang/Object, and 'missing' (may be NULL) is called
** with its name, once per class analysed and type; the caller decides
** whether to warn. This is the one documented imprecision: a frame built
** on it may fail verification if the code needs the more specific type.
*/
typedef struct cr_an_env {
  const cr_typeinfo *ti;
  void (*missing)(void *ctx, const char *name);
  void *ctx;
} cr_an_env;

typedef struct cr_an cr_an;

/* A per-class analysis context in 'c->arena'. 'env' must outlive it. */
int cr_an_new(cr_an **out, cr_class *c, const cr_an_env *env, cr_diag *d);
/* Number of distinct types the context had to treat as missing. */
uint32_t cr_an_missing_count(const cr_an *an);

/*
** Compute frames for a laid-out body (after 'cr_body_layout'): type
** inference over the basic blocks, handler frames merged over their
** protected ranges, unreachable code marked 'dead' (and cut out of the
** exception ranges), 'max_stack' and 'max_locals' set. '*smt' gets the
** compactly encoded StackMapTable (NULL when no frame is needed).
** Requires class version >= 50 and no jsr/ret (CR_EUNSUPPORTED).
** CR_EFORMAT with the offset for code that cannot be typed (stack
** underflow, inconsistent stack heights, bad pool references).
*/
int cr_an_frames(cr_an *an, cr_body *b, cr_stackmap **smt, cr_diag *d);

/*
** Finish an edited body: layout, then frames (class version >= 50 without
** jsr/ret; version 50 with jsr/ret gets none, like javac 1.6 output that
** HotSpot checks with the old verifier) or the stack depth (older
** classes), then commit into the Code attribute. On error the method is
** unchanged.
*/
int cr_an_commit(cr_an *an, cr_body *b, cr_diag *d);

/* 'cr_an_commit' for a body that 'cr_body_layout' laid out without error
** and that has not changed since: the layout is not done again. */
int cr_an_commit_laid(cr_an *an, cr_body *b, cr_diag *d);

/* ---------------------------------------------------------- reencoding */

enum {
  /* Test aid: insert "iconst_0; pop" at every basic-block start, put every
  ** branch in its long form and every local access under 'wide'. */
  CR_REENCODE_STRESS = 1u << 0
};

/*
** Options of 'cr_reencode'. 'failed' (may be NULL) hears about each
** method left unchanged because it could not be re-encoded; the diag's
** message names class, method and offset.
*/
typedef struct cr_reencode_opts {
  cr_an_env env;
  unsigned flags;           /* CR_REENCODE_* */
  void (*failed)(void *ctx, const cr_class *c, const cr_member *m,
                 const cr_diag *d);
  void *ctx;                /* for 'failed' */
  uint32_t nok, nfail;      /* out: methods re-encoded / left unchanged */
} cr_reencode_opts;

/*
** Decode every method with code, re-encode it (relocating branches,
** recomputing max_stack, max_locals and the StackMapTable from scratch)
** and write it back into 'c'. A method that fails (CR_ETOOLARGE after
** stress insertions, untypable code) keeps its original code; the others
** are still done. Returns 0, or the first failure's code with its message
** in 'd' (the class is consistent and writable either way).
*/
int cr_reencode(cr_class *c, cr_reencode_opts *o, cr_diag *d);
/* The same with defaults: no callbacks. */
int cr_reencode_class(cr_class *c, cr_arena *a, const cr_typeinfo *ti,
                      unsigned flags, cr_diag *d);
/* One method, with a context from 'cr_an_new'. */
int cr_reencode_method(cr_an *an, cr_member *m, unsigned flags,
                       cr_diag *d);

/* -------------------------------------------------- reading frames back */

/* One stack map frame with its absolute offset and full contents. */
typedef struct cr_xframe {
  uint32_t off;
  uint16_t nlocals, nstack;
  cr_vtype *locals, *stack; /* long/double are one entry, as in the file */
} cr_xframe;

/*
** Expand the StackMapTable 'sm' of method 'm' into full frames (arena of
** 'c'). The implicit initial frame comes from the descriptor (its class
** types are added to the pool when absent). CR_EFORMAT for a chop of
** more locals than there are, or offsets past 65535.
*/
int cr_smt_expand(cr_xframe **out, uint32_t *n, cr_class *c, cr_member *m,
                  const cr_stackmap *sm, cr_diag *d);

#endif
