package lr;

/**
 * Starts and joins platform threads one after another, each making a few
 * calls; prints the time it took (for bench/threads). Arguments: threads,
 * and how many run at once.
 */
public class Churn {
  static long sink;

  static void work(int i) { sink += i; }

  public static void main(String[] args) throws Exception {
    int n = Integer.parseInt(args[0]), k = args.length > 1 ? Integer.parseInt(args[1]) : 1;
    long t0 = System.nanoTime();
    Thread[] ts = new Thread[k];
    for (int i = 0; i < n; i += k) {
      for (int j = 0; j < k; j++) {
        final int x = i + j;
        ts[j] = new Thread(() -> work(x), "churn-" + x);
        ts[j].start();
      }
      for (int j = 0; j < k; j++) ts[j].join();
    }
    long t = System.nanoTime() - t0;
    System.out.println("threads " + n + " ms " + t / 1_000_000 + " per " + t / n / 1000 + " us");
  }
}
