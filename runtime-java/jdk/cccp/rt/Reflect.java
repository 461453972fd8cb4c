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

  /*
   * The patch jars of the patched modules (the JVM's jdk.module.patch.N
   * properties, "MODULE=PATH:PATH", which the JDK keeps aside from the
   * system properties), as the paths of the URLs the JDK
   * makes of them, and each module's own location: read once, at start
   * (Slots.start), with profiling off.
   */
  private static String[] patchPaths = new String[0];
  private static java.net.URL[] patchModules = new java.net.URL[0];

  static void patches() {
    java.util.ArrayList<String> paths = new java.util.ArrayList<>();
    java.util.ArrayList<java.net.URL> mods = new java.util.ArrayList<>();
    for (int i = 0;; i++) {
      String v = jdk.internal.misc.VM.getSavedProperty("jdk.module.patch." + i);
      if (v == null) break;
      int eq = v.indexOf('=');
      if (eq <= 0) continue;
      String m = v.substring(0, eq);
      if (m.equals("java.base")) continue;        // defined by the VM
      try {
        java.net.URL at = java.net.URI.create("jrt:/" + m).toURL();
        for (String p : v.substring(eq + 1).split(java.io.File.pathSeparator)) {
          if (p.isEmpty()) continue;
          paths.add(java.nio.file.Path.of(p).toAbsolutePath().toUri().toURL()
                    .getPath());
          mods.add(at);
        }
      } catch (java.io.IOException | RuntimeException e) {
        /* that module's classes keep their patch jar's code source */
      }
    }
    patchPaths = paths.toArray(new String[0]);
    patchModules = mods.toArray(new java.net.URL[0]);
  }

  /**
   * After Resource.getCodeSourceURL in BuiltinClassLoader: for a class
   * of a patched module, its module's own location instead of the patch
   * jar it came from, so that the JDK's policy, which grants by those
   * locations, gives it what it gives the module (see the policy's
   * patched-code-source); any other URL as it is.
   */
  public static java.net.URL codeSource(java.net.URL u) {
    String[] ps = patchPaths;
    if (u == null || ps.length == 0) return u;
    CC prev = CC.set(null);
    try {
      if (!"file".equals(u.getProtocol())) return u;
      String p = u.getPath();
      for (int i = 0; i < ps.length; i++)
        if (ps[i].equals(p)) return patchModules[i];
      return u;
    } finally {
      CC.set(prev);
    }
  }

  /**
   * After JarFile.stream() in a patched module's reader (ModulePatcher's
   * JarResourceFinder.list): the patch jar's entries read at once, so
   * that the list outlives the reader as the JDK's own does, without the
   * runtime's own files and folders (see the policy's
   * patched-module-list).
   */
  public static java.util.stream.Stream<?> entries(java.util.stream.Stream<?> s) {
    CC prev = CC.set(null);
    try {
      Object[] a = s.toArray();
      int k = 0;
      for (Object o : a) {
        String n = ((java.util.zip.ZipEntry) o).getName();
        /* the runtime's jar also holds the folders of its classes: the
        ** JDK's own reader lists no folders */
        if (n.startsWith("cccp/") || n.startsWith("java/lang/Cccp")
            || n.equals("META-INF/cccp.patch") || n.endsWith("/"))
          continue;
        a[k++] = o;
      }
      return java.util.Arrays.stream(a, 0, k);
    } finally {
      CC.set(prev);
    }
  }

  /**
   * In place of nonExportedPkgs.containsKey(pkg) in SecurityManager:
   * whether package 'pkg' is restricted, never for cccp.rt (see the
   * policy's runtime-package-access); the lookup itself with the slot
   * cleared, as the runtime's work.
   */
  public static boolean restricted(java.util.Map<?, ?> m, Object pkg) {
    if ("cccp.rt".equals(pkg)) return false;
    CC prev = CC.set(null);
    try {
      return m.containsKey(pkg);
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
