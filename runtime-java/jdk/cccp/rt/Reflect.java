/*
 * Reflect.java -- the reflection filter of an instrumented JDK: the
 * member lists java.lang.Class builds, without what the rewriter added.
 */
package cccp.rt;

import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.Member;
import java.lang.reflect.Method;
import jdk.internal.reflect.Reflection;

/**
 * What Hidden and Frames do for the agent, in JDK mode, where the JDK's
 * methods are nodes: the original filter is called directly (its node
 * lies under Class's method, as without instrumentation), or the JDK's
 * own call is kept and its result filtered here (the policy's redirects
 * with after="1"), and the filters' own work runs with the thread's slot
 * cleared, so that the JDK methods it calls make no nodes. No method
 * handle is made: they fill the JDK's caches of method types and lambda
 * forms, which the program would fill itself, in its own context.
 */
public final class Reflect {
  private Reflect() {}

  /** In place of Reflection.filterMethods. */
  public static Method[] filterMethods(Class<?> c, Method[] ms) {
    return (Method[]) strip(Reflection.filterMethods(c, ms));
  }

  /**
   * After c.getDeclaredConstructors0(publicOnly) in Class: its result
   * without the twins. The call itself stays in Class, a native call
   * with its node, as without instrumentation.
   */
  public static Constructor<?>[] constructors(Constructor<?>[] r) {
    return (Constructor<?>[]) strip(r);
  }

  /**
   * After ObjectStreamClass.hasStaticInitializer(c), which answered
   * 'has': false for a '<clinit>' that only the rewriter made, so that
   * the default serialVersionUID is the original one. The rewriter marks
   * such a class with a synthetic static field "cccp$clinit", which the
   * reflection filter hides: the VM's field table is asked (Unsafe), with
   * the slot cleared (its InternalError, when there is no such field,
   * makes no nodes).
   */
  public static boolean staticInit(Class<?> c, boolean has) {
    if (!has) return false;
    CC prev = CC.set(null);
    try {
      jdk.internal.misc.Unsafe.getUnsafe().objectFieldOffset(c, "cccp$clinit");
      return false;
    } catch (InternalError e) {
      return true;
    } finally {
      CC.set(prev);
    }
  }

  /** After StackTraceElement.of in Throwable and Thread: the elements
   *  without forwarding frames. */
  public static StackTraceElement[] frames(StackTraceElement[] a) {
    CC prev = CC.set(null);
    try {
      return Frames.strip(a);
    } finally {
      CC.set(prev);
    }
  }

  /** After Thread.dumpThreads: each stack without forwarding frames. */
  public static StackTraceElement[][] frames(StackTraceElement[][] a) {
    CC prev = CC.set(null);
    try {
      return Frames.strip(a);
    } finally {
      CC.set(prev);
    }
  }

  /** After NullPointerException.getExtendedNPEMessage in getMessage: the
   *  message without the twins' parameter (Hidden.untwin). */
  public static String npeMessage(String m) {
    if (m == null) return null;
    CC prev = CC.set(null);
    try {
      return Hidden.untwin(m);
    } finally {
      CC.set(prev);
    }
  }

  /** Whether the current thread runs the runtime's own work (see
   *  java.lang.CccpFrameInfo). */
  public static boolean ownWork() {
    return Slots.ownWork();
  }

  /** In place of Reflection.filterFields. */
  public static Field[] filterFields(Class<?> c, Field[] fs) {
    return (Field[]) strip(Reflection.filterFields(c, fs));
  }

  /* Hidden.strip, with the slot cleared. */
  private static Member[] strip(Member[] ms) {
    CC prev = CC.set(null);
    try {
      return Hidden.strip(ms);
    } finally {
      CC.set(prev);
    }
  }
}
