package lr;

/**
 * Starts and joins platform threads one after another, each making a few
 * calls; prints the time it took, and the time per thread over the second
 * half (the first half warms up: classes load, the JIT compiles).
 * Arguments: threads, and how many run at once.
 */
public class Churn {
  static long sink;

  static void work(int i) { sink += i; }

  public static void main(String[] args) throws Exception {
    int n = Integer.parseInt(args[0]), k = args.length > 1 ? Integer.parseInt(args[1]) : 1;
    long t0 = System.nanoTime(), th = 0;
    Thread[] ts = new Thread[k];
    for (int i = 0; i < n; i += k) {
      if (th == 0 && i >= n / 2) th = System.nanoTime();
      for (int j = 0; j < k; j++) {
        final int x = i + j;
        ts[j] = new Thread(() -> work(x), "churn-" + x);
        ts[j].start();
      }
      for (int j = 0; j < k; j++) ts[j].join();
    }
    long t1 = System.nanoTime(), t = t1 - t0;
    System.out.println("threads " + n + " ms " + t / 1_000_000 + " per "
                       + (t1 - th) / (n - n / 2) / 1000 + " us");
  }
}
