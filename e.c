#include <jvmti.h>
#include <string.h>
static void JNICALL cb1(jvmtiEnv *j, JNIEnv *e, jthread t) { (void)j; (void)e; (void)t; }
JNIEXPORT jint JNICALL Agent_OnLoad(JavaVM *vm, char *o, void *r) {
  jvmtiEnv *j; (void)o; (void)r;
  if ((*vm)->GetEnv(vm, (void **)&j, JVMTI_VERSION_1_2) != JNI_OK) return 1;
  jvmtiEventCallbacks cb; memset(&cb, 0, sizeof cb); cb.VMInit = cb1; cb.ThreadEnd = cb1;
  (*j)->SetEventCallbacks(j, &cb, sizeof cb);
  if (strcmp("NONE", "NONE")) (*j)->SetEventNotificationMode(j, JVMTI_ENABLE, JVMTI_EVENT_VM_INIT, NULL);
  return 0;
}
