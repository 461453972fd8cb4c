/*
** plan.c -- what becomes of each method (the plan: left alone,
** instrumented in place, an ESI twin with the original instrumented,
** wrapped or unchanged, a delegating twin), decided from the hierarchy's
** overloadability and wrappability analysis and the method's own code,
** and carried out, with the fallbacks when a body cannot be instrumented.
*/
#include <string.h>

#include "xf_int.h"

cr_xf_plan cr_xf_method_plan(unsigned hf, const char *name,
                             const char *desc, uint16_t access,
                             const cr_code *cd, int n2b, const char **why) {
  static const char *const none = "";
  *why = none;
  int clinit = strcmp(name, "<clinit>") == 0;
  int ovl = !clinit && !(hf & CR_HM_NONOVL);
  int wrap = !(hf & CR_HM_NONWRAP);
  if (ovl && cr_xf__arg_slots(desc) + !(access & ACC_STATIC) + 1 > 255) {
    ovl = 0;
    *why = "its arguments take 254 or more slots: a twin has no room for "
           "the node";
  }
  if (access & ACC_ABSTRACT) {
    if (!ovl) *why = "abstract and non-overloadable: no twin to declare";
    return ovl ? CR_XF_TWIN_ABSTRACT : CR_XF_KEEP;
  }
  if (access & ACC_NATIVE) {
    if (!ovl || !wrap)
      *why = "native and non-overloadable or non-wrappable: a node at "
             "its call sites";
    return ovl && wrap ? CR_XF_B2N : CR_XF_KEEP;
  }
  if (!cd) {
    *why = "no code";
    return CR_XF_KEEP;
  }
  /* HotSpot drops a '<clinit>' that is just 'return' when it parses the
  ** class: it never runs, so it gets no node either */
  int empty = cd->code_len == 1 && cd->code[0] == 0xb1;
  if (clinit && empty) {
    *why = "a <clinit> that only returns, which HotSpot drops: it never runs";
    return CR_XF_KEEP;
  }
  /* HotSpot also reads a 'finalize()V' that is just 'return' as "no
  ** finalizer" (a subclass's cancels its superclass's): instrumented, the
  ** class's instances would be registered for finalization (every enum,
  ** through Enum.finalize). It stays as it is; a twin gets the node. */
  if (empty && strcmp(name, "finalize") == 0 && strcmp(desc, "()V") == 0) {
    *why = "an empty finalize(), which HotSpot reads as no finalizer";
    return ovl ? CR_XF_ESI_KEEP : CR_XF_KEEP;
  }
  if (!ovl) return CR_XF_OSI;
  return wrap && n2b ? CR_XF_ESI_N2B : CR_XF_ESI_OSI;
}

const char *cr_xf_plan_text(cr_xf_plan p) {
  switch (p) {
  case CR_XF_KEEP: return "left as it is";
  case CR_XF_OSI: return "instrumented in place (OSI), no twin";
  case CR_XF_ESI_OSI:
    return "an ESI twin, and the original instrumented in place (OSI)";
  case CR_XF_ESI_N2B: return "an ESI twin, and the original its N2B wrapper";
  case CR_XF_ESI_KEEP: return "an ESI twin, and the original unchanged";
  case CR_XF_TWIN_ABSTRACT:
    return "a twin that calls it (for subclasses without their own)";
  case CR_XF_B2N: return "a B2N twin that calls the native method";
  }
  return "?";
}

/*
** Method 'm' could not be instrumented in place: warn, and in a class
** whose version was raised give its old code frames, or fail the class.
*/
static int osi_failed(xf *x, cr_member *m, const char *name,
                      const char *desc, const cr_diag *md) {
  x->o->nfailed++;
  cr_xf__warn(x, "class %s: method %s%s left uninstrumented: %s", x->name, name,
              desc, md->msg);
  if (x->bumped) {
    cr_diag rd;
    cr_diag_clear(&rd);
    if (cr_reencode_method(x->an, m, 0, &rd))
      x->err = cr_diag_set(x->d, CR_EUNSUPPORTED, -1,
                           "class %s: %s%s cannot be given frames: %s",
                           x->name, name, desc, rd.msg);
  }
  return x->err;
}

/* One method of the original class ('k' its index). */
int cr_xf__do_method(xf *x, uint32_t k) {
  cr_member *m = &x->c->methods[k];
  const char *name = cr_member_name(x->c, m);
  const char *desc = cr_member_desc(x->c, m);
  if (!name || !desc) return cr_xf__oom(x);
  if (!cr_desc_is_method(desc, strlen(desc))) return 0;
  const cr_hmethod *hm = x->o->no_twins ? NULL
                                       : cr_hier_method(x->o->h, x->name,
                                                        name, desc);
  unsigned hf = hm ? cr_hmethod_flags(hm) : CR_HM_NONOVL | CR_HM_NONWRAP;
  cr_attr *code = cr_attrs_find(&m->attrs, CR_ATTR_CODE);
  const char *why;
  cr_xf_plan plan = cr_xf_method_plan(hf, name, desc, m->flags,
                                      code ? code->u.code : NULL, x->o->n2b,
                                      &why);
  if (plan == CR_XF_KEEP) return 0;
  cr_diag md;
  cr_diag_clear(&md);
  char *tdesc = plan != CR_XF_OSI ? cr_xf_twin_desc(x->a, desc) : NULL;
  if (plan != CR_XF_OSI && !tdesc) return cr_xf__oom(x);

  if (plan == CR_XF_TWIN_ABSTRACT) {
    cr_attr *sc = cr_xf__stub_code_attr(x);
    cr_member *tw = sc ? cr_xf__new_method(x, cr_xf__twin_flags(x, m->flags),
                                           m->name, tdesc, sc, m)
                       : NULL;
    if (!tw) return x->err;
    int rc = cr_xf__delegate(x, tw, m, name, desc, 1, 0, CR_XF_MID_APP, &md);
    if (rc) return x->err ? x->err : rc;
    x->o->nfallback++;
    return 0;
  }
  if (plan == CR_XF_B2N) {
    cr_attr *sc = cr_xf__stub_code_attr(x);
    cr_member *tw = sc ? cr_xf__new_method(x, cr_xf__twin_flags(x, m->flags),
                                           m->name, tdesc, sc, m)
                       : NULL;
    if (!tw) return x->err;
    int rc = cr_xf__delegate(x, tw, m, name, desc, 0, 0,
                             CR_XF_MID_APP | CR_XF_MID_NATIVE, &md);
    if (rc) return x->err ? x->err : rc;
    x->o->nb2n++;
    return 0;
  }
  x->tally = 1;
  if (plan == CR_XF_OSI) {
    int rc = cr_xf__instrument(x, m, OSI, name, desc, &md);
    if (x->err) return x->err;
    if (rc) return osi_failed(x, m, name, desc, &md);
    x->o->nosi++;
    return 0;
  }
  /* overloadable: ESI twin, then N2B (wrappable) or OSI in place */
  int wrap = plan == CR_XF_ESI_N2B, nofin = plan == CR_XF_ESI_KEEP;
  cr_attr tcode = *code;
  if (!wrap) {
    cr_attr *cc = cr_xf__copy_code_attr(x, k);
    if (!cc) return cr_xf__oom(x);
    tcode = *cc;
  }
  cr_member *tw = cr_xf__new_method(x, cr_xf__twin_flags(x, m->flags), m->name,
                                    tdesc, &tcode, m);
  if (!tw) return x->err;
  if ((hf & CR_HM_CALLER_SENSITIVE) && cr_xf__caller_sensitive(x, tw))
    return x->err;
  x->sh.m = wrap || nofin ? NULL : m;
  x->sh.b = NULL;
  int rc = cr_xf__instrument(x, tw, ESI, name, desc, &md);
  x->sh.m = NULL;
  if (rc || wrap) x->sh.b = NULL;
  if (x->err) return x->err;
  if (rc) {
    /* the twin keeps an unusable body: give it the delegating one */
    x->nnewm--;
    return cr_xf__fallback(x, m, m->name, name, desc, tdesc, &md);
  }
  x->o->nesi++;
  if (wrap) {
    cr_attr *sc = cr_xf__stub_code_attr(x);
    if (!sc) return x->err;
    *code = *sc;                /* the original body went to the twin */
    rc = cr_xf__n2b(x, m, name, desc, tdesc, &md);
    if (rc) {
      if (!x->err)
        x->err = cr_diag_set(x->d, rc, -1, "class %s: N2B wrapper of %s%s: "
                             "%s", x->name, name, desc, md.msg);
      return x->err;
    }
    x->o->nn2b++;
  } else if (!nofin) {          /* (an empty finalize stays 'return') */
    x->tally = 0;               /* the twin's body counted them */
    rc = cr_xf__instrument(x, m, OSI, name, desc, &md);
    x->sh.b = NULL;
    if (x->err) return x->err;
    if (rc) return osi_failed(x, m, name, desc, &md);
    x->o->nosi++;
  }
  return 0;
}
