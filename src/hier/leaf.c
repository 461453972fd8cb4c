/*
** leaf.c -- which library methods are leaves: methods that cannot run
** code of an instrumented class, whatever their arguments.
**
** A call from instrumented code into the library publishes the call's
** node in the thread's slot (and in JDK mode restores the slot
** afterwards), so that an instrumented method the library calls back (a
** comparator, a hashCode) finds its caller's context there. A call into
** a leaf needs none of it: nothing it runs reads the slot. This is
** decided from the library's code when the classes are added
** ('cr_hier__scan_body') and linked
** ('cr_hier__leaves'), as a greatest fixed point over these facts:
**
**   - a method with code is a leaf when its code makes no interface call,
**     no invokedynamic and loads no constant a bootstrap method or a
**     method handle makes, and every method it calls is a leaf and is
**     the method the call runs: a static call, an invokespecial, or a
**     virtual call whose method is final or private or whose class is
**     final (the receiver's class is then known);
**   - a class initialisation its code may start (new, getstatic,
**     putstatic, and a call to a static method) runs the <clinit> of the
**     class, its superclasses and superinterfaces: each must be a leaf;
**   - a native method is a leaf only when it is known to run no Java
**     code ('native_leaf');
**   - anything not known (a missing class, an instrumented class, a
**     method of a class added without code) is not a leaf;
**   - only a class of a JDK module has leaves: resolving a class name
**     its code names asks the class's own loader, which for another
**     library may be an instrumented class loader (Groovy's RootLoader).
**
** Exceptions do not matter: those the JVM throws are made by the JDK's
** own constructors, and one a method makes itself is a 'new' and a
** constructor call, analysed as any other. That holds while the JDK is
** a library: with the JDK instrumented (JDK mode), the JVM's own calls
** into it (exception constructors, Finalizer.register at the end of
** Object.<init>) run instrumented code from anywhere, and nothing is a
** leaf.
*/
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cccp/bytecode.h"
#include "cccp/classfile.h"
#include "hier_int.h"

/* More distinct calls than this: not a leaf (and nothing kept). */
#define MAX_CALLS 64

/*
** Natives that run no Java code: they read or write memory, the clock or
** the VM's own tables. 'registerNatives' (many classes' <clinit>) only
** binds the class's other natives.
*/
static int native_leaf(const char *cls, const char *name) {
  static const char *const pairs[] = {
      "java/lang/Object", "getClass",
      "java/lang/Object", "hashCode",
      "java/lang/Object", "clone",
      "java/lang/System", "arraycopy",
      "java/lang/System", "identityHashCode",
      "java/lang/System", "nanoTime",
      "java/lang/System", "currentTimeMillis",
      "java/lang/Thread", "currentThread",
      "java/lang/Class", "getPrimitiveClass",
      "java/lang/Class", "isInstance",
      "java/lang/Class", "isAssignableFrom",
      "java/lang/Class", "isInterface",
      "java/lang/Class", "isArray",
      "java/lang/Class", "isPrimitive",
      "java/lang/Class", "getModifiers",
      "java/lang/Class", "desiredAssertionStatus0",
      "java/lang/Float", "floatToRawIntBits",
      "java/lang/Float", "intBitsToFloat",
      "java/lang/Double", "doubleToRawLongBits",
      "java/lang/Double", "longBitsToDouble",
      "java/lang/String", "intern",
      "java/lang/StringUTF16", "isBigEndian",
  };
  if (strcmp(name, "registerNatives") == 0) return 1;
  if (strcmp(cls, "java/lang/StrictMath") == 0) return 1;
  for (size_t i = 0; i < sizeof pairs / sizeof *pairs; i += 2)
    if (strcmp(cls, pairs[i]) == 0 && strcmp(name, pairs[i + 1]) == 0)
      return 1;
  return 0;
}

/*
** Methods with code that run no code of an instrumented class, which the
** rules above cannot show. 'Class.desiredAssertionStatus()', which the
** <clinit> of every class with an 'assert' calls (javac's
** '$assertionsDisabled'), asks the VM (a native that runs no Java code)
** or, once assertion directives were set on the class's loader, that
** loader's 'ClassLoader.desiredAssertionStatus(String)': package-private
** in java.lang, so no class outside it overrides it, and it looks the
** name up in HashMaps of Strings that ClassLoader itself makes. Without
** it, a JDK class with an 'assert' in it starts nothing but non-leaves:
** StringLatin1's makes String.equals one.
*/
static int code_leaf(const char *cls, const char *name, const char *desc) {
  return strcmp(cls, "java/lang/Class") == 0 &&
         strcmp(name, "desiredAssertionStatus") == 0 &&
         strcmp(desc, "()Z") == 0;
}

/* The NameAndType of member reference 'i', or NULL. */
static const cr_cpentry *nat(cr_cpool *cp, uint32_t i) {
  const cr_cpentry *e = cr_cp_get(cp, i);
  return e && cr_cp_tag(cp, e->b) == CR_CP_NAMEANDTYPE ? cr_cp_get(cp, e->b)
                                                       : NULL;
}

/* Add call 'op' to pool reference 'ref' unless there; 0, or -1 when it
** cannot be read or there are too many. */
static int add_call(cr_class *c, hcall *v, uint16_t *refs, uint32_t *n,
                    unsigned op, uint32_t ref) {
  cr_cpool *cp = c->cp;
  for (uint32_t k = 0; k < *n; k++)
    if (refs[k] == ref && v[k].op == op) return 0;
  if (*n == MAX_CALLS) return -1;
  hcall *k = &v[*n];
  memset(k, 0, sizeof *k);
  k->op = (uint8_t)op;
  if (op == CR_OP_NEW) {
    k->owner = cr_cp_class_name(cp, ref);
    if (!k->owner) return -1;
  } else {
    const cr_cpentry *e = cr_cp_get(cp, ref), *nt = nat(cp, ref);
    if (!e || !nt) return -1;
    k->owner = cr_cp_class_name(cp, e->a);
    if (!k->owner) return -1;
    if (op != CR_OP_GETSTATIC && op != CR_OP_PUTSTATIC) {
      k->name = cr_cp_str(cp, nt->a);
      k->desc = cr_cp_str(cp, nt->b);
      if (!k->name || !k->desc) return -1;
    }
  }
  if (k->owner[0] == '[') {
    /* an array's clone copies it; its other methods are Object's */
    if (op == CR_OP_INVOKEVIRTUAL && strcmp(k->name, "clone") == 0) return 0;
    k->owner = "java/lang/Object";
  }
  refs[*n] = (uint16_t)ref;
  (*n)++;
  return 0;
}

int cr_hier__scan_body(cr_class *c, cr_member *m, cr_hier__mdef *md) {
  md->body = BODY_NONE;
  md->nocode = NL_BAD;
  md->ncalls = 0;
  md->calls = NULL;
  if (m->flags & ACC_NATIVE) {
    md->body = BODY_NATIVE;
    return 0;
  }
  const cr_code *code = cr_member_code(m);
  if (!code) {
    md->nocode = NL_NOCODE;
    return 0;
  }
  hcall v[MAX_CALLS];
  uint16_t refs[MAX_CALLS];
  uint32_t n = 0;
  const uint8_t *p = code->code;
  for (uint32_t off = 0, len; off < code->code_len; off += len) {
    len = cr_code_insn_len(p, off, code->code_len);
    if (len == 0) return 0;
    unsigned op = p[off];
    uint32_t ref = len >= 3 ? (uint32_t)p[off + 1] << 8 | p[off + 2] : 0;
    switch (op) {
    case CR_OP_INVOKEINTERFACE:
      md->nocode = NL_IFACE;
      return 0;
    case CR_OP_INVOKEDYNAMIC:
      md->nocode = NL_INDY;
      return 0;
    case CR_OP_LDC: case CR_OP_LDC_W: case CR_OP_LDC2_W: {
      int tag = cr_cp_tag(c->cp, op == CR_OP_LDC ? p[off + 1] : ref);
      if (tag == CR_CP_METHODHANDLE || tag == CR_CP_METHODTYPE ||
          tag == CR_CP_DYNAMIC) {
        md->nocode = NL_CONST;
        return 0;
      }
      break;
    }
    case CR_OP_INVOKEVIRTUAL: case CR_OP_INVOKESPECIAL:
    case CR_OP_INVOKESTATIC: case CR_OP_NEW:
    case CR_OP_GETSTATIC: case CR_OP_PUTSTATIC:
      if (add_call(c, v, refs, &n, op, ref)) {
        if (n == MAX_CALLS) md->nocode = NL_MANY;
        return 0;
      }
      break;
    default:
      break;
    }
  }
  md->body = BODY_CALLS;
  if (n == 0) return 0;
  md->calls = cr_malloc(n * sizeof *md->calls);
  if (!md->calls) return CR_ENOMEM;
  memcpy(md->calls, v, n * sizeof *v);
  md->ncalls = n;
  return 0;
}

/* The analysis's names: "<clinit>" and "()V" interned (NULL if never
** seen). */
typedef struct lctx {
  const cr_hier *h;
  const char *clinit, *v;
} lctx;

/* 1 if the <clinit> of 'k', if any, is a leaf. */
static int clinit_leaf(const lctx *x, const cr_hclass *k) {
  if (!k || k->instrumented) return 0;
  if (!k->clinit) return 1;
  const cr_hmethod *ci = x->clinit && x->v
                             ? cr_hier__declared(x->h, k, x->clinit, x->v)
                             : NULL;
  return ci && (ci->flags & CR_HM_LEAF);
}

/* The first of complete class 'c', its superclasses and its
** superinterfaces whose <clinit> is not a leaf, or NULL. */
static const cr_hclass *init_culprit(const lctx *x, const cr_hclass *c) {
  for (const cr_hclass *k = c; k; k = k->super)
    if (!clinit_leaf(x, k)) return k;
  for (uint32_t i = 0; i < c->nall; i++)
    if (!clinit_leaf(x, c->all[i])) return c->all[i];
  return NULL;
}

/* 1 if starting the initialisation of 'c' runs only leaves: its own
** <clinit>, its superclasses' and its superinterfaces' (JVMS 5.5 runs
** those of interfaces with default methods only: all of them here). */
static int init_leaf(const lctx *x, const cr_hclass *c) {
  return c && c->complete && !init_culprit(x, c);
}

/* 1 if call 'k' runs a leaf. */
static int call_leaf(const lctx *x, const hcall *k) {
  const cr_hclass *c = SYM(k->owner)->cls;
  if (!k->name) return init_leaf(x, c);
  if (!c) return 0;
  int unknown = 0;
  const cr_hmethod *t = cr_hier__resolve(x->h, c, k->name, k->desc,
                                         &unknown);
  if (!t || unknown || !(t->flags & CR_HM_LEAF)) return 0;
  return k->op != CR_OP_INVOKEVIRTUAL ||
         (t->access & (ACC_FINAL | ACC_PRIVATE)) || (c->access & ACC_FINAL);
}

/* 1 if 'm' (marked a leaf so far) still is one. */
static int still_leaf(const lctx *x, const cr_hmethod *m) {
  if (code_leaf(m->owner->name, m->name, m->desc)) return 1;
  if ((m->access & ACC_STATIC) && m->name != x->clinit &&
      !init_leaf(x, m->owner))
    return 0;
  for (uint32_t k = 0; k < m->ncalls; k++)
    if (!call_leaf(x, &m->calls[k])) return 0;
  return 1;
}

/* 1 if a class of a JDK module in 'h' is instrumented (JDK mode). */
static int jdk_instrumented(const cr_hier *h) {
  for (size_t i = 0; i < h->nclasses; i++)
    if (h->sorted[i]->instrumented && h->sorted[i]->jdk_module) return 1;
  return 0;
}

void cr_hier__leaves(cr_hier *h) {
  int jdk = jdk_instrumented(h);
  for (size_t i = 0; i < h->nclasses; i++) {
    cr_hclass *c = h->sorted[i];
    for (uint32_t k = 0; k < c->nmethods; k++) {
      cr_hmethod *m = &c->methods[k];
      if (c->instrumented || jdk || !c->jdk_module)
        m->flags &= ~(unsigned)CR_HM_LEAF;
      else if (m->body == BODY_CALLS ||
               code_leaf(c->name, m->name, m->desc))
        m->flags |= CR_HM_LEAF;
      else if (m->body == BODY_NATIVE && native_leaf(c->name, m->name))
        m->flags |= CR_HM_LEAF;
    }
  }
  lctx x = {h, cr_hier__find(h, "<clinit>"), cr_hier__find(h, "()V")};
  for (int changed = 1; changed;) {
    changed = 0;
    for (size_t i = 0; i < h->nclasses; i++) {
      cr_hclass *c = h->sorted[i];
      for (uint32_t k = 0; k < c->nmethods; k++) {
        cr_hmethod *m = &c->methods[k];
        if (!(m->flags & CR_HM_LEAF) || still_leaf(&x, m)) continue;
        m->flags &= ~(unsigned)CR_HM_LEAF;
        changed = 1;
      }
    }
  }
}

/* Starting the initialisation of 'c', which is not a leaf ('init_leaf'),
** described into 'buf': which <clinit> is not. */
static void init_reason(const lctx *x, const cr_hclass *c, const char *name,
                        char *buf, size_t n) {
  const cr_hclass *bad = c && c->complete ? init_culprit(x, c) : NULL;
  if (!bad)
    snprintf(buf, n, "it may start the initialisation of %s, whose "
             "supertypes are not all known", name);
  else if (bad == c)
    snprintf(buf, n, "it may start the initialisation of %s, whose "
             "<clinit> is not a leaf", name);
  else
    snprintf(buf, n, "it may start the initialisation of %s, which runs "
             "the <clinit> of %s, not a leaf", name, bad->name);
}

/* One call 'k' that is not a leaf, described into 'buf' (see
** 'cr_hier_leaf_reason'). */
static void call_reason(const lctx *x, const hcall *k, char *buf, size_t n) {
  const cr_hclass *c = SYM(k->owner)->cls;
  if (!k->name) {
    init_reason(x, c, k->owner, buf, n);
    return;
  }
  int unknown = 0;
  const cr_hmethod *t =
      c ? cr_hier__resolve(x->h, c, k->name, k->desc, &unknown) : NULL;
  if (!t || unknown)
    snprintf(buf, n, "it calls %s.%s%s, which does not resolve in the "
             "classes read", k->owner, k->name, k->desc);
  else if (!(t->flags & CR_HM_LEAF))
    snprintf(buf, n, "it calls %s.%s%s, which is not a leaf",
             t->owner->name, t->name, t->desc);
  else
    snprintf(buf, n, "it calls %s.%s%s virtually, and a subclass may "
             "override it", t->owner->name, t->name, t->desc);
}

char *cr_hier_leaf_reason(const cr_hier *h, const cr_hmethod *m, char *buf,
                          size_t n) {
  if (!n) return buf;
  buf[0] = 0;
  if (m->flags & CR_HM_LEAF) return buf;
  const cr_hclass *c = m->owner;
  const char *why = NULL;
  if (c->instrumented) why = "its class is instrumented";
  else if (jdk_instrumented(h))
    why = "the JDK is instrumented, and the JVM calls into it from "
          "anywhere";
  else if (!c->jdk_module)
    why = "not a class of the JDK: the class names its code uses resolve "
          "in its own class loader, which may be instrumented";
  else if (m->access & ACC_ABSTRACT)
    why = "abstract: a call runs the receiver's method";
  else if (c->from_summary)
    why = "the answer of the summary it was read from (for the JDK "
          "cache's entry, --no-jdk-cache reads the JDK's code and says "
          "why)";
  else if (m->body == BODY_NATIVE)
    why = "a native method that may run Java code";
  else if (m->body == BODY_NONE) {
    static const char *const nl[] = {
        [NL_NOCODE] = "no code to read",
        [NL_IFACE] = "it makes an interface call",
        [NL_INDY] = "it has an invokedynamic",
        [NL_CONST] = "it loads a constant that a bootstrap method or a "
                     "method handle makes",
        [NL_MANY] = "it calls more different methods than the analysis "
                    "keeps",
        [NL_BAD] = "its code could not be read"};
    why = m->nocode < sizeof nl / sizeof *nl ? nl[m->nocode] : nl[NL_BAD];
  }
  if (why) {
    snprintf(buf, n, "%s", why);
    return buf;
  }
  lctx x = {h, cr_hier__find(h, "<clinit>"), cr_hier__find(h, "()V")};
  if ((m->access & ACC_STATIC) && m->name != x.clinit &&
      !init_leaf(&x, c)) {
    init_reason(&x, c, c->name, buf, n);    /* a static call's */
    return buf;
  }
  for (uint32_t k = 0; k < m->ncalls; k++)
    if (!call_leaf(&x, &m->calls[k])) {
      call_reason(&x, &m->calls[k], buf, n);
      return buf;
    }
  snprintf(buf, n, "not known");
  return buf;
}

void cr_hier_note_virtual_site(const cr_hmethod *m) {
  /* the only member a worker writes, and only ever to 1 */
  __atomic_store_n(&((cr_hmethod *)m)->vsite, 1, __ATOMIC_RELAXED);
}

/* A noted method: its name and descriptor (interned: compared by
** address), its class. */
typedef struct sig {
  const char *name, *desc;
  const cr_hclass *cls;
} sig;

static int sig_cmp(const void *a, const void *b) {
  const sig *x = a, *y = b;
  uintptr_t p = (uintptr_t)x->name, q = (uintptr_t)y->name;
  if (p == q) p = (uintptr_t)x->desc, q = (uintptr_t)y->desc;
  return p < q ? -1 : p > q;
}

/* 1 if 's' is 'c' or one of its supertypes. */
static int supertype(const cr_hclass *c, const cr_hclass *s) {
  for (const cr_hclass *k = c; k; k = k->super)
    if (k == s) return 1;
  for (uint32_t i = 0; i < c->nall; i++)
    if (c->all[i] == s) return 1;
  return 0;
}

/* 1 if a call that names one of the 'n' noted methods of 'v' (sorted)
** may select 'm': one has its name and descriptor and a supertype of its
** class for its class. */
static int noted(const sig *v, size_t n, const cr_hmethod *m) {
  sig key = {m->name, m->desc, NULL};
  const sig *e = bsearch(&key, v, n, sizeof *v, sig_cmp);
  if (!e) return 0;
  while (e > v && sig_cmp(e - 1, &key) == 0) e--;
  for (; e < v + n && sig_cmp(e, &key) == 0; e++)
    if (supertype(m->owner, e->cls)) return 1;
  return 0;
}

size_t cr_hier_virtual_leaves(const cr_hier *h,
                              void (*fn)(void *ctx, const cr_hmethod *m),
                              void *ctx) {
  size_t n = 0, cap = 0, found = 0;
  sig *v = NULL;
  for (size_t i = 0; i < h->nclasses; i++) {
    const cr_hclass *c = h->sorted[i];
    for (uint32_t k = 0; k < c->nmethods; k++) {
      const cr_hmethod *m = &c->methods[k];
      if (!__atomic_load_n(&m->vsite, __ATOMIC_RELAXED)) continue;
      if (n == cap) {
        sig *nv = cr_realloc(v, (cap = cap ? cap * 2 : 64) * sizeof *v);
        if (!nv) {
          cr_free(v);
          return 0;                     /* no leaves: every site publishes */
        }
        v = nv;
      }
      v[n++] = (sig){m->name, m->desc, c};
    }
  }
  if (n) qsort(v, n, sizeof *v, sig_cmp);
  for (size_t i = 0; n && i < h->nclasses; i++) {
    const cr_hclass *c = h->sorted[i];
    if (!c->jdk_module) continue;
    for (uint32_t k = 0; k < c->nmethods; k++) {
      const cr_hmethod *m = &c->methods[k];
      unsigned want = CR_HM_LEAF | CR_HM_VIRTUAL;
      if ((m->flags & want) != want || (m->access & ACC_PRIVATE) ||
          !noted(v, n, m))
        continue;
      fn(ctx, m);
      found++;
    }
  }
  cr_free(v);
  return found;
}
