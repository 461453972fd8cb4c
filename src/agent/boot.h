/*
** boot.h -- the runtime put into the JVM by the native agent (boot.c).
*/
#ifndef CCCP_AGENT_BOOT_H
#define CCCP_AGENT_BOOT_H

#include <stddef.h>

#include <jni.h>
#include <jvmti.h>

/* "cccp: WHAT: WHY" on stderr, flushed. */
void cr_agent_say(const char *what, const char *why);

/* 1 (and the exception cleared) when a JNI call left one pending. Every
** call that may throw is checked before the next: -Xcheck:jni would print
** a warning into the target otherwise. */
int cr_agent_thrown(JNIEnv *env);

/* 'file' in this library's folder into 'out' ('n' bytes); 0, or -1. */
int cr_agent_beside(char *out, size_t n, const char *file);

/* At Agent_OnLoad: the JVMTI environment that retransforms the JDK's
** classes for the filters; -1 when the JVM has none (before JDK 9). */
int cr_agent_boot_onload(JavaVM *vm);

/* At VMInit, in the main thread: the runtime's classes (cccp-rt.jar beside
** this library) defined in the boot loader, then linked, the dump's
** shutdown hook and the filters installed, in a thread of its own. 0, or -1 (said on stderr) when the runtime could
** not be defined. */
int cr_agent_boot_start(jvmtiEnv *j, JNIEnv *env);

/* Whether boot classes wait to be edited as they load (the filters'
** edits of classes not loaded at start-up): the ClassFileLoadHook is then
** needed, and calls the hook below first. */
int cr_agent_boot_waiting(void);
void cr_agent_boot_class_hook(jvmtiEnv *j, JNIEnv *env, jobject loader,
                              const char *name, jint len,
                              const unsigned char *data, jint *new_len,
                              unsigned char **new_data);

#endif
