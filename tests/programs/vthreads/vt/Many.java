/* Many.java -- many short-lived threads (virtual ones with "v", platform
 * ones with "p"): the trees of ended threads are merged by name pattern,
 * so the profile does not grow with the number of threads. */
package vt;

import java.util.concurrent.atomic.AtomicLong;

public final class Many {
  static int work(int i) {
    return Integer.toString(i).length();
  }

  public static void main(String[] args) throws Exception {
    int n = Integer.parseInt(args[1]);
    AtomicLong sum = new AtomicLong();
    Thread[] ts = new Thread[64];   // one batch: memory does not grow with n
    for (int i = 0; i < n; i++) {
      final int k = i;
      Runnable r = () -> {
        sum.addAndGet(work(k));
        Thread.yield();
        sum.addAndGet(work(k));
      };
      Thread t = "v".equals(args[0]) ? Thread.ofVirtual().unstarted(r)
                                     : new Thread(r, "worker-" + i);
      ts[i % 64] = t;
      t.start();
      if (i % 64 == 63) for (Thread b : ts) b.join();
    }
    for (Thread b : ts) if (b != null) b.join();
    System.out.println("sum " + sum.get());
  }
}
