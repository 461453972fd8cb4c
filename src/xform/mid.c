/*
** mid.c -- method ids: one per method a class names (its own, for their
** nodes, and its callees', for the nodes its call sites make), each
** loaded by 'ldc' of a CONSTANT_Dynamic from class version 63 on, else
** from a static final synthetic field that '<clinit>' sets by
** registering the method with the runtime; in a class of the
** instrumented JDK, a constant fixed at rewrite time. JVMS 4.4.10
** (Dynamic), 4.7.23 (BootstrapMethods).
*/
#include <stdio.h>
#include <string.h>

#include "xf_int.h"

/* Index 'k' of 'mids' into 'midtab' (which has room). */
static void mid_put(xf *x, uint32_t k) {
  uint32_t j = x->mids[k].hash & x->midmask;
  while (x->midtab[j]) j = (j + 1) & x->midmask;
  x->midtab[j] = k + 1;
}

/* Make 'midtab' hold one more id at load <= 1/2. */
static int mid_room(xf *x) {
  if ((x->nmids + 1) * 2 <= x->midmask) return 0;
  uint32_t size = x->midmask ? (x->midmask + 1) * 2 : 64;
  uint32_t *t = cr_arena_calloc(x->a, size, sizeof *t);
  if (!t) return cr_xf__oom(x);
  x->midtab = t;
  x->midmask = size - 1;
  for (uint32_t k = 0; k < x->nmids; k++) mid_put(x, k);
  return 0;
}

/* The id of 'cls.name desc', added to the class's list when new. */
xf_mid *cr_xf__get_mid(xf *x, const char *cls, const char *name,
                       const char *desc, uint32_t size, int flags) {
  size_t lc = strlen(cls), ln = strlen(name), ld = strlen(desc);
  uint32_t h = cr_hash(cls, lc) ^ cr_hash(name, ln) * 0x9e3779b1u ^
               cr_hash(desc, ld) * 0x85ebca6bu;
  for (uint32_t j = h & x->midmask; x->midmask && x->midtab[j];
       j = (j + 1) & x->midmask) {
    xf_mid *m = &x->mids[x->midtab[j] - 1];
    if (m->hash == h && strcmp(m->cls, cls) == 0 &&
        strcmp(m->name, name) == 0 && strcmp(m->desc, desc) == 0)
      return m;
  }
  if (mid_room(x) || cr_xf__grow(x, (void **)&x->mids, &x->cmids, x->nmids + 1,
                                 sizeof *x->mids))
    return NULL;
  xf_mid *m = &x->mids[x->nmids++];
  memset(m, 0, sizeof *m);
  m->cls = cr_arena_strndup(x->a, cls, lc);
  m->name = cr_arena_strndup(x->a, name, ln);
  m->desc = cr_arena_strndup(x->a, desc, ld);
  m->hash = h;
  mid_put(x, x->nmids - 1);
  m->size = size;
  if (!m->cls || !m->name || !m->desc) {
    cr_xf__oom(x);
    return NULL;
  }
  /* A method of the instrumented JDK has its id fixed at rewrite time (a
  ** constant: nothing to register, safe while the VM boots). In a JDK
  ** class, another method gets id 0 (no node): registering would run the
  ** runtime before the VM is ready. */
  const cr_hmethod *hm = cr_hier_method(x->o->h, cls, name, desc);
  m->fixed = hm ? cr_hier_mid(hm) : 0;
  m->flags = flags | (int)cr_hmethod_colour(hm) << CR_XF_MID_COLOUR_SHIFT;
  if (m->fixed || x->jdk) return m;
  cr_cpool *cp = x->c->cp;
  if (x->condy) {
    /* BootstrapMethods entry: CC.mid with (cls, name, desc, size, flags) */
    int mh =
        cr_xf__cpi(x, cr_cp_add_methodref(cp, CC_CLASS, "mid", D_MID, x->d));
    if (mh)
      mh = cr_xf__cpi(x, cr_cp_add_methodhandle(cp, CR_REF_INVOKESTATIC,
                                                (uint32_t)mh, x->d));
    int args[5] = {cr_xf__cpi(x, cr_cp_add_string(cp, cls, x->d)),
                   cr_xf__cpi(x, cr_cp_add_string(cp, name, x->d)),
                   cr_xf__cpi(x, cr_cp_add_string(cp, desc, x->d)),
                   cr_xf__cpi(x, cr_cp_add_int(cp, (int32_t)size, x->d)),
                   cr_xf__cpi(x, cr_cp_add_int(cp, flags, x->d))};
    int nat = cr_xf__cpi(x, cr_cp_add_nat(cp, "cccp$mid", "I", x->d));
    if (x->err) return NULL;
    if (cr_xf__grow(x, (void **)&x->bsms, &x->cbsms, x->nbsms + 1,
                    sizeof *x->bsms))
      return NULL;
    cr_bsm *bm = &x->bsms[x->nbsms];
    bm->mh = (uint16_t)mh;
    bm->args.n = 5;
    bm->args.v = cr_arena_alloc(x->a, 5 * sizeof(uint16_t));
    if (!bm->args.v) {
      cr_xf__oom(x);
      return NULL;
    }
    for (int k = 0; k < 5; k++) bm->args.v[k] = (uint16_t)args[k];
    uint32_t bi = x->bsm_base + x->nbsms++;
    if (bi > 65535) {
      x->err = cr_diag_set(x->d, CR_ETOOLARGE, -1,
                           "class %s: too many bootstrap methods", x->name);
      return NULL;
    }
    cr_cpentry e;
    memset(&e, 0, sizeof e);
    e.tag = CR_CP_DYNAMIC;
    e.a = (uint16_t)bi;
    e.b = (uint16_t)nat;
    m->idx = cr_xf__cpi(x, cr_cp_add(cp, &e, x->d));
  } else {
    /* a static final synthetic int field, set in '<clinit>' ('finish') */
    char fname[32];
    snprintf(fname, sizeof fname, "cccp$mid$%u", x->nmids - 1);
    if (cr_xf__grow(x, (void **)&x->newf, &x->cnewf, x->nnewf + 1,
                    sizeof *x->newf))
      return NULL;
    cr_member *f = &x->newf[x->nnewf++];
    memset(f, 0, sizeof *f);
    f->flags = (x->iface ? ACC_PUBLIC : ACC_PRIVATE) | ACC_STATIC |
               ACC_FINAL | ACC_SYNTHETIC;
    f->name = (uint16_t)cr_xf__cpi(x, cr_cp_add_utf8(cp, fname, x->d));
    f->desc = (uint16_t)cr_xf__cpi(x, cr_cp_add_utf8(cp, "I", x->d));
    m->idx = cr_xf__cpi(x, cr_cp_add_fieldref(cp, x->name, fname, "I", x->d));
  }
  return x->err ? NULL : m;
}

/* Push method id 'm' before 'at'. */
void cr_xf__emit_mid(xf *x, cr_body *b, cr_insn *at, const xf_mid *m) {
  if (!m->idx) cr_xf__emit_int(x, b, at, (int32_t)m->fixed);
  else cr_xf__emit(x, b, at, x->condy ? CR_OP_LDC : CR_OP_GETSTATIC, m->idx);
}

/* "ldc cls; ldc name; ldc desc; ldc size; sipush flags; invokestatic
** register" before 'at': the id of 'm', registered. */
static void emit_register(xf *x, cr_body *b, cr_insn *at, const xf_mid *m) {
  cr_cpool *cp = x->c->cp;
  cr_xf__emit(x, b, at, CR_OP_LDC,
              cr_xf__cpi(x, cr_cp_add_string(cp, m->cls, x->d)));
  cr_xf__emit(x, b, at, CR_OP_LDC,
              cr_xf__cpi(x, cr_cp_add_string(cp, m->name, x->d)));
  cr_xf__emit(x, b, at, CR_OP_LDC,
              cr_xf__cpi(x, cr_cp_add_string(cp, m->desc, x->d)));
  cr_xf__emit(x, b, at, CR_OP_LDC,
              cr_xf__cpi(x, cr_cp_add_int(cp, (int32_t)m->size, x->d)));
  cr_xf__emit_int(x, b, at, m->flags);
  cr_xf__emit(x, b, at, CR_OP_INVOKESTATIC, x->r_register);
}

/*
** Push the id of a method's own node before 'at'. An id field is set by
** '<clinit>', which has not run yet while the class's initialization is
** in progress further up the thread's stack (JVMS 5.5: initializing a
** class starts with its superclasses, whose '<clinit>' may make an
** instance of it): "getstatic F; dup; ifne L; pop; <register>; L:" then
** registers the id on the spot, as '<clinit>' will. A dynamic constant
** resolves without the class's initialization.
*/
void cr_xf__emit_own_mid(xf *x, cr_body *b, cr_insn *at, const xf_mid *m) {
  cr_xf__emit_mid(x, b, at, m);
  if (x->condy || !m->idx) return;
  cr_insn *l = cr_label_new(b);
  if (!l) {
    cr_xf__oom(x);
    return;
  }
  cr_xf__emit(x, b, at, CR_OP_DUP, 0);
  cr_insn *br = cr_xf__emit(x, b, at, CR_OP_IFNE, 0);
  if (br) br->target = l;
  cr_xf__emit(x, b, at, CR_OP_POP, 0);
  emit_register(x, b, at, m);
  cr_body_insert_before(b, at, l);
}

/* Set every id field: "<register>; putstatic F" for each, before 'at'. */
static void emit_mid_init(xf *x, cr_body *b, cr_insn *at) {
  for (uint32_t k = 0; k < x->nmids; k++) {
    if (!x->mids[k].idx) continue;
    emit_register(x, b, at, &x->mids[k]);
    cr_xf__emit(x, b, at, CR_OP_PUTSTATIC, x->mids[k].idx);
  }
}

/*
** The id fields set by a method of their own, "cccp$mids", which
** '<clinit>' 'ci' calls first: for a '<clinit>' that the code setting
** them would take past 65535 bytes (JRuby's RipperParser, its parser
** tables built in '<clinit>', rewritten against an instrumented JDK).
** The fields are not final then (JVMS 6.5 putstatic: a final static
** field is set in '<clinit>' only), so the JIT reads them where it
** would fold a final one. Errors in 'md'.
*/
static void init_mids_apart(xf *x, cr_member *ci, cr_diag *md) {
  cr_class *c = x->c;
  cr_attr *sc = cr_xf__stub_code_attr(x);
  int nm = cr_xf__cpi(x, cr_cp_add_utf8(c->cp, "cccp$mids", x->d));
  cr_member *im =
      sc && nm ? cr_xf__new_method(x, ACC_PRIVATE | ACC_STATIC | ACC_SYNTHETIC,
                                   (uint16_t)nm, "()V", sc, NULL)
               : NULL;
  cr_body *b;
  if (!im || cr_body_decode(&b, c, im, x->a, md)) return;
  emit_mid_init(x, b, b->first);
  if (cr_xf__commit(x, b, md) || cr_body_decode(&b, c, ci, x->a, md)) return;
  int ref = cr_xf__cpi(
      x, cr_cp_add_methodref(c->cp, x->name, "cccp$mids", "()V", x->d));
  cr_xf__emit(x, b, b->first, CR_OP_INVOKESTATIC, ref);
  if (cr_xf__commit(x, b, md)) return;
  for (uint32_t k = 0; k < x->nnewf; k++) {
    const char *fn = cr_member_name(c, &x->newf[k]);
    if (fn && strncmp(fn, "cccp$mid$", 9) == 0)
      x->newf[k].flags = (uint16_t)(x->newf[k].flags & ~ACC_FINAL);
  }
}

/*
** Put the code that sets the id fields at the start of '<clinit>' (made
** when the class has none). Runs after every other method is done, so
** that all ids are known; '<clinit>' may have been instrumented already.
*/
int cr_xf__init_mids(xf *x) {
  cr_class *c = x->c;
  cr_member *ci = NULL;
  for (uint32_t k = 0; k < c->nmethods && !ci; k++) {
    const char *nm = cr_member_name(c, &c->methods[k]);
    if (nm && strcmp(nm, "<clinit>") == 0 && cr_member_code(&c->methods[k]))
      ci = &c->methods[k];
  }
  if (!ci) {
    cr_attr *sc = cr_xf__stub_code_attr(x);
    int nm = cr_xf__cpi(x, cr_cp_add_utf8(c->cp, "<clinit>", x->d));
    ci = sc && nm
             ? cr_xf__new_method(x, ACC_STATIC, (uint16_t)nm, "()V", sc, NULL)
             : NULL;
    if (!ci) return x->err;
    /* the runtime's agent takes a '<clinit>' marked so for none when it
    ** computes a default serialVersionUID */
    if (cr_xf__grow(x, (void **)&x->newf, &x->cnewf, x->nnewf + 1,
                    sizeof *x->newf))
      return x->err;
    cr_member *f = &x->newf[x->nnewf++];
    memset(f, 0, sizeof *f);
    f->flags = (x->iface ? ACC_PUBLIC : ACC_PRIVATE) | ACC_STATIC |
               ACC_FINAL | ACC_SYNTHETIC;
    f->name =
        (uint16_t)cr_xf__cpi(x, cr_cp_add_utf8(c->cp, "cccp$clinit", x->d));
    f->desc = (uint16_t)cr_xf__cpi(x, cr_cp_add_utf8(c->cp, "I", x->d));
  }
  cr_body *b;
  cr_diag md;
  cr_diag_clear(&md);
  if (cr_body_decode(&b, c, ci, x->a, &md) == 0) {
    emit_mid_init(x, b, b->first);
    cr_xf__commit(x, b, &md);
  }
  if (!x->err && md.code == CR_ETOOLARGE && !x->iface) {
    cr_diag_clear(&md);
    init_mids_apart(x, ci, &md);
  }
  if (!x->err && md.code)
    x->err = cr_diag_set(x->d, md.code, -1, "class %s: cannot set method "
                         "ids in <clinit>: %s", x->name, md.msg);
  return x->err;
}
