/*
** attr.c -- attribute reader (JVMS 4.7): known attributes are parsed into
** structs, checked against their declared length; others kept verbatim.
*/
#include "cf_int.h"

#define MAX_DEPTH 256   /* annotation element values nest at most this */

/* ORDER cr_attr_kind */
static const struct {
  const char *name;
  uint8_t len, ctx;
} known[CR_ATTR__COUNT] = {
  {NULL, 0, 0},
  {"Code", 4, CX_METHOD},
  {"StackMapTable", 13, CX_CODE},
  {"LineNumberTable", 15, CX_CODE},
  {"LocalVariableTable", 18, CX_CODE},
  {"LocalVariableTypeTable", 22, CX_CODE},
  {"Exceptions", 10, CX_METHOD},
  {"Signature", 9, CX_CLASS | CX_FIELD | CX_METHOD | CX_COMP},
  {"BootstrapMethods", 16, CX_CLASS},
  {"ConstantValue", 13, CX_FIELD},
  {"SourceFile", 10, CX_CLASS},
  {"InnerClasses", 12, CX_CLASS},
  {"EnclosingMethod", 15, CX_CLASS},
  {"NestHost", 8, CX_CLASS},
  {"NestMembers", 11, CX_CLASS},
  {"PermittedSubclasses", 19, CX_CLASS},
  {"Record", 6, CX_CLASS},
  {"Module", 6, CX_CLASS},
  {"ModulePackages", 14, CX_CLASS},
  {"ModuleMainClass", 15, CX_CLASS},
  {"MethodParameters", 16, CX_METHOD},
  {"AnnotationDefault", 17, CX_METHOD},
  {"RuntimeVisibleAnnotations", 25,
   CX_CLASS | CX_FIELD | CX_METHOD | CX_COMP},
  {"RuntimeInvisibleAnnotations", 27,
   CX_CLASS | CX_FIELD | CX_METHOD | CX_COMP},
  {"RuntimeVisibleParameterAnnotations", 34, CX_METHOD},
  {"RuntimeInvisibleParameterAnnotations", 36, CX_METHOD},
  {"RuntimeVisibleTypeAnnotations", 29,
   CX_CLASS | CX_FIELD | CX_METHOD | CX_CODE | CX_COMP},
  {"RuntimeInvisibleTypeAnnotations", 31,
   CX_CLASS | CX_FIELD | CX_METHOD | CX_CODE | CX_COMP},
  {"Synthetic", 9, CX_CLASS | CX_FIELD | CX_METHOD},
  {"Deprecated", 10, CX_CLASS | CX_FIELD | CX_METHOD},
};

const char *cr_attr_kind_name(cr_attr_kind kind) {
  return kind > 0 && kind < CR_ATTR__COUNT ? known[kind].name : NULL;
}

cr_attr *cr_attrs_find(const cr_attrs *as, cr_attr_kind kind) {
  for (uint32_t i = 0; i < as->n; i++)
    if (as->v[i].kind == kind) return &as->v[i];
  return NULL;
}

/* Kind of the attribute named by Utf8 entry 'i' (cached per index). */
static int lookup(cr_ps *ps, uint32_t i) {
  if (ps->akind[i] != 0xFF) return ps->akind[i];
  const cr_cpentry *e = &ps->cp->e[i];
  int k = CR_ATTR_OTHER;
  for (int j = 1; j < CR_ATTR__COUNT; j++)
    if (e->len == known[j].len && memcmp(e->v.utf8, known[j].name,
                                         e->len) == 0) {
      k = j;
      break;
    }
  ps->akind[i] = (uint8_t)k;
  return k;
}

/* The helpers below all have 'ps' and the cursor 'r' in scope. */
#define ALLOC(p, n)                                                   \
  do {                                                                \
    if (!((p) = cr_cf__alloc(ps->a, (n), sizeof *(p))))               \
      return cr_cf__oom(ps, r);                                       \
  } while (0)
#define CHECK(x)                                                      \
  do {                                                                \
    int rc_ = (x);                                                    \
    if (rc_) return rc_;                                              \
  } while (0)
/* Fast path of 'cr_cf__ref': is 'i' a 'tag' entry (or 0 if 'opt')? */
static inline int ref_ok(const cr_cpool *cp, uint32_t i, int tag, int opt) {
  return i == 0 ? opt : i < cp->count && cp->e[i].tag == tag;
}

/* Read a u2 pool index at the cursor and check its tag. */
#define REF(dst, tg, opt, what)                                       \
  do {                                                                \
    long o_ = rd_off(r);                                              \
    (dst) = (uint16_t)rd_u2(r);                                       \
    if (r->err) return r->err;                                        \
    if (!ref_ok(ps->cp, (dst), (tg), (opt)))                          \
      CHECK(cr_cf__ref(ps, o_, (dst), (tg), (opt), (what)));         \
  } while (0)

/* A count 'n' of items at least 'min' bytes each must fit the input. */
static int count_fits(cr_rd *r, uint32_t n, size_t min) {
  return rd_need(r, (size_t)n * min);
}

/* u2 count then that many u2 indices of 'tag'. */
static int reflist(cr_ps *ps, cr_rd *r, cr_u2list *l, int tag,
                   const char *what) {
  uint32_t n = rd_u2(r);
  if (r->err || !count_fits(r, n, 2)) return r->err;
  l->n = n;
  ALLOC(l->v, n);
  for (uint32_t i = 0; i < n; i++) REF(l->v[i], tag, 0, what);
  return 0;
}

static int loadable(int tag) {
  switch (tag) {
  case CR_CP_INTEGER: case CR_CP_FLOAT: case CR_CP_LONG: case CR_CP_DOUBLE:
  case CR_CP_CLASS: case CR_CP_STRING: case CR_CP_METHODHANDLE:
  case CR_CP_METHODTYPE: case CR_CP_DYNAMIC:
    return 1;
  default:
    return 0;
  }
}

static int vtypes(cr_ps *ps, cr_rd *r, uint32_t n, cr_vtype **out) {
  cr_vtype *v;
  if (!count_fits(r, n, 1)) return r->err;
  ALLOC(v, n);
  for (uint32_t i = 0; i < n; i++) {
    long off = rd_off(r);
    uint32_t t = rd_u1(r);
    v[i].tag = (uint8_t)t;
    v[i].v = 0;
    if (t == CR_VT_OBJECT)
      REF(v[i].v, CR_CP_CLASS, 0, "stack map Object type");
    else if (t == CR_VT_UNINIT)
      v[i].v = (uint16_t)rd_u2(r);
    else if (t > CR_VT_UNINIT && !r->err)
      return cr_diag_set(ps->d, CR_EFORMAT, off,
                         "invalid verification type tag %u", t);
    if (r->err) return r->err;
  }
  *out = v;
  return 0;
}

static int stackmap(cr_ps *ps, cr_rd *r, cr_stackmap *sm) {
  uint32_t n = rd_u2(r);
  if (r->err || !count_fits(r, n, 1)) return r->err;
  sm->n = n;
  ALLOC(sm->v, n);
  for (uint32_t i = 0; i < n; i++) {
    cr_frame *f = &sm->v[i];
    long off = rd_off(r);
    uint32_t t = rd_u1(r);
    memset(f, 0, sizeof *f);
    f->type = (uint8_t)t;
    if (t < 64) {
      f->delta = (uint16_t)t;
    } else if (t < 128) {
      f->delta = (uint16_t)(t - 64);
      f->nstack = 1;
      CHECK(vtypes(ps, r, 1, &f->stack));
    } else if (t < 247) {
      if (r->err) return r->err;
      return cr_diag_set(ps->d, CR_EFORMAT, off,
                         "reserved stack map frame type %u", t);
    } else {
      f->delta = (uint16_t)rd_u2(r);
      if (t == 247) {
        f->nstack = 1;
        CHECK(vtypes(ps, r, 1, &f->stack));
      } else if (t >= 252 && t <= 254) {
        f->nlocals = (uint16_t)(t - 251);
        CHECK(vtypes(ps, r, f->nlocals, &f->locals));
      } else if (t == 255) {
        f->nlocals = (uint16_t)rd_u2(r);
        CHECK(vtypes(ps, r, f->nlocals, &f->locals));
        f->nstack = (uint16_t)rd_u2(r);
        CHECK(vtypes(ps, r, f->nstack, &f->stack));
      }
    }
    if (r->err) return r->err;
  }
  return 0;
}

static int annotation(cr_ps *ps, cr_rd *r, cr_annotation *an, int depth);

static int elemval(cr_ps *ps, cr_rd *r, cr_elemval *ev, int depth) {
  long off = rd_off(r);
  if (depth > MAX_DEPTH)
    return cr_diag_set(ps->d, CR_EFORMAT, off,
                       "annotation values nest deeper than %d", MAX_DEPTH);
  uint32_t t = rd_u1(r);
  if (r->err) return r->err;
  ev->tag = (uint8_t)t;
  switch (t) {
  case 'B': case 'C': case 'I': case 'S': case 'Z':
    REF(ev->u.cst, CR_CP_INTEGER, 0, "annotation constant");
    break;
  case 'D': REF(ev->u.cst, CR_CP_DOUBLE, 0, "annotation constant"); break;
  case 'F': REF(ev->u.cst, CR_CP_FLOAT, 0, "annotation constant"); break;
  case 'J': REF(ev->u.cst, CR_CP_LONG, 0, "annotation constant"); break;
  case 's': case 'c':
    REF(ev->u.cst, CR_CP_UTF8, 0, "annotation constant");
    break;
  case 'e':
    REF(ev->u.enm.type, CR_CP_UTF8, 0, "annotation enum type");
    REF(ev->u.enm.name, CR_CP_UTF8, 0, "annotation enum constant");
    break;
  case '@':
    ALLOC(ev->u.ann, 1);
    return annotation(ps, r, ev->u.ann, depth + 1);
  case '[': {
    uint32_t n = rd_u2(r);
    if (r->err || !count_fits(r, n, 3)) return r->err;
    ev->u.arr.n = n;
    ALLOC(ev->u.arr.v, n);
    for (uint32_t i = 0; i < n; i++)
      CHECK(elemval(ps, r, &ev->u.arr.v[i], depth + 1));
    break;
  }
  default:
    return cr_diag_set(ps->d, CR_EFORMAT, off,
                       "invalid annotation element_value tag 0x%02x", t);
  }
  return 0;
}

static int annotation(cr_ps *ps, cr_rd *r, cr_annotation *an, int depth) {
  REF(an->type, CR_CP_UTF8, 0, "annotation type");
  uint32_t n = rd_u2(r);
  if (r->err || !count_fits(r, n, 5)) return r->err;
  an->n = n;
  ALLOC(an->pairs, n);
  cr_elemval *vals;
  ALLOC(vals, n);
  for (uint32_t i = 0; i < n; i++) {
    REF(an->pairs[i].name, CR_CP_UTF8, 0, "annotation element name");
    an->pairs[i].value = &vals[i];
    CHECK(elemval(ps, r, &vals[i], depth + 1));
  }
  return 0;
}

static int annots(cr_ps *ps, cr_rd *r, cr_annots *as) {
  uint32_t n = rd_u2(r);
  if (r->err || !count_fits(r, n, 4)) return r->err;
  as->n = n;
  ALLOC(as->v, n);
  for (uint32_t i = 0; i < n; i++) CHECK(annotation(ps, r, &as->v[i], 0));
  return 0;
}

static int typeannot(cr_ps *ps, cr_rd *r, cr_typeannot *ta) {
  long off = rd_off(r);
  uint32_t t = rd_u1(r);
  memset(ta, 0, sizeof *ta);
  ta->target = (uint8_t)t;
  switch (t) {
  case 0x00: case 0x01: case 0x16:
    ta->a = (uint16_t)rd_u1(r);
    break;
  case 0x11: case 0x12:
    ta->a = (uint16_t)rd_u1(r);
    ta->b = (uint8_t)rd_u1(r);
    break;
  case 0x10: case 0x17: case 0x42: case 0x43: case 0x44: case 0x45:
  case 0x46:
    ta->a = (uint16_t)rd_u2(r);
    break;
  case 0x47: case 0x48: case 0x49: case 0x4A: case 0x4B:
    ta->a = (uint16_t)rd_u2(r);
    ta->b = (uint8_t)rd_u1(r);
    break;
  case 0x13: case 0x14: case 0x15:
    break;
  case 0x40: case 0x41: {
    uint32_t n = rd_u2(r);
    if (r->err || !count_fits(r, n, 6)) return r->err;
    ta->nlv = n;
    ALLOC(ta->lv, n);
    for (uint32_t i = 0; i < n; i++) {
      ta->lv[i].start = (uint16_t)rd_u2(r);
      ta->lv[i].len = (uint16_t)rd_u2(r);
      ta->lv[i].index = (uint16_t)rd_u2(r);
    }
    break;
  }
  default:
    if (r->err) return r->err;
    return cr_diag_set(ps->d, CR_EFORMAT, off,
                       "invalid type annotation target_type 0x%02x", t);
  }
  uint32_t np = rd_u1(r);
  if (r->err || !count_fits(r, np, 2)) return r->err;
  ta->npath = np;
  ALLOC(ta->path, np);
  for (uint32_t i = 0; i < np; i++) {
    ta->path[i].kind = (uint8_t)rd_u1(r);
    ta->path[i].arg = (uint8_t)rd_u1(r);
  }
  return annotation(ps, r, &ta->ann, 0);
}

static int module(cr_ps *ps, cr_rd *r, cr_module *m) {
  REF(m->name, CR_CP_MODULE, 0, "module name");
  m->flags = (uint16_t)rd_u2(r);
  REF(m->version, CR_CP_UTF8, 1, "module version");
  uint32_t n = rd_u2(r);
  if (r->err || !count_fits(r, n, 6)) return r->err;
  m->nrequires = n;
  ALLOC(m->requires, n);
  for (uint32_t i = 0; i < n; i++) {
    REF(m->requires[i].module, CR_CP_MODULE, 0, "requires");
    m->requires[i].flags = (uint16_t)rd_u2(r);
    REF(m->requires[i].version, CR_CP_UTF8, 1, "requires version");
  }
  for (int pass = 0; pass < 2; pass++) {     /* exports, then opens */
    n = rd_u2(r);
    if (r->err || !count_fits(r, n, 6)) return r->err;
    cr_modexp *v;
    ALLOC(v, n);
    for (uint32_t i = 0; i < n; i++) {
      REF(v[i].package, CR_CP_PACKAGE, 0, pass ? "opens" : "exports");
      v[i].flags = (uint16_t)rd_u2(r);
      CHECK(reflist(ps, r, &v[i].to, CR_CP_MODULE,
                    pass ? "opens to" : "exports to"));
    }
    if (pass) m->nopens = n, m->opens = v;
    else m->nexports = n, m->exports = v;
  }
  CHECK(reflist(ps, r, &m->uses, CR_CP_CLASS, "uses"));
  n = rd_u2(r);
  if (r->err || !count_fits(r, n, 4)) return r->err;
  m->nprovides = n;
  ALLOC(m->provides, n);
  for (uint32_t i = 0; i < n; i++) {
    REF(m->provides[i].service, CR_CP_CLASS, 0, "provides");
    CHECK(reflist(ps, r, &m->provides[i].with, CR_CP_CLASS,
                  "provides with"));
  }
  return 0;
}

static int code(cr_ps *ps, cr_rd *r, cr_code *c) {
  long off;
  if (!rd_need(r, 8)) return r->err;
  c->max_stack = (uint16_t)rd_u2(r);
  c->max_locals = (uint16_t)rd_u2(r);
  off = rd_off(r);
  c->code_len = rd_u4(r);
  if (c->code_len == 0 || c->code_len > 65535)
    return cr_diag_set(ps->d, CR_EFORMAT, off,
                       "code_length %u not in 1..65535", c->code_len);
  if (!rd_need(r, c->code_len)) return r->err;
  c->code = r->p;
  r->p += c->code_len;
  uint32_t n = rd_u2(r);
  if (r->err || !count_fits(r, n, 8)) return r->err;
  c->nexc = n;
  ALLOC(c->exc, n);
  for (uint32_t i = 0; i < n; i++) {
    c->exc[i].start = (uint16_t)rd_u2(r);
    c->exc[i].end = (uint16_t)rd_u2(r);
    c->exc[i].handler = (uint16_t)rd_u2(r);
    REF(c->exc[i].catch_type, CR_CP_CLASS, 1, "exception handler type");
  }
  return cr_cf__attrs(ps, r, &c->attrs, CX_CODE);
}

static int localvars(cr_ps *ps, cr_rd *r, cr_localvars *lv) {
  uint32_t n = rd_u2(r);
  if (r->err || !count_fits(r, n, 10)) return r->err;
  lv->n = n;
  ALLOC(lv->v, n);
  for (uint32_t i = 0; i < n; i++) {
    cr_localvar *v = &lv->v[i];
    v->start = (uint16_t)rd_u2(r);
    v->len = (uint16_t)rd_u2(r);
    REF(v->name, CR_CP_UTF8, 0, "local variable name");
    REF(v->desc, CR_CP_UTF8, 0, "local variable descriptor");
    v->index = (uint16_t)rd_u2(r);
  }
  return 0;
}

/* Parse the info of a known attribute 'at' of kind 'k' from 'r'. */
static int parse_known(cr_ps *ps, cr_rd *r, cr_attr *at, int k) {
  uint32_t n;
  long off = rd_off(r);
  switch (k) {
  case CR_ATTR_CODE:
    ALLOC(at->u.code, 1);
    return code(ps, r, at->u.code);
  case CR_ATTR_STACKMAPTABLE:
    ALLOC(at->u.smt, 1);
    return stackmap(ps, r, at->u.smt);
  case CR_ATTR_LINENUMBERTABLE: {
    cr_linenums *ln;
    ALLOC(ln, 1);
    at->u.lines = ln;
    n = rd_u2(r);
    if (r->err || !count_fits(r, n, 4)) return r->err;
    ln->n = n;
    ALLOC(ln->v, n);
    for (uint32_t i = 0; i < n; i++) {
      ln->v[i].pc = (uint16_t)rd_u2(r);
      ln->v[i].line = (uint16_t)rd_u2(r);
    }
    return 0;
  }
  case CR_ATTR_LOCALVARIABLETABLE: case CR_ATTR_LOCALVARIABLETYPETABLE:
    ALLOC(at->u.vars, 1);
    return localvars(ps, r, at->u.vars);
  case CR_ATTR_EXCEPTIONS:
    return reflist(ps, r, &at->u.list, CR_CP_CLASS, "Exceptions");
  case CR_ATTR_NESTMEMBERS:
    return reflist(ps, r, &at->u.list, CR_CP_CLASS, "NestMembers");
  case CR_ATTR_PERMITTEDSUBCLASSES:
    return reflist(ps, r, &at->u.list, CR_CP_CLASS, "PermittedSubclasses");
  case CR_ATTR_MODULEPACKAGES:
    return reflist(ps, r, &at->u.list, CR_CP_PACKAGE, "ModulePackages");
  case CR_ATTR_SIGNATURE:
    REF(at->u.index, CR_CP_UTF8, 0, "Signature");
    return 0;
  case CR_ATTR_SOURCEFILE:
    REF(at->u.index, CR_CP_UTF8, 0, "SourceFile");
    return 0;
  case CR_ATTR_NESTHOST:
    REF(at->u.index, CR_CP_CLASS, 0, "NestHost");
    return 0;
  case CR_ATTR_MODULEMAINCLASS:
    REF(at->u.index, CR_CP_CLASS, 0, "ModuleMainClass");
    return 0;
  case CR_ATTR_CONSTANTVALUE: {
    at->u.index = (uint16_t)rd_u2(r);
    if (r->err) return r->err;
    int t = cr_cp_tag(ps->cp, at->u.index);
    if (t != CR_CP_INTEGER && t != CR_CP_FLOAT && t != CR_CP_LONG &&
        t != CR_CP_DOUBLE && t != CR_CP_STRING)
      return cr_diag_set(ps->d, CR_EFORMAT, off,
                         "ConstantValue: constant pool index %u is %s, "
                         "not a constant", at->u.index,
                         at->u.index < ps->cp->count ? cr_cf__tagname(t)
                                                     : "out of range");
    return 0;
  }
  case CR_ATTR_BOOTSTRAPMETHODS: {
    cr_bsms *b;
    ALLOC(b, 1);
    at->u.bsms = b;
    n = rd_u2(r);
    if (r->err || !count_fits(r, n, 4)) return r->err;
    b->n = n;
    ALLOC(b->v, n);
    for (uint32_t i = 0; i < n; i++) {
      REF(b->v[i].mh, CR_CP_METHODHANDLE, 0, "bootstrap method");
      uint32_t na = rd_u2(r);
      if (r->err || !count_fits(r, na, 2)) return r->err;
      b->v[i].args.n = na;
      ALLOC(b->v[i].args.v, na);
      for (uint32_t j = 0; j < na; j++) {
        long o = rd_off(r);
        uint32_t x = rd_u2(r);
        if (r->err) return r->err;
        if (!loadable(cr_cp_tag(ps->cp, x)))
          return cr_diag_set(ps->d, CR_EFORMAT, o,
                             "bootstrap argument: constant pool index %u "
                             "is not a loadable constant", x);
        b->v[i].args.v[j] = (uint16_t)x;
      }
    }
    ps->nbsm = (int)n;
    return 0;
  }
  case CR_ATTR_INNERCLASSES: {
    cr_innerclasses *ic;
    ALLOC(ic, 1);
    at->u.inner = ic;
    n = rd_u2(r);
    if (r->err || !count_fits(r, n, 8)) return r->err;
    ic->n = n;
    ALLOC(ic->v, n);
    for (uint32_t i = 0; i < n; i++) {
      REF(ic->v[i].inner, CR_CP_CLASS, 0, "inner class");
      REF(ic->v[i].outer, CR_CP_CLASS, 1, "outer class");
      REF(ic->v[i].name, CR_CP_UTF8, 1, "inner class name");
      ic->v[i].flags = (uint16_t)rd_u2(r);
    }
    return 0;
  }
  case CR_ATTR_ENCLOSINGMETHOD:
    REF(at->u.enclosing.cls, CR_CP_CLASS, 0, "EnclosingMethod class");
    REF(at->u.enclosing.method, CR_CP_NAMEANDTYPE, 1,
        "EnclosingMethod method");
    return 0;
  case CR_ATTR_RECORD: {
    cr_record *rc;
    ALLOC(rc, 1);
    at->u.record = rc;
    n = rd_u2(r);
    if (r->err || !count_fits(r, n, 6)) return r->err;
    rc->n = n;
    ALLOC(rc->v, n);
    for (uint32_t i = 0; i < n; i++) {
      REF(rc->v[i].name, CR_CP_UTF8, 0, "record component name");
      REF(rc->v[i].desc, CR_CP_UTF8, 0, "record component descriptor");
      CHECK(cr_cf__attrs(ps, r, &rc->v[i].attrs, CX_COMP));
    }
    return 0;
  }
  case CR_ATTR_MODULE:
    ALLOC(at->u.module, 1);
    return module(ps, r, at->u.module);
  case CR_ATTR_METHODPARAMETERS: {
    cr_methodparams *mp;
    ALLOC(mp, 1);
    at->u.params = mp;
    n = rd_u1(r);
    if (r->err || !count_fits(r, n, 4)) return r->err;
    mp->n = n;
    ALLOC(mp->v, n);
    for (uint32_t i = 0; i < n; i++) {
      REF(mp->v[i].name, CR_CP_UTF8, 1, "parameter name");
      mp->v[i].flags = (uint16_t)rd_u2(r);
    }
    return 0;
  }
  case CR_ATTR_ANNOTATIONDEFAULT:
    ALLOC(at->u.defval, 1);
    return elemval(ps, r, at->u.defval, 0);
  case CR_ATTR_RVANNOTATIONS: case CR_ATTR_RIANNOTATIONS:
    ALLOC(at->u.annots, 1);
    return annots(ps, r, at->u.annots);
  case CR_ATTR_RVPARAMANNOTATIONS: case CR_ATTR_RIPARAMANNOTATIONS: {
    cr_paramannots *pa;
    ALLOC(pa, 1);
    at->u.pannots = pa;
    n = rd_u1(r);
    if (r->err || !count_fits(r, n, 2)) return r->err;
    pa->n = n;
    ALLOC(pa->v, n);
    for (uint32_t i = 0; i < n; i++) CHECK(annots(ps, r, &pa->v[i]));
    return 0;
  }
  case CR_ATTR_RVTYPEANNOTATIONS: case CR_ATTR_RITYPEANNOTATIONS: {
    cr_typeannots *ta;
    ALLOC(ta, 1);
    at->u.tannots = ta;
    n = rd_u2(r);
    if (r->err || !count_fits(r, n, 6)) return r->err;
    ta->n = n;
    ALLOC(ta->v, n);
    for (uint32_t i = 0; i < n; i++) CHECK(typeannot(ps, r, &ta->v[i]));
    return 0;
  }
  case CR_ATTR_SYNTHETIC: case CR_ATTR_DEPRECATED:
    return 0;
  default:
    return 0;
  }
}

/*
** Read an attribute table in context 'ctx'. Each known attribute is parsed
** from a sub-cursor bounded by its declared length and must consume it
** exactly; attributes unknown or outside their context stay verbatim.
*/
int cr_cf__attrs(cr_ps *ps, cr_rd *r, cr_attrs *out, int ctx) {
  r->what = "attribute count";
  uint32_t n = rd_u2(r);
  if (r->err || !count_fits(r, n, 6)) return r->err;
  out->n = n;
  out->v = NULL;
  if (n == 0) return 0;
  cr_attr *v;
  ALLOC(v, n);
  out->v = v;
  uint32_t seen = 0;
  for (uint32_t i = 0; i < n; i++) {
    cr_attr *at = &v[i];
    long off = rd_off(r);
    r->what = "attribute header";
    if (!rd_need(r, 6)) return r->err;
    at->name = (uint16_t)rd_u2(r);
    at->len = rd_u4(r);
    CHECK(cr_cf__ref(ps, off, at->name, CR_CP_UTF8, 0, "attribute name"));
    int k = lookup(ps, at->name);
    if (!(known[k].ctx & ctx)) k = CR_ATTR_OTHER;
    at->kind = (uint8_t)k;
    if (at->len > (size_t)(r->end - r->p)) {
      const cr_cpentry *e = &ps->cp->e[at->name];
      return cr_diag_set(ps->d, CR_EFORMAT, off,
                         "attribute '%.*s' length %u exceeds the %zu bytes "
                         "left", (int)e->len, e->v.utf8, at->len,
                         (size_t)(r->end - r->p));
    }
    at->raw = r->p;
    if (k != CR_ATTR_OTHER) {
      if ((k == CR_ATTR_CODE || k == CR_ATTR_STACKMAPTABLE ||
           k == CR_ATTR_BOOTSTRAPMETHODS) && (seen & (1u << k)))
        return cr_diag_set(ps->d, CR_EFORMAT, off,
                           "duplicate %s attribute", known[k].name);
      seen |= 1u << k;
      CHECK(cr_cf__attr_info(ps, at, k, off));
    }
    r->p += at->len;
  }
  return 0;
}

int cr_cf__attr_info(cr_ps *ps, cr_attr *at, int k, long off) {
  cr_rd s = {ps->base, at->raw, at->raw + at->len, known[k].name, ps->d, 0};
  int rc = parse_known(ps, &s, at, k);
  if (rc) return rc;
  if (s.err) return s.err;
  if (s.p != s.end)
    return cr_diag_set(ps->d, CR_EFORMAT, off,
                       "%s attribute length %u but its contents end "
                       "after %zu bytes", known[k].name, at->len,
                       (size_t)(s.p - at->raw));
  return 0;
}
