/*
** arena.c -- bump allocator for objects that die together (one class in
** flight, or one session). Chunks grow geometrically; big requests get a
** chunk of their own. -DCR_DEBUG_ARENA mallocs every object separately.
*/
#include <stdint.h>
#include <string.h>

#include "cccp/util.h"

typedef struct chunk {
  struct chunk *next;
  size_t size;          /* usable bytes after the header */
  size_t used;
  /* data follows, 16-byte aligned */
} chunk;

#define HDR ((sizeof(chunk) + 15) & ~(size_t)15)
#define MINCHUNK ((size_t)16 * 1024)
#define MAXCHUNK ((size_t)1024 * 1024)

struct cr_arena {
  chunk *head;
  size_t next_size;     /* size of the next ordinary chunk */
  size_t handed;        /* bytes handed out, for statistics */
};

cr_arena *cr_arena_new(void) {
  cr_arena *a = cr_calloc(1, sizeof *a);
  if (a) a->next_size = MINCHUNK;
  return a;
}

void cr_arena_free(cr_arena *a) {
  if (!a) return;
  for (chunk *c = a->head; c;) {
    chunk *n = c->next;
    cr_free(c);
    c = n;
  }
  cr_free(a);
}

static chunk *newchunk(size_t size) {
  if (size > SIZE_MAX - HDR) return NULL;
  chunk *c = cr_malloc(HDR + size);
  if (!c) return NULL;
  c->size = size;
  c->used = 0;
  return c;
}

void *cr_arena_alloc(cr_arena *a, size_t size) {
  if (size > SIZE_MAX - 16) return NULL;
  size = (size + 7) & ~(size_t)7;
  if (size == 0) size = 8;
  a->handed += size;
#ifdef CR_DEBUG_ARENA
  chunk *c = newchunk(size);
  if (!c) return NULL;
  c->used = size;
  c->next = a->head;
  a->head = c;
  return (char *)c + HDR;
#else
  chunk *h = a->head;
  if (h && h->size - h->used >= size) {
    void *p = (char *)h + HDR + h->used;
    h->used += size;
    return p;
  }
  if (size > a->next_size / 4) {
    /* Big object: own chunk, linked behind the head to keep its space. */
    chunk *c = newchunk(size);
    if (!c) return NULL;
    c->used = size;
    if (h) {
      c->next = h->next;
      h->next = c;
    } else {
      c->next = NULL;
      a->head = c;
    }
    return (char *)c + HDR;
  }
  chunk *c = newchunk(a->next_size);
  if (!c) return NULL;
  if (a->next_size < MAXCHUNK) a->next_size *= 2;
  c->next = h;
  a->head = c;
  c->used = size;
  return (char *)c + HDR;
#endif
}

void *cr_arena_calloc(cr_arena *a, size_t n, size_t size) {
  if (size && n > SIZE_MAX / size) return NULL;
  void *p = cr_arena_alloc(a, n * size);
  if (p) memset(p, 0, n * size);
  return p;
}

char *cr_arena_strndup(cr_arena *a, const char *s, size_t n) {
  char *p = cr_arena_alloc(a, n + 1);
  if (!p) return NULL;
  memcpy(p, s, n);
  p[n] = '\0';
  return p;
}

void *cr_arena_realloc(cr_arena *a, void *old, size_t oldsize,
                       size_t newsize) {
  void *p = cr_arena_alloc(a, newsize);
  if (p && old) memcpy(p, old, oldsize < newsize ? oldsize : newsize);
  return p;
}

void cr_arena_reset(cr_arena *a) {
  chunk *keep = a->head;
#ifdef CR_DEBUG_ARENA
  keep = NULL;          /* every object is a chunk: free them all */
#endif
  for (chunk *c = a->head; c;) {
    chunk *n = c->next;
    if (c != keep) cr_free(c);
    c = n;
  }
  a->head = keep;
  if (keep) {
    keep->next = NULL;
    keep->used = 0;
  }
}

size_t cr_arena_used(const cr_arena *a) { return a->handed; }
