/*
 * CccpFrameInfo.java -- the frame objects of the runtime's own stack
 * walks, made without reflection. Part of the JDK-mode runtime
 * (cccp-rt-jdk.jar, patched into java.base), in package java.lang for the
 * frame classes' package-private constructors; compiled against
 * stand-ins (runtime-java/jdk-stubs).
 */
package java.lang;

import java.lang.reflect.Constructor;

/**
 * In place of Constructor.newInstance(walker) in
 * StackStreamFactory$StackFrameBuffer (JDK 22 and later), which makes a
 * walk's frame objects by reflection (the policy's stack-frame-objects
 * redirect; older JDKs construct them and never call this). The first
 * reflective call of a process spins method handles and fills the JDK's
 * caches of method types and lambda forms: for the runtime's own walks
 * (cccp.rt.Upcalls, which runs with the thread's slot cleared) that would
 * be work the program does at its own first reflective call, in its own
 * context. Those frames are made directly; every other walk's as without
 * cccp.
 */
public final class CccpFrameInfo {
  private CccpFrameInfo() {}

  public static Object make(Constructor<?> c, Object[] args)
      throws ReflectiveOperationException {
    if (args != null && args.length == 1 && args[0] instanceof StackWalker
        && cccp.rt.Reflect.ownWork()) {
      try {
        Class<?> t = c.getDeclaringClass();
        StackWalker w = (StackWalker) args[0];
        if (t == StackFrameInfo.class) return new StackFrameInfo(w);
        if (t == ClassFrameInfo.class) return new ClassFrameInfo(w);
      } catch (LinkageError e) {
        /* another JDK's frame classes: by reflection */
      }
    }
    return c.newInstance(args);
  }
}
