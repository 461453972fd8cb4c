/*
** cct-compare.c -- compare two calling-context profiles (overlap
** percentage and the largest differences), or check a profile against an
** expectation file (--expect). See usage() for the options.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cccp/profile.h"

static void usage(FILE *f) {
  fputs("Usage: cct-compare [OPTIONS] A.xml B.xml\n"
        "       cct-compare [OPTIONS] --expect EXPECT.txt PROFILE.xml\n"
        "Prints the overlap percentage of two profiles (CCCP paper 6.1)\n"
        "and the contexts whose calls differ most.\n"
        "  --app-prefix P        application classes start with P "
        "(repeatable);\n"
        "                        only app-visible contexts count\n"
        "  --collapse-generated  remove lambda/LambdaForm/reflection/proxy "
        "frames\n"
        "  --hide-vm-upcalls     frames the JVM calls without an invoke "
        "bytecode\n"
        "                        (class loading, linkage, library "
        "<clinit>, implicit\n"
        "                        exceptions) count as library internals\n"
        "  --hide CLS.NAME       hide the frames of method CLS.NAME "
        "(pkg/Cls.name) on\n"
        "                        both sides, like VM upcalls "
        "(repeatable);\n"
        "                        PREFIX* hides every method of the classes "
        "named so\n"
        "  --library-by-name     with --app-prefix: library frames match "
        "by name+desc\n"
        "  --top N               list N differences (default 10)\n"
        "  --min-overlap X       exit 1 when the overlap is below X percent\n"
        "  --expect FILE         check PROFILE against FILE (lines "
        "\"CALLS FRAME > ...\"):\n"
        "                        every listed context must have exactly its "
        "calls,\n"
        "                        every unlisted context ending in an app "
        "method\n"
        "                        is an error; exit 1 on any mismatch\n"
        "  --contexts            print the (visible) contexts of ONE profile "
        "in the\n"
        "                        --expect format, sorted by path\n"
        "Exit: 0 ok, 1 below --min-overlap or expectation mismatch, "
        "2 usage or unreadable file.\n",
        f);
}

static int bypath(const void *a, const void *b) {
  return strcmp(((const cr_cmp_diff *)a)->path,
                ((const cr_cmp_diff *)b)->path);
}

int main(int argc, char **argv) {
  const char *files[2] = {NULL, NULL}, *expect = NULL;
  int contexts = 0;
  const char **pre = calloc((size_t)argc, sizeof *pre);
  const char **hide = calloc((size_t)argc, sizeof *hide);
  if (!pre || !hide) {
    fprintf(stderr, "cct-compare: out of memory\n");
    return 2;
  }
  cr_cmp_opts o;
  memset(&o, 0, sizeof o);
  size_t top = 10, nf = 0;
  double min = -1;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (strcmp(a, "--app-prefix") == 0 && i + 1 < argc) {
      pre[o.napp++] = argv[++i];
    } else if (strcmp(a, "--collapse-generated") == 0) {
      o.collapse_generated = 1;
    } else if (strcmp(a, "--hide") == 0 && i + 1 < argc) {
      hide[o.nhide++] = argv[++i];
    } else if (strcmp(a, "--hide-vm-upcalls") == 0) {
      o.hide_vm_upcalls = 1;
    } else if (strcmp(a, "--library-by-name") == 0) {
      o.library_by_name = 1;
    } else if (strcmp(a, "--top") == 0 && i + 1 < argc) {
      char *e;
      long v = strtol(argv[++i], &e, 10);
      if (*e || v < 0) goto usage;
      top = (size_t)v;
    } else if (strcmp(a, "--min-overlap") == 0 && i + 1 < argc) {
      char *e;
      min = strtod(argv[++i], &e);
      if (*e) goto usage;
    } else if (strcmp(a, "--expect") == 0 && i + 1 < argc) {
      expect = argv[++i];
    } else if (strcmp(a, "--contexts") == 0) {
      contexts = 1;
    } else if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
      usage(stdout);
      return 0;
    } else if (a[0] == '-' && a[1]) {
      goto usage;
    } else if (nf < 2) {
      files[nf++] = a;
    } else {
      goto usage;
    }
  }
  if (nf != (expect || contexts ? 1u : 2u) || (expect && contexts))
    goto usage;
  o.app_prefix = pre;
  o.hide = hide;

  cr_diag d;
  cr_diag_clear(&d);
  cr_profile *pa = NULL, *pb = NULL;
  int rc = expect ? cr_profile_load_expect(&pa, expect, &d)
                  : cr_profile_load(&pa, files[0], &d);
  if (!rc && contexts && !(pb = cr_profile_new("empty")))
    rc = cr_diag_set(&d, CR_ENOMEM, -1, "out of memory");
  else if (!rc && !contexts)
    rc = cr_profile_load(&pb, expect ? files[0] : files[1], &d);
  if (rc) {
    char msg[1600];
    cr_diag_format(&d, msg, sizeof msg);
    fprintf(stderr, "cct-compare: %s\n", msg);
    cr_profile_free(pa);
    free(pre);
    free(hide);
    return 2;
  }
  cr_cmp_result r;
  rc = cr_profile_compare(&r, pa, pb, &o,
                          expect || contexts ? SIZE_MAX : top, &d);
  int status = 0;
  if (rc) {
    fprintf(stderr, "cct-compare: %s\n", d.msg);
    status = 2;
  } else if (contexts) {
    qsort(r.diff, r.ndiff, sizeof *r.diff, bypath);
    for (size_t i = 0; i < r.ndiff; i++)
      printf("%llu %s\n", (unsigned long long)r.diff[i].a, r.diff[i].path);
  } else if (expect) {
    size_t bad = 0, ignored = 0;
    for (size_t i = 0; i < r.ndiff; i++) {
      const cr_cmp_diff *x = &r.diff[i];
      if (!x->in_a && !x->leaf_app) {
        ignored++;
        continue;
      }
      bad++;
      if (!x->in_a)
        printf("unexpected: %llu %s\n", (unsigned long long)x->b, x->path);
      else
        printf("mismatch: want %llu got %llu: %s\n",
               (unsigned long long)x->a, (unsigned long long)x->b, x->path);
    }
    printf("%s: %zu contexts expected, %zu mismatched, %zu unlisted "
           "library contexts ignored\n",
           bad ? "FAIL" : "ok", r.contexts_a, bad, ignored);
    status = bad ? 1 : 0;
  } else {
    printf("overlap: %.4f%%\n", r.overlap);
    printf("calls: A %llu, B %llu\n", (unsigned long long)r.total_a,
           (unsigned long long)r.total_b);
    printf("contexts: A %zu, B %zu, common %zu, differing %zu\n",
           r.contexts_a, r.contexts_b, r.common, r.differing);
    for (size_t i = 0; i < r.ndiff; i++)
      printf("  A %llu  B %llu  %s\n", (unsigned long long)r.diff[i].a,
             (unsigned long long)r.diff[i].b, r.diff[i].path);
    if (min >= 0 && r.overlap < min) status = 1;
  }
  cr_cmp_result_free(&r);
  cr_profile_free(pa);
  cr_profile_free(pb);
  free(pre);
  free(hide);
  return status;
usage:
  usage(stderr);
  free(pre);
  free(hide);
  return 2;
}
