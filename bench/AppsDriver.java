/* AppsDriver -- runs an application's main K times in one JVM and times each
 * run, so that a benchmark measures the application phase and not JVM
 * start-up, class loading of the first run or the exit.
 *
 * usage: java [options] -cp DRIVER_DIR:APP_CP AppsDriver WARM TIMED MAIN ARGS...
 *
 * WARM untimed runs first (class loading, JIT warm-up), then TIMED runs,
 * each printed on standard error as "iter NANOS CPUNANOS" at the end (the
 * application may have replaced System.out): wall time, and the CPU time
 * of the thread that runs main (what a run costs where the machine is
 * shared: time spent waiting for a core is left out, and so are the JIT
 * compiler's and the garbage collector's threads). Before the first
 * timed run it prints "timed NANOS" (System.nanoTime, CLOCK_MONOTONIC on
 * Linux: bench/hotspots keeps the samples taken after it), and first of
 * all "pid PID". With -Dcalls=true (the counting floor's runs, whose jars
 * add to AsmCounter$Counts.C at each method entry) it also prints
 * "calls N": the methods the timed runs entered, per run. The driver is never
 * instrumented; it only calls into the application, whose output the
 * caller discards.
 * The mains chosen return (none calls System.exit on success), so no
 * SecurityManager is needed: it is deprecated on 17 and gone on 25.
 */
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.lang.reflect.Method;
import java.util.Arrays;

public final class AppsDriver {
  public static void main(String[] a) throws Throwable {
    int warm = Integer.parseInt(a[0]), timed = Integer.parseInt(a[1]);
    Method m = Class.forName(a[2]).getMethod("main", String[].class);
    String[] args = Arrays.copyOfRange(a, 3, a.length);
    ThreadMXBean mx = ManagementFactory.getThreadMXBean();
    long[] t = new long[timed], c = new long[timed];
    System.err.println("pid " + ProcessHandle.current().pid());
    boolean calls = Boolean.getBoolean("calls");
    long entered = 0;
    for (int i = 0; i < warm + timed; i++) {
      if (i == warm) {
        if (calls) entered = entries();
        System.err.println("timed " + System.nanoTime());
      }
      long c0 = mx.getCurrentThreadCpuTime();
      long t0 = System.nanoTime();
      m.invoke(null, (Object) args.clone());
      long dt = System.nanoTime() - t0;
      long dc = mx.getCurrentThreadCpuTime() - c0;
      if (i >= warm) {
        t[i - warm] = dt;
        c[i - warm] = dc;
      }
    }
    if (calls) System.err.println("calls " + (entries() - entered) / timed);
    for (int i = 0; i < timed; i++) System.err.println("iter " + t[i] + " " + c[i]);
  }

  /** The method entries the floor's counters hold, all methods together. */
  private static long entries() throws ReflectiveOperationException {
    long s = 0;
    for (long v : (long[]) Class.forName("AsmCounter$Counts").getField("C").get(null))
      s += v;
    return s;
  }
}
