/*
** cccp.c -- the CCCP instrumentation of one class (DESIGN.md 1, CCCP
** paper 4.2-4.4, Figures 3-4): the class in flight ('xf'), the classes
** left as they are, each method done in turn, and the members it queues
** appended at the end. The rest of the module: what becomes of each
** method (plan.c), twins and wrappers that are not instrumented copies
** (twin.c), instrumented bodies (body.c), their call sites (site.c) and
** class initialisations (clinit.c), the owner check (dispatch.c), the
** compact form (compact.c), block counters (blocks.c), method ids
** (mid.c), JDK mode (jdk.c), the serialVersionUID (suid.c), and the
** pieces code is built from (emit.c).
*/
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "cccp/xform.h"
#include "xf_int.h"

/* The frame computation's view: the caller's hierarchy plus the runtime's
** node class, which the hierarchy of an application does not hold. */
static int ti_lookup(void *ctx, const char *name, const char **super,
                     int *is_interface) {
  xf *x = ctx;
  if (strcmp(name, CC_CLASS) == 0) {
    *super = "java/lang/Object";
    *is_interface = 0;
    return 0;
  }
  if (!x->inner) return CR_ENOTFOUND;
  return x->inner->lookup(x->inner->ctx, name, super, is_interface);
}

/* A new Code attribute holding just 'return' (replaced before commit). */
cr_attr *cr_xf__stub_code_attr(xf *x) {
  cr_code *k = cr_arena_calloc(x->a, 1, sizeof *k);
  cr_attr *at = cr_arena_calloc(x->a, 1, sizeof *at);
  if (!k || !at) {
    cr_xf__oom(x);
    return NULL;
  }
  k->code = (const uint8_t *)"\xb1";
  k->code_len = 1;
  at->name = (uint16_t)x->code_name;
  at->kind = CR_ATTR_CODE;
  at->u.code = k;
  return at;
}

/* A new method 'name''desc' with 'code' (an attribute, copied) and the
** Exceptions attribute of 'like' (may be NULL), queued for appending. */
cr_member *cr_xf__new_method(xf *x, uint16_t flags, uint16_t name,
                             const char *desc, const cr_attr *code,
                             const cr_member *like) {
  cr_member *m = cr_arena_calloc(x->a, 1, sizeof *m);
  cr_attr *v = cr_arena_calloc(x->a, 2, sizeof *v);
  if (!m || !v ||
      cr_xf__grow(x, (void **)&x->newm, &x->cnewm, x->nnewm + 1,
                  sizeof *x->newm)) {
    cr_xf__oom(x);
    return NULL;
  }
  m->flags = flags;
  m->name = name;
  m->desc = (uint16_t)cr_xf__cpi(x, cr_cp_add_utf8(x->c->cp, desc, x->d));
  v[0] = *code;
  m->attrs.n = 1;
  m->attrs.v = v;
  const cr_attr *ex = like ? cr_attrs_find(&like->attrs, CR_ATTR_EXCEPTIONS)
                           : NULL;
  if (ex) v[m->attrs.n++] = *ex;
  x->newm[x->nnewm++] = m;
  return x->err ? NULL : m;
}

/* 'o->warn' (when set) hears one line about this class. */
void cr_xf__warn(xf *x, const char *fmt, ...) {
  if (!x->o->warn) return;
  char msg[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  x->o->warn(x->o->ctx, x->c, msg);
}

/* Append the queued methods, fields and bootstrap methods to the class. */
static int finish(xf *x) {
  cr_class *c = x->c;
  int reg = 0;
  for (uint32_t k = 0; k < x->nmids && !reg; k++) reg = x->mids[k].idx != 0;
  if (!x->condy && reg && cr_xf__init_mids(x)) return x->err;
  if (x->nnewm) {
    cr_member *v = cr_arena_calloc(x->a, c->nmethods + x->nnewm, sizeof *v);
    if (!v) return cr_xf__oom(x);
    memcpy(v, c->methods, c->nmethods * sizeof *v);
    for (uint32_t k = 0; k < x->nnewm; k++) v[c->nmethods + k] = *x->newm[k];
    c->methods = v;
    c->nmethods += x->nnewm;
  }
  if (x->nnewf) {
    cr_member *v = cr_arena_calloc(x->a, c->nfields + x->nnewf, sizeof *v);
    if (!v) return cr_xf__oom(x);
    if (c->nfields) memcpy(v, c->fields, c->nfields * sizeof *v);
    memcpy(v + c->nfields, x->newf, x->nnewf * sizeof *v);
    c->fields = v;
    c->nfields += x->nnewf;
  }
  if (x->nbsms) {
    cr_attr *at = cr_attrs_find(&c->attrs, CR_ATTR_BOOTSTRAPMETHODS);
    if (!at) {
      int nm = cr_xf__cpi(x, cr_cp_add_utf8(c->cp, "BootstrapMethods", x->d));
      cr_attr *v = cr_arena_calloc(x->a, c->attrs.n + 1, sizeof *v);
      cr_bsms *bs = cr_arena_calloc(x->a, 1, sizeof *bs);
      if (!v || !bs) return cr_xf__oom(x);
      if (c->attrs.n) memcpy(v, c->attrs.v, c->attrs.n * sizeof *v);
      at = &v[c->attrs.n];
      at->name = (uint16_t)nm;
      at->kind = CR_ATTR_BOOTSTRAPMETHODS;
      at->u.bsms = bs;
      c->attrs.v = v;
      c->attrs.n++;
    }
    cr_bsms *bs = at->u.bsms;
    cr_bsm *v = cr_arena_calloc(x->a, bs->n + x->nbsms, sizeof *v);
    if (!v) return cr_xf__oom(x);
    if (bs->n) memcpy(v, bs->v, bs->n * sizeof *v);
    memcpy(v + bs->n, x->bsms, x->nbsms * sizeof *v);
    bs->v = v;
    bs->n += x->nbsms;
    at->raw = NULL;
    at->len = 0;
  }
  return x->err;
}

int cr_xf_instrumented_already(const cr_class *c) {
  for (uint32_t k = 0; k < c->nmethods; k++) {
    const char *d = cr_member_desc(c, &c->methods[k]);
    if (d && strstr(d, CC_DESC)) return 1;
  }
  return 0;
}

int cr_xf_cccp(cr_class *c, cr_xf_opts *o, cr_diag *d) {
  xf x;
  memset(&x, 0, sizeof x);
  x.c = c;
  x.a = c->arena;
  x.o = o;
  x.d = d;
  x.name = cr_cf_this_name(c);
  if (!x.name) return cr_diag_set(d, CR_ENOMEM, -1, "out of memory");
  if (c->flags & ACC_MODULE) return 0;
  if (strncmp(x.name, "cccp/rt/", 8) == 0) {
    o->nskipped++;
    cr_xf__warn(&x, "class %s: part of the cccp runtime; left unchanged",
                x.name);
    return 0;
  }
  if (cr_xf_instrumented_already(c)) {
    o->nskipped++;
    cr_xf__warn(&x, "class %s: instrumented already; left unchanged", x.name);
    return 0;
  }
  x.iface = (c->flags & ACC_INTERFACE) != 0;
  /* With an instrumented JDK, no dynamic constants: the JDK's linkage
  ** of one (MethodHandleNatives.linkDynamicConstant, thousands of calls)
  ** would run instrumented, in the program's context, before CC.mid */
  x.condy = c->major >= 63 && !cr_hier_mid_count(o->h);
  x.readers = !cr_hier_mid_count(o->h);
  const cr_hclass *hc = cr_hier_class(o->h, x.name);
  x.jdk = hc && cr_hclass_instrumented(hc) && cr_hclass_jdk_module(hc);
  /* a class of an instrumented JDK kept as a library (java/lang/Object) */
  if (hc && !x.jdk && cr_hclass_jdk_module(hc) && cr_hier_mid_count(o->h))
    return 0;
  /* an interface below 52 cannot hold the default methods that twins of
  ** its abstract methods are: it moves to version 52 (frames for its
  ** '<clinit>', the only code it can have) */
  if (x.iface && c->major < 52) {
    c->major = 52;
    c->minor = 0;
    /* HotSpot sets ACC_ABSTRACT on interfaces before version 50 and
    ** insists on it from then on (JVMS 4.1) */
    c->flags |= ACC_ABSTRACT;
    x.bumped = 1;
  }
  x.inner = o->env.ti;
  x.ti.ctx = &x;
  x.ti.lookup = ti_lookup;
  x.env = o->env;
  x.env.ti = &x.ti;
  int rc = cr_an_new(&x.an, c, &x.env, d);
  if (rc) return rc;
  cr_cpool *cp = c->cp;
  x.r_enter =
      cr_xf__cpi(&x, cr_cp_add_methodref(cp, CC_CLASS, "enter", D_ENTER, d));
  x.r_enterv =
      cr_xf__cpi(&x, cr_cp_add_methodref(cp, CC_CLASS, "enterv", D_ENTERV, d));
  x.r_get = cr_xf__cpi(&x, cr_cp_add_methodref(cp, CC_CLASS, "get", D_GET, d));
  x.r_set = cr_xf__cpi(&x, cr_cp_add_methodref(cp, CC_CLASS, "set", D_SET, d));
  x.r_register = cr_xf__cpi(
      &x, cr_cp_add_methodref(cp, CC_CLASS, "register", D_REGISTER, d));
  x.code_name = cr_xf__cpi(&x, cr_cp_add_utf8(cp, "Code", d));
  const cr_attr *bm = cr_attrs_find(&c->attrs, CR_ATTR_BOOTSTRAPMETHODS);
  x.bsm_base = bm ? bm->u.bsms->n : 0;
  if (cr_xf__pin_suid(&x)) return x.err;
  uint32_t n = c->nmethods;
  for (uint32_t k = 0; k < n && !x.err; k++) cr_xf__do_method(&x, k);
  if (!x.err && x.jdk) cr_xf__jdk_hooks(&x);
  if (!x.err) finish(&x);
  if (!x.err && x.nunsup) {
    o->nunsup += x.nunsup;
    o->nunsup_classes++;
    if (o->note) {
      char msg[600];
      snprintf(msg, sizeof msg, "class %s: %u bytecode%s JOP cannot run "
               "(invokedynamic, jsr, ret, goto_w%s); costed as software "
               "bytecodes", x.name, x.nunsup, x.nunsup == 1 ? "" : "s",
               o->jop->year == 2008 ? ", and in the 2008 model double "
               "arithmetic" : "");
      o->note(o->ctx, c, msg);
    }
  }
  return x.err;
}
