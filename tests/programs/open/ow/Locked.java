package ow;

/**
 * Synchronized methods of an instrumented class. ext.Unlocked overrides
 * 'probe' without 'synchronized'; the others run here, holding the
 * monitor of 'this'.
 */
public class Locked {
  private int count;

  /** Overridden outside the rewrite by a method that does not lock. */
  public synchronized String probe() {
    return "base probe holds the monitor " + Thread.holdsLock(this);
  }

  public synchronized void add(int k) { count += k; }

  public synchronized int count() { return count; }

  /** Locks 'this' again inside: still compiled by the JITs. */
  public synchronized int nested(int k) {
    synchronized (this) {
      count += k;
    }
    return count;
  }

  /** Throws while it holds the monitor. */
  public synchronized long fail(String why) {
    throw new IllegalStateException(why + ", held " + Thread.holdsLock(this));
  }

  /** Re-enters its own monitor: the depth, or -1 if not held at the end. */
  public synchronized int depth(int k) {
    if (k == 0) return Thread.holdsLock(this) ? 0 : -1000;
    return 1 + depth(k - 1);
  }

  /** wait() needs the monitor, which a synchronized method holds. */
  public synchronized double waits() throws InterruptedException {
    wait(1);
    notifyAll();
    return 0.5;
  }
}
