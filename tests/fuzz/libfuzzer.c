/*
** libfuzzer.c -- the libFuzzer entry point for one target, chosen at
** compile time: -DFUZZ_ENTRY=fuzz_class (see fuzz.mk).
*/
#include "fuzz.h"

#ifndef FUZZ_ENTRY
#error "compile with -DFUZZ_ENTRY=fuzz_<target>"
#endif

const fuzz_target fuzz_targets[] = {{NULL, NULL}};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  FUZZ_ENTRY(data, size);
  return 0;
}
