/*
** frames.c -- basic blocks and type inference to a fixpoint over them:
** the verification types at every frame point, unreachable code,
** max_stack (JVMS 4.10.1, ASM's Frame and MethodWriter.computeAllFrames).
*/
#include "an_int.h"

/*
** A basic block. Blocks start at a real instruction that follows a label
** something jumps to or that bounds an exception range, or that follows
** a branch, switch, return, throw or a long-form conditional branch.
** Labels belong to the block of the next real instruction.
*/
typedef struct blk {
  cr_insn *first, *last;   /* real instructions */
  vt *st;                  /* entry: 'nloc' locals then 'depth' stack */
  uint32_t depth;
  vt *hint;                /* the original frame here, in slots ('nloc'
                              locals then 'hdepth' stack), or NULL */
  uint32_t hdepth;
  uint32_t h0, nh;         /* covering handlers: hl[h0 .. h0+nh) */
  uint8_t fp;              /* a frame is needed here */
  uint8_t inq;
} blk;

typedef struct fa {
  cr_an *an;
  cr_body *b;
  cr_diag *d;
  blk *bl;
  uint32_t nbl;
  uint32_t *hl;            /* covering tcb indices, grouped per block */
  uint32_t nloc;
  uint32_t onloc;          /* the decoded code's own max_locals: what the
                              rewriter adds lies above */
  vt *loc, *stk, *acc;     /* the working frame; handler accumulator */
  uint32_t sp, cap, maxsp;
  int lchanged;            /* a local changed in the last instruction */
  uint32_t *wl;            /* worklist of block indices */
  uint32_t nwl;
  cr_insn **byid;          /* the 'new' instructions by id (made by the
                              first one run) */
} fa;

static int oom(fa *f) { return cr_diag_set(f->d, CR_ENOMEM, -1,
                                           "out of memory"); }

/* Malformed code at 'i' -- unless a type could not be made for want of
** memory, which is reported as such. */
static int bad(fa *f, const cr_insn *i, const char *msg) {
  if (f->an->oom) return oom(f);
  return cr_diag_set(f->d, CR_EFORMAT, -1, "%s: offset %u: %s: %s",
                     cr_body_where(f->b), i->off, cr_op_info(i->op)->name,
                     msg);
}

static int is_ref(vt v) {
  return VT_KIND(v) == CR_VT_OBJECT || VT_KIND(v) == CR_VT_NULL;
}

/* Join of two values (JVMS 4.10.1.2 type lattice). */
static vt merge(cr_an *an, vt x, vt y) {
  if (x == y) return x;
  if (is_ref(x) && is_ref(y)) {
    if (VT_KIND(x) == CR_VT_NULL) return y;
    if (VT_KIND(y) == CR_VT_NULL) return x;
    return VT(CR_VT_OBJECT, cr_an__join(an, VT_ID(x), VT_ID(y)));
  }
  return VT_TOP;
}

/* ------------------------------------------------------------- blocks */

static int ends_block(const cr_insn *i) {
  uint16_t fl = cr_op_info(i->op)->flags;
  return i->target || i->sw || (fl & CR_OPF_NOFALL);
}

/*
** Mark every label that starts a basic block ('aux' = 1, others 0): branch
** and switch targets, and the bounds and handlers of exception ranges.
*/
void cr_an__mark_leaders(cr_body *b) {
  for (cr_insn *i = b->first; i; i = i->next) i->aux = 0;
  for (cr_insn *i = b->first; i; i = i->next) {
    if (i->target) i->target->aux = 1;
    if (i->sw) {
      i->sw->dflt->aux = 1;
      for (uint32_t j = 0; j < i->sw->n; j++) i->sw->targets[j]->aux = 1;
    }
  }
  for (uint32_t k = 0; k < b->ntcb; k++)
    b->tcb[k].start->aux = b->tcb[k].end->aux = b->tcb[k].handler->aux = 1;
}

static int build_blocks(fa *f) {
  cr_body *b = f->b;
  /* the labels that start a block, by id (as 'cr_an__mark_leaders' but
  ** without a pass to clear 'aux' first) */
  uint8_t *lead = cr_arena_calloc(b->a, b->ninsn + 1, 1);
  /* at most one block per real instruction: filled in one pass */
  f->bl = cr_arena_alloc(b->a, (b->ninsn + 1) * sizeof *f->bl);
  if (!lead || !f->bl) return oom(f);
  for (cr_insn *i = b->first; i; i = i->next) {
    if (i->target) lead[i->target->id] = 1;
    if (i->sw) {
      lead[i->sw->dflt->id] = 1;
      for (uint32_t j = 0; j < i->sw->n; j++) lead[i->sw->targets[j]->id] = 1;
    }
  }
  for (uint32_t k = 0; k < b->ntcb; k++)
    lead[b->tcb[k].start->id] = lead[b->tcb[k].end->id] =
        lead[b->tcb[k].handler->id] = 1;
  /* labels take the block of the next real instruction: those since the
  ** last one ('pend' on) get it when it comes, those at the end 'nbl' */
  uint32_t n = 0;
  int brk = 1;
  cr_insn *pend = NULL;
  for (cr_insn *i = b->first; i; i = i->next) {
    if (i->op == CR_OP_LABEL) {
      brk |= lead[i->id];
      if (!pend) pend = i;
      continue;
    }
    if (brk) f->bl[n++] = (blk){.first = i};
    f->bl[n - 1].last = i;
    for (; pend; pend = pend->next == i ? NULL : pend->next)
      pend->aux = n - 1;
    i->aux = n - 1;
    brk = ends_block(i);
  }
  f->nbl = n;
  for (; pend; pend = pend->next) pend->aux = f->nbl;
  /* frame points */
  for (uint32_t k = 0; k < f->nbl; k++) {
    cr_insn *i = f->bl[k].last;
    int past = i->target && i->target->aux >= f->nbl;
    for (uint32_t j = 0; i->sw && j <= i->sw->n; j++)
      past |= (j < i->sw->n ? i->sw->targets[j] : i->sw->dflt)->aux >= f->nbl;
    if (past) return bad(f, i, "branch to the end of the code");
    if (i->target) f->bl[i->target->aux].fp = 1;
    if (i->sw) {
      f->bl[i->sw->dflt->aux].fp = 1;
      for (uint32_t j = 0; j < i->sw->n; j++)
        f->bl[i->sw->targets[j]->aux].fp = 1;
    }
    int nofall = (cr_op_info(i->op)->flags & CR_OPF_NOFALL) != 0;
    int lcond = i->lng && (cr_op_info(i->op)->flags & CR_OPF_COND);
    if ((nofall || lcond) && k + 1 < f->nbl) f->bl[k + 1].fp = 1;
  }
  /* covering handlers per block */
  uint32_t tot = 0;
  for (uint32_t k = 0; k < b->ntcb; k++) {
    cr_tcb *t = &b->tcb[k];
    if (t->handler->aux >= f->nbl)
      return cr_diag_set(f->d, CR_EFORMAT, -1,
                         "%s: exception handler at the end of the code",
                         cr_body_where(b));
    f->bl[t->handler->aux].fp = 1;
    for (uint32_t j = t->start->aux; j < t->end->aux && j < f->nbl; j++)
      f->bl[j].nh++, tot++;
  }
  f->hl = cr_arena_alloc(b->a, (tot ? tot : 1) * sizeof *f->hl);
  if (!f->hl) return oom(f);
  uint32_t at = 0;
  for (uint32_t k = 0; k < f->nbl; k++) {
    f->bl[k].h0 = at;
    at += f->bl[k].nh;
    f->bl[k].nh = 0;
  }
  for (uint32_t k = 0; k < b->ntcb; k++) {
    cr_tcb *t = &b->tcb[k];
    for (uint32_t j = t->start->aux; j < t->end->aux && j < f->nbl; j++)
      f->hl[f->bl[j].h0 + f->bl[j].nh++] = k;
  }
  return 0;
}

/* ------------------------------------------------------ interpretation */

static int grow(fa *f, uint32_t need) {
  if (need <= f->cap) return 0;
  uint32_t nc = f->cap * 2 + 16;
  while (nc < need) nc *= 2;
  vt *s = cr_arena_realloc(f->b->a, f->stk, f->cap * sizeof *s,
                           nc * sizeof *s);
  if (!s) return oom(f);
  f->stk = s;
  f->cap = nc;
  return 0;
}

#define NEED(k) do { if (f->sp + (k) > f->cap && grow(f, f->sp + (k))) \
                       return f->d->code; } while (0)
#define PUSH(v) (f->stk[f->sp++] = (v))
#define POPN(k) do { if (f->sp < (uint32_t)(k)) \
                       return bad(f, i, "stack underflow"); \
                     f->sp -= (k); } while (0)

/* Push 'v', two slots for long and double. */
static int push(fa *f, vt v) {
  NEED(2);
  PUSH(v);
  if (VT_IS2(v)) PUSH(VT_TOP);
  return 0;
}

/*
** Instructions whose effect is fixed: they pop what the opcode table says,
** then push a value of this type. One character per opcode (ORDER JVMS):
** T pushes nothing, I int, J long, F float, D double, - not fixed.
*/
static const char simple_tab[CR_OP__COUNT + 1] =
    "T-IIIIIIIJJFFFDDII----------------------------IJFD-III----------"
    "---------------TTTTTTTTTT-------IJFDIJFDIJFDIJFDIJFDIJFDIJIJIJIJ"
    "IJIJTJFDIFDIJDIJFIIIIIIIITTTTTTTTTTTTTTT--TTTTTTTT------------IT"
    "-ITT--TTT-";

static int simple(unsigned op) {
  /* a table, not a switch: this runs for every instruction */
  static const int8_t kind[128] = {
      ['T'] = CR_VT_TOP + 1, ['I'] = CR_VT_INTEGER + 1,
      ['J'] = CR_VT_LONG + 1, ['F'] = CR_VT_FLOAT + 1,
      ['D'] = CR_VT_DOUBLE + 1};
  return op < CR_OP__COUNT ? kind[(unsigned char)simple_tab[op]] - 1 : -1;
}

/* Write 'v' to local 'n' (two slots for long/double), invalidating a
** long or double whose second half it overwrites. */
static int store(fa *f, const cr_insn *i, uint32_t n, vt v) {
  uint32_t w = VT_IS2(v) ? 2 : 1;
  if (n + w > f->nloc) return bad(f, i, "local index out of range");
  if (n > 0 && VT_IS2(f->loc[n - 1])) f->loc[n - 1] = VT_TOP;
  f->loc[n] = v;
  if (w == 2) f->loc[n + 1] = VT_TOP;
  f->lchanged = 1;
  return 0;
}

/* Type pushed by ldc/ldc_w/ldc2_w of pool entry 'k'. */
static vt ldc_type(fa *f, uint32_t k, int *err) {
  cr_an *an = f->an;
  cr_cpool *cp = an->c->cp;
  const cr_cpentry *e = cr_cp_get(cp, k);
  if (!e) {
    *err = 1;
    return VT_TOP;
  }
  switch (e->tag) {
  case CR_CP_INTEGER: return VT_INT;
  case CR_CP_FLOAT: return VT_FLOAT;
  case CR_CP_LONG: return VT_LONG;
  case CR_CP_DOUBLE: return VT_DOUBLE;
  case CR_CP_STRING: return VT(CR_VT_OBJECT, an->string);
  case CR_CP_CLASS: return VT(CR_VT_OBJECT, an->klass);
  case CR_CP_METHODTYPE: return VT(CR_VT_OBJECT, an->mtype);
  case CR_CP_METHODHANDLE: return VT(CR_VT_OBJECT, an->mhandle);
  case CR_CP_DYNAMIC: {
    const cr_cpentry *nat = cr_cp_get(cp, e->b);
    size_t n;
    const char *s = nat ? cr_cp_utf8(cp, nat->b, &n) : NULL;
    if (!s) break;
    return cr_an__desc(an, s, n, err);
  }
  default:
    break;
  }
  *err = 1;
  return VT_TOP;
}

/* The initialised type for receiver 'r' of an <init> call. */
static vt inited(fa *f, const cr_insn *i, vt r, int *err) {
  if (VT_KIND(r) == CR_VT_UNINITTHIS)
    return VT(CR_VT_OBJECT, f->an->self);
  if (VT_KIND(r) == CR_VT_UNINIT) {
    const cr_insn *nw = f->byid[VT_ID(r)];
    int32_t id = cr_an__class(f->an, (uint32_t)nw->a);
    if (id >= 0) return VT(CR_VT_OBJECT, id);
  }
  (void)i;
  *err = 1;
  return VT_TOP;
}

/*
** Argument slots of method descriptor 's'/'n' and its return type (into
** '*ret'/'*rl'); -1 when it is malformed. A quick walk: the types inside
** are checked where they are used ('cr_an__desc').
*/
static int arg_slots(const char *s, size_t n, const char **ret,
                     size_t *rl) {
  const char *p = s + 1, *e = s + n;
  int slots = 0;
  if (n < 3 || s[0] != '(') return -1;
  while (p < e && *p != ')') {
    const char *q = p;
    while (q < e && *q == '[') q++;
    if (q >= e) return -1;
    if (*q == 'L') {
      q = memchr(q, ';', (size_t)(e - q));
      if (!q) return -1;
    }
    slots += (p == q && (*q == 'J' || *q == 'D')) ? 2 : 1;
    p = q + 1;
  }
  if (p >= e - 1) return -1;
  *ret = p + 1;
  *rl = (size_t)(e - p - 1);
  return slots;
}

/*
** The pool entry of invoke 'i': argument slots, return type, whether it
** names <init>; worked out once per pool index. 0, or -1 when the
** descriptor is malformed ("bad method reference") and -2 when its
** return type is ("bad return type"); these are not cached, as every use
** reports them. '*out' is the cache slot, or 'tmp' (out of memory, or a
** bad return type: the argument slots are still good).
*/
static int invoke_ref(fa *f, const cr_insn *i, an_ref *tmp,
                      const an_ref **out) {
  an_ref *r = cr_an__ref(f->an, (uint32_t)i->a);
  if (r && r->kind == AN_INVOKE) {
    *out = r;
    return 0;
  }
  size_t n, nl, tl;
  const char *desc = cr_insn_desc(f->b, i, &n), *ty;
  int args, err = 0;
  if (!desc || (args = arg_slots(desc, n, &ty, &tl)) < 0) return -1;
  const char *name = cr_insn_name(f->b, i, &nl);
  an_ref v = {VT_TOP, args, AN_INVOKE, 0};
  if (name && nl == 6 && memcmp(name, "<init>", 6) == 0) v.flags |= AN_INIT;
  if (!(ty[0] == 'V' && tl == 1)) {
    v.ty = cr_an__desc(f->an, ty, tl, &err);
    v.flags |= AN_RETURNS;
  }
  *tmp = v;
  *out = tmp;
  if (err) return -2;
  if (r) *out = r, *r = v;
  return 0;
}

static int invoke(fa *f, const cr_insn *i) {
  an_ref tmp;
  const an_ref *r;
  int err = 0, bad_ret = invoke_ref(f, i, &tmp, &r);
  if (bad_ret == -1) return bad(f, i, "bad method reference");
  POPN(r->args);
  if (i->op != CR_OP_INVOKESTATIC && i->op != CR_OP_INVOKEDYNAMIC) {
    POPN(1);
    vt recv = f->stk[f->sp];
    if (i->op == CR_OP_INVOKESPECIAL && (r->flags & AN_INIT)) {
      vt to = inited(f, i, recv, &err);
      if (err) return bad(f, i, "<init> on an initialised value");
      for (uint32_t k = 0; k < f->nloc; k++)
        if (f->loc[k] == recv) f->loc[k] = to, f->lchanged = 1;
      for (uint32_t k = 0; k < f->sp; k++)
        if (f->stk[k] == recv) f->stk[k] = to;
    }
  }
  if (bad_ret) return bad(f, i, "bad return type");
  if (!(r->flags & AN_RETURNS)) return 0;
  return push(f, r->ty);
}

static int field(fa *f, const cr_insn *i) {
  an_ref *r = cr_an__ref(f->an, (uint32_t)i->a);
  vt v;
  if (r && r->kind == AN_FIELD) {
    v = r->ty;
  } else {
    size_t n;
    int err = 0;
    const char *desc = cr_insn_desc(f->b, i, &n);
    if (!desc) return bad(f, i, "bad field reference");
    v = cr_an__desc(f->an, desc, n, &err);
    if (err) return bad(f, i, "bad field descriptor");
    if (r) *r = (an_ref){v, 0, AN_FIELD, 0};
  }
  uint32_t w = VT_IS2(v) ? 2 : 1;
  switch (i->op) {
  case CR_OP_GETSTATIC: return push(f, v);
  case CR_OP_PUTSTATIC: POPN(w); return 0;
  case CR_OP_GETFIELD: POPN(1); return push(f, v);
  default: POPN(w + 1); return 0;
  }
}

/* The type of the elements of array type 'a' (aaload). */
static vt component(fa *f, vt a) {
  cr_an *an = f->an;
  if (VT_KIND(a) == CR_VT_NULL) return VT_NULL;
  if (VT_KIND(a) == CR_VT_OBJECT) {
    const an_type *t = &an->t[VT_ID(a)];
    if (t->len > 1 && t->name[0] == '[') {
      int err = 0;
      vt v = cr_an__desc(an, t->name + 1, t->len - 1, &err);
      if (!err && is_ref(v)) return v;
    }
  }
  return VT(CR_VT_OBJECT, an->object);
}

/* Array type with one more dimension than the class named by pool entry
** 'k' (anewarray). */
static int32_t array_of_class(fa *f, uint32_t k) {
  int32_t id = cr_an__class(f->an, k);
  if (id < 0) return -1;
  const an_type *t = &f->an->t[id];
  char buf[512];
  size_t len = t->name[0] == '[' ? t->len + 1 : t->len + 3;
  char *p = len <= sizeof buf ? buf : cr_arena_alloc(f->b->a, len);
  if (!p) return -1;
  p[0] = '[';
  if (t->name[0] == '[') {
    memcpy(p + 1, t->name, t->len);
  } else {
    p[1] = 'L';
    memcpy(p + 2, t->name, t->len);
    p[len - 1] = ';';
  }
  return cr_an__intern_copy(f->an, p, len);
}

static const char *const newarray_desc[12] = {
    NULL, NULL, NULL, NULL, "[Z", "[C", "[F", "[D", "[B", "[S", "[I", "[J"};

/* Execute 'i' on the working frame. */
static int exec(fa *f, const cr_insn *i) {
  unsigned op = i->op;
  const cr_opinfo *oi = cr_op_info(op);
  int s = simple(op), err = 0;
  f->lchanged = 0;
  if (s >= 0) {
    POPN(oi->pop);
    return s == CR_VT_TOP ? 0 : push(f, VT(s, 0));
  }
  if (oi->flags & CR_OPF_LOAD) {
    uint32_t n = (uint32_t)cr_insn_local(i);
    if (n + ((oi->flags & CR_OPF_TWO) ? 2 : 1) > f->nloc)
      return bad(f, i, "local index out of range");
    vt v = f->loc[n];
    switch (op >= CR_OP_ILOAD_0 ? (op - CR_OP_ILOAD_0) / 4
                                : op - CR_OP_ILOAD) {
    case 0: v = VT_INT; break;
    case 1: v = VT_LONG; break;
    case 2: v = VT_FLOAT; break;
    case 3: v = VT_DOUBLE; break;
    default: break;   /* aload: what the local holds */
    }
    return push(f, v);
  }
  if (oi->flags & CR_OPF_STORE) {
    uint32_t w = (oi->flags & CR_OPF_TWO) ? 2 : 1;
    POPN(w);
    return store(f, i, (uint32_t)cr_insn_local(i), f->stk[f->sp]);
  }
  if (oi->flags & CR_OPF_INVOKE) return invoke(f, i);
  if (oi->flags & CR_OPF_FIELD) return field(f, i);
  vt a, b, c, d;
  switch (op) {
  case CR_OP_ACONST_NULL: return push(f, VT_NULL);
  case CR_OP_LDC: case CR_OP_LDC_W: case CR_OP_LDC2_W: {
    vt v = ldc_type(f, (uint32_t)i->a, &err);
    if (err || (op == CR_OP_LDC2_W) != (VT_IS2(v) != 0))
      return bad(f, i, "bad constant");
    return push(f, v);
  }
  case CR_OP_AALOAD:
    POPN(2);
    return push(f, component(f, f->stk[f->sp]));
  case CR_OP_DUP:
    POPN(1);
    a = f->stk[f->sp];
    NEED(2);
    PUSH(a); PUSH(a);
    return 0;
  case CR_OP_DUP_X1:
    POPN(2);
    b = f->stk[f->sp]; a = f->stk[f->sp + 1];
    NEED(3);
    PUSH(a); PUSH(b); PUSH(a);
    return 0;
  case CR_OP_DUP_X2:
    POPN(3);
    c = f->stk[f->sp]; b = f->stk[f->sp + 1]; a = f->stk[f->sp + 2];
    NEED(4);
    PUSH(a); PUSH(c); PUSH(b); PUSH(a);
    return 0;
  case CR_OP_DUP2:
    POPN(2);
    b = f->stk[f->sp]; a = f->stk[f->sp + 1];
    NEED(4);
    PUSH(b); PUSH(a); PUSH(b); PUSH(a);
    return 0;
  case CR_OP_DUP2_X1:
    POPN(3);
    c = f->stk[f->sp]; b = f->stk[f->sp + 1]; a = f->stk[f->sp + 2];
    NEED(5);
    PUSH(b); PUSH(a); PUSH(c); PUSH(b); PUSH(a);
    return 0;
  case CR_OP_DUP2_X2:
    POPN(4);
    d = f->stk[f->sp]; c = f->stk[f->sp + 1]; b = f->stk[f->sp + 2];
    a = f->stk[f->sp + 3];
    NEED(6);
    PUSH(b); PUSH(a); PUSH(d); PUSH(c); PUSH(b); PUSH(a);
    return 0;
  case CR_OP_SWAP:
    POPN(2);
    b = f->stk[f->sp]; a = f->stk[f->sp + 1];
    PUSH(a); PUSH(b);
    return 0;
  case CR_OP_NEW:
    if (cr_an__class(f->an, (uint32_t)i->a) < 0)
      return bad(f, i, "bad class reference");
    /* an uninitialised value names its 'new': remember it by id (values
    ** of this kind only ever come from here) */
    if (!f->byid &&
        !(f->byid = cr_arena_calloc(f->b->a, f->b->ninsn + 1,
                                    sizeof *f->byid)))
      return oom(f);
    f->byid[i->id] = (cr_insn *)i;
    return push(f, VT(CR_VT_UNINIT, i->id));
  case CR_OP_NEWARRAY: {
    POPN(1);
    if (i->a < 4 || i->a > 11) return bad(f, i, "bad array type");
    int32_t id = cr_an__intern(f->an, newarray_desc[i->a], 2);
    if (id < 0) return oom(f);
    return push(f, VT(CR_VT_OBJECT, id));
  }
  case CR_OP_ANEWARRAY: {
    POPN(1);
    int32_t id = array_of_class(f, (uint32_t)i->a);
    if (id < 0) return bad(f, i, "bad class reference");
    return push(f, VT(CR_VT_OBJECT, id));
  }
  case CR_OP_CHECKCAST: case CR_OP_MULTIANEWARRAY: {
    POPN(op == CR_OP_CHECKCAST ? 1 : i->b);
    int32_t id = cr_an__class(f->an, (uint32_t)i->a);
    if (id < 0) return bad(f, i, "bad class reference");
    return push(f, VT(CR_VT_OBJECT, id));
  }
  default:
    return bad(f, i, "not supported by the frame computation");
  }
}

/* ------------------------------------------------------------ dataflow */

/* A hint's TOP that the original frame states (or implies: a local past
** those it lists), unlike the TOP of what it states that carries no hint
** (an uninitialized value, the second half of a long). */
#define VT_HTOP VT(CR_VT_TOP, 1)

/* The original frame's type for slot 'j' of block 't' (a local, or
** stack slot j - nloc), when it states a class or array type; else 0. */
static vt stated(const fa *f, const blk *t, uint32_t j, uint32_t sp) {
  if (!t->hint || (j >= f->nloc && t->hdepth != sp)) return 0;
  vt h = t->hint[j];
  return VT_KIND(h) == CR_VT_OBJECT ? h : 0;
}

/* Whether the original frame of block 't' states local 'j', one of the
** code's own, as TOP. */
static int stated_top(const fa *f, const blk *t, uint32_t j) {
  return t->hint && j < f->onloc && t->hint[j] == VT_HTOP;
}

/*
** Merge the working frame (locals 'loc', stack 'stk[0..sp)') into the
** entry of block 'k'; queue it when it changed. Where the original
** StackMapTable states a class or array type at that point, that type is
** kept instead of the join: the original code was verified with it, and
** HotSpot's verifier loads the classes it must compare (an incoming class
** against a stated class), so a join more precise than the stated type
** (a common superclass where javac stated an interface) would load, as
** the class is linked, classes the program loads later, when it runs.
** A local of the code's own that the original frame states as TOP (javac:
** out of scope) stays TOP: the original code does not read it before it
** stores to it, and the rewriter's code reads only the locals it adds,
** above the code's own, and the extra parameter of a twin before the
** first original instruction; a join of its values would have the
** verifier compare, and load, their classes.
** Where no type is stated, a join that had to guess (a type the
** hierarchy lacks) is learnt from.
*/
static int flow(fa *f, uint32_t k, const vt *loc, const vt *stk,
                uint32_t sp, const cr_insn *from) {
  blk *t = &f->bl[k];
  if (!t->st) {
    t->st = cr_arena_alloc(f->b->a, (f->nloc + sp + 1) * sizeof(vt));
    if (!t->st) return oom(f);
    memcpy(t->st, loc, f->nloc * sizeof(vt));
    if (sp) memcpy(t->st + f->nloc, stk, sp * sizeof(vt));
    t->depth = sp;
    for (uint32_t j = 0; t->hint && j < f->nloc + sp; j++) {
      if (!is_ref(t->st[j])) continue;
      if (stated_top(f, t, j)) {
        t->st[j] = VT_TOP;
        continue;
      }
      vt h = stated(f, t, j, sp);
      if (h) t->st[j] = h;
    }
  } else {
    if (t->depth != sp)
      return cr_diag_set(f->d, CR_EFORMAT, -1,
                         "%s: offset %u: stack height %u from offset %u, "
                         "%u on another path", cr_body_where(f->b),
                         t->first->off, sp, from->off, t->depth);
    int changed = 0;
    vt *st = t->st;
    cr_an *an = f->an;
    for (uint32_t j = 0; j < f->nloc + sp; j++) {
      vt in = j < f->nloc ? loc[j] : stk[j - f->nloc];
      uint32_t g0 = an->guesses;
      vt m = merge(an, st[j], in);
      int guess = an->guesses != g0;
      if (t->hint && is_ref(m) && stated_top(f, t, j)) {
        m = VT_TOP;
      } else if (t->hint && is_ref(m)) {
        vt h = stated(f, t, j, sp);
        if (h) {
          m = h;
          if (guess && VT_KIND(st[j]) == CR_VT_OBJECT)
            cr_an__learn(an, VT_ID(st[j]), VT_ID(h));
          if (guess && VT_KIND(in) == CR_VT_OBJECT)
            cr_an__learn(an, VT_ID(in), VT_ID(h));
        }
      }
      if (m != st[j]) st[j] = m, changed = 1;
    }
    if (!changed) return 0;
  }
  if (!t->inq) {
    t->inq = 1;
    f->wl[f->nwl++] = k;
  }
  return 0;
}

/* Locals at entry from the descriptor: 'this' (uninitialised in
** constructors other than Object's), the arguments, then TOP. */
static int entry_state(fa *f, vt *loc) {
  cr_an *an = f->an;
  cr_body *b = f->b;
  size_t n;
  const char *desc = cr_cp_utf8(an->c->cp, b->m->desc, &n);
  const char *name = cr_member_name(an->c, b->m);
  uint32_t k = 0;
  for (uint32_t j = 0; j < f->nloc; j++) loc[j] = VT_TOP;
  if (!(b->m->flags & 0x0008)) {
    int init = name && strcmp(name, "<init>") == 0 &&
               an->self != an->object;
    loc[k++] = init ? VT_UTHIS : VT(CR_VT_OBJECT, an->self);
  }
  cr_desc_iter it;
  const char *ty;
  size_t tl;
  int r, err = 0;
  if (!desc || cr_desc_iter_init(&it, desc, n)) goto bad;
  while ((r = cr_desc_next(&it, &ty, &tl)) == 1) {
    vt v = cr_an__desc(an, ty, tl, &err);
    if (err || k + (VT_IS2(v) ? 2 : 1) > f->nloc) goto bad;
    loc[k++] = v;
    if (VT_IS2(v)) loc[k++] = VT_TOP;
  }
  if (r == 0) return 0;
bad:
  return cr_diag_set(f->d, CR_EFORMAT, -1, "%s: bad method descriptor",
                     cr_body_where(b));
}

/* One item of a stated frame as a value: class and array types and the
** primitives (for the slot layout); the rest carries no hint (TOP). */
static vt item(fa *f, const cr_vtype *t) {
  switch (t->tag) {
  case CR_VT_OBJECT: {
    int32_t id = cr_an__class(f->an, t->v);
    return id < 0 ? VT_TOP : VT(CR_VT_OBJECT, id);
  }
  case CR_VT_INTEGER: case CR_VT_FLOAT: case CR_VT_LONG: case CR_VT_DOUBLE:
    return VT(t->tag, 0);
  case CR_VT_TOP:
    return VT_HTOP;
  default:
    return VT_TOP;
  }
}

/* Items 'v[0..n)' into 'cap' slots at 'out' (long/double take two, the
** rest TOP); the number of slots used, or cap + 1 if they do not fit. */
static uint32_t slots(const vt *v, uint32_t n, vt *out, uint32_t cap) {
  uint32_t s = 0;
  for (uint32_t k = 0; k < n; k++) {
    uint32_t w = VT_IS2(v[k]) ? 2 : 1;
    if (s + w > cap) return cap + 1;
    out[s++] = v[k];
    if (w == 2) out[s++] = VT_TOP;
  }
  for (uint32_t j = s; j < cap; j++) out[j] = VT_HTOP;   /* not listed */
  return s;
}

/*
** The original StackMapTable of the decoded code, if it had one, as
** hints ('blk.hint'): the frame it states at each decoded label that
** starts a block (the labels keep their decoded offset in 'orig').
** Frames are expanded as JVMS 4.7.4 says, from the initial frame of the
** descriptor the table was written for ('smt_desc' for a twin). Hints
** only ever replace a join ('flow'), so a table that cannot be
** used is simply not: that is not an error (out of memory is).
*/
static int load_hints(fa *f) {
  cr_body *b = f->b;
  cr_an *an = f->an;
  const cr_attr *at = b->code ? cr_attrs_find(&b->code->attrs,
                                              CR_ATTR_STACKMAPTABLE)
                              : NULL;
  const cr_stackmap *sm = at ? at->u.smt : NULL;
  if (!sm || !sm->n) return 0;
  /* the decoded labels that start a block, in code order */
  uint32_t nlab = 0;
  cr_insn **lab = cr_arena_alloc(b->a, (b->ninsn + 1) * sizeof *lab);
  if (!lab) return oom(f);
  for (cr_insn *i = b->first; i; i = i->next) {
    if (i->op != CR_OP_LABEL || !i->orig || i->aux >= f->nbl) continue;
    const cr_insn *r = i->next;
    while (r && r->op == CR_OP_LABEL) r = r->next;
    if (r == f->bl[i->aux].first) lab[nlab++] = i;
  }
  if (!nlab) return 0;
  /* the items of the previous frame ('cap' locals at most); then the
  ** initial one. 'cur' holds a full frame's locals or stack. */
  uint32_t cap = b->code->max_locals + 2;
  uint32_t ccap = cap > b->code->max_stack + 2u ? cap
                                                : b->code->max_stack + 2u;
  vt *prev = cr_arena_alloc(b->a, (cap + 1) * sizeof *prev);
  vt *cur = cr_arena_alloc(b->a, (ccap + 1) * sizeof *cur);
  if (!prev || !cur) return oom(f);
  uint32_t np = 0;
  size_t dl;
  const char *desc = b->smt_desc;
  if (desc) dl = strlen(desc);
  else desc = cr_cp_utf8(an->c->cp, b->m->desc, &dl);
  const char *name = cr_member_name(an->c, b->m);
  if (!desc) return 0;
  if (!(b->m->flags & 0x0008))
    prev[np++] = name && strcmp(name, "<init>") == 0 ? VT_UTHIS
                                                     : VT(CR_VT_OBJECT,
                                                          an->self);
  cr_desc_iter it;
  const char *ty;
  size_t tl;
  int r, err = 0;
  if (cr_desc_iter_init(&it, desc, dl)) return 0;
  while ((r = cr_desc_next(&it, &ty, &tl)) == 1) {
    vt v = cr_an__desc(an, ty, tl, &err);
    if (err || np >= cap) return an->oom ? oom(f) : 0;
    prev[np++] = v;
  }
  if (r != 0) return 0;
  uint32_t off = 0, li = 0;
  for (uint32_t k = 0; k < sm->n && li < nlab; k++) {
    const cr_frame *fr = &sm->v[k];
    uint32_t t = fr->type, n = np, ns = 0;
    const cr_vtype *stk = NULL;
    off = k == 0 ? fr->delta : off + fr->delta + 1;
    if (t >= 128 && t <= 246) return 0;        /* reserved */
    if (t >= 248 && t <= 250) {
      if (251 - t > n) return 0;
      n -= 251 - t;
    } else if (t >= 252 && t <= 254) {
      if (n + (t - 251) > cap) return 0;
      for (uint32_t j = 0; j < t - 251; j++)
        prev[n + j] = item(f, &fr->locals[j]);
      n += t - 251;
    } else if (t == 255) {
      if (fr->nlocals > cap) return 0;
      for (uint32_t j = 0; j < fr->nlocals; j++)
        cur[j] = item(f, &fr->locals[j]);
      memcpy(prev, cur, fr->nlocals * sizeof *cur);
      n = fr->nlocals;
    }
    if ((t >= 64 && t <= 127) || t == 247) ns = 1, stk = fr->stack;
    else if (t == 255) ns = fr->nstack, stk = fr->stack;
    if (ns > ccap) return 0;
    np = n;
    if (an->oom) return oom(f);
    while (li < nlab && lab[li]->orig - 1 < off) li++;
    if (li == nlab || lab[li]->orig - 1 != off) continue;
    blk *bk = &f->bl[lab[li]->aux];
    vt *h = cr_arena_alloc(b->a, (f->nloc + 2 * ns + 1) * sizeof *h);
    if (!h) return oom(f);
    if (slots(prev, np, h, f->nloc) > f->nloc) continue;
    for (uint32_t j = 0; j < ns; j++) cur[j] = item(f, &stk[j]);
    bk->hdepth = slots(cur, ns, h + f->nloc, 2 * ns);
    bk->hint = h;
  }
  return an->oom ? oom(f) : 0;
}

/* Run block 'k' from its entry state. */
static int run(fa *f, uint32_t k) {
  blk *bk = &f->bl[k];
  memcpy(f->loc, bk->st, f->nloc * sizeof(vt));
  if (grow(f, bk->depth + 1)) return f->d->code;
  if (bk->depth) memcpy(f->stk, bk->st + f->nloc, bk->depth * sizeof(vt));
  f->sp = bk->depth;
  if (bk->nh) {
    memcpy(f->acc, f->loc, f->nloc * sizeof(vt));
  }
  cr_insn *i = bk->first;
  for (;; i = i->next) {
    if (i->op == CR_OP_LABEL) continue;
    int rc = exec(f, i);
    if (rc) return rc;
    if (f->sp > f->maxsp) f->maxsp = f->sp;
    if (bk->nh && f->lchanged)
      for (uint32_t j = 0; j < f->nloc; j++)
        f->acc[j] = merge(f->an, f->acc[j], f->loc[j]);
    if (i == bk->last) break;
  }
  /* handlers: the merged locals of the range, the exception on the stack */
  for (uint32_t h = 0; h < bk->nh; h++) {
    const cr_tcb *t = &f->b->tcb[f->hl[bk->h0 + h]];
    int32_t id = t->type ? cr_an__class(f->an, t->type)
                         : (int32_t)f->an->throwable;
    if (id < 0) return bad(f, t->handler, "bad catch type");
    vt ex = VT(CR_VT_OBJECT, id);
    int rc = flow(f, t->handler->aux, f->acc, &ex, 1, i);
    if (rc) return rc;
  }
  if (f->maxsp < 1 && bk->nh) f->maxsp = 1;
  /* successors */
  if (i->target) {
    int rc = flow(f, i->target->aux, f->loc, f->stk, f->sp, i);
    if (rc) return rc;
  }
  if (i->sw) {
    int rc = flow(f, i->sw->dflt->aux, f->loc, f->stk, f->sp, i);
    for (uint32_t j = 0; !rc && j < i->sw->n; j++)
      rc = flow(f, i->sw->targets[j]->aux, f->loc, f->stk, f->sp, i);
    if (rc) return rc;
  }
  if (!(cr_op_info(i->op)->flags & CR_OPF_NOFALL)) {
    if (k + 1 >= f->nbl)
      return bad(f, i, "execution falls off the end of the code");
    return flow(f, k + 1, f->loc, f->stk, f->sp, i);
  }
  return 0;
}

/* --------------------------------------------------------- the results */

/* Collapse 'n' slots into frame items (long/double one item) in 'out';
** returns the count, trailing TOPs dropped when 'trim'. */
static int items(fa *f, const vt *s, uint32_t n, int trim, cr_vtype *out,
                 uint32_t *cnt) {
  uint32_t k = 0, last = 0;
  for (uint32_t j = 0; j < n; j++) {
    vt v = s[j];
    cr_vtype *o = &out[k++];
    o->tag = (uint8_t)VT_KIND(v);
    o->v = 0;
    if (VT_KIND(v) == CR_VT_OBJECT) {
      int cp = cr_an__cpclass(f->an, VT_ID(v), f->d);
      if (cp < 0) return cp;
      o->v = (uint16_t)cp;
    } else if (VT_KIND(v) == CR_VT_UNINIT) {
      o->v = (uint16_t)f->byid[VT_ID(v)]->off;
    }
    if (VT_IS2(v)) j++;
    if (o->tag != CR_VT_TOP) last = k;
  }
  *cnt = trim ? last : k;
  return 0;
}

/* A label at the start of block 'k' (the end of the code for nbl). */
static cr_insn *block_label(fa *f, uint32_t k) {
  cr_insn *l = cr_label_new(f->b);
  if (!l) return NULL;
  if (k < f->nbl) {
    l->off = f->bl[k].first->off;
    cr_body_insert_before(f->b, f->bl[k].first, l);
  } else {
    l->off = f->b->code_len;
    cr_body_insert_after(f->b, f->b->last, l);
  }
  l->aux = k;
  return l;
}

/* Cut the dead blocks out of every exception range. */
static int cut_dead(fa *f) {
  cr_body *b = f->b;
  cr_tcb *old = b->tcb;
  uint32_t n = b->ntcb;
  b->tcb = NULL;
  b->ntcb = b->ctcb = 0;
  for (uint32_t k = 0; k < n; k++) {
    const cr_tcb *t = &old[k];
    uint32_t s = t->start->aux, e = t->end->aux < f->nbl ? t->end->aux
                                                         : f->nbl;
    uint32_t j = s;
    while (j < e) {
      while (j < e && !f->bl[j].st) j++;
      if (j >= e) break;
      uint32_t r = j;
      while (r < e && f->bl[r].st) r++;
      cr_insn *ls = j == s ? t->start : block_label(f, j);
      cr_insn *le = r == e ? t->end : block_label(f, r);
      if (!ls || !le) return oom(f);
      if (cr_body_add_tcb(b, ls, le, t->handler, t->type, f->d))
        return f->d->code;
      b->tcb[b->ntcb - 1].orig = t->orig;
      j = r;
    }
  }
  return 0;
}

int cr_an_frames(cr_an *an, cr_body *b, cr_stackmap **smt, cr_diag *d) {
  return cr_an__frames(an, b, cr_body_max_locals(b), smt, d);
}

int cr_an__frames(cr_an *an, cr_body *b, uint32_t nloc, cr_stackmap **smt,
                  cr_diag *d) {
  *smt = NULL;
  if (an->c->major < 50 || b->has_jsr)
    return cr_diag_set(d, CR_EUNSUPPORTED, -1,
                       "%s: no frames for class version %u or jsr/ret",
                       cr_body_where(b), an->c->major);
  fa F, *f = &F;
  memset(f, 0, sizeof *f);
  f->an = an;
  f->b = b;
  f->d = d;
  f->nloc = nloc;
  f->onloc = b->code ? b->code->max_locals : 0;
  int rc = build_blocks(f);
  if (rc) return rc;
  if (f->nbl == 0)
    return cr_diag_set(d, CR_EFORMAT, -1, "%s: no code", cr_body_where(b));
  f->loc = cr_arena_alloc(b->a, (f->nloc + 1) * sizeof(vt));
  f->acc = cr_arena_alloc(b->a, (f->nloc + 1) * sizeof(vt));
  f->wl = cr_arena_alloc(b->a, f->nbl * sizeof *f->wl);
  vt *init = cr_arena_alloc(b->a, (f->nloc + 1) * sizeof(vt));
  if (!f->loc || !f->acc || !f->wl || !init) return oom(f);
  if ((rc = entry_state(f, init)) != 0) return rc;
  if ((rc = load_hints(f)) != 0) return rc;
  memcpy(f->loc, init, f->nloc * sizeof(vt));
  if ((rc = flow(f, 0, f->loc, NULL, 0, b->first)) != 0) return rc;
  while (f->nwl) {
    uint32_t k = f->wl[--f->nwl];
    f->bl[k].inq = 0;
    if ((rc = run(f, k)) != 0) return rc;
  }
  /* dead code: nops and athrow, out of the exception ranges */
  int dead = 0;
  for (uint32_t k = 0; k < f->nbl; k++) {
    if (f->bl[k].st) continue;
    dead = 1;
    for (cr_insn *i = f->bl[k].first;; i = i->next) {
      i->dead = 1;
      if (i == f->bl[k].last) break;
    }
  }
  if (dead) {
    if ((rc = cut_dead(f)) != 0) return rc;
    if (f->maxsp < 1) f->maxsp = 1;
  }
  if (an->oom) return oom(f);     /* a join or a supertype may be wrong */
  if (f->maxsp > 65535)
    return cr_diag_set(d, CR_ETOOLARGE, -1, "%s: max_stack %u over 65535",
                       cr_body_where(b), f->maxsp);
  b->max_stack = (uint16_t)f->maxsp;
  b->max_locals = (uint16_t)f->nloc;
  /* the frames, in order */
  uint32_t nfr = 0;
  for (uint32_t k = 0; k < f->nbl; k++) {
    if (f->bl[k].st ? f->bl[k].fp : (k == 0 || f->bl[k - 1].st)) nfr++;
  }
  if (nfr == 0) return 0;
  /* the StackMapTable points into 'pool': it lives as long as the class */
  cr_xframe *fr = cr_arena_calloc(b->a, nfr + 1, sizeof *fr);
  cr_vtype *pool = cr_arena_alloc(an->c->arena, (size_t)(nfr + 1) *
                                  (f->nloc + f->maxsp + 1) * sizeof *pool);
  if (!fr || !pool) return oom(f);
  /* fr[0]: the implicit initial frame */
  uint32_t cnt;
  fr[0].locals = pool;
  if ((rc = items(f, init, f->nloc, 1, pool, &cnt)) != 0) return rc;
  fr[0].nlocals = (uint16_t)cnt;
  pool += cnt;
  uint32_t m = 1;
  for (uint32_t k = 0; k < f->nbl; k++) {
    blk *bk = &f->bl[k];
    cr_xframe *x = &fr[m];
    if (bk->st && bk->fp) {
      x->off = bk->first->off;
      x->locals = pool;
      if ((rc = items(f, bk->st, f->nloc, 1, pool, &cnt)) != 0) return rc;
      x->nlocals = (uint16_t)cnt;
      pool += cnt;
      x->stack = pool;
      if ((rc = items(f, bk->st + f->nloc, bk->depth, 0, pool, &cnt)) != 0)
        return rc;
      x->nstack = (uint16_t)cnt;
      pool += cnt;
      m++;
    } else if (!bk->st && (k == 0 || f->bl[k - 1].st)) {
      int cp = cr_an__cpclass(an, an->throwable, d);
      if (cp < 0) return cp;
      x->off = bk->first->off;
      x->stack = pool;
      pool->tag = CR_VT_OBJECT;
      pool->v = (uint16_t)cp;
      pool++;
      x->nstack = 1;
      m++;
    }
  }
  return cr_an__encode(an, fr, m, smt, an->c->arena, d);
}
