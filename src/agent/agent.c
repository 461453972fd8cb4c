/*
** agent.c -- libcccp-agent.so, the native agent of an instrumented JVM:
** loaded at startup by the options file (-agentpath), where it does
** nothing, and loaded again by 'cccp-report dump' through HotSpot's attach
** mechanism, where it asks the runtime for a snapshot of the profile.
*/
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <jni.h>
#include <jvmti.h>

#include "agent.h"

/*
** At startup: nothing observable (no JVMTI environment, no capabilities,
** no output). The library only has to be there: the attach 'load' of the
** same path then finds it loaded, and HotSpot (JDK 21 and later) prints
** no warning about an agent loaded into a running JVM.
*/
JNIEXPORT jint JNICALL Agent_OnLoad(JavaVM *vm, char *options,
                                    void *reserved) {
  (void)vm;
  (void)options;
  (void)reserved;
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

/* 1 (and the exception cleared) when a JNI call left one pending. Every
** call that may throw is checked before the next: -Xcheck:jni would print
** a warning into the target otherwise. */
static int thrown(JNIEnv *env) {
  if (!(*env)->ExceptionCheck(env)) return 0;
  (*env)->ExceptionClear(env);
  return 1;
}

/* Snapshot.take(path, reset) for the 'n' UTF-16 units at 'path'. */
static jint take(JNIEnv *env, const jchar *path, jsize n, jboolean reset) {
  if ((*env)->PushLocalFrame(env, 4) != 0) {
    thrown(env);
    return CR_AGENT_JNI;
  }
  jint rc = CR_AGENT_NO_RUNTIME;
  jclass c = (*env)->FindClass(env, "cccp/rt/Snapshot");
  if (thrown(env) || !c) goto out;
  jmethodID m = (*env)->GetStaticMethodID(env, c, "take",
                                          "(Ljava/lang/String;Z)I");
  if (thrown(env) || !m) goto out;
  rc = CR_AGENT_JNI;
  jstring s = (*env)->NewString(env, path, n);
  if (thrown(env) || !s) goto out;
  jint r = (*env)->CallStaticIntMethod(env, c, m, s, reset);
  if (thrown(env)) goto out;
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
