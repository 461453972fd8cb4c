/*
** load.c -- the load-time rewriter of libcccp-agent.so. In the JVM's
** ClassFileLoadHook, a class that was not rewritten ahead of time (one
** the program defines at run time: a compiled script, a generated
** function; one of a jar left as it was) goes through the analysis and
** the transform of cccp-rewrite, against the hierarchy of the rewrite
** that wrote the options file (its summary: the JDK's classes and the
** rewritten ones, with their analysis) and the classes instrumented here
** before. What is left alone: the JDK's classes, the runtime's, classes
** the summary knows (rewritten, or seen as a library), classes already
** instrumented, and hidden classes (the JVM does not show them to the
** hook: lambda proxies, lambda forms). A class whose supertypes are not
** known yet stays as it is (its superclass loads after it); a class the
** transform cannot take stays as it is, with one line on stderr.
*/
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <jni.h>
#include <jvmti.h>

#include "load.h"
#include "cccp/classfile.h"
#include "cccp/hier.h"
#include "cccp/policy.h"
#include "cccp/util.h"
#include "cccp/xform.h"

static struct {
  pthread_mutex_t mu;
  char *summary_path;
  cr_hier *h;               /* the summary's hierarchy and every class
                               instrumented here, made on first use */
  cr_policy *pol;
  int broken;               /* the summary could not be read: off */
  char **failed;            /* classes the transform could not take,
                               which the hierarchy holds as instrumented:
                               their subtypes stay as they are too */
  size_t nfailed;
} L = {PTHREAD_MUTEX_INITIALIZER, NULL, NULL, NULL, 0, NULL, 0};

int cr_agent_load_init(const char *summary) {
  L.summary_path = strdup(summary);
  return L.summary_path ? 0 : -1;
}

/* The JDK's packages and the runtime's, at a glance (the hierarchy knows
** the JDK's packages exactly: cr_hclass_in_jdk_package). */
static int jdk_name(const char *n) {
  static const char *const pre[] = {"java/", "javax/", "jdk/", "sun/",
                                    "com/sun/", "cccp/rt/", "org/ietf/jgss/",
                                    "org/w3c/dom/", "org/xml/sax/"};
  for (size_t i = 0; i < sizeof pre / sizeof *pre; i++)
    if (strncmp(n, pre[i], strlen(pre[i])) == 0) return 1;
  return 0;
}

/* Whether the class file names the runtime's node type: instrumented. */
static int names_runtime(const unsigned char *b, jint len) {
  static const char cc[] = "Lcccp/rt/CC;";
  return len > 0 && memmem(b, (size_t)len, cc, sizeof cc - 1) != NULL;
}

static void warn(const char *cls, const char *msg) {
  fprintf(stderr, "cccp: %s: %s\n", cls, msg);
  fflush(stderr);
}

static void xf_warn(void *ctx, const cr_class *c, const char *msg) {
  (void)c;
  warn(ctx, msg);
}

static void no_missing(void *ctx, const char *name) {
  (void)ctx;
  (void)name;
}

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* The hierarchy of the summary, linked and analysed, once; 0 when ready. */
static int ready(void) {
  if (L.broken) return -1;
  if (L.h) return 0;
  double t0 = now();
  cr_diag d;
  cr_diag_clear(&d);
  if (cr_policy_new(&L.pol, 1, &d) != 0 || cr_hier_new(&L.h, &d) != 0 ||
      cr_hier_load(L.h, L.summary_path, &d) != 0 ||
      cr_hier_link(L.h, &d) != 0 || cr_hier_analyze(L.h, L.pol, &d) != 0) {
    char msg[1024];
    cr_diag_format(&d, msg, sizeof msg);
    fprintf(stderr, "cccp: classes defined at run time are not "
            "instrumented: %s\n", msg);
    cr_hier_free(L.h);
    L.h = NULL;
    L.broken = 1;
    return -1;
  }
  if (getenv("CCCP_LOAD_DEBUG"))
    fprintf(stderr, "cccp: %s read in %.3f s\n", L.summary_path, now() - t0);
  return 0;
}

static int failed(const char *name) {
  for (size_t i = 0; i < L.nfailed; i++)
    if (strcmp(L.failed[i], name) == 0) return 1;
  return 0;
}

/* Whether supertype 'name' is known and complete, and no failed class is
** among its superclasses. */
static int known(const char *name) {
  const cr_hclass *c = cr_hier_class(L.h, name);
  if (!c || !cr_hclass_complete(c)) return 0;
  for (; c; c = cr_hier_class(L.h, cr_hclass_super(c) ? cr_hclass_super(c)
                                                       : ""))
    if (failed(cr_hclass_name(c))) return 0;
  return 1;
}

static void note_failed(const char *name) {
  char **v = realloc(L.failed, (L.nfailed + 1) * sizeof *v);
  if (!v) return;
  L.failed = v;
  if ((v[L.nfailed] = strdup(name))) L.nfailed++;
}

/*
** Instrument class 'name' (bytes 'in'): 0 and the new bytes in 'out', 1
** when it stays as it is (said on stderr when that is worth saying), -1
** when memory ran out.
*/
static int rewrite(const char *name, const uint8_t *in, size_t len,
                   cr_buf *out) {
  double t0 = now();
  cr_diag d;
  cr_diag_clear(&d);
  if (cr_hier_class(L.h, name)) return 1;   /* seen ahead of time */
  cr_arena *a = cr_arena_new();
  if (!a) return -1;
  int rc = 1, added = 0;
  cr_class *c;
  /* bytes that are no class file: the JVM says so itself */
  if (cr_cf_parse(&c, a, in, len, &d) != 0) {
    rc = d.code == CR_ENOMEM ? -1 : 1;
    goto out;
  }
  /* its supertypes known (a superclass loads after its subclass's hook) */
  const char *sup = c->super_class ? cr_cp_class_name(c->cp, c->super_class)
                                    : NULL;
  int ok = !sup || known(sup);
  for (uint32_t i = 0; ok && i < c->interfaces.n; i++) {
    const char *f = cr_cp_class_name(c->cp, c->interfaces.v[i]);
    ok = f && known(f);
  }
  if (!ok) {
    if (getenv("CCCP_LOAD_DEBUG"))
      fprintf(stderr, "cccp: %s: supertypes unknown\n", name);
    goto out;
  }
  const cr_hclass *hc;
  if (cr_hier_extend(L.h, c, CR_HIER_INSTRUMENTED, 0, L.pol, &hc, &d) != 0)
    goto fail;
  added = 1;
  if (cr_hclass_in_jdk_package(hc)) goto out;
  cr_xf_opts xo;
  memset(&xo, 0, sizeof xo);
  cr_typeinfo ti = cr_hier_typeinfo(L.h);
  xo.h = L.h;
  xo.pol = L.pol;
  xo.env.ti = &ti;
  xo.env.missing = no_missing;
  xo.warn = xf_warn;
  xo.ctx = (void *)name;
  if (cr_xf_cccp(c, &xo, &d) != 0 || cr_cf_write(out, c, &d) != 0 ||
      out->err)
    goto fail;
  rc = xo.nskipped ? 1 : 0;
  if (getenv("CCCP_LOAD_DEBUG"))
    fprintf(stderr, "cccp: %s: instrumented in %.4f s\n", name, now() - t0);
  goto out;
fail:
  if (added) note_failed(name);
  if (d.code == CR_ENOMEM) {
    rc = -1;
  } else {
    char msg[1024], line[1200];
    cr_diag_format(&d, msg, sizeof msg);
    snprintf(line, sizeof line, "left uninstrumented: %s", msg);
    warn(name, line);
  }
out:
  if (rc != 0 && added && !failed(name)) note_failed(name);
  cr_arena_free(a);
  return rc;
}

void JNICALL cr_agent_class_hook(jvmtiEnv *j, JNIEnv *env, jclass redefined,
                                 jobject loader, const char *name,
                                 jobject domain, jint len,
                                 const unsigned char *data, jint *new_len,
                                 unsigned char **new_data) {
  (void)env;
  (void)domain;
  if (redefined || !loader || !name || len <= 0 || jdk_name(name) ||
      names_runtime(data, len))
    return;
  pthread_mutex_lock(&L.mu);
  if (ready() == 0) {
    cr_buf b;
    cr_buf_init(&b);
    int rc = rewrite(name, data, (size_t)len, &b);
    unsigned char *mem = NULL;
    if (rc == 0 && b.len <= INT32_MAX &&
        (*j)->Allocate(j, (jlong)b.len, &mem) == JVMTI_ERROR_NONE) {
      memcpy(mem, b.data, b.len);
      *new_data = mem;
      *new_len = (jint)b.len;
    } else if (rc == 0) {
      note_failed(name);
    }
    cr_buf_free(&b);
  }
  pthread_mutex_unlock(&L.mu);
}
