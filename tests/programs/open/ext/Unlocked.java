package ext;

/** Not rewritten: overrides a synchronized method without 'synchronized'. */
public class Unlocked extends ow.Locked {
  @Override public String probe() {
    boolean held = Thread.holdsLock(this);
    String waited;
    try {
      wait(1);
      waited = "wait() returned";
    } catch (IllegalMonitorStateException e) {
      waited = "wait() threw IllegalMonitorStateException";
    } catch (InterruptedException e) {
      waited = "wait() interrupted";
    }
    // another thread needs this object's monitor ('add' is synchronized):
    // it gets it at once unless this thread holds it (-Dopen.join: how
    // long to wait for it, in milliseconds)
    Thread t = new Thread(() -> add(1));
    t.start();
    try {
      t.join(Long.getLong("open.join", 20000L));
    } catch (InterruptedException e) {
      return "interrupted";
    }
    return "override holds the monitor " + held + "; " + waited
        + "; a thread that locks it " + (t.isAlive() ? "is blocked" : "ran")
        + "; " + super.probe();
  }
}
