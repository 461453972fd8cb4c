/*
** hash.c -- a string hash for the lookup tables (constant pools, type
** tables, the hierarchy's symbols): eight bytes at a time.
*/
#include <string.h>

#include "cccp/util.h"

/*
** Hash of the 'n' bytes at 's'. The tables only ever compare the
** strings after it, so nothing the tools write depends on its values.
*/
uint32_t cr_hash(const void *s, size_t n) {
  const unsigned char *p = s;
  uint64_t h = 0x84222325cbf29ce4u ^ n, w;
  for (; n >= 8; p += 8, n -= 8) {
    memcpy(&w, p, 8);
    h = (h ^ w) * 0x9e3779b97f4a7c15u;
    h ^= h >> 29;
  }
  w = 0;
  memcpy(&w, p, n);
  h = (h ^ w) * 0x9e3779b97f4a7c15u;
  h ^= h >> 32;
  return (uint32_t)h;
}
