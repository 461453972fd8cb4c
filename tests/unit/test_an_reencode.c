/*
** test_an_reencode.c -- re-encoding whole classes: identity of the code
** bytes on the fixtures and on java.base, recomputed frames compared with
** javac's, stress mode, write and re-parse; throughput. With
** CCCP_BC_JARDIR=DIR it also writes DIR/{orig,reenc,stress}.jar of
** java.base for a HotSpot verification run by hand.
*/
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cccp/analysis.h"
#include "cccp/io.h"
#include "testutil.h"

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* ------------------------------------------------ a simple typeinfo */

typedef struct tent { char *name, *super; int iface; } tent;
typedef struct tmap { tent *v; size_t cap, n; } tmap;

static size_t th(const char *s) {
  size_t h = 5381;
  while (*s) h = h * 33 + (unsigned char)*s++;
  return h;
}

static void tmap_put(tmap *m, const char *name, const char *super,
                     int iface) {
  if ((m->n + 1) * 2 > m->cap) {
    tmap nm = {calloc(m->cap ? m->cap * 2 : 1024, sizeof(tent)),
                m->cap ? m->cap * 2 : 1024, 0};
    for (size_t i = 0; i < m->cap; i++)
      if (m->v[i].name)
        tmap_put(&nm, m->v[i].name, m->v[i].super, m->v[i].iface);
    for (size_t i = 0; i < m->cap; i++) free(m->v[i].name),
                                        free(m->v[i].super);
    free(m->v);
    *m = nm;
  }
  size_t k = th(name) & (m->cap - 1);
  while (m->v[k].name) {
    if (strcmp(m->v[k].name, name) == 0) return;
    k = (k + 1) & (m->cap - 1);
  }
  m->v[k].name = strdup(name);
  m->v[k].super = super ? strdup(super) : NULL;
  m->v[k].iface = iface;
  m->n++;
}

static int tmap_lookup(void *ctx, const char *name, const char **super,
                       int *iface) {
  tmap *m = ctx;
  if (!m->cap) return CR_ENOTFOUND;
  size_t k = th(name) & (m->cap - 1);
  while (m->v[k].name) {
    if (strcmp(m->v[k].name, name) == 0) {
      *super = m->v[k].super;
      *iface = m->v[k].iface;
      return 0;
    }
    k = (k + 1) & (m->cap - 1);
  }
  return CR_ENOTFOUND;
}

static void tmap_free(tmap *m) {
  for (size_t i = 0; i < m->cap; i++) free(m->v[i].name),
                                      free(m->v[i].super);
  free(m->v);
  memset(m, 0, sizeof *m);
}

static void tmap_add_class(tmap *m, const uint8_t *b, size_t n) {
  cr_arena *a = cr_arena_new();
  cr_class *c;
  cr_diag d;
  cr_diag_clear(&d);
  if (cr_cf_parse(&c, a, b, n, &d) == 0 && !(c->flags & 0x8000)) {
    const char *sup = c->super_class ? cr_cp_class_name(c->cp,
                                                        c->super_class)
                                     : NULL;
    int iface = (c->flags & 0x0200) != 0;
    tmap_put(m, cr_cf_this_name(c), iface ? "java/lang/Object" : sup, iface);
  }
  cr_arena_free(a);
}

/* --------------------------------------------- frame comparison */

typedef struct fstats {
  long methods, frames, same, differ_locals, extra, missing, bad;
} fstats;

static const char *cname(cr_class *c, const cr_vtype *v) {
  return cr_cp_class_name(c->cp, v->v);
}

/* 1 if ours 'o' is as specific as javac's 'j' (or equal): equal items,
** javac TOP, or both references (the hierarchy decides; not checked). */
static int compatible(cr_class *c, const cr_vtype *o, const cr_vtype *j) {
  if (j->tag == CR_VT_TOP) return 1;
  if (o->tag == CR_VT_OBJECT && j->tag == CR_VT_OBJECT)
    return 1;
  if (o->tag == CR_VT_NULL && j->tag == CR_VT_OBJECT) return 1;
  (void)c;
  return o->tag == j->tag && o->v == j->v;
}

static int same_vt(cr_class *c, const cr_vtype *o, const cr_vtype *j) {
  if (o->tag != j->tag) return 0;
  if (o->tag == CR_VT_OBJECT) {
    const char *x = cname(c, o), *y = cname(c, j);
    return x && y && strcmp(x, y) == 0;
  }
  return o->v == j->v;
}

/* Compare frames of method 'm' before ('js', javac) and after. */
static void compare(fstats *st, cr_class *c, cr_member *m,
                    const cr_stackmap *js, const cr_stackmap *ours,
                    const char *where) {
  cr_xframe *a = NULL, *b = NULL;
  uint32_t na = 0, nb = 0;
  cr_diag d;
  cr_diag_clear(&d);
  static const cr_stackmap none = {0, NULL};
  if (!js) js = &none;
  if (!ours) ours = &none;
  ck_assert_int_eq(cr_smt_expand(&a, &na, c, m, js, &d), 0);
  ck_assert_int_eq(cr_smt_expand(&b, &nb, c, m, ours, &d), 0);
  st->methods++;
  uint32_t i = 0, j = 0;
  while (i < na || j < nb) {
    if (j >= nb || (i < na && a[i].off < b[j].off)) {
      st->missing++;
      if (getenv("CCCP_BC_VERBOSE"))
        printf("%s: frame at %u missing\n", where, a[i].off);
      i++;
      continue;
    }
    if (i >= na || b[j].off < a[i].off) {
      st->extra++;
      if (getenv("CCCP_BC_VERBOSE"))
        printf("%s: extra frame at %u\n", where, b[j].off);
      j++;
      continue;
    }
    st->frames++;
    const cr_xframe *x = &b[j], *y = &a[i];
    int ok = x->nstack == y->nstack;
    for (uint32_t k = 0; ok && k < x->nstack; k++)
      ok = compatible(c, &x->stack[k], &y->stack[k]);
    for (uint32_t k = 0; ok && k < y->nlocals; k++) {
      static const cr_vtype top = {CR_VT_TOP, 0};
      ok = compatible(c, k < x->nlocals ? &x->locals[k] : &top,
                      &y->locals[k]);
    }
    int same = ok && x->nlocals == y->nlocals;
    for (uint32_t k = 0; same && k < x->nlocals; k++)
      same = same_vt(c, &x->locals[k], &y->locals[k]);
    for (uint32_t k = 0; same && k < x->nstack; k++)
      same = same_vt(c, &x->stack[k], &y->stack[k]);
    if (!ok) {
      st->bad++;
      if (getenv("CCCP_BC_VERBOSE"))
        printf("%s: incompatible frame at %u\n", where, x->off);
    } else if (same) {
      st->same++;
    } else {
      st->differ_locals++;
    }
    i++, j++;
  }
}

/* ------------------------------------------------------ per class */

typedef struct run {
  const cr_typeinfo *ti;
  unsigned flags;
  int check_identity;       /* code bytes must not change */
  fstats fs;
  long classes, methods, failed, toolarge, changed_code;
  cr_buf out;
} run;

static void failed(void *ctx, const cr_class *c, const cr_member *m,
                   const cr_diag *d) {
  run *r = ctx;
  (void)c, (void)m;
  if (d->code == CR_ETOOLARGE) {
    r->toolarge++;
    return;
  }
  r->failed++;
  if (r->failed <= 20) printf("reencode failed: %s\n", d->msg);
}

/* Snapshot of a method's code before re-encoding. */
typedef struct snap {
  const uint8_t *code;
  uint32_t len, nexc;
  cr_exc *exc;
  cr_stackmap *smt;
  uint16_t max_stack;
} snap;

/* Re-encode one class; returns the written bytes in r->out (0) or -1. */
static int one(run *r, const uint8_t *bytes, size_t n, const char *name) {
  cr_arena *a = cr_arena_new();
  cr_class *c;
  cr_diag d;
  cr_diag_clear(&d);
  int rc = cr_cf_parse(&c, a, bytes, n, &d);
  ck_assert_msg(rc == 0, "%s: %s", name, d.msg);
  snap *sn = calloc(c->nmethods + 1, sizeof *sn);
  for (uint32_t k = 0; k < c->nmethods; k++) {
    cr_code *code = cr_member_code(&c->methods[k]);
    if (!code) continue;
    cr_attr *at = cr_attrs_find(&code->attrs, CR_ATTR_STACKMAPTABLE);
    sn[k] = (snap){code->code, code->code_len, code->nexc, code->exc,
                   at ? at->u.smt : NULL, code->max_stack};
  }
  cr_reencode_opts o;
  memset(&o, 0, sizeof o);
  o.env.ti = r->ti;
  o.flags = r->flags;
  o.failed = failed;
  o.ctx = r;
  cr_reencode(c, &o, &d);
  r->classes++;
  r->methods += o.nok;
  for (uint32_t k = 0; k < c->nmethods && r->check_identity; k++) {
    cr_code *code = cr_member_code(&c->methods[k]);
    if (!code || code->code == sn[k].code) continue;   /* failed: kept */
    char where[512];
    snprintf(where, sizeof where, "%s.%s%s", name,
             cr_member_name(c, &c->methods[k]),
             cr_member_desc(c, &c->methods[k]));
    if (code->code_len != sn[k].len ||
        memcmp(code->code, sn[k].code, sn[k].len) != 0) {
      r->changed_code++;
      if (r->changed_code <= 5) printf("%s: code bytes changed\n", where);
      continue;
    }
    ck_assert_msg(code->nexc == sn[k].nexc &&
                  (!code->nexc || memcmp(code->exc, sn[k].exc,
                                         code->nexc * sizeof(cr_exc)) == 0),
                  "%s: exception table changed", where);
    ck_assert_msg(code->max_stack == sn[k].max_stack,
                  "%s: max_stack %u, javac %u", where, code->max_stack,
                  sn[k].max_stack);
    if (c->major >= 50) {
      cr_attr *at = cr_attrs_find(&code->attrs, CR_ATTR_STACKMAPTABLE);
      compare(&r->fs, c, &c->methods[k], sn[k].smt, at ? at->u.smt : NULL,
              where);
    }
  }
  free(sn);
  r->out.len = 0;
  rc = cr_cf_write(&r->out, c, &d);
  ck_assert_msg(rc == 0, "%s: write: %s", name, d.msg);
  cr_arena_free(a);
  /* the result parses and re-encodes again */
  a = cr_arena_new();
  cr_diag_clear(&d);
  rc = cr_cf_parse(&c, a, r->out.data, r->out.len, &d);
  ck_assert_msg(rc == 0, "%s: reparse: %s", name, d.msg);
  cr_arena_free(a);
  return 0;
}

static void report(const char *what, run *r, double t) {
  printf("%s: %ld classes, %ld methods re-encoded, %ld failed, %ld over "
         "64 KiB", what, r->classes, r->methods, r->failed, r->toolarge);
  if (t > 0) printf(", %.3f s, %.0f classes/s", t, (double)r->classes / t);
  printf("\n");
  if (r->check_identity)
    printf("  code changed in %ld methods; frames: %ld methods, %ld "
           "frames at javac's offsets, %ld identical, %ld more specific, "
           "%ld incompatible, %ld extra, %ld missing\n", r->changed_code,
           r->fs.methods, r->fs.frames, r->fs.same, r->fs.differ_locals,
           r->fs.bad, r->fs.extra, r->fs.missing);
}

/* ------------------------------------------------------- fixtures */

START_TEST(test_an_reencode__fixtures) {
  tu_files f;
  ck_assert_ptr_nonnull(tu_fixtures());
  ck_assert_int_eq(tu_list_classes(&f, tu_fixtures()), 0);
  tmap m = {0};
  for (size_t i = 0; i < f.n; i++) {
    size_t n;
    uint8_t *b = tu_slurp(f.path[i], &n);
    tmap_add_class(&m, b, n);
    free(b);
  }
  tmap_put(&m, "java/lang/Object", NULL, 0);
  cr_typeinfo ti = {&m, tmap_lookup};
  for (int stress = 0; stress < 2; stress++) {
    run r;
    memset(&r, 0, sizeof r);
    r.ti = &ti;
    r.flags = stress ? CR_REENCODE_STRESS : 0;
    r.check_identity = !stress;
    cr_buf_init(&r.out);
    for (size_t i = 0; i < f.n; i++) {
      size_t n;
      uint8_t *b = tu_slurp(f.path[i], &n);
      one(&r, b, n, f.path[i]);
      free(b);
    }
    report(stress ? "fixtures stress" : "fixtures", &r, 0);
    ck_assert_int_eq(r.failed, 0);
    ck_assert_int_eq(r.toolarge, 0);
    if (!stress) {
      ck_assert_int_eq(r.changed_code, 0);
      ck_assert_int_eq(r.fs.bad, 0);
      ck_assert_int_eq(r.fs.missing, 0);
      ck_assert_int_eq(r.fs.extra, 0);
    }
    cr_buf_free(&r.out);
  }
  tmap_free(&m);
  tu_files_free(&f);
}
END_TEST

/* ------------------------------------------- joins and missing types */

typedef struct seen { char names[16][128]; int n; } seen;

static void on_missing(void *ctx, const char *name) {
  seen *s = ctx;
  if (s->n < 16) snprintf(s->names[s->n++], 128, "%s", name);
}

/* Local 1 of merge() at its join: the class names in merge()'s frames. */
static int frames_mention_in(cr_class *c, const char *method,
                             const char *name) {
  for (uint32_t k = 0; k < c->nmethods; k++) {
    if (strcmp(cr_member_name(c, &c->methods[k]), method) != 0) continue;
    cr_code *code = cr_member_code(&c->methods[k]);
    cr_attr *at = cr_attrs_find(&code->attrs, CR_ATTR_STACKMAPTABLE);
    cr_xframe *fr;
    uint32_t n;
    cr_diag d;
    cr_diag_clear(&d);
    ck_assert_int_eq(cr_smt_expand(&fr, &n, c, &c->methods[k], at->u.smt,
                                   &d), 0);
    for (uint32_t j = 0; j < n; j++)
      for (uint32_t q = 0; q < fr[j].nlocals; q++)
        if (fr[j].locals[q].tag == CR_VT_OBJECT &&
            strcmp(cname(c, &fr[j].locals[q]), name) == 0)
          return 1;
  }
  return 0;
}

static int frames_mention(cr_class *c, const char *name) {
  return frames_mention_in(c, "merge", name);
}

/* The code of 'method' without its StackMapTable: the frames are
** inferred. */
static void drop_frames_of(cr_class *c, const char *method) {
  for (uint32_t k = 0; k < c->nmethods; k++) {
    if (strcmp(cr_member_name(c, &c->methods[k]), method) != 0) continue;
    cr_attrs *as = &cr_member_code(&c->methods[k])->attrs;
    for (uint32_t j = 0; j < as->n; j++)
      if (as->v[j].kind == CR_ATTR_STACKMAPTABLE) as->v[j--] = as->v[--as->n];
  }
}

/* The hierarchy of ArrayList and LinkedList, up to Object. */
static void put_lists(tmap *m) {
  tmap_put(m, "java/util/ArrayList", "java/util/AbstractList", 0);
  tmap_put(m, "java/util/LinkedList", "java/util/AbstractSequentialList", 0);
  tmap_put(m, "java/util/AbstractSequentialList", "java/util/AbstractList", 0);
  tmap_put(m, "java/util/AbstractList", "java/util/AbstractCollection", 0);
  tmap_put(m, "java/util/AbstractCollection", "java/lang/Object", 0);
}

/* Without the original StackMapTable, ArrayList and LinkedList join to
** AbstractList when the hierarchy is known; unknown, the join is Object
** and each missing name is reported. With it, the join is the type it
** states (javac's Object), or TOP where it states none, which needs no
** hierarchy: HotSpot's verifier then loads the classes the original's
** does. */
START_TEST(test_an_reencode__join_and_missing) {
  for (int v = 0; v < 4; v++) {
    int known = v & 1, stated = v >> 1;
    size_t n;
    uint8_t *b = tu_fixture("bc/BcFlow", &n);
    ck_assert_ptr_nonnull(b);
    tmap m = {0};
    tmap_add_class(&m, b, n);
    tmap_put(&m, "java/lang/Object", NULL, 0);
    if (known) put_lists(&m);
    cr_typeinfo ti = {&m, tmap_lookup};
    seen s;
    memset(&s, 0, sizeof s);
    cr_arena *a = cr_arena_new();
    cr_class *c;
    cr_diag d;
    cr_diag_clear(&d);
    ck_assert_int_eq(cr_cf_parse(&c, a, b, n, &d), 0);
    if (!stated) {
      drop_frames_of(c, "merge");
      drop_frames_of(c, "scoped");
    }
    cr_reencode_opts o;
    memset(&o, 0, sizeof o);
    o.env.ti = &ti;
    o.env.missing = on_missing;
    o.env.ctx = &s;
    ck_assert_msg(cr_reencode(c, &o, &d) == 0, "%s", d.msg);
    int reported = 0;
    for (int k = 0; k < s.n; k++)
      reported |= strcmp(s.names[k], "java/util/ArrayList") == 0;
    for (int k = 0; k < s.n; k++)       /* once per class and type */
      for (int j = 0; j < k; j++)
        ck_assert_str_ne(s.names[j], s.names[k]);
    /* scoped(): a local javac's frame leaves out (out of scope) stays
    ** TOP at the join, where data flow would join the two lists (the
    ** verifier would compare, and load, their classes) */
    if (known)
      ck_assert_int_eq(frames_mention_in(c, "scoped", "java/util/AbstractList"),
                       !stated);
    if (stated) {
      ck_assert(!reported);
      ck_assert(!frames_mention(c, "java/util/AbstractList"));
      ck_assert(frames_mention(c, "java/lang/Object"));
    } else if (known) {
      ck_assert(!reported);
      ck_assert(frames_mention(c, "java/util/AbstractList"));
    } else {
      ck_assert(reported);
      ck_assert(!frames_mention(c, "java/util/AbstractList"));
    }
    cr_arena_free(a);
    tmap_free(&m);
    free(b);
  }
}
END_TEST

/* A failing method is named with its class and left as it was. */
static void note(void *ctx, const cr_class *c, const cr_member *m,
                 const cr_diag *d) {
  (void)c, (void)m;
  snprintf(ctx, 512, "%s", d->msg);
}

START_TEST(test_an_reencode__failure_names_method) {
  size_t n;
  uint8_t *b = tu_fixture("bc/BcFlow", &n);
  ck_assert_ptr_nonnull(b);
  cr_arena *a = cr_arena_new();
  cr_class *c;
  cr_diag d;
  cr_diag_clear(&d);
  ck_assert_int_eq(cr_cf_parse(&c, a, b, n, &d), 0);
  /* break table(): its tableswitch now pops an empty stack */
  cr_code *code = NULL;
  for (uint32_t k = 0; k < c->nmethods; k++)
    if (strcmp(cr_member_name(c, &c->methods[k]), "table") == 0)
      code = cr_member_code(&c->methods[k]);
  uint8_t *bytes = cr_arena_alloc(a, code->code_len);
  memcpy(bytes, code->code, code->code_len);
  ck_assert_int_eq(bytes[0], CR_OP_ILOAD_0);
  bytes[0] = CR_OP_NOP;
  code->code = bytes;
  char msg[512] = "";
  cr_reencode_opts o;
  memset(&o, 0, sizeof o);
  o.failed = note;
  o.ctx = msg;
  ck_assert_int_eq(cr_reencode(c, &o, &d), CR_EFORMAT);
  ck_assert_uint_eq(o.nfail, 1);
  ck_assert_uint_gt(o.nok, 5);
  ck_assert_msg(strstr(msg, "class bc/BcFlow: table(I)I: offset 1: "
                            "tableswitch: stack underflow"), "%s", msg);
  ck_assert_str_eq(d.msg, msg);
  ck_assert_ptr_eq(code->code, bytes);
  cr_arena_free(a);
  free(b);
}
END_TEST

/* ------------------------------------------------------- java.base */

typedef struct jmod_data {
  size_t n;
  char **name;
  uint8_t **b;
  size_t *len;
} jmod_data;

static int load_jmod(jmod_data *j, const char *path) {
  cr_input *in;
  cr_diag d;
  cr_diag_clear(&d);
  memset(j, 0, sizeof *j);
  if (cr_input_open(&in, path, &d)) {
    printf("skip: %s: %s\n", path, d.msg);
    return -1;
  }
  size_t n = cr_input_count(in);
  j->name = calloc(n, sizeof *j->name);
  j->b = calloc(n, sizeof *j->b);
  j->len = calloc(n, sizeof *j->len);
  for (size_t i = 0; i < n; i++) {
    cr_entry_info e;
    cr_input_info(in, i, &e);
    size_t k = strlen(e.name);
    if (e.is_dir || k < 6 || strcmp(e.name + k - 6, ".class") != 0 ||
        strcmp(e.name, "module-info.class") == 0)
      continue;
    ck_assert_int_eq(cr_input_read(in, i, &j->b[j->n], &j->len[j->n], &d),
                     0);
    j->name[j->n++] = strdup(e.name);
  }
  cr_input_close(in);
  return 0;
}

static void free_jmod(jmod_data *j) {
  for (size_t i = 0; i < j->n; i++) free(j->name[i]), cr_free(j->b[i]);
  free(j->name);
  free(j->b);
  free(j->len);
}

static void jmod_run(const char *path, int write_jars) {
  jmod_data j;
  if (load_jmod(&j, path)) return;
  tmap m = {0};
  for (size_t i = 0; i < j.n; i++) tmap_add_class(&m, j.b[i], j.len[i]);
  cr_typeinfo ti = {&m, tmap_lookup};
  const char *jardir = write_jars ? getenv("CCCP_BC_JARDIR") : NULL;
  /* parse+write only, for the throughput ratio */
  {
    cr_buf out;
    cr_buf_init(&out);
    double t0 = now();
    for (size_t i = 0; i < j.n; i++) {
      cr_arena *a = cr_arena_new();
      cr_class *c;
      cr_diag d;
      cr_diag_clear(&d);
      ck_assert_int_eq(cr_cf_parse(&c, a, j.b[i], j.len[i], &d), 0);
      out.len = 0;
      ck_assert_int_eq(cr_cf_write(&out, c, &d), 0);
      cr_arena_free(a);
    }
    double t = now() - t0;
    printf("%s: parse+write %zu classes, %.3f s, %.0f classes/s\n",
           strrchr(path, '/') + 1, j.n, t, (double)j.n / t);
    cr_buf_free(&out);
  }
  if (jardir) {
    char p[1024];
    cr_jarw *w;
    cr_diag d;
    cr_diag_clear(&d);
    snprintf(p, sizeof p, "%s/orig.jar", jardir);
    ck_assert_int_eq(cr_jarw_open(&w, p, &d), 0);
    for (size_t i = 0; i < j.n; i++)
      ck_assert_int_eq(cr_jarw_add(w, j.name[i], j.b[i], j.len[i], &d), 0);
    ck_assert_int_eq(cr_jarw_commit(w, &d), 0);
  }
  for (int stress = 0; stress < 2; stress++) {
    run r;
    memset(&r, 0, sizeof r);
    r.ti = &ti;
    r.flags = stress ? CR_REENCODE_STRESS : 0;
    r.check_identity = !stress;
    cr_buf_init(&r.out);
    cr_jarw *w = NULL;
    cr_diag d;
    cr_diag_clear(&d);
    if (jardir) {
      char p[1024];
      snprintf(p, sizeof p, "%s/%s.jar", jardir,
               stress ? "stress" : "reenc");
      ck_assert_int_eq(cr_jarw_open(&w, p, &d), 0);
    }
    double t0 = now();
    for (size_t i = 0; i < j.n; i++) {
      one(&r, j.b[i], j.len[i], j.name[i]);
      if (w)
        ck_assert_int_eq(cr_jarw_add(w, j.name[i], r.out.data, r.out.len,
                                     &d), 0);
    }
    double t = now() - t0;
    if (w) ck_assert_int_eq(cr_jarw_commit(w, &d), 0);
    char what[256];
    snprintf(what, sizeof what, "%s %s", strrchr(path, '/') + 1,
             stress ? "stress" : "reencode");
    report(what, &r, t);
    ck_assert_int_eq(r.failed, 0);
    if (!stress) ck_assert_int_eq(r.fs.bad, 0);
    cr_buf_free(&r.out);
  }
  /* pure speed: reencode without the checks and snapshots */
  {
    double t0 = now();
    cr_buf out;
    cr_buf_init(&out);
    for (size_t i = 0; i < j.n; i++) {
      cr_arena *a = cr_arena_new();
      cr_class *c;
      cr_diag d;
      cr_diag_clear(&d);
      ck_assert_int_eq(cr_cf_parse(&c, a, j.b[i], j.len[i], &d), 0);
      cr_reencode_class(c, a, &ti, 0, &d);
      out.len = 0;
      ck_assert_int_eq(cr_cf_write(&out, c, &d), 0);
      cr_arena_free(a);
    }
    double t = now() - t0;
    printf("%s: parse+reencode+write %.3f s, %.0f classes/s\n",
           strrchr(path, '/') + 1, t, (double)j.n / t);
    cr_buf_free(&out);
  }
  tmap_free(&m);
  free_jmod(&j);
}

START_TEST(test_an_reencode__jdk_java_base) {
  jmod_run(TU_JDK "/java.base.jmod", 1);
}
END_TEST

static Suite *suite(void) {
  Suite *s = suite_create("analysis");
  TCase *tc = tcase_create("reencode");
  tcase_set_timeout(tc, 900);
  tcase_add_test(tc, test_an_reencode__fixtures);
  tcase_add_test(tc, test_an_reencode__join_and_missing);
  tcase_add_test(tc, test_an_reencode__failure_names_method);
  tcase_add_test(tc, test_an_reencode__jdk_java_base);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) {
  SRunner *sr = srunner_create(suite());
  srunner_run_all(sr, CK_NORMAL);
  int failed_n = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed_n ? EXIT_FAILURE : EXIT_SUCCESS;
}
