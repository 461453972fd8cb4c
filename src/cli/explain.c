/*
** explain.c -- --explain CLASS[.METHOD]: what the rewrite does with one
** class and its methods, and why: where the class comes from and whether
** it is rewritten, then per method the analysis's answers with their
** reason chains and what the instrumentation makes of it
** (cr_xf_method_plan, the decision cr_xf_cccp takes).
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cccp/hier.h"
#include "cccp/xform.h"

/* 'spec' in internal form ("a.b.C" and "a/b/C" alike) into 'out'. */
static void internal(char *out, size_t n, const char *spec, size_t len) {
  size_t k = 0;
  for (size_t i = 0; i < len && k + 1 < n; i++)
    out[k++] = spec[i] == '.' ? '/' : spec[i];
  out[k] = '\0';
}

/*
** Split 'spec' into a known class and a method name (NULL: every method):
** the whole of it as a class, else the part before the last '.', '#' or
** "::" as the class and the rest as the method.
*/
static const cr_hclass *find(const cr_hier *h, const char *spec,
                             char *cls, size_t n, const char **method) {
  *method = NULL;
  internal(cls, n, spec, strlen(spec));
  const cr_hclass *c = cr_hier_class(h, cls);
  if (c) return c;
  const char *sep = strstr(spec, "::");
  size_t skip = 2;
  if (!sep) {
    sep = strrchr(spec, '#');
    skip = 1;
  }
  if (!sep) sep = strrchr(spec, '.');
  if (!sep) return NULL;
  internal(cls, n, spec, (size_t)(sep - spec));
  c = cr_hier_class(h, cls);
  if (c) *method = sep + skip;
  return c;
}

/* Entry 'idx' of 'in', parsed; '*data' (to free) holds its bytes, which
** the model points into. */
static cr_class *parse_entry(cr_input *in, size_t idx, cr_arena *a,
                             uint8_t **data) {
  size_t len = 0;
  cr_diag d;
  cr_diag_clear(&d);
  *data = NULL;
  if (cr_input_read(in, idx, data, &len, &d)) return NULL;
  cr_class *c = NULL;
  if (cr_cf_parse(&c, a, *data, len, &d)) c = NULL;
  return c;
}

static const cr_member *member(const cr_class *cf, const char *name,
                               const char *desc) {
  for (uint32_t k = 0; cf && k < cf->nmethods; k++) {
    const char *n = cr_member_name(cf, &cf->methods[k]);
    const char *de = cr_member_desc(cf, &cf->methods[k]);
    if (n && de && strcmp(n, name) == 0 && strcmp(de, desc) == 0)
      return &cf->methods[k];
  }
  return NULL;
}

/*
** Where the class comes from, and whether it is rewritten: 1 if its
** methods are rewritten, 0 if it stays as it is.
*/
static int explain_class(FILE *f, const cli_opts *o, const cr_hier *h,
                         const cr_hclass *c, cr_input **ins, size_t nins,
                         cr_input **cp, size_t ncp, const cr_class *cf) {
  const char *name = cr_hclass_name(c);
  uint64_t order = cr_hclass_order(c);
  size_t k = (size_t)(order >> 32), idx = (size_t)(order & 0xffffffffu);
  cr_input *in = NULL;
  if (k < nins) in = ins[k];
  else if (k - nins < ncp) in = cp[k - nins];
  char from[PATH_MAX + 600], img[PATH_MAX];
  if ((order >> 32) == CR_HIER_EXTERNAL)
    snprintf(from, sizeof from, "the JDK read as a library (%s)",
             o->jdk_lib ? o->jdk_lib
             : cli_default_jdk(img, sizeof img) == 0 ? img : "?");
  else if (in && idx < cr_input_count(in)) {
    cr_entry_info e;
    cr_input_info(in, idx, &e);
    snprintf(from, sizeof from, "%s, entry %s%s%s", cr_input_path(in),
             e.module ? e.module : "", e.module ? "/" : "", e.name);
  } else
    snprintf(from, sizeof from, "a summary (--summary)");
  fprintf(f, "%s%s\n  from %s\n", name,
          cr_hclass_access(c) & 0x0200 ? " (interface)" : "", from);
  const char *why = NULL;
  int rewritten = 0;
  if (!cr_hclass_instrumented(c)) {
    if (cr_hclass_in_jdk_package(c))
      why = "library, copied unchanged: a module of the JDK owns its "
            "package, so the JVM never loads this copy (JEP 261)";
    else if (cr_hclass_jdk_module(c) && cr_hier_mid_count(h) &&
             strcmp(name, "java/lang/Object") == 0)
      why = "left as it is: an instrumented JDK keeps java.lang.Object "
            "(HotSpot takes a non-empty Object.finalize for every class's "
            "finalizer); calls to its methods are nodes at their call sites";
    else if (cr_hclass_jdk_module(c))
      why = "library: a class of the JDK, which is not rewritten (give "
            "--jdk to instrument the JDK); calls to its methods are nodes "
            "made at their call sites";
    else if (k >= nins && k - nins < ncp)
      why = "library: a class-path entry's (--classpath, or a jar a "
            "manifest names that is not rewritten); calls to its methods "
            "are nodes made at their call sites";
    else
      why = "library: not among the inputs; calls to its methods are "
            "nodes made at their call sites";
  } else if (strncmp(name, "cccp/rt/", 8) == 0)
    why = "left unchanged: part of the cccp runtime";
  else if (cf && cr_xf_instrumented_already(cf))
    why = "left unchanged: instrumented already (a descriptor names "
          "cccp.rt.CC)";
  else {
    why = "rewritten: a class of the inputs";
    rewritten = 1;
  }
  fprintf(f, "  %s\n", why);
  if (cr_hclass_redefined(c))
    fprintf(f, "  another definition of this name, with other supertypes "
            "or methods, is hidden: the JVM loads the one first on the "
            "class path; calls resolving through it use the thread-local "
            "protocol\n");
  if (!cr_hclass_complete(c))
    fprintf(f, "  some supertypes are missing (add them with "
            "--classpath): its methods get the safe answers\n");
  return rewritten;
}

static void explain_method(FILE *f, const cli_opts *o,
                           const struct cr_hier *h, const cr_hmethod *m,
                           int rewritten, const cr_class *cf) {
  char buf[2048];
  const char *name = cr_hmethod_name(m), *desc = cr_hmethod_desc(m);
  fprintf(f, "  %s%s\n", name, desc);
  unsigned hf = cr_hmethod_flags(m);
  if (!(hf & CR_HM_NONOVL)) fprintf(f, "    overloadable: yes\n");
  else fprintf(f, "    overloadable: no: %s\n", cr_hier_reason(m, 0, buf,
                                                               sizeof buf));
  if (!(hf & CR_HM_NONWRAP)) fprintf(f, "    wrappable: yes\n");
  else fprintf(f, "    wrappable: no: %s\n", cr_hier_reason(m, 1, buf,
                                                            sizeof buf));
  if (!rewritten) {
    if (cr_hclass_instrumented(cr_hmethod_class(m))) return;
    if (hf & CR_HM_LEAF)
      fprintf(f, "    leaf: yes: runs no instrumented code, so a call that "
              "names it makes its node without publishing it in the slot\n");
    else
      fprintf(f, "    leaf: no: %s; so a call makes its node and publishes "
              "it in the slot\n", cr_hier_leaf_reason(h, m, buf, sizeof buf));
    return;
  }
  const cr_member *mb = member(cf, name, desc);
  const char *why = NULL;
  cr_xf_plan p = cr_xf_method_plan(hf, name, desc, cr_hmethod_access(m),
                                   mb ? cr_member_code(mb) : NULL, o->n2b,
                                   &why);
  fprintf(f, "    instrumentation: %s%s%s\n", cr_xf_plan_text(p),
          why && *why ? ": " : "", why ? why : "");
}

int cli_explain(const cli_opts *o, const struct cr_hier *h, cr_input **ins,
                size_t nins, cr_input **cp, size_t ncp, FILE *f) {
  char cls[4096];
  const char *method = NULL;
  const cr_hclass *c = find(h, o->explain, cls, sizeof cls, &method);
  if (!c) {
    fprintf(stderr, "cccp-rewrite: --explain %s: no such class among the "
            "inputs, the class path, the summaries or the JDK\n", o->explain);
    return EXIT_INPUT;
  }
  uint64_t order = cr_hclass_order(c);
  size_t k = (size_t)(order >> 32), idx = (size_t)(order & 0xffffffffu);
  cr_arena *a = cr_arena_new();
  if (!a) {
    fputs("cccp-rewrite: out of memory\n", stderr);
    return EXIT_OUTPUT;
  }
  uint8_t *data = NULL;
  const cr_class *cf = k < nins && idx < cr_input_count(ins[k])
                           ? parse_entry(ins[k], idx, a, &data)
                           : NULL;
  int rewritten = explain_class(f, o, h, c, ins, nins, cp, ncp, cf);
  size_t shown = 0;
  for (uint32_t i = 0; i < cr_hclass_method_count(c); i++) {
    const cr_hmethod *m = cr_hclass_method_at(c, i);
    if (method && strcmp(cr_hmethod_name(m), method) != 0) continue;
    explain_method(f, o, h, m, rewritten, cf);
    shown++;
  }
  cr_arena_free(a);
  cr_free(data);
  if (method && !shown) {
    fprintf(stderr, "cccp-rewrite: --explain %s: %s declares no method "
            "named %s\n", o->explain, cls, method);
    return EXIT_INPUT;
  }
  return EXIT_OK;
}

void cli_explain_verbose(const struct cr_hier *h, size_t nins, int list,
                         FILE *f) {
  char buf[2048];
  size_t nlib = 0, nno = 0;
  for (size_t i = 0; i < cr_hier_class_count(h); i++) {
    const cr_hclass *c = cr_hier_class_at(h, i);
    if ((cr_hclass_order(c) >> 32) >= nins) continue;
    const char *name = cr_hclass_name(c);
    if (!cr_hclass_instrumented(c)) {
      if (cr_hclass_in_jdk_package(c)) {
        if (list)
          fprintf(f, "cccp-rewrite: %s: library, copied unchanged: a JDK "
                  "module owns its package (JEP 261)\n", name);
        nlib++;
      }
      continue;
    }
    for (uint32_t k = 0; k < cr_hclass_method_count(c); k++) {
      const cr_hmethod *m = cr_hclass_method_at(c, k);
      if (!(cr_hmethod_flags(m) & CR_HM_NONOVL) ||
          strcmp(cr_hmethod_name(m), "<clinit>") == 0)
        continue;
      if (list)
        fprintf(f, "cccp-rewrite: %s.%s%s: non-overloadable: %s\n", name,
                cr_hmethod_name(m), cr_hmethod_desc(m),
                cr_hier_reason(m, 0, buf, sizeof buf));
      nno++;
    }
  }
  fprintf(f, "cccp-rewrite: %zu non-overloadable methods of the inputs "
          "(no twin: instrumented in place, callers use the thread-local "
          "protocol; <clinit> left out) and %zu of their classes kept as "
          "libraries (JEP 261)%s; --explain CLASS[.METHOD] explains one\n",
          nno, nlib, list ? ", listed above" : ": -vv lists them");
}
