/*
** load.h -- the load-time rewriter of the native agent (load.c).
*/
#ifndef CCCP_AGENT_LOAD_H
#define CCCP_AGENT_LOAD_H

#include <jvmti.h>

/*
** 'options' is what -agentpath gives after its '=': the path of the
** hierarchy summary of the rewrite that wrote the options file
** (--load-time), or "agent=FILE", FILE the agent file of 'cccp-rewrite
** --agent' (the rewriter that analyses the class path, and its options).
** The hook is ClassFileLoadHook's callback.
*/
int cr_agent_load_init(const char *options);
/* At VMInit: the platform class loader, whose classes the hook leaves
** alone without making the hierarchy. */
void cr_agent_load_vminit(JNIEnv *env);
/* Whether a class file names the runtime's node type: instrumented. */
int cr_agent_names_runtime(const unsigned char *b, jint len);
void JNICALL cr_agent_class_hook(jvmtiEnv *j, JNIEnv *env, jclass redefined,
                                 jobject loader, const char *name,
                                 jobject domain, jint len,
                                 const unsigned char *data, jint *new_len,
                                 unsigned char **new_data);

#endif
