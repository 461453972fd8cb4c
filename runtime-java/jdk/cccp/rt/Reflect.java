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
 * What Hidden does for the agent, in JDK mode, where the JDK's methods are
 * nodes: the original filter is called directly (its node lies under
 * Class's method, as without instrumentation), and Hidden's own work runs
 * with the thread's slot cleared, so that the JDK methods it calls make
 * no nodes.
 */
public final class Reflect {
  private Reflect() {}

  /** In place of Reflection.filterMethods. */
  public static Method[] filterMethods(Class<?> c, Method[] ms) {
    return (Method[]) strip(Reflection.filterMethods(c, ms));
  }

  /* The id of Class.getDeclaredConstructors0, once known (-1: not yet). */
  private static volatile int ctors0 = -1;

  /**
   * In place of c.getDeclaredConstructors0(publicOnly), a private native
   * that the filter calls through a method handle: the node the call site
   * would make for it is made here, so that the classes it loads lie
   * under it, as without instrumentation.
   */
  public static Constructor<?>[] constructors(Class<?> c, boolean publicOnly)
      throws Throwable {
    int id = ctors0;
    if (id < 0) {                 // 0 until the method table is read
      CC p = CC.set(null);        // the search's String calls: no nodes
      try {
        id = CC.Registry.jdkId("java/lang/Class", "getDeclaredConstructors0",
                               "(Z)[Ljava/lang/reflect/Constructor;");
      } finally {
        CC.set(p);
      }
      if (id > 0) ctors0 = id;
    }
    CC prev = CC.get(), node = CC.enter(prev, id);
    Constructor<?>[] r;
    if (node == prev) {
      r = Hidden.declaredConstructors(c, publicOnly);
    } else {
      CC.set(node);
      try {
        r = Hidden.declaredConstructors(c, publicOnly);
      } finally {
        CC.set(prev);
      }
    }
    return (Constructor<?>[]) strip(r);
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
