/*
** oracle.c -- the CCT oracle: a JVMTI agent that builds the exact calling
** context tree of an uninstrumented run from MethodEntry/MethodExit
** events, per thread, and writes it as profile XML version 1, mode
** "oracle", when the VM dies.
**
**   java -agentpath:libcccporacle.so=OPT[,OPT...] ...
**
**   out=FILE           where to write (default cccp-oracle.xml)
**   threads=all|app    app: leave out the system threads' trees
**   jop=2014|2008      JOP bytecode trace: a 'cycles' metric per context,
**                      the JOP time of the bytecodes that ran there
**   rws=N, wws=N       JOP read and write wait states (default 1 and 2)
**   sw=N               cycles of a bytecode JOP runs in software (200)
**   cache=W:B          with jop=: simulate JOP's method cache of W words
**                      in B blocks (FIFO, whole methods; per thread):
**                      invokes, returns and catches cost their load only
**                      on a miss
**   costed=P[:P...]    internal class-name prefixes ("control/:packet/"):
**                      only methods of these classes are costed and
**                      counted; required with jop=
**   open_patches=1     at VM init, before recording, open the reader of
**                      every module of the boot layer (as the runtime of
**                      an instrumented JDK does while profiling is off:
**                      the JDK reads a patch jar's entries in Java the
**                      first time a loader looks up one of its resources)
**   counts=1           metrics 'bytecodes' and 'allocations' (new,
**                      newarray, anewarray, multianewarray); without
**                      costed= every method with bytecode is counted
**
** Method identity is (class internal name, name, descriptor); ids are
** dense in first-call order. MethodExit is also delivered for frames
** popped by an exception, so the shadow stack needs nothing else. Exits of
** frames entered before events started (threads already running at VM
** init) are ignored: an exit pops only when it matches the top of the
** shadow stack. Slow (events force the interpreter); for test programs.
**
** The JOP trace single-steps every bytecode and charges the context on
** top of the thread's shadow stack when its method is costed: a
** bytecode's basic-block cost (jop.h), and for a return the full return
** cost, with the caller's load time when the caller is costed, else the
** hit cost. The entry of a costed method from a costed caller adds the
** size-dependent part of the invoke, max(0, b - 37), to the caller. A
** frame popped by an exception runs no return and is charged nothing.
** These are the cycles 'cr_jop_complete' arrives at from the block costs
** and the tree, so the profile says jop-completed="1". Costed methods are
** written with their code length as 'size', the others with 0.
**
** HotSpot hides single steps while it resolves a constant-pool entry
** (JvmtiHideSingleStepping): a class initializer that a getstatic,
** putstatic or invokestatic triggers runs unseen, with all it calls.
** MethodEntry/MethodExit still come, so the tree is whole; a costed
** entry that saw no step is counted in the metric 'unstepped' of its
** context, whose counts (and those of the contexts below) are then not
** the trace's: comparisons leave those contexts out.
** (The interpreter also fuses frequent pairs such as aload_0; getfield
** into one bytecode that steps once, unless breakpoints may be set: the
** agent asks for that capability to keep every bytecode a step.)
*/
#include <jvmti.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cccp/jop.h"
#include "cccp/util.h"

/* A method record: immutable once published in 'meths' (under glock),
** so a thread that has its pointer reads it without locks. */
typedef struct meth {
  char *cls, *name, *desc;
  int native;
  int costed;            /* counted and costed (has 'code') */
  uint32_t code_len;
  uint8_t *code;         /* the bytecode (GetBytecodes), costed only */
  uint64_t b;            /* load time on a miss, for returns to it */
  uint64_t inv;          /* what a miss adds to an invoke of it */
  uint32_t words;        /* size in 32-bit words */
  uint32_t hret;         /* cycles its return hides (9, 10, 11) */
} meth;

typedef struct node {
  uint32_t method, parent, first, next, tail;
  uint64_t calls;
  uint64_t cycles, bytecodes, allocations;
  uint64_t unstepped;    /* costed entries that saw no step (see on_step) */
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
  const meth **sm;       /* the method of each shadow-stack entry */
  uint64_t *steps;       /* steps seen by each shadow-stack entry */
  uint32_t *ctag;        /* method cache: the method of each block */
  uint32_t cnext;        /* method cache: where the next miss loads */
  struct { jmethodID id; uint32_t m; const meth *p; } mc[MCACHE];
  struct tstate *next;   /* creation order */
} tstate;

static jvmtiEnv *jv;
static pthread_mutex_t glock = PTHREAD_MUTEX_INITIALIZER;
static meth **meths;     /* [1..nmeths] */
static size_t nmeths, capm;
static struct { jmethodID id; uint32_t m; } *mtab;  /* global id map */
static size_t mtabn;
static tstate *threads, *threads_tail;
static char outpath[4096] = "cccp-oracle.xml";
static int app_only;
static int open_patches;        /* open_patches=1 */
static JNIEnv *muted;           /* the thread opening them: not recorded */
static volatile int dead;
static unsigned long long exc_exits, unmatched_exits, unmatched_steps,
    unstepped_frames;
static int jop, counts;  /* the JOP trace; bytecode and allocation counts */
static int cache_words, cache_blocks;  /* the method cache; 0: none */

/*
** Look method 'm' ('p' its record) up in thread 's''s method cache, as
** JOP does on an invoke (the callee) and a return (the caller): 1 on a
** hit; on a miss it is loaded at 'cnext' over floor(words/block)+1
** blocks (FIFO), whose tags it clears.
*/
static int cache_hit(tstate *s, uint32_t m, const meth *p) {
  if (!s->ctag) s->ctag = calloc((size_t)cache_blocks, sizeof *s->ctag);
  if (!s->ctag) abort();
  for (int i = 0; i < cache_blocks; i++)
    if (s->ctag[i] == m) return 1;
  uint32_t k = p->words / (uint32_t)(cache_words / cache_blocks) + 1;
  if (k > (uint32_t)cache_blocks) k = (uint32_t)cache_blocks;
  for (uint32_t i = 0; i < k; i++) s->ctag[(s->cnext + i) % cache_blocks] = 0;
  s->ctag[s->cnext] = m;
  s->cnext = (s->cnext + k) % (uint32_t)cache_blocks;
  return 0;
}
static cr_jop_model model;
static char **costed;    /* class-name prefixes, NULL-terminated */

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

/* 1 if methods of class 'cls' (internal name) are costed. */
static int costed_class(const char *cls) {
  if (!jop && !counts) return 0;
  if (!costed) return 1;
  for (char **p = costed; *p; p++)
    if (strncmp(cls, *p, strlen(*p)) == 0) return 1;
  return 0;
}

/* Make 'm' costed when its class is and it has bytecode: a copy of the
** code and the load times that depend on its size. */
static void cost_method(meth *m, jmethodID id) {
  jint n = 0;
  unsigned char *code = NULL;
  if (m->native || !costed_class(m->cls) ||
      (*jv)->GetBytecodes(jv, id, &n, &code) != JVMTI_ERROR_NONE)
    return;
  if (n > 0) {
    m->code = xrealloc(NULL, (size_t)n);
    memcpy(m->code, code, (size_t)n);
    m->code_len = (uint32_t)n;
    m->costed = 1;
    m->b = cr_jop_load_miss(&model, cr_jop_words(m->code_len));
    m->inv = cr_jop_cost_b(&model, 182, m->b) - model.hit[182];
    m->words = cr_jop_words(m->code_len);
    m->hret = model.hidden[cr_jop_return_op(m->desc)];
  }
  (*jv)->Deallocate(jv, code);
}

/* Global method index of 'id', registered on first sight (under glock);
** its record in '*out'. */
static uint32_t method_index(jmethodID id, const meth **out) {
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
    *out = meths[m];
    pthread_mutex_unlock(&glock);
    return m;
  }
  meth *m = xrealloc(NULL, sizeof *m);
  memset(m, 0, sizeof *m);
  char *name = NULL, *sig = NULL, *csig = NULL;
  jclass k = NULL;
  jboolean nat = 0;
  (*jv)->GetMethodName(jv, id, &name, &sig, NULL);
  (*jv)->GetMethodDeclaringClass(jv, id, &k);
  if (k) (*jv)->GetClassSignature(jv, k, &csig, NULL);
  (*jv)->IsMethodNative(jv, id, &nat);
  m->cls = classname(csig ? csig : "?");
  m->name = strdup(name ? name : "?");
  m->desc = strdup(sig ? sig : "?");
  m->native = nat != 0;
  cost_method(m, id);
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
  *out = m;
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

/* Method index and record of 'id' through the thread's own cache. */
static uint32_t cached_index(tstate *s, jmethodID id, const meth **out) {
  size_t h = hptr(id) & (MCACHE - 1);
  if (s->mc[h].id == id) {
    *out = s->mc[h].p;
    return s->mc[h].m;
  }
  uint32_t m = method_index(id, out);
  s->mc[h].id = id;
  s->mc[h].m = m;
  s->mc[h].p = *out;
  return m;
}

static void JNICALL on_method_entry(jvmtiEnv *e, JNIEnv *jni, jthread t,
                             jmethodID id) {
  (void)e;
  if (dead || jni == muted) return;
  tstate *s = state(t);
  const meth *p;
  uint32_t m = cached_index(s, id, &p);
  pthread_mutex_lock(&s->mu);
  uint32_t top = s->depth ? s->stack[s->depth - 1] : 0;
  uint32_t c = child(s, top, m);
  s->nodes[c].calls++;
  /* the miss part of the invoke, when a costed caller invokes it (with
  ** the cache: when it misses; every costed entry is looked up) */
  int ccost = s->depth && s->sm[s->depth - 1]->costed;
  if (jop && p->costed && (cache_blocks ? !cache_hit(s, m, p) : 1) && ccost)
    s->nodes[top].cycles += p->inv;
  if (s->depth == s->scap) {
    s->scap = s->scap ? s->scap * 2 : 256;
    s->stack = xrealloc(s->stack, s->scap * sizeof *s->stack);
    s->sm = xrealloc(s->sm, s->scap * sizeof *s->sm);
    s->steps = xrealloc(s->steps, s->scap * sizeof *s->steps);
  }
  s->steps[s->depth] = 0;
  s->sm[s->depth] = p;
  s->stack[s->depth++] = c;
  pthread_mutex_unlock(&s->mu);
}

static void JNICALL on_method_exit(jvmtiEnv *e, JNIEnv *jni, jthread t,
                            jmethodID id, jboolean by_exception,
                            jvalue rv) {
  (void)e;
  (void)rv;
  if (dead || jni == muted) return;
  tstate *s = state(t);
  const meth *p;
  uint32_t m = cached_index(s, id, &p);
  pthread_mutex_lock(&s->mu);
  if (s->depth && s->nodes[s->stack[s->depth - 1]].method == m) {
    s->depth--;
    /* a costed frame runs at least one bytecode: none seen means the VM
    ** hid single steps (HotSpot does while it resolves a constant-pool
    ** entry, so a <clinit> run by that resolution and all it calls go
    ** unseen); the context is marked, and comparisons leave it out */
    if ((jop || counts) && p->costed && !s->steps[s->depth]) {
      s->nodes[s->stack[s->depth]].unstepped++;
      __atomic_add_fetch(&unstepped_frames, 1, __ATOMIC_RELAXED);
    }
    /* with the cache, a normal return looks the costed caller up */
    const meth *q = s->depth ? s->sm[s->depth - 1] : NULL;
    if (jop && cache_blocks && !by_exception && p->costed && q &&
        q->costed && !cache_hit(s, s->nodes[s->stack[s->depth - 1]].method,
                                q))
      s->nodes[s->stack[s->depth]].cycles +=
          q->b > p->hret ? q->b - p->hret : 0;
    if (by_exception) __atomic_add_fetch(&exc_exits, 1, __ATOMIC_RELAXED);
  } else {
    __atomic_add_fetch(&unmatched_exits, 1, __ATOMIC_RELAXED);
  }
  pthread_mutex_unlock(&s->mu);
}

/*
** A bytecode about to run at 'loc' of method 'id'. Charged to the top of
** the shadow stack when that is the frame of 'id' (MethodEntry comes
** before the first step of a method, the return's step before
** MethodExit) and the method is costed; steps in frames the shadow stack
** does not show (entered before events started) are skipped and counted.
*/
static void JNICALL on_step(jvmtiEnv *e, JNIEnv *jni, jthread t,
                            jmethodID id, jlocation loc) {
  (void)e;
  (void)jni;
  if (dead) return;
  tstate *s = state(t);
  const meth *p;
  cached_index(s, id, &p);
  if (!p->costed) return;
  pthread_mutex_lock(&s->mu);
  if (!s->depth || s->sm[s->depth - 1] != p || loc < 0 ||
      loc >= (jlocation)p->code_len) {
    pthread_mutex_unlock(&s->mu);
    __atomic_add_fetch(&unmatched_steps, 1, __ATOMIC_RELAXED);
    return;
  }
  node *x = &s->nodes[s->stack[s->depth - 1]];
  s->steps[s->depth - 1]++;
  unsigned op = p->code[loc];
  /* a wide instruction costs as the one it widens (the rewriter's rule:
  ** JOP's build turns iinc, wide or not, into plain bytecodes) */
  if (op == 196 && loc + 1 < (jlocation)p->code_len) op = p->code[loc + 1];
  if (counts) {
    x->bytecodes++;
    x->allocations += op == 187 || op == 188 || op == 189 || op == 197;
  }
  if (jop) {
    if (model.kind[op] != CR_JOP_RETURN) {
      x->cycles += model.block[op];
    } else if (!cache_blocks && s->depth > 1 && s->sm[s->depth - 2]->costed) {
      x->cycles += cr_jop_cost_b(&model, op, s->sm[s->depth - 2]->b);
    } else {
      x->cycles += model.hit[op];
    }
  }
  pthread_mutex_unlock(&s->mu);
}

/* An exception is caught in method 'id': with the cache, resuming there
** looks the method up like a return (hiding 9 cycles). */
static void JNICALL on_catch(jvmtiEnv *e, JNIEnv *jni, jthread t,
                             jmethodID id, jlocation loc, jobject exc) {
  (void)e;
  (void)jni;
  (void)loc;
  (void)exc;
  if (dead) return;
  tstate *s = state(t);
  const meth *p;
  uint32_t m = cached_index(s, id, &p);
  if (!p->costed) return;
  pthread_mutex_lock(&s->mu);
  if (s->depth && s->sm[s->depth - 1] == p && !cache_hit(s, m, p))
    s->nodes[s->stack[s->depth - 1]].cycles += p->b > 9 ? p->b - 9 : 0;
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
  for (size_t i = d < 10 ? d : 10; i; i--) fputs("  ", f);
}

/* A metric attribute of a node, written only when not 0. */
static void metric(FILE *f, const char *name, uint64_t v) {
  if (v) fprintf(f, " %s=\"%llu\"", name, (unsigned long long)v);
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
        "<cct version=\"1\" mode=\"oracle\"", f);
  if (jop)
    fprintf(f, " jop-model=\"%d\" jop-rws=\"%d\" jop-wws=\"%d\" "
               "jop-software=\"%d\" jop-split=\"0\" jop-completed=\"1\"",
            model.year, model.r, model.w, model.software);
  if (jop && cache_blocks)
    fprintf(f, " jop-cache-words=\"%d\" jop-cache-blocks=\"%d\"",
            cache_words, cache_blocks);
  fputs(">\n", f);
  for (size_t i = 1; i <= nmeths; i++) {
    const meth *m = meths[i];
    fprintf(f, "  <method id=\"%zu\" class=\"", i);
    text(f, m->cls);
    fputs("\" name=\"", f);
    text(f, m->name);
    fputs("\" desc=\"", f);
    text(f, m->desc);
    fprintf(f, "\" size=\"%u\" native=\"%d\" library=\"0\"/>\n",
            m->code_len, m->native);
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
      metric(f, "cycles", x->cycles);
      metric(f, "bytecodes", x->bytecodes);
      metric(f, "allocations", x->allocations);
      metric(f, "unstepped", x->unstepped);
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
            "%llu unmatched exits, %llu unmatched steps, %llu unstepped "
            "frames -> %s\n", nmeths, exc_exits, unmatched_exits,
            unmatched_steps, unstepped_frames, outpath);
}

static void JNICALL on_death(jvmtiEnv *e, JNIEnv *jni) {
  (void)e;
  (void)jni;
  dead = 1;
  dump();
}

/* The value of option 'key' ("jop=") in 'opt' of length 'n', or NULL. */
static const char *value(const char *opt, size_t n, const char *key) {
  size_t k = strlen(key);
  return n > k && strncmp(opt, key, k) == 0 ? opt + k : NULL;
}

/* A decimal number 0..CR_JOP_MAX_SOFTWARE of 'n' bytes at 'v', or -1. */
static int number(const char *v, size_t n) {
  long x = 0;
  if (n == 0 || n > 7) return -1;
  for (size_t i = 0; i < n; i++) {
    if (v[i] < '0' || v[i] > '9') return -1;
    x = x * 10 + (v[i] - '0');
  }
  return x <= CR_JOP_MAX_SOFTWARE ? (int)x : -1;
}

/* Split the prefixes of costed=, 'n' bytes at 'v', at ':'. */
static int prefixes(const char *v, size_t n) {
  size_t k = 1;
  for (size_t i = 0; i < n; i++) k += v[i] == ':';
  costed = xrealloc(NULL, (k + 1) * sizeof *costed);
  k = 0;
  for (const char *p = v, *end = v + n; p <= end; k++) {
    const char *q = memchr(p, ':', (size_t)(end - p));
    if (!q) q = end;
    if (q == p) return -1;
    costed[k] = strndup(p, (size_t)(q - p));
    p = q + 1;
  }
  costed[k] = NULL;
  return 0;
}

static int options(const char *opt) {
  int year = -1, r = CR_JOP_RWS, w = CR_JOP_WWS;
  int sw = CR_JOP_SOFTWARE_CYCLES;
  while (opt && *opt) {
    const char *end = strchr(opt, ',');
    size_t n = end ? (size_t)(end - opt) : strlen(opt);
    const char *v;
    int *num = NULL;
    if (n > 4 && strncmp(opt, "out=", 4) == 0 && n - 4 < sizeof outpath) {
      memcpy(outpath, opt + 4, n - 4);
      outpath[n - 4] = 0;
    } else if (n == 11 && strncmp(opt, "threads=app", 11) == 0) {
      app_only = 1;
    } else if (n == 11 && strncmp(opt, "threads=all", 11) == 0) {
      app_only = 0;
    } else if (n == 14 && strncmp(opt, "open_patches=1", 14) == 0) {
      open_patches = 1;
    } else if (n == 8 && strncmp(opt, "counts=1", 8) == 0) {
      counts = 1;
    } else if ((v = value(opt, n, "costed=")) && !costed) {
      if (prefixes(v, n - 7)) goto bad;
    } else if ((v = value(opt, n, "jop="))) {
      num = &year;
    } else if ((v = value(opt, n, "rws="))) {
      num = &r;
    } else if ((v = value(opt, n, "wws="))) {
      num = &w;
    } else if ((v = value(opt, n, "sw="))) {
      num = &sw;
    } else if ((v = value(opt, n, "cache="))) {
      const char *c = memchr(v, ':', n - 6);
      if (!c || (cache_words = number(v, (size_t)(c - v))) <= 0 ||
          (cache_blocks = number(c + 1, n - 6 - (size_t)(c + 1 - v))) <= 0 ||
          cache_blocks > 4096 || cache_words % cache_blocks)
        goto bad;
    } else {
      goto bad;
    }
    if (num && (*num = number(v, n - (size_t)(v - opt))) < 0) goto bad;
    opt = end ? end + 1 : NULL;
    continue;
  bad:
    fprintf(stderr, "cccp-oracle: bad option '%.*s' (want out=FILE,"
            "threads=all|app,jop=2014|2008,rws=N,wws=N,sw=N,cache=W:B,"
            "costed=PREFIX[:PREFIX...],counts=1,open_patches=1)\n", (int)n, opt);
    return -1;
  }
  if (cache_blocks && year < 0) {
    fprintf(stderr, "cccp-oracle: cache= goes with jop=\n");
    return -1;
  }
  if (year < 0) return 0;
  cr_diag d = {0};
  char msg[1024];
  if (cr_jop_model_init(&model, year, r, w, sw, &d)) {
    cr_diag_format(&d, msg, sizeof msg);
    fprintf(stderr, "cccp-oracle: %s\n", msg);
    return -1;
  }
  if (!costed) {
    fprintf(stderr, "cccp-oracle: jop= needs costed=PREFIX[:PREFIX...]\n");
    return -1;
  }

  jop = 1;
  return 0;
}

/*
** The loaded class of signature 'sig' ("Ljava/lang/Module;"), or NULL.
** Not JNI FindClass: with no Java frame on the stack it asks the
** application class loader, whose map of class loading locks then holds
** the name before the program runs (and grows at other classes).
*/
static jclass loaded(jvmtiEnv *e, const char *sig) {
  jint n = 0;
  jclass *cs = NULL, found = NULL;
  if ((*e)->GetLoadedClasses(e, &n, &cs) != JVMTI_ERROR_NONE) return NULL;
  for (jint i = 0; i < n && !found; i++) {
    char *s = NULL;
    if ((*e)->GetClassSignature(e, cs[i], &s, NULL) == JVMTI_ERROR_NONE &&
        strcmp(s, sig) == 0)
      found = cs[i];
    (*e)->Deallocate(e, (unsigned char *)s);
  }
  (*e)->Deallocate(e, (unsigned char *)cs);
  return found;
}

/* open_patches=1: Module.getResourceAsStream of the name every patch jar
** of cccp-rewrite --jdk holds (the image's own reader stays closed),
** for each module of the boot layer, with this thread's events ignored */
static void JNICALL on_vm_init(jvmtiEnv *e, JNIEnv *jni, jthread t) {
  (void)t;
  if (!open_patches) return;
  muted = jni;
  jclass ml = loaded(e, "Ljava/lang/ModuleLayer;");
  jclass co = loaded(e, "Ljava/util/Collection;");
  jclass mo = loaded(e, "Ljava/lang/Module;");
  jclass is = loaded(e, "Ljava/io/InputStream;");
  jmethodID boot = ml ? (*jni)->GetStaticMethodID(jni, ml, "boot",
                                                 "()Ljava/lang/ModuleLayer;") : 0;
  jmethodID mods = ml ? (*jni)->GetMethodID(jni, ml, "modules",
                                           "()Ljava/util/Set;") : 0;
  jmethodID arr = co ? (*jni)->GetMethodID(jni, co, "toArray",
                                          "()[Ljava/lang/Object;") : 0;
  jmethodID res = mo ? (*jni)->GetMethodID(jni, mo, "getResourceAsStream",
                       "(Ljava/lang/String;)Ljava/io/InputStream;") : 0;
  jmethodID cl = is ? (*jni)->GetMethodID(jni, is, "close", "()V") : 0;
  jobject layer = boot ? (*jni)->CallStaticObjectMethod(jni, ml, boot) : NULL;
  jobject set = layer && mods ? (*jni)->CallObjectMethod(jni, layer, mods) : NULL;
  jobjectArray a = set && arr ? (*jni)->CallObjectMethod(jni, set, arr) : NULL;
  jstring name = (*jni)->NewStringUTF(jni, "META-INF/cccp.patch");
  for (jsize i = 0, n = a && res ? (*jni)->GetArrayLength(jni, a) : 0;
       i < n; i++) {
    jobject m = (*jni)->GetObjectArrayElement(jni, a, i);
    jobject in = (*jni)->CallObjectMethod(jni, m, res, name);
    if ((*jni)->ExceptionCheck(jni)) (*jni)->ExceptionClear(jni);
    if (in && cl) (*jni)->CallVoidMethod(jni, in, cl);
    if ((*jni)->ExceptionCheck(jni)) (*jni)->ExceptionClear(jni);
    (*jni)->DeleteLocalRef(jni, m);
    if (in) (*jni)->DeleteLocalRef(jni, in);
  }
  if ((*jni)->ExceptionCheck(jni)) (*jni)->ExceptionClear(jni);
  muted = NULL;
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
  if (jop || counts) {
    caps.can_generate_single_step_events = 1;
    caps.can_get_bytecodes = 1;
    /* HotSpot's interpreter fuses frequent pairs (aload_0; getfield and
    ** others) into one bytecode that single-steps once; it stops doing
    ** so when an agent may set breakpoints */
    caps.can_generate_breakpoint_events = 1;
  }
  if (cache_blocks) caps.can_generate_exception_events = 1;
  if ((*jv)->AddCapabilities(jv, &caps) != JVMTI_ERROR_NONE) {
    fprintf(stderr, "cccp-oracle: method entry/exit%s events "
            "unavailable\n", jop || counts ? " or single-step" : "");
    return JNI_ERR;
  }
  jvmtiEventCallbacks cb;
  memset(&cb, 0, sizeof cb);
  cb.MethodEntry = on_method_entry;
  cb.MethodExit = on_method_exit;
  cb.ThreadStart = on_thread_start;
  cb.VMDeath = on_death;
  cb.VMInit = on_vm_init;
  cb.SingleStep = on_step;
  cb.ExceptionCatch = on_catch;
  (*jv)->SetEventCallbacks(jv, &cb, (jint)sizeof cb);
  jvmtiEvent ev[] = {JVMTI_EVENT_METHOD_ENTRY, JVMTI_EVENT_METHOD_EXIT,
                     JVMTI_EVENT_THREAD_START, JVMTI_EVENT_VM_DEATH,
                     JVMTI_EVENT_VM_INIT, JVMTI_EVENT_SINGLE_STEP};
  size_t nev = sizeof ev / sizeof ev[0] - !(jop || counts);
  if (cache_blocks &&
      (*jv)->SetEventNotificationMode(jv, JVMTI_ENABLE,
                                      JVMTI_EVENT_EXCEPTION_CATCH, NULL) !=
          JVMTI_ERROR_NONE) {
    fprintf(stderr, "cccp-oracle: cannot enable exception-catch events\n");
    return JNI_ERR;
  }
  for (size_t i = 0; i < nev; i++)
    if ((*jv)->SetEventNotificationMode(jv, JVMTI_ENABLE, ev[i], NULL) !=
        JVMTI_ERROR_NONE) {
      fprintf(stderr, "cccp-oracle: cannot enable event %d\n", ev[i]);
      return JNI_ERR;
    }
  return JNI_OK;
}
