package ow;

/**
 * Synchronized methods of an instrumented class, owned and overridden
 * outside the rewrite (ext.Unlocked): the override runs without the
 * monitor, the owned methods with it, exactly as in the plain program.
 * args[0]: iterations of the hot loop (the JITs compile what it calls).
 */
public class SyncMain {
  public static void main(String[] args) throws Exception {
    Locked u = (Locked) Class.forName("ext.Unlocked").getDeclaredConstructor().newInstance();
    System.out.println(u.probe());

    // the exact class, and a subclass that was not rewritten and does
    // not override these: two threads add through the twins
    Locked[] objs = {new Locked(), (Locked) Class.forName("ext.Unlocked")
        .getDeclaredConstructor().newInstance()};
    for (Locked l : objs) {
      Runnable r = () -> {
        for (int i = 0; i < 50000; i++) {
          l.add(1);
          l.nested(1);
        }
      };
      Thread a = new Thread(r), b = new Thread(r);
      a.start();
      b.start();
      a.join();
      b.join();
      System.out.println(l.getClass().getName() + ": two threads count "
          + l.count() + ", depth " + l.depth(20) + ", waits " + l.waits());
    }

    // an exception thrown inside releases the monitor
    Locked l = new Locked();
    try {
      l.fail("thrown");
    } catch (IllegalStateException e) {
      System.out.println(e.getMessage() + ", held after " + Thread.holdsLock(l));
    }
    Thread t = new Thread(() -> {
      synchronized (l) {
        l.add(1);
      }
    });
    t.start();
    t.join(20000);
    System.out.println("another thread locks it after the throw: "
        + (t.isAlive() ? "blocked" : "yes, count " + l.count()));

    int n = args.length > 0 ? Integer.parseInt(args[0]) : 1000;
    long s = 0;
    for (int i = 0; i < n; i++) {
      l.add(1);
      s += l.nested(1);
    }
    System.out.println("loop " + s + " " + l.count());
  }
}
