/*
** parse.c -- class-file reader: header, constant pool, members (JVMS 4.1,
** 4.4-4.6). Two passes: structure first, then pool cross-references.
*/
#include <stdio.h>

#include "cf_int.h"

#define MAX_MAJOR 69

void cr_cf__short(cr_rd *r, size_t n) {
  if (!r->err)
    cr_diag_set(r->d, CR_EFORMAT, rd_off(r),
                "truncated %s: need %zu bytes, %zu left", r->what, n,
                (size_t)(r->end - r->p));
  r->err = CR_EFORMAT;
  r->p = r->end;
}

void *cr_cf__alloc(cr_arena *a, size_t n, size_t size) {
  return cr_arena_alloc(a, (n ? n : 1) * size);  /* n, size < 2^32 */
}

int cr_cf__oom(cr_ps *ps, const cr_rd *r) {
  return cr_diag_set(ps->d, CR_ENOMEM, r ? rd_off(r) : -1,
                     "out of memory building the class model");
}

/* ORDER CR_CP_* */
const char *cr_cf__tagname(int tag) {
  static const char *const names[] = {
    "unusable", "Utf8", "tag 2", "Integer", "Float", "Long", "Double",
    "Class", "String", "Fieldref", "Methodref", "InterfaceMethodref",
    "NameAndType", "tag 13", "tag 14", "MethodHandle", "MethodType",
    "Dynamic", "InvokeDynamic", "Module", "Package"
  };
  return tag >= 0 && tag <= 20 ? names[tag] : "unknown tag";
}

int cr_cf__ref(cr_ps *ps, long off, uint32_t i, int tag, int opt,
               const char *what) {
  const cr_cpool *cp = ps->cp;
  if (i == 0 && opt) return 0;
  if (i == 0 || i >= cp->count)
    return cr_diag_set(ps->d, CR_EFORMAT, off,
                       "%s: constant pool index %u out of range (count %u)",
                       what, i, cp->count);
  int t = cp->e[i].tag;
  if (t != tag)
    return cr_diag_set(ps->d, CR_EFORMAT, off,
                       "%s: constant pool index %u is %s, expected %s", what,
                       i, cr_cf__tagname(t), cr_cf__tagname(tag));
  return 0;
}

/* Minimum class version for each pool tag; 0 for an illegal tag. */
static int tag_since(int tag) {
  switch (tag) {
  case CR_CP_UTF8: case CR_CP_INTEGER: case CR_CP_FLOAT: case CR_CP_LONG:
  case CR_CP_DOUBLE: case CR_CP_CLASS: case CR_CP_STRING:
  case CR_CP_FIELDREF: case CR_CP_METHODREF: case CR_CP_IMETHODREF:
  case CR_CP_NAMEANDTYPE: return 45;
  case CR_CP_METHODHANDLE: case CR_CP_METHODTYPE:
  case CR_CP_INVOKEDYNAMIC: return 51;
  case CR_CP_MODULE: case CR_CP_PACKAGE: return 53;
  case CR_CP_DYNAMIC: return 55;
  default: return 0;
  }
}

/* Pass 1 over the pool: structure, lengths, modified UTF-8. */
static int read_pool(cr_ps *ps, cr_rd *r) {
  cr_cpool *cp;
  r->what = "constant pool";
  long cntoff = rd_off(r);
  uint32_t count = rd_u2(r);
  if (r->err) return r->err;
  if (count == 0)
    return cr_diag_set(ps->d, CR_EFORMAT, cntoff,
                       "constant_pool_count is 0");
  if (cr_cp__new(&cp, ps->a, count)) return cr_cf__oom(ps, r);
  ps->cp = cp;
  ps->c->cp = cp;
  cp->orig = r->p;
  uint32_t major = ps->c->major;
  for (uint32_t i = 1; i < count; i++) {
    cr_cpentry *e = &cp->e[i];
    long off = rd_off(r);
    const uint8_t *p = r->p;
    if (!rd_need(r, 3)) return r->err;
    int tag = p[0];
    e->off = (uint32_t)off;
    int since = tag_since(tag);
    if (!since)
      return cr_diag_set(ps->d, CR_EFORMAT, off,
                         "constant pool entry %u has invalid tag %d", i, tag);
    if ((int)major < since)
      return cr_diag_set(ps->d, CR_EFORMAT, off,
                         "constant pool entry %u: %s needs class version "
                         "%d, have %u", i, cr_cf__tagname(tag), since, major);
    e->tag = (uint8_t)tag;
    switch (tag) {
    case CR_CP_UTF8: {
      uint32_t n = cr_be16(p + 1);
      r->p += 3;
      if (!rd_need(r, n)) return r->err;
      long bad = cr_mutf8_check((const char *)r->p, n);
      if (bad >= 0)
        return cr_diag_set(ps->d, CR_EFORMAT, off + 3 + bad,
                           "constant pool entry %u: invalid modified UTF-8 "
                           "byte 0x%02x", i, r->p[bad]);
      e->len = n;
      e->v.utf8 = (const char *)r->p;
      r->p += n;
      break;
    }
    case CR_CP_INTEGER: case CR_CP_FLOAT:
      if (!rd_need(r, 5)) return r->err;
      e->v.u4 = cr_be32(p + 1);
      r->p += 5;
      break;
    case CR_CP_LONG: case CR_CP_DOUBLE:
      if (!rd_need(r, 9)) return r->err;
      if (i + 1 >= count)
        return cr_diag_set(ps->d, CR_EFORMAT, off,
                           "constant pool entry %u: %s in the last slot "
                           "(count %u)", i, cr_cf__tagname(tag), count);
      e->v.u8 = (uint64_t)cr_be32(p + 1) << 32 | cr_be32(p + 5);
      r->p += 9;
      i++;                        /* cp->e[i] stays tag 0: unusable */
      break;
    case CR_CP_CLASS: case CR_CP_STRING: case CR_CP_METHODTYPE:
    case CR_CP_MODULE: case CR_CP_PACKAGE:
      e->a = (uint16_t)cr_be16(p + 1);
      r->p += 3;
      break;
    case CR_CP_METHODHANDLE:
      if (!rd_need(r, 4)) return r->err;
      e->kind = p[1];
      e->a = (uint16_t)cr_be16(p + 2);
      r->p += 4;
      break;
    default:                      /* four-byte operand pairs */
      if (!rd_need(r, 5)) return r->err;
      e->a = (uint16_t)cr_be16(p + 1);
      e->b = (uint16_t)cr_be16(p + 3);
      r->p += 5;
      break;
    }
  }
  cp->orig_len = (size_t)(r->p - cp->orig);
  return 0;
}

/* Is Utf8 entry 'i' exactly 'lit'? */
static int utf8_is(const cr_cpool *cp, uint32_t i, const char *lit,
                   size_t n) {
  const cr_cpentry *e = &cp->e[i];
  return e->len == n && memcmp(e->v.utf8, lit, n) == 0;
}

/* Operand 'x' of pool entry 'i' must be a 'tag' entry. The message is
** only built on failure: this runs for every entry of every class. */
static int pref(cr_ps *ps, uint32_t i, uint32_t x, int tag) {
  const cr_cpool *cp = ps->cp;
  char what[64];
  if (x != 0 && x < cp->count && cp->e[x].tag == tag) return 0;
  snprintf(what, sizeof what, "constant pool entry %u (%s)", i,
           cr_cf__tagname(cp->e[i].tag));
  return cr_cf__ref(ps, cp->e[i].off, x, tag, 0, what);
}

/* Pass 2 over the pool: every operand in range and of the right kind. */
static int check_pool(cr_ps *ps) {
  cr_cpool *cp = ps->cp;
  for (uint32_t i = 1; i < cp->count; i++) {
    const cr_cpentry *e = &cp->e[i];
    long off = e->off;
    int rc = 0;
    switch (e->tag) {
    case CR_CP_CLASS: case CR_CP_STRING: case CR_CP_METHODTYPE:
    case CR_CP_MODULE: case CR_CP_PACKAGE:
      rc = pref(ps, i, e->a, CR_CP_UTF8);
      break;
    case CR_CP_FIELDREF: case CR_CP_METHODREF: case CR_CP_IMETHODREF:
      if ((rc = pref(ps, i, e->a, CR_CP_CLASS))) break;
      rc = pref(ps, i, e->b, CR_CP_NAMEANDTYPE);
      break;
    case CR_CP_NAMEANDTYPE:
      if ((rc = pref(ps, i, e->a, CR_CP_UTF8))) break;
      rc = pref(ps, i, e->b, CR_CP_UTF8);
      break;
    case CR_CP_DYNAMIC: case CR_CP_INVOKEDYNAMIC:
      rc = pref(ps, i, e->b, CR_CP_NAMEANDTYPE);
      break;
    case CR_CP_METHODHANDLE: {
      int k = e->kind, want;
      if (k < CR_REF_GETFIELD || k > CR_REF_INVOKEINTERFACE)
        return cr_diag_set(ps->d, CR_EFORMAT, off,
                           "constant pool entry %u (MethodHandle): invalid "
                           "reference_kind %d", i, k);
      want = k <= CR_REF_PUTSTATIC ? CR_CP_FIELDREF
           : k == CR_REF_INVOKEINTERFACE ? CR_CP_IMETHODREF
           : CR_CP_METHODREF;
      if ((k == CR_REF_INVOKESTATIC || k == CR_REF_INVOKESPECIAL) &&
          ps->c->major >= 52 && e->a < cp->count &&
          cp->e[e->a].tag == CR_CP_IMETHODREF)
        want = CR_CP_IMETHODREF;
      rc = pref(ps, i, e->a, want);
      break;
    }
    default:
      break;
    }
    if (rc) return rc;
  }
  /* All refs are now known good: method handles' target names. */
  for (uint32_t i = 1; i < cp->count; i++) {
    const cr_cpentry *e = &cp->e[i];
    if (e->tag != CR_CP_METHODHANDLE || e->kind < CR_REF_INVOKEVIRTUAL)
      continue;
    const cr_cpentry *nat = &cp->e[cp->e[e->a].b];
    int k = e->kind, init = utf8_is(cp, nat->a, "<init>", 6);
    if (k == CR_REF_NEWINVOKESPECIAL ? !init
        : init || utf8_is(cp, nat->a, "<clinit>", 8))
      return cr_diag_set(ps->d, CR_EFORMAT, e->off,
                         "constant pool entry %u (MethodHandle): "
                         "reference_kind %d may not refer to method '%.*s'",
                         i, k, (int)cp->e[nat->a].len, cp->e[nat->a].v.utf8);
  }
  return 0;
}

/* The indices of Dynamic/InvokeDynamic must name bootstrap methods. */
static int check_bsm_refs(cr_ps *ps) {
  const cr_cpool *cp = ps->cp;
  for (uint32_t i = 1; i < cp->count; i++) {
    const cr_cpentry *e = &cp->e[i];
    if (e->tag != CR_CP_DYNAMIC && e->tag != CR_CP_INVOKEDYNAMIC) continue;
    if (ps->nbsm < 0)
      return cr_diag_set(ps->d, CR_EFORMAT, e->off,
                         "constant pool entry %u (%s) but no "
                         "BootstrapMethods attribute", i,
                         cr_cf__tagname(e->tag));
    if (e->a >= ps->nbsm)
      return cr_diag_set(ps->d, CR_EFORMAT, e->off,
                         "constant pool entry %u (%s): bootstrap method %u "
                         "out of range (count %d)", i,
                         cr_cf__tagname(e->tag), e->a, ps->nbsm);
  }
  return 0;
}

static int read_members(cr_ps *ps, cr_rd *r, uint32_t *nout,
                        cr_member **out, int ctx) {
  const char *kind = ctx == CX_FIELD ? "field" : "method";
  r->what = ctx == CX_FIELD ? "fields" : "methods";
  uint32_t n = rd_u2(r);
  if (r->err) return r->err;
  cr_member *v = cr_cf__alloc(ps->a, n, sizeof *v);
  if (!v) return cr_cf__oom(ps, r);
  for (uint32_t i = 0; i < n; i++) {
    cr_member *m = &v[i];
    long off = rd_off(r);
    r->what = kind;
    if (!rd_need(r, 6)) return r->err;
    m->flags = (uint16_t)rd_u2(r);
    m->name = (uint16_t)rd_u2(r);
    m->desc = (uint16_t)rd_u2(r);
    int rc;
    if ((rc = cr_cf__ref(ps, off + 2, m->name, CR_CP_UTF8, 0,
                         ctx == CX_FIELD ? "field name" : "method name")) ||
        (rc = cr_cf__ref(ps, off + 4, m->desc, CR_CP_UTF8, 0,
                         ctx == CX_FIELD ? "field descriptor"
                                         : "method descriptor")) ||
        (rc = cr_cf__attrs(ps, r, &m->attrs, ctx)))
      return rc;
  }
  *nout = n;
  *out = v;
  return 0;
}

/*
** The header: version, pool (checked whole), flags, this_class,
** super_class and interfaces. 'cr_cf_parse' goes on from there;
** 'cr_cf_parse_header' stops.
*/
static int parse(cr_class **out, cr_arena *a, const uint8_t *bytes,
                 size_t len, int whole, cr_diag *d) {
  cr_ps ps;
  cr_rd r;
  int rc;
  *out = NULL;
  memset(&ps, 0, sizeof ps);
  ps.a = a;
  ps.d = d;
  ps.base = bytes;
  ps.nbsm = -1;
  r.base = r.p = bytes;
  r.end = bytes + len;
  r.d = d;
  r.err = 0;
  r.what = "class header";
  if (len > UINT32_MAX)
    return cr_diag_set(d, CR_EFORMAT, -1, "class file of %zu bytes", len);
  cr_class *c = cr_arena_calloc(a, 1, sizeof *c);
  if (!c) return cr_cf__oom(&ps, NULL);
  ps.c = c;
  c->arena = a;
  c->bytes = bytes;
  c->len = len;

  if (!rd_need(&r, 8)) return r.err;
  uint32_t magic = rd_u4(&r);
  if (magic != 0xCAFEBABEu)
    return cr_diag_set(d, CR_EFORMAT, 0, "bad magic 0x%08x", magic);
  c->minor = (uint16_t)rd_u2(&r);
  c->major = (uint16_t)rd_u2(&r);
  if (c->major > MAX_MAJOR)
    return cr_diag_set(d, CR_EUNSUPPORTED, 6,
                       "class version %u.%u is newer than %d.0", c->major,
                       c->minor, MAX_MAJOR);
  if (c->major < 45)
    return cr_diag_set(d, CR_EFORMAT, 6, "class version %u.%u is below 45",
                       c->major, c->minor);
  if (c->major >= 56 && c->minor != 0 && c->minor != 0xFFFF)
    return cr_diag_set(d, CR_EFORMAT, 4,
                       "class version %u.%u: minor must be 0 or 65535",
                       c->major, c->minor);

  if ((rc = read_pool(&ps, &r)) || (rc = check_pool(&ps))) return rc;
  r.what = "class header";
  long off = rd_off(&r);
  if (!rd_need(&r, 8)) return r.err;
  c->flags = (uint16_t)rd_u2(&r);
  c->this_class = (uint16_t)rd_u2(&r);
  c->super_class = (uint16_t)rd_u2(&r);
  if ((rc = cr_cf__ref(&ps, off + 2, c->this_class, CR_CP_CLASS, 0,
                       "this_class")) ||
      (rc = cr_cf__ref(&ps, off + 4, c->super_class, CR_CP_CLASS, 1,
                       "super_class")))
    return rc;
  uint32_t ni = rd_u2(&r);
  r.what = "interfaces";
  if (!rd_need(&r, (size_t)ni * 2)) return r.err;
  c->interfaces.n = ni;
  c->interfaces.v = cr_cf__alloc(a, ni, sizeof(uint16_t));
  if (!c->interfaces.v) return cr_cf__oom(&ps, &r);
  for (uint32_t i = 0; i < ni; i++) {
    off = rd_off(&r);
    c->interfaces.v[i] = (uint16_t)rd_u2(&r);
    if ((rc = cr_cf__ref(&ps, off, c->interfaces.v[i], CR_CP_CLASS, 0,
                         "interface")))
      return rc;
  }
  if (!whole) {
    c->header_only = 1;
    *out = c;
    return 0;
  }
  ps.akind = cr_arena_alloc(a, ps.cp->count);
  if (!ps.akind) return cr_cf__oom(&ps, &r);
  memset(ps.akind, 0xFF, ps.cp->count);
  if ((rc = read_members(&ps, &r, &c->nfields, &c->fields, CX_FIELD)) ||
      (rc = read_members(&ps, &r, &c->nmethods, &c->methods, CX_METHOD)) ||
      (rc = cr_cf__attrs(&ps, &r, &c->attrs, CX_CLASS)))
    return rc;
  if (r.p != r.end)
    return cr_diag_set(d, CR_EFORMAT, rd_off(&r),
                       "%zu trailing bytes after the class",
                       (size_t)(r.end - r.p));
  if ((rc = check_bsm_refs(&ps))) return rc;
  *out = c;
  return 0;
}

int cr_cf_parse(cr_class **out, cr_arena *a, const uint8_t *bytes,
                size_t len, cr_diag *d) {
  return parse(out, a, bytes, len, 1, d);
}

int cr_cf_parse_header(cr_class **out, cr_arena *a, const uint8_t *bytes,
                       size_t len, cr_diag *d) {
  return parse(out, a, bytes, len, 0, d);
}

int cr_cf_reparse_attr(const cr_class *c, cr_arena *a, const cr_attr *at,
                       cr_attr *out, cr_diag *d) {
  if (!at->raw || at->kind == CR_ATTR_OTHER || c->header_only ||
      at->raw < c->bytes || at->len > c->len ||
      (size_t)(at->raw - c->bytes) > c->len - at->len)
    return cr_diag_set(d, CR_EUSAGE, -1, "no original bytes to parse again");
  cr_ps ps;
  memset(&ps, 0, sizeof ps);
  ps.a = a;
  ps.d = d;
  ps.c = (cr_class *)c;         /* read only: the version, the pool */
  ps.cp = c->cp;
  ps.base = c->bytes;
  ps.nbsm = -1;
  ps.akind = cr_arena_alloc(a, c->cp->count);
  if (!ps.akind) return cr_cf__oom(&ps, NULL);
  memset(ps.akind, 0xFF, c->cp->count);
  *out = *at;
  return cr_cf__attr_info(&ps, out, at->kind, (long)(at->raw - c->bytes) - 6);
}

const char *cr_cf_this_name(const cr_class *c) {
  return cr_cp_class_name(c->cp, c->this_class);
}

const char *cr_member_name(const cr_class *c, const cr_member *m) {
  return cr_cp_str(c->cp, m->name);
}

const char *cr_member_desc(const cr_class *c, const cr_member *m) {
  return cr_cp_str(c->cp, m->desc);
}

cr_code *cr_member_code(const cr_member *m) {
  cr_attr *at = cr_attrs_find(&m->attrs, CR_ATTR_CODE);
  return at ? at->u.code : NULL;
}
