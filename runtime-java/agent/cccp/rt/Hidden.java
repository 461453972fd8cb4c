/*
 * Hidden.java -- the reflection filter. Defined by the agent inside
 * java.base, in package java.lang, under the name java.lang.CccpHidden
 * (its bytes are renamed), and called by the patched java.lang.Class
 * wherever the class asks the VM for the declared members of a class.
 * Compiled for class version 55; uses only java.base.
 */
package cccp.rt;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Constructor;
import java.lang.reflect.Executable;
import java.lang.reflect.Field;
import java.lang.reflect.Member;
import java.lang.reflect.Method;

/**
 * Leaves out of the member lists that java.lang.Class builds (and caches)
 * what the rewriter adds: synthetic members named "cccp$..." (method-id
 * fields, markers), synthetic methods and constructors whose last
 * parameter is a cccp.rt.CC (twins), and a synthetic serialVersionUID
 * (pinned by the rewriter; compilers do not make one). Everything built on those lists then sees the
 * original class: getDeclaredMethods, getMethods, getDeclaredMethod,
 * getMethod, the constructor and field equivalents, java.beans, the
 * default serialVersionUID, records and enums.
 */
public final class Hidden
    implements java.security.PrivilegedExceptionAction<Void> {
  private static final int SYNTHETIC = 0x1000;
  /* The JDK's members the filter calls, found by lookups when first
  ** needed (see Frames: an instrumented JDK calls the originals itself
  ** and has the results filtered, needing none of them). */
  private static MethodHandle FILTER_METHODS, FILTER_FIELDS, CTORS, FIELDS,
      HAS_INIT;
  private static volatile boolean found;

  /* The same members through the native agent (java.lang.CccpHidden:
  ** app mode; boot.c), which links nothing on the program's thread: a
  ** method handle's first calls initialise java.lang.invoke there and
  ** hash what they link, moving the thread's identity hashes. An
  ** instrumented JDK's filter (cccp.rt.Hidden) has no natives. */
  private static volatile boolean jni = true;

  private static native Method[] filterMethods0(Class<?> c, Method[] ms);

  private static native Field[] filterFields0(Class<?> c, Field[] fs);

  private static native Constructor<?>[] constructors0(Class<?> c,
                                                       boolean publicOnly);

  private static native Field[] fields0(Class<?> c, boolean publicOnly);

  private static native boolean hasInit0(Class<?> c);

  private static native String npe0(NullPointerException e);

  /*
  ** The lookups, with this class's permissions, not the program's (a
  ** SecurityManager asks for suppressAccessChecks): the action is an
  ** instance of this class, which the agent defines alone.
  */
  private static synchronized void find() throws ReflectiveOperationException {
    if (found) return;
    try {
      java.security.AccessController.doPrivileged(new Hidden());
    } catch (java.security.PrivilegedActionException e) {
      throw (ReflectiveOperationException) e.getException();
    }
  }

  @Override
  public Void run() throws ReflectiveOperationException {
    MethodHandles.Lookup l = MethodHandles.lookup();
    Class<?> r = Class.forName("jdk.internal.reflect.Reflection");
    FILTER_METHODS = l.findStatic(r, "filterMethods", MethodType.methodType(
        Method[].class, Class.class, Method[].class));
    FILTER_FIELDS = l.findStatic(r, "filterFields", MethodType.methodType(
        Field[].class, Class.class, Field[].class));
    CTORS = MethodHandles.privateLookupIn(Class.class, l).findVirtual(
        Class.class, "getDeclaredConstructors0",
        MethodType.methodType(Constructor[].class, boolean.class));
    FIELDS = MethodHandles.privateLookupIn(Class.class, l).findVirtual(
        Class.class, "getDeclaredFields0",
        MethodType.methodType(Field[].class, boolean.class));
    Class<?> osc = Class.forName("java.io.ObjectStreamClass");
    HAS_INIT = MethodHandles.privateLookupIn(osc, l).findStatic(
        osc, "hasStaticInitializer",
        MethodType.methodType(boolean.class, Class.class));
    found = true;
    return null;
  }

  private Hidden() {}

  /** In place of jdk.internal.reflect.Reflection.filterMethods. */
  public static Method[] filterMethods(Class<?> c, Method[] ms)
      throws Throwable {
    if (jni) {
      try {
        return (Method[]) strip(filterMethods0(c, ms));
      } catch (UnsatisfiedLinkError e) {
        jni = false;
      }
    }
    if (!found) find();
    return (Method[]) strip((Method[]) FILTER_METHODS.invokeExact(c, ms));
  }

  /** In place of jdk.internal.reflect.Reflection.filterFields. */
  public static Field[] filterFields(Class<?> c, Field[] fs)
      throws Throwable {
    if (jni) {
      try {
        return (Field[]) strip(filterFields0(c, fs));
      } catch (UnsatisfiedLinkError e) {
        jni = false;
      }
    }
    if (!found) find();
    return (Field[]) strip((Field[]) FILTER_FIELDS.invokeExact(c, fs));
  }

  /** In place of c.getDeclaredConstructors0(publicOnly). */
  public static Constructor<?>[] constructors(Class<?> c, boolean publicOnly)
      throws Throwable {
    return (Constructor<?>[]) strip(declaredConstructors(c, publicOnly));
  }

  /* c.getDeclaredConstructors0(publicOnly), a private native of Class. */
  static Constructor<?>[] declaredConstructors(Class<?> c, boolean publicOnly)
      throws Throwable {
    if (jni) {
      try {
        return constructors0(c, publicOnly);
      } catch (UnsatisfiedLinkError e) {
        jni = false;
      }
    }
    if (!found) find();
    return (Constructor<?>[]) CTORS.invokeExact(c, publicOnly);
  }

  /**
   * In place of ObjectStreamClass.hasStaticInitializer: false for a
   * '<clinit>' that only the rewriter made (it marks the class with a
   * synthetic field "cccp$clinit"), so that the default serialVersionUID
   * is the original one.
   */
  public static boolean hasStaticInitializer(Class<?> c) throws Throwable {
    if (jni) {
      try {
        return hasInit0(c) && !addedInit(c);
      } catch (UnsatisfiedLinkError e) {
        jni = false;
      }
    }
    if (!found) find();
    return (boolean) HAS_INIT.invokeExact(c) && !addedInit(c);
  }

  /* Whether the rewriter made the '<clinit>' of 'c' (its marker field). */
  static boolean addedInit(Class<?> c) throws Throwable {
    if (jni) {
      try {
        return addedInit(fields0(c, false));
      } catch (UnsatisfiedLinkError e) {
        jni = false;
      }
    }
    if (!found) find();
    return addedInit((Field[]) FIELDS.invokeExact(c, false));
  }

  /* Whether fields 'fs' of a class, as the VM lists them, hold the marker
  ** of a '<clinit>' the rewriter made. */
  static boolean addedInit(Field[] fs) {
    for (Field f : fs)
      if (f.isSynthetic() && f.getName().equals("cccp$clinit")) return true;
    return false;
  }

  /* NullPointerException.extendedMessage, found when first needed */
  private static MethodHandle NPE_MESSAGE;

  /**
   * In place of NullPointerException.getMessage's read of its field
   * extendedMessage (JDK 14 and later): the message the VM made, by
   * 'untwin'.
   */
  public static String npeMessage(NullPointerException e) throws Throwable {
    if (jni) {
      try {
        return untwin(npe0(e));
      } catch (UnsatisfiedLinkError x) {
        jni = false;
      }
    }
    MethodHandle h = NPE_MESSAGE;
    if (h == null)
      NPE_MESSAGE = h = MethodHandles
          .privateLookupIn(NullPointerException.class, MethodHandles.lookup())
          .findGetter(NullPointerException.class, "extendedMessage",
                      String.class);
    return untwin((String) h.invokeExact(e));
  }

  private static final String CC_PARAM = "cccp.rt.CC)";

  /**
   * A helpful NullPointerException message without the parameter twins
   * add. The VM names the call that failed, and the call whose result was
   * null, by the called method's parameter types, and instrumented code
   * calls twins: "Cannot invoke \"C.m(int, cccp.rt.CC)\"" becomes
   * "Cannot invoke \"C.m(int)\"". 'm' itself when it names no twin.
   */
  static String untwin(String m) {
    if (m == null || m.indexOf(CC_PARAM) < 0) return m;
    StringBuilder b = new StringBuilder(m.length());
    int from = 0;
    for (int i; (i = m.indexOf(CC_PARAM, from)) >= 0;) {
      int cut = i > 0 && m.charAt(i - 1) == '(' ? i
                : i > 1 && m.startsWith(", ", i - 2) ? i - 2 : -1;
      int end = i + CC_PARAM.length() - 1;   /* keeps the ')' */
      b.append(m, from, cut < 0 ? end : cut);
      from = end;
    }
    return b.append(m, from, m.length()).toString();
  }

  /* 'ms' without the added members ('ms' itself when there are none). */
  static Member[] strip(Member[] ms) {
    int n = 0;
    for (Member m : ms)
      if (added(m)) n++;
    if (n == 0) return ms;
    Member[] r = (Member[]) java.lang.reflect.Array.newInstance(
        ms.getClass().getComponentType(), ms.length - n);
    int k = 0;
    for (Member m : ms)
      if (!added(m)) r[k++] = m;
    return r;
  }

  private static boolean added(Member m) {
    if ((m.getModifiers() & SYNTHETIC) == 0) return false;
    if (m.getName().startsWith("cccp$")) return true;
    /* the serialVersionUID the rewriter pins: without it, the default one
    ** is the same (hasStaticInitializer) */
    if (!(m instanceof Executable))
      return m.getName().equals("serialVersionUID");
    Executable e = (Executable) m;
    int n = e.getParameterCount();
    return n > 0 && e.getParameterTypes()[n - 1].getName().equals("cccp.rt.CC");
  }
}
