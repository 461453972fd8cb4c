/*
** suid.c -- the default serialVersionUID of a class, computed from its
** class file exactly as java.io.ObjectStreamClass.computeDefaultSUID does
** from the loaded class (Java Object Serialization Specification 4.6), and
** the field that pins it in a serializable class before the rewriter adds
** members that would change it.
*/
#include <stdlib.h>
#include <string.h>

#include "xf_int.h"

enum {
  PUBLIC = 0x1, PRIVATE = 0x2, PROTECTED = 0x4, STATIC = 0x8, FINAL = 0x10,
  SYNCHRONIZED = 0x20, VOLATILE = 0x40, TRANSIENT = 0x80, NATIVE = 0x100,
  INTERFACE = 0x200, ABSTRACT = 0x400, STRICT = 0x800
};

/* One field, constructor or method: name, descriptor, masked flags. */
typedef struct sig {
  const char *name, *desc;
  int mods;
} sig;

static int by_desc(const void *a, const void *b) {
  return strcmp(((const sig *)a)->desc, ((const sig *)b)->desc);
}

static int by_name_desc(const void *a, const void *b) {
  int c = strcmp(((const sig *)a)->name, ((const sig *)b)->name);
  return c ? c : by_desc(a, b);
}

/* DataOutput.writeUTF of a modified-UTF-8 string (class-file strings
** already are), with 'from' characters replaced by 'to'. */
static void utf(cr_buf *b, const char *s, char from, char to) {
  size_t n = strlen(s), at = b->len;
  cr_buf_u2(b, (uint32_t)n);
  cr_buf_put(b, s, n);
  if (from && !b->err)
    for (size_t i = at + 2; i < b->len; i++)
      if (b->data[i] == (uint8_t)from) b->data[i] = (uint8_t)to;
}

/* Class.getModifiers: a member class's flags come from its InnerClasses
** entry, not from access_flags. */
static int class_mods(const cr_class *c, const char *name) {
  const cr_attr *at = cr_attrs_find(&c->attrs, CR_ATTR_INNERCLASSES);
  if (at && at->u.inner)
    for (uint32_t i = 0; i < at->u.inner->n; i++) {
      const cr_innerclass *e = &at->u.inner->v[i];
      const char *in = e->inner ? cr_cp_class_name(c->cp, e->inner) : NULL;
      if (in && strcmp(in, name) == 0) return e->flags;
    }
  return c->flags;
}

/* A '<clinit>' HotSpot keeps: one that is not just 'return'. */
static int has_clinit(const cr_class *c) {
  for (uint32_t i = 0; i < c->nmethods; i++) {
    const char *n = cr_member_name(c, &c->methods[i]);
    const cr_code *k = cr_member_code(&c->methods[i]);
    if (n && strcmp(n, "<clinit>") == 0 && k &&
        !(k->code_len == 1 && k->code[0] == 0xb1))
      return 1;
  }
  return 0;
}

int cr_xf_default_suid(const cr_class *c, int64_t *out, cr_diag *d) {
  const char *name = cr_cf_this_name(c);
  /* one array, in turn for the interfaces, the fields and the methods */
  uint32_t n = c->nfields > c->nmethods ? c->nfields : c->nmethods;
  if (c->interfaces.n > n) n = c->interfaces.n;
  sig *v = cr_calloc(n + 1, sizeof *v);
  cr_buf b;
  cr_buf_init(&b);
  if (!name || !v) goto oom;

  /* class name and modifiers; an interface is abstract iff it has
  ** methods (Class.getDeclaredMethods: neither <init> nor <clinit>) */
  utf(&b, name, '/', '.');
  int cmods = class_mods(c, name) & (PUBLIC | FINAL | INTERFACE | ABSTRACT);
  if (cmods & INTERFACE) {
    uint32_t nm = 0;
    for (uint32_t i = 0; i < c->nmethods; i++) {
      const char *mn = cr_member_name(c, &c->methods[i]);
      if (mn && mn[0] != '<') nm++;
    }
    cmods = nm ? cmods | ABSTRACT : cmods & ~ABSTRACT;
  }
  cr_buf_u4(&b, (uint32_t)cmods);

  /* interface names, sorted */
  uint32_t k = 0;
  for (uint32_t i = 0; i < c->interfaces.n; i++) {
    const char *in = cr_cp_class_name(c->cp, c->interfaces.v[i]);
    if (!in) goto oom;
    v[k++] = (sig){in, in, 0};
  }
  qsort(v, k, sizeof *v, by_desc);
  for (uint32_t i = 0; i < k; i++) utf(&b, v[i].name, '/', '.');

  /* fields by name, except private static and private transient */
  k = 0;
  for (uint32_t i = 0; i < c->nfields; i++) {
    const cr_member *f = &c->fields[i];
    int m = f->flags & (PUBLIC | PRIVATE | PROTECTED | STATIC | FINAL |
                        VOLATILE | TRANSIENT);
    if ((m & PRIVATE) && (m & (STATIC | TRANSIENT))) continue;
    const char *fn = cr_member_name(c, f), *fd = cr_member_desc(c, f);
    if (!fn || !fd) goto oom;
    v[k++] = (sig){fn, fd, m};
  }
  qsort(v, k, sizeof *v, by_name_desc);
  for (uint32_t i = 0; i < k; i++) {
    utf(&b, v[i].name, 0, 0);
    cr_buf_u4(&b, (uint32_t)v[i].mods);
    utf(&b, v[i].desc, 0, 0);
  }

  if (has_clinit(c)) {
    utf(&b, "<clinit>", 0, 0);
    cr_buf_u4(&b, STATIC);
    utf(&b, "()V", 0, 0);
  }

  /* non-private constructors by descriptor, then non-private methods by
  ** name and descriptor; descriptors with '.' for '/' */
  const int mmask = PUBLIC | PRIVATE | PROTECTED | STATIC | FINAL |
                    SYNCHRONIZED | NATIVE | ABSTRACT | STRICT;
  for (int pass = 0; pass < 2; pass++) {
    k = 0;
    for (uint32_t i = 0; i < c->nmethods; i++) {
      const cr_member *m = &c->methods[i];
      const char *mn = cr_member_name(c, m), *md = cr_member_desc(c, m);
      if (!mn || !md) goto oom;
      int init = strcmp(mn, "<init>") == 0;
      if (init != (pass == 0) || strcmp(mn, "<clinit>") == 0) continue;
      if (m->flags & PRIVATE) continue;
      v[k++] = (sig){mn, md, m->flags & mmask};
    }
    qsort(v, k, sizeof *v, pass == 0 ? by_desc : by_name_desc);
    for (uint32_t i = 0; i < k; i++) {
      utf(&b, v[i].name, 0, 0);
      cr_buf_u4(&b, (uint32_t)v[i].mods);
      utf(&b, v[i].desc, '/', '.');
    }
  }
  if (b.err) goto oom;

  uint8_t h[20];
  cr_sha1(b.data, b.len, h);
  uint64_t suid = 0;
  for (int i = 7; i >= 0; i--) suid = suid << 8 | h[i];
  *out = (int64_t)suid;
  cr_buf_free(&b);
  cr_free(v);
  return 0;
oom:
  cr_buf_free(&b);
  cr_free(v);
  return cr_diag_set(d, CR_ENOMEM, -1, "out of memory");
}

/*
** The default serialVersionUID depends on the non-private methods and on
** '<clinit>', which instrumentation adds: a serializable class (by the
** hierarchy) that does not declare one gets its original default as
** "private static final long serialVersionUID", so that its instances
** keep (de)serializing with uninstrumented JVMs. Enums and records are
** left alone (their ids are not checked); so are interfaces.
*/
int cr_xf__pin_suid(xf *x) {
  cr_class *c = x->c;
  if (c->flags & (ACC_INTERFACE | ACC_ENUM)) return 0;
  const char *sup = cr_xf__own_super(x);
  if (sup && strcmp(sup, "java/lang/Record") == 0) return 0;
  /* serializable: by its own interfaces, theirs, or its superclass's */
  int ser = 0;
  for (uint32_t k = 0; k <= c->interfaces.n && !ser; k++) {
    const char *in = k < c->interfaces.n
                         ? cr_cp_class_name(c->cp, c->interfaces.v[k])
                         : sup;
    if (!in) continue;
    ser = strcmp(in, "java/io/Serializable") == 0;
    const cr_hclass *hc = cr_hier_class(x->o->h, in);
    for (uint32_t j = 0; hc && j < cr_hclass_all_iface_count(hc) && !ser;
         j++)
      ser = strcmp(cr_hclass_name(cr_hclass_all_iface_at(hc, j)),
                   "java/io/Serializable") == 0;
  }
  if (!ser) return 0;
  for (uint32_t k = 0; k < c->nfields; k++) {
    const char *fn = cr_member_name(c, &c->fields[k]);
    if (!fn) return cr_xf__oom(x);
    if (strcmp(fn, "serialVersionUID") == 0) return 0;
  }
  int64_t suid;
  if (cr_xf_default_suid(c, &suid, x->d)) return x->err = x->d->code;
  cr_cpool *cp = c->cp;
  cr_attr *cv = cr_arena_calloc(x->a, 1, sizeof *cv);
  if (!cv || cr_xf__grow(x, (void **)&x->newf, &x->cnewf, x->nnewf + 1,
                         sizeof *x->newf))
    return cr_xf__oom(x);
  cv->name = (uint16_t)cr_xf__cpi(x, cr_cp_add_utf8(cp, "ConstantValue", x->d));
  cv->kind = CR_ATTR_CONSTANTVALUE;
  cv->u.index = (uint16_t)cr_xf__cpi(x, cr_cp_add_long(cp, suid, x->d));
  cr_member *f = &x->newf[x->nnewf++];
  memset(f, 0, sizeof *f);
  f->flags = ACC_PRIVATE | ACC_STATIC | ACC_FINAL | ACC_SYNTHETIC;
  f->name =
      (uint16_t)cr_xf__cpi(x, cr_cp_add_utf8(cp, "serialVersionUID", x->d));
  f->desc = (uint16_t)cr_xf__cpi(x, cr_cp_add_utf8(cp, "J", x->d));
  f->attrs.n = 1;
  f->attrs.v = cv;
  return x->err;
}
