/*
** hier_int.h -- internals of the hierarchy database shared by hier.c
** (building, linking, resolution), analyze.c (the analysis, reasons,
** report) and hier_io.c (summary files).
*/
#ifndef CCCP_HIER_INT_H
#define CCCP_HIER_INT_H

#include <pthread.h>

#include "cccp/hier.h"

/* Access flags (JVMS 4.1, 4.6). */
enum { ACC_PUBLIC = 0x1, ACC_PRIVATE = 0x2, ACC_STATIC = 0x8,
       ACC_FINAL = 0x10, ACC_NATIVE = 0x100, ACC_INTERFACE = 0x200,
       ACC_ABSTRACT = 0x400, ACC_MODULE = 0x8000 };

/*
** An interned string. Names are compared by the address of 's'; the
** symbol of a class name also points to the class.
*/
/* A definition of a class name that another one of higher precedence
** hides (see 'cr_hier_add_class'): what an input-aware typeinfo needs. */
typedef struct hshadow {
  struct hshadow *next;
  const char *super_name;       /* interned; NULL for none */
  uint64_t order;
  uint64_t shape;               /* see 'cr_hclass.shape' */
  uint16_t access;
  uint8_t instrumented, jdk_module;
} hshadow;

typedef struct hsym {
  uint32_t hash, len;
  cr_hclass *cls;               /* class of this name, or NULL */
  hshadow *shadows;             /* hidden definitions of it, if any */
  uint32_t idx;                 /* scratch: string-table index on save */
  uint8_t missing;              /* recorded as a missing supertype */
  uint8_t jdk_pkg;              /* a package a JDK module defines */
  char s[];                     /* NUL-terminated */
} hsym;

#define SYM(str) ((hsym *)((str) - offsetof(hsym, s)))

/* Reason kinds, per answer (index 0 overloadability, 1 wrappability). */
enum {
  R_NONE, R_SEED, R_LIBRARY, R_RULE1, R_RULE3, R_NATIVE_NONWRAP, R_IMPLIED
};

/*
** A call or a class initialisation in the code of a library method, for
** the leaf analysis ('leaves', hier.c): 'op' an invoke opcode, or new,
** getstatic or putstatic with 'name' NULL ('owner' is initialised).
*/
typedef struct hcall {
  const char *owner, *name, *desc;  /* interned */
  uint8_t op;
} hcall;

/* What the leaf analysis knows of a method's code ('cr_hmethod.body'). */
enum {
  BODY_NONE,                    /* nothing: not a leaf */
  BODY_CALLS,                   /* a leaf if 'calls' all are */
  BODY_NATIVE                   /* native: a leaf if 'native_leaf' says */
};

/* Why the scan of a method's code found BODY_NONE ('cr_hmethod.nocode'),
** for 'cr_hier_leaf_reason'. */
enum {
  NL_NOCODE,                    /* not scanned, or no code */
  NL_IFACE,                     /* an interface call */
  NL_INDY,                      /* an invokedynamic */
  NL_CONST,                     /* a constant a bootstrap method or a
                                   method handle makes */
  NL_MANY,                      /* more distinct calls than kept */
  NL_BAD                        /* code or pool not readable */
};

struct cr_hmethod {
  cr_hclass *owner;
  const char *name, *desc;      /* interned */
  const char **annots;          /* interned annotation types */
  uint32_t nannots;
  uint16_t access;
  uint32_t flags;               /* CR_HM_* */
  uint8_t why[2];               /* R_* for non-overloadable, -wrappable */
  uint8_t saved;                /* summary answers: bit 0 nonovl, bit 1
                                   nonwrap, bit 7 present */
  const char *seed[2];          /* R_SEED: the rule id (interned) */
  const cr_hmethod *src[2];     /* R_RULE*: the method it came from */
  const cr_hclass *via[2];      /* R_RULE*: the class it came through */
  const hcall *calls;           /* BODY_CALLS: its calls, 'ncalls' */
  uint32_t ncalls;
  uint8_t body;                 /* BODY_* */
  uint8_t nocode;               /* BODY_NONE: NL_* */
  uint8_t vsite;                /* a virtual call site names it (atomic:
                                   'cr_hier_note_virtual_site') */
  uint8_t colour;               /* its id's low bits + 1, 0 none (colour.c) */
};

struct cr_hclass {
  const char *name, *super_name;  /* interned; super NULL for Object */
  const char **iface_names;
  uint32_t nifaces;
  uint16_t access;
  uint8_t instrumented, from_summary;
  uint8_t jdk_module;           /* defined by a module of the JDK */
  uint8_t in_jdk_pkg;           /* not, but in such a package (link) */
  uint8_t complete;             /* every supertype known (after link) */
  uint8_t color;                /* link: DFS state */
  uint8_t redefined;            /* link: a hidden definition differs */
  uint8_t redef_path;           /* link: it or a supertype is redefined */
  uint8_t clinit;               /* declares a '<clinit>' */
  uint8_t live;                 /* analysis: it or a subtype has an
                                   instrumented class or interface among
                                   its types (see 'mark_live') */
  uint64_t order;
  uint64_t shape;               /* digest of supertypes, access, methods */
  uint32_t mid_base;            /* link: fixed id of method 0 (JDK mode),
                                   0 for none (see 'cr_hier_mid') */
  cr_hclass *super;             /* linked; NULL if none or missing */
  cr_hclass **ifaces;           /* linked; NULL entries where missing */
  cr_hclass **all;              /* every superinterface, transitively, */
  uint32_t nall;                /*   including those of superclasses */
  cr_hclass **subs;             /* direct subclasses, subinterfaces and */
  uint32_t nsubs;               /*   implementors, in name order */
  cr_hmethod *methods;
  uint32_t nmethods;
  uint32_t stamp;               /* traversal mark (analysis) */
};

struct cr_hier {
  cr_arena *a;
  pthread_mutex_t mu;           /* guards adds (intern table, classes) */
  hsym **syms;                  /* open addressing, power of two */
  uint32_t *symhash;            /* the hash of each 'syms' slot (in the
                                   same allocation, after 'syms') */
  size_t nsyms, capsyms;
  size_t nclasses;              /* distinct class names defined */
  uint32_t nmids;               /* fixed method ids given (link) */
  int linked, analyzed;
  cr_hclass **sorted;           /* classes by name (after link) */
  const cr_hmethod **mtab;      /* (owner, name, desc) hash (after link) */
  uint32_t *mtabh;              /* the hash of each 'mtab' slot (same
                                   allocation, after 'mtab') */
  size_t capm, nmtab;           /* slots, and methods in them */
  const char **missing, **missing_ref;
  size_t nmissing;
  const cr_hmethod **conflicts;
  size_t nconflicts;
  const cr_hclass *cycle;       /* link: see 'cr_hier_cycle_class' */
  uint32_t stamp;
  const char *s_object, *s_mh, *s_vh, *s_init;  /* frequent names */
  /* colour.c: the methods each body calls, body k's at
  ** 'called[bodies[k]..bodies[k + 1])' (under 'mu') */
  const cr_hmethod **called;
  size_t ncalled, capcalled;
  size_t *bodies;
  size_t nbodies, capbodies;
  size_t coloured, small_bodies, apart;  /* the last colouring's counts */
};

const char *cr_hier__intern(cr_hier *h, const char *s, size_t n);
/* Interned copy of 's' if one exists, else NULL (read-only). */
const char *cr_hier__find(const cr_hier *h, const char *s);
const cr_hmethod *cr_hier__declared(const cr_hier *h, const cr_hclass *c,
                                    const char *name, const char *desc);
const cr_hmethod *cr_hier__select(const cr_hier *h, const cr_hclass *c,
                                  const char *name, const char *desc);
int cr_hier__virtual(const cr_hmethod *m);
/* JVMS 5.4.3.3/5.4.3.4 resolution in class 'c' of interned 'name' and
** 'desc' ('*unknown' set when a supertype is missing). */
const cr_hmethod *cr_hier__resolve(const cr_hier *h, const cr_hclass *c,
                                   const char *name, const char *desc,
                                   int *unknown);

/* Copy of a class being added, all strings interned (hier.c). */
typedef struct cr_hier__mdef {
  const char *name, *desc;
  uint16_t access;
  uint32_t nannots;
  const char **annots;
  uint8_t saved;
  uint8_t leaf;                 /* a summary's answer: a leaf */
  uint8_t colour;               /* a summary's colour (colour.c) */
  uint8_t body;                 /* BODY_* */
  uint8_t nocode;               /* BODY_NONE: NL_* */
  uint32_t ncalls;
  hcall *calls;                 /* copied by 'cr_hier__insert' */
} cr_hier__mdef;

typedef struct cr_hier__cdef {
  const char *name, *super_name;
  uint32_t nifaces;
  const char **ifaces;
  uint16_t access;
  int instrumented, from_summary, jdk_module;
  uint64_t order;
  uint32_t nmethods;
  cr_hier__mdef *methods;
} cr_hier__cdef;

/* The leaf analysis (leaf.c): the calls of method 'm' of class 'c' into
** 'md' (body, calls: strings of the class, to intern; CR_ENOMEM), and
** the fixed point over a linked hierarchy. */
int cr_hier__scan_body(cr_class *c, cr_member *m, cr_hier__mdef *md);
void cr_hier__leaves(cr_hier *h);

/*
** Add class 'cf' to linked hierarchy 'h' and link it alone (hier.c):
** its supertypes, closure, place among their subtypes and in the method
** table; the class to '*out'. The caller analyses it (cr_hier_extend).
*/
int cr_hier__extend_link(cr_hier *h, cr_class *cf, unsigned kind,
                         uint64_t order, cr_hclass **out, cr_diag *d);

/* Insert 'def' (strings already interned); call with 'mu' held. */
int cr_hier__insert(cr_hier *h, const cr_hier__cdef *def, cr_diag *d);

#endif
