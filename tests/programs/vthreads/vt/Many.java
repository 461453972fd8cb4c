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
    Thread[] ts = new Thread[n];
    for (int i = 0; i < n; i++) {
      final int k = i;
      Runnable r = () -> {
        sum.addAndGet(work(k));
        Thread.yield();
        sum.addAndGet(work(k));
      };
      ts[i] = "v".equals(args[0]) ? Thread.ofVirtual().unstarted(r)
                                  : new Thread(r, "worker-" + i);
      ts[i].start();
      if (i % 64 == 63) for (int j = i - 63; j <= i; j++) ts[j].join();
    }
    for (Thread t : ts) t.join();
    System.out.println("sum " + sum.get());
  }
}
