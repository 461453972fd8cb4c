/*
** hier.h -- the class hierarchy database of a session: classes of the
** inputs (instrumented) and of the class path (library), JVMS method
** resolution (5.4.3.3, 5.4.3.4) and selection (5.4.6), the
** overloadability / wrappability analysis (DESIGN.md 1, CCCP paper 4.3),
** the per-method report, and summary files.
**
** Life cycle (the CLI calls, in this order):
**   cr_hier_new
**   cr_hier_add_class (any number, from several threads) and/or
**     cr_hier_load (a summary written by cr_hier_save)
**   cr_hier_link      supertypes, cycle check, missing types (1 thread)
**   cr_hier_analyze   seeds from a policy, rules to a fixed point
**   queries: cr_hier_typeinfo, cr_hier_method, cr_hier_site, ...
**     (read-only, any number of threads at once)
**   cr_hier_write_report / cr_hier_save / cr_hier_summary
**   cr_hier_free
** Adding classes after 'cr_hier_link' is CR_EUSAGE.
**
** Memory: everything lives in the hierarchy's own session arena; names are
** interned, so two names are equal iff their pointers are. The 'cr_class'
** models given to 'cr_hier_add_class' are copied from and may be freed at
** once. 'cr_hier', 'cr_hclass' and 'cr_hmethod' are opaque; pointers to
** classes and methods live as long as the hierarchy.
*/
#ifndef CCCP_HIER_H
#define CCCP_HIER_H

#include <stdint.h>
#include <stdio.h>

#include "cccp/classfile.h"
#include "cccp/policy.h"
#include "cccp/typeinfo.h"
#include "cccp/util.h"

typedef struct cr_hier cr_hier;
typedef struct cr_hclass cr_hclass;
typedef struct cr_hmethod cr_hmethod;

int cr_hier_new(cr_hier **out, cr_diag *d);
void cr_hier_free(cr_hier *h);

/*
** Add class 'c'. 'kind' is a set of CR_HIER_* bits: CR_HIER_INSTRUMENTED
** for a class of the inputs (it will be rewritten), none for a class-path
** or --jdk-only class (library: never rewritten, so all its methods are
** non-overloadable by nature); CR_HIER_JDK_MODULE for a class that a
** module of the target JDK defines (read from its run-time image or a
** jmod). 'order' decides between two definitions of one name,
** deterministically whatever the thread timing: a JDK module's definition
** beats any other (the JVM loads it, JEP 261), then an instrumented one
** beats a library one, then the lower 'order' wins (the CLI passes input
** index << 32 | entry index). module-info classes are ignored.
** Thread-safe: the copy into the hierarchy is serialised on an internal
** mutex (it is cheap next to parsing, which the caller does outside).
** CR_ENOMEM, CR_EFORMAT for a class without a name, CR_EUSAGE after
** 'cr_hier_link'.
*/
enum {
  CR_HIER_INSTRUMENTED = 1u << 0,   /* of the inputs: rewritten */
  CR_HIER_JDK_MODULE = 1u << 1      /* defined by a module of the JDK */
};
int cr_hier_add_class(cr_hier *h, cr_class *c, unsigned kind,
                      uint64_t order, cr_diag *d);

/*
** Link the hierarchy: resolve supertypes, record missing ones, detect
** cycles, compute superinterface closures, and find the packages of the
** JDK's modules: a class of any other origin in such a package is never
** loaded (on JDK 9 and later a package belongs to one module, and class
** path copies of it are ignored), so it becomes a library class (see
** 'cr_hclass_in_jdk_package'). A cycle (possible only in
** corrupt inputs) is CR_EFORMAT naming the classes on it; the links that
** close cycles are then cut (as if the supertype were missing), so a
** lenient caller may go on. Missing supertypes are not errors: see
** 'cr_hier_missing'. Call once, single-threaded.
*/
int cr_hier_link(cr_hier *h, cr_diag *d);
/*
** After 'cr_hier_link' found a cycle: the first class on it (as the
** message lists them) that came from 'cr_hier_add_class' rather than a
** summary, so that the caller can name the entry it was read from (see
** 'cr_hclass_order'); NULL if there is none.
*/
const cr_hclass *cr_hier_cycle_class(const cr_hier *h);

/* Names of missing supertypes (sorted), and the first class (by name)
** that refers to each. Valid after 'cr_hier_link'. */
size_t cr_hier_missing_count(const cr_hier *h);
const char *cr_hier_missing(const cr_hier *h, size_t i,
                            const char **referrer);

/*
** Run the analysis with policy 'p' (NULL: no seeds at all; the built-in
** policy comes from 'cr_policy_new(&p, 1, d)'). May be called again with
** another policy. Deterministic: the same classes and policy give the same
** answers and reasons whatever the order of 'cr_hier_add_class' calls.
*/
int cr_hier_analyze(cr_hier *h, const cr_policy *p, cr_diag *d);

/*
** Add class 'c' to a linked and analysed hierarchy and analyse it, with
** the policy of the analysis: the load-time rewriter's way to know a
** class defined while a program runs (its supertypes must be known to
** be instrumented: see 'cr_hclass_complete'). Its answers are those
** 'cr_hier_analyze' gives with it among the classes; the other classes'
** answers change only as the rules say. The class to '*out'. CR_EUSAGE
** for a class of a name the hierarchy knows, or before the analysis.
*/
int cr_hier_extend(cr_hier *h, cr_class *c, unsigned kind, uint64_t order,
                   const cr_policy *p, const cr_hclass **out, cr_diag *d);

/* ------------------------------------------------------------- queries */

/* Every class, sorted by name (after 'cr_hier_link'). */
size_t cr_hier_class_count(const cr_hier *h);
const cr_hclass *cr_hier_class_at(const cr_hier *h, size_t i);
/* Class 'name' (internal form), or NULL if unknown. */
const cr_hclass *cr_hier_class(const cr_hier *h, const char *name);
const char *cr_hclass_name(const cr_hclass *c);
const char *cr_hclass_super(const cr_hclass *c);  /* NULL for Object */
uint16_t cr_hclass_access(const cr_hclass *c);
int cr_hclass_instrumented(const cr_hclass *c);
/* 1 if the class declares a '<clinit>' (kept as a flag: call sites ask
** for every class of a chain). */
int cr_hclass_has_clinit(const cr_hclass *c);
/* 1 if a module of the JDK defines it (CR_HIER_JDK_MODULE). */
int cr_hclass_jdk_module(const cr_hclass *c);
/* 1 if it is not a JDK module's class but lies in a package that a JDK
** module defines classes in: the JVM never loads it (after link). */
int cr_hclass_in_jdk_package(const cr_hclass *c);
/*
** 1 if the package of class 'name' (internal form, "javax/xml/Foo") is one
** in which a module of the JDK defines classes, 0 if not (or before
** 'cr_hier_link'). Read-only, thread-safe.
*/
int cr_hier_jdk_package(const cr_hier *h, const char *name);
/* The 'order' it was added with (see 'cr_hier_add_class'). */
uint64_t cr_hclass_order(const cr_hclass *c);
/*
** 1 if another definition of its name (not a JDK module's) was added that
** the hierarchy hides and that differs from it in access, supertypes or
** method signatures (after link). The JVM loads whichever comes first on
** the class path, so no call site resolving through it gets the twin
** protocol (see 'cr_hier_site').
*/
int cr_hclass_redefined(const cr_hclass *c);
/*
** 1 if resolution from class 'cls' may pass a redefined class: 'cls', a
** superclass or a superinterface of it (after link). Read-only.
*/
int cr_hier_redefined_path(const cr_hier *h, const char *cls);
/*
** Each hidden instrumented definition that differs from the kept
** instrumented one, in class-name order: 'fn' (may be NULL) gets the name,
** the input of the kept definition and that of the hidden one (their
** 'order >> 32'). Returns how many. After 'cr_hier_link'.
*/
typedef void (*cr_hier_redef_fn)(void *ctx, const char *name,
                                 uint32_t kept_input, uint32_t other_input);
size_t cr_hier_each_redefined(const cr_hier *h, cr_hier_redef_fn fn,
                              void *ctx);
/* 1 if every supertype (transitively) is known. */
int cr_hclass_complete(const cr_hclass *c);
/* Every known superinterface, transitively, including those of the
** superclasses (after 'cr_hier_link'). */
uint32_t cr_hclass_all_iface_count(const cr_hclass *c);
const cr_hclass *cr_hclass_all_iface_at(const cr_hclass *c, uint32_t i);
uint32_t cr_hclass_method_count(const cr_hclass *c);
/* Declared method 'i' in class-file order. */
const cr_hmethod *cr_hclass_method_at(const cr_hclass *c, uint32_t i);

/*
** JDK mode: the fixed method id of 'm' when its class is a class of a JDK
** module and the hierarchy holds instrumented ones (after link), else 0. Ids are 1..count, dense, in
** name order of such classes and class-file order of their methods, so a
** summary of the instrumented JDK gives the same ids to the same methods
** whatever else is added; the runtime numbers other methods after them.
*/
uint32_t cr_hier_mid(const cr_hmethod *m);
uint32_t cr_hier_mid_count(const cr_hier *h);

/*
** Colours for the method ids (colour.c): record the distinct methods one
** body calls (any number of bodies, from several threads, after
** 'cr_hier_analyze'), then colour once: methods one body calls get
** distinct colours where eight allow. 'cr_hmethod_colour' is the
** colour, 1..8 (the runtime makes colour - 1 its id's low three bits),
** or 0 for a method no recorded body calls with another. A body of more
** than CR_HIER_COLOUR_BODY_MAX callees adds nothing: its square would
** dominate the run, and one node meets few of them.
*/
#define CR_HIER_COLOUR_BODY_MAX 1024
int cr_hier_colour_body(cr_hier *h, const cr_hmethod *const *callees,
                        size_t n, cr_diag *d);
int cr_hier_colour(cr_hier *h, cr_diag *d);
unsigned cr_hmethod_colour(const cr_hmethod *m);

/* Method 'name''desc' declared in class 'cls', or NULL. */
const cr_hmethod *cr_hier_method(const cr_hier *h, const char *cls,
                                 const char *name, const char *desc);
const cr_hclass *cr_hmethod_class(const cr_hmethod *m);
const char *cr_hmethod_name(const cr_hmethod *m);
const char *cr_hmethod_desc(const cr_hmethod *m);
uint16_t cr_hmethod_access(const cr_hmethod *m);

/* Facts about a method ('cr_hmethod_flags'). The annotation bits cover
** both the JDK 8 and the JDK 9+ names of each annotation. */
enum {
  CR_HM_NONOVL = 1u << 0,      /* non-overloadable (after analysis) */
  CR_HM_NONWRAP = 1u << 1,     /* non-wrappable (after analysis) */
  CR_HM_VIRTUAL = 1u << 2,     /* not static/private/<init>/<clinit> */
  CR_HM_CALLER_SENSITIVE = 1u << 3, /* @CallerSensitive */
  CR_HM_POLYSIG = 1u << 4,     /* @PolymorphicSignature or JVMS 2.9.3 */
  CR_HM_INTRINSIC = 1u << 5,   /* @IntrinsicCandidate (9-15: @HotSpot..) */
  CR_HM_FORCEINLINE = 1u << 6, /* @ForceInline */
  CR_HM_HIDDEN = 1u << 7,      /* @Hidden (8: @LambdaForm.Hidden) */
  CR_HM_LFCOMPILED = 1u << 8,  /* @LambdaForm.Compiled */
  CR_HM_CS_ADAPTER = 1u << 9,  /* @CallerSensitiveAdapter (19+) */
  CR_HM_LIBRARY = 1u << 10,    /* declared in a library class */
  CR_HM_LEAF = 1u << 11        /* a library method that runs no code of an
                                  instrumented class (after link, see
                                  src/hier/leaf.c) */
};
unsigned cr_hmethod_flags(const cr_hmethod *m);
int cr_hmethod_overloadable(const cr_hmethod *m);
int cr_hmethod_wrappable(const cr_hmethod *m);

/*
** Why 'm' is non-overloadable ('what' 0) or non-wrappable ('what' 1), as
** one line into 'buf': the seed ("seed object-virtual"), "library", an
** implication, or a rule with the class and method it came from, followed
** by the reason of that method, e.g.
**   "rule 3 via java/util/Collections$ReverseComparator inheriting
**    java/lang/Object.equals(Ljava/lang/Object;)Z < seed object-virtual".
** Empty when the answer is yes. Returns 'buf'.
*/
char *cr_hier_reason(const cr_hmethod *m, int what, char *buf, size_t n);

/*
** Why library method 'm' of 'h' (linked) is not a leaf (CR_HM_LEAF), as
** one line into 'buf', e.g. "it calls java/lang/StringUTF16.getChar([BI)C,
** which is not a leaf" (the first such call; --explain that method to
** follow the chain) or "it makes an interface call". Empty for a leaf.
** Returns 'buf'.
*/
char *cr_hier_leaf_reason(const cr_hier *h, const cr_hmethod *m, char *buf,
                          size_t n);

/*
** A virtual or interface call of instrumented code, which the runtime
** resolves by its receiver's class (CC.enterv), names method 'm'.
** Thread-safe: the rewriter's workers call it on a linked hierarchy.
*/
void cr_hier_note_virtual_site(const cr_hmethod *m);

/*
** Calls 'fn' on each leaf (CR_HM_LEAF) that such a call may select: a
** method of a JDK module, neither static, private nor a constructor, with
** the name and descriptor of a method 'cr_hier_note_virtual_site' was
** given. In class name order, then class-file order. Returns how many.
** Call after the calls to 'cr_hier_note_virtual_site' have returned.
*/
size_t cr_hier_virtual_leaves(const cr_hier *h,
                              void (*fn)(void *ctx, const cr_hmethod *m),
                              void *ctx);

/*
** JVMS 5.4.3.3 (class 'cls' not an interface) or 5.4.3.4 (interface):
** the method a symbolic reference resolves to, or NULL if it does not
** resolve. Array classes ("[I") resolve as java/lang/Object. When the
** search meets a missing supertype before finding the method,
** '*unknown' (if not NULL) is set to 1 and NULL returned.
*/
const cr_hmethod *cr_hier_resolve(const cr_hier *h, const char *cls,
                                  const char *name, const char *desc,
                                  int *unknown);
/*
** JVMS 5.4.6: the method invokevirtual/invokeinterface selects for an
** object of class 'cls' (not an interface); when only abstract
** superinterface methods are maximally specific, the first of them (the
** call would fail, but the slot exists for the rules); NULL when there is
** none, several default methods compete, or the superclass chain is
** unknown above the classes searched.
*/
const cr_hmethod *cr_hier_select(const cr_hier *h, const char *cls,
                                 const char *name, const char *desc);

/* Invoke kinds for 'cr_hier_site'. */
enum {
  CR_SITE_VIRTUAL, CR_SITE_INTERFACE, CR_SITE_SPECIAL, CR_SITE_STATIC
};
/*
** May a call site with static receiver/owner 'cls', 'name', 'desc' and
** invoke 'kind' pass the caller's node as the extra argument? 1 if the
** reference resolves and every method it can reach is overloadable (the
** resolved method itself for static/special/private; for virtual and
** interface calls the rules guarantee that the resolved method is
** non-overloadable as soon as any overrider in a known subtype is); 0 if
** the site must use the thread-local protocol (including unresolvable
** and unknown references, and references whose resolution may pass a
** class that two inputs define differently: see 'cr_hclass_redefined').
** '*target' (if not NULL) gets the resolved
** method or NULL. Read-only, thread-safe.
*/
int cr_hier_site(const cr_hier *h, const char *cls, const char *name,
                 const char *desc, int kind, const cr_hmethod **target);
/*
** The same answer computed the slow way, by selecting the target in every
** known subtype of 'cls' (a test oracle for 'cr_hier_site'; O(subtypes)).
*/
int cr_hier_site_exhaustive(const cr_hier *h, const char *cls,
                            const char *name, const char *desc, int kind);

/* The frame computation's hook (typeinfo.h); valid after 'cr_hier_link',
** thread-safe, lives as long as 'h'. */
cr_typeinfo cr_hier_typeinfo(const cr_hier *h);

/*
** The hook as the classes of one input see it: where input 'input' (the
** 'order >> 32' it added its classes with) defines a class that the
** hierarchy keeps another definition of (two inputs naming one class,
** as byte-buddy.jar and byte-buddy-dep.jar do with other supertypes),
** its own definition answers. 'v' is the context the result points to:
** it must outlive it. Transparent.
*/
typedef struct cr_hier_view {
  const cr_hier *h;
  uint32_t input;
} cr_hier_view;
cr_typeinfo cr_hier_typeinfo_input(cr_hier_view *v, const cr_hier *h,
                                   uint32_t input);

/* ------------------------------------------------------------- outputs */

/*
** Write the analysis of every instrumented class, sorted by name:
**   <analysis>
**     <class name=".." super=".." interface="0|1">
**       <method name=".." desc=".." native="0|1" overloadable="yes|no"
**               wrappable="yes|no" reason=".."/>
** CR_EIO on a write error.
*/
int cr_hier_write_report(const cr_hier *h, FILE *f, cr_diag *d);

/* Counts per category, for stderr. Transparent. */
typedef struct cr_hier_stats {
  size_t classes, instrumented, library, interfaces, incomplete;
  size_t methods, virt, natives;
  size_t nonovl, nonwrap;           /* instrumented methods only ... */
  size_t by_seed, by_rule1, by_rule3, by_native_nonwrap, by_implied;
  size_t nonovl_native;             /* non-overloadable natives */
  size_t missing;                   /* missing supertype names */
  size_t conflicts;                 /* summary facts changed by new code */
  size_t coloured;                  /* vertices coloured (colour.c) */
  size_t small_bodies;              /* bodies meeting 2-8 vertices, */
  size_t apart;                     /*   of which all in distinct colours */
} cr_hier_stats;
void cr_hier_stats_get(const cr_hier *h, cr_hier_stats *out);
/* One paragraph of the counts into 'buf' (never fails). */
void cr_hier_summary(const cr_hier *h, char *buf, size_t n);

/*
** Summary files: the hierarchy (classes, supertypes, flags, methods with
** flags and annotations) and the answers, so that an application can be
** analysed against an instrumented JDK without reading it again. Format:
** "CCCPHIER" magic, version, payload length and CRC-32, then a string
** table and the classes (big-endian, see hier_io.c). Classes added with
** input index CR_HIER_EXTERNAL are left out.
**
** 'cr_hier_load' adds the classes of a summary as if by
** 'cr_hier_add_class' (same kind and order as when saved), before
** 'cr_hier_link'. The analysis is then run again over everything, so the
** answers are exactly those of analysing the original inputs together;
** where new classes change an answer the summary recorded (e.g. a class
** path class overriding a method of the instrumented JDK without a twin),
** the change is counted as a conflict ('cr_hier_conflict'). Truncated or
** corrupt files are CR_EFORMAT and add nothing.
*/
/* A file at 'path' that already holds these bytes is left untouched. */
int cr_hier_save(const cr_hier *h, const char *path, cr_diag *d);
/* The same bytes written to stream 'f' (the caller makes the file). */
int cr_hier_save_stream(const cr_hier *h, FILE *f, cr_diag *d);
/* The same with the classes of input CR_HIER_EXTERNAL too: the whole
** hierarchy, for the load-time rewriter, which has no JDK cache. */
int cr_hier_save_whole(const cr_hier *h, FILE *f, cr_diag *d);
/* The same without the JDK's classes at all: neither those of input
** CR_HIER_EXTERNAL nor those a module of the JDK defines (an
** instrumented JDK's summary holds them), for the load-time rewriter,
** which finds them itself. */
int cr_hier_save_app(const cr_hier *h, FILE *f, cr_diag *d);
int cr_hier_load(cr_hier *h, const char *path, cr_diag *d);
/*
** The same from the file's bytes in memory ('path' names them in errors);
** with 'input' >= 0 the classes take that input index (the high half of
** their order) instead of the one saved.
*/
int cr_hier_load_mem(cr_hier *h, const uint8_t *buf, size_t len,
                     const char *path, int64_t input, cr_diag *d);
/* The input index of classes that summaries leave out: a JDK read as a
** library, which every run finds again (the default JDK, its cache). */
#define CR_HIER_EXTERNAL 0xffffffffu
size_t cr_hier_conflict_count(const cr_hier *h);
/* Conflict 'i': the method whose answer changed. */
const cr_hmethod *cr_hier_conflict(const cr_hier *h, size_t i);

#endif
