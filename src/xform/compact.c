/*
** compact.c -- the compact form of a body that its ordinary instrumented
** code would push past HotSpot's limit for compiling a method: the slot
** holds the method's node from the entry to every return or throw, so
** that most call sites and class initialisations need no code. It owns
** the slot's protocol around the compact code, the handlers it leaves
** alone, and, in app mode, where the node is put back after calls that
** may leave another in the slot.
*/
#include "xf_int.h"

/*
** The handlers of 'b' that cover their own start, as javac's catch-any
** handler of a synchronized block does ("astore t; aload lock;
** monitorexit; aload t; athrow", the range from the handler to its
** monitorexit), flagged in '*self' by node id. Putting the node back
** there would be a call covered by its own handler, which C1 refuses to
** compile ("exception handler covers itself"); such a handler needs it
** only if its code reads the slot before it throws. 0, or 1 when one
** may (a call, a class initialisation, a branch before the 'athrow').
*/
int cr_xf__self_handlers(xf *x, cr_body *b, uint8_t **self) {
  uint32_t *pos = cr_arena_calloc(x->a, b->ninsn + 1, sizeof *pos);
  uint8_t *s = cr_arena_calloc(x->a, b->ninsn + 1, 1);
  if (!pos || !s) return cr_xf__oom(x);
  uint32_t n = 0;
  for (cr_insn *i = b->first; i; i = i->next) pos[i->id] = n++;
  for (uint32_t k = 0; k < b->ntcb; k++) {
    const cr_tcb *t = &b->tcb[k];
    uint32_t h = pos[t->handler->id];
    if (h < pos[t->start->id] || h >= pos[t->end->id]) continue;
    s[t->handler->id] = 1;
    for (cr_insn *i = t->handler->next;; i = i->next) {
      if (!i) return 1;
      if (i->op == CR_OP_LABEL) continue;
      if (i->op == CR_OP_ATHROW) break;
      uint16_t fl = cr_op_info(i->op)->flags;
      if ((fl & (CR_OPF_INVOKE | CR_OPF_COND | CR_OPF_GOTO | CR_OPF_JSR |
                 CR_OPF_SWITCH | CR_OPF_RETURN | CR_OPF_RET |
                 CR_OPF_NOFALL)) || cr_xf__may_init(i))
        return 1;
    }
  }
  *self = s;
  return 0;
}

/*
** App mode: the slot holds 'cc' in a compact body ['cstart', 'tail') only
** until an ESI call runs, whose callee's library calls publish their
** nodes and leave them there ('cr_xf__wrap_site'). So the instructions that
** need 'cc' in the slot, those marked AUX_READS (a class's
** initialisation, a call whose callee reads the slot), put it back first
** ("aload cc; CC.restore") where an ESI call (AUX_DIRTIES) may have run
** since it was last put there: only there, not after each ESI call, as
** the compact form is there to save bytes.
**
** Whether one may have run is a forward data flow over the region, one
** bit per label in 'in': a label's slot is dirty if a branch, switch or
** fall-through that reaches it carries a dirty slot. Handlers, labels
** that code outside the region jumps to, and the code after a 'jsr'
** are taken as dirty. 'reset_step' is one instruction's transfer
** (setting 'in' for the labels it jumps to); 'cr_xf__compact_resets' runs it
** to a fixed point, where labels only ever turn dirty, then emits.
*/
static void reset_reach(uint8_t *in, uint32_t n, const cr_insn *l,
                        int *changed) {
  if (l && l->id < n && !in[l->id]) {
    in[l->id] = 1;
    *changed = 1;
  }
}

/* 'reset_reach' for each label jump, branch or switch 'i' goes to. */
static void reset_targets(uint8_t *in, uint32_t n, const cr_insn *i,
                          int *changed) {
  reset_reach(in, n, i->target, changed);
  if (!i->sw) return;
  reset_reach(in, n, i->sw->dflt, changed);
  for (uint32_t k = 0; k < i->sw->n; k++)
    reset_reach(in, n, i->sw->targets[k], changed);
}

static int reset_step(xf *x, const cr_insn *i, int dirty, int ccl,
                      uint8_t *in, uint32_t n, int *changed) {
  if (i->op == CR_OP_LABEL) return dirty || (i->id < n && in[i->id]);
  if (i->aux & AUX_READS) dirty = 0;    /* put back first if dirty */
  if (i->aux & AUX_DIRTIES)
    dirty = 1;
  else if (i->op == CR_OP_INVOKESTATIC && i->prev &&
           i->prev->op == CR_OP_ALOAD && i->prev->a == ccl &&
           (i->a == x->r_set || (x->r_restore && i->a == x->r_restore)))
    dirty = 0;
  if (dirty) reset_targets(in, n, i, changed);
  uint32_t fl = cr_op_info(i->op)->flags;
  if (fl & CR_OPF_JSR) return 1;
  if (fl & CR_OPF_NOFALL) return 0;     /* only a label is reached */
  return dirty;
}

void cr_xf__compact_resets(xf *x, cr_body *b, cr_insn *cstart, cr_insn *tail,
                           int ccl) {
  uint32_t n = b->ninsn;
  uint8_t *in = cr_arena_calloc(x->a, n + 1, 1);
  uint8_t *inside = cr_arena_calloc(x->a, n + 1, 1);
  if (!in || !inside) {
    cr_xf__oom(x);
    return;
  }
  for (cr_insn *i = cstart; i && i != tail; i = i->next) inside[i->id] = 1;
  int changed = 0;
  for (cr_insn *i = b->first; i; i = i->next)
    if (!inside[i->id])         /* whatever comes from outside: dirty */
      reset_targets(in, n, i, &changed);
  for (uint32_t k = 0; k < b->ntcb; k++)
    reset_reach(in, n, b->tcb[k].handler, &changed);
  do {
    changed = 0;
    int dirty = 0;
    for (cr_insn *i = cstart; i && i != tail; i = i->next)
      dirty = reset_step(x, i, dirty, ccl, in, n, &changed);
  } while (changed);
  int dirty = 0;
  for (cr_insn *i = cstart; i && i != tail && !x->err; i = i->next) {
    if ((i->aux & AUX_READS) && dirty) cr_xf__emit_putback(x, b, i, ccl);
    dirty = reset_step(x, i, dirty, ccl, in, n, &changed);
  }
}

/*
** The compact body's protocol around its code ['cstart', 'tail') (see
** 'build'), after its call sites: the slot gets 'cc' at 'cstart' (its
** old value to 'prev'), back at the start of each of the method's own
** handlers (the first 'norig' entries of the table) but those flagged
** in 'self' ('cr_xf__self_handlers'), and 'prev' again before each return.
** With 'saved', 'prev' already holds the value to put back (an app-mode
** constructor's, from its entry: the calls before 'cstart' may have
** left another in the slot, see 'cr_xf__wrap_site').
*/
void cr_xf__compact_code(xf *x, cr_body *b, cr_insn *cstart, cr_insn *tail,
                         int ccl, int prev, int saved, uint32_t norig,
                         const uint8_t *self) {
  cr_xf__emit(x, b, cstart, CR_OP_ALOAD, ccl);
  cr_xf__emit(x, b, cstart, CR_OP_INVOKESTATIC, x->r_set);
  cr_xf__emit(x, b, cstart, saved ? CR_OP_POP : CR_OP_ASTORE, saved ? 0 : prev);
  for (uint32_t k = 0; k < norig && !x->err; k++) {
    cr_insn *h = b->tcb[k].handler;
    uint32_t j = 0;
    while (j < k && b->tcb[j].handler != h) j++;
    if (j < k || self[h->id]) continue; /* done, or not wanted */
    if (x->readers) cr_xf__emit_putback(x, b, h->next, ccl);
    else cr_xf__emit_restore(x, b, h->next, ccl);
  }
  for (cr_insn *i = cstart; i && i != tail && !x->err; i = i->next)
    if (i->op != CR_OP_LABEL && (cr_op_info(i->op)->flags & CR_OPF_RETURN)) {
      if (x->readers) cr_xf__emit_exit(x, b, i, prev);
      else cr_xf__emit_restore(x, b, i, prev);
    }
}
