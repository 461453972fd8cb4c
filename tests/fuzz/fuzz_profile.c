/*
** fuzz_profile.c -- fuzz target: profile XML (cccp-report's input),
** plain or gzip-compressed, through the streaming reader. No crash, no
** leak, no network or entity expansion, nothing printed by libxml2; a
** failure leaves one diagnostic of one line, "fuzz:LINE: ..." for a
** malformed document, "fuzz: ... gzip data" for bad gzip data. A profile
** that loads keeps the invariants the commands rely on (ids in range,
** parents before children, sibling links consistent), writes out and
** reads back the same, plain and gzipped, merges with itself into the
** same contexts, and compares with itself at 100%.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/xmlerror.h>
#include <zlib.h>

#include "cccp/profile.h"
#include "fuzz.h"

static void loud(void *ctx, const char *msg, ...) {
  (void)ctx;
  fuzz_fail("libxml2 printed: %s", msg);
}

static void loud_structured(void *ctx, xmlErrorPtr e) {
  (void)ctx;
  fuzz_fail("libxml2 reported: %s", e && e->message ? e->message : "?");
}

/* The structure the commands walk without checks. */
static void invariants(const cr_profile *p) {
  FUZZ_CHECK(p->nmetrics >= 1 && p->nmetrics <= CR_PROF_MAX_METRICS,
             "%zu metrics", p->nmetrics);
  FUZZ_CHECK(strcmp(p->metric[0], "calls") == 0, "metric 0 is not calls");
  for (size_t t = 0; t < p->ntrees; t++) {
    uint32_t c = p->trees[t].child;
    FUZZ_CHECK(c <= p->nnodes, "tree %zu: child %u", t, c);
    FUZZ_CHECK(!c || (p->nodes[c].parent == 0 && p->nodes[c].tree == t),
               "tree %zu: first child %u not its own", t, c);
  }
  for (size_t i = 1; i <= p->nnodes; i++) {
    const cr_prof_node *x = &p->nodes[i];
    FUZZ_CHECK(x->method >= 1 && x->method <= p->nmethods,
               "node %zu: method %u", i, x->method);
    FUZZ_CHECK(x->parent < i, "node %zu: parent %u after it", i, x->parent);
    FUZZ_CHECK(x->tree < p->ntrees, "node %zu: tree %u", i, x->tree);
    FUZZ_CHECK(!x->parent || p->nodes[x->parent].tree == x->tree,
               "node %zu: parent in another tree", i);
    FUZZ_CHECK(x->child == 0 || (x->child > i && x->child <= p->nnodes &&
                                 p->nodes[x->child].parent == i),
               "node %zu: bad first child %u", i, x->child);
    FUZZ_CHECK(x->next == 0 || (x->next > i && x->next <= p->nnodes &&
                                p->nodes[x->next].parent == x->parent),
               "node %zu: bad next sibling %u", i, x->next);
  }
}

/* 'len' bytes at 'p' gzipped into a malloc'd block ('*out' its size). */
static unsigned char *gzip(const void *p, size_t len, size_t *out) {
  z_stream z;
  memset(&z, 0, sizeof z);
  FUZZ_CHECK(deflateInit2(&z, 1, Z_DEFLATED, 16 + MAX_WBITS, 8,
                          Z_DEFAULT_STRATEGY) == Z_OK, "deflateInit2");
  size_t cap = deflateBound(&z, (uLong)len);
  unsigned char *b = malloc(cap);
  FUZZ_CHECK(b != NULL, "out of memory");
  z.next_in = (unsigned char *)p;
  z.avail_in = (uInt)len;
  z.next_out = b;
  z.avail_out = (uInt)cap;
  FUZZ_CHECK(deflate(&z, Z_FINISH) == Z_STREAM_END, "deflate");
  *out = cap - z.avail_out;
  deflateEnd(&z);
  return b;
}

/* Sum of the calls, or UINT64_MAX when it overflows. */
static uint64_t calls(const cr_profile *p) {
  uint64_t s = 0;
  for (size_t i = 1; i <= p->nnodes; i++) {
    if (p->nodes[i].calls > UINT64_MAX - 1 - s) return UINT64_MAX;
    s += p->nodes[i].calls;
  }
  return s;
}

int fuzz_profile(const uint8_t *data, size_t size) {
  xmlSetGenericErrorFunc(NULL, loud);
  xmlSetStructuredErrorFunc(NULL, loud_structured);
  cr_diag d;
  cr_diag_clear(&d);
  cr_profile *p = NULL;
  int rc = cr_profile_load_memory(&p, (const char *)data, size, "fuzz", &d);
  if (rc) {
    fuzz_check_diag(&d, rc, size, "cr_profile_load_memory");
    FUZZ_CHECK(p == NULL, "a failed load returned a profile");
    FUZZ_CHECK(!strchr(d.msg, '\n'), "message of two lines: %s", d.msg);
    if (rc == CR_EFORMAT)
      FUZZ_CHECK((strncmp(d.msg, "fuzz:", 5) == 0 && d.msg[5] >= '0' &&
                  d.msg[5] <= '9') ||
                     (strncmp(d.msg, "fuzz: ", 6) == 0 &&
                      strstr(d.msg, " gzip data")),
                 "no FILE:LINE in: %s", d.msg);
    return 0;
  }
  invariants(p);

  /* Write, read back: the same shape and values. */
  char *text = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&text, &len);
  if (!f) fuzz_fail("open_memstream");
  FUZZ_CHECK(cr_profile_write(p, f, &d) == 0, "write: %s", d.msg);
  fclose(f);
  cr_profile *q = NULL;
  rc = cr_profile_load_memory(&q, text, len, "written", &d);
  FUZZ_CHECK(rc == 0, "the written profile does not load: %s", d.msg);
  FUZZ_CHECK(q->nnodes == p->nnodes && q->nmethods == p->nmethods &&
                 q->ntrees == p->ntrees,
             "read back: %zu/%zu/%zu nodes/methods/trees, wrote %zu/%zu/%zu",
             q->nnodes, q->nmethods, q->ntrees, p->nnodes, p->nmethods,
             p->ntrees);
  for (size_t k = 0; k < p->nmetrics; k++) {
    int kq = cr_profile_find_metric(q, p->metric[k]);
    int used = k == 0;
    for (uint32_t i = 1; i <= p->nnodes && !used; i++)
      used = cr_profile_value(p, k, i) != 0;
    if (!used) continue;   /* all zero: not written, not read back */
    FUZZ_CHECK(kq >= 0, "metric %s lost", p->metric[k]);
    for (uint32_t i = 1; i <= p->nnodes; i++)
      FUZZ_CHECK(cr_profile_value(q, (size_t)kq, i) ==
                     cr_profile_value(p, k, i),
                 "node %u: metric %s changed", i, p->metric[k]);
  }
  for (size_t i = 1; i <= p->nnodes; i++)
    FUZZ_CHECK(q->nodes[i].parent == p->nodes[i].parent &&
                   q->nodes[i].method == p->nodes[i].method,
               "node %zu moved", i);
  cr_profile_free(q);
  size_t zlen;
  unsigned char *z = gzip(text, len, &zlen);
  rc = cr_profile_load_memory(&q, (const char *)z, zlen, "written.gz", &d);
  FUZZ_CHECK(rc == 0, "the written profile, gzipped, does not load: %s",
             d.msg);
  FUZZ_CHECK(q->nnodes == p->nnodes && q->nmethods == p->nmethods &&
                 q->ntrees == p->ntrees && q->nmetrics <= p->nmetrics,
             "read back from gzip: %zu/%zu/%zu nodes/methods/trees",
             q->nnodes, q->nmethods, q->ntrees);
  for (size_t i = 1; i <= p->nnodes; i++)
    FUZZ_CHECK(q->nodes[i].parent == p->nodes[i].parent &&
                   q->nodes[i].method == p->nodes[i].method &&
                   q->nodes[i].calls == p->nodes[i].calls,
               "node %zu changed through gzip", i);
  cr_profile_free(q);
  free(z);
  free(text);

  /* Merged with itself, threads in one: the same contexts, counts
     doubled; compared with the original: 100% when nothing overflowed. */
  const cr_profile *two[] = {p, p};
  cr_profile *m = NULL;
  rc = cr_profile_merge(&m, two, 2, CR_MERGE_ALL, &d);
  FUZZ_CHECK(rc == 0 || rc == CR_ETOOLARGE, "merge: %s", d.msg);
  if (!rc) {
    invariants(m);
    FUZZ_CHECK(m->ntrees == 1, "merged into %zu trees", m->ntrees);
    FUZZ_CHECK(m->nnodes <= p->nnodes, "merging added nodes");
    uint64_t s = calls(p);
    cr_cmp_result r;
    FUZZ_CHECK(cr_profile_compare(&r, p, m, NULL, 3, &d) == 0, "compare: %s",
               d.msg);
    if (s < UINT64_MAX / 2)
      FUZZ_CHECK(r.overlap == 100.0 && r.total_b == 2 * s,
                 "self-merge overlaps %.6f%%, calls %llu of %llu", r.overlap,
                 (unsigned long long)r.total_b, (unsigned long long)(2 * s));
    cr_cmp_result_free(&r);
    cr_profile_free(m);
  }
  cr_profile_free(p);
  return 0;
}
