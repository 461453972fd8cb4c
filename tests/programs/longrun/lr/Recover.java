package lr;

import java.lang.ref.ReferenceQueue;
import java.lang.ref.WeakReference;
import java.util.ArrayList;
import java.util.List;

/**
 * Fills the heap until an OutOfMemoryError, recovers, and checks that the
 * JVM still processes references (the JDK's Reference Handler thread
 * survived the full heap), round after round. The JVM's own threads may
 * run their first code in the middle of the full heap.
 */
public class Recover {
  static long sink;

  static void work(int i) { sink += i; }

  static int fill() {
    List<long[]> keep = new ArrayList<>();
    try {
      for (;;) keep.add(new long[1 << 12]);
    } catch (OutOfMemoryError e) {
      int n = keep.size();
      keep = null;
      return n > 0 ? 1 : 0;
    }
  }

  public static void main(String[] args) throws InterruptedException {
    int rounds = Integer.parseInt(args[0]), filled = 0, enqueued = 0;
    ReferenceQueue<Object> q = new ReferenceQueue<>();
    for (int r = 0; r < rounds; r++) {
      for (int i = 0; i < 1000; i++) work(i);
      filled += fill();
      WeakReference<Object> w = new WeakReference<>(new Object(), q);
      System.gc();
      if (q.remove(10_000) == w) enqueued++;
    }
    System.out.println("rounds " + rounds + ", heap filled " + filled
                       + ", references enqueued " + enqueued);
  }
}
