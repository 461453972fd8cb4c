/*
** smt.c -- the StackMapTable attribute: compact encoding of full frames
** and expansion of an encoded table back to full frames (JVMS 4.7.4).
*/
#include "an_int.h"

static int same_items(const cr_vtype *x, const cr_vtype *y, uint32_t n) {
  for (uint32_t k = 0; k < n; k++)
    if (x[k].tag != y[k].tag || x[k].v != y[k].v) return 0;
  return 1;
}

int cr_an__encode(cr_an *an, const cr_xframe *fr, uint32_t n,
                  cr_stackmap **out, cr_arena *a, cr_diag *d) {
  (void)an;
  *out = NULL;
  if (n <= 1) return 0;
  cr_stackmap *sm = cr_arena_calloc(a, 1, sizeof *sm);
  cr_frame *v = cr_arena_calloc(a, n - 1, sizeof *v);
  if (!sm || !v) return cr_diag_set(d, CR_ENOMEM, -1, "out of memory");
  sm->v = v;
  sm->n = n - 1;
  const cr_xframe *prev = &fr[0];
  for (uint32_t k = 1; k < n; k++) {
    const cr_xframe *x = &fr[k];
    cr_frame *o = &v[k - 1];
    uint32_t delta = k == 1 ? x->off : x->off - prev->off - 1;
    int same = x->nlocals == prev->nlocals &&
               same_items(x->locals, prev->locals, x->nlocals);
    o->delta = (uint16_t)delta;
    if (x->nstack == 0 && same) {
      o->type = (uint8_t)(delta < 64 ? delta : 251);
    } else if (x->nstack == 1 && same) {
      o->type = (uint8_t)(delta < 64 ? 64 + delta : 247);
      o->nstack = 1;
      o->stack = x->stack;
    } else if (x->nstack == 0 && x->nlocals > prev->nlocals &&
               x->nlocals - prev->nlocals <= 3 &&
               same_items(x->locals, prev->locals, prev->nlocals)) {
      uint32_t k2 = x->nlocals - prev->nlocals;
      o->type = (uint8_t)(251 + k2);
      o->nlocals = (uint16_t)k2;
      o->locals = x->locals + prev->nlocals;
    } else if (x->nstack == 0 && x->nlocals < prev->nlocals &&
               prev->nlocals - x->nlocals <= 3 &&
               same_items(x->locals, prev->locals, x->nlocals)) {
      o->type = (uint8_t)(251 - (prev->nlocals - x->nlocals));
    } else {
      o->type = 255;
      o->nlocals = x->nlocals;
      o->locals = x->locals;
      o->nstack = x->nstack;
      o->stack = x->stack;
    }
    prev = x;
  }
  *out = sm;
  return 0;
}

/* The implicit initial frame of 'm' (locals only) into 'out'. */
static int initial(cr_class *c, cr_member *m, cr_vtype *out, uint32_t cap,
                   uint32_t *n, cr_diag *d) {
  size_t dl;
  const char *desc = cr_cp_utf8(c->cp, m->desc, &dl);
  const char *name = cr_member_name(c, m);
  cr_desc_iter it;
  const char *ty;
  size_t tl;
  uint32_t k = 0;
  int r;
  if (!desc || cr_desc_iter_init(&it, desc, dl)) goto bad;
  if (!(m->flags & 0x0008)) {
    const char *self = cr_cf_this_name(c);
    if (name && strcmp(name, "<init>") == 0 && self &&
        strcmp(self, "java/lang/Object") != 0)
      out[k++] = (cr_vtype){CR_VT_UNINITTHIS, 0};
    else
      out[k++] = (cr_vtype){CR_VT_OBJECT, c->this_class};
  }
  while ((r = cr_desc_next(&it, &ty, &tl)) == 1) {
    if (k >= cap) goto bad;
    cr_vtype *o = &out[k++];
    o->v = 0;
    switch (ty[0]) {
    case 'J': o->tag = CR_VT_LONG; break;
    case 'D': o->tag = CR_VT_DOUBLE; break;
    case 'F': o->tag = CR_VT_FLOAT; break;
    case 'L': case '[': {
      const char *s = ty[0] == 'L' ? ty + 1 : ty;
      size_t sl = ty[0] == 'L' ? tl - 2 : tl;
      int u = cr_cp_add_utf8n(c->cp, s, sl, d);
      if (u < 0) return u;
      cr_cpentry e;
      memset(&e, 0, sizeof e);
      e.tag = CR_CP_CLASS;
      e.a = (uint16_t)u;
      int ci = cr_cp_add(c->cp, &e, d);
      if (ci < 0) return ci;
      o->tag = CR_VT_OBJECT;
      o->v = (uint16_t)ci;
      break;
    }
    default: o->tag = CR_VT_INTEGER; break;
    }
  }
  if (r != 0) goto bad;
  *n = k;
  return 0;
bad:
  return cr_diag_set(d, CR_EFORMAT, -1, "bad method descriptor");
}

int cr_smt_expand(cr_xframe **out, uint32_t *n, cr_class *c, cr_member *m,
                  const cr_stackmap *sm, cr_diag *d) {
  cr_arena *a = c->arena;
  cr_vtype init[256];
  uint32_t ninit = 0;
  int rc = initial(c, m, init, 256, &ninit, d);
  if (rc) return rc;
  cr_xframe *fr = cr_arena_calloc(a, sm->n + 1, sizeof *fr);
  if (!fr) return cr_diag_set(d, CR_ENOMEM, -1, "out of memory");
  cr_xframe prev = {0, (uint16_t)ninit, 0, init, NULL};
  for (uint32_t k = 0; k < sm->n; k++) {
    const cr_frame *f = &sm->v[k];
    cr_xframe *x = &fr[k];
    uint32_t off = k == 0 ? f->delta : prev.off + f->delta + 1;
    if (off > 65535)
      return cr_diag_set(d, CR_EFORMAT, -1, "frame %u past offset 65535", k);
    x->off = off;
    uint32_t t = f->type;
    uint32_t nl = prev.nlocals;
    if (t >= 248 && t <= 250) {
      if (251 - t > nl)
        return cr_diag_set(d, CR_EFORMAT, -1,
                           "frame %u chops %u of %u locals", k, 251 - t, nl);
      nl -= 251 - t;
    } else if (t >= 252 && t <= 254) {
      nl += t - 251;
    } else if (t == 255) {
      nl = f->nlocals;
    }
    x->nlocals = (uint16_t)nl;
    x->locals = cr_arena_calloc(a, nl + 1, sizeof(cr_vtype));
    if (!x->locals) return cr_diag_set(d, CR_ENOMEM, -1, "out of memory");
    if (t == 255) {
      if (nl) memcpy(x->locals, f->locals, nl * sizeof(cr_vtype));
    } else {
      uint32_t keep = nl < prev.nlocals ? nl : prev.nlocals;
      if (keep) memcpy(x->locals, prev.locals, keep * sizeof(cr_vtype));
      if (t >= 252 && t <= 254)
        memcpy(x->locals + prev.nlocals, f->locals,
               (t - 251) * sizeof(cr_vtype));
    }
    if (t >= 64 && t <= 127) {
      x->nstack = 1;
      x->stack = f->stack;
    } else if (t == 247 || t == 255) {
      x->nstack = t == 247 ? 1 : f->nstack;
      x->stack = f->stack;
    }
    prev = *x;
  }
  *out = fr;
  *n = sm->n;
  return 0;
}
