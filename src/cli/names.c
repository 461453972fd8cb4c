/*
** names.c -- a string set (open addressing, FNV-1a) for warn-once
** bookkeeping and duplicate entry names.
*/
#include <string.h>

#include "cli.h"

static uint64_t hash_str(const char *s) {
  uint64_t h = 1469598103934665603ull;
  for (; *s; s++) h = (h ^ (unsigned char)*s) * 1099511628211ull;
  return h;
}

static int grow(cli_names *s) {
  size_t ncap = s->cap ? s->cap * 2 : 1024;
  char **ns = cr_calloc(ncap, sizeof *ns);
  if (!ns) return -1;
  for (size_t i = 0; i < s->cap; i++)
    if (s->slots[i]) {
      size_t j = hash_str(s->slots[i]) & (ncap - 1);
      while (ns[j]) j = (j + 1) & (ncap - 1);
      ns[j] = s->slots[i];
    }
  cr_free(s->slots);
  s->slots = ns;
  s->cap = ncap;
  return 0;
}

int cli_names_add(cli_names *s, const char *name) {
  if (2 * (s->n + 1) > s->cap && grow(s) != 0) return -1;
  size_t j = hash_str(name) & (s->cap - 1);
  while (s->slots[j]) {
    if (strcmp(s->slots[j], name) == 0) return 0;
    j = (j + 1) & (s->cap - 1);
  }
  size_t len = strlen(name) + 1;
  char *copy = cr_malloc(len);
  if (!copy) return -1;
  s->slots[j] = memcpy(copy, name, len);
  s->n++;
  return 1;
}

int cli_names_has(const cli_names *s, const char *name) {
  if (!s->cap) return 0;
  size_t j = hash_str(name) & (s->cap - 1);
  for (; s->slots[j]; j = (j + 1) & (s->cap - 1))
    if (strcmp(s->slots[j], name) == 0) return 1;
  return 0;
}

void cli_names_free(cli_names *s) {
  for (size_t i = 0; i < s->cap; i++) cr_free(s->slots[i]);
  cr_free(s->slots);
  memset(s, 0, sizeof *s);
}
