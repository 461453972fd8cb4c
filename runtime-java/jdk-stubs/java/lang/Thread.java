/*
 * Thread.java -- compile-time stand-in for java.lang.Thread with the
 * fields the rewriter adds to it in JDK mode, so that the JDK mode's
 * Slots compiles to plain getfield/putfield. Never packaged: the real
 * Thread (rewritten) is what runs. Declares only what the runtime uses.
 */
package java.lang;

public class Thread implements Runnable {
  public cccp.rt.CC.Slot cccp$slot;
  public cccp.rt.CC cccp$root;

  public Thread(String name) {}

  public Thread(Runnable task, String name) {}

  public static native Thread currentThread();

  public final String getName() { return null; }

  public final ThreadGroup getThreadGroup() { return null; }

  public final boolean isAlive() { return false; }

  public void run() {}

  public final void setDaemon(boolean on) {}

  public void start() {}

  public static void sleep(long ms) throws InterruptedException {}
}
