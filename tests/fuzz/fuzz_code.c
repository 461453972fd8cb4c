/*
** fuzz_code.c -- fuzz target: class bytes past the parser, through the
** stages that change code: every method decoded into the instruction IR,
** re-encoded with frames computed from scratch (as --reencode does, and
** under stress probes), and the CCCP instrumentation against a hierarchy
** that holds just this class and the built-in policy. Whatever a stage
** reports, the class it leaves must write, and what it writes must parse.
*/
#include <string.h>

#include "cccp/analysis.h"
#include "cccp/classfile.h"
#include "cccp/hier.h"
#include "cccp/policy.h"
#include "cccp/xform.h"
#include "fuzz.h"

/* 'c' writes, and its bytes parse again. */
static void writes(cr_class *c, const char *stage) {
  cr_diag d;
  cr_diag_clear(&d);
  cr_buf b;
  cr_buf_init(&b);
  int rc = cr_cf_write(&b, c, &d);
  if (rc == CR_ETOOLARGE) {       /* a count over its class-file limit */
    cr_buf_free(&b);
    return;
  }
  FUZZ_CHECK(rc == 0 && !b.err, "%s: the class does not write: %s", stage,
             d.msg);
  cr_arena *a = cr_arena_new();
  if (!a) fuzz_fail("out of memory");
  cr_class *c2;
  rc = cr_cf_parse(&c2, a, b.data, b.len, &d);
  FUZZ_CHECK(rc == 0, "%s: what it wrote does not parse: offset %ld: %s",
             stage, d.offset, d.msg);
  cr_arena_free(a);
  cr_buf_free(&b);
}

static void reencode(const uint8_t *data, size_t size, unsigned flags) {
  cr_arena *a = cr_arena_new();
  if (!a) fuzz_fail("out of memory");
  cr_diag d;
  cr_diag_clear(&d);
  cr_class *c;
  if (cr_cf_parse(&c, a, data, size, &d) == 0) {
    int rc = cr_reencode_class(c, a, NULL, flags, &d);
    if (rc) fuzz_check_diag(&d, rc, size, "cr_reencode_class");
    writes(c, flags ? "stress probes" : "re-encoding");
  }
  cr_arena_free(a);
}

static void instrument(const uint8_t *data, size_t size) {
  cr_arena *a = cr_arena_new();
  cr_hier *h = NULL;
  cr_policy *p = NULL;
  if (!a) fuzz_fail("out of memory");
  cr_diag d;
  cr_diag_clear(&d);
  cr_class *c;
  if (cr_cf_parse(&c, a, data, size, &d) != 0 || cr_hier_new(&h, &d) != 0)
    goto out;
  if (cr_hier_add_class(h, c, 1, 0, &d) != 0 || cr_hier_link(h, &d) != 0)
    goto out;                     /* no name, a cycle: bad input */
  if (cr_policy_new(&p, 1, &d) != 0) fuzz_fail("built-in policy: %s", d.msg);
  int rc = cr_hier_analyze(h, p, &d);
  FUZZ_CHECK(rc == 0, "analysis of one class: %s", d.msg);
  cr_typeinfo ti = cr_hier_typeinfo(h);
  cr_xf_opts o;
  memset(&o, 0, sizeof o);
  o.h = h;
  o.env.ti = &ti;
  rc = cr_xf_cccp(c, &o, &d);
  if (rc) {
    /* the caller then writes the input unchanged */
    fuzz_check_diag(&d, rc, size, "cr_xf_cccp");
    FUZZ_CHECK(rc == CR_ENOMEM || rc == CR_ETOOLARGE ||
                   rc == CR_EUNSUPPORTED || rc == CR_EFORMAT,
               "cr_xf_cccp failed with code %d: %s", rc, d.msg);
  } else {
    writes(c, "instrumentation");
  }
out:
  cr_policy_free(p);
  cr_hier_free(h);
  cr_arena_free(a);
}

int fuzz_code(const uint8_t *data, size_t size) {
  reencode(data, size, 0);
  reencode(data, size, CR_REENCODE_STRESS);
  instrument(data, size);
  return 0;
}
