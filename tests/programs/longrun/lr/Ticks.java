package lr;

/**
 * Runs for about the milliseconds its argument gives, calling 'tick' in
 * a loop; prints how often it did (for cccp.interval's snapshots).
 */
public class Ticks {
  static long n, sink;

  static void tick() { n++; sink ^= n; }

  public static void main(String[] args) {
    long end = System.nanoTime() + Long.parseLong(args[0]) * 1_000_000L;
    while (System.nanoTime() < end)
      for (int i = 0; i < 1000; i++) tick();
    System.out.println("ticks " + n);
  }
}
