/*
** desc.c -- field and method descriptors (JVMS 4.3): validation, argument
** slots, return type, parameter iteration.
*/
#include "cf_int.h"

/* Is s[0..n) an internal class name: non-empty '/'-separated segments
** without '.', ';', '['? */
static int class_name(const char *s, size_t n) {
  if (n == 0 || s[0] == '/' || s[n - 1] == '/') return 0;
  for (size_t i = 0; i < n; i++) {
    char c = s[i];
    if (c == '.' || c == ';' || c == '[') return 0;
    if (c == '/' && s[i + 1] == '/') return 0;
  }
  return 1;
}

size_t cr_desc_field_len(const char *s, size_t n) {
  size_t i = 0;
  while (i < n && s[i] == '[') i++;
  if (i > 255 || i >= n) return 0;
  switch (s[i]) {
  case 'B': case 'C': case 'D': case 'F': case 'I': case 'J': case 'S':
  case 'Z':
    return i + 1;
  case 'L': {
    const char *semi = memchr(s + i + 1, ';', n - i - 1);
    if (!semi) return 0;
    size_t len = (size_t)(semi - (s + i + 1));
    if (!class_name(s + i + 1, len)) return 0;
    return i + 2 + len;
  }
  default:
    return 0;
  }
}

int cr_desc_is_field(const char *s, size_t n) {
  return n > 0 && cr_desc_field_len(s, n) == n;
}

int cr_desc_slots(char c) {
  return c == 'V' ? 0 : c == 'J' || c == 'D' ? 2 : 1;
}

int cr_desc_iter_init(cr_desc_iter *it, const char *s, size_t n) {
  if (n == 0 || s[0] != '(') return -1;
  it->p = s + 1;
  it->end = s + n;
  return 0;
}

int cr_desc_next(cr_desc_iter *it, const char **type, size_t *len) {
  if (it->p >= it->end) return -1;
  if (*it->p == ')') return 0;
  size_t k = cr_desc_field_len(it->p, (size_t)(it->end - it->p));
  if (!k) return -1;
  *type = it->p;
  *len = k;
  it->p += k;
  return 1;
}

/* Walk a method descriptor: slots into '*slots', return type position. */
static const char *walk(const char *s, size_t n, int *slots) {
  cr_desc_iter it;
  const char *t;
  size_t k;
  int r, sum = 0;
  if (cr_desc_iter_init(&it, s, n)) return NULL;
  while ((r = cr_desc_next(&it, &t, &k)) == 1)
    sum += t[0] == '[' ? 1 : cr_desc_slots(t[0]);
  if (r < 0) return NULL;
  const char *ret = it.p + 1;
  size_t left = (size_t)(it.end - ret);
  if (!(left == 1 && ret[0] == 'V') && !cr_desc_is_field(ret, left))
    return NULL;
  *slots = sum;
  return ret;
}

int cr_desc_is_method(const char *s, size_t n) {
  int slots;
  return walk(s, n, &slots) != NULL;
}

int cr_desc_arg_slots(const char *s, size_t n) {
  int slots;
  return walk(s, n, &slots) ? slots : -1;
}

const char *cr_desc_ret(const char *s, size_t n, size_t *len) {
  int slots;
  const char *r = walk(s, n, &slots);
  if (r && len) *len = (size_t)(s + n - r);
  return r;
}
