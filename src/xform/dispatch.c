/*
** dispatch.c -- the owner check at the start of the twin of an
** overridable method, which forwards the call to the original when a
** class without twins overrides it, and the monitor of a synchronized
** twin with that check, which it enters by itself after the check.
*/
#include "xf_int.h"

/*
** 1 if a method with these access flags, in a class with 'cls_acc', can be
** overridden: then a class the rewriter never saw (made at run time, a
** mock or proxy, or from a jar that was not rewritten) may override the
** original method and not its twin, and the twin must check who owns the
** call ('cr_xf__emit_dispatch'). Not with N2B wrappers: a super call from such
** a class reaches the twin through the wrapper, and the check would send
** it back to the override (that mode assumes a closed world).
*/
int cr_xf__overridable(xf *x, uint16_t cls_acc, uint16_t acc,
                       const char *name) {
  if (x->o->n2b) return 0;
  if (acc & (ACC_STATIC | ACC_PRIVATE | ACC_FINAL)) return 0;
  if (name[0] == '<') return 0;
  return (cls_acc & ACC_INTERFACE) || !(cls_acc & ACC_FINAL);
}

/*
** The owner check at the start of a twin of an overridable method 'name'
** 'desc' of this class ('me' its id, 'p' the slot of the caller's node,
** 'prev' a free slot), before 'at', which must be a label:
**   if (this.getClass() == ThisClass.class || CC.owns(this, MID)) goto at;
**   goto fwd;
**   ...
**   fwd: prev = CC.set(CC.enterv(this, cc, MID));       (line 65535)
**   try { return this.name(args); } finally { CC.set(prev); }
** The twin was selected for the receiver, but the original method may be
** overridden by a class that has no twin: then the original call runs,
** selected by the JVM itself, with the caller's node in the thread-local
** slot (and a node for the selected method when it is not instrumented).
** An interface has no exact-class test; class versions below 49 cannot
** load a class constant and always ask the runtime.
** The forwarding block 'fwd' goes at the end of the body, which must be
** complete (nothing appended after it), under a line entry of its own
** (FORWARD_LINE): the twin's frame stays on the stack under the override,
** and stack walks must not show it, while the original code keeps its
** offsets' lines (HotSpot maps an offset to the nearest entry at or
** before it; with no entry before it, to no line, as without a table).
*/
void cr_xf__emit_dispatch(xf *x, cr_body *b, cr_insn *at, const char *name,
                          const char *desc, const xf_mid *me, int p, int prev) {
  cr_cpool *cp = x->c->cp;
  cr_insn *j;
  if (!x->r_owns) {
    x->r_owns =
        cr_xf__cpi(x, cr_cp_add_methodref(cp, CC_CLASS, "owns", D_OWNS, x->d));
    x->r_getclass =
        cr_xf__cpi(x, cr_cp_add_methodref(cp, "java/lang/Object", "getClass",
                                          "()Ljava/lang/Class;", x->d));
  }
  cr_insn *fwd = cr_label_new(b);
  if (!fwd) {
    cr_xf__oom(x);
    return;
  }
  if (!x->iface && x->c->major >= 49) {
    cr_xf__emit(x, b, at, CR_OP_ALOAD, 0);
    cr_xf__emit(x, b, at, CR_OP_INVOKEVIRTUAL, x->r_getclass);
    cr_xf__emit(x, b, at, CR_OP_LDC,
                cr_xf__cpi(x, cr_cp_add_class(cp, x->name, x->d)));
    if ((j = cr_xf__emit(x, b, at, CR_OP_IF_ACMPEQ, 0))) j->target = at;
  }
  cr_xf__emit(x, b, at, CR_OP_ALOAD, 0);
  cr_xf__emit_mid(x, b, at, me);
  cr_xf__emit(x, b, at, CR_OP_INVOKESTATIC, x->r_owns);
  if ((j = cr_xf__emit(x, b, at, CR_OP_IFEQ, 0))) j->target = fwd;
  cr_body_insert_before(b, NULL, fwd);
  b->line_at = fwd;
  b->line = FORWARD_LINE;
  cr_xf__emit(x, b, NULL, CR_OP_ALOAD, 0);
  cr_xf__emit(x, b, NULL, CR_OP_ALOAD, p);
  cr_xf__emit_mid(x, b, NULL, me);
  cr_xf__emit(x, b, NULL, CR_OP_INVOKESTATIC, x->r_enterv);
  cr_xf__emit(x, b, NULL, CR_OP_INVOKESTATIC, x->r_set);
  cr_xf__emit(x, b, NULL, CR_OP_ASTORE, prev);
  cr_insn *start = cr_xf__emit_label(x, b, NULL);
  cr_xf__emit(x, b, NULL, CR_OP_ALOAD, 0);
  cr_xf__emit_args(x, b, NULL, desc, 1);
  cr_insn *call = cr_xf__emit(
      x, b, NULL, x->iface ? CR_OP_INVOKEINTERFACE : CR_OP_INVOKEVIRTUAL,
      cr_xf__own_ref(x, name, desc));
  if (call && x->iface) call->b = cr_xf__arg_slots(desc) + 1;
  cr_insn *end = cr_xf__emit_label(x, b, NULL);
  cr_xf__emit_restore(x, b, NULL, prev);
  cr_xf__emit(x, b, NULL, cr_xf__ret_op(desc), 0);
  cr_xf__emit_rethrow(x, b, NULL, prev, start, end, 0);
}

/*
** A synchronized twin with an owner check must not hold the monitor of
** 'this' while it forwards: the override it forwards to may not be
** synchronized, and in the plain program runs without it (another thread
** that needs the monitor would wait for it, Thread.holdsLock and wait()
** would see it held). Such a twin is not ACC_SYNCHRONIZED; it locks by
** itself after the owner check, as javac compiles a synchronized block:
**     aload_0; astore lk;  <owner check, forwarding>
**   go: aload lk; monitorenter
**   locked: <entry, body> ... aload lk; monitorexit; <each return>
**   h: aload lk; monitorexit; athrow      [locked, h) -> h, any, last
**   tail:
** The catch-any entry comes last in the exception table, so that it is
** the outermost: every exception that leaves the body, through its own
** handlers and the rewriter's, releases the monitor once. A monitorexit
** before a return that throws (the body released the monitor itself:
** not javac's code) goes to 'h', whose monitorexit throws the same
** IllegalMonitorStateException out of the method, as the return of a
** synchronized method does.
**
** HotSpot's JITs compile a method with monitor instructions only when
** its monitor-matching analysis (GenerateOopMap) pairs every exit with
** its enter, and that analysis refuses to lock a value it already holds
** locked ("nested redundant lock"): were 'lk' a copy of slot 0 made
** after 'go', a 'synchronized (this)' in the body would lock the same
** value again and the twin would never be compiled. The copy is made
** before the owner check: 'go' starts a basic block (a branch of the
** check goes there or ends just before it), and there the analysis
** gives each local an identity of its own.
*/

/* Copy 'this' to 'lk' before 'at' (ahead of the owner check). */
void cr_xf__emit_lock_copy(xf *x, cr_body *b, cr_insn *at, int lk) {
  cr_xf__emit(x, b, at, CR_OP_ALOAD, 0);
  cr_xf__emit(x, b, at, CR_OP_ASTORE, lk);
}

/* Enter the monitor of 'lk' before 'at'; the label after the enter. */
cr_insn *cr_xf__emit_lock(xf *x, cr_body *b, cr_insn *at, int lk) {
  cr_xf__emit(x, b, at, CR_OP_ALOAD, lk);
  cr_xf__emit(x, b, at, CR_OP_MONITORENTER, 0);
  return cr_xf__emit_label(x, b, at);
}

/* Exit the monitor before each return of the body ['locked', 'tail'),
** and put the catch-any handler that exits it and rethrows at 'tail',
** last in the table. Code after 'tail' (none, or a forwarding block put
** at the end) is neither covered nor changed. */
void cr_xf__emit_unlock(xf *x, cr_body *b, cr_insn *locked, cr_insn *tail,
                        int lk) {
  for (cr_insn *i = locked; i != tail && !x->err; i = i->next) {
    if (i->op == CR_OP_LABEL || !(cr_op_info(i->op)->flags & CR_OPF_RETURN))
      continue;
    cr_xf__emit(x, b, i, CR_OP_ALOAD, lk);
    cr_xf__emit(x, b, i, CR_OP_MONITOREXIT, 0);
  }
  cr_insn *h = cr_xf__emit_label(x, b, tail);
  cr_xf__emit(x, b, tail, CR_OP_ALOAD, lk);
  cr_xf__emit(x, b, tail, CR_OP_MONITOREXIT, 0);
  cr_xf__emit(x, b, tail, CR_OP_ATHROW, 0);
  if (!x->err && cr_body_add_tcb(b, locked, h, h, 0, x->d))
    x->err = x->d->code;
  if (!x->err) b->tcb[b->ntcb - 1].orig = 0xffff;
}
