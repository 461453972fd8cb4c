/*
** scan.c -- the first pass: read and parse every class of a set of inputs
** in parallel and hand each parsed class to a callback, for whole-program
** facts (the class hierarchy) needed before anything is rewritten.
*/
#include <pthread.h>
#include <string.h>

#include "cccp/classfile.h"
#include "cli.h"

typedef struct scan {
  cr_input **ins;
  size_t nins;
  cli_scan_fn fn;
  void *ctx;
  int headers;                /* parse only the class headers */
  pthread_mutex_t mu;
  size_t in_pos, entry_pos;   /* next entry to claim */
  int failed;
  cr_diag d;                  /* first error */
} scan;

static int ends_with(const char *s, const char *suffix) {
  size_t n = strlen(s), k = strlen(suffix);
  return n >= k && memcmp(s + n - k, suffix, k) == 0;
}

/* Claim the next class entry; 0 when there is none left. */
static int claim(scan *s, cr_input **in, size_t *idx) {
  int got = 0;
  pthread_mutex_lock(&s->mu);
  while (!s->failed && s->in_pos < s->nins) {
    cr_input *cur = s->ins[s->in_pos];
    if (s->entry_pos >= cr_input_count(cur)) {
      s->in_pos++;
      s->entry_pos = 0;
      continue;
    }
    size_t i = s->entry_pos++;
    cr_entry_info info;
    cr_input_info(cur, i, &info);
    if (info.is_dir || !ends_with(info.name, ".class")) continue;
    *in = cur;
    *idx = i;
    got = 1;
    break;
  }
  pthread_mutex_unlock(&s->mu);
  return got;
}

static void fail(scan *s, const cr_diag *d) {
  pthread_mutex_lock(&s->mu);
  if (!s->failed) {
    s->failed = 1;
    s->d = *d;
  }
  pthread_mutex_unlock(&s->mu);
}

static void *worker(void *arg) {
  scan *s = arg;
  cr_input *in;
  size_t idx;
  while (claim(s, &in, &idx)) {
    cr_diag d;
    cr_diag_clear(&d);
    uint8_t *data = NULL;
    size_t len = 0;
    cr_arena *a = NULL;
    cr_class *c;
    int rc = cr_input_read(in, idx, &data, &len, &d);
    if (rc == 0 && !(a = cr_arena_new()))
      rc = cr_diag_set(&d, CR_ENOMEM, -1, "out of memory");
    if (rc == 0)
      rc = s->headers ? cr_cf_parse_header(&c, a, data, len, &d)
                      : cr_cf_parse(&c, a, data, len, &d);
    if (rc == 0) rc = s->fn(s->ctx, c, in, idx, &d);
    if (rc) {
      cr_entry_info info;
      cr_input_info(in, idx, &info);
      cr_diag_where(&d, cr_input_path(in), info.name);
      fail(s, &d);
    }
    cr_arena_free(a);
    if (rc || !cr_input_keep(in, idx, data, len)) cr_free(data);
  }
  return NULL;
}

int cli_scan(cr_input **ins, size_t nins, int jobs, int headers,
             cli_scan_fn fn, void *ctx, cr_diag *d) {
  scan s;
  memset(&s, 0, sizeof s);
  s.ins = ins;
  s.nins = nins;
  s.fn = fn;
  s.ctx = ctx;
  s.headers = headers;
  cr_diag_clear(&s.d);
  pthread_mutex_init(&s.mu, NULL);
  pthread_t th[256];
  int n = jobs < 1 ? 1 : jobs > 256 ? 256 : jobs, started = 0;
  for (; started < n; started++)
    if (pthread_create(&th[started], NULL, worker, &s) != 0) break;
  if (started == 0) worker(&s);
  for (int i = 0; i < started; i++) pthread_join(th[i], NULL);
  pthread_mutex_destroy(&s.mu);
  if (s.failed) {
    *d = s.d;
    return d->code ? d->code : CR_EFORMAT;
  }
  return 0;
}
