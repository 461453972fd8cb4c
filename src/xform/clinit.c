/*
** clinit.c -- the instructions that may initialise another instrumented
** class (new, getstatic, putstatic, invokestatic): its '<clinit>' runs on
** this thread, before the instruction, and makes its node from the
** thread-local slot, which the instruction sets the first time it runs.
** And what this class's own code can take as initialised: itself and its
** superclasses.
*/
#include <stdio.h>
#include <string.h>

#include "xf_int.h"

/*
** This class's superclass as its own class file names it. Facts about
** the class itself come from its file, not from the hierarchy by name:
** another input may define a class of the same name (jansi and jansi1,
** jline-1.0 and jline2 both have one), and the hierarchy keeps one.
*/
const char *cr_xf__own_super(const xf *x) {
  return x->c->super_class ? cr_cp_class_name(x->c->cp, x->c->super_class)
                           : NULL;
}

/* 1 if 'name' is this class or one of its superclasses: initialised
** (or being initialised) whenever this class's code runs. */
static int self_or_super(xf *x, const char *name) {
  const cr_hier *h = x->o->h;
  if (strcmp(x->name, name) == 0) return 1;
  const char *n = cr_xf__own_super(x);
  for (int depth = 0; n && depth < 1000; depth++) {
    if (strcmp(n, name) == 0) return 1;
    const cr_hclass *c = cr_hier_class(h, n);
    n = c ? cr_hclass_super(c) : NULL;
  }
  return 0;
}

/* 1 if initialising 'c' can run an instrumented '<clinit>'. */
static int inits_code(const cr_hclass *c) {
  return cr_hclass_instrumented(c) && cr_hclass_has_clinit(c);
}

/*
** The guard of reference 'ref' into class 't' (see 'struct xf_initg'), -1
** when it needs none ('init_needed'). 0 on error ('err' set).
** 'init_needed': 1 if some class of t's superclass chain outside this
** class's own chain is instrumented and has a '<clinit>', which reads the
** thread-local slot; with 'ifaces' (fields, which an interface may
** declare, and 'new', which initialises superinterfaces with default
** methods) any superinterface of 't' with one counts too. A class the
** hierarchy does not know counts as well: one made at run time (a
** Groovy closure, a Clojure fn), which the agent may instrument as it
** loads, or whose superclass (groovy.lang.Closure) has an instrumented
** '<clinit>'; not the runtime's (which the program may call itself).
*/
static int init_needed(xf *x, const char *t, int ifaces) {
  const cr_hier *h = x->o->h;
  const cr_hclass *top = cr_hier_class(h, t);
  if (!top) return t[0] != '[' && strncmp(t, "cccp/rt/", 8) != 0;
  int need = 0;
  for (uint32_t k = 0; top && ifaces && !need &&
                       k < cr_hclass_all_iface_count(top); k++)
    need = inits_code(cr_hclass_all_iface_at(top, k));
  const cr_hclass *c = top;
  for (int depth = 0; c && !need && depth < 1000; depth++) {
    if (self_or_super(x, cr_hclass_name(c))) break;
    need = inits_code(c);
    const char *sup = cr_hclass_super(c);
    c = sup ? cr_hier_class(h, sup) : NULL;
  }
  return need;
}

static int init_guard(xf *x, int ref, const char *t, int ifaces) {
  for (uint32_t k = 0; k < x->ninits; k++)
    if (x->inits[k].ref == ref) return x->inits[k].guard;
  int need = init_needed(x, t, ifaces);
  if (cr_xf__grow(x, (void **)&x->inits, &x->cinits, x->ninits + 1,
                  sizeof *x->inits))
    return 0;
  struct xf_initg *g = &x->inits[x->ninits];
  g->ref = ref;
  g->guard = need ? 0 : -1;
  if (need && !x->iface) {
    /* a private static synthetic boolean, false until the first time */
    char fname[32];
    snprintf(fname, sizeof fname, "cccp$init$%u", x->ninits);
    if (cr_xf__grow(x, (void **)&x->newf, &x->cnewf, x->nnewf + 1,
                    sizeof *x->newf))
      return 0;
    cr_member *f = &x->newf[x->nnewf++];
    memset(f, 0, sizeof *f);
    cr_cpool *cp = x->c->cp;
    f->flags = ACC_PRIVATE | ACC_STATIC | ACC_SYNTHETIC;
    f->name = (uint16_t)cr_xf__cpi(x, cr_cp_add_utf8(cp, fname, x->d));
    f->desc = (uint16_t)cr_xf__cpi(x, cr_cp_add_utf8(cp, "Z", x->d));
    g->guard = cr_xf__cpi(x, cr_cp_add_fieldref(cp, x->name, fname, "Z", x->d));
  }
  x->ninits++;
  return x->err ? 0 : g->guard;
}

/*
** Instruction 'i' (new, getstatic, putstatic, or an invokestatic that
** passes the node) may initialise another instrumented class, whose
** '<clinit>' finds its caller's node in the thread-local slot (JVMS 5.5:
** the JVM runs it before 'i', on this thread). The first time, the slot
** is set around it:
**     getstatic G; ifne plain
**     aload cc; CC.set; astore prev
**   start: [new T; pop | a copy of 'i']
**   end: aload prev; CC.set; pop; iconst_1; putstatic G; goto plain|join
**   handler: aload prev; CC.set; pop; athrow
**   plain: i
**   join:
** A 'new' is not copied (two allocation sites would give two different
** uninitialised types where the paths join): it is triggered by an
** allocation that is dropped. In an interface (no private fields) the
** slot is set around 'i' every time. In app mode ('x->publish', see
** 'cr_xf__wrap_site') the slot is set, not restored: no 'prev', no handler.
*/
void cr_xf__init_site(xf *x, cr_body *b, cr_insn *i, int ccl, int prev) {
  if (x->compact && !x->readers) return; /* the slot holds the node */
  cr_cpool *cp = x->c->cp;
  const char *t;
  if (i->op == CR_OP_NEW) {
    t = cr_cp_class_name(cp, (uint32_t)i->a);
  } else {
    const cr_cpentry *ref = cr_cp_get(cp, (uint32_t)i->a);
    t = ref ? cr_cp_class_name(cp, ref->a) : NULL;
  }
  if (!t || t[0] == '[') return;
  if (x->compact) { /* see 'cr_xf__compact_resets' */
    if (init_needed(x, t, i->op != CR_OP_INVOKESTATIC)) i->aux |= AUX_READS;
    return;
  }
  int g = init_guard(x, i->a, t, i->op != CR_OP_INVOKESTATIC);
  if (g < 0 || x->err) return;
  if (g == 0) {
    cr_xf__wrap_site(x, b, i, ccl, prev, NULL, 0, NULL);
    return;
  }
  cr_insn *plain = cr_label_new(b), *join = cr_label_new(b);
  if (!plain || !join) {
    cr_xf__oom(x);
    return;
  }
  cr_xf__emit(x, b, i, CR_OP_GETSTATIC, g);
  cr_insn *br = cr_xf__emit(x, b, i, CR_OP_IFNE, 0);
  if (br) br->target = plain;
  cr_xf__emit(x, b, i, CR_OP_ALOAD, ccl);
  cr_xf__emit(x, b, i, CR_OP_INVOKESTATIC, x->r_set);
  cr_xf__emit(x, b, i, x->publish ? CR_OP_POP : CR_OP_ASTORE,
              x->publish ? 0 : prev);
  cr_insn *start = cr_xf__emit_label(x, b, i);
  int copy = i->op != CR_OP_NEW;
  if (copy) {
    cr_insn *c = cr_xf__emit(x, b, i, i->op, i->a);
    if (c) c->b = i->b;
  } else {
    cr_xf__emit(x, b, i, CR_OP_NEW, i->a);
    cr_xf__emit(x, b, i, CR_OP_POP, 0);
  }
  cr_insn *end = cr_xf__emit_label(x, b, i);
  if (!x->publish) cr_xf__emit_restore(x, b, i, prev);
  cr_xf__emit(x, b, i, CR_OP_ICONST_1, 0);
  cr_xf__emit(x, b, i, CR_OP_PUTSTATIC, g);
  cr_insn *go = cr_xf__emit(x, b, i, CR_OP_GOTO, 0);
  if (go) go->target = copy ? join : plain;
  if (!x->publish) cr_xf__emit_rethrow(x, b, i, prev, start, end, 0);
  cr_body_insert_before(b, i, plain);
  if (copy) cr_body_insert_after(b, i, join);
}

/* new, getstatic, putstatic, invokestatic: may initialise a class. */
int cr_xf__may_init(const cr_insn *i) {
  return i->op == CR_OP_NEW || i->op == CR_OP_GETSTATIC ||
         i->op == CR_OP_PUTSTATIC || i->op == CR_OP_INVOKESTATIC;
}
