/*
** write.c -- class-file writer: serialises the model (JVMS 4.1); the pool
** is copied from the input and appended to, everything else re-encoded.
*/
#include "cf_int.h"

#define MAX_DEPTH 256

typedef struct wr {
  cr_buf *b;
  cr_diag *d;
  int err;              /* first error; further output is moot */
} wr;

/* Unchecked-capacity appenders with a slow path into 'cr_buf_reserve'. */
static inline void w1(cr_buf *b, uint32_t v) {
  if (b->cap - b->len < 1 && cr_buf_reserve(b, 1)) return;
  b->data[b->len++] = (uint8_t)v;
}
static inline void w2(cr_buf *b, uint32_t v) {
  if (b->cap - b->len < 2 && cr_buf_reserve(b, 2)) return;
  b->data[b->len] = (uint8_t)(v >> 8);
  b->data[b->len + 1] = (uint8_t)v;
  b->len += 2;
}
static inline void w4(cr_buf *b, uint32_t v) {
  if (b->cap - b->len < 4 && cr_buf_reserve(b, 4)) return;
  uint8_t *p = b->data + b->len;
  p[0] = (uint8_t)(v >> 24);
  p[1] = (uint8_t)(v >> 16);
  p[2] = (uint8_t)(v >> 8);
  p[3] = (uint8_t)v;
  b->len += 4;
}

static void too_large(wr *w, const char *what, uint32_t n, uint32_t max) {
  if (!w->err)
    w->err = cr_diag_set(w->d, CR_ETOOLARGE, -1, "%s: %u exceeds %u", what,
                         n, max);
}

/* A u2 (or u1 when 'max' is 255) count, checked against its limit. */
static void count(wr *w, uint32_t n, uint32_t max, const char *what) {
  if (n > max) too_large(w, what, n, max);
  if (max == 255) w1(w->b, n);
  else w2(w->b, n);
}

static void u2list(wr *w, const cr_u2list *l, const char *what) {
  count(w, l->n, 65535, what);
  for (uint32_t i = 0; i < l->n; i++) w2(w->b, l->v[i]);
}

static void attrs(wr *w, const cr_attrs *as);
static void annotation(wr *w, const cr_annotation *an, int depth);

static void elemval(wr *w, const cr_elemval *ev, int depth) {
  cr_buf *b = w->b;
  if (depth > MAX_DEPTH) {
    too_large(w, "annotation nesting", (uint32_t)depth, MAX_DEPTH);
    return;
  }
  w1(b, ev->tag);
  switch (ev->tag) {
  case 'e':
    w2(b, ev->u.enm.type);
    w2(b, ev->u.enm.name);
    break;
  case '@':
    annotation(w, ev->u.ann, depth + 1);
    break;
  case '[':
    count(w, ev->u.arr.n, 65535, "annotation array length");
    for (uint32_t i = 0; i < ev->u.arr.n; i++)
      elemval(w, &ev->u.arr.v[i], depth + 1);
    break;
  default:
    w2(b, ev->u.cst);
    break;
  }
}

static void annotation(wr *w, const cr_annotation *an, int depth) {
  w2(w->b, an->type);
  count(w, an->n, 65535, "annotation element count");
  for (uint32_t i = 0; i < an->n; i++) {
    w2(w->b, an->pairs[i].name);
    elemval(w, an->pairs[i].value, depth + 1);
  }
}

static void annots(wr *w, const cr_annots *as) {
  count(w, as->n, 65535, "annotation count");
  for (uint32_t i = 0; i < as->n; i++) annotation(w, &as->v[i], 0);
}

static void typeannot(wr *w, const cr_typeannot *ta) {
  cr_buf *b = w->b;
  w1(b, ta->target);
  switch (ta->target) {
  case 0x00: case 0x01: case 0x16:
    w1(b, ta->a);
    break;
  case 0x11: case 0x12:
    w1(b, ta->a);
    w1(b, ta->b);
    break;
  case 0x40: case 0x41:
    count(w, ta->nlv, 65535, "localvar target table length");
    for (uint32_t i = 0; i < ta->nlv; i++) {
      w2(b, ta->lv[i].start);
      w2(b, ta->lv[i].len);
      w2(b, ta->lv[i].index);
    }
    break;
  case 0x47: case 0x48: case 0x49: case 0x4A: case 0x4B:
    w2(b, ta->a);
    w1(b, ta->b);
    break;
  case 0x13: case 0x14: case 0x15:
    break;
  default:
    w2(b, ta->a);
    break;
  }
  count(w, ta->npath, 255, "type_path length");
  for (uint32_t i = 0; i < ta->npath; i++) {
    w1(b, ta->path[i].kind);
    w1(b, ta->path[i].arg);
  }
  annotation(w, &ta->ann, 0);
}

static void vtypes(wr *w, const cr_vtype *v, uint32_t n) {
  for (uint32_t i = 0; i < n; i++) {
    w1(w->b, v[i].tag);
    if (v[i].tag == CR_VT_OBJECT || v[i].tag == CR_VT_UNINIT)
      w2(w->b, v[i].v);
  }
}

static void stackmap(wr *w, const cr_stackmap *sm) {
  cr_buf *b = w->b;
  count(w, sm->n, 65535, "stack map frame count");
  for (uint32_t i = 0; i < sm->n; i++) {
    const cr_frame *f = &sm->v[i];
    uint32_t t = f->type;
    w1(b, t);
    if (t < 64) continue;
    if (t < 128) {
      vtypes(w, f->stack, 1);
      continue;
    }
    w2(b, f->delta);
    if (t == 247) {
      vtypes(w, f->stack, 1);
    } else if (t >= 252 && t <= 254) {
      vtypes(w, f->locals, t - 251);
    } else if (t == 255) {
      w2(b, f->nlocals);
      vtypes(w, f->locals, f->nlocals);
      w2(b, f->nstack);
      vtypes(w, f->stack, f->nstack);
    }
  }
}

static void code(wr *w, const cr_code *c) {
  cr_buf *b = w->b;
  w2(b, c->max_stack);
  w2(b, c->max_locals);
  if (c->code_len == 0 || c->code_len > 65535)
    too_large(w, "code_length", c->code_len, 65535);
  w4(b, c->code_len);
  cr_buf_put(b, c->code, c->code_len);
  count(w, c->nexc, 65535, "exception table length");
  for (uint32_t i = 0; i < c->nexc; i++) {
    w2(b, c->exc[i].start);
    w2(b, c->exc[i].end);
    w2(b, c->exc[i].handler);
    w2(b, c->exc[i].catch_type);
  }
  attrs(w, &c->attrs);
}

static void module(wr *w, const cr_module *m) {
  cr_buf *b = w->b;
  w2(b, m->name);
  w2(b, m->flags);
  w2(b, m->version);
  count(w, m->nrequires, 65535, "requires count");
  for (uint32_t i = 0; i < m->nrequires; i++) {
    w2(b, m->requires[i].module);
    w2(b, m->requires[i].flags);
    w2(b, m->requires[i].version);
  }
  for (int pass = 0; pass < 2; pass++) {
    uint32_t n = pass ? m->nopens : m->nexports;
    const cr_modexp *v = pass ? m->opens : m->exports;
    count(w, n, 65535, pass ? "opens count" : "exports count");
    for (uint32_t i = 0; i < n; i++) {
      w2(b, v[i].package);
      w2(b, v[i].flags);
      u2list(w, &v[i].to, "exports/opens to count");
    }
  }
  u2list(w, &m->uses, "uses count");
  count(w, m->nprovides, 65535, "provides count");
  for (uint32_t i = 0; i < m->nprovides; i++) {
    w2(b, m->provides[i].service);
    u2list(w, &m->provides[i].with, "provides with count");
  }
}

static void body(wr *w, const cr_attr *at) {
  cr_buf *b = w->b;
  switch (at->kind) {
  case CR_ATTR_CODE: code(w, at->u.code); break;
  case CR_ATTR_STACKMAPTABLE: stackmap(w, at->u.smt); break;
  case CR_ATTR_LINENUMBERTABLE:
    count(w, at->u.lines->n, 65535, "line number count");
    for (uint32_t i = 0; i < at->u.lines->n; i++) {
      w2(b, at->u.lines->v[i].pc);
      w2(b, at->u.lines->v[i].line);
    }
    break;
  case CR_ATTR_LOCALVARIABLETABLE: case CR_ATTR_LOCALVARIABLETYPETABLE:
    count(w, at->u.vars->n, 65535, "local variable count");
    for (uint32_t i = 0; i < at->u.vars->n; i++) {
      const cr_localvar *v = &at->u.vars->v[i];
      w2(b, v->start);
      w2(b, v->len);
      w2(b, v->name);
      w2(b, v->desc);
      w2(b, v->index);
    }
    break;
  case CR_ATTR_EXCEPTIONS: case CR_ATTR_NESTMEMBERS:
  case CR_ATTR_PERMITTEDSUBCLASSES: case CR_ATTR_MODULEPACKAGES:
    u2list(w, &at->u.list, cr_attr_kind_name(at->kind));
    break;
  case CR_ATTR_SIGNATURE: case CR_ATTR_SOURCEFILE: case CR_ATTR_NESTHOST:
  case CR_ATTR_MODULEMAINCLASS: case CR_ATTR_CONSTANTVALUE:
    w2(b, at->u.index);
    break;
  case CR_ATTR_BOOTSTRAPMETHODS:
    count(w, at->u.bsms->n, 65535, "bootstrap method count");
    for (uint32_t i = 0; i < at->u.bsms->n; i++) {
      w2(b, at->u.bsms->v[i].mh);
      u2list(w, &at->u.bsms->v[i].args, "bootstrap argument count");
    }
    break;
  case CR_ATTR_INNERCLASSES:
    count(w, at->u.inner->n, 65535, "inner class count");
    for (uint32_t i = 0; i < at->u.inner->n; i++) {
      const cr_innerclass *ic = &at->u.inner->v[i];
      w2(b, ic->inner);
      w2(b, ic->outer);
      w2(b, ic->name);
      w2(b, ic->flags);
    }
    break;
  case CR_ATTR_ENCLOSINGMETHOD:
    w2(b, at->u.enclosing.cls);
    w2(b, at->u.enclosing.method);
    break;
  case CR_ATTR_RECORD:
    count(w, at->u.record->n, 65535, "record component count");
    for (uint32_t i = 0; i < at->u.record->n; i++) {
      const cr_component *c = &at->u.record->v[i];
      w2(b, c->name);
      w2(b, c->desc);
      attrs(w, &c->attrs);
    }
    break;
  case CR_ATTR_MODULE: module(w, at->u.module); break;
  case CR_ATTR_METHODPARAMETERS:
    count(w, at->u.params->n, 255, "method parameter count");
    for (uint32_t i = 0; i < at->u.params->n; i++) {
      w2(b, at->u.params->v[i].name);
      w2(b, at->u.params->v[i].flags);
    }
    break;
  case CR_ATTR_ANNOTATIONDEFAULT: elemval(w, at->u.defval, 0); break;
  case CR_ATTR_RVANNOTATIONS: case CR_ATTR_RIANNOTATIONS:
    annots(w, at->u.annots);
    break;
  case CR_ATTR_RVPARAMANNOTATIONS: case CR_ATTR_RIPARAMANNOTATIONS:
    count(w, at->u.pannots->n, 255, "parameter annotation count");
    for (uint32_t i = 0; i < at->u.pannots->n; i++)
      annots(w, &at->u.pannots->v[i]);
    break;
  case CR_ATTR_RVTYPEANNOTATIONS: case CR_ATTR_RITYPEANNOTATIONS:
    count(w, at->u.tannots->n, 65535, "type annotation count");
    for (uint32_t i = 0; i < at->u.tannots->n; i++)
      typeannot(w, &at->u.tannots->v[i]);
    break;
  default:                       /* Synthetic, Deprecated: empty */
    break;
  }
}

static void attrs(wr *w, const cr_attrs *as) {
  cr_buf *b = w->b;
  count(w, as->n, 65535, "attribute count");
  for (uint32_t i = 0; i < as->n; i++) {
    const cr_attr *at = &as->v[i];
    w2(b, at->name);
    if (at->kind == CR_ATTR_OTHER) {
      w4(b, at->len);
      cr_buf_put(b, at->raw, at->len);
      continue;
    }
    size_t at0 = b->len;
    w4(b, 0);
    body(w, at);
    if (!b->err) cr_buf_set_u4(b, at0, (uint32_t)(b->len - at0 - 4));
  }
}

static void members(wr *w, const cr_member *v, uint32_t n,
                    const char *what) {
  count(w, n, 65535, what);
  for (uint32_t i = 0; i < n; i++) {
    w2(w->b, v[i].flags);
    w2(w->b, v[i].name);
    w2(w->b, v[i].desc);
    attrs(w, &v[i].attrs);
  }
}

int cr_cf_write(cr_buf *out, const cr_class *c, cr_diag *d) {
  if (c->header_only)
    return cr_diag_set(d, CR_EUSAGE, -1,
                       "a class parsed for its header only cannot be "
                       "written");
  wr w = {out, d, 0};
  size_t start = out->len;
  cr_buf_reserve(out, c->len + 64);
  w4(out, 0xCAFEBABEu);
  w2(out, c->minor);
  w2(out, c->major);
  cr_cp__write(out, c->cp, d);
  w2(out, c->flags);
  w2(out, c->this_class);
  w2(out, c->super_class);
  u2list(&w, &c->interfaces, "interface count");
  members(&w, c->fields, c->nfields, "field count");
  members(&w, c->methods, c->nmethods, "method count");
  attrs(&w, &c->attrs);
  if (!w.err && out->err)
    w.err = cr_diag_set(d, CR_ENOMEM, -1, "out of memory writing a class");
  if (w.err && !out->err) out->len = start;
  return w.err;
}
