/*
** run.c -- the parallel pipeline of 'cccp-rewrite'. Workers claim tasks in
** plan order, read and transform one entry each, and compress it; the main
** thread appends finished entries to the output jars strictly in plan
** order, so the output is deterministic whatever the thread count. At most
** 'window' tasks are in flight, which bounds memory to a few entries per
** worker. Outputs are committed (renamed into place) only after every task
** succeeded; on any error all of them are aborted.
*/
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cccp/analysis.h"
#include "cccp/classfile.h"
#include "cccp/hier.h"
#include "cccp/xform.h"
#include "cli.h"

typedef struct slot {
  int ready;
  int rc;               /* 0 or error code */
  int input_side;       /* error came from reading/parsing the input */
  int lenient;          /* class copied through unparsed */
  int is_class;
  int jdk_pkg;          /* class of a JDK module's package: unchanged */
  cr_zentry *ze;        /* jar units */
  uint8_t *raw;         /* single-class units */
  size_t rawlen;
  uint64_t in_len;
  cr_diag d;
} slot;

/* Classes of one input left unchanged because a JDK module owns their
** package: how many, and the first one's entry (for the warning). */
typedef struct jdkpkg_note {
  const cr_input *in;
  const char *first;
  size_t n;
} jdkpkg_note;

typedef struct run {
  const cli_opts *o;
  const cr_typeinfo *ti;    /* hierarchy for frame joins, or NULL */
  const cr_hier *h;         /* analysed hierarchy (MODE_CCCP) */
  const cr_policy *pol;     /* its policy (MODE_CCCP) */
  cli_stats *st;
  cli_names missing;        /* types frames had to treat as Object */
  const cli_plan *p;
  pthread_mutex_t mu;
  pthread_cond_t cv_work;   /* a window slot became free, or stop */
  pthread_cond_t cv_done;   /* a task finished */
  size_t next_claim;
  size_t next_write;
  size_t window;
  slot *ring;
  int stop;
  int idle_workers;         /* waiting on cv_work */
  int writer_waiting;       /* the writer waits on cv_done */
  jdkpkg_note *notes;       /* writer thread only, in plan order */
  size_t nnotes;
  void (*side)(void *);     /* the side job ('cli_run'), or NULL */
  void *side_ctx;
  int side_taken;
} run;

static int ends_with(const char *s, const char *suffix) {
  size_t n = strlen(s), k = strlen(suffix);
  return n >= k && memcmp(s + n - k, suffix, k) == 0;
}

/* What a worker is doing, for messages from callbacks. */
typedef struct work_ctx {
  run *r;
  const char *file, *entry;
  uint32_t input;       /* the task's input (see 'cli_task') */
} work_ctx;

/* The hierarchy as the classes of the worker's input see it (their own
** definitions of names another input defines too), in 'v'. */
static const cr_typeinfo *view(const run *r, const work_ctx *w,
                               cr_hier_view *v, cr_typeinfo *ti) {
  if (!r->h) return r->ti;
  *ti = cr_hier_typeinfo_input(v, r->h, w->input);
  return ti;
}

/* Remember a type the frame computation did not find (thread-safe). */
static void note_missing(void *ctx, const char *name) {
  run *r = ctx;
  pthread_mutex_lock(&r->mu);
  cli_names_add(&r->missing, name);
  pthread_mutex_unlock(&r->mu);
}

/* A method left unchanged: warn now, naming entry, class and method. */
static void method_failed(void *ctx, const cr_class *c, const cr_member *m,
                          const cr_diag *md) {
  work_ctx *w = ctx;
  char msg[2048];
  (void)c;
  (void)m;
  cr_diag_format(md, msg, sizeof msg);
  cli_warn("%s: %s: %s; method left unchanged", w->file, w->entry, msg);
  pthread_mutex_lock(&w->r->mu);
  w->r->st->methods_unchanged++;
  pthread_mutex_unlock(&w->r->mu);
}

/* A warning from the instrumentation (a method or class left as is). */
static void xf_warn(void *ctx, const cr_class *c, const char *msg) {
  work_ctx *w = ctx;
  (void)c;
  cli_warn("%s: %s: %s", w->file, w->entry, msg);
  if (strstr(msg, " left uninstrumented")) {
    pthread_mutex_lock(&w->r->mu);
    w->r->st->methods_unchanged++;
    pthread_mutex_unlock(&w->r->mu);
  }
}

/* A note of the transform: said with -v only. */
static void xf_note(void *ctx, const cr_class *c, const char *msg) {
  work_ctx *w = ctx;
  (void)c;
  if (w->r->o->verbose > 0)
    fprintf(stderr, "cccp-rewrite: %s: %s: %s\n", w->file, w->entry, msg);
}

/* Instrument 'c'; CR_ENOMEM/CR_ETOOLARGE leave the class unusable. */
static int instrument(run *r, work_ctx *w, cr_class *c, cr_diag *d) {
  cr_xf_opts xo;
  memset(&xo, 0, sizeof xo);
  cr_hier_view v;
  cr_typeinfo ti;
  xo.h = r->h;
  xo.pol = r->pol;
  xo.env.ti = view(r, w, &v, &ti);
  xo.env.missing = note_missing;
  xo.env.ctx = r;
  xo.warn = xf_warn;
  xo.note = xf_note;
  xo.ctx = w;
  xo.n2b = r->o->n2b;
  xo.jop = r->o->jopm;
  xo.jop_split = r->o->jop_split;
  xo.count_bytecodes = r->o->count_bytecodes;
  xo.count_allocs = r->o->count_allocs;
  xo.compact_above = (uint32_t)r->o->compact_above;
  const char *name = cr_cf_this_name(c);
  xo.no_twins = name && r->h && cr_hier_redefined_path(r->h, name);
  int rc = cr_xf_cccp(c, &xo, d);
  if (rc) return rc;
  pthread_mutex_lock(&r->mu);
  r->st->xf_classes += !xo.nskipped;
  r->st->xf_methods += xo.nesi + xo.nosi + xo.nn2b + xo.nb2n + xo.nfallback;
  r->st->xf_sites += xo.nsites_esi + xo.nsites_tl + xo.nsites_node;
  r->st->xf_blocks += xo.nblocks;
  r->st->xf_unsup += xo.nunsup;
  r->st->xf_unsup_classes += xo.nunsup_classes;
  r->st->xf_compact += xo.ncompact;
  r->st->xf_huge += xo.nhuge;
  r->st->xf_huge_run += xo.nhuge_run;
  r->st->xf_huge_orig += xo.nhuge_orig;
  r->st->xf_exit += xo.nexit;
  pthread_mutex_unlock(&r->mu);
  return 0;
}

/*
** Transform the bytes of one class according to the mode. In identity
** mode the class is parsed and written back, and the result must equal the
** input: the writer is checked on every class it touches. In re-encode
** mode every method goes through the instruction IR and gets new frames.
** When instrumenting, a class in a package that a JDK module defines
** ('module' is the entry's own module, NULL for a jar) is never loaded by
** the JVM (JEP 261): it is left as it is ('*out' NULL) and '*jdk_pkg' set.
*/
static int transform(run *r, work_ctx *w, const uint8_t *in, size_t len,
                     const char *module, uint8_t **out, size_t *outlen,
                     int *jdk_pkg, cr_diag *d) {
  const cli_opts *o = r->o;
  *out = NULL;
  *outlen = 0;
  *jdk_pkg = 0;
  if (o->mode != MODE_IDENTITY && o->mode != MODE_REENCODE &&
      o->mode != MODE_CCCP)
    return 0;
  cr_arena *a = cr_arena_new();
  if (!a) return cr_diag_set(d, CR_ENOMEM, -1, "out of memory");
  cr_class *c;
  cr_buf b;
  cr_buf_init(&b);
  int rc = cr_cf_parse(&c, a, in, len, d);
  if (rc == 0 && o->mode == MODE_CCCP && r->h && !cli_jdk_module(module)) {
    const char *name = cr_cf_this_name(c);
    if (name && cr_hier_jdk_package(r->h, name)) {
      *jdk_pkg = 1;
      cr_arena_free(a);
      return 0;
    }
  }
  if (rc == 0 && o->mode == MODE_REENCODE) {
    cr_reencode_opts ro;
    cr_hier_view v;
    cr_typeinfo ti;
    memset(&ro, 0, sizeof ro);
    ro.env.ti = view(r, w, &v, &ti);
    ro.env.missing = note_missing;
    ro.env.ctx = r;
    ro.flags = o->stress ? CR_REENCODE_STRESS : 0;
    ro.failed = method_failed;
    ro.ctx = w;
    cr_diag md;
    cr_diag_clear(&md);
    int mrc = cr_reencode(c, &ro, &md);
    if (mrc == CR_ENOMEM) rc = cr_diag_set(d, CR_ENOMEM, -1, "out of memory");
  }
  if (rc == 0 && o->mode == MODE_CCCP) rc = instrument(r, w, c, d);
  if (rc == 0) rc = cr_cf_write(&b, c, d);
  if (rc == 0 && b.err) rc = cr_diag_set(d, CR_ENOMEM, -1, "out of memory");
  if (rc == 0 && o->mode == MODE_IDENTITY &&
      (b.len != len || memcmp(b.data, in, len) != 0))
    rc = cr_diag_set(d, CR_EUNSUPPORTED, -1,
                     "class does not round-trip unchanged (%zu bytes in, "
                     "%zu out)", len, b.len);
  if (rc == 0) *out = cr_buf_detach(&b, outlen);
  cr_buf_free(&b);
  cr_arena_free(a);
  return rc;
}

/* Do task 't' into 's' (outside the lock). */
static void work(run *r, size_t t, slot *s) {
  const cli_task *task = &r->p->tasks[t];
  const cli_unit *u = &r->p->units[task->unit];
  cr_entry_info info;
  uint8_t *data = NULL, *out = NULL;
  size_t len = 0, outlen = 0;
  memset(s, 0, sizeof *s);
  cr_diag_clear(&s->d);
  cr_input_info(task->in, task->idx, &info);
  s->input_side = 1;
  if (task->data) {                 /* replaced by the plan */
    if (!(data = cr_malloc(task->len ? task->len : 1))) {
      s->rc = cr_diag_set(&s->d, CR_ENOMEM, -1, "out of memory");
      goto out;
    }
    memcpy(data, task->data, task->len);
    len = task->len;
  } else if (!info.is_dir) {
    s->rc = cr_input_read(task->in, task->idx, &data, &len, &s->d);
    if (s->rc) goto out;
  }
  s->in_len = len;
  s->is_class = !info.is_dir && ends_with(info.name, ".class");
  if (s->is_class) {
    work_ctx w = {r, cr_input_path(task->in), info.name, task->input};
    const char *module = info.module;
    if (!module) module = cli_input_module(r->o, task->in);
    s->rc = transform(r, &w, data, len, module, &out, &outlen,
                      &s->jdk_pkg, &s->d);
    if (s->rc) cr_diag_where(&s->d, cr_input_path(task->in), info.name);
    if (s->rc && r->o->lenient &&
        (s->rc == CR_EFORMAT || s->rc == CR_EUNSUPPORTED)) {
      s->rc = 0;        /* d keeps the reason for the warning */
      s->lenient = 1;
    }
    if (s->rc) goto out;
    if (out) {
      cr_free(data);
      data = out;
      len = outlen;
      out = NULL;
    }
  }
  s->input_side = 0;
  if (u->single_class) {
    s->raw = data;
    s->rawlen = len;
    data = NULL;
  } else {
    s->rc = cr_zentry_new_as(&s->ze, info.name, data, len, r->o->level,
                             info.method, &s->d);
    if (!s->rc) {
      cr_zentry_set_time(s->ze, info.dos_time, info.dos_date);
      cr_zentry_set_attrs(s->ze, info.os, info.ext_attr);
    }
    /* A name the jar format cannot hold is the input's fault. */
    s->input_side = s->rc == CR_EFORMAT;
    if (s->rc)
      cr_diag_where(&s->d, s->input_side ? cr_input_path(task->in) : u->path,
                    info.name);
  }
out:
  cr_free(data);
  cr_free(out);
}

/* A task may be claimed: one is left and its slot in the window is free
** (called with 'mu' held). */
static int claimable(const run *r) {
  return r->next_claim < r->p->ntasks &&
         r->next_claim < r->next_write + r->window;
}

/* Do task 't' (claimed, 'mu' not held) and put its result in the ring. */
static void do_task(run *r, size_t t) {
  slot s;
  work(r, t, &s);
  pthread_mutex_lock(&r->mu);
  s.ready = 1;
  r->ring[t % r->window] = s;
  if (r->writer_waiting) pthread_cond_signal(&r->cv_done);
  pthread_mutex_unlock(&r->mu);
}

/*
** The writer (the main thread) is a worker too: when the task it must
** write next is not done, it does the next unclaimed one instead of
** sleeping. With -j N there are N-1 other workers, so that -j 1 runs with
** no thread switches at all; threads are woken only when someone waits.
*/
static void *worker(void *arg) {
  run *r = arg;
  for (;;) {
    pthread_mutex_lock(&r->mu);
    while (!r->stop && r->next_claim < r->p->ntasks && !claimable(r)) {
      r->idle_workers++;
      pthread_cond_wait(&r->cv_work, &r->mu);
      r->idle_workers--;
    }
    if (r->stop || r->next_claim >= r->p->ntasks) {
      /* nothing left to claim: the side job, while the writer finishes */
      int side = !r->stop && r->side && !r->side_taken;
      if (side) r->side_taken = 1;
      pthread_mutex_unlock(&r->mu);
      if (side) r->side(r->side_ctx);
      return NULL;
    }
    size_t t = r->next_claim++;
    pthread_mutex_unlock(&r->mu);
    do_task(r, t);
  }
}

/* Write a bare class file atomically. */
static int write_class_file(const char *path, const uint8_t *data,
                            size_t len, cr_diag *d) {
  cli_afile af;
  int rc = cli_atomic_open(&af, path, d);
  if (rc) return rc;
  if (len && fwrite(data, 1, len, af.f) != len) {
    cli_atomic_abort(&af);
    return cr_diag_set(d, CR_EIO, -1, "cannot write %s", path);
  }
  return cli_atomic_commit(&af, d);
}

/* Count a class left unchanged for its JDK package (writer thread). */
static void note_jdk_pkg(run *r, const cli_task *t) {
  if (!r->nnotes || r->notes[r->nnotes - 1].in != t->in) {
    jdkpkg_note *v = cr_realloc(r->notes, (r->nnotes + 1) * sizeof *v);
    if (!v) return;               /* only a warning is lost */
    r->notes = v;
    cr_entry_info info;
    cr_input_info(t->in, t->idx, &info);
    r->notes[r->nnotes++] = (jdkpkg_note){t->in, info.name, 0};
  }
  r->notes[r->nnotes - 1].n++;
}

/*
** One warning per input whose classes were left unchanged for their JDK
** package, naming one such package (dotted, as Java users write it).
*/
static void warn_jdk_pkgs(const run *r) {
  for (size_t i = 0; i < r->nnotes; i++) {
    const jdkpkg_note *nt = &r->notes[i];
    char pkg[512];
    snprintf(pkg, sizeof pkg, "%s", nt->first);
    char *slash = strrchr(pkg, '/');
    if (slash) *slash = '\0';
    for (char *q = pkg; *q; q++)
      if (*q == '/') *q = '.';
    cli_warn("%s: %zu class%s in packages of JDK modules (such as %s) left "
             "unchanged: from JDK 9 on, the JVM loads those packages from "
             "the JDK only, never from the class path", cr_input_path(nt->in),
             nt->n, nt->n == 1 ? "" : "es", pkg);
  }
}

static void free_slot(slot *s) {
  cr_zentry_free(s->ze);
  cr_free(s->raw);
  s->ze = NULL;
  s->raw = NULL;
}

int cli_run(const cli_opts *o, const cli_plan *p, const cr_typeinfo *ti,
            const cr_hier *h, const cr_policy *pol, cli_stats *st,
            void (*side)(void *), void *side_ctx, int *exit_code,
            cr_diag *d) {
  run r;
  memset(&r, 0, sizeof r);
  r.side = side;
  r.side_ctx = side_ctx;
  r.o = o;
  r.p = p;
  r.ti = ti;
  r.h = h;
  r.pol = pol;
  r.st = st;
  r.window = (size_t)o->jobs * 8;
  int nthreads = o->jobs - 1, started = 0, rc = 0;
  pthread_t *th = cr_calloc((size_t)nthreads + 1, sizeof *th);
  r.ring = cr_calloc(r.window, sizeof *r.ring);
  cr_jarw **w = cr_calloc(p->nunits ? p->nunits : 1, sizeof *w);
  uint8_t **single = cr_calloc(p->nunits ? p->nunits : 1, sizeof *single);
  size_t *single_len = cr_calloc(p->nunits ? p->nunits : 1, sizeof(size_t));
  *exit_code = EXIT_OK;
  if (!th || !r.ring || !w || !single || !single_len) {
    rc = cr_diag_set(d, CR_ENOMEM, -1, "out of memory");
    *exit_code = EXIT_OUTPUT;
    goto out;
  }
  pthread_mutex_init(&r.mu, NULL);
  pthread_cond_init(&r.cv_work, NULL);
  pthread_cond_init(&r.cv_done, NULL);
  /* fewer threads than asked for (none, even) still get the job done */
  for (; started < nthreads; started++)
    if (pthread_create(&th[started], NULL, worker, &r) != 0) break;

  cli_progress_start(o->progress, p->ntasks);
  for (size_t ui = 0; ui < p->nunits && rc == 0; ui++) {
    const cli_unit *u = &p->units[ui];
    if (!u->single_class) {
      rc = cr_jarw_open(&w[ui], u->path, d);
      if (rc) {
        *exit_code = EXIT_OUTPUT;
        break;
      }
    }
    for (size_t t = u->first; t < u->first + u->count; t++) {
      pthread_mutex_lock(&r.mu);
      slot *rs = &r.ring[t % r.window];
      while (!rs->ready) {
        if (claimable(&r)) {
          size_t t2 = r.next_claim++;
          pthread_mutex_unlock(&r.mu);
          do_task(&r, t2);
          pthread_mutex_lock(&r.mu);
        } else {
          r.writer_waiting = 1;
          pthread_cond_wait(&r.cv_done, &r.mu);
          r.writer_waiting = 0;
        }
      }
      slot s = *rs;
      rs->ready = 0;
      r.next_write++;
      if (r.idle_workers) pthread_cond_signal(&r.cv_work);
      pthread_mutex_unlock(&r.mu);

      if (s.rc) {
        rc = s.rc;
        *d = s.d;
        *exit_code = s.input_side && rc != CR_ENOMEM ? EXIT_INPUT
                                                      : EXIT_OUTPUT;
        free_slot(&s);
        break;
      }
      if (s.lenient) {
        char msg[2048];
        cr_diag_format(&s.d, msg, sizeof msg);
        cli_warn("%s (copied unchanged)", msg);
        st->lenient_copies++;
      }
      if (s.jdk_pkg) note_jdk_pkg(&r, &p->tasks[t]);
      st->entries++;
      st->classes += s.is_class;
      st->jdk_pkg_copies += (size_t)s.jdk_pkg;
      st->bytes_in += s.in_len;
      if (u->single_class) {
        single[ui] = s.raw;
        single_len[ui] = s.rawlen;
        s.raw = NULL;
      } else {
        rc = cr_jarw_add_entry(w[ui], s.ze, d);
        s.ze = NULL;
        if (rc) {
          *exit_code = EXIT_OUTPUT;
          break;
        }
      }
      cli_progress_update(t + 1, u->label);
    }
    if (rc == 0 && w[ui] && u->patch &&
        (rc = cr_jarw_add(w[ui], CLI_PATCH_MARKER, (const uint8_t *)"cccp\n",
                          5, d)) != 0)
      *exit_code = EXIT_OUTPUT;
    /* the jar is complete: write and sync it while the others go on */
    if (rc == 0 && w[ui] && (rc = cr_jarw_seal(w[ui], d)) != 0)
      *exit_code = EXIT_OUTPUT;
  }

  pthread_mutex_lock(&r.mu);
  r.stop = 1;
  pthread_cond_broadcast(&r.cv_work);
  pthread_mutex_unlock(&r.mu);
  for (int i = 0; i < started; i++) pthread_join(th[i], NULL);
  for (size_t i = 0; i < r.window; i++)
    if (r.ring[i].ready) free_slot(&r.ring[i]);
  cli_progress_end();

  /* Commit everything only when every task succeeded. */
  for (size_t ui = 0; ui < p->nunits; ui++) {
    const cli_unit *u = &p->units[ui];
    if (rc == 0 && u->single_class) {
      rc = write_class_file(u->path, single[ui], single_len[ui], d);
      if (rc) *exit_code = EXIT_OUTPUT;
    } else if (rc == 0 && w[ui]) {
      rc = cr_jarw_commit(w[ui], d);
      w[ui] = NULL;
      if (rc) {
        cr_diag_where(d, u->path, NULL);
        *exit_code = EXIT_OUTPUT;
      }
    } else if (w[ui]) {
      cr_jarw_abort(w[ui]);
      w[ui] = NULL;
    }
    cr_free(single[ui]);
  }
  if (rc == 0) warn_jdk_pkgs(&r);
  size_t nmiss = r.missing.n, shown = 0;
  for (size_t i = 0; i < r.missing.cap && shown < 10; i++)
    if (r.missing.slots[i]) {
      cli_warn("type %s not found: frames join it as java/lang/Object "
               "(add it with --classpath)", r.missing.slots[i]);
      shown++;
    }
  if (nmiss > shown) cli_warn("%zu more types not found", nmiss - shown);
  st->missing_types = nmiss;
  cli_names_free(&r.missing);
  pthread_cond_destroy(&r.cv_done);
  pthread_cond_destroy(&r.cv_work);
  pthread_mutex_destroy(&r.mu);
out:
  cr_free(r.notes);
  cr_free(single_len);
  cr_free(single);
  cr_free(w);
  cr_free(r.ring);
  cr_free(th);
  return rc;
}
