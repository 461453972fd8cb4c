/*
** callback.c -- the native half of jni.Callback: calls back into Java
** through JNI, as native libraries do.
*/
#include <jni.h>

JNIEXPORT void JNICALL Java_jni_Callback_call(JNIEnv *env, jclass cls,
                                              jobject r) {
  (void)cls;
  jclass rc = (*env)->GetObjectClass(env, r);
  jmethodID run = (*env)->GetMethodID(env, rc, "run", "()V");
  if (run) (*env)->CallVoidMethod(env, r, run);
}

JNIEXPORT jint JNICALL Java_jni_Callback_twice(JNIEnv *env, jclass cls,
                                               jint x) {
  jmethodID d = (*env)->GetStaticMethodID(env, cls, "doubled", "(I)I");
  return d ? (*env)->CallStaticIntMethod(env, cls, d, x) : -1;
}
