/*
** agent.c -- libcccp-agent.so, the native agent of an instrumented JVM:
** loaded at startup by the options file (-agentpath), where it keeps the
** profile of a program that dies of a full heap, and loaded again by
** 'cccp-report dump' through HotSpot's attach mechanism, where it asks
** the runtime for a snapshot of the profile.
*/
#include <limits.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jni.h>
#include <jvmti.h>

#include "agent.h"
#include "boot.h"
#include "load.h"

/*
** At startup the agent watches for one moment: the end of the thread that
** ran 'main' (the thread of VMInit). A program that dies of its own
** OutOfMemoryError with its data still reachable ends 'main' in a full
** heap, and HotSpot then runs no shutdown hook at all: the launcher's
** DestroyJavaVM attaches a new thread to run them, whose
** java.lang.Thread it cannot allocate. As 'main' ends the agent drops
** the runtime's reserve (cccp.rt.Budget.reserve, a byte array), so that
** the shutdown, and with it the dump of the profile, finds room. The
** uncaught exception's report has been printed by then, as without
** cccp. Only JVMTI and JNI calls that run no Java code and allocate
** nothing in the heap are made; nothing is printed. The library being
** loaded is also what lets 'cccp-report dump' load it again without the
** warning JDK 21 and later print about agents loaded into a running JVM.
*/
static jvmtiEnv *jvmti;
static jobject main_thread;       /* global reference, set at VMInit */

/* Thread-end events are enabled only now: enabled at start-up, HotSpot
** recomputes every environment's events for the booting thread, and
** another agent's method events (the JVMTI oracle's) then start before
** VMInit, during System.initPhase3. */
static int load_time;           /* the load-time rewriter is wanted */
static int boot;                /* the runtime is this agent's to define */

/*
** Instrumented classes of named modules (-p and -m; jar files with a
** module-info or, in JDK mode, any jar on the module path) name the
** runtime, which is in the boot loader's unnamed module in app mode (a
** named module reads no unnamed module) and in java.base in JDK mode
** (which exports cccp.rt to the JDK's modules and to the class path
** only: the options file knows no other module). As the first
** instrumented class of such a module loads, the module is made to read
** the runtime's module, or java.base to export cccp.rt to it; once per
** module. Nothing else of the module changes.
*/
static jobject rt_module;       /* global reference, set at VMInit */
static pthread_mutex_t mod_mu = PTHREAD_MUTEX_INITIALIZER;
static jobject *granted;        /* modules done (global references) */
static size_t ngranted, cgranted;

/* The runtime's module: java.base, or the boot loader's unnamed module
** (jdk.internal.loader.BootLoader, initialized as the VM booted). */
static void find_rt_module(jvmtiEnv *j, JNIEnv *env) {
  jobject m = NULL;
  jint v = 0;
  /* before JDK 9: no modules, and no module functions in the table */
  if ((*j)->GetVersionNumber(j, &v) != JVMTI_ERROR_NONE ||
      ((v & JVMTI_VERSION_MASK_MAJOR) >> JVMTI_VERSION_SHIFT_MAJOR) < 9)
    return;
  if (!boot) {
    if ((*j)->GetNamedModule(j, NULL, "cccp/rt", &m) != JVMTI_ERROR_NONE)
      m = NULL;
  } else {
    jclass bl = (*env)->FindClass(env, "jdk/internal/loader/BootLoader");
    jmethodID um = bl ? (*env)->GetStaticMethodID(env, bl, "getUnnamedModule",
                                                  "()Ljava/lang/Module;")
                      : NULL;
    m = um ? (*env)->CallStaticObjectMethod(env, bl, um) : NULL;
  }
  if ((*env)->ExceptionCheck(env)) {
    (*env)->ExceptionClear(env);
    m = NULL;
  }
  if (m) rt_module = (*env)->NewGlobalRef(env, m);
}

/* The module of class 'name' of 'loader' given access to the runtime
** when it is named and the class ('len' bytes at 'data') is
** instrumented ('rewritten' by the hook, or ahead of time): the module
** is looked up first, which is cheap and answers none for the class
** path's classes, whose bytes are then not searched again. */
static void grant(jvmtiEnv *j, JNIEnv *env, jobject loader, const char *name,
                  const unsigned char *data, jint len, int rewritten) {
  const char *slash = strrchr(name, '/');
  char pkg[1024];
  size_t n = slash ? (size_t)(slash - name) : 0;
  if (!n || n >= sizeof pkg) return;   /* no package: no named module */
  memcpy(pkg, name, n);
  pkg[n] = '\0';
  jobject m = NULL;
  if ((*j)->GetNamedModule(j, loader, pkg, &m) != JVMTI_ERROR_NONE || !m)
    return;
  if (!rewritten && !cr_agent_names_runtime(data, len)) {
    (*env)->DeleteLocalRef(env, m);
    return;
  }
  int seen = 0;
  pthread_mutex_lock(&mod_mu);
  for (size_t k = 0; k < ngranted && !seen; k++)
    seen = (*env)->IsSameObject(env, granted[k], m);
  if (!seen && ngranted == cgranted) {
    size_t c = cgranted ? 2 * cgranted : 16;
    jobject *v = realloc(granted, c * sizeof *v);
    if (v) granted = v, cgranted = c;
  }
  jobject g = !seen && ngranted < cgranted ? (*env)->NewGlobalRef(env, m)
                                           : NULL;
  if (g) granted[ngranted++] = g;
  pthread_mutex_unlock(&mod_mu);
  if (!seen) {
    if (boot) (*j)->AddModuleReads(j, m, rt_module);
    else (*j)->AddModuleExports(j, rt_module, "cccp.rt", m);
    if ((*env)->ExceptionCheck(env)) (*env)->ExceptionClear(env);
  }
  (*env)->DeleteLocalRef(env, m);
}

static void JNICALL vm_init(jvmtiEnv *j, JNIEnv *env, jthread thread) {
  if (boot) cr_agent_boot_start(j, env);
  find_rt_module(j, env);
  main_thread = (*env)->NewGlobalRef(env, thread);
  if (main_thread)
    (*j)->SetEventNotificationMode(j, JVMTI_ENABLE, JVMTI_EVENT_THREAD_END,
                                   NULL);
  /* -Dcccp.load=off: the classes are left as they load */
  char *v = NULL;
  if (load_time && (*j)->GetSystemProperty(j, "cccp.load", &v) ==
                       JVMTI_ERROR_NONE && v) {
    if (strcmp(v, "off") == 0) load_time = 0;
    (*j)->Deallocate(j, (unsigned char *)v);
  }
  /* app mode and agent only: JDK mode's getPlatformClassLoader is
  ** instrumented, and would start the runtime here */
  if (load_time && boot) cr_agent_load_vminit(env);
  if (load_time || rt_module || (boot && cr_agent_boot_waiting()))
    (*j)->SetEventNotificationMode(j, JVMTI_ENABLE,
                                   JVMTI_EVENT_CLASS_FILE_LOAD_HOOK, NULL);
}

/* Classes as they load: the filters' edits of the JDK's classes that
** were not loaded at start-up (boot.c), then the load-time rewriter. */
static void JNICALL class_hook(jvmtiEnv *j, JNIEnv *env, jclass redefined,
                               jobject loader, const char *name,
                               jobject domain, jint len,
                               const unsigned char *data, jint *new_len,
                               unsigned char **new_data) {
  if (boot && !redefined) {
    cr_agent_boot_class_hook(j, env, loader, name, len, data, new_len,
                             new_data);
    if (*new_data) return;              /* a JDK class: nothing more */
  }
  if (load_time)
    cr_agent_class_hook(j, env, redefined, loader, name, domain, len, data,
                        new_len, new_data);
  if (rt_module && loader && name && !redefined)
    grant(j, env, loader, name, data, len, *new_data != NULL);
}

/* The runtime's reserve dropped: its class found among the loaded ones
** (FindClass would run the class loaders' Java code, in a full heap). */
static void drop_reserve(JNIEnv *env) {
  jint n = 0;
  jclass *cs = NULL;
  if ((*jvmti)->GetLoadedClasses(jvmti, &n, &cs) != JVMTI_ERROR_NONE) return;
  for (jint i = 0; i < n; i++) {
    char *sig = NULL;
    if ((*jvmti)->GetClassSignature(jvmti, cs[i], &sig, NULL) ==
            JVMTI_ERROR_NONE && sig && strcmp(sig, "Lcccp/rt/Budget;") == 0) {
      jfieldID f = (*env)->GetStaticFieldID(env, cs[i], "reserve", "[B");
      if (!(*env)->ExceptionCheck(env) && f)
        (*env)->SetStaticObjectField(env, cs[i], f, NULL);
      (*env)->ExceptionClear(env);
    }
    (*jvmti)->Deallocate(jvmti, (unsigned char *)sig);
    (*env)->DeleteLocalRef(env, cs[i]);
  }
  (*jvmti)->Deallocate(jvmti, (unsigned char *)cs);
}

static void JNICALL thread_end(jvmtiEnv *j, JNIEnv *env, jthread thread) {
  if (!main_thread || !(*env)->IsSameObject(env, thread, main_thread)) return;
  (*j)->SetEventNotificationMode(j, JVMTI_DISABLE, JVMTI_EVENT_THREAD_END,
                                 NULL);
  drop_reserve(env);
}

/*
** cccp.rt.Select.twins(Class): 1 when class 'c' declares a method whose
** descriptor takes the runtime's node (a twin: the class is
** instrumented, ahead of time or as it loaded), 0 when none does, -1 when
** JVMTI cannot tell (the runtime then reads the class file). JVMTI sees
** the methods that reflection does not show (the Java agent hides them),
** and loads no class. HotSpot finds this function for the boot class
** path's runtime among the agent libraries' symbols.
*/
JNIEXPORT jint JNICALL Java_cccp_rt_Select_twins(JNIEnv *env, jclass self,
                                                 jclass c);
JNIEXPORT jint JNICALL Java_cccp_rt_Select_twins(JNIEnv *env, jclass self,
                                                 jclass c) {
  (void)env;
  (void)self;
  jint n = 0;
  jmethodID *ms = NULL;
  if (!jvmti || !c ||
      (*jvmti)->GetClassMethods(jvmti, c, &n, &ms) != JVMTI_ERROR_NONE)
    return -1;
  jint yes = 0;
  for (jint i = 0; i < n && !yes; i++) {
    char *sig = NULL;
    if ((*jvmti)->GetMethodName(jvmti, ms[i], NULL, &sig, NULL) !=
        JVMTI_ERROR_NONE) {
      yes = -1;
      break;
    }
    yes = strstr(sig, "Lcccp/rt/CC;") != NULL;
    (*jvmti)->Deallocate(jvmti, (unsigned char *)sig);
  }
  (*jvmti)->Deallocate(jvmti, (unsigned char *)ms);
  return yes;
}

/*
** cccp.rt.Select.declared(Class): the methods class 'c' declares, as
** {String[] names and descriptors, two per method; int[] access flags},
** or null when JVMTI cannot tell (the runtime then reads the class file).
*/
JNIEXPORT jobjectArray JNICALL Java_cccp_rt_Select_declared(JNIEnv *env,
                                                            jclass self,
                                                            jclass c);
JNIEXPORT jobjectArray JNICALL Java_cccp_rt_Select_declared(JNIEnv *env,
                                                            jclass self,
                                                            jclass c) {
  (void)self;
  jint n = 0;
  jmethodID *ms = NULL;
  if (!jvmti || !c ||
      (*jvmti)->GetClassMethods(jvmti, c, &n, &ms) != JVMTI_ERROR_NONE)
    return NULL;
  jobjectArray out = NULL;
  if ((*env)->PushLocalFrame(env, 8) != 0) goto done;
  jclass str = (*env)->FindClass(env, "java/lang/String");
  jclass obj = str ? (*env)->FindClass(env, "java/lang/Object") : NULL;
  jobjectArray nd = obj ? (*env)->NewObjectArray(env, 2 * n, str, NULL) : NULL;
  jintArray mods = nd ? (*env)->NewIntArray(env, n) : NULL;
  jobjectArray res = mods ? (*env)->NewObjectArray(env, 2, obj, NULL) : NULL;
  int ok = res != NULL;
  for (jint i = 0; ok && i < n; i++) {
    char *name = NULL, *sig = NULL;
    jint mod = 0;
    ok = (*jvmti)->GetMethodName(jvmti, ms[i], &name, &sig, NULL) ==
             JVMTI_ERROR_NONE &&
         (*jvmti)->GetMethodModifiers(jvmti, ms[i], &mod) == JVMTI_ERROR_NONE;
    jstring a = ok ? (*env)->NewStringUTF(env, name) : NULL;
    jstring b = a ? (*env)->NewStringUTF(env, sig) : NULL;
    ok = b != NULL;
    if (ok) {
      (*env)->SetObjectArrayElement(env, nd, 2 * i, a);
      (*env)->SetObjectArrayElement(env, nd, 2 * i + 1, b);
      (*env)->SetIntArrayRegion(env, mods, i, 1, &mod);
      (*env)->DeleteLocalRef(env, a);
      (*env)->DeleteLocalRef(env, b);
    }
    (*jvmti)->Deallocate(jvmti, (unsigned char *)name);
    (*jvmti)->Deallocate(jvmti, (unsigned char *)sig);
  }
  if (ok) {
    (*env)->SetObjectArrayElement(env, res, 0, nd);
    (*env)->SetObjectArrayElement(env, res, 1, mods);
  }
  /* a failed allocation: no answer, and the runtime reads the file */
  if ((*env)->ExceptionCheck(env)) {
    (*env)->ExceptionClear(env);
    ok = 0;
  }
  out = (*env)->PopLocalFrame(env, ok ? res : NULL);
done:
  (*jvmti)->Deallocate(jvmti, (unsigned char *)ms);
  return out;
}

/* JVMTI before version 9: cccp-rt.jar beside this library on the boot
** class path (1), or nothing to do (0). */
static int boot_path_only(void) {
  char jar[PATH_MAX + 16];
  return cr_agent_beside(jar, sizeof jar, "cccp-rt.jar") == 0 &&
         (*jvmti)->AddToBootstrapClassLoaderSearch(jvmti, jar) ==
             JVMTI_ERROR_NONE;
}

/*
** 'options': the summary of the rewrite that wrote the options file, for
** the load-time rewriter (load.c); none, no load-time rewriting.
*/
JNIEXPORT jint JNICALL Agent_OnLoad(JavaVM *vm, char *options,
                                    void *reserved) {
  (void)reserved;
  /* without JVMTI the snapshots still work: only the reserve stays */
  if ((*vm)->GetEnv(vm, (void **)&jvmti, JVMTI_VERSION_1_2) != JNI_OK) {
    jvmti = NULL;
    return JNI_OK;
  }
  jvmtiEventCallbacks cb;
  memset(&cb, 0, sizeof cb);
  cb.VMInit = vm_init;
  cb.ThreadEnd = thread_end;
  /* "boot": the runtime is defined by this agent (boot.c), then what
  ** follows its comma */
  if (options && strncmp(options, "boot", 4) == 0 &&
      (options[4] == '\0' || options[4] == ',')) {
    boot = 1;
    options += options[4] ? 5 : 4;
    /* before JDK 9: the runtime appended to the boot class path, as
    ** -Xbootclasspath/a did, and no filters */
    if (cr_agent_boot_onload(vm) != 0 && boot_path_only()) boot = 0;
  }
  if (options && *options && cr_agent_load_init(options) == 0) load_time = 1;
  if (boot || load_time) cb.ClassFileLoadHook = class_hook;
  if ((*jvmti)->SetEventCallbacks(jvmti, &cb, sizeof cb) == JVMTI_ERROR_NONE) {
    (*jvmti)->SetEventNotificationMode(jvmti, JVMTI_ENABLE,
                                       JVMTI_EVENT_VM_INIT, NULL);
  }
  return JNI_OK;
}

/*
** The 'n' bytes of UTF-8 at 's' as UTF-16 into 'out' (room for 'n'
** units: no character takes more units than bytes). Returns the number of
** units, or -1 when 's' is not well-formed UTF-8 (overlong forms,
** surrogates and values past U+10FFFF are not).
*/
static long utf16(jchar *out, const unsigned char *s, size_t n) {
  size_t i = 0;
  long k = 0;
  while (i < n) {
    unsigned c = s[i], more;
    uint32_t cp, min;
    if (c < 0x80) {
      out[k++] = (jchar)c;
      i++;
      continue;
    }
    if (c >= 0xc2 && c <= 0xdf) more = 1, cp = c & 0x1f, min = 0x80;
    else if ((c & 0xf0) == 0xe0) more = 2, cp = c & 0x0f, min = 0x800;
    else if (c >= 0xf0 && c <= 0xf4) more = 3, cp = c & 0x07, min = 0x10000;
    else return -1;
    if (n - i <= more) return -1;
    for (unsigned j = 1; j <= more; j++) {
      if ((s[i + j] & 0xc0) != 0x80) return -1;
      cp = cp << 6 | (s[i + j] & 0x3f);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
      return -1;
    if (cp >= 0x10000) {
      cp -= 0x10000;
      out[k++] = (jchar)(0xd800 + (cp >> 10));
      out[k++] = (jchar)(0xdc00 + (cp & 0x3ff));
    } else {
      out[k++] = (jchar)cp;
    }
    i += more + 1;
  }
  return k;
}

/* Snapshot.take(path, reset) for the 'n' UTF-16 units at 'path'. */
static jint take(JNIEnv *env, const jchar *path, jsize n, jboolean reset) {
  if ((*env)->PushLocalFrame(env, 4) != 0) {
    cr_agent_thrown(env);
    return CR_AGENT_JNI;
  }
  jint rc = CR_AGENT_NO_RUNTIME;
  jclass c = (*env)->FindClass(env, "cccp/rt/Snapshot");
  if (cr_agent_thrown(env) || !c) goto out;
  jmethodID m = (*env)->GetStaticMethodID(env, c, "take",
                                          "(Ljava/lang/String;Z)I");
  if (cr_agent_thrown(env) || !m) goto out;
  rc = CR_AGENT_JNI;
  jstring s = (*env)->NewString(env, path, n);
  if (cr_agent_thrown(env) || !s) goto out;
  jint r = (*env)->CallStaticIntMethod(env, c, m, s, reset);
  if (cr_agent_thrown(env)) goto out;
  /* a newer runtime's answers pass through, offset like the others */
  if (r >= 0 && r < CR_AGENT_NO_RUNTIME - CR_AGENT_BASE)
    rc = CR_AGENT_BASE + r;
out:
  (*env)->PopLocalFrame(env, NULL);
  return rc;
}

/*
** Called in HotSpot's Attach Listener thread for each 'load' of this
** library. 'options' is the request (agent.h); the answer is the return
** value, never JNI_OK. Nothing is printed, nothing is kept.
*/
JNIEXPORT jint JNICALL Agent_OnAttach(JavaVM *vm, char *options,
                                      void *reserved) {
  (void)reserved;
  size_t np = sizeof CR_AGENT_REQUEST - 1;
  if (!options || strncmp(options, CR_AGENT_REQUEST, np) != 0 ||
      (options[np] != '0' && options[np] != '1') || options[np + 1] != ':' ||
      options[np + 2] != '/')
    return CR_AGENT_BAD_REQUEST;
  jboolean reset = options[np] == '1' ? JNI_TRUE : JNI_FALSE;
  const char *path = options + np + 2;
  size_t n = strlen(path);
  JNIEnv *env = NULL;
  if (!vm || n > INT32_MAX ||
      (*vm)->GetEnv(vm, (void **)&env, JNI_VERSION_1_6) != JNI_OK || !env)
    return CR_AGENT_JNI;
  jchar *u = malloc(n * sizeof *u);
  if (!u) return CR_AGENT_JNI;
  long k = utf16(u, (const unsigned char *)path, n);
  jint rc = k < 0 ? CR_AGENT_BAD_REQUEST : take(env, u, (jsize)k, reset);
  free(u);
  return rc;
}
