/*
** fuzz_jar.c -- fuzz target: a jar or zip file through the container
** reader (libzip underneath), every entry listed and read.
*/
#include "fuzz.h"

int fuzz_jar(const uint8_t *data, size_t size) {
  return fuzz_container(NULL, 0, data, size);
}
