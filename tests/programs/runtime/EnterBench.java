/*
 * EnterBench.java -- cost of CC.enter, in ns per call: a repeated child
 * (the one-entry cache; 8 parents in turn, so that the JIT cannot keep
 * one node's count in a register across the loop), two alternating children (list scan), 16
 * children in turn (table), and a get/set pair (the thread-local
 * protocol). Prints one line per case; best of 5 rounds.
 */
package rtdrv;

import cccp.rt.CC;

public final class EnterBench {
  static long sink;

  public static void main(String[] args) {
    long n = args.length > 0 ? Long.parseLong(args[0]) : 100_000_000L;
    int[] m = new int[16];
    for (int i = 0; i < m.length; i++) m[i] = CC.register("b/B", "m" + i, "()V", 1, 4);
    CC top = CC.enter(CC.get(), CC.register("b/B", "main", "()V", 1, 4));
    CC[] tops = new CC[8];
    for (int i = 0; i < tops.length; i++) tops[i] = CC.enter(top, m[i]);
    report("repeated child (cache hit)", n, () -> {
      int x = m[0];
      for (long i = 0; i < n; i++) if (CC.enter(tops[(int) i & 7], x) == top) sink++;
    });
    report("2 children alternating (list)", n, () -> {
      CC c = top;
      for (long i = 0; i < n; i++) if (CC.enter(c, m[(int) i & 1]) == c) sink++;
    });
    report("16 children in turn (table)", n, () -> {
      CC c = top;
      for (long i = 0; i < n; i++) if (CC.enter(c, m[(int) i & 15]) == c) sink++;
    });
    report("get + set + set (TL protocol)", n / 4, () -> {
      for (long i = 0; i < n / 4; i++) {
        CC p = CC.set(top);
        if (CC.get() == p) sink++;
        CC.set(p);
      }
    });
    if (sink == 42) System.out.println();
  }

  static void report(String what, long n, Runnable r) {
    long best = Long.MAX_VALUE;
    for (int k = 0; k < 5; k++) {
      long t = System.nanoTime();
      r.run();
      best = Math.min(best, System.nanoTime() - t);
    }
    System.out.printf("%-32s %6.2f ns/op%n", what, (double) best / n);
  }
}
