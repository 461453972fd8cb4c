/*
** insn.c -- the opcode table, decoding a Code attribute into the
** instruction list with labels, and list editing (JVMS 4.7.3, 6.5).
*/
#include <string.h>

#include "bc_int.h"

/* ------------------------------------------------------------- opcodes */

#define Q {"?", CR_FMT_BAD, 0, 0, 0}
#define Q2 Q, Q
#define Q4 Q2, Q2
#define Q8 Q4, Q4
#define Q16 Q8, Q8
#define Q32 Q16, Q16

_Static_assert(CR_OP__COUNT == 202, "the table below fills 202..256");

const cr_opinfo cr__optab[257] = {
#define ROW(name, mn, fmt, pop, push, fl) {mn, CR_FMT_##fmt, pop, push, fl},
    CR_OPCODES(ROW)     /* 0..201 */
#undef ROW
    Q32, Q16, Q4,       /* 202..253 */
    Q2,                 /* 254..255 */
    {"label", CR_FMT_BAD, 0, 0, 0}
};

unsigned cr_op_invert(unsigned op) {
  if (op == CR_OP_IFNULL) return CR_OP_IFNONNULL;
  if (op == CR_OP_IFNONNULL) return CR_OP_IFNULL;
  /* ifeq..if_acmpne come in pairs starting at an odd opcode */
  return (op & 1) ? op + 1 : op - 1;
}

int cr_insn_local(const cr_insn *i) {
  unsigned op = i->op;
  if (op >= CR_OP_ILOAD_0 && op <= CR_OP_ALOAD_3)
    return (int)((op - CR_OP_ILOAD_0) & 3);
  if (op >= CR_OP_ISTORE_0 && op <= CR_OP_ASTORE_3)
    return (int)((op - CR_OP_ISTORE_0) & 3);
  return i->a;
}

/* --------------------------------------------------------------- editing */

cr_insn *cr_insn_new(cr_body *b, unsigned op) {
  cr_insn *i = cr_arena_calloc(b->a, 1, sizeof *i);
  if (!i) return NULL;
  i->op = (uint16_t)op;
  i->id = b->ninsn++;
  return i;
}

cr_insn *cr_label_new(cr_body *b) { return cr_insn_new(b, CR_OP_LABEL); }

void cr_body_insert_before(cr_body *b, cr_insn *at, cr_insn *i) {
  if (!at) {
    i->prev = b->last;
    i->next = NULL;
    if (b->last) b->last->next = i; else b->first = i;
    b->last = i;
    return;
  }
  i->next = at;
  i->prev = at->prev;
  if (at->prev) at->prev->next = i; else b->first = i;
  at->prev = i;
}

void cr_body_insert_after(cr_body *b, cr_insn *at, cr_insn *i) {
  if (!at) {
    cr_body_insert_before(b, b->first, i);
    return;
  }
  i->prev = at;
  i->next = at->next;
  if (at->next) at->next->prev = i; else b->last = i;
  at->next = i;
}

void cr_body_remove(cr_body *b, cr_insn *i) {
  if (i->prev) i->prev->next = i->next; else b->first = i->next;
  if (i->next) i->next->prev = i->prev; else b->last = i->prev;
  i->prev = i->next = NULL;
}

/* Grow arena array '*v' of '*cap' elements of 'sz' bytes to hold 'need'. */
int cr_bc__grow(cr_arena *a, void **v, uint32_t *cap, uint32_t need,
                size_t sz) {
  if (need <= *cap) return 0;
  uint32_t nc = *cap ? *cap * 2 : 8;
  while (nc < need) nc *= 2;
  void *p = cr_arena_realloc(a, *v, (size_t)*cap * sz, (size_t)nc * sz);
  if (!p) return CR_ENOMEM;
  *v = p;
  *cap = nc;
  return 0;
}

int cr_body_add_tcb(cr_body *b, cr_insn *start, cr_insn *end,
                    cr_insn *handler, uint16_t type, cr_diag *d) {
  if (cr_bc__grow(b->a, (void **)&b->tcb, &b->ctcb, b->ntcb + 1,
                  sizeof *b->tcb))
    return cr_diag_set(d, CR_ENOMEM, -1, "out of memory");
  b->tcb[b->ntcb] = (cr_tcb){start, end, handler, type,
                             (uint16_t)b->ntcb};
  b->ntcb++;
  return 0;
}

static int add_fix(cr_body *b, uint16_t *field, cr_insn *end,
                   cr_insn *start) {
  if (cr_bc__grow(b->a, (void **)&b->fix, &b->cfix, b->nfix + 1,
                  sizeof *b->fix))
    return CR_ENOMEM;
  b->fix[b->nfix++] = (cr_fixup){field, end, start};
  return 0;
}

const char *cr_body_where(const cr_body *b) {
  const char *n = cr_member_name(b->cls, b->m);
  const char *s = cr_member_desc(b->cls, b->m);
  if (!n || !s) return "?";
  size_t k = strlen(n) + strlen(s) + 1;
  char *p = cr_arena_alloc(b->a, k);
  if (!p) return n;
  memcpy(p, n, strlen(n));
  memcpy(p + strlen(n), s, strlen(s) + 1);
  return p;
}

/* NameAndType index of the member or call site entry 'i', or 0. */
static uint32_t nat_of(const cr_cpool *cp, uint32_t i) {
  const cr_cpentry *e = cr_cp_get(cp, i);
  if (!e) return 0;
  switch (e->tag) {
  case CR_CP_FIELDREF: case CR_CP_METHODREF: case CR_CP_IMETHODREF:
  case CR_CP_INVOKEDYNAMIC: case CR_CP_DYNAMIC:
    return cr_cp_tag(cp, e->b) == CR_CP_NAMEANDTYPE ? e->b : 0;
  default:
    return 0;
  }
}

const char *cr_insn_desc(const cr_body *b, const cr_insn *i, size_t *len) {
  uint32_t nat = nat_of(b->cls->cp, (uint32_t)i->a);
  if (!nat) return NULL;
  return cr_cp_utf8(b->cls->cp, cr_cp_get(b->cls->cp, nat)->b, len);
}

const char *cr_insn_name(const cr_body *b, const cr_insn *i, size_t *len) {
  uint32_t nat = nat_of(b->cls->cp, (uint32_t)i->a);
  if (!nat) return NULL;
  return cr_cp_utf8(b->cls->cp, cr_cp_get(b->cls->cp, nat)->a, len);
}

/* -------------------------------------------------------------- decoding */

static int32_t s4(const uint8_t *p) { return (int32_t)cr_be32(p); }

/*
** Length of the instruction at 'off' (code of 'n' bytes), or 0 when it is
** truncated, undefined or badly formed; '*why' then says what is wrong.
*/
/* Length by format for the formats of fixed length, else 0 (ORDER
** CR_FMT). */
static const uint8_t fixed_len[CR_FMT_WIDE + 1] = {
    0, 1, 2, 3, 2, 3, 2, 2, 3, 5, 5, 4, 3, 5, 0, 0, 0};

static uint32_t insn_len(const uint8_t *code, uint32_t off, uint32_t n,
                         const char **why) {
  const uint8_t *p = code + off;
  uint32_t left = n - off;
  const cr_opinfo *oi = cr_op_info(p[0]);
  uint32_t k = fixed_len[oi->fmt];
  if (k && k <= left) return k;     /* the common case, without a switch */
  k = UINT32_MAX;               /* stays when the operands are cut off */
  switch (oi->fmt) {
  case CR_FMT_NONE: k = 1; break;
  case CR_FMT_LOCAL: case CR_FMT_S1: case CR_FMT_U1: case CR_FMT_CP1:
    k = 2;
    break;
  case CR_FMT_IINC: case CR_FMT_S2: case CR_FMT_CP2: case CR_FMT_BR2:
    k = 3;
    break;
  case CR_FMT_MULTI: k = 4; break;
  case CR_FMT_IFACE: case CR_FMT_INDY: case CR_FMT_BR4: k = 5; break;
  case CR_FMT_WIDE:
    if (left < 2) break;          /* truncated */
    if (p[1] == CR_OP_IINC) { k = 6; break; }
    if (cr_op_info(p[1])->fmt != CR_FMT_LOCAL) {
      *why = "'wide' before an opcode it cannot modify";
      return 0;
    }
    k = 4;
    break;
  case CR_FMT_TSWITCH: case CR_FMT_LSWITCH: {
    uint32_t pad = (4 - ((off + 1) & 3)) & 3;
    uint32_t h = 1 + pad;
    if (left < h + (oi->fmt == CR_FMT_TSWITCH ? 12 : 8)) break;
    if (oi->fmt == CR_FMT_TSWITCH) {
      int32_t lo = s4(p + h + 4), hi = s4(p + h + 8);
      if (hi < lo) {
        *why = "tableswitch high < low";
        return 0;
      }
      uint64_t cnt = (uint64_t)((int64_t)hi - lo + 1);
      if (cnt > 65536) break;
      k = h + 12 + (uint32_t)cnt * 4;
    } else {
      int32_t np = s4(p + h + 4);
      if (np < 0 || np > 65536 / 8) {
        if (np < 0) {
          *why = "lookupswitch npairs < 0";
          return 0;
        }
        break;
      }
      k = h + 8 + (uint32_t)np * 8;
    }
    break;
  }
  default:
    *why = "undefined opcode";
    return 0;
  }
  if (k > left) {
    *why = "instruction runs past the end of the code";
    return 0;
  }
  return k;
}

uint32_t cr_code_insn_len(const uint8_t *code, uint32_t off, uint32_t n) {
  const char *why = NULL;
  return off < n ? insn_len(code, off, n, &why) : 0;
}

/*
** Decoding makes all the nodes of a body in one array, in list order (a
** label right before the instruction at its offset), so that the passes
** that walk the list read memory in order. Four passes:
**   1. instruction boundaries over the code bytes (S_INSN; S_JUMP for
**      branches and switches);
**   2. every offset that something refers to is checked and gets S_LABEL
**      (branches and switches, the exception table, the Code's tables);
**   3. the nodes are placed and linked, labels and instructions in offset
**      order;
**   4. the operands are decoded and the references bound to the labels.
*/
enum { S_INSN = 1, S_LABEL = 2, S_JUMP = 4, S_FRAME = 8, S_NEEDS = 16 };

typedef struct dec {
  cr_body *b;
  const uint8_t *code;
  uint32_t n;
  uint8_t *start;       /* S_* flags of each offset 0..n ([n]: S_INSN) */
  uint32_t *offs;       /* offset of each instruction, in order */
  uint32_t *pos;        /* node index at each instruction start and at n:
                           its label if it has one (pass 3; other offsets
                           are never read) */
  uint32_t nlab;        /* offsets with S_LABEL */
  uint8_t needs;        /* S_NEEDS while marking what the type checker
                           wants a frame at (branch targets, handlers) */
  cr_insn *v;           /* the nodes */
  cr_diag *d;
} dec;

/* Pass 2: 'off' must be an instruction start or the end of the code; it
** gets a label. CR_EFORMAT naming the referrer otherwise. */
static int mark(dec *x, int64_t off, uint32_t from, const char *what) {
  if (off < 0 || off > x->n || !(x->start[off] & S_INSN))
    return cr_diag_set(x->d, CR_EFORMAT, -1,
                       "%s: %s at offset %u targets %lld, not an "
                       "instruction start", cr_body_where(x->b), what, from,
                       (long long)off);
  x->nlab += !(x->start[off] & S_LABEL);
  x->start[off] |= S_LABEL | x->needs;
  return 0;
}

/* Pass 2: the targets of the branch or switch at 'off' (others have
** none). */
static int mark_targets(dec *x, uint32_t off) {
  const uint8_t *p = x->code + off;
  const cr_opinfo *oi = cr_op_info(p[0]);
  switch (oi->fmt) {
  case CR_FMT_BR2:
    return mark(x, (int64_t)off + (int16_t)cr_be16(p + 1), off, oi->name);
  case CR_FMT_BR4:
    return mark(x, (int64_t)off + s4(p + 1), off, oi->name);
  case CR_FMT_TSWITCH: case CR_FMT_LSWITCH: {
    uint32_t h = 1 + ((4 - ((off + 1) & 3)) & 3);
    int rc = mark(x, (int64_t)off + s4(p + h), off, oi->name);
    uint32_t n, step = oi->fmt == CR_FMT_TSWITCH ? 4 : 8;
    const uint8_t *t;
    if (oi->fmt == CR_FMT_TSWITCH) {
      n = (uint32_t)((int64_t)s4(p + h + 8) - s4(p + h + 4) + 1);
      t = p + h + 12;
    } else {
      n = (uint32_t)s4(p + h + 4);
      t = p + h + 8;
    }
    for (uint32_t j = 0; !rc && j < n; j++, t += step)
      rc = mark(x, (int64_t)off + s4(t + step - 4), off, oi->name);
    return rc;
  }
  default:
    return 0;
  }
}

/* 'off' snapped to the start of its instruction (debug tables may point
** inside one, or past the end). */
static uint32_t snap(const dec *x, uint32_t off) {
  if (off > x->n) off = x->n;
  while (!(x->start[off] & S_INSN)) off--;
  return off;
}

/* The label of the checked target at 'off' (pass 4). */
#define LAB(off) (&x->v[x->pos[(uint32_t)(off)]])

/* Decode the instruction at 'off' (length 'k', checked) into 'i'. */
static int decode_one(dec *x, cr_insn *i, uint32_t off, uint32_t k) {
  const uint8_t *p = x->code + off;
  const cr_opinfo *oi = cr_op_info(p[0]);
  if (oi->fmt == CR_FMT_NONE) {         /* the most common: no operands */
    if (oi->flags & (CR_OPF_LOAD | CR_OPF_STORE)) i->a = cr_insn_local(i);
    return 0;
  }
  switch (oi->fmt) {
  case CR_FMT_NONE:
    if (oi->flags & (CR_OPF_LOAD | CR_OPF_STORE)) i->a = cr_insn_local(i);
    break;
  case CR_FMT_LOCAL: i->a = p[1]; break;
  case CR_FMT_IINC: i->a = p[1]; i->b = (int8_t)p[2]; break;
  case CR_FMT_S1: i->a = (int8_t)p[1]; break;
  case CR_FMT_S2: i->a = (int16_t)cr_be16(p + 1); break;
  case CR_FMT_U1: case CR_FMT_CP1: i->a = p[1]; break;
  case CR_FMT_CP2: case CR_FMT_INDY: i->a = (int32_t)cr_be16(p + 1); break;
  case CR_FMT_IFACE: case CR_FMT_MULTI:
    i->a = (int32_t)cr_be16(p + 1);
    i->b = p[3];
    break;
  case CR_FMT_BR2: i->target = LAB(off + (int16_t)cr_be16(p + 1)); break;
  case CR_FMT_BR4: i->target = LAB(off + s4(p + 1)); break;
  case CR_FMT_WIDE:
    i->op = p[1];
    i->wide = 1;
    i->a = (int32_t)cr_be16(p + 2);
    if (p[1] == CR_OP_IINC) i->b = (int16_t)cr_be16(p + 4);
    break;
  case CR_FMT_TSWITCH: case CR_FMT_LSWITCH: {
    uint32_t h = 1 + ((4 - ((off + 1) & 3)) & 3);
    cr_switch *sw = cr_arena_calloc(x->b->a, 1, sizeof *sw);
    if (!sw) return cr_diag_set(x->d, CR_ENOMEM, -1, "out of memory");
    i->sw = sw;
    sw->dflt = LAB(off + s4(p + h));
    const uint8_t *t;
    uint32_t step;
    if (oi->fmt == CR_FMT_TSWITCH) {
      sw->low = s4(p + h + 4);
      sw->n = (k - h - 12) / 4;
      t = p + h + 12;
      step = 4;
    } else {
      sw->n = (uint32_t)s4(p + h + 4);
      t = p + h + 8;
      step = 8;
      sw->keys = cr_arena_alloc(x->b->a, (sw->n ? sw->n : 1) * 4);
    }
    sw->targets = cr_arena_alloc(x->b->a,
                                 (sw->n ? sw->n : 1) * sizeof(cr_insn *));
    if (!sw->targets || (step == 8 && !sw->keys))
      return cr_diag_set(x->d, CR_ENOMEM, -1, "out of memory");
    for (uint32_t j = 0; j < sw->n; j++, t += step) {
      if (step == 8) sw->keys[j] = s4(t);
      sw->targets[j] = LAB(off + s4(t + step - 4));
    }
    break;
  }
  default:
    break;
  }
  if (i->op == CR_OP_JSR || i->op == CR_OP_JSR_W || i->op == CR_OP_RET)
    x->b->has_jsr = 1;
  return 0;
}

/* A table offset of the Code's attributes: pass 2 ('bind' 0) marks its
** label, pass 4 returns it. */
static cr_insn *tab_label(dec *x, uint32_t off, int bind) {
  off = snap(x, off);
  if (!bind) {
    x->nlab += !(x->start[off] & S_LABEL);
    x->start[off] |= S_LABEL;
    return NULL;
  }
  return LAB(off);
}

/*
** The offsets in LineNumberTable, LocalVariable(Type)Table and type
** annotations of the Code's attributes: pass 2 marks them, pass 4 binds
** them to labels as fixups.
*/
static int code_tables(dec *x, cr_code *code, int bind) {
  cr_body *b = x->b;
  for (uint32_t k = 0; k < code->attrs.n; k++) {
    cr_attr *at = &code->attrs.v[k];
    switch (at->kind) {
    case CR_ATTR_LINENUMBERTABLE:
      for (uint32_t j = 0; j < at->u.lines->n; j++) {
        cr_linenum *ln = &at->u.lines->v[j];
        cr_insn *l = tab_label(x, ln->pc, bind);
        if (bind && add_fix(b, &ln->pc, l, NULL)) goto oom;
      }
      break;
    case CR_ATTR_LOCALVARIABLETABLE: case CR_ATTR_LOCALVARIABLETYPETABLE:
      for (uint32_t j = 0; j < at->u.vars->n; j++) {
        cr_localvar *v = &at->u.vars->v[j];
        cr_insn *s = tab_label(x, v->start, bind);
        cr_insn *e = tab_label(x, (uint32_t)v->start + v->len, bind);
        if (bind &&
            (add_fix(b, &v->start, s, NULL) || add_fix(b, &v->len, e, s)))
          goto oom;
      }
      break;
    case CR_ATTR_RVTYPEANNOTATIONS: case CR_ATTR_RITYPEANNOTATIONS:
      for (uint32_t j = 0; j < at->u.tannots->n; j++) {
        cr_typeannot *ta = &at->u.tannots->v[j];
        if (ta->target == 0x40 || ta->target == 0x41) {
          for (uint32_t q = 0; q < ta->nlv; q++) {
            cr_lvtarget *lv = &ta->lv[q];
            cr_insn *s = tab_label(x, lv->start, bind);
            cr_insn *e = tab_label(x, (uint32_t)lv->start + lv->len, bind);
            if (bind && (add_fix(b, &lv->start, s, NULL) ||
                         add_fix(b, &lv->len, e, s)))
              goto oom;
          }
        } else if (ta->target == 0x42) {
          if (!bind) continue;
          if (cr_bc__grow(b->a, (void **)&b->catch_fix, &b->ccatch,
                          b->ncatch + 1, sizeof *b->catch_fix))
            goto oom;
          b->catch_fix[b->ncatch++] = &ta->a;
        } else if (ta->target >= 0x43 && ta->target <= 0x4B) {
          cr_insn *l = tab_label(x, ta->a, bind);
          if (bind && add_fix(b, &ta->a, l, NULL)) goto oom;
        }
      }
      break;
    default:
      break;
    }
  }
  return 0;
oom:
  return cr_diag_set(x->d, CR_ENOMEM, -1, "out of memory");
}

int cr_body_decode(cr_body **out, cr_class *c, cr_member *m, cr_arena *a,
                   cr_diag *d) {
  cr_code *code = cr_member_code(m);
  if (!code) return cr_diag_set(d, CR_EUSAGE, -1, "method has no code");
  cr_body *b = cr_arena_calloc(a, 1, sizeof *b);
  if (!b) return cr_diag_set(d, CR_ENOMEM, -1, "out of memory");
  b->cls = c;
  b->m = m;
  b->code = code;
  b->a = a;
  b->max_stack = code->max_stack;
  b->max_locals = code->max_locals;
  uint32_t n = code->code_len, count = 0;
  dec x = {b, code->code, n, NULL, NULL, NULL, 0, 0, NULL, d};
  x.start = cr_arena_calloc(a, (size_t)n + 1, 1);
  x.offs = cr_arena_alloc(a, ((size_t)n + 1) * sizeof *x.offs);
  x.pos = cr_arena_alloc(a, ((size_t)n + 1) * sizeof *x.pos);
  if (!x.start || !x.offs || !x.pos)
    return cr_diag_set(d, CR_ENOMEM, -1, "out of memory");
  /* pass 1: instruction boundaries */
  for (uint32_t off = 0; off < n;) {
    const char *why = "?";
    uint32_t k = insn_len(code->code, off, n, &why);
    if (!k)
      return cr_diag_set(d, CR_EFORMAT, -1, "%s: offset %u: %s (opcode %u)",
                         cr_body_where(b), off, why, code->code[off]);
    uint8_t fmt = cr_op_info(code->code[off])->fmt;
    x.start[off] = fmt == CR_FMT_BR2 || fmt == CR_FMT_BR4 ||
                           fmt == CR_FMT_TSWITCH || fmt == CR_FMT_LSWITCH
                       ? S_INSN | S_JUMP
                       : S_INSN;
    x.offs[count++] = off;
    off += k;
  }
  x.start[n] = S_INSN;
  /* where the StackMapTable's frames stand ('cr_body_check_frames') */
  const cr_attr *smt = cr_attrs_find(&code->attrs, CR_ATTR_STACKMAPTABLE);
  for (uint32_t k = 0, off = 0; smt && smt->u.smt && k < smt->u.smt->n; k++) {
    off += smt->u.smt->v[k].delta + (k ? 1u : 0u);
    if (off < n && (x.start[off] & S_INSN)) x.start[off] |= S_FRAME;
    else if (!b->bad_frame) b->bad_frame = off + 1;
  }
  /* pass 2: what gets a label, checked */
  x.needs = S_NEEDS;
  for (uint32_t j = 0; j < count; j++) {
    if (!(x.start[x.offs[j]] & S_JUMP)) continue;
    int rc = mark_targets(&x, x.offs[j]);
    if (rc) return rc;
  }
  for (uint32_t k = 0; k < code->nexc; k++) {
    cr_exc *e = &code->exc[k];
    int rc;
    x.needs = 0;
    if ((rc = mark(&x, e->start, e->start, "exception range start")) ||
        (rc = mark(&x, e->end, e->end, "exception range end")))
      return rc;
    x.needs = S_NEEDS;
    if ((rc = mark(&x, e->handler, e->handler, "exception handler")))
      return rc;
    if (e->start >= e->end || e->handler >= n)
      return cr_diag_set(d, CR_EFORMAT, -1,
                         "%s: exception entry %u: bad range %u..%u handler "
                         "%u", cr_body_where(b), k, e->start, e->end,
                         e->handler);
  }
  x.needs = 0;
  code_tables(&x, code, 0);
  /* pass 3: the nodes, in list order */
  uint32_t total = count + x.nlab;
  cr_insn *v = x.v = cr_arena_calloc(a, total ? total : 1, sizeof *v);
  if (!v) return cr_diag_set(d, CR_ENOMEM, -1, "out of memory");
  for (uint32_t j = 0; j <= count; j++) {
    uint32_t off = j < count ? x.offs[j] : n, k = b->ninsn;
    x.pos[off] = k;
    if (x.start[off] & S_LABEL) v[k++].op = CR_OP_LABEL;
    if (j < count) v[k++].op = code->code[off];
    for (; b->ninsn < k; b->ninsn++) {
      cr_insn *i = &v[b->ninsn];
      i->off = off;
      i->orig = off + 1;
      i->id = b->ninsn;
      i->prev = b->ninsn ? i - 1 : NULL;
      i->next = b->ninsn + 1 < total ? i + 1 : NULL;
    }
  }
  if (total) {
    b->first = &v[0];
    b->last = &v[total - 1];
  }
  /* pass 4: operands, exception table and tables bound to the labels */
  for (uint32_t j = 0; j < count; j++) {
    uint32_t off = x.offs[j];
    cr_insn *i = &v[x.pos[off] + ((x.start[off] & S_LABEL) != 0)];
    uint32_t len = (j + 1 < count ? x.offs[j + 1] : n) - off;
    int rc = decode_one(&x, i, off, len);
    if (rc) return rc;
    uint32_t t = cr_bc__local_top(i);
    if (t > b->locals_top) b->locals_top = t;
  }
  for (uint32_t k = 0; k < code->nexc; k++) {
    cr_exc *e = &code->exc[k];
    if (cr_body_add_tcb(b, &v[x.pos[e->start]], &v[x.pos[e->end]],
                        &v[x.pos[e->handler]], e->catch_type, d))
      return d->code;
  }
  int rc = code_tables(&x, code, 1);
  if (rc) return rc;
  b->oflags = x.start;
  *out = b;
  return 0;
}

int cr_body_check_frames(const cr_body *b, cr_diag *d) {
  if (b->bad_frame)
    return cr_diag_set(d, CR_EFORMAT, -1, "%s: a StackMapTable frame at "
                       "offset %u, which starts no instruction",
                       cr_body_where(b), b->bad_frame - 1);
  if (!b->oflags || b->cls->major < 51) return 0;
  /* HotSpot's type checker, with no older verifier to fall back to,
  ** wants a frame at every branch target and handler, and after every
  ** unconditional jump */
  const cr_code *code = b->code;
  const uint8_t *f = b->oflags;
  int after = 0;
  for (uint32_t off = 0; off < code->code_len; off++) {
    if (!(f[off] & S_INSN)) continue;
    if (((f[off] & S_NEEDS) || after) && !(f[off] & S_FRAME))
      return cr_diag_set(d, CR_EFORMAT, -1, "%s: no StackMapTable frame at "
                         "offset %u, where the type checker wants one",
                         cr_body_where(b), off);
    uint8_t op = code->code[off];
    after = (op >= 0xac && op <= 0xb1) || op == 0xa7 || op == 0xc8 ||
            op == 0xbf || op == 0xaa || op == 0xab;
  }
  return 0;
}

/* ------------------------------------------------------------- copying */

/*
** The offset fields of code's tables in the order 'code_tables' binds
** them: up to 'cf' into 'f' (one per fixup) and up to 'cc' into 'c' (the
** 'catch' targets). Returns 0 when there are exactly 'cf' and 'cc'.
*/
static int table_fields(cr_code *code, uint16_t **f, uint32_t cf,
                        uint16_t **c, uint32_t cc) {
  uint32_t nf = 0, nc = 0;
#define PUT(p) do { if (nf >= cf) return 1; f[nf++] = (p); } while (0)
  for (uint32_t k = 0; k < code->attrs.n; k++) {
    cr_attr *at = &code->attrs.v[k];
    switch (at->kind) {
    case CR_ATTR_LINENUMBERTABLE:
      for (uint32_t j = 0; j < at->u.lines->n; j++)
        PUT(&at->u.lines->v[j].pc);
      break;
    case CR_ATTR_LOCALVARIABLETABLE: case CR_ATTR_LOCALVARIABLETYPETABLE:
      for (uint32_t j = 0; j < at->u.vars->n; j++) {
        PUT(&at->u.vars->v[j].start);
        PUT(&at->u.vars->v[j].len);
      }
      break;
    case CR_ATTR_RVTYPEANNOTATIONS: case CR_ATTR_RITYPEANNOTATIONS:
      for (uint32_t j = 0; j < at->u.tannots->n; j++) {
        cr_typeannot *ta = &at->u.tannots->v[j];
        if (ta->target == 0x40 || ta->target == 0x41) {
          for (uint32_t q = 0; q < ta->nlv; q++) {
            PUT(&ta->lv[q].start);
            PUT(&ta->lv[q].len);
          }
        } else if (ta->target == 0x42) {
          if (nc >= cc) return 1;
          c[nc++] = &ta->a;
        } else if (ta->target >= 0x43 && ta->target <= 0x4B) {
          PUT(&ta->a);
        }
      }
      break;
    default:
      break;
    }
  }
#undef PUT
  return nf != cf || nc != cc;
}

int cr_body_clone(cr_body **out, const cr_body *src, cr_member *m,
                  cr_arena *a, cr_insn **xl, size_t n, cr_diag *d) {
  cr_code *code = cr_member_code(m);
  if (!code) return cr_diag_set(d, CR_EUSAGE, -1, "method has no code");
  /* every node has an id below 'ninsn': room for all without counting */
  cr_body *b = cr_arena_alloc(a, sizeof *b);
  cr_insn **map = cr_arena_calloc(a, (size_t)src->ninsn + 1, sizeof *map);
  cr_insn *v = cr_arena_alloc(a, ((size_t)src->ninsn + 1) * sizeof *v);
  cr_tcb *t = cr_arena_alloc(a, (src->ntcb ? src->ntcb : 1) * sizeof *t);
  cr_fixup *fx = cr_arena_alloc(a, (src->nfix ? src->nfix : 1) * sizeof *fx);
  uint16_t **ff = cr_arena_alloc(a, (src->nfix + src->ncatch + 1) *
                                        sizeof *ff);
  if (!b || !map || !v || !t || !fx || !ff)
    return cr_diag_set(d, CR_ENOMEM, -1, "out of memory");
  *b = *src;
  b->m = m;
  b->code = code;
  b->a = a;
  uint16_t **cf = ff + src->nfix;
  if (table_fields(code, ff, src->nfix, cf, src->ncatch))
    return cr_diag_set(d, CR_EUSAGE, -1, "%s: tables differ from the copy's",
                       cr_body_where(b));
  uint32_t k = 0, count;
  for (const cr_insn *i = src->first; i; i = i->next, k++) {
    if (i->id >= src->ninsn || map[i->id])
      return cr_diag_set(d, CR_EUSAGE, -1, "%s: bad node id %u",
                         cr_body_where(b), i->id);
    v[k] = *i;
    v[k].prev = k ? &v[k - 1] : NULL;
    v[k].next = &v[k + 1];
    map[i->id] = &v[k];
  }
  count = k;
  b->first = count ? &v[0] : NULL;
  b->last = count ? &v[count - 1] : NULL;
  if (count) v[count - 1].next = NULL;
#define MAP(p) ((p) && (p)->id < src->ninsn ? map[(p)->id] : NULL)
  for (k = 0; k < count; k++) {
    cr_insn *i = &v[k];
    if (i->target && !(i->target = MAP(i->target))) goto bad;
    if (!i->sw) continue;
    cr_switch *sw = cr_arena_alloc(a, sizeof *sw);
    cr_insn **tg = cr_arena_alloc(a, (i->sw->n ? i->sw->n : 1) * sizeof *tg);
    if (!sw || !tg) return cr_diag_set(d, CR_ENOMEM, -1, "out of memory");
    *sw = *i->sw;
    for (uint32_t j = 0; j < sw->n; j++)
      if (!(tg[j] = MAP(sw->targets[j]))) goto bad;
    sw->targets = tg;
    if (sw->dflt && !(sw->dflt = MAP(sw->dflt))) goto bad;
    i->sw = sw;
  }
  for (k = 0; k < src->ntcb; k++) {
    t[k] = src->tcb[k];
    if (!(t[k].start = MAP(t[k].start)) || !(t[k].end = MAP(t[k].end)) ||
        !(t[k].handler = MAP(t[k].handler)))
      goto bad;
  }
  b->tcb = t;
  b->ctcb = src->ntcb;
  for (k = 0; k < src->nfix; k++) {
    fx[k].field = ff[k];
    if (!(fx[k].end = MAP(src->fix[k].end))) goto bad;
    fx[k].start = src->fix[k].start ? MAP(src->fix[k].start) : NULL;
    if (src->fix[k].start && !fx[k].start) goto bad;
  }
  b->fix = fx;
  b->cfix = src->nfix;
  b->catch_fix = cf;
  b->ccatch = src->ncatch;
  if (src->line_at && !(b->line_at = MAP(src->line_at))) goto bad;
  for (size_t j = 0; j < n; j++)
    if (xl[j] && !(xl[j] = MAP(xl[j]))) goto bad;
#undef MAP
  *out = b;
  return 0;
bad:
  return cr_diag_set(d, CR_EUSAGE, -1, "%s: a reference to a node outside "
                     "the body", cr_body_where(b));
}
