/*
** fuzz_policy.c -- fuzz target: policy XML (cccp-rewrite --policy) through
** the libxml2 reader. No crash, no leak, no network or entity expansion,
** nothing printed by libxml2 (the error is one line of ours); a failure
** leaves one diagnostic; a policy that loads prints as XML that loads
** again into the same number of rules.
*/
#include <stdio.h>
#include <stdlib.h>

#include <libxml/xmlerror.h>

#include "cccp/policy.h"
#include "fuzz.h"

/* libxml2's own channels: the reader must keep them quiet. */
static void loud(void *ctx, const char *msg, ...) {
  (void)ctx;
  fuzz_fail("libxml2 printed: %s", msg);
}

static void loud_structured(void *ctx, xmlErrorPtr e) {
  (void)ctx;
  fuzz_fail("libxml2 reported: %s", e && e->message ? e->message : "?");
}

int fuzz_policy(const uint8_t *data, size_t size) {
  xmlSetGenericErrorFunc(NULL, loud);
  xmlSetStructuredErrorFunc(NULL, loud_structured);
  cr_diag d;
  cr_diag_clear(&d);
  cr_policy *p;
  if (cr_policy_new(&p, 0, &d) != 0) fuzz_fail("empty policy: %s", d.msg);
  int rc = cr_policy_load_mem(p, (const char *)data, size, "fuzz", &d);
  if (rc) {
    fuzz_check_diag(&d, rc, size, "cr_policy_load_mem");
    cr_policy_free(p);
    return 0;
  }
  /* the lookups of the JDK-mode kinds, asked with each rule's own
  ** strings: an entry that no removal cancels finds itself or an earlier
  ** entry */
  for (size_t i = 0; i < cr_policy_count(p); i++) {
    const cr_pol_rule *r = cr_policy_rule(p, i);
    int gone = cr_policy_removed(p, i), k = -2;
    if (r->kind == CR_POL_REDIRECT)
      k = cr_policy_redirect(p, r->cls, &r->from);
    else if (r->kind == CR_POL_THREAD_ENTRY || r->kind == CR_POL_UPCALL)
      k = cr_policy_find(p, r->kind, r->cls, r->name, r->desc);
    FUZZ_CHECK(k == -2 || (gone ? k < 0 : k >= 0 && (size_t)k <= i),
               "rule %zu (%s): lookup %d, removed %d", i, r->id, k, gone);
  }
  char *text = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&text, &len);
  if (!f) fuzz_fail("open_memstream");
  FUZZ_CHECK(cr_policy_print(p, f) == 0, "a loaded policy does not print");
  fclose(f);
  cr_policy *q;
  if (cr_policy_new(&q, 0, &d) != 0) fuzz_fail("empty policy: %s", d.msg);
  rc = cr_policy_load_mem(q, text, len, "printed", &d);
  FUZZ_CHECK(rc == 0, "the printed policy does not load: %s\n%s", d.msg,
             text);
  FUZZ_CHECK(cr_policy_count(q) == cr_policy_count(p),
             "printed policy has %zu rules, the original %zu",
             cr_policy_count(q), cr_policy_count(p));
  cr_policy_free(q);
  cr_policy_free(p);
  free(text);
  return 0;
}
