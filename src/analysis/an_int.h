/*
** an_int.h -- internals shared by the files of the analysis module: the
** packed verification types and the per-class type table.
*/
#ifndef CCCP_AN_INT_H
#define CCCP_AN_INT_H

#include <string.h>

#include "cccp/analysis.h"

/*
** A verification type while analysing, packed in 32 bits:
**
**   31                              4 3      0
**   +--------------------------------+--------+
**   |            payload             |  kind  |
**   +--------------------------------+--------+
**
** 'kind' is the CR_VT_* item tag. The payload is the type-table id for
** CR_VT_OBJECT and the 'id' of the 'new' instruction for CR_VT_UNINIT,
** else 0. Long and double take two slots, in locals and on the stack:
** the value, then CR_VT_TOP (ASM's layout), so stack operations work on
** slots.
*/
typedef uint32_t vt;
#define VT(kind, payload) ((vt)(payload) << 4 | (vt)(kind))
#define VT_KIND(v) ((v) & 15u)
#define VT_ID(v) ((v) >> 4)
#define VT_TOP VT(CR_VT_TOP, 0)
#define VT_INT VT(CR_VT_INTEGER, 0)
#define VT_FLOAT VT(CR_VT_FLOAT, 0)
#define VT_LONG VT(CR_VT_LONG, 0)
#define VT_DOUBLE VT(CR_VT_DOUBLE, 0)
#define VT_NULL VT(CR_VT_NULL, 0)
#define VT_UTHIS VT(CR_VT_UNINITTHIS, 0)
#define VT_IS2(v) (VT_KIND(v) == CR_VT_LONG || VT_KIND(v) == CR_VT_DOUBLE)

/* One reference type, by its name as in a CONSTANT_Class: internal name
** for classes, descriptor for arrays. */
typedef struct an_type {
  const char *name;     /* modified UTF-8, not NUL-terminated */
  uint32_t len;
  uint32_t hash;
  int32_t super;        /* id, -1 for none; when missing, -1 or the
                           supertype learned from a stated frame */
  uint8_t state;        /* 0 not asked yet, 1 known, 2 missing */
  uint8_t iface;
  uint16_t cp;          /* Class index in the pool, 0 until needed */
} an_type;

/* What the pool entry of an invoke or field instruction means to the
** frame computation, worked out once per pool index. */
typedef struct an_ref {
  vt ty;                /* the field type, or the return type */
  int32_t args;         /* invokes: argument slots */
  uint8_t kind;         /* 0 not known yet, AN_FIELD or AN_INVOKE */
  uint8_t flags;        /* invokes: AN_RETURNS, AN_INIT */
} an_ref;
enum { AN_FIELD = 1, AN_INVOKE = 2 };
enum { AN_RETURNS = 1, AN_INIT = 2 };   /* a value; named <init> */

struct cr_an {
  cr_class *c;
  cr_arena *a;
  const cr_an_env *env;
  an_type *t;
  uint32_t nt, ct;
  uint32_t *h;          /* open addressing: id + 1, 0 empty */
  uint32_t hmask;
  uint32_t *bycp;       /* Class pool index -> id + 1 */
  uint32_t nbycp;
  an_ref *refs;         /* by pool index: member references seen */
  uint32_t nrefs;
  uint32_t nmissing;
  uint32_t guesses;     /* joins that met a type the hierarchy lacks and
                           so answered java/lang/Object (or an array of
                           it) without knowing */
  int scanned;          /* the pool's Class entries are all interned */
  int oom;              /* an allocation failed: types (joins, supertypes)
                           may be wrong, so frames must not be trusted */
  uint32_t object, string, klass, throwable, mtype, mhandle, self;
};

/* Id of the type named 'name'/'len' (not copied: must live as long as the
** class arena); -1 on OOM. */
int32_t cr_an__intern(cr_an *an, const char *name, size_t len);
/* The same, copying the name into the arena when it is new. */
int32_t cr_an__intern_copy(cr_an *an, const char *name, size_t len);
/* Id of the class named by Class entry 'i', or -1 if 'i' is not one. */
int32_t cr_an__class(cr_an *an, uint32_t i);
/* Type of a field descriptor's first type ('len' is its length). */
vt cr_an__desc(cr_an *an, const char *s, size_t len, int *err);
/* The cache slot of member reference 'i' (zeroed when new); NULL on
** OOM. */
an_ref *cr_an__ref(cr_an *an, uint32_t i);
/* Join of two reference type ids (least common superclass); counts a
** guess in 'guesses' when a missing type decided it. */
uint32_t cr_an__join(cr_an *an, uint32_t x, uint32_t y);
/*
** What a stated frame tells about the hierarchy: a value of type 'x' met
** the type 't' that the original StackMapTable states where it flows, so
** 'x' is assignable to 't'. Remembered for a type the hierarchy lacks
** (its first learned supertype, in 'super'; the state stays missing), so
** that later joins climb through it instead of guessing; arrays of
** classes teach about their elements.
*/
void cr_an__learn(cr_an *an, uint32_t x, uint32_t t);
/* Pool Class index of type 'id' (added when absent); <0 on error. */
int cr_an__cpclass(cr_an *an, uint32_t id, cr_diag *d);

/*
** Encode full frames 'fr[1..n)' compactly (same, same_locals_1_stack_item,
** chop, append, full; javac's choices) against 'fr[0]', the implicit
** initial frame, into a new StackMapTable in 'a'. '*out' stays NULL when
** n == 1.
*/
int cr_an__encode(cr_an *an, const cr_xframe *fr, uint32_t n,
                  cr_stackmap **out, cr_arena *a, cr_diag *d);

/* 'cr_an_frames' for a body whose 'cr_body_max_locals' is 'nloc'. */
int cr_an__frames(cr_an *an, cr_body *b, uint32_t nloc, cr_stackmap **smt,
                  cr_diag *d);

/* Set 'aux' = 1 on every label that starts a basic block, 0 elsewhere. */
void cr_an__mark_leaders(cr_body *b);

#endif
