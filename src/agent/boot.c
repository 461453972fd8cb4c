/*
** boot.c -- the native agent puts the runtime into the JVM ("boot"
** option): what -Xbootclasspath/a:cccp-rt.jar and -javaagent:cccp-rt.jar
** did, without either. Both turn off the archived module graph of class
** data sharing (-javaagent adds java.instrument to the boot layer), and
** the JDK then builds the graph at start-up, hashing objects by identity
** on the main thread: every identity hash the program's main thread
** draws then differs from the plain run's (a HashSet of enum constants
** iterates in another order). The JVM has drawn none of them when VMInit
** comes; this file draws none either:
**
** - the runtime's classes (cccp-rt.jar beside this library) are defined
**   in the boot loader through JNI, superclasses first: the boot loader
**   finds them in its dictionary, and no search path is appended;
** - the dump's system shutdown hook (slot 9) is registered through JNI,
**   which checks no module export (Slots.AtExit);
** - Agent.boot installs the reflection and stack-walk filters; its
**   natives below define them in java.base and retransform the JDK's
**   classes through a second JVMTI environment, the only one that can
**   retransform (its hook is on only while it does).
*/
#include <dlfcn.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jni.h>
#include <jvmti.h>

#include "boot.h"
#include "cccp/classfile.h"
#include "cccp/io.h"
#include "cccp/util.h"

static jvmtiEnv *retx;           /* can_retransform_classes, hook off */

static void JNICALL retransform_hook(jvmtiEnv *j, JNIEnv *env,
                                     jclass redefined, jobject loader,
                                     const char *name, jobject domain,
                                     jint len, const unsigned char *data,
                                     jint *new_len, unsigned char **new_data);

int cr_agent_boot_onload(JavaVM *vm) {
  if ((*vm)->GetEnv(vm, (void **)&retx, JVMTI_VERSION_9) != JNI_OK) {
    retx = NULL;
    return -1;
  }
  jvmtiCapabilities caps;
  memset(&caps, 0, sizeof caps);
  caps.can_retransform_classes = 1;
  jvmtiEventCallbacks cb;
  memset(&cb, 0, sizeof cb);
  cb.ClassFileLoadHook = retransform_hook;
  if ((*retx)->AddCapabilities(retx, &caps) != JVMTI_ERROR_NONE ||
      (*retx)->SetEventCallbacks(retx, &cb, sizeof cb) != JVMTI_ERROR_NONE) {
    (*retx)->DisposeEnvironment(retx);
    retx = NULL;
    return -1;
  }
  return 0;
}

void cr_agent_say(const char *what, const char *why) {
  fprintf(stderr, "cccp: %s: %s\n", what, why);
  fflush(stderr);
}

int cr_agent_thrown(JNIEnv *env) {
  if (!(*env)->ExceptionCheck(env)) return 0;
  (*env)->ExceptionClear(env);
  return 1;
}

/*
** Method or field 'name' 'sig' that class 'k' declares, looked up through
** JVMTI: JNI's lookups throw NoSuchMethodError or NoSuchFieldError where
** a JDK has no such member, and the first throw links the error's class,
** on the program's thread (HotSpot hashes a class it links). NULL when
** there is none.
*/
static void *declared(jclass k, const char *name, const char *sig,
                      int field) {
  jint n = 0;
  void *found = NULL;
  if (field) {
    jfieldID *fs = NULL;
    if ((*retx)->GetClassFields(retx, k, &n, &fs) != JVMTI_ERROR_NONE)
      return NULL;
    for (jint i = 0; i < n && !found; i++) {
      char *fn = NULL, *fsig = NULL;
      if ((*retx)->GetFieldName(retx, k, fs[i], &fn, &fsig, NULL) ==
              JVMTI_ERROR_NONE && strcmp(fn, name) == 0 &&
          strcmp(fsig, sig) == 0)
        found = (void *)fs[i];
      (*retx)->Deallocate(retx, (unsigned char *)fn);
      (*retx)->Deallocate(retx, (unsigned char *)fsig);
    }
    (*retx)->Deallocate(retx, (unsigned char *)fs);
  } else {
    jmethodID *ms = NULL;
    if ((*retx)->GetClassMethods(retx, k, &n, &ms) != JVMTI_ERROR_NONE)
      return NULL;
    for (jint i = 0; i < n && !found; i++) {
      char *mn = NULL, *msig = NULL;
      if ((*retx)->GetMethodName(retx, ms[i], &mn, &msig, NULL) ==
              JVMTI_ERROR_NONE && strcmp(mn, name) == 0 &&
          strcmp(msig, sig) == 0)
        found = (void *)ms[i];
      (*retx)->Deallocate(retx, (unsigned char *)mn);
      (*retx)->Deallocate(retx, (unsigned char *)msig);
    }
    (*retx)->Deallocate(retx, (unsigned char *)ms);
  }
  return found;
}

/* ------------------------------------------- the runtime's classes */

typedef struct rt_class {
  char *name;                    /* "cccp/rt/CC" */
  uint8_t *bytes;
  size_t len;
  const char *deps[8];           /* superclass and interfaces of the jar */
  int ndeps;
  int state;                     /* 0 not yet, 1 under way, 2 done, 3 failed */
  jclass k;                      /* done: a global reference */
} rt_class;

typedef struct rt_jar {
  rt_class *c;
  size_t n;
  cr_arena *a;
} rt_jar;

static rt_class *find(rt_jar *r, const char *name) {
  for (size_t i = 0; i < r->n; i++)
    if (strcmp(r->c[i].name, name) == 0) return &r->c[i];
  return NULL;
}

/* The class files of 'jar' into 'r'; 0, or -1 with 'd' set. */
static int read_jar(rt_jar *r, const char *jar, cr_diag *d) {
  cr_input *in = NULL;
  if (cr_input_open(&in, jar, d) != 0) return -1;
  size_t n = cr_input_count(in);
  r->c = calloc(n ? n : 1, sizeof *r->c);
  r->a = cr_arena_new();
  int rc = r->c && r->a ? 0 : cr_diag_set(d, CR_ENOMEM, -1, "out of memory");
  for (size_t i = 0; i < n && rc == 0; i++) {
    cr_entry_info e;
    cr_input_info(in, i, &e);
    size_t nl = strlen(e.name);
    /* premain's host (java.lang.instrument) is left out: linking it
    ** would link that module's classes, which a program may link itself */
    if (e.is_dir || nl < 7 || strcmp(e.name + nl - 6, ".class") != 0 ||
        strncmp(e.name, "cccp/rt/", 8) != 0 ||
        strncmp(e.name, "cccp/rt/Agent$InstHost", 22) == 0)
      continue;
    rt_class *c = &r->c[r->n];
    cr_class *cf = NULL;
    if ((rc = cr_input_read(in, i, &c->bytes, &c->len, d)) != 0 ||
        (rc = cr_cf_parse_header(&cf, r->a, c->bytes, c->len, d)) != 0)
      break;
    c->name = strdup(cr_cf_this_name(cf));
    if (!c->name) {
      rc = cr_diag_set(d, CR_ENOMEM, -1, "out of memory");
      break;
    }
    if (cf->super_class)
      c->deps[c->ndeps++] = cr_cp_class_name(cf->cp, cf->super_class);
    for (uint32_t k = 0; k < cf->interfaces.n && c->ndeps < 8; k++)
      c->deps[c->ndeps++] = cr_cp_class_name(cf->cp, cf->interfaces.v[k]);
    r->n++;
  }
  cr_input_close(in);
  return rc;
}

static void free_jar(JNIEnv *env, rt_jar *r) {
  for (size_t i = 0; i < r->n; i++) {
    if (r->c[i].k) (*env)->DeleteGlobalRef(env, r->c[i].k);
    free(r->c[i].name);
    cr_free(r->c[i].bytes);
  }
  free(r->c);
  cr_arena_free(r->a);
}

/* Define 'c' in the boot loader after the classes of the jar it extends.
** A class that cannot be defined (the Java agent's transformer, whose
** interface java.instrument has outside the boot layer) is left out. */
static void define(JNIEnv *env, rt_jar *r, rt_class *c) {
  if (c->state) return;
  c->state = 1;
  for (int i = 0; i < c->ndeps; i++) {
    rt_class *s = c->deps[i] ? find(r, c->deps[i]) : NULL;
    if (s) define(env, r, s);
  }
  jclass k = (*env)->DefineClass(env, c->name, NULL, (const jbyte *)c->bytes,
                                 (jsize)c->len);
  c->state = cr_agent_thrown(env) || !k ? 3 : 2;
  if (k) {
    c->k = (*env)->NewGlobalRef(env, k);
    (*env)->DeleteLocalRef(env, k);
  }
}

/* --------------------------------------------------- the dump's slot */

/* SharedSecrets.getJavaLangAccess().registerShutdownHook(9, false,
** new Slots.AtExit()), then Slots.hooked = true. */
static void hook(JNIEnv *env, rt_jar *r) {
  if ((*env)->PushLocalFrame(env, 8) != 0) {
    cr_agent_thrown(env);
    return;
  }
  jclass ss = (*env)->FindClass(env, "jdk/internal/access/SharedSecrets");
  if (cr_agent_thrown(env) || !ss) goto out;
  jmethodID get = (*env)->GetStaticMethodID(
      env, ss, "getJavaLangAccess", "()Ljdk/internal/access/JavaLangAccess;");
  if (cr_agent_thrown(env) || !get) goto out;
  jobject jla = (*env)->CallStaticObjectMethod(env, ss, get);
  if (cr_agent_thrown(env) || !jla) goto out;
  jclass ji = (*env)->FindClass(env, "jdk/internal/access/JavaLangAccess");
  if (cr_agent_thrown(env) || !ji) goto out;
  jmethodID reg = (*env)->GetMethodID(env, ji, "registerShutdownHook",
                                      "(IZLjava/lang/Runnable;)V");
  if (cr_agent_thrown(env) || !reg) goto out;
  jclass ae = (*env)->FindClass(env, "cccp/rt/Slots$AtExit");
  if (cr_agent_thrown(env) || !ae) goto out;
  jmethodID init = (*env)->GetMethodID(env, ae, "<init>", "()V");
  if (cr_agent_thrown(env) || !init) goto out;
  jobject h = (*env)->NewObject(env, ae, init);
  if (cr_agent_thrown(env) || !h) goto out;
  (*env)->CallVoidMethod(env, jla, reg, (jint)9, JNI_FALSE, h);
  if (cr_agent_thrown(env)) goto out;          /* the slot is taken: an app hook */
  /* Slots stays uninitialised (JNI's lookups would initialise it) */
  rt_class *sc = find(r, "cccp/rt/Slots");
  jfieldID f = sc && sc->k && retx ? declared(sc->k, "hooked", "Z", 1) : NULL;
  if (f) (*env)->SetStaticBooleanField(env, sc->k, f, JNI_TRUE);
out:
  (*env)->PopLocalFrame(env, NULL);
}

/* Agent.boot(hidden, frames): the filters. */
static void filters(JNIEnv *env, rt_jar *r) {
  rt_class *h = find(r, "cccp/rt/Hidden"), *f = find(r, "cccp/rt/Frames");
  if ((*env)->PushLocalFrame(env, 8) != 0) {
    cr_agent_thrown(env);
    return;
  }
  jclass ag = (*env)->FindClass(env, "cccp/rt/Agent");
  if (cr_agent_thrown(env) || !ag || !h || !f) {
    cr_agent_say("reflection and stack traces will show what cccp adds",
        "the runtime's agent classes are missing");
    goto out;
  }
  jmethodID m = (*env)->GetStaticMethodID(env, ag, "boot", "([B[B)V");
  if (cr_agent_thrown(env) || !m) goto out;
  jbyteArray hb = (*env)->NewByteArray(env, (jsize)h->len);
  if (cr_agent_thrown(env) || !hb) goto out;
  (*env)->SetByteArrayRegion(env, hb, 0, (jsize)h->len,
                             (const jbyte *)h->bytes);
  jbyteArray fb = (*env)->NewByteArray(env, (jsize)f->len);
  if (cr_agent_thrown(env) || !fb) goto out;
  (*env)->SetByteArrayRegion(env, fb, 0, (jsize)f->len,
                             (const jbyte *)f->bytes);
  (*env)->CallStaticVoidMethod(env, ag, m, hb, fb);
  cr_agent_thrown(env);
out:
  (*env)->PopLocalFrame(env, NULL);
}

/* ------------------------------------------------ the start thread */

/*
** HotSpot draws an identity hash for the mirror of every class it links
** (Verifier::verify hashes it eagerly, on the linking thread), and the
** filters' work draws more: all of it is done in a thread of its own,
** while the main thread waits, so that the main thread draws what it
** draws in the plain run.
*/
typedef struct start {
  jvmtiEnv *j;
  jrawMonitorID lock;
  rt_jar *r;
  int done;
} start;

/* Link the runtime's classes, initialising none: JVM_GetClassDeclared-
** Fields links a class and runs no initialiser (public fields only: few
** objects); JNI's FindClass would initialise it, running the runtime's
** start-up (reading its settings) long before the program asks. */
static void link(JNIEnv *env, rt_jar *r) {
  jclass cls = (*env)->FindClass(env, "java/lang/Class");
  if (cr_agent_thrown(env) || !cls) return;
  jmethodID m = (*env)->GetMethodID(env, cls, "getDeclaredFields0",
                                    "(Z)[Ljava/lang/reflect/Field;");
  if (cr_agent_thrown(env) || !m) return;
  for (size_t i = 0; i < r->n; i++) {
    if (r->c[i].state != 2 || !r->c[i].k) continue;
    jobject f = (*env)->CallObjectMethod(env, r->c[i].k, m, JNI_TRUE);
    cr_agent_thrown(env);
    if (f) (*env)->DeleteLocalRef(env, f);
  }
}

/*
** Load (not link) the JDK's method-handle holder classes: class data
** sharing archives them regenerated, and once a ClassFileLoadHook is
** enabled (the filters' edits, the load-time rewriter) HotSpot loads them
** from the image instead, then hashes each as it links it, on the
** program's thread at its first string concatenation or lambda (JDK 25).
** Loaded now, before any hook, they are the archived ones, as in the
** plain run.
*/
static void holders(JNIEnv *env) {
  static const char *const names[] = {
      "java.lang.invoke.Invokers$Holder",
      "java.lang.invoke.DirectMethodHandle$Holder",
      "java.lang.invoke.DelegatingMethodHandle$Holder",
      "java.lang.invoke.LambdaForm$Holder"};
  jclass cls = (*env)->FindClass(env, "java/lang/Class");
  if (cr_agent_thrown(env) || !cls) return;
  jmethodID m = (*env)->GetStaticMethodID(
      env, cls, "forName",
      "(Ljava/lang/String;ZLjava/lang/ClassLoader;)Ljava/lang/Class;");
  if (cr_agent_thrown(env) || !m) return;
  for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
    jstring n = (*env)->NewStringUTF(env, names[i]);
    if (cr_agent_thrown(env) || !n) return;
    jobject k = (*env)->CallStaticObjectMethod(env, cls, m, n, JNI_FALSE, NULL);
    cr_agent_thrown(env);
    if (k) (*env)->DeleteLocalRef(env, k);
    (*env)->DeleteLocalRef(env, n);
  }
}

static void JNICALL start_thread(jvmtiEnv *j, JNIEnv *env, void *arg) {
  start *s = arg;
  holders(env);
  link(env, s->r);
  hook(env, s->r);
  if (retx) filters(env, s->r);
  (*j)->RawMonitorEnter(j, s->lock);
  s->done = 1;
  (*j)->RawMonitorNotifyAll(j, s->lock);
  (*j)->RawMonitorExit(j, s->lock);
}

/*
** The next thread id, and setting it back: the start thread takes an id
** that the program's next thread takes in the plain run. JDK 17 counts
** in Thread.threadSeqNumber; JDK 19 and later at the address
** Thread.getNextThreadIdOffset() gives (Unsafe's absolute form).
*/
typedef struct tids {
  jclass thread;
  jfieldID seq;                  /* JDK 17 */
  volatile jlong *next;          /* JDK 19 and later */
} tids;

static int tid_init(JNIEnv *env, tids *t) {
  memset(t, 0, sizeof *t);
  t->thread = (*env)->FindClass(env, "java/lang/Thread");
  if (cr_agent_thrown(env) || !t->thread || !retx) return -1;
  /* looked up through JVMTI: a JNI lookup throws where the member is
  ** missing, linking the error's class on this, the main, thread */
  t->seq = declared(t->thread, "threadSeqNumber", "J", 1);
  if (t->seq) return 0;
  jmethodID m = declared(t->thread, "getNextThreadIdOffset", "()J", 0);
  if (!m) return -1;
  jlong a = (*env)->CallStaticLongMethod(env, t->thread, m);
  if (cr_agent_thrown(env) || !a) return -1;
  t->next = (volatile jlong *)(intptr_t)a;
  return 0;
}

static jlong tid_get(JNIEnv *env, const tids *t) {
  if (t->seq) return (*env)->GetStaticLongField(env, t->thread, t->seq);
  return t->next ? __atomic_load_n(t->next, __ATOMIC_SEQ_CST) : 0;
}

/* back to 'was' if the start thread's id is the only one taken since */
static void tid_rewind(JNIEnv *env, const tids *t, jlong was) {
  if (t->seq) {
    if ((*env)->GetStaticLongField(env, t->thread, t->seq) == was + 1)
      (*env)->SetStaticLongField(env, t->thread, t->seq, was);
  } else if (t->next) {
    jlong now = was + 1;
    __atomic_compare_exchange_n(t->next, &now, was, 0, __ATOMIC_SEQ_CST,
                                __ATOMIC_SEQ_CST);
  }
}

/* Run the start thread and wait for it; -1 when it could not run. */
static int run_start(jvmtiEnv *j, JNIEnv *env, rt_jar *r) {
  start s = {j, NULL, r, 0};
  tids t;
  int have_tids = tid_init(env, &t) == 0;
  jlong was = have_tids ? tid_get(env, &t) : 0;
  jclass th = (*env)->FindClass(env, "java/lang/Thread");
  if (cr_agent_thrown(env) || !th) return -1;
  jmethodID init = (*env)->GetMethodID(env, th, "<init>",
                                       "(Ljava/lang/String;)V");
  if (cr_agent_thrown(env) || !init) return -1;
  jstring name = (*env)->NewStringUTF(env, "cccp start");
  if (cr_agent_thrown(env) || !name) return -1;
  jthread thread = (*env)->NewObject(env, th, init, name);
  if (cr_agent_thrown(env) || !thread) return -1;
  if (have_tids) tid_rewind(env, &t, was);
  if ((*j)->CreateRawMonitor(j, "cccp start", &s.lock) != JVMTI_ERROR_NONE)
    return -1;
  int rc = -1;
  (*j)->RawMonitorEnter(j, s.lock);
  if ((*j)->RunAgentThread(j, thread, start_thread, &s,
                           JVMTI_THREAD_NORM_PRIORITY) == JVMTI_ERROR_NONE) {
    while (!s.done) (*j)->RawMonitorWait(j, s.lock, 0);
    rc = 0;
  }
  (*j)->RawMonitorExit(j, s.lock);
  (*j)->DestroyRawMonitor(j, s.lock);
  return rc;
}

int cr_agent_beside(char *out, size_t n, const char *file) {
  Dl_info info;
  if (!dladdr((void *)cr_agent_beside, &info) || !info.dli_fname) return -1;
  const char *slash = strrchr(info.dli_fname, '/');
  size_t w = (size_t)snprintf(out, n, "%.*s/%s",
                              slash ? (int)(slash - info.dli_fname) : 1,
                              slash ? info.dli_fname : ".", file);
  return w < n ? 0 : -1;
}

int cr_agent_boot_start(jvmtiEnv *j, JNIEnv *env) {
  char jar[PATH_MAX + 16];
  if (cr_agent_beside(jar, sizeof jar, "cccp-rt.jar") != 0) {
    cr_agent_say("no profile", "the native agent cannot tell its own folder");
    return -1;
  }
  rt_jar r;
  memset(&r, 0, sizeof r);
  cr_diag d;
  cr_diag_clear(&d);
  if (read_jar(&r, jar, &d) != 0) {
    char msg[1200];
    cr_diag_format(&d, msg, sizeof msg);
    cr_agent_say("no profile", msg);
    free_jar(env, &r);
    return -1;
  }
  for (size_t i = 0; i < r.n; i++) define(env, &r, &r.c[i]);
  rt_class *cc = find(&r, "cccp/rt/CC");
  int rc = cc && cc->state == 2 ? 0 : -1;
  if (rc) {
    cr_agent_say("no profile", "the runtime's classes could not be defined");
  } else if (run_start(j, env, &r) != 0) {
    /* no thread: the same work here, at the price of the main thread's
    ** identity hashes */
    holders(env);
    link(env, &r);
    hook(env, &r);
    if (retx) filters(env, &r);
  }
  free_jar(env, &r);
  return rc;
}

/* ------------------------------------------------ Agent's natives */

/* Agent.defineBoot(byte[]): the class file in the boot loader (its
** package java/lang: in java.base); Agent initialises it. */
JNIEXPORT jclass JNICALL Java_cccp_rt_Agent_defineBoot(JNIEnv *env,
                                                       jclass self,
                                                       jbyteArray b);
JNIEXPORT jclass JNICALL Java_cccp_rt_Agent_defineBoot(JNIEnv *env,
                                                       jclass self,
                                                       jbyteArray b) {
  (void)self;
  jsize n = (*env)->GetArrayLength(env, b);
  jbyte *p = (*env)->GetByteArrayElements(env, b, NULL);
  if (!p) return NULL;
  jclass c = (*env)->DefineClass(env, NULL, NULL, p, n);
  (*env)->ReleaseByteArrayElements(env, b, p, JNI_ABORT);
  return c;
}

JNIEXPORT void JNICALL Java_cccp_rt_Agent_putStatic(JNIEnv *env, jclass self,
                                                    jclass c, jstring name,
                                                    jstring sig, jobject v);
JNIEXPORT void JNICALL Java_cccp_rt_Agent_putStatic(JNIEnv *env, jclass self,
                                                    jclass c, jstring name,
                                                    jstring sig, jobject v) {
  (void)self;
  const char *n = (*env)->GetStringUTFChars(env, name, NULL);
  const char *s = n ? (*env)->GetStringUTFChars(env, sig, NULL) : NULL;
  jfieldID f = s ? (*env)->GetStaticFieldID(env, c, n, s) : NULL;
  if (f) (*env)->SetStaticObjectField(env, c, f, v);
  if (s) (*env)->ReleaseStringUTFChars(env, sig, s);
  if (n) (*env)->ReleaseStringUTFChars(env, name, n);
}

/* The boot classes whose edits wait for them to load (Agent.LATER):
** their names, set once before the program runs; 'done' as they load. */
#define MAX_LATER 16
static char *later[MAX_LATER];
static int later_done[MAX_LATER];
static int nlater;

/* The loaded class of the boot loader named 'name', or NULL. */
static jclass loaded(jvmtiEnv *j, JNIEnv *env, jint n, jclass *cs,
                     const char *name) {
  size_t nl = strlen(name);
  for (jint i = 0; i < n; i++) {
    char *sig = NULL;
    jobject l = NULL;
    int yes = (*j)->GetClassSignature(j, cs[i], &sig, NULL) ==
                  JVMTI_ERROR_NONE && sig && sig[0] == 'L' &&
              strncmp(sig + 1, name, nl) == 0 && strcmp(sig + 1 + nl, ";") == 0 &&
              (*j)->GetClassLoader(j, cs[i], &l) == JVMTI_ERROR_NONE && !l;
    if (l) (*env)->DeleteLocalRef(env, l);
    (*j)->Deallocate(j, (unsigned char *)sig);
    if (yes) return cs[i];
  }
  return NULL;
}

/* Agent.retransformBoot(String[]): the loaded ones retransformed, the
** names of the others (edited by the hook as they load), or null when
** JVMTI refused. */
JNIEXPORT jobjectArray JNICALL Java_cccp_rt_Agent_retransformBoot(
    JNIEnv *env, jclass self, jobjectArray names);
JNIEXPORT jobjectArray JNICALL Java_cccp_rt_Agent_retransformBoot(
    JNIEnv *env, jclass self, jobjectArray names) {
  (void)self;
  if (!retx) return NULL;
  jsize n = (*env)->GetArrayLength(env, names);
  jint nall = 0;
  jclass *all = NULL;
  if ((*retx)->GetLoadedClasses(retx, &nall, &all) != JVMTI_ERROR_NONE)
    return NULL;
  jclass *k = calloc(n ? (size_t)n : 1, sizeof *k);
  jobjectArray rest = NULL;
  jclass str = (*env)->FindClass(env, "java/lang/String");
  int nk = 0, nrest = 0, ok = k && str;
  const char *rest_names[MAX_LATER];
  for (jsize i = 0; ok && i < n; i++) {
    jstring s = (jstring)(*env)->GetObjectArrayElement(env, names, i);
    const char *c = s ? (*env)->GetStringUTFChars(env, s, NULL) : NULL;
    if (!c) {
      ok = 0;
      break;
    }
    jclass found = loaded(retx, env, nall, all, c);
    if (found) {
      k[nk++] = found;
    } else if (nlater < MAX_LATER && (later[nlater] = strdup(c))) {
      rest_names[nrest++] = later[nlater++];
    } else {
      ok = 0;
    }
    (*env)->ReleaseStringUTFChars(env, s, c);
    (*env)->DeleteLocalRef(env, s);
  }
  jvmtiError e = JVMTI_ERROR_NONE;
  if (ok && nk) {
    e = (*retx)->SetEventNotificationMode(
        retx, JVMTI_ENABLE, JVMTI_EVENT_CLASS_FILE_LOAD_HOOK, NULL);
    if (e == JVMTI_ERROR_NONE) {
      e = (*retx)->RetransformClasses(retx, nk, k);
      (*retx)->SetEventNotificationMode(
          retx, JVMTI_DISABLE, JVMTI_EVENT_CLASS_FILE_LOAD_HOOK, NULL);
    }
  }
  if (ok && e == JVMTI_ERROR_NONE) {
    rest = (*env)->NewObjectArray(env, nrest, str, NULL);
    for (int i = 0; rest && i < nrest; i++) {
      jstring s = (*env)->NewStringUTF(env, rest_names[i]);
      if (!s) {
        rest = NULL;
        break;
      }
      (*env)->SetObjectArrayElement(env, rest, i, s);
      (*env)->DeleteLocalRef(env, s);
    }
  }
  for (jint i = 0; i < nall; i++) (*env)->DeleteLocalRef(env, all[i]);
  (*retx)->Deallocate(retx, (unsigned char *)all);
  free(k);
  return rest;
}

/* Agent.patch(name, bytes) into '*new_data' (allocated by 'j'). */
static void patch(jvmtiEnv *j, JNIEnv *env, const char *name, jint len,
                  const unsigned char *data, jint *new_len,
                  unsigned char **new_data) {
  if ((*env)->PushLocalFrame(env, 8) != 0) {
    cr_agent_thrown(env);
    return;
  }
  jclass ag = (*env)->FindClass(env, "cccp/rt/Agent");
  if (cr_agent_thrown(env) || !ag) goto out;
  jmethodID m = (*env)->GetStaticMethodID(env, ag, "patch",
                                          "(Ljava/lang/String;[B)[B");
  if (cr_agent_thrown(env) || !m) goto out;
  jstring s = (*env)->NewStringUTF(env, name);
  if (cr_agent_thrown(env) || !s) goto out;
  jbyteArray b = (*env)->NewByteArray(env, len);
  if (cr_agent_thrown(env) || !b) goto out;
  (*env)->SetByteArrayRegion(env, b, 0, len, (const jbyte *)data);
  jbyteArray r = (jbyteArray)(*env)->CallStaticObjectMethod(env, ag, m, s, b);
  if (cr_agent_thrown(env) || !r) goto out;
  jsize n = (*env)->GetArrayLength(env, r);
  unsigned char *out = NULL;
  if ((*j)->Allocate(j, n, &out) != JVMTI_ERROR_NONE) goto out;
  (*env)->GetByteArrayRegion(env, r, 0, n, (jbyte *)out);
  *new_data = out;
  *new_len = n;
out:
  (*env)->PopLocalFrame(env, NULL);
}

int cr_agent_boot_waiting(void) {
  for (int i = 0; i < nlater; i++)
    if (!__atomic_load_n(&later_done[i], __ATOMIC_ACQUIRE)) return 1;
  return 0;
}

void cr_agent_boot_class_hook(jvmtiEnv *j, JNIEnv *env, jobject loader,
                              const char *name, jint len,
                              const unsigned char *data, jint *new_len,
                              unsigned char **new_data) {
  if (loader || !name) return;
  for (int i = 0; i < nlater; i++) {
    if (strcmp(later[i], name) != 0) continue;
    int zero = 0;
    if (__atomic_compare_exchange_n(&later_done[i], &zero, 1, 0,
                                    __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
      patch(j, env, name, len, data, new_len, new_data);
    return;
  }
}

/* The hook while Agent retransforms: Agent.patch(name, bytes). */
static void JNICALL retransform_hook(jvmtiEnv *j, JNIEnv *env,
                                     jclass redefined, jobject loader,
                                     const char *name, jobject domain,
                                     jint len, const unsigned char *data,
                                     jint *new_len, unsigned char **new_data) {
  (void)domain;
  if (!redefined || loader || !name) return;
  patch(j, env, name, len, data, new_len, new_data);
}

/* ------------------------------------------- the filters' natives */

/*
** The JDK members the filters (Hidden and Frames, defined in java.base as
** java.lang.CccpHidden and java.lang.CccpFrames) call, through JNI, which
** checks no access: method handles would initialise java.lang.invoke,
** spin classes and hash what they link on the program's thread, the
** first time and again when a handle is customised. An instrumented
** JDK's filters (cccp.rt.Hidden) keep their method handles.
*/

/* Member 'name' 'sig' of boot class 'cls' into '*m' and its class into
** '*k'. 0, or -1 with UnsatisfiedLinkError pending: the filter then
** takes its other way. */
/* What 'lookup' found, by the addresses of its strings (each call site
** passes literals): the class a global reference, the member or NULL. */
typedef struct memo {
  const char *cls, *name, *sig;
  jclass k;
  void *m;
} memo;
static memo memos[48];
static int nmemos;
static pthread_mutex_t memo_lock = PTHREAD_MUTEX_INITIALIZER;

static int lookup(JNIEnv *env, const char *cls, const char *name,
                  const char *sig, int field, jclass *k, void **m) {
  pthread_mutex_lock(&memo_lock);
  for (int i = 0; i < nmemos; i++) {
    memo *e = &memos[i];
    if (e->cls == cls && e->name == name && e->sig == sig) {
      *k = e->k;
      *m = e->m;
      pthread_mutex_unlock(&memo_lock);
      return *k && *m ? 0 : -1;
    }
  }
  pthread_mutex_unlock(&memo_lock);
  jclass lk = (*env)->FindClass(env, cls);
  void *found = lk && retx ? declared(lk, name, sig, field) : NULL;
  (*env)->ExceptionClear(env);
  jclass g = lk ? (*env)->NewGlobalRef(env, lk) : NULL;
  pthread_mutex_lock(&memo_lock);
  int kept = g && nmemos < (int)(sizeof memos / sizeof *memos);
  if (kept) memos[nmemos++] = (memo){cls, name, sig, g, found};
  pthread_mutex_unlock(&memo_lock);
  if (g && !kept) (*env)->DeleteGlobalRef(env, g);
  *k = kept ? g : lk;
  *m = found;
  return *k && *m ? 0 : -1;
}

static int member(JNIEnv *env, const char *cls, const char *name,
                  const char *sig, int st, int field, jclass *k, void **m) {
  (void)st;
  if (lookup(env, cls, name, sig, field, k, m) == 0) return 0;
  jclass ule = (*env)->FindClass(env, "java/lang/UnsatisfiedLinkError");
  if (ule) (*env)->ThrowNew(env, ule, name);
  return -1;
}

static jobject call_static(JNIEnv *env, const char *cls, const char *name,
                           const char *sig, const jvalue *args) {
  jclass k;
  void *m;
  if (member(env, cls, name, sig, 1, 0, &k, &m)) return NULL;
  return (*env)->CallStaticObjectMethodA(env, k, (jmethodID)m, args);
}

static jobject call_virtual(JNIEnv *env, jobject recv, const char *cls,
                            const char *name, const char *sig,
                            const jvalue *args) {
  jclass k;
  void *m;
  if (member(env, cls, name, sig, 0, 0, &k, &m)) return NULL;
  return (*env)->CallNonvirtualObjectMethodA(env, recv, k, (jmethodID)m,
                                             args);
}

static jobject get_field(JNIEnv *env, jobject o, const char *cls,
                         const char *name, const char *sig) {
  jclass k;
  void *f;
  if (member(env, cls, name, sig, 0, 1, &k, &f)) return NULL;
  return (*env)->GetObjectField(env, o, (jfieldID)f);
}

#define NATIVE(ret, cls, fn, ...)                                           \
  JNIEXPORT ret JNICALL Java_java_lang_Cccp##cls##_##fn(JNIEnv *env,       \
                                                        jclass self,        \
                                                        __VA_ARGS__);       \
  JNIEXPORT ret JNICALL Java_java_lang_Cccp##cls##_##fn(JNIEnv *env,       \
                                                        jclass self,        \
                                                        __VA_ARGS__)

NATIVE(jobject, Hidden, filterMethods0, jclass c, jobjectArray ms) {
  (void)self;
  jvalue a[2] = {{.l = c}, {.l = ms}};
  return call_static(env, "jdk/internal/reflect/Reflection", "filterMethods",
                     "(Ljava/lang/Class;[Ljava/lang/reflect/Method;)"
                     "[Ljava/lang/reflect/Method;", a);
}

NATIVE(jobject, Hidden, filterFields0, jclass c, jobjectArray fs) {
  (void)self;
  jvalue a[2] = {{.l = c}, {.l = fs}};
  return call_static(env, "jdk/internal/reflect/Reflection", "filterFields",
                     "(Ljava/lang/Class;[Ljava/lang/reflect/Field;)"
                     "[Ljava/lang/reflect/Field;", a);
}

NATIVE(jobject, Hidden, constructors0, jclass c, jboolean pub) {
  (void)self;
  jvalue a[1] = {{.z = pub}};
  return call_virtual(env, c, "java/lang/Class", "getDeclaredConstructors0",
                      "(Z)[Ljava/lang/reflect/Constructor;", a);
}

NATIVE(jobject, Hidden, fields0, jclass c, jboolean pub) {
  (void)self;
  jvalue a[1] = {{.z = pub}};
  return call_virtual(env, c, "java/lang/Class", "getDeclaredFields0",
                      "(Z)[Ljava/lang/reflect/Field;", a);
}

NATIVE(jboolean, Hidden, hasInit0, jclass c) {
  (void)self;
  jclass k;
  void *m;
  if (member(env, "java/io/ObjectStreamClass", "hasStaticInitializer",
             "(Ljava/lang/Class;)Z", 1, 0, &k, &m))
    return JNI_FALSE;
  jvalue a[1] = {{.l = c}};
  return (*env)->CallStaticBooleanMethodA(env, k, (jmethodID)m, a);
}

NATIVE(jobject, Hidden, npe0, jobject e) {
  (void)self;
  return get_field(env, e, "java/lang/NullPointerException",
                   "extendedMessage", "Ljava/lang/String;");
}

NATIVE(jobject, Frames, of0, jobject backtrace, jint depth) {
  (void)self;
  jvalue a[2] = {{.l = backtrace}, {.i = depth}};
  jclass k;
  void *m;
  /* of(Object, int) as in JDK 25, of(Throwable, int) as in JDK 17 */
  if (lookup(env, "java/lang/StackTraceElement", "of",
           "(Ljava/lang/Object;I)[Ljava/lang/StackTraceElement;", 0, &k,
           &m) != 0) {
    if (member(env, "java/lang/StackTraceElement", "of",
               "(Ljava/lang/Throwable;I)[Ljava/lang/StackTraceElement;", 1,
               0, &k, &m) != 0)
      return NULL;
  }
  return (*env)->CallStaticObjectMethodA(env, k, (jmethodID)m, a);
}

NATIVE(jobject, Frames, ofArray0, jobjectArray es) {
  (void)self;
  jvalue a[1] = {{.l = es}};
  return call_static(env, "java/lang/StackTraceElement", "of",
                     "([Ljava/lang/StackTraceElement;)"
                     "[Ljava/lang/StackTraceElement;", a);
}

NATIVE(jobject, Frames, dump0, jobjectArray ts) {
  (void)self;
  jvalue a[1] = {{.l = ts}};
  return call_static(env, "java/lang/Thread", "dumpThreads",
                     "([Ljava/lang/Thread;)[[Ljava/lang/StackTraceElement;",
                     a);
}

NATIVE(jobject, Frames, walker0, jobject finder) {
  (void)self;
  return get_field(env, finder,
                   "java/lang/StackStreamFactory$AbstractStackWalker",
                   "walker", "Ljava/lang/StackWalker;");
}

NATIVE(jboolean, Frames, has0, jobject w, jobject opt) {
  (void)self;
  jclass k;
  void *m;
  if (member(env, "java/lang/StackWalker", "hasOption",
             "(Ljava/lang/StackWalker$Option;)Z", 0, 0, &k, &m))
    return JNI_FALSE;
  jvalue a[1] = {{.l = opt}};
  return (*env)->CallNonvirtualBooleanMethodA(env, w, k, (jmethodID)m, a);
}

/* Whether the caller finder skips a frame of class 'c': a reflection or
** method-handle frame, or a hidden class's (JDK 15 and later). */
NATIVE(jboolean, Frames, skipped0, jclass c) {
  (void)self;
  static const char *const tests[] = {"isReflectionFrame",
                                      "isMethodHandleFrame"};
  jvalue a[1] = {{.l = c}};
  for (size_t i = 0; i < 2; i++) {
    jclass k;
    void *m;
    if (member(env, "java/lang/StackStreamFactory", tests[i],
               "(Ljava/lang/Class;)Z", 1, 0, &k, &m))
      return JNI_FALSE;
    jboolean r = (*env)->CallStaticBooleanMethodA(env, k, (jmethodID)m, a);
    if ((*env)->ExceptionCheck(env) || r) return r;
  }
  jclass k;
  void *h;
  if (lookup(env, "java/lang/Class", "isHidden", "()Z", 0, &k, &h) != 0)
    return JNI_FALSE;                   /* before JDK 15: none */
  return (*env)->CallBooleanMethod(env, c, (jmethodID)h);
}

/* The type of a frame's method, as the frame holds it once its name is
** known: StackFrameInfo.type (JDK 25), else its MemberName's type (JDK
** 17): the descriptor string or a MethodType; null where there is none.
** StackFrame.getDescriptor would make a MethodType, hashing the classes
** of its parameters on the program's thread. */
NATIVE(jobject, Frames, type0, jobject info) {
  (void)self;
  jclass k, m;
  void *f;
  if (lookup(env, "java/lang/StackFrameInfo", "type", "Ljava/lang/Object;",
             1, &k, &f) == 0)
    return (*env)->IsInstanceOf(env, info, k)
               ? (*env)->GetObjectField(env, info, (jfieldID)f) : NULL;
  if (lookup(env, "java/lang/StackFrameInfo", "memberName",
             "Ljava/lang/Object;", 1, &k, &f) != 0 ||
      !(*env)->IsInstanceOf(env, info, k))
    return NULL;
  jobject mn = (*env)->GetObjectField(env, info, (jfieldID)f);
  if (!mn || lookup(env, "java/lang/invoke/MemberName", "type",
                    "Ljava/lang/Object;", 1, &m, &f) != 0 ||
      !(*env)->IsInstanceOf(env, mn, m))
    return NULL;
  return (*env)->GetObjectField(env, mn, (jfieldID)f);
}
