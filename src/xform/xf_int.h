/*
** xf_int.h -- internals shared by the files of the CCCP instrumentation:
** the runtime's names, the state of a class in flight, basic blocks of a
** body for the block counters (JOP cycles, bytecodes, allocations), and
** the 'cr_xf__' functions that the files share, by file (cccp.c lists
** the files); each is described where it is defined.
*/
#ifndef CCCP_XF_INT_H
#define CCCP_XF_INT_H

#include "cccp/bytecode.h"
#include "cccp/jop.h"
#include "cccp/xform.h"

#define CC_CLASS "cccp/rt/CC"
#define CC_DESC "Lcccp/rt/CC;"
#define D_ENTER "(Lcccp/rt/CC;I)Lcccp/rt/CC;"
#define D_ENTERV "(Ljava/lang/Object;Lcccp/rt/CC;I)Lcccp/rt/CC;"
#define D_PUBLISHV "(Ljava/lang/Object;Lcccp/rt/CC;I)V"
#define D_ENTERC "(Ljava/lang/Class;Lcccp/rt/CC;I)Lcccp/rt/CC;"
#define D_OWNS "(Ljava/lang/Object;I)Z"
#define D_COUNT "(Lcccp/rt/CC;I)V"
#define D_EVENT "(Lcccp/rt/CC;)V"
#define D_GET "()Lcccp/rt/CC;"
#define D_SET "(Lcccp/rt/CC;)Lcccp/rt/CC;"
#define D_REGISTER \
  "(Ljava/lang/String;Ljava/lang/String;Ljava/lang/String;II)I"
#define D_MID                                                              \
  "(Ljava/lang/invoke/MethodHandles$Lookup;Ljava/lang/String;"             \
  "Ljava/lang/Class;Ljava/lang/String;Ljava/lang/String;"                  \
  "Ljava/lang/String;II)I"

enum {                          /* access flags (JVMS 4.1, 4.6) */
  ACC_PUBLIC = 0x0001, ACC_PRIVATE = 0x0002, ACC_PROTECTED = 0x0004,
  ACC_STATIC = 0x0008, ACC_FINAL = 0x0010, ACC_SYNCHRONIZED = 0x0020,
  ACC_BRIDGE = 0x0040, ACC_VARARGS = 0x0080, ACC_NATIVE = 0x0100,
  ACC_INTERFACE = 0x0200, ACC_ABSTRACT = 0x0400, ACC_SYNTHETIC = 0x1000,
  ACC_ENUM = 0x4000, ACC_MODULE = 0x8000,
  ACC_TRANSIENT = 0x0080        /* fields */
};

/* One method id used by the class: its key and where it is loaded from. */
typedef struct xf_mid {
  const char *cls, *name, *desc;
  uint32_t hash;            /* of the three, for 'xf.midtab' */
  uint32_t size;
  int flags;
  int idx;                  /* Dynamic entry, or Fieldref (0: none) */
  uint32_t fixed;           /* JDK mode: the fixed id (idx 0), or 0 */
} xf_mid;

/* A reference (Class, Fieldref or Methodref) whose use in this class
** may initialise another class: 'guard' is the Fieldref of this class's
** flag "done once" (0: no flag, in an interface), or -1 when no
** instrumented '<clinit>' can run. Per reference, not per class: which
** class a field or method reference initialises depends on where the
** member is declared. */
struct xf_initg {
  int ref;
  int guard;
};

/* The line of a twin's forwarding block ('cr_xf__emit_dispatch') and of a
** delegating twin ('cr_xf__delegate'): no source line is 65535 in practice, and
** the agent drops a stack frame at this line in an instrumented method
** (runtime-java/agent). */
#define FORWARD_LINE 65535

/* Marks in 'cr_insn.aux' for 'cr_xf__compact_resets'. */
enum { AUX_READS = 1, AUX_DIRTIES = 2 };

/* How a body is instrumented. */
enum { ESI, OSI };

/* What the call sites of one pool reference learnt, for the next site
** with that reference (every body of a class has its own copy of them). */
typedef struct xf_memo {
  const cr_hmethod *t;      /* 'cr_hier_site''s target */
  int32_t edit;             /* JDK mode: the redirect rule, -1 none */
  uint32_t mid;             /* the callee's id in 'mids' + 1, 0: not
                               asked ('site_mid') */
  uint16_t twin;            /* the reference to the twin, 0: not made */
  uint8_t asked;            /* 'esi' and 't' are known */
  uint8_t esi;              /* its answer */
  uint8_t edit_asked;       /* 'edit' is known */
} xf_memo;

/*
** A method's two bodies (its ESI twin, then its own OSI body) differ only
** in their entry code, the twin's owner check and, when the original
** has no local past its parameters, the slots of the new locals (one
** higher in the twin): the rest, decoded and with its call sites
** rewritten, is made once. 'build' copies the twin's body as built for
** the original method; the OSI build replaces the twin's entry and owner
** check by its own entry. Not for the compact form, a twin that locks
** by itself, or block counters (their code is spread over the body).
*/
typedef struct xf_share {
  cr_member *m;             /* the original: copy the twin for it */
  cr_body *b;               /* the copy, or NULL */
  cr_insn *first, *pend;    /* the original's first node; the twin's
                               entry code's last, in the copy */
  cr_insn *fwd;             /* the owner check's forwarding block, or
                               NULL */
  uint32_t base;            /* the twin's first new local */
  uint32_t nsites[3];       /* the sites the twin's body counted */
} xf_share;

/* The state of one class in flight. */
typedef struct xf {
  cr_class *c;
  cr_arena *a;
  cr_xf_opts *o;
  cr_diag *d;
  const char *name;         /* this class */
  int iface;                /* an interface */
  int condy;                /* version >= 63: ids by ldc of a Dynamic */
  int jdk;                  /* a class of the instrumented JDK: fixed
                               ids only, nothing registered at run time */
  int readers;              /* app mode: the slot's readers put it back
                               ('reader_exits'), call sites only publish */
  cr_an *an;
  const cr_typeinfo *inner; /* the caller's typeinfo, or NULL */
  cr_typeinfo ti;           /* 'inner' plus cccp/rt/CC */
  cr_an_env env;
  int r_enter, r_enterv, r_get, r_set, r_register;  /* Methodrefs */
  int r_owns, r_getclass, r_restore, r_publishv, r_enterc;
  int site_cls;         /* the class constant of a static or special call
                           into a class the hierarchy does not know, whose
                           node CC.enterc makes (0: none) */
  int r_cycles, r_bytecodes, r_allocs;  /* block counters */
  int r_returned, r_caught;                /* JOP method-cache events */
  int r_returned2;                         /* CC.returned(CC, CC) */
  uint32_t nunsup;          /* bytecodes JOP cannot run, this class */
  int tally;                /* count them in the body being instrumented
                               (one of a method's two bodies) */
  int code_name;            /* Utf8 "Code" */
  xf_mid *mids;
  uint32_t nmids, cmids;
  uint32_t *midtab;         /* 'mids' by hash: index + 1, 0 empty */
  uint32_t midmask;         /* table size - 1, 0 before the first */
  xf_memo *memo;            /* by pool index, below 'nmemo' */
  uint32_t nmemo;
  cr_member **newm;         /* methods to append, in order */
  uint32_t nnewm, cnewm;
  cr_member *newf;          /* fields to append */
  uint32_t nnewf, cnewf;
  cr_bsm *bsms;             /* bootstrap methods to append */
  uint32_t nbsms, cbsms, bsm_base;
  struct xf_initg *inits;   /* classes this one may initialise */
  uint32_t ninits, cinits;
  int in_init;              /* instrumenting a constructor */
  int compact;              /* the sites being rewritten are in the
                               compact part of a body
                               ('cr_xf__instrument') */
  int publish;              /* ... and only publish their node ('readers',
                               not in a compact body) */
  int bumped;               /* version raised to 52 (an old interface) */
  int err;                  /* first fatal error (pool full, OOM) */
  xf_share sh;              /* the method's twin, for its own body */
} xf;

/* cccp.c: the class in flight: its queue of new methods, its warnings */
cr_attr *cr_xf__stub_code_attr(xf *x);
cr_member *cr_xf__new_method(xf *x, uint16_t flags, uint16_t name,
                             const char *desc, const cr_attr *code,
                             const cr_member *like);
void cr_xf__warn(xf *x, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* plan.c: what becomes of each method */
int cr_xf__do_method(xf *x, uint32_t k);

/* twin.c: twins and wrappers that are not instrumented copies */
uint16_t cr_xf__twin_flags(xf *x, uint16_t acc);
int cr_xf__caller_sensitive(xf *x, cr_member *tw);
cr_attr *cr_xf__copy_code_attr(xf *x, uint32_t k);
int cr_xf__delegate(xf *x, cr_member *tw, const cr_member *orig,
                    const char *name, const char *desc, int virt, uint32_t size,
                    int flags, cr_diag *md);
int cr_xf__fallback(xf *x, cr_member *orig, uint16_t name_idx, const char *name,
                    const char *desc, const char *tdesc, const cr_diag *why);
int cr_xf__n2b(xf *x, cr_member *m, const char *name, const char *desc,
               const char *tdesc, cr_diag *md);

/* body.c: instrumented bodies */
int cr_xf__slot_read(xf *x, const char *name, const char *desc, int stat);
int cr_xf__instrument(xf *x, cr_member *m, int how, const char *name,
                      const char *desc, cr_diag *md);

/* site.c: call sites */
void cr_xf__rewrite_site(xf *x, cr_body *b, cr_insn *i, int ccl, int prev);
void cr_xf__wrap_site(xf *x, cr_body *b, cr_insn *i, int ccl, int prev,
                      const xf_mid *node, int nohandler, const char *spill);

/* clinit.c: instructions that may initialise an instrumented class */
const char *cr_xf__own_super(const xf *x);
void cr_xf__init_site(xf *x, cr_body *b, cr_insn *i, int ccl, int prev);
int cr_xf__may_init(const cr_insn *i);

/* dispatch.c: the owner check, a synchronized twin's monitor */
int cr_xf__overridable(xf *x, uint16_t cls_acc, uint16_t acc,
                       const char *name);
void cr_xf__emit_dispatch(xf *x, cr_body *b, cr_insn *at, const char *name,
                          const char *desc, const xf_mid *me, int p, int prev);
void cr_xf__emit_lock_copy(xf *x, cr_body *b, cr_insn *at, int lk);
cr_insn *cr_xf__emit_lock(xf *x, cr_body *b, cr_insn *at, int lk);
void cr_xf__emit_unlock(xf *x, cr_body *b, cr_insn *locked, cr_insn *tail,
                        int lk);

/* compact.c: the compact form */
int cr_xf__self_handlers(xf *x, cr_body *b, uint8_t **self);
void cr_xf__compact_resets(xf *x, cr_body *b, cr_insn *cstart, cr_insn *tail,
                           int ccl);
void cr_xf__compact_code(xf *x, cr_body *b, cr_insn *cstart, cr_insn *tail,
                         int ccl, int prev, int saved, uint32_t norig,
                         const uint8_t *self);

/* blocks.c: the block counters */

/* One basic block: its first instruction and what it adds when it runs. */
typedef struct xf_block {
  cr_insn *lead;            /* first instruction (not a label) */
  uint32_t cycles;          /* JOP cost of its bytecodes (0 without model) */
  uint32_t bytecodes;       /* instructions */
  uint32_t allocs;          /* new, newarray, anewarray, multianewarray */
  uint8_t ret;              /* ends with a return instruction */
  uint8_t handler;          /* starts an exception handler */
} xf_block;

/*
** The basic blocks of 'b', as decoded (before any instruction is added):
** a block starts at the first instruction, at each target of a branch,
** switch or exception handler, and after each branch, switch, return,
** athrow, jsr or ret; with 'split' also after each instruction that may
** throw (invokes, field and array accesses, allocations, athrow, integer
** division, checkcast, monitors), so that a block's counts are exact
** even when exceptions fly. Costs come from the instructions' original
** bytes (a 'wide' instruction costs as the instruction it widens); 'm'
** may be NULL.
** '*nunsup' counts instructions JOP cannot run. Blocks in '*out' (arena
** 'a'), '*n' of them. CR_ENOMEM.
*/
int cr_xf_blocks(const cr_body *b, const cr_jop_model *m, int split,
                 cr_arena *a, xf_block **out, uint32_t *n, uint32_t *nunsup);
int cr_xf__counting(const xf *x);
void cr_xf__counters(xf *x, cr_body *b, const xf_block *bl, uint32_t nbl,
                     int ccl);

/* mid.c: method ids */
xf_mid *cr_xf__get_mid(xf *x, const char *cls, const char *name,
                       const char *desc, uint32_t size, int flags);
void cr_xf__emit_mid(xf *x, cr_body *b, cr_insn *at, const xf_mid *m);
void cr_xf__emit_own_mid(xf *x, cr_body *b, cr_insn *at, const xf_mid *m);
int cr_xf__init_mids(xf *x);

/* jdk.c: JDK mode */
int cr_xf__jdk_redirect(xf *x, cr_body *b, cr_insn *i, xf_memo *sm,
                        const char *owner, const char *name, const char *desc,
                        int ccl, int prev);
int cr_xf__thread_entry(const xf *x, const char *name, const char *desc);
void cr_xf__jdk_hooks(xf *x);

/* suid.c: the serialVersionUID pinned */
int cr_xf__pin_suid(xf *x);

/* emit.c: the pieces code is built from */
int cr_xf__oom(xf *x);
int cr_xf__cpi(xf *x, int r);
int cr_xf__grow(xf *x, void **v, uint32_t *cap, uint32_t need, size_t sz);
cr_insn *cr_xf__emit(xf *x, cr_body *b, cr_insn *at, unsigned op, int32_t a);
cr_insn *cr_xf__emit_label(xf *x, cr_body *b, cr_insn *at);
void cr_xf__emit_int(xf *x, cr_body *b, cr_insn *at, int32_t v);
void cr_xf__emit_args(xf *x, cr_body *b, cr_insn *at, const char *desc,
                      int slot);
void cr_xf__spill_args(xf *x, cr_body *b, cr_insn *at, const char *desc,
                       int slot, int store);
unsigned cr_xf__ret_op(const char *desc);
int cr_xf__arg_slots(const char *desc);
int cr_xf__own_ref(xf *x, const char *name, const char *desc);
int cr_xf__commit(xf *x, cr_body *b, cr_diag *md);
void cr_xf__emit_restore(xf *x, cr_body *b, cr_insn *at, int prev);
void cr_xf__emit_putback(xf *x, cr_body *b, cr_insn *at, int s);
void cr_xf__emit_exit(xf *x, cr_body *b, cr_insn *at, int s);
void cr_xf__emit_rethrow(xf *x, cr_body *b, cr_insn *at, int prev,
                         cr_insn *start, cr_insn *end, int back);

#endif
