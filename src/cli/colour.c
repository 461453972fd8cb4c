/*
** colour.c -- the static call graph for the method ids' colours
** ('cr_hier_colour'): a second pass over the inputs, after the analysis,
** that records the methods each instrumented body calls, as the calls
** resolve (JVMS 5.4.3.3, 5.4.3.4): the method whose id a call site or
** the callee's prologue enters. The JDK's own classes are left out: in
** JDK mode their ids are fixed, and leaving them out gives an
** application the same colours rewritten with the JDK or against its
** summary.
*/
#include <string.h>

#include "cccp/bytecode.h"
#include "cccp/hier.h"
#include "cli.h"

/* The method invoke 'op' at 'p' names resolves to, or NULL. */
static const cr_hmethod *callee(const cr_hier *h, cr_class *c,
                                const uint8_t *p) {
  cr_cpool *cp = c->cp;
  const cr_cpentry *ref = cr_cp_get(cp, (uint32_t)p[1] << 8 | p[2]);
  const cr_cpentry *nat = ref ? cr_cp_get(cp, ref->b) : NULL;
  const char *owner = ref ? cr_cp_class_name(cp, ref->a) : NULL;
  const char *name = nat ? cr_cp_str(cp, nat->a) : NULL;
  const char *desc = nat ? cr_cp_str(cp, nat->b) : NULL;
  if (!owner || !name || !desc) return NULL;
  return cr_hier_resolve(h, owner, name, desc, NULL);
}

static int one(void *ctx, cr_class *c, cr_input *in, size_t idx,
               cr_diag *d) {
  cr_hier *h = ctx;
  (void)in;
  (void)idx;
  const char *name = cr_cf_this_name(c);
  const cr_hclass *k = name ? cr_hier_class(h, name) : NULL;
  if (!k || !cr_hclass_instrumented(k) || cr_hclass_jdk_module(k)) return 0;
  /* one more than the hierarchy takes: a larger body records nothing */
  const cr_hmethod *v[CR_HIER_COLOUR_BODY_MAX + 1];
  for (uint32_t i = 0; i < c->nmethods; i++) {
    const cr_code *code = cr_member_code(&c->methods[i]);
    if (!code) continue;
    size_t n = 0;
    const uint8_t *p = code->code;
    for (uint32_t off = 0, len;
         off < code->code_len && n <= CR_HIER_COLOUR_BODY_MAX; off += len) {
      len = cr_code_insn_len(p, off, code->code_len);
      if (len == 0) break;
      unsigned op = p[off];
      if (op != CR_OP_INVOKEVIRTUAL && op != CR_OP_INVOKESPECIAL &&
          op != CR_OP_INVOKESTATIC && op != CR_OP_INVOKEINTERFACE)
        continue;
      /* a call whose result is thrown runs once, on the way out */
      if (off + len < code->code_len && p[off + len] == CR_OP_ATHROW)
        continue;
      const cr_hmethod *m = callee(h, c, p + off);
      size_t j = 0;
      while (m && j < n && v[j] != m) j++;
      if (m && j == n) v[n++] = m;
    }
    int rc = cr_hier_colour_body(h, v, n, d);
    if (rc) return rc;
  }
  return 0;
}

/* 1 if 'in' holds a JDK's modules (an image, a jmod, a patch), whose
** classes' ids are fixed (JDK mode) or which are not rewritten. */
static int jdk_input(const cli_opts *o, cr_input *in) {
  if (cli_input_module(o, in)) return 1;
  for (size_t i = 0; i < cr_input_count(in); i++) {
    cr_entry_info info;
    cr_input_info(in, i, &info);
    if (!info.is_dir) return cli_jdk_module(info.module);
  }
  return 0;
}

int cli_colour(const cli_opts *o, cr_hier *h, cr_input **ins, size_t nins,
               cr_diag *d) {
  cr_input **v = cr_calloc(nins ? nins : 1, sizeof *v);
  if (!v) return cr_diag_set(d, CR_ENOMEM, -1, "out of memory");
  size_t n = 0;
  for (size_t i = 0; i < nins; i++)
    if (!jdk_input(o, ins[i])) v[n++] = ins[i];
  int rc = n ? cli_scan(v, n, o->jobs, 0, one, h, d) : 0;
  cr_free(v);
  return rc ? rc : cr_hier_colour(h, d);
}
