/*
** reloc.c -- layout (branch relocation to a fixpoint, switch padding, wide
** locals), encoding, max_locals/max_stack, and writing a body back into
** its Code attribute (JVMS 4.7.3, 6.5 goto_w/wide).
*/
#include <string.h>

#include "bc_int.h"

#define MAX_CODE 65535u

/* Does LOCAL/IINC instruction 'i' need (or keep) the 'wide' prefix? */
static int is_wide(const cr_body *b, const cr_insn *i) {
  if (i->wide || b->force_wide || i->a > 255) return 1;
  return i->op == CR_OP_IINC && (i->b < -128 || i->b > 127);
}

static uint32_t pad(uint32_t off) { return (4 - ((off + 1) & 3)) & 3; }

/*
** Size of the instructions whose size never depends on operands, layout
** or options, by opcode (ORDER JVMS); 0 for the others (LOCAL, IINC, CP1,
** BR2, switches, non-opcodes), which 'cr_insn_size' works out.
*/
#define FIXED_BAD 0
#define FIXED_NONE 1
#define FIXED_LOCAL 0
#define FIXED_IINC 0
#define FIXED_S1 2
#define FIXED_S2 3
#define FIXED_U1 2
#define FIXED_CP1 0
#define FIXED_CP2 3
#define FIXED_IFACE 5
#define FIXED_INDY 5
#define FIXED_MULTI 4
#define FIXED_BR2 0
#define FIXED_BR4 5
#define FIXED_TSWITCH 0
#define FIXED_LSWITCH 0
#define FIXED_WIDE 0
static const uint8_t fixed[CR_OP__COUNT] = {
#define ROW(name, mn, fmt, pop, push, fl) FIXED_##fmt,
    CR_OPCODES(ROW)
#undef ROW
};

uint32_t cr_insn_size(const cr_body *b, const cr_insn *i, uint32_t off) {
  if (i->op == CR_OP_LABEL) return 0;
  if (i->op < CR_OP__COUNT && fixed[i->op]) return fixed[i->op];
  switch (cr_op_info(i->op)->fmt) {
  case CR_FMT_LOCAL: return is_wide(b, i) ? 4 : 2;
  case CR_FMT_IINC: return is_wide(b, i) ? 6 : 3;
  case CR_FMT_CP1: return i->a > 255 ? 3 : 2;
  case CR_FMT_BR2:
    if (!i->lng) return 3;
    return (cr_op_info(i->op)->flags & CR_OPF_COND) ? 8 : 5;
  case CR_FMT_TSWITCH: return 1 + pad(off) + 12 + 4 * i->sw->n;
  case CR_FMT_LSWITCH: return 1 + pad(off) + 8 + 8 * i->sw->n;
  default: return 1;
  }
}

/*
** The first pass also starts every short-form branch short, collects the
** BR2 branches for the checks, and measures the locals the instructions
** use (for 'cr_body_max_locals_laid').
*/
int cr_body_layout(cr_body *b, cr_diag *d) {
  cr_insn **br = cr_arena_alloc(b->a, (b->ninsn + 1) * sizeof *br);
  if (!br) return cr_diag_set(d, CR_ENOMEM, -1, "out of memory");
  uint32_t nbr = 0, top = 0;
  for (int pass = 0;; pass++) {
    uint32_t off = 0;
    for (cr_insn *i = b->first; i; i = i->next) {
      i->off = off;
      unsigned op = i->op;
      if (op == CR_OP_LABEL) continue;
      if (pass == 0) {
        uint32_t t = cr_bc__local_top(i);
        if (t > top) top = t;
        if (cr_op_info(op)->fmt == CR_FMT_BR2) {
          i->lng = b->force_long;
          br[nbr++] = i;
        }
      }
      off += op < CR_OP__COUNT && fixed[op] ? fixed[op]
                                            : cr_insn_size(b, i, off);
      if (off > 4 * MAX_CODE) break;    /* hopeless; keep numbers small */
    }
    b->code_len = off;
    b->locals_top = top;
    if (off > MAX_CODE)
      return cr_diag_set(d, CR_ETOOLARGE, -1,
                         "%s: code would be %s%u bytes, over the 65535-byte "
                         "limit", cr_body_where(b),
                         off > 4 * MAX_CODE ? "more than " : "", off);
    int changed = 0;
    uint32_t nlong = 0;
    for (uint32_t k = 0; k < nbr; k++) {
      cr_insn *i = br[k];
      if (!i->lng) {
        int64_t dist = (int64_t)i->target->off - i->off;
        if (dist < -32768 || dist > 32767) i->lng = 1, changed = 1;
      }
      nlong += i->lng;
    }
    b->nlong = nlong;
    if (!changed) return 0;
  }
}

/* ------------------------------------------------------------ encoding */

static void put2(uint8_t *p, uint32_t v) {
  p[0] = (uint8_t)(v >> 8);
  p[1] = (uint8_t)v;
}
static void put4(uint8_t *p, uint32_t v) {
  put2(p, v >> 16);
  put2(p + 2, v);
}

/* Write instruction 'i' (laid out at 'i->off') at 'p'; returns its size
** (up to the next node's offset: the layout is current). */
static uint32_t emit(const cr_body *b, const cr_insn *i, uint8_t *p) {
  uint32_t off = i->off, k = (i->next ? i->next->off : b->code_len) - off;
  const cr_opinfo *oi = cr_op_info(i->op);
  p[0] = (uint8_t)i->op;
  if (oi->fmt == CR_FMT_NONE) return k;       /* the most common */
  switch (oi->fmt) {
  case CR_FMT_LOCAL: case CR_FMT_IINC:
    if (is_wide(b, i)) {
      p[0] = CR_OP_WIDE;
      p[1] = (uint8_t)i->op;
      put2(p + 2, (uint32_t)i->a);
      if (i->op == CR_OP_IINC) put2(p + 4, (uint32_t)i->b);
    } else {
      p[1] = (uint8_t)i->a;
      if (i->op == CR_OP_IINC) p[2] = (uint8_t)i->b;
    }
    break;
  case CR_FMT_S1: case CR_FMT_U1: p[1] = (uint8_t)i->a; break;
  case CR_FMT_CP1:
    if (k == 3) {
      p[0] = CR_OP_LDC_W;
      put2(p + 1, (uint32_t)i->a);
    } else {
      p[1] = (uint8_t)i->a;
    }
    break;
  case CR_FMT_S2: case CR_FMT_CP2: put2(p + 1, (uint32_t)i->a); break;
  case CR_FMT_IFACE:
    put2(p + 1, (uint32_t)i->a);
    p[3] = (uint8_t)i->b;
    p[4] = 0;
    break;
  case CR_FMT_INDY:
    put2(p + 1, (uint32_t)i->a);
    p[3] = p[4] = 0;
    break;
  case CR_FMT_MULTI:
    put2(p + 1, (uint32_t)i->a);
    p[3] = (uint8_t)i->b;
    break;
  case CR_FMT_BR4:
    put4(p + 1, i->target->off - off);
    break;
  case CR_FMT_BR2:
    if (!i->lng) {
      put2(p + 1, i->target->off - off);
    } else if (oi->flags & CR_OPF_COND) {
      /* if<!c> +8; goto_w target */
      p[0] = (uint8_t)cr_op_invert(i->op);
      put2(p + 1, 8);
      p[3] = CR_OP_GOTO_W;
      put4(p + 4, i->target->off - (off + 3));
    } else {
      p[0] = i->op == CR_OP_GOTO ? CR_OP_GOTO_W : CR_OP_JSR_W;
      put4(p + 1, i->target->off - off);
    }
    break;
  case CR_FMT_TSWITCH: case CR_FMT_LSWITCH: {
    const cr_switch *sw = i->sw;
    uint32_t h = 1 + pad(off);
    memset(p + 1, 0, h - 1);
    put4(p + h, sw->dflt->off - off);
    if (oi->fmt == CR_FMT_TSWITCH) {
      put4(p + h + 4, (uint32_t)sw->low);
      put4(p + h + 8, (uint32_t)sw->low + sw->n - 1);
      for (uint32_t j = 0; j < sw->n; j++)
        put4(p + h + 12 + 4 * j, sw->targets[j]->off - off);
    } else {
      put4(p + h + 4, sw->n);
      for (uint32_t j = 0; j < sw->n; j++) {
        put4(p + h + 8 + 8 * j, (uint32_t)sw->keys[j]);
        put4(p + h + 12 + 8 * j, sw->targets[j]->off - off);
      }
    }
    break;
  }
  default:
    break;
  }
  return k;
}

/* Encode the whole laid-out body into 'out' ('code_len' bytes). Runs of
** dead instructions become nop...nop athrow. */
static void encode(const cr_body *b, uint8_t *out) {
  for (const cr_insn *i = b->first; i; i = i->next) {
    if (i->op == CR_OP_LABEL) continue;
    if (!i->dead) {
      emit(b, i, out + i->off);
      continue;
    }
    const cr_insn *j = i;
    while (j->next && (j->next->op == CR_OP_LABEL || j->next->dead))
      j = j->next;
    uint32_t end = j->next ? j->next->off : b->code_len;
    memset(out + i->off, CR_OP_NOP, end - i->off - 1);
    out[end - 1] = CR_OP_ATHROW;
    i = j;
  }
}

/* Max locals for instructions using up to slot 'top' - 1. */
static uint32_t max_locals(const cr_body *b, uint32_t top) {
  const char *desc = cr_member_desc(b->cls, b->m);
  int n = desc ? cr_desc_arg_slots(desc, strlen(desc)) : 0;
  uint32_t max = (uint32_t)(n < 0 ? 0 : n) + !(b->m->flags & 0x0008);
  if (top > max) max = top;
  if (b->code->max_locals > max) max = b->code->max_locals;
  return max;
}

uint32_t cr_body_max_locals(const cr_body *b) {
  uint32_t top = 0;
  for (const cr_insn *i = b->first; i; i = i->next) {
    if (i->op == CR_OP_LABEL) continue;
    uint32_t t = cr_bc__local_top(i);
    if (t > top) top = t;
  }
  return max_locals(b, top);
}

uint32_t cr_body_max_locals_laid(const cr_body *b) {
  return max_locals(b, b->locals_top);
}

/* ------------------------------------------------------ stack depth */

/* Slots of the field type at 's' ('V' gives 0). */
static int slots(const char *s) { return cr_desc_slots(s[0]); }

/* Stack slots popped and pushed by 'i'; -1 when its pool entry is bad. */
static int effect(const cr_body *b, const cr_insn *i, int *pop,
                  int *push) {
  const cr_opinfo *oi = cr_op_info(i->op);
  *pop = oi->pop;
  *push = oi->push;
  if (oi->pop >= 0) return 0;
  if (i->op == CR_OP_MULTIANEWARRAY) {
    *pop = i->b;
    return 0;
  }
  size_t n;
  const char *desc = cr_insn_desc(b, i, &n);
  if (!desc || n == 0) return -1;
  if (oi->flags & CR_OPF_FIELD) {
    int s = slots(desc);
    int inst = i->op == CR_OP_GETFIELD || i->op == CR_OP_PUTFIELD;
    int put = i->op == CR_OP_PUTSTATIC || i->op == CR_OP_PUTFIELD;
    *pop = inst + (put ? s : 0);
    *push = put ? 0 : s;
    return 0;
  }
  int args = cr_desc_arg_slots(desc, n);
  size_t rl;
  const char *ret = cr_desc_ret(desc, n, &rl);
  if (args < 0 || !ret) return -1;
  *pop = args + (i->op != CR_OP_INVOKESTATIC && i->op != CR_OP_INVOKEDYNAMIC);
  *push = slots(ret);
  return 0;
}

typedef struct work { cr_insn *i; int depth; } work;

int cr_body_max_stack(cr_body *b, cr_diag *d) {
  work *w = NULL;
  uint32_t nw = 0, cw = 0;
  int max = 0;
  for (cr_insn *i = b->first; i; i = i->next) i->aux = 0;
#define PUSH(ins, dep)                                                   \
  do {                                                                   \
    if (cr_bc__grow(b->a, (void **)&w, &cw, nw + 1, sizeof *w))          \
      return cr_diag_set(d, CR_ENOMEM, -1, "out of memory");             \
    w[nw++] = (work){(ins), (dep)};                                      \
  } while (0)
  if (b->first) PUSH(b->first, 0);
  for (uint32_t k = 0; k < b->ntcb; k++) PUSH(b->tcb[k].handler, 1);
  if (b->ntcb && max < 1) max = 1;
  while (nw) {
    work cur = w[--nw];
    int dep = cur.depth;
    for (cr_insn *i = cur.i; i; i = i->next) {
      if (i->aux) {
        if (i->aux != (uint32_t)dep + 1)
          return cr_diag_set(d, CR_EFORMAT, -1,
                             "%s: offset %u: stack height %d here but %u "
                             "on another path", cr_body_where(b), i->off,
                             dep, i->aux - 1);
        break;
      }
      i->aux = (uint32_t)dep + 1;
      if (i->op == CR_OP_LABEL) continue;
      int pop, push;
      if (effect(b, i, &pop, &push))
        return cr_diag_set(d, CR_EFORMAT, -1,
                           "%s: offset %u: %s with a bad pool reference %d",
                           cr_body_where(b), i->off,
                           cr_op_info(i->op)->name, i->a);
      if (dep < pop)
        return cr_diag_set(d, CR_EFORMAT, -1,
                           "%s: offset %u: stack underflow at %s",
                           cr_body_where(b), i->off,
                           cr_op_info(i->op)->name);
      dep += push - pop;
      if (dep > max) max = dep;
      uint16_t fl = cr_op_info(i->op)->flags;
      if (fl & CR_OPF_SWITCH) {
        PUSH(i->sw->dflt, dep);
        for (uint32_t j = 0; j < i->sw->n; j++) PUSH(i->sw->targets[j], dep);
      } else if (fl & CR_OPF_JSR) {
        PUSH(i->target, dep);
        dep--;                          /* back here without the address */
      } else if (i->target) {
        PUSH(i->target, dep);
      }
      if (fl & CR_OPF_NOFALL) break;
    }
  }
#undef PUSH
  if (max > 65535)
    return cr_diag_set(d, CR_ETOOLARGE, -1, "%s: max_stack %d over 65535",
                       cr_body_where(b), max);
  b->max_stack = (uint16_t)max;
  return 0;
}

/* -------------------------------------------------------------- commit */

int cr_body_commit(cr_body *b, cr_stackmap *smt, cr_diag *d) {
  cr_code *code = b->code;
  cr_class *c = b->cls;
  cr_arena *ca = c->arena;      /* what the Code attribute keeps */
  uint8_t *bytes = cr_arena_alloc(ca, b->code_len ? b->code_len : 1);
  cr_exc *exc = cr_arena_calloc(ca, b->ntcb ? b->ntcb : 1, sizeof *exc);
  uint16_t *vals = cr_arena_calloc(b->a, b->nfix + b->ncatch + 1, 2);
  if (!bytes || !exc || !vals)
    return cr_diag_set(d, CR_ENOMEM, -1, "out of memory");
  if (b->code_len == 0)
    return cr_diag_set(d, CR_EFORMAT, -1, "%s: empty code",
                       cr_body_where(b));
  encode(b, bytes);
  uint32_t nexc = 0;
  for (uint32_t k = 0; k < b->ntcb; k++) {
    const cr_tcb *t = &b->tcb[k];
    if (t->start->off >= t->end->off) continue;   /* emptied by edits */
    exc[nexc++] = (cr_exc){(uint16_t)t->start->off, (uint16_t)t->end->off,
                           (uint16_t)t->handler->off, t->type};
  }
  for (uint32_t k = 0; k < b->nfix; k++) {
    const cr_fixup *f = &b->fix[k];
    uint32_t v = f->end->off - (f->start ? f->start->off : 0);
    vals[k] = (uint16_t)(f->start && f->end->off < f->start->off ? 0 : v);
  }
  /* 'catch' targets: the first entry that came from the old index */
  for (uint32_t k = 0; k < b->ncatch; k++) {
    uint16_t old = *b->catch_fix[k], nu = old;
    for (uint32_t j = 0, q = 0; j < b->ntcb; j++) {
      const cr_tcb *t = &b->tcb[j];
      if (t->start->off >= t->end->off) continue;
      if (t->orig == old) {
        nu = (uint16_t)q;
        break;
      }
      q++;
    }
    vals[b->nfix + k] = nu;
  }
  /* the StackMapTable attribute: replace, add or remove */
  cr_attrs attrs = code->attrs;
  cr_attr *old = cr_attrs_find(&code->attrs, CR_ATTR_STACKMAPTABLE);
  int want = smt && smt->n > 0;
  if (want && !old) {
    int name = cr_cp_add_utf8(c->cp, "StackMapTable", d);
    if (name < 0) return name;
    attrs.v = cr_arena_calloc(ca, attrs.n + 1, sizeof *attrs.v);
    if (!attrs.v) return cr_diag_set(d, CR_ENOMEM, -1, "out of memory");
    if (code->attrs.n)
      memcpy(attrs.v, code->attrs.v, code->attrs.n * sizeof *attrs.v);
    cr_attr *at = &attrs.v[attrs.n++];
    at->name = (uint16_t)name;
    at->kind = CR_ATTR_STACKMAPTABLE;
    at->u.smt = smt;
  } else if (want) {
    attrs.v = cr_arena_alloc(ca, attrs.n * sizeof *attrs.v);
    if (!attrs.v) return cr_diag_set(d, CR_ENOMEM, -1, "out of memory");
    memcpy(attrs.v, code->attrs.v, attrs.n * sizeof *attrs.v);
    attrs.v[old - code->attrs.v].u.smt = smt;
    attrs.v[old - code->attrs.v].raw = NULL;
    attrs.v[old - code->attrs.v].len = 0;
  } else if (old) {
    attrs.v = cr_arena_alloc(ca, attrs.n * sizeof *attrs.v);
    if (!attrs.v) return cr_diag_set(d, CR_ENOMEM, -1, "out of memory");
    uint32_t n = 0;
    for (uint32_t k = 0; k < code->attrs.n; k++)
      if (&code->attrs.v[k] != old) attrs.v[n++] = code->attrs.v[k];
    attrs.n = n;
  }
  /* the extra line entry, in an attribute of its own: the fixups of
  ** the decoded tables point into their arrays (JVMS 4.7.12 allows
  ** several LineNumberTable attributes, in any order) */
  if (b->line_at) {
    int name = cr_cp_add_utf8(c->cp, "LineNumberTable", d);
    if (name < 0) return name;
    cr_attr *v = cr_arena_calloc(ca, attrs.n + 1, sizeof *v);
    cr_linenums *ln = cr_arena_calloc(ca, 1, sizeof *ln);
    cr_linenum *e = cr_arena_calloc(ca, 1, sizeof *e);
    if (!v || !ln || !e) return cr_diag_set(d, CR_ENOMEM, -1, "out of memory");
    if (attrs.n) memcpy(v, attrs.v, attrs.n * sizeof *v);
    *e = (cr_linenum){(uint16_t)b->line_at->off, b->line};
    *ln = (cr_linenums){1, e};
    v[attrs.n].name = (uint16_t)name;
    v[attrs.n].kind = CR_ATTR_LINENUMBERTABLE;
    v[attrs.n].u.lines = ln;
    attrs.v = v;
    attrs.n++;
  }
  /* nothing can fail from here on */
  code->code = bytes;
  code->code_len = b->code_len;
  code->max_stack = b->max_stack;
  code->max_locals = b->max_locals;
  code->exc = exc;
  code->nexc = nexc;
  code->attrs = attrs;
  for (uint32_t k = 0; k < b->nfix; k++) *b->fix[k].field = vals[k];
  for (uint32_t k = 0; k < b->ncatch; k++)
    *b->catch_fix[k] = vals[b->nfix + k];
  return 0;
}
