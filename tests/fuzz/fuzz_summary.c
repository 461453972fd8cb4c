/*
** fuzz_summary.c -- fuzz target: a hierarchy summary file (--summary)
** through its reader. A bad file is CR_EFORMAT/CR_EUNSUPPORTED with a
** diagnostic and adds nothing; a good one links, analyses and saves, and
** what was saved loads again. A file with the summary magic is tried a
** second time with its length and CRC-32 fields made right, so that the
** fuzzer reaches the payload reader behind the checksum.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "cccp/hier.h"
#include "cccp/policy.h"
#include "fuzz.h"

static void one(const uint8_t *data, size_t size) {
  const char *path = fuzz_scratch(data, size);
  cr_diag d;
  cr_diag_clear(&d);
  cr_hier *h;
  if (cr_hier_new(&h, &d) != 0) fuzz_fail("cr_hier_new: %s", d.msg);
  int rc = cr_hier_load(h, path, &d);
  if (rc) {
    fuzz_check_diag(&d, rc, size, "cr_hier_load");
    FUZZ_CHECK(cr_hier_class_count(h) == 0,
               "a rejected summary added %zu classes", cr_hier_class_count(h));
    cr_hier_free(h);
    return;
  }
  if (cr_hier_link(h, &d) == 0) {
    cr_policy *p;
    if (cr_policy_new(&p, 1, &d) != 0) fuzz_fail("policy: %s", d.msg);
    rc = cr_hier_analyze(h, p, &d);
    FUZZ_CHECK(rc == 0, "analysis of a loaded summary: %s", d.msg);
    cr_policy_free(p);
    char out[] = "/tmp/cccp-fuzz-sum-XXXXXX";
    int fd = mkstemp(out);
    if (fd < 0) fuzz_fail("mkstemp");
    close(fd);
    rc = cr_hier_save(h, out, &d);
    FUZZ_CHECK(rc == 0, "save of a loaded summary: %s", d.msg);
    cr_hier *h2;
    if (cr_hier_new(&h2, &d) != 0) fuzz_fail("cr_hier_new: %s", d.msg);
    rc = cr_hier_load(h2, out, &d);
    FUZZ_CHECK(rc == 0, "a saved summary does not load: %s", d.msg);
    cr_hier_free(h2);
    unlink(out);
  }
  cr_hier_free(h);
}

int fuzz_summary(const uint8_t *data, size_t size) {
  one(data, size);
  if (size < 24 || memcmp(data, "CCCPHIER", 8) != 0) return 0;
  uint8_t *fixed = malloc(size);
  if (!fixed) fuzz_fail("out of memory");
  memcpy(fixed, data, size);
  uint64_t plen = size - 24;
  for (int i = 0; i < 8; i++) fixed[16 + i] = (uint8_t)(plen >> (56 - 8 * i));
  uLong crc = crc32(crc32(0L, Z_NULL, 0), fixed + 24, (uInt)plen);
  for (int i = 0; i < 4; i++) fixed[12 + i] = (uint8_t)(crc >> (24 - 8 * i));
  one(fixed, size);
  free(fixed);
  return 0;
}
