/*
** fuzz_jmod.c -- fuzz target: a jmod. The input is the zip part; the
** "JM" 1.0 header is prepended so that every input is read as a jmod.
*/
#include "fuzz.h"

int fuzz_jmod(const uint8_t *data, size_t size) {
  static const uint8_t jm[4] = {'J', 'M', 1, 0};
  return fuzz_container(jm, sizeof jm, data, size);
}
