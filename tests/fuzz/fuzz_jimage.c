/*
** fuzz_jimage.c -- fuzz target: a JDK run-time image (lib/modules), read
** from a mapping; every resource listed and read (inflated).
*/
#include "fuzz.h"

int fuzz_jimage(const uint8_t *data, size_t size) {
  return fuzz_container(NULL, 0, data, size);
}
