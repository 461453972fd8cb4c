/*
** site.c -- the call sites of an instrumented body: whether each passes
** its node to a twin (ESI), makes its callee's node (library, native or
** leaf callees, and the node that the receiver's class selects) or lets
** its callee find it in the thread-local slot, and the code that does it
** in the ordinary form, the compact form and app mode.
*/
#include <string.h>

#include "xf_int.h"

static int site_kind(const cr_insn *i, int *kind) {
  switch (i->op) {
  case CR_OP_INVOKEVIRTUAL: *kind = CR_SITE_VIRTUAL; return 1;
  case CR_OP_INVOKEINTERFACE: *kind = CR_SITE_INTERFACE; return 1;
  case CR_OP_INVOKESPECIAL: *kind = CR_SITE_SPECIAL; return 1;
  case CR_OP_INVOKESTATIC: *kind = CR_SITE_STATIC; return 1;
  default: return 0;
  }
}

/*
** App mode, a virtual or interface call into a library ('spill' its
** descriptor): the node of the method the receiver selects, published
** in the slot unless that method is a leaf (CC.publishv, which knows the
** JDK's leaves from the list 'cr_hier_virtual_leaves' gives), in one call:
**   spill; dup; aload cc; MID; CC.publishv; unspill; <call>
*/
static void publish_virtual(xf *x, cr_body *b, cr_insn *i, int ccl, int prev,
                            const xf_mid *node, const char *spill) {
  if (!x->r_publishv)
    x->r_publishv = cr_xf__cpi(x, cr_cp_add_methodref(x->c->cp, CC_CLASS,
                                                      "publishv", D_PUBLISHV,
                                                      x->d));
  cr_xf__spill_args(x, b, i, spill, prev + 1, 1);
  cr_xf__emit(x, b, i, CR_OP_DUP, 0);
  cr_xf__emit(x, b, i, CR_OP_ALOAD, ccl);
  cr_xf__emit_mid(x, b, i, node);
  cr_xf__emit(x, b, i, CR_OP_INVOKESTATIC, x->r_publishv);
  cr_xf__spill_args(x, b, i, spill, prev + 1, 0);
}

/*
** The node of a call whose callee is 'node', on the stack above what is
** there ([receiver]): "aload cc; MID; CC.enter[v]", or for a static or
** special call into a class the hierarchy does not know ('x->site_cls'),
** "ldc CLASS; aload cc; MID; CC.enterc", which makes no node when that
** class turns out instrumented (at load time): its method makes its own.
*/
static void emit_node(xf *x, cr_body *b, cr_insn *i, int ccl,
                      const xf_mid *node, int virt) {
  if (x->site_cls) {
    if (!x->r_enterc)
      x->r_enterc = cr_xf__cpi(x, cr_cp_add_methodref(x->c->cp, CC_CLASS,
                                                      "enterc", D_ENTERC,
                                                      x->d));
    cr_xf__emit(x, b, i, CR_OP_LDC, x->site_cls);
  }
  cr_xf__emit(x, b, i, CR_OP_ALOAD, ccl);
  cr_xf__emit_mid(x, b, i, node);
  cr_xf__emit(x, b, i, CR_OP_INVOKESTATIC,
              x->site_cls ? x->r_enterc : virt ? x->r_enterv : x->r_enter);
}

/*
** Call 'i' in the compact part of a body ('cr_xf__instrument'), where the slot
** holds the method's node 'cc' all along: a call that finds its node in
** the slot needs nothing, and one that makes its callee's node sets it
** and puts 'cc' back after the call:
**   [spill; dup] aload cc; MID; CC.enter[v]; CC.set; pop; [unspill]
**   <call> aload cc; CC.set; pop
** An exception from the call finds 'cc' put back by the method's handler
** that catches it, or the slot's value at entry by the catch-all one.
** In app mode an ESI call may leave another node in the slot (its
** callee's library calls only publish theirs, see 'cr_xf__wrap_site'), and so
** does a library call, which only publishes its node and has no
** "aload cc; CC.set; pop" after it: the code that needs 'cc' there puts
** it back first ('cr_xf__compact_resets').
*/
static void wrap_compact(xf *x, cr_body *b, cr_insn *i, int ccl, int prev,
                         const xf_mid *node, const char *spill) {
  if (!node) {
    if (x->readers) i->aux |= AUX_READS; /* see 'cr_xf__compact_resets' */
    return;
  }
  if (spill && x->readers) {
    publish_virtual(x, b, i, ccl, prev, node, spill);
    i->aux |= AUX_DIRTIES;
    return;
  }
  if (spill) {
    cr_xf__spill_args(x, b, i, spill, prev + 1, 1);
    cr_xf__emit(x, b, i, CR_OP_DUP, 0);
  }
  emit_node(x, b, i, ccl, node, spill != NULL);
  cr_xf__emit(x, b, i, CR_OP_INVOKESTATIC, x->r_set);
  cr_xf__emit(x, b, i, CR_OP_POP, 0);
  if (spill) cr_xf__spill_args(x, b, i, spill, prev + 1, 0);
  if (x->readers)
    i->aux |= AUX_DIRTIES; /* published only, as by 'cr_xf__wrap_site' */
  else
    cr_xf__emit_restore(x, b, i->next, ccl);
}

/*
** Wrap call 'i' in the thread-local protocol:
**   [aload cc | aload cc; MID; CC.enter]; CC.set; astore prev
**   start: <call> end: aload prev; CC.set; pop; goto skip
**   handler: aload prev; CC.set; pop; athrow
**   skip:
** In app mode ('x->publish') the call only publishes the node:
**   [aload cc | aload cc; MID; CC.enter]; CC.set; pop; <call>
** Whatever the library runs of the application reads the slot as it
** enters (an N2B wrapper, an OSI body) and puts that value back as it
** leaves, normally or by an exception ('cr_xf__n2b', 'reader_exits'); code
** that runs after the call and needs the slot sets it first. One slot
** store per call instead of two, and no handler.
** With 'spill' (the call's descriptor) the node is the one CC.enterv
** picks for the receiver: the arguments are stored to locals after
** 'prev' and loaded back around "dup; aload cc; MID; CC.enterv".
** The handler sits right after the call, so the method's own exception
** ranges that cover the call cover the rethrow too. A return value stays
** on the stack below the restore. 'nohandler' leaves
** the handler out: for the call that initialises 'this' in a constructor
** (super() or this()), whose handler frame must keep 'uninitializedThis'
** (JVMS 4.10.1.9 invokespecial), which the frame computation does not
** do; the slot is then not restored if that constructor throws.
*/
void cr_xf__wrap_site(xf *x, cr_body *b, cr_insn *i, int ccl, int prev,
                      const xf_mid *node, int nohandler, const char *spill) {
  if (x->compact) {
    wrap_compact(x, b, i, ccl, prev, node, spill);
    return;
  }
  if (spill && x->publish) {
    publish_virtual(x, b, i, ccl, prev, node, spill);
    return;
  }
  if (spill) {
    /* the arguments go to locals from prev + 1 on, so that the receiver
    ** below them can be passed to CC.enterv */
    cr_xf__spill_args(x, b, i, spill, prev + 1, 1);
    cr_xf__emit(x, b, i, CR_OP_DUP, 0);
  }
  if (node) emit_node(x, b, i, ccl, node, spill != NULL);
  else cr_xf__emit(x, b, i, CR_OP_ALOAD, ccl);
  cr_xf__emit(x, b, i, CR_OP_INVOKESTATIC, x->r_set);
  cr_xf__emit(x, b, i, x->publish ? CR_OP_POP : CR_OP_ASTORE,
              x->publish ? 0 : prev);
  if (spill) cr_xf__spill_args(x, b, i, spill, prev + 1, 0);
  if (x->publish) return;
  cr_insn *start = cr_xf__emit_label(x, b, i);
  cr_insn *after = i->next;
  cr_insn *end = cr_xf__emit_label(x, b, after);
  cr_xf__emit_restore(x, b, after, prev);
  if (nohandler) return;
  cr_insn *skip = cr_label_new(b);
  if (!skip) {
    cr_xf__oom(x);
    return;
  }
  cr_insn *g = cr_xf__emit(x, b, after, CR_OP_GOTO, 0);
  if (g) g->target = skip;
  cr_xf__emit_rethrow(x, b, after, prev, start, end, 0);
  cr_body_insert_before(b, after, skip);
}

/*
** 1 if a call of kind 'kind' to class 'owner' runs library method 't' and
** 't' is a leaf (cr_hier.h, CR_HM_LEAF): nothing it runs reads the slot.
*/
static int leaf_site(const xf *x, const cr_hmethod *t, const char *owner,
                     int kind) {
  if (!t || !(cr_hmethod_flags(t) & CR_HM_LEAF)) return 0;
  if (kind == CR_SITE_STATIC || kind == CR_SITE_SPECIAL) return 1;
  if (kind != CR_SITE_VIRTUAL) return 0;
  if (cr_hmethod_access(t) & (ACC_FINAL | ACC_PRIVATE)) return 1;
  const cr_hclass *c = owner[0] == '[' ? NULL : cr_hier_class(x->o->h, owner);
  return c && (cr_hclass_access(c) & ACC_FINAL);
}

/*
** A call into a leaf: its node, counted, is all it needs, as nothing it
** runs reads the slot:
**   aload cc; MID; CC.enter; pop; <call>
*/
static void wrap_leaf(xf *x, cr_body *b, cr_insn *i, int ccl,
                      const xf_mid *node) {
  cr_xf__emit(x, b, i, CR_OP_ALOAD, ccl);
  cr_xf__emit_mid(x, b, i, node);
  cr_xf__emit(x, b, i, CR_OP_INVOKESTATIC, x->r_enter);
  cr_xf__emit(x, b, i, CR_OP_POP, 0);
}

/* 1 for a signature-polymorphic call (JVMS 2.9.3): the owner is
** MethodHandle or VarHandle and the method is native varargs there. */
static int polysig(const cr_hier *h, const char *owner, const char *name) {
  if (strcmp(owner, "java/lang/invoke/MethodHandle") != 0 &&
      strcmp(owner, "java/lang/invoke/VarHandle") != 0)
    return 0;
  const cr_hclass *hc = cr_hier_class(h, owner);
  if (!hc) return 1;
  for (uint32_t k = 0; k < cr_hclass_method_count(hc); k++) {
    const cr_hmethod *m = cr_hclass_method_at(hc, k);
    if (strcmp(cr_hmethod_name(m), name) == 0)
      return (cr_hmethod_flags(m) & CR_HM_POLYSIG) != 0;
  }
  return 0;
}

/* The memo of the call sites of reference 'k', or NULL (out of memory:
** the site is then worked out afresh). The pool's entries when it is
** first asked for: the sites of the original code refer to them. */
static xf_memo *site_memo_of(xf *x, uint32_t k) {
  if (!x->memo) {
    uint32_t n = cr_cp_count(x->c->cp);
    x->memo = cr_arena_calloc(x->a, n ? n : 1, sizeof *x->memo);
    if (!x->memo) return NULL;
    x->nmemo = n;
  }
  return k < x->nmemo ? &x->memo[k] : NULL;
}

/* The id of the callee of the sites of a reference ('cr_xf__get_mid'),
** kept in its memo 'sm' (may be NULL), so that its three names are
** hashed and compared once per reference, not at every site. */
static xf_mid *site_mid(xf *x, xf_memo *sm, const char *cls,
                        const char *name, const char *desc, int flags) {
  if (sm && sm->mid) return &x->mids[sm->mid - 1];
  xf_mid *m = cr_xf__get_mid(x, cls, name, desc, 0, flags);
  if (m && sm) sm->mid = (uint32_t)(m - x->mids) + 1;
  return m;
}

/* Rewrite one call site of an instrumented body. */
void cr_xf__rewrite_site(xf *x, cr_body *b, cr_insn *i, int ccl, int prev) {
  cr_cpool *cp = x->c->cp;
  int kind;
  if (!site_kind(i, &kind)) {           /* invokedynamic */
    cr_xf__wrap_site(x, b, i, ccl, prev, NULL, 0, NULL);
    x->o->nsites_tl++;
    return;
  }
  const cr_cpentry *ref = cr_cp_get(cp, (uint32_t)i->a);
  const cr_cpentry *nat = ref ? cr_cp_get(cp, ref->b) : NULL;
  const char *owner = ref ? cr_cp_class_name(cp, ref->a) : NULL;
  const char *name = nat ? cr_cp_str(cp, nat->a) : NULL;
  const char *desc = nat ? cr_cp_str(cp, nat->b) : NULL;
  if (!owner || !name || !desc) return;  /* the analysis will complain */
  xf_memo *sm = site_memo_of(x, (uint32_t)i->a);
  if (x->jdk && cr_xf__jdk_redirect(x, b, i, sm, owner, name, desc, ccl, prev))
    return;
  if (strncmp(owner, "cccp/rt/", 8) == 0) return;
  if (polysig(x->o->h, owner, name)) {
    cr_xf__wrap_site(x, b, i, ccl, prev, NULL, 0, NULL);
    x->o->nsites_tl++;
    return;
  }
  int init_this = 0;
  if (i->op == CR_OP_INVOKESPECIAL && strcmp(name, "<init>") == 0 &&
      x->in_init) {
    const char *sup = cr_xf__own_super(x);
    init_this = strcmp(owner, x->name) == 0 ||
                (sup && strcmp(owner, sup) == 0);
  }
  const cr_hmethod *t = NULL;
  int esi;
  if (sm && sm->asked) {
    esi = sm->esi;
    t = sm->t;
  } else {
    esi = cr_hier_site(x->o->h, owner, name, desc, kind, &t);
    if (sm) {
      sm->t = t;
      sm->asked = 1;
      sm->esi = (uint8_t)(esi != 0);
    }
  }
  /* a super call must not reach a twin's owner check, which would send
  ** it back to the override it comes from */
  if (esi && kind == CR_SITE_SPECIAL && t &&
      cr_xf__overridable(x, cr_hclass_access(cr_hmethod_class(t)),
                         cr_hmethod_access(t), name)) {
    cr_xf__wrap_site(x, b, i, ccl, prev, NULL, 0, NULL);
    x->o->nsites_tl++;
    return;
  }
  if (esi) {
    int tw = sm ? sm->twin : 0;
    if (!tw) {
      char *td = cr_xf_twin_desc(x->a, desc);
      if (!td) {
        cr_xf__oom(x);
        return;
      }
      tw = cr_xf__cpi(x, ref->tag == CR_CP_IMETHODREF
                             ? cr_cp_add_imethodref(cp, owner, name, td, x->d)
                             : cr_cp_add_methodref(cp, owner, name, td, x->d));
      if (sm) sm->twin = (uint16_t)tw;
    }
    cr_xf__emit(x, b, i, CR_OP_ALOAD, ccl);
    i->a = tw;
    if (i->op == CR_OP_INVOKEINTERFACE) i->b++;
    if (x->compact && x->readers) i->aux |= AUX_DIRTIES;
    x->o->nsites_esi++;
    return;
  }
  int native = t && (cr_hmethod_access(t) & ACC_NATIVE);
  int app = t && cr_hclass_instrumented(cr_hmethod_class(t));
  /* a virtual or interface call that may select another method than the
  ** one it names: the runtime picks the node by the receiver's class
  ** (CC.enterv); so does a call into a class the hierarchy does not know
  ** (made at run time), whose method the agent may have instrumented */
  int dyn = (kind == CR_SITE_VIRTUAL || kind == CR_SITE_INTERFACE) &&
            (!t || (!(cr_hmethod_access(t) &
                      (ACC_FINAL | ACC_PRIVATE | ACC_STATIC)) &&
                    !(cr_hclass_access(cr_hmethod_class(t)) & ACC_FINAL))) &&
            owner[0] != '[' && prev + 1 + cr_xf__arg_slots(desc) <= 65535;
  const char *cls = t ? cr_hclass_name(cr_hmethod_class(t)) : owner;
  if (dyn && t && x->readers) cr_hier_note_virtual_site(t); /* publishv */
  if (app && !native) {
    /* An application method without twins: an instrumented selection
    ** makes its node from the slot, but the receiver's class may inherit
    ** the method from the library instead (groovy's SoftRef implements
    ** its Reference.get with java.lang.ref.SoftReference's) or be made at
    ** run time; CC.enterv names that method then, and leaves the slot to
    ** an instrumented one. */
    xf_mid *m = dyn ? site_mid(x, sm, cls, name, desc, CR_XF_MID_APP) : NULL;
    if (dyn && !m) return;
    cr_xf__wrap_site(x, b, i, ccl, prev, m, init_this, dyn ? desc : NULL);
    x->o->nsites_tl++;
    return;
  }
  int flags = (native ? CR_XF_MID_NATIVE : 0) |
              (app ? CR_XF_MID_APP : CR_XF_MID_LIBRARY);
  xf_mid *m = site_mid(x, sm, cls, name, desc, flags);
  if (!m) return;
  dyn = dyn && !app;
  /* a static or special call into a class not known: CC.enterc */
  x->site_cls = !t && !dyn && owner[0] != '[' && x->c->major >= 49 &&
                        (kind == CR_SITE_STATIC || kind == CR_SITE_SPECIAL)
                    ? cr_xf__cpi(x, cr_cp_add_class(cp, owner, x->d))
                    : 0;
  if (!dyn && !app && leaf_site(x, t, owner, kind)) wrap_leaf(x, b, i, ccl, m);
  else cr_xf__wrap_site(x, b, i, ccl, prev, m, init_this, dyn ? desc : NULL);
  x->site_cls = 0;
  x->o->nsites_node++;
}
