/*
** oracle.c -- the CCT oracle: a JVMTI agent that builds the exact calling
** context tree of an uninstrumented run from MethodEntry/MethodExit
** events, per thread, and writes it as profile XML version 1, mode
** "oracle", when the VM dies.
**
**   java -agentpath:libcccporacle.so=out=FILE[,threads=all|app] ...
**
** Method identity is (class internal name, name, descriptor); ids are
** dense in first-call order. MethodExit is also delivered for frames
** popped by an exception, so the shadow stack needs nothing else. Exits of
** frames entered before events started (threads already running at VM
** init) are ignored: an exit pops only when it matches the top of the
** shadow stack. Slow (events force the interpreter); for test programs.
*/
#include <jvmti.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cccp/util.h"

typedef struct meth {
  char *cls, *name, *desc;
  int native;
} meth;

typedef struct node {
  uint32_t method, parent, first, next, tail;
  uint64_t calls;
} node;

#define MCACHE 1024      /* per-thread direct-mapped jmethodID cache */

typedef struct tstate {
  pthread_mutex_t mu;
  char *name;
  int system;
  node *nodes;           /* [0] is the root */
  size_t n, cap;
  uint32_t *tab;         /* (parent, method) -> node, open addressing */
  size_t tabn;
  uint32_t *stack;       /* shadow stack of node indices */
  size_t depth, scap;
  struct { jmethodID id; uint32_t m; } mc[MCACHE];
  struct tstate *next;   /* creation order */
} tstate;

static jvmtiEnv *jv;
static pthread_mutex_t glock = PTHREAD_MUTEX_INITIALIZER;
static meth *meths;      /* [1..nmeths] */
static size_t nmeths, capm;
static struct { jmethodID id; uint32_t m; } *mtab;  /* global id map */
static size_t mtabn;
static tstate *threads, *threads_tail;
static char outpath[4096] = "cccp-oracle.xml";
static int app_only;
static volatile int dead;
static unsigned long long exc_exits, unmatched_exits;

static void *xrealloc(void *p, size_t n) {
  void *q = realloc(p, n);
  if (!q) {
    fprintf(stderr, "cccp-oracle: out of memory\n");
    abort();
  }
  return q;
}

static size_t hptr(const void *p) {
  uint64_t x = (uint64_t)(uintptr_t)p * 0x9E3779B97F4A7C15ull;
  return (size_t)(x ^ x >> 31);
}

/* "Lpkg/Name;" -> "pkg/Name" (malloc'd); other signatures unchanged. */
static char *classname(const char *sig) {
  size_t n = strlen(sig);
  if (n >= 2 && sig[0] == 'L' && sig[n - 1] == ';') {
    char *s = xrealloc(NULL, n - 1);
    memcpy(s, sig + 1, n - 2);
    s[n - 2] = 0;
    return s;
  }
  return strdup(sig);
}

/* Global method index of 'id', registered on first sight (under glock). */
static uint32_t method_index(jmethodID id) {
  pthread_mutex_lock(&glock);
  if ((nmeths + 1) * 2 >= mtabn) {
    size_t n = mtabn ? mtabn * 2 : 4096;
    void *t = calloc(n, sizeof *mtab);
    if (!t) abort();
    typeof(mtab) nt = t;
    for (size_t i = 0; i < mtabn; i++)
      if (mtab[i].id) {
        size_t j = hptr(mtab[i].id) & (n - 1);
        while (nt[j].id) j = (j + 1) & (n - 1);
        nt[j] = mtab[i];
      }
    free(mtab);
    mtab = nt;
    mtabn = n;
  }
  size_t j = hptr(id) & (mtabn - 1);
  while (mtab[j].id && mtab[j].id != id) j = (j + 1) & (mtabn - 1);
  if (mtab[j].id) {
    uint32_t m = mtab[j].m;
    pthread_mutex_unlock(&glock);
    return m;
  }
  meth m = {0};
  char *name = NULL, *sig = NULL, *csig = NULL;
  jclass k = NULL;
  jboolean nat = 0;
  (*jv)->GetMethodName(jv, id, &name, &sig, NULL);
  (*jv)->GetMethodDeclaringClass(jv, id, &k);
  if (k) (*jv)->GetClassSignature(jv, k, &csig, NULL);
  (*jv)->IsMethodNative(jv, id, &nat);
  m.cls = classname(csig ? csig : "?");
  m.name = strdup(name ? name : "?");
  m.desc = strdup(sig ? sig : "?");
  m.native = nat != 0;
  (*jv)->Deallocate(jv, (unsigned char *)name);
  (*jv)->Deallocate(jv, (unsigned char *)sig);
  (*jv)->Deallocate(jv, (unsigned char *)csig);
  if (nmeths + 1 >= capm) {
    capm = capm ? capm * 2 : 1024;
    meths = xrealloc(meths, capm * sizeof *meths);
  }
  meths[++nmeths] = m;
  mtab[j].id = id;
  mtab[j].m = (uint32_t)nmeths;
  uint32_t r = (uint32_t)nmeths;
  pthread_mutex_unlock(&glock);
  return r;
}

/* Same rule as the runtime (cccp.rt.CC.isSystem). */
static int system_thread(jthread t, const char *name) {
  if (strcmp(name, "main") == 0) return 0;
  jvmtiThreadInfo ti;
  if ((*jv)->GetThreadInfo(jv, t, &ti) != JVMTI_ERROR_NONE) return 0;
  (*jv)->Deallocate(jv, (unsigned char *)ti.name);
  if (!ti.thread_group) return 0;
  jvmtiThreadGroupInfo g, pg;
  if ((*jv)->GetThreadGroupInfo(jv, ti.thread_group, &g)) return 0;
  int sys;
  if (!g.parent) {
    sys = 1;
  } else if ((*jv)->GetThreadGroupInfo(jv, g.parent, &pg)) {
    sys = 0;
  } else {
    sys = !pg.parent && strcmp(g.name, "main") != 0 &&
          strcmp(g.name, "VirtualThreads") != 0;
    (*jv)->Deallocate(jv, (unsigned char *)pg.name);
  }
  (*jv)->Deallocate(jv, (unsigned char *)g.name);
  return sys;
}

static tstate *state(jthread t) {
  void *p = NULL;
  (*jv)->GetThreadLocalStorage(jv, t, &p);
  if (p) return p;
  tstate *s = calloc(1, sizeof *s);
  if (!s) abort();
  pthread_mutex_init(&s->mu, NULL);
  jvmtiThreadInfo ti;
  if ((*jv)->GetThreadInfo(jv, t, &ti) == JVMTI_ERROR_NONE) {
    s->name = strdup(ti.name ? ti.name : "");
    (*jv)->Deallocate(jv, (unsigned char *)ti.name);
  } else {
    s->name = strdup("");
  }
  s->system = system_thread(t, s->name);
  s->cap = 1024;
  s->nodes = xrealloc(NULL, s->cap * sizeof *s->nodes);
  memset(&s->nodes[0], 0, sizeof s->nodes[0]);
  s->n = 1;
  (*jv)->SetThreadLocalStorage(jv, t, s);
  pthread_mutex_lock(&glock);
  if (threads_tail) threads_tail->next = s;
  else threads = s;
  threads_tail = s;
  pthread_mutex_unlock(&glock);
  return s;
}

static size_t hpair(uint32_t a, uint32_t b) {
  uint64_t x = ((uint64_t)a << 32 | b) * 0x9E3779B97F4A7C15ull;
  return (size_t)(x ^ x >> 29);
}

/* The child of node 'parent' for method 'm', created when new. */
static uint32_t child(tstate *s, uint32_t parent, uint32_t m) {
  node *p = &s->nodes[parent];
  if (p->tail && s->nodes[p->tail].method == m) return p->tail;
  if ((s->n + 1) * 2 >= s->tabn) {
    size_t n = s->tabn ? s->tabn * 2 : 4096;
    uint32_t *t = calloc(n, sizeof *t);
    if (!t) abort();
    for (size_t i = 1; i < s->n; i++) {
      size_t j = hpair(s->nodes[i].parent, s->nodes[i].method) & (n - 1);
      while (t[j]) j = (j + 1) & (n - 1);
      t[j] = (uint32_t)i;
    }
    free(s->tab);
    s->tab = t;
    s->tabn = n;
  }
  size_t j = hpair(parent, m) & (s->tabn - 1);
  for (uint32_t i; (i = s->tab[j]); j = (j + 1) & (s->tabn - 1))
    if (s->nodes[i].parent == parent && s->nodes[i].method == m) return i;
  if (s->n == s->cap) {
    s->cap *= 2;
    s->nodes = xrealloc(s->nodes, s->cap * sizeof *s->nodes);
  }
  uint32_t i = (uint32_t)s->n++;
  node *c = &s->nodes[i];
  memset(c, 0, sizeof *c);
  c->method = m;
  c->parent = parent;
  p = &s->nodes[parent];
  if (p->tail) s->nodes[p->tail].next = i;
  else p->first = i;
  p->tail = i;
  s->tab[j] = i;
  return i;
}

static uint32_t cached_index(tstate *s, jmethodID id) {
  size_t h = hptr(id) & (MCACHE - 1);
  if (s->mc[h].id == id) return s->mc[h].m;
  uint32_t m = method_index(id);
  s->mc[h].id = id;
  s->mc[h].m = m;
  return m;
}

static void JNICALL on_method_entry(jvmtiEnv *e, JNIEnv *jni, jthread t,
                             jmethodID id) {
  (void)e;
  (void)jni;
  if (dead) return;
  tstate *s = state(t);
  uint32_t m = cached_index(s, id);
  pthread_mutex_lock(&s->mu);
  uint32_t top = s->depth ? s->stack[s->depth - 1] : 0;
  uint32_t c = child(s, top, m);
  s->nodes[c].calls++;
  if (s->depth == s->scap) {
    s->scap = s->scap ? s->scap * 2 : 256;
    s->stack = xrealloc(s->stack, s->scap * sizeof *s->stack);
  }
  s->stack[s->depth++] = c;
  pthread_mutex_unlock(&s->mu);
}

static void JNICALL on_method_exit(jvmtiEnv *e, JNIEnv *jni, jthread t,
                            jmethodID id, jboolean by_exception,
                            jvalue rv) {
  (void)e;
  (void)jni;
  (void)rv;
  if (dead) return;
  tstate *s = state(t);
  uint32_t m = cached_index(s, id);
  pthread_mutex_lock(&s->mu);
  if (s->depth && s->nodes[s->stack[s->depth - 1]].method == m) {
    s->depth--;
    if (by_exception) __atomic_add_fetch(&exc_exits, 1, __ATOMIC_RELAXED);
  } else {
    __atomic_add_fetch(&unmatched_exits, 1, __ATOMIC_RELAXED);
  }
  pthread_mutex_unlock(&s->mu);
}

static void JNICALL on_thread_start(jvmtiEnv *e, JNIEnv *jni, jthread t) {
  (void)e;
  (void)jni;
  if (!dead) state(t);
}

/* An attribute value, XML-escaped (JVMTI strings are modified UTF-8:
** cr_xml_attr writes them as UTF-8, as the runtime does). */
static void text(FILE *f, const char *s) { cr_xml_attr(f, s); }

static void indent(FILE *f, size_t d) {
  for (size_t i = d < 40 ? d : 40; i; i--) fputs("  ", f);
}

static void dump(void) {
  char tmp[4200];
  struct stat st;
  /* Not a regular file (a device, a FIFO): write to it directly. */
  int direct = stat(outpath, &st) == 0 && !S_ISREG(st.st_mode);
  snprintf(tmp, sizeof tmp, "%s%s", outpath, direct ? "" : ".tmp");
  FILE *f = fopen(tmp, "w");
  if (!f) {
    perror(tmp);
    return;
  }
  pthread_mutex_lock(&glock);
  fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        "<cct version=\"1\" mode=\"oracle\">\n", f);
  for (size_t i = 1; i <= nmeths; i++) {
    fprintf(f, "  <method id=\"%zu\" class=\"", i);
    text(f, meths[i].cls);
    fputs("\" name=\"", f);
    text(f, meths[i].name);
    fputs("\" desc=\"", f);
    text(f, meths[i].desc);
    fprintf(f, "\" size=\"0\" native=\"%d\" library=\"0\"/>\n",
            meths[i].native);
  }
  for (tstate *s = threads; s; s = s->next) {
    pthread_mutex_lock(&s->mu);
    if (!s->nodes[0].first || (app_only && s->system)) {
      pthread_mutex_unlock(&s->mu);
      continue;
    }
    fputs("  <tree thread=\"", f);
    text(f, s->name);
    fputs("\">\n", f);
    size_t depth = 2;
    uint32_t n = s->nodes[0].first;
    while (n) {
      node *x = &s->nodes[n];
      indent(f, depth);
      fprintf(f, "<node method=\"%u\" calls=\"%llu\"", x->method,
              (unsigned long long)x->calls);
      if (x->first) {
        fputs(">\n", f);
        depth++;
        n = x->first;
        continue;
      }
      fputs("/>\n", f);
      while (n && !s->nodes[n].next) {
        n = s->nodes[n].parent;
        if (n) {
          depth--;
          indent(f, depth);
          fputs("</node>\n", f);
        }
      }
      if (n) n = s->nodes[n].next;
    }
    fputs("  </tree>\n", f);
    pthread_mutex_unlock(&s->mu);
  }
  fputs("</cct>\n", f);
  pthread_mutex_unlock(&glock);
  if (fclose(f) != 0 || (!direct && rename(tmp, outpath) != 0)) {
    perror(outpath);
    return;
  }
  if (getenv("CCCP_ORACLE_VERBOSE"))
    fprintf(stderr, "cccp-oracle: %zu methods, %llu exceptional exits, "
            "%llu unmatched exits -> %s\n", nmeths, exc_exits,
            unmatched_exits, outpath);
}

static void JNICALL on_death(jvmtiEnv *e, JNIEnv *jni) {
  (void)e;
  (void)jni;
  dead = 1;
  dump();
}

static int options(const char *opt) {
  while (opt && *opt) {
    const char *end = strchr(opt, ',');
    size_t n = end ? (size_t)(end - opt) : strlen(opt);
    if (n > 4 && strncmp(opt, "out=", 4) == 0 && n - 4 < sizeof outpath) {
      memcpy(outpath, opt + 4, n - 4);
      outpath[n - 4] = 0;
    } else if (n == 11 && strncmp(opt, "threads=app", 11) == 0) {
      app_only = 1;
    } else if (n == 11 && strncmp(opt, "threads=all", 11) == 0) {
      app_only = 0;
    } else {
      fprintf(stderr, "cccp-oracle: unknown option '%.*s' (want "
              "out=FILE,threads=all|app)\n", (int)n, opt);
      return -1;
    }
    opt = end ? end + 1 : NULL;
  }
  return 0;
}

JNIEXPORT jint JNICALL Agent_OnLoad(JavaVM *vm, char *opt, void *res) {
  (void)res;
  if (options(opt)) return JNI_ERR;
  if ((*vm)->GetEnv(vm, (void **)&jv, JVMTI_VERSION_1_2) != JNI_OK) {
    fprintf(stderr, "cccp-oracle: no JVMTI 1.2\n");
    return JNI_ERR;
  }
  jvmtiCapabilities caps;
  memset(&caps, 0, sizeof caps);
  caps.can_generate_method_entry_events = 1;
  caps.can_generate_method_exit_events = 1;
  if ((*jv)->AddCapabilities(jv, &caps) != JVMTI_ERROR_NONE) {
    fprintf(stderr, "cccp-oracle: method entry/exit events unavailable\n");
    return JNI_ERR;
  }
  jvmtiEventCallbacks cb;
  memset(&cb, 0, sizeof cb);
  cb.MethodEntry = on_method_entry;
  cb.MethodExit = on_method_exit;
  cb.ThreadStart = on_thread_start;
  cb.VMDeath = on_death;
  (*jv)->SetEventCallbacks(jv, &cb, (jint)sizeof cb);
  jvmtiEvent ev[] = {JVMTI_EVENT_METHOD_ENTRY, JVMTI_EVENT_METHOD_EXIT,
                     JVMTI_EVENT_THREAD_START, JVMTI_EVENT_VM_DEATH};
  for (size_t i = 0; i < sizeof ev / sizeof ev[0]; i++)
    if ((*jv)->SetEventNotificationMode(jv, JVMTI_ENABLE, ev[i], NULL) !=
        JVMTI_ERROR_NONE) {
      fprintf(stderr, "cccp-oracle: cannot enable event %d\n", ev[i]);
      return JNI_ERR;
    }
  return JNI_OK;
}
