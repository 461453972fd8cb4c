/*
** policy.h -- seeds of the overloadability analysis: which methods are
** non-overloadable or non-wrappable from the start (DESIGN.md 1 and 3,
** the CCCP paper 4.3); the rules where the rewriter departs from its
** usual code because the JVM or the JDK requires it (redirected calls,
** thread entries, VM upcalls, calls inserted at returns, fields of the
** thread slot); the built-in HotSpot 8-25 policy, and user policy files
** in XML.
**
** A policy is an ordered list of rules. A rule matches a method by class,
** name and descriptor patterns ('*' matches any run of characters,
** everything else literally) and optional qualifiers (native, virtual,
** signature-polymorphic shape, carries an annotation). Four kinds:
**   nonoverloadable  seed: the method gets no extended-signature twin
**   nonwrappable     seed: no wrapper frame between callers and the method
**   overloadable     exemption: drop the nonoverloadable SEEDS of matching
**                    methods (the hierarchy rules, the library boundary and
**                    the implications still apply)
**   wrappable        exemption: likewise for nonwrappable seeds
** Exemptions win over seeds whatever their order. Five more kinds, each
** an entry or, with 'remove' set, a removal that cancels the entries of
** its kind wherever it matches (whatever their order, as exemptions do):
**   redirect      JDK mode: in the classes 'cls', the call 'from' becomes
**                 an invokestatic of 'to' (same stack effect, a receiver
**                 becomes the first argument)
**   thread-entry  JDK mode: the method starts from the current thread's
**                 root (CC.root) instead of its caller's node
**   upcall        an instance method the JVM calls in the middle of an
**                 instruction: its entries from the original signature
**                 read the caller's node with CC.upcall, not CC.get
**   insert-call   JDK mode: "invokestatic CC.'call'()V" before each
**                 return of the method 'cls'.'name''desc' (and its twin)
**   thread-field  JDK mode: a field 'name' of type CC added to 'cls'
** Where a rule needs one member (redirect's 'from' and 'to', insert-call,
** thread-field) an entry names it literally; removals take patterns.
** 'cr_policy' is opaque; 'cr_pol_rule' and 'cr_pol_method' are
** transparent.
**
** Thread-safety: build and load from one thread; matching and printing
** only read, and may run in several threads at once.
*/
#ifndef CCCP_POLICY_H
#define CCCP_POLICY_H

#include <stdint.h>
#include <stdio.h>

#include "cccp/util.h"

typedef struct cr_policy cr_policy;

typedef enum cr_pol_kind {     /* ORDER: kindname[] in policy.c */
  CR_POL_NONOVL,               /* <nonoverloadable> */
  CR_POL_NONWRAP,              /* <nonwrappable> */
  CR_POL_OVL,                  /* <overloadable>: exempt from NONOVL seeds */
  CR_POL_WRAP,                 /* <wrappable>: exempt from NONWRAP seeds */
  CR_POL_REDIRECT,             /* <redirect> */
  CR_POL_THREAD_ENTRY,         /* <thread-entry> */
  CR_POL_UPCALL,               /* <upcall> */
  CR_POL_INSERT_CALL,          /* <insert-call> */
  CR_POL_THREAD_FIELD,         /* <thread-field> */
  CR_POL__COUNT
} cr_pol_kind;

/* A method reference, "owner.name(desc)" in policy files. */
typedef struct cr_pol_ref {
  const char *owner, *name, *desc;
} cr_pol_ref;

/*
** A rule. Strings are copied by 'cr_policy_add'; NULL patterns mean "*".
** 'cr_policy_add' checks the fields each kind needs (CR_EUSAGE).
*/
typedef struct cr_pol_rule {
  cr_pol_kind kind;
  const char *cls, *name, *desc;  /* patterns over internal names */
  const char *annotation;      /* the method must carry this annotation
                                  type ("Lpkg/Anno;"), or NULL */
  signed char native;          /* -1 any, 0 must not be, 1 must be native */
  signed char virt;            /* -1 any, 0 non-virtual, 1 virtual (not
                                  static, private, <init> or <clinit>) */
  signed char sigpoly;         /* -1 any, 1: JVMS 2.9.3 shape (native
                                  varargs (Object[]) in MethodHandle or
                                  VarHandle) */
  const char *id;              /* short reason tag, e.g. "object-virtual" */
  const char *why;             /* one line: why the rule exists, or NULL */
  const char *origin;          /* "built-in" or "file.xml:12", or NULL */
  cr_pol_ref from, to;         /* redirect: the call and the static method
                                  called instead (NULL parts: "*") */
  signed char after;           /* redirect: 1 when the call stays and 'to'
                                  is called after it with its result (and
                                  before it, its one stack operand) */
  const char *call;            /* insert-call: "ended" or "start" */
  signed char remove;          /* 1: a removal (the five kinds above) */
} cr_pol_rule;

/* What a rule sees of a method. Transparent, borrowed strings. */
typedef struct cr_pol_method {
  const char *cls, *name, *desc;
  uint16_t access;             /* method access_flags */
  uint32_t nannots;            /* annotation types (RuntimeVisible and */
  const char *const *annots;   /*   RuntimeInvisible), "Lpkg/Anno;" */
} cr_pol_method;

/*
** New policy in '*out': with 'builtin' set it holds the built-in HotSpot
** 8-25 rules (see 'cr_policy_doc'), else nothing. Free with
** 'cr_policy_free'.
*/
int cr_policy_new(cr_policy **out, int builtin, cr_diag *d);
void cr_policy_free(cr_policy *p);
/* Append a copy of 'r'. CR_EUSAGE for an invalid kind or qualifier. */
int cr_policy_add(cr_policy *p, const cr_pol_rule *r, cr_diag *d);

/*
** Read a policy file and append its rules. The format:
**   <policy>
**     <nonoverloadable class="java/lang/Foo" name="bar" desc="(I)V"
**                      why="..."/>
**     <nonwrappable class="..." annotation="Lpkg/Anno;" native="1"/>
**     <overloadable class="java/lang/Object" name="hashCode"/>
**     <wrappable .../>
**     <redirect class="java/lang/Class" from="owner.name(desc)"
**               to="cccp/rt/Reflect.name(desc)"/>
**     <thread-entry class="..." name="run" desc="(Ljava/lang/Runnable;)V"/>
**     <upcall class="*" name="loadClass" desc="..."/>
**     <insert-call class="java/lang/Thread" name="exit" desc="()V"
**                  call="ended"/>
**     <thread-field class="java/lang/Thread" name="cccp$cc"/>
**     <redirect class="java/lang/Class" remove="1"/>
**   </policy>
** Attributes of the seeds and exemptions: class, name, desc (patterns,
** default "*"), annotation, native, virtual, sigpoly ("0"/"1"), id, why.
** Of the other kinds: redirect class, from, to; thread-entry and upcall
** class, name, desc; insert-call class, name, desc, call; thread-field
** class, name; each also id, why and remove ("0"/"1"). Unknown elements or
** attributes and malformed XML are CR_EFORMAT naming the line. libxml2
** runs with XML_PARSE_NONET and without entity substitution or DTD
** loading: nothing outside the file is ever read. On error nothing from
** the file is added.
*/
int cr_policy_load(cr_policy *p, const char *path, cr_diag *d);
/* The same from memory; 'name' names the buffer in messages. */
int cr_policy_load_mem(cr_policy *p, const char *xml, size_t len,
                       const char *name, cr_diag *d);

size_t cr_policy_count(const cr_policy *p);
/* Rule 'i' (< count), borrowed, lives as long as 'p'. */
const cr_pol_rule *cr_policy_rule(const cr_policy *p, size_t i);
/* Index of the first rule of 'kind' that matches 'm', or -1. */
int cr_policy_match(const cr_policy *p, cr_pol_kind kind,
                    const cr_pol_method *m);
/*
** The same in two steps, for many methods of one class: 'cr_policy_prepare'
** sets 'mask[i]' (count bytes) to 1 where rule i's class pattern matches
** 'cls', then 'cr_policy_match_masked' only tries those rules.
*/
void cr_policy_prepare(const cr_policy *p, const char *cls, uint8_t *mask);
int cr_policy_match_masked(const cr_policy *p, cr_pol_kind kind,
                           const cr_pol_method *m, const uint8_t *mask);
/*
** The indices of the rules of 'kind' among those 'mask' holds, in order,
** into 'idx' (room for count entries); returns how many. Then
** 'cr_policy_match_in' tries only those: the same answer as
** 'cr_policy_match_masked' without passing over the other rules, most of
** which are about other classes or other kinds.
*/
size_t cr_policy_select(const cr_policy *p, cr_pol_kind kind,
                        const uint8_t *mask, uint32_t *idx);
int cr_policy_match_in(const cr_policy *p, cr_pol_kind kind,
                       const cr_pol_method *m, const uint32_t *idx,
                       size_t n);
/*
** The entries of the five other kinds. 'cr_policy_find': the first entry
** of 'kind' (thread-entry, upcall) whose patterns match method 'cls'.
** 'name''desc', or -1, also when a removal of 'kind' matches the method.
** 'cr_policy_redirect': the same for the call 'call' made in class 'cls'.
** 'cr_policy_removed': 1 if a removal cancels entry 'i' (for the entries
** a class applies all of: insert-call, thread-field).
*/
int cr_policy_find(const cr_policy *p, cr_pol_kind kind, const char *cls,
                   const char *name, const char *desc);
int cr_policy_redirect(const cr_policy *p, const char *cls,
                       const cr_pol_ref *call);
int cr_policy_removed(const cr_policy *p, size_t i);

/*
** Split "owner.name(desc)" (the form of redirect's 'from' and 'to') into
** '*out', copies in 'a'; without "(desc)" the descriptor is "*".
** CR_EFORMAT when it is not of that form; with 'literal' also when a part
** holds a '*' or the descriptor is missing or not a method descriptor.
*/
int cr_policy_parse_ref(cr_pol_ref *out, cr_arena *a, const char *s,
                        int literal, cr_diag *d);

/* 1 if pattern 'pat' ('*' wildcards) matches all of 's'. */
int cr_policy_glob(const char *pat, const char *s);

/* Write the effective policy as a policy file with a comment per rule
** (for --print-policy); the output reads back with 'cr_policy_load'. */
int cr_policy_print(const cr_policy *p, FILE *f);

/* Plain-text explanation of every built-in rule, for the man page. */
extern const char cr_policy_doc[];

#endif
