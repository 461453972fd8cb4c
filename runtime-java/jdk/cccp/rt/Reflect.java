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

  /** In place of c.getDeclaredConstructors0(publicOnly). */
  public static Constructor<?>[] constructors(Class<?> c, boolean publicOnly)
      throws Throwable {
    return (Constructor<?>[]) strip(Hidden.declaredConstructors(c, publicOnly));
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
