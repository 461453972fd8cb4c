package ext;

import java.util.ArrayList;
import java.util.List;

/**
 * What a method reached through a twin sees of its stack. The overrides
 * (never rewritten) call these, passing what they computed in their own
 * frame, so that the plain and the instrumented run print the same.
 */
public final class Frames {
  public static final StackWalker WALKER =
      StackWalker.getInstance(StackWalker.Option.RETAIN_CLASS_REFERENCE);
  private static final Object LOCK = new Object();
  private static boolean parked, released;

  private Frames() {}

  /** Print a throwable, Thread.getStackTrace()[1..3], a walk and the
   *  caller class, all taken in the override's frame. */
  public static void show(String how, Throwable t, StackTraceElement[] here,
                          Class<?> caller, List<String> walk) {
    System.out.println("-- " + how);
    t.printStackTrace(System.out);
    for (int i = 1; i <= 3 && i < here.length; i++)
      System.out.println("  thread[" + i + "] " + here[i].getMethodName()
                         + ":" + here[i].getLineNumber());
    for (String s : walk) System.out.println("  walk " + s);
    System.out.println("  caller " + caller.getName());
  }

  /** The frames below, twice: StackWalker.walk with class references,
   *  and forEach of a walker without them. */
  public static List<String> walk() {
    List<String> r = WALKER.walk(s -> {
      List<String> l = new ArrayList<>();
      s.forEach(f -> l.add(f.getDeclaringClass().getName() + "."
                           + f.getMethodName() + ":" + f.getLineNumber()));
      return l;
    });
    StackWalker.getInstance().forEach(f -> r.add("each " + f.getClassName()
        + "." + f.getMethodName() + ":" + f.getLineNumber()));
    return r;
  }

  /** An exception with a cause and a suppressed one, all made here. */
  public static RuntimeException chain() {
    RuntimeException e = new RuntimeException("top", new Exception("cause"));
    e.addSuppressed(new Exception("suppressed"));
    return e;
  }

  /** Wait in the caller's thread until 'release'. */
  public static void park() throws InterruptedException {
    synchronized (LOCK) {
      parked = true;
      LOCK.notifyAll();
      while (!released) LOCK.wait();
    }
  }

  /** Until a thread waits in 'park' (it has released the lock): true,
   *  or false after 'thread' ended without parking. */
  public static boolean awaitParked(Thread thread)
      throws InterruptedException {
    synchronized (LOCK) {
      while (!parked && thread.isAlive()) LOCK.wait(10);
      return parked;
    }
  }

  public static void release() {
    synchronized (LOCK) {
      released = true;
      LOCK.notifyAll();
    }
  }
}
