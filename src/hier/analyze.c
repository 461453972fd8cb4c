/*
** analyze.c -- overloadability and wrappability analysis (DESIGN.md 1, the
** CCCP paper 4.3 and 4.4): seeds from the policy and the library
** boundary, the three hierarchy rules to a fixed point, the two
** implications; reasons, counts and the XML report.
*/
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "hier_int.h"

/* FIFO of methods that became non-overloadable and await propagation. */
typedef struct work {
  const cr_hmethod **v;
  size_t head, n, cap;
  int oom;
} work;

static void push(work *w, const cr_hmethod *m) {
  if (w->n == w->cap) {
    size_t nc = w->cap ? w->cap * 2 : 1024;
    const cr_hmethod **v = cr_realloc(w->v, nc * sizeof *v);
    if (!v) {
      w->oom = 1;
      return;
    }
    w->v = v;
    w->cap = nc;
  }
  w->v[w->n++] = m;
}

/* Make 'm' non-overloadable for reason 'why'; queue it if virtual. */
static void mark(work *w, cr_hmethod *m, int why, const char *seed,
                 const cr_hmethod *src, const cr_hclass *via) {
  if (m->flags & CR_HM_NONOVL) return;
  m->flags |= CR_HM_NONOVL;
  m->why[0] = (uint8_t)why;
  m->seed[0] = seed;
  m->src[0] = src;
  m->via[0] = via;
  if (m->flags & CR_HM_VIRTUAL) push(w, m);
}

/*
** Propagate non-overloadable virtual method 'm' (declared in D). Visit D
** and its subtypes; at every class X that selects 'm' (X inherits it, or
** is D):
**   rule 1: the method X's superclass selects for the same name and
**           descriptor (declared there, abstract, native, inherited, or a
**           superinterface method) becomes non-overloadable. One step up
**           is enough: that method is queued in turn and its own visit
**           covers the classes above;
**   rule 2: implicit: X's slot is 'm' itself, already non-overloadable,
**           and queries about X resolve or select to 'm';
**   rule 3: every superinterface of X declaring the same name and
**           descriptor gets a non-overloadable method.
** Below a class that selects another method (it overrides 'm') nothing
** selects 'm' again, so the walk stops there; it goes on through
** interfaces and through classes whose selection is ambiguous.
*/
static void propagate(cr_hier *h, work *w, const cr_hmethod *m,
                      const cr_hclass **stack) {
  if (!m->owner->live) return;
  size_t sp = 0;
  h->stamp++;
  stack[sp++] = m->owner;
  m->owner->stamp = h->stamp;
  int from_class = !(m->owner->access & ACC_INTERFACE);
  while (sp) {
    const cr_hclass *x = stack[--sp];
    if (from_class && x != m->owner) {
      /*
      ** Shortcut below a class D: x was reached from its superclass,
      ** which selects 'm'; x selects 'm' unless it declares its own. Rule
      ** 1 then gives 'm' again, and rule 3 only needs the interfaces x
      ** adds (the closure lists the superclass's ones first).
      */
      const cr_hmethod *own = cr_hier__declared(h, x, m->name, m->desc);
      if (own && !(own->access & (ACC_PRIVATE | ACC_STATIC))) continue;
      for (uint32_t i = x->super ? x->super->nall : 0; i < x->nall; i++) {
        const cr_hmethod *t =
            cr_hier__declared(h, x->all[i], m->name, m->desc);
        if (t && (t->flags & CR_HM_VIRTUAL))
          mark(w, (cr_hmethod *)t, R_RULE3, NULL, m, x);
      }
    } else if (!(x->access & ACC_INTERFACE)) {
      const cr_hmethod *sel = cr_hier__select(h, x, m->name, m->desc);
      if (sel && sel != m) continue;
      if (sel == m) {
        if (x->super) {
          const cr_hmethod *t =
              cr_hier__select(h, x->super, m->name, m->desc);
          if (t && t != m)
            mark(w, (cr_hmethod *)t, R_RULE1, NULL, m, x);
        }
        for (uint32_t i = 0; i < x->nall; i++) {
          const cr_hmethod *t =
              cr_hier__declared(h, x->all[i], m->name, m->desc);
          if (t && (t->flags & CR_HM_VIRTUAL) && t != m)
            mark(w, (cr_hmethod *)t, R_RULE3, NULL, m, x);
        }
      }
    }
    for (uint32_t i = 0; i < x->nsubs; i++) {
      cr_hclass *s = x->subs[i];
      if (s->stamp == h->stamp || !s->live) continue;
      s->stamp = h->stamp;
      stack[sp++] = s;
    }
  }
}

/*
** Which classes the rules can change anything at. The seeds mark every
** method of a library class non-overloadable before the rules run, so a
** visit of class X marks something new only if X, a superclass or a
** superinterface of X is instrumented: the methods rules 1 and 3 mark
** are declared there. 'live' is set on such classes and on every
** supertype of one; 'propagate' skips the subtypes that are not live
** (in app mode, most of the JDK), with the same answers.
*/
static void mark_live(cr_hier *h) {
  for (size_t i = 0; i < h->nclasses; i++) h->sorted[i]->live = 0;
  for (size_t i = 0; i < h->nclasses; i++) {
    cr_hclass *c = h->sorted[i];
    int rel = 0;
    for (const cr_hclass *x = c; x && !rel; x = x->super)
      rel = x->instrumented;
    for (uint32_t k = 0; k < c->nall && !rel; k++)
      rel = c->all[k] && c->all[k]->instrumented;
    if (!rel) continue;
    for (cr_hclass *x = c; x && !x->live; x = x->super) x->live = 1;
    for (uint32_t k = 0; k < c->nall; k++)
      if (c->all[k]) c->all[k]->live = 1;
  }
}

static const char *intern_id(cr_hier *h, const char *id) {
  return id ? cr_hier__intern(h, id, strlen(id)) : NULL;
}

/*
** 1 for an interface whose initialisation a twin would move: it has a
** static initializer and no non-abstract instance method. The JVM
** initialises such an interface only on first use of its own static
** members; one with a non-abstract instance method (which the default
** twin of an abstract method is) is initialised with every class that
** implements it (JVMS 5.5, step 7), earlier than the program expects.
*/
static int init_sensitive(const cr_hclass *c) {
  if (!(c->access & ACC_INTERFACE)) return 0;
  int clinit = 0;
  for (uint32_t k = 0; k < c->nmethods; k++) {
    const cr_hmethod *m = &c->methods[k];
    if (strcmp(m->name, "<clinit>") == 0) clinit = 1;
    else if (!(m->access & (ACC_ABSTRACT | ACC_STATIC))) return 0;
  }
  return clinit;
}

/* Non-overloadable implies non-wrappable (the paper's section 4.4). */
static void implied(cr_hmethod *m) {
  if ((m->flags & CR_HM_NONOVL) && !(m->flags & CR_HM_NONWRAP)) {
    m->flags |= CR_HM_NONWRAP;
    m->why[1] = R_IMPLIED;
  }
}

/* The seeds of class 'c': its methods marked as the policy, the library
** boundary and the facts of the paper's section 4.4 say ('mask' and 'ix'
** are work space of cr_policy_count(p) + 1 entries, and 4 times that). */
static void seed_class(cr_hier *h, const cr_policy *p, cr_hclass *c,
                       work *w, uint8_t *mask, uint32_t *ix, size_t nr) {
  static const cr_pol_kind kinds[4] = {CR_POL_NONOVL, CR_POL_OVL,
                                       CR_POL_NONWRAP, CR_POL_WRAP};
  size_t nk[4] = {0, 0, 0, 0};
  const uint32_t *ovl0 = ix, *ovl1 = ix + nr, *wrap0 = ix + 2 * nr,
                 *wrap1 = ix + 3 * nr;
  if (c->instrumented) {
    cr_policy_prepare(p, c->name, mask);
    for (int k = 0; k < 4; k++)
      nk[k] = cr_policy_select(p, kinds[k], mask, ix + (size_t)k * nr);
  }
  const char *isid = NULL;
  if (c->instrumented && init_sensitive(c) &&
      !(isid = intern_id(h, "iface-clinit")))
    w->oom = 1;
  for (uint32_t k = 0; k < c->nmethods; k++) {
    cr_hmethod *m = &c->methods[k];
    if (!c->instrumented) {
      mark(w, m, R_LIBRARY, NULL, NULL, NULL);
      continue;
    }
    if (isid && (m->access & ACC_ABSTRACT)) {
      mark(w, m, R_SEED, isid, NULL, NULL);
      continue;
    }
    /* It overrides a final method (a class compiled against another
    ** version of its superclass): the class cannot be loaded, and the
    ** IncompatibleClassChangeError must name the original, which
    ** HotSpot may not when a twin overrides the final one's twin. */
    if ((m->flags & CR_HM_VIRTUAL) && c->super &&
        !(c->access & ACC_INTERFACE)) {
      const cr_hmethod *t =
          cr_hier__select(h, c->super, m->name, m->desc);
      if (t && (t->access & ACC_FINAL) && !(t->access & ACC_PRIVATE)) {
        const char *id = intern_id(h, "overrides-final");
        if (!id) w->oom = 1;
        mark(w, m, R_SEED, id, NULL, NULL);
        continue;
      }
    }
    cr_pol_method pm = {c->name, m->name, m->desc, m->access, m->nannots,
                        m->annots};
    int r = cr_policy_match_in(p, CR_POL_NONOVL, &pm, ovl0, nk[0]);
    if (r >= 0 && cr_policy_match_in(p, CR_POL_OVL, &pm, ovl1, nk[1]) < 0) {
      const char *id = intern_id(h, cr_policy_rule(p, (size_t)r)->id);
      if (!id) w->oom = 1;
      mark(w, m, R_SEED, id, NULL, NULL);
    }
    r = cr_policy_match_in(p, CR_POL_NONWRAP, &pm, wrap0, nk[2]);
    if (r >= 0 &&
        cr_policy_match_in(p, CR_POL_WRAP, &pm, wrap1, nk[3]) < 0) {
      const char *id = intern_id(h, cr_policy_rule(p, (size_t)r)->id);
      if (!id) w->oom = 1;
      m->flags |= CR_HM_NONWRAP;
      m->why[1] = R_SEED;
      m->seed[1] = id;
    }
    /* native and non-wrappable => non-overloadable (paper 4.4) */
    if ((m->access & ACC_NATIVE) && (m->flags & CR_HM_NONWRAP))
      mark(w, m, R_NATIVE_NONWRAP, NULL, NULL, NULL);
  }
}

int cr_hier_analyze(cr_hier *h, const cr_policy *p, cr_diag *d) {
  if (!h->linked)
    return cr_diag_set(d, CR_EUSAGE, -1, "analysis before linking");
  work w = {0};
  int rc = 0;
  const cr_hclass **stack = cr_malloc((h->nclasses + 1) * sizeof *stack);
  if (!stack) return cr_diag_set(d, CR_ENOMEM, -1, "out of memory");
  h->nconflicts = 0;

  /* Seeds, in name order so that reasons are deterministic. */
  for (size_t i = 0; i < h->nclasses; i++) {
    cr_hclass *c = h->sorted[i];
    for (uint32_t k = 0; k < c->nmethods; k++) {
      cr_hmethod *m = &c->methods[k];
      m->flags &= ~(unsigned)(CR_HM_NONOVL | CR_HM_NONWRAP);
      memset(m->why, 0, sizeof m->why);
      memset(m->seed, 0, sizeof m->seed);
      memset(m->src, 0, sizeof m->src);
      memset(m->via, 0, sizeof m->via);
    }
  }
  /* per class, the rules of each kind asked that are about it */
  size_t nr = cr_policy_count(p) + 1;
  uint8_t *mask = cr_calloc(nr, 1);
  uint32_t *ix = cr_calloc(4 * nr, sizeof *ix);
  if (!mask || !ix) {
    cr_free(mask);
    cr_free(ix);
    rc = cr_diag_set(d, CR_ENOMEM, -1, "out of memory");
    goto out;
  }
  for (size_t i = 0; i < h->nclasses; i++)
    seed_class(h, p, h->sorted[i], &w, mask, ix, nr);
  cr_free(mask);
  cr_free(ix);
  /* The rules, to a fixed point. */
  mark_live(h);
  while (w.head < w.n && !w.oom) propagate(h, &w, w.v[w.head++], stack);
  if (w.oom) {
    rc = cr_diag_set(d, CR_ENOMEM, -1, "out of memory");
    goto out;
  }
  /* non-overloadable => non-wrappable; summary conflicts. */
  size_t capc = 0;
  for (size_t i = 0; i < h->nclasses; i++) {
    cr_hclass *c = h->sorted[i];
    for (uint32_t k = 0; k < c->nmethods; k++) {
      cr_hmethod *m = &c->methods[k];
      implied(m);
      if (m->saved & 0x80) {
        unsigned now = (m->flags & CR_HM_NONOVL ? 1u : 0) |
                       (m->flags & CR_HM_NONWRAP ? 2u : 0);
        if (now != (m->saved & 3u)) {
          if (h->nconflicts == capc) {
            size_t nc = capc ? capc * 2 : 16;
            const cr_hmethod **v =
                cr_realloc(h->conflicts, nc * sizeof *v);
            if (!v) {
              rc = cr_diag_set(d, CR_ENOMEM, -1, "out of memory");
              goto out;
            }
            h->conflicts = v;
            capc = nc;
          }
          h->conflicts[h->nconflicts++] = m;
        }
      }
    }
  }
  h->analyzed = 1;
out:
  cr_free(w.v);
  cr_free(stack);
  return rc;
}

size_t cr_hier_conflict_count(const cr_hier *h) { return h->nconflicts; }
const cr_hmethod *cr_hier_conflict(const cr_hier *h, size_t i) {
  return i < h->nconflicts ? h->conflicts[i] : NULL;
}

/* ------------------------------------------------------------ reasons */

static void cat(char *buf, size_t n, size_t *len, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void cat(char *buf, size_t n, size_t *len, const char *fmt, ...) {
  if (*len >= n) return;
  va_list ap;
  va_start(ap, fmt);
  int k = vsnprintf(buf + *len, n - *len, fmt, ap);
  va_end(ap);
  if (k > 0) *len += (size_t)k;
  if (*len >= n) *len = n - 1;
}

/* One link of the chain, then the reason of its source (bounded). */
static void reason(const cr_hmethod *m, int what, char *buf, size_t n,
                   size_t *len, int depth) {
  if (depth > 12) {
    cat(buf, n, len, " < ...");
    return;
  }
  const cr_hmethod *src = m->src[what];
  const cr_hclass *via = m->via[what];
  switch (m->why[what]) {
  case R_SEED: cat(buf, n, len, "seed %s", m->seed[what]); return;
  case R_LIBRARY: cat(buf, n, len, "library class"); return;
  case R_NATIVE_NONWRAP:
    cat(buf, n, len, "native and non-wrappable < ");
    reason(m, 1, buf, n, len, depth + 1);
    return;
  case R_IMPLIED:
    cat(buf, n, len, "non-overloadable < ");
    reason(m, 0, buf, n, len, depth + 1);
    return;
  case R_RULE1:
  case R_RULE3:
    cat(buf, n, len, "rule %d %s %s", m->why[what] == R_RULE1 ? 1 : 3,
        m->why[what] == R_RULE1 ? "from subclass" : "via", via->name);
    if (src->owner != via)
      cat(buf, n, len, " inheriting (rule 2) %s.%s%s", src->owner->name,
          src->name, src->desc);
    else
      cat(buf, n, len, ".%s%s", src->name, src->desc);
    cat(buf, n, len, " < ");
    reason(src, 0, buf, n, len, depth + 1);
    return;
  default: return;
  }
}

char *cr_hier_reason(const cr_hmethod *m, int what, char *buf, size_t n) {
  size_t len = 0;
  if (!n) return buf;
  buf[0] = '\0';
  if (what < 0 || what > 1) return buf;
  reason(m, what, buf, n, &len, 0);
  return buf;
}

/* ------------------------------------------------------------ counts */

void cr_hier_stats_get(const cr_hier *h, cr_hier_stats *s) {
  memset(s, 0, sizeof *s);
  s->missing = h->nmissing;
  s->conflicts = h->nconflicts;
  for (size_t i = 0; i < h->nclasses; i++) {
    const cr_hclass *c = h->sorted[i];
    s->classes++;
    if (c->access & ACC_INTERFACE) s->interfaces++;
    if (!c->complete) s->incomplete++;
    if (!c->instrumented) {
      s->library++;
      continue;
    }
    s->instrumented++;
    for (uint32_t k = 0; k < c->nmethods; k++) {
      const cr_hmethod *m = &c->methods[k];
      s->methods++;
      if (m->flags & CR_HM_VIRTUAL) s->virt++;
      if (m->access & ACC_NATIVE) s->natives++;
      if (m->flags & CR_HM_NONWRAP) s->nonwrap++;
      if (!(m->flags & CR_HM_NONOVL)) continue;
      s->nonovl++;
      if (m->access & ACC_NATIVE) s->nonovl_native++;
      switch (m->why[0]) {
      case R_SEED: s->by_seed++; break;
      case R_RULE1: s->by_rule1++; break;
      case R_RULE3: s->by_rule3++; break;
      case R_NATIVE_NONWRAP: s->by_native_nonwrap++; break;
      default: break;
      }
    }
  }
  for (size_t i = 0; i < h->nclasses; i++) {
    const cr_hclass *c = h->sorted[i];
    if (!c->instrumented) continue;
    for (uint32_t k = 0; k < c->nmethods; k++)
      if (c->methods[k].why[1] == R_IMPLIED) s->by_implied++;
  }
  s->coloured = h->coloured;
  s->small_bodies = h->small_bodies;
  s->apart = h->apart;
}

void cr_hier_summary(const cr_hier *h, char *buf, size_t n) {
  cr_hier_stats s;
  cr_hier_stats_get(h, &s);
  snprintf(buf, n,
           "hierarchy: %zu classes (%zu instrumented, %zu library, %zu "
           "interfaces, %zu with missing supertypes; %zu missing names); "
           "instrumented methods: %zu (%zu virtual, %zu native); "
           "non-overloadable %zu (seed %zu, native+non-wrappable %zu, "
           "rule 1 %zu, rule 3 %zu; %zu native); non-wrappable %zu "
           "(%zu because non-overloadable); summary conflicts %zu",
           s.classes, s.instrumented, s.library, s.interfaces, s.incomplete,
           s.missing, s.methods, s.virt, s.natives, s.nonovl, s.by_seed,
           s.by_native_nonwrap, s.by_rule1, s.by_rule3, s.nonovl_native,
           s.nonwrap, s.by_implied, s.conflicts);
  size_t len = strlen(buf);
  if (s.coloured && len < n)
    snprintf(buf + len, n - len, "; method ids coloured: %zu methods or "
             "families, %zu of %zu bodies calling 2-8 of them with each "
             "in its own slot", s.coloured, s.apart, s.small_bodies);
}

/* ------------------------------------------------------------ report */

static void esc(FILE *f, const char *s) { cr_xml_attr(f, s); }

int cr_hier_write_report(const cr_hier *h, FILE *f, cr_diag *d) {
  char why[2048];
  fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<analysis>\n", f);
  for (size_t i = 0; i < h->nclasses; i++) {
    const cr_hclass *c = h->sorted[i];
    if (!c->instrumented) continue;
    fputs("  <class name=\"", f);
    esc(f, c->name);
    fputs("\" super=\"", f);
    esc(f, c->super_name ? c->super_name : "");
    fprintf(f, "\" interface=\"%d\">\n", c->access & ACC_INTERFACE ? 1 : 0);
    for (uint32_t k = 0; k < c->nmethods; k++) {
      const cr_hmethod *m = &c->methods[k];
      int no = !!(m->flags & CR_HM_NONOVL), nw = !!(m->flags & CR_HM_NONWRAP);
      fputs("    <method name=\"", f);
      esc(f, m->name);
      fputs("\" desc=\"", f);
      esc(f, m->desc);
      fprintf(f, "\" native=\"%d\" overloadable=\"%s\" wrappable=\"%s\"",
              m->access & ACC_NATIVE ? 1 : 0, no ? "no" : "yes",
              nw ? "no" : "yes");
      if (no || nw) {
        cr_hier_reason(m, no ? 0 : 1, why, sizeof why);
        fputs(" reason=\"", f);
        esc(f, why);
        fputc('"', f);
      }
      fputs("/>\n", f);
    }
    fputs("  </class>\n", f);
  }
  fputs("</analysis>\n", f);
  if (fflush(f) != 0 || ferror(f))
    return cr_diag_set(d, CR_EIO, -1, "cannot write the analysis report");
  return 0;
}

/*
** What 'propagate' does at class 'c' (not an interface) for the method
** 'm' it inherits, if the method 'c' selects for the signature of 'm' is
** 'm' and non-overloadable: from a class, rule 3 at the interfaces 'c'
** adds; from an interface, rules 1 and 3.
*/
static void inherited(cr_hier *h, work *w, const cr_hclass *c,
                      const cr_hmethod *m) {
  if (!(m->flags & CR_HM_VIRTUAL) || !(m->flags & CR_HM_NONOVL) ||
      cr_hier__declared(h, c, m->name, m->desc) ||
      cr_hier__select(h, c, m->name, m->desc) != m)
    return;
  if (!(m->owner->access & ACC_INTERFACE)) {
    for (uint32_t i = c->super ? c->super->nall : 0; i < c->nall; i++) {
      const cr_hmethod *t = cr_hier__declared(h, c->all[i], m->name, m->desc);
      if (t && (t->flags & CR_HM_VIRTUAL))
        mark(w, (cr_hmethod *)t, R_RULE3, NULL, m, c);
    }
    return;
  }
  if (c->super) {
    const cr_hmethod *t = cr_hier__select(h, c->super, m->name, m->desc);
    if (t && t != m) mark(w, (cr_hmethod *)t, R_RULE1, NULL, m, c);
  }
  for (uint32_t i = 0; i < c->nall; i++) {
    const cr_hmethod *t = cr_hier__declared(h, c->all[i], m->name, m->desc);
    if (t && (t->flags & CR_HM_VIRTUAL) && t != m)
      mark(w, (cr_hmethod *)t, R_RULE3, NULL, m, c);
  }
}

/*
** Extending an analysed hierarchy by one class (the load-time rewriter):
** the class is linked alone (cr_hier__extend_link), gets its seeds, and
** the rules run from what it marks, as they would have run with it among
** the classes: rule 1 and 3 from its own methods, rule 3 for the methods
** it inherits that are non-overloadable at the interfaces it adds. The
** other classes' answers change only where the rules say (a method a
** rewritten class has a twin of may become non-overloadable: its callers
** then reach the new class through owner checks, as with a summary).
*/
int cr_hier_extend(cr_hier *h, cr_class *cf, unsigned kind, uint64_t order,
                   const cr_policy *p, const cr_hclass **out, cr_diag *d) {
  *out = NULL;
  if (!h->analyzed)
    return cr_diag_set(d, CR_EUSAGE, -1, "extending before the analysis");
  cr_hclass *c;
  int rc = cr_hier__extend_link(h, cf, kind, order, &c, d);
  if (rc) return rc;
  work w = {0};
  size_t nr = cr_policy_count(p) + 1;
  uint8_t *mask = cr_calloc(nr, 1);
  uint32_t *ix = cr_calloc(4 * nr, sizeof *ix);
  const cr_hclass **stack = cr_malloc((h->nclasses + 1) * sizeof *stack);
  if (!mask || !ix || !stack) {
    rc = cr_diag_set(d, CR_ENOMEM, -1, "out of memory");
    goto out;
  }
  /* live: it, its superclasses and superinterfaces (see mark_live) */
  if (c->instrumented) {
    for (cr_hclass *x = c; x && !x->live; x = x->super) x->live = 1;
    for (uint32_t k = 0; k < c->nall; k++)
      if (c->all[k]) c->all[k]->live = 1;
  }
  seed_class(h, p, c, &w, mask, ix, nr);
  /* the visits 'propagate' makes at it for what it inherits */
  if (!(c->access & ACC_INTERFACE)) {
    for (const cr_hclass *x = c->super; x; x = x->super)
      for (uint32_t q = 0; q < x->nmethods; q++)
        inherited(h, &w, c, &x->methods[q]);
    for (uint32_t k = 0; k < c->nall; k++)
      for (uint32_t q = 0; c->all[k] && q < c->all[k]->nmethods; q++)
        inherited(h, &w, c, &c->all[k]->methods[q]);
  }
  while (w.head < w.n && !w.oom) propagate(h, &w, w.v[w.head++], stack);
  if (w.oom) {
    rc = cr_diag_set(d, CR_ENOMEM, -1, "out of memory");
    goto out;
  }
  /* non-overloadable => non-wrappable, where anything changed */
  for (uint32_t k = 0; k < c->nmethods; k++) implied(&c->methods[k]);
  for (size_t i = 0; i < w.n; i++) implied((cr_hmethod *)w.v[i]);
  *out = c;
out:
  cr_free(w.v);
  cr_free(stack);
  cr_free(mask);
  cr_free(ix);
  return rc;
}
