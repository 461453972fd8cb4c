package lr;

import java.io.File;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Work in phases of 1000, 2000, 3000, ... calls of 'work', with a
 * snapshot of the profile between them (the runtime's entry point,
 * called by reflection; an argument "-" takes none), and a thread that
 * calls 'busy' throughout. Prints what it counted itself.
 */
public class Phases {
  static final AtomicLong BUSY = new AtomicLong();
  static volatile boolean stop;
  static long sink;

  static void work(int i) { sink += i; }

  static void busy() { BUSY.incrementAndGet(); }

  static void snapshot(String path, boolean reset) throws Exception {
    Object r = Class.forName("cccp.rt.Snapshot")
        .getMethod("take", String.class, boolean.class)
        .invoke(null, new File(path).getAbsolutePath(), reset);
    System.out.println("snapshot " + path + " " + r);
  }

  public static void main(String[] args) throws Exception {
    boolean reset = !Boolean.getBoolean("lr.noreset");
    Thread t = new Thread(() -> { while (!stop) busy(); }, "busy");
    t.start();
    int phase = 1;
    for (String a : args) {
      for (int i = 0; i < 1000 * phase; i++) work(i);
      phase++;
      if (!a.equals("-")) snapshot(a, reset);
    }
    for (int i = 0; i < 1000 * phase; i++) work(i);
    stop = true;
    t.join();
    System.out.println("busy " + BUSY.get());
  }
}
