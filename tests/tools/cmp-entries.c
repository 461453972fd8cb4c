/*
** cmp-entries.c -- test tool: check that an output jar holds exactly the
** entries of an input container (optionally one module of a JDK image),
** with the same names, in the same order, with identical bytes.
** Usage: cmp-entries [-m MODULE] INPUT OUTPUT.jar
** Exit 0 when equal (prints "equal: N entries"), 1 otherwise (lists up to
** 20 differences), 2 when a container cannot be read.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cccp/io.h"

static int read_entry(cr_input *in, size_t i, uint8_t **data, size_t *len) {
  cr_diag d;
  cr_diag_clear(&d);
  if (cr_input_read(in, i, data, len, &d) == 0) return 0;
  char msg[2048];
  cr_diag_format(&d, msg, sizeof msg);
  fprintf(stderr, "cmp-entries: %s\n", msg);
  return -1;
}

int main(int argc, char **argv) {
  const char *module = NULL;
  int a = 1;
  if (argc > 2 && strcmp(argv[1], "-m") == 0) {
    module = argv[2];
    a = 3;
  }
  if (argc - a != 2) {
    fputs("usage: cmp-entries [-m MODULE] INPUT OUTPUT.jar\n", stderr);
    return 2;
  }
  cr_input *in = NULL, *out = NULL;
  cr_diag d;
  cr_diag_clear(&d);
  if (cr_input_open(&in, argv[a], &d) ||
      cr_input_open(&out, argv[a + 1], &d)) {
    char msg[2048];
    cr_diag_format(&d, msg, sizeof msg);
    fprintf(stderr, "cmp-entries: %s\n", msg);
    if (in) cr_input_close(in);
    return 2;
  }
  size_t nin = cr_input_count(in), nout = cr_input_count(out);
  size_t j = 0, compared = 0, diffs = 0;
  for (size_t i = 0; i < nin && diffs < 20; i++) {
    cr_entry_info ei, eo;
    cr_input_info(in, i, &ei);
    if (module && (!ei.module || strcmp(ei.module, module) != 0)) continue;
    if (j >= nout) {
      printf("missing in output: %s\n", ei.name);
      diffs++;
      continue;
    }
    cr_input_info(out, j++, &eo);
    if (strcmp(ei.name, eo.name) != 0 || ei.is_dir != eo.is_dir) {
      printf("entry %zu differs: input %s, output %s\n", j - 1, ei.name,
             eo.name);
      diffs++;
      continue;
    }
    if (ei.is_dir) {
      compared++;
      continue;
    }
    uint8_t *x = NULL, *y = NULL;
    size_t xl = 0, yl = 0;
    if (read_entry(in, i, &x, &xl) || read_entry(out, j - 1, &y, &yl))
      return 2;
    if (xl != yl || memcmp(x, y, xl) != 0) {
      size_t k = 0;
      while (k < xl && k < yl && x[k] == y[k]) k++;
      printf("bytes differ: %s (%zu vs %zu bytes, first at offset %zu)\n",
             ei.name, xl, yl, k);
      diffs++;
    }
    cr_free(x);
    cr_free(y);
    compared++;
  }
  for (; j < nout && diffs < 20; j++) {
    cr_entry_info eo;
    cr_input_info(out, j, &eo);
    printf("extra in output: %s\n", eo.name);
    diffs++;
  }
  cr_input_close(in);
  cr_input_close(out);
  if (diffs) {
    printf("NOT equal: %s vs %s\n", argv[a], argv[a + 1]);
    return 1;
  }
  printf("equal: %zu entries\n", compared);
  return 0;
}
