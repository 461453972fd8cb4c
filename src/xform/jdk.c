/*
** jdk.c -- what JDK mode adds (a class of the instrumented JDK): the
** policy's <redirect> entries, which send calls that hand members and
** stack frames to programs to the runtime's filters; its <thread-entry>
** methods, where a thread's own tree begins; and its <thread-field> and
** <insert-call> entries, the fields and calls that the runtime inside
** java.base needs from the JDK itself.
*/
#include <string.h>

#include "xf_int.h"

/*
** JDK mode: the calls through which the JDK hands members and stack frames
** to programs go to the runtime's filters (runtime-java/agent: Hidden,
** Frames), which call the original and leave out what the rewriter added:
** what the agent patches into an uninstrumented JDK, done here. The
** policy's <redirect> entries say which; each replacement has the
** original's stack shape (a receiver becomes the first argument).
*/
static const cr_pol_rule *jdk_edit_of(const xf *x, xf_memo *sm,
                                      const char *owner, const char *name,
                                      const char *desc) {
  int k;
  if (sm && sm->edit_asked) {
    k = sm->edit;
  } else {
    cr_pol_ref call = {owner, name, desc};
    k = cr_policy_redirect(x->o->pol, x->name, &call);
    if (sm) {
      sm->edit = k;
      sm->edit_asked = 1;
    }
  }
  return k < 0 ? NULL : cr_policy_rule(x->o->pol, (size_t)k);
}

/*
** Call site 'i' of 'owner'.'name''desc' (its memo 'sm', may be NULL) as
** its <redirect> entry has it, if it has one. 1 when the site is done,
** 0 when it goes on as a call site like any other.
*/
int cr_xf__jdk_redirect(xf *x, cr_body *b, cr_insn *i, xf_memo *sm,
                        const char *owner, const char *name, const char *desc,
                        int ccl, int prev) {
  cr_cpool *cp = x->c->cp;
  const cr_pol_rule *je = jdk_edit_of(x, sm, owner, name, desc);
  if (!je) return 0;
  /* a filter that wants the call's stack operand: there is one */
  int dup = je->after && cr_xf__arg_slots(je->to.desc) == 2;
  if (dup && cr_xf__arg_slots(desc) + (i->op != CR_OP_INVOKESTATIC) != 1)
    return 0;
  if (je->after) {
    /* the call stays, a call site like any other; the filter gets its
    ** result, and before it the call's operand when it takes two (the
    ** policy checked the shapes) */
    if (dup && !cr_xf__emit(x, b, i, CR_OP_DUP, 0)) return 1;
    cr_insn *f = cr_insn_new(b, CR_OP_INVOKESTATIC);
    if (!f) {
      cr_xf__oom(x);
      return 1;
    }
    f->a = cr_xf__cpi(x, cr_cp_add_methodref(cp, je->to.owner, je->to.name,
                                             je->to.desc, x->d));
    cr_body_insert_after(b, i, f);
    return 0;
  }
  /* the filter's call of the original makes its node from the slot */
  i->op = CR_OP_INVOKESTATIC;
  i->a = cr_xf__cpi(x, cr_cp_add_methodref(cp, je->to.owner, je->to.name,
                                           je->to.desc, x->d));
  i->b = 0;
  cr_xf__wrap_site(x, b, i, ccl, prev, NULL, 0, NULL);
  x->o->nsites_tl++;
  return 1;
}

/*
** JDK mode: methods where a thread's own code begins although a caller
** passes a node, the policy's <thread-entry> entries. A virtual thread's
** task runs under VirtualThread.run, called from the continuation its
** carrier thread entered, whose context is the carrier's: the method
** starts from the current (virtual) thread's root instead (CC.root), so
** that each virtual thread has its tree.
*/
int cr_xf__thread_entry(const xf *x, const char *name, const char *desc) {
  return cr_policy_find(x->o->pol, CR_POL_THREAD_ENTRY, x->name, name,
                        desc) >= 0;
}

/* A public transient synthetic field 'name' of type 'desc' (NULL: CC),
** queued. */
static void add_cc_field(xf *x, const char *name, const char *desc) {
  if (cr_xf__grow(x, (void **)&x->newf, &x->cnewf, x->nnewf + 1,
                  sizeof *x->newf))
    return;
  cr_member *f = &x->newf[x->nnewf++];
  memset(f, 0, sizeof *f);
  f->flags = ACC_PUBLIC | ACC_TRANSIENT | ACC_SYNTHETIC;
  f->name = (uint16_t)cr_xf__cpi(x, cr_cp_add_utf8(x->c->cp, name, x->d));
  f->desc = (uint16_t)cr_xf__cpi(
      x, cr_cp_add_utf8(x->c->cp, desc ? desc : "L" CC_CLASS ";", x->d));
}

/*
** Insert "invokestatic CC.'fn'()V" into every body of this class's method
** 'name' whose descriptor is 'desc' or its twin's: at the start
** ('at_start'), or before each return. How many bodies got it.
*/
static int insert_call(xf *x, const char *name, const char *desc,
                       int at_start, const char *fn) {
  cr_class *c = x->c;
  char *td = cr_xf_twin_desc(x->a, desc);
  int ref =
      cr_xf__cpi(x, cr_cp_add_methodref(c->cp, CC_CLASS, fn, "()V", x->d));
  int done = 0;
  if (!td || x->err) return cr_xf__oom(x), 0;
  /* the queued twins are appended by 'finish': look at both lists */
  uint32_t n = c->nmethods + x->nnewm;
  for (uint32_t k = 0; k < n && !x->err; k++) {
    cr_member *m = k < c->nmethods ? &c->methods[k] : x->newm[k - c->nmethods];
    const char *nm = cr_member_name(c, m), *ds = cr_member_desc(c, m);
    if (!nm || !ds || strcmp(nm, name) != 0 || !cr_member_code(m) ||
        (strcmp(ds, desc) != 0 && strcmp(ds, td) != 0))
      continue;
    cr_body *b;
    cr_diag md;
    cr_diag_clear(&md);
    if (cr_body_decode(&b, c, m, x->a, &md)) {
      cr_xf__warn(x, "class %s: %s%s: %s", x->name, name, ds, md.msg);
      continue;
    }
    if (at_start) {
      cr_xf__emit(x, b, b->first, CR_OP_INVOKESTATIC, ref);
    } else {
      for (cr_insn *i = b->first; i; i = i->next)
        if (i->op >= CR_OP_IRETURN && i->op <= CR_OP_RETURN)
          cr_xf__emit(x, b, i, CR_OP_INVOKESTATIC, ref);
    }
    if (cr_xf__commit(x, b, &md) == 0 && md.code)
      cr_xf__warn(x, "class %s: %s%s: %s", x->name, name, ds, md.msg);
    else if (!x->err)
      done++;
  }
  return done;
}

/*
** What the runtime of an instrumented JDK needs from the JDK itself, the
** policy's <thread-field> and <insert-call> entries for this class, in
** that order: the thread slot as two fields of java.lang.Thread (the
** thread's slot object, which holds the current node, and the thread's
** root, read after Thread.currentThread());
** the moment the VM has booted, when profiling can start (CC.start as
** System.initPhase3 returns: JDK 9 and later; the VM calls it by name, so
** it is the original-signature method, whatever its kind); and when a
** thread ends, so that its tree joins those of its name pattern (CC.ended
** as Thread.exit returns, which the VM calls when a platform thread ends:
** its own calls are in the thread's tree; and as a virtual thread's
** VirtualThread.run returns).
*/
void cr_xf__jdk_hooks(xf *x) {
  const cr_policy *p = x->o->pol;
  size_t n = cr_policy_count(p);
  for (int pass = 0; pass < 2; pass++)
    for (size_t k = 0; k < n && !x->err; k++) {
      const cr_pol_rule *r = cr_policy_rule(p, k);
      if (r->kind != (pass ? CR_POL_INSERT_CALL : CR_POL_THREAD_FIELD) ||
          strcmp(r->cls, x->name) != 0 || cr_policy_removed(p, k))
        continue;
      int done = 0;
      if (!pass)
        add_cc_field(x, r->name, r->desc);
      else if (!(done = insert_call(x, r->name, r->desc, 0, r->call)))
        cr_xf__warn(x, "class %s: no %s%s: %s", x->name, r->name, r->desc,
                    strcmp(r->call, "start") == 0
                        ? "profiling will not start"
                    : strcmp(r->call, "exit") == 0
                        ? "a shutdown hook writes the profile"
                        : "the trees of ended threads are not merged");
      if (done && strcmp(r->call, "exit") == 0) x->o->nexit += (uint32_t)done;
    }
}
