/* MicroDriver -- times the kernels of bench/MicroKernels.java in one JVM.
 *
 * usage: java [options] -cp DRIVER_DIR:KERNELS_JAR MicroDriver WARM_MS BATCH_MS BATCHES KERNEL...
 *
 * For each kernel: batches of run(n) for WARM_MS untimed (the JIT compiles
 * the kernel, the runtime's entry points and their callers; 'n' grows
 * until a batch takes about BATCH_MS), then BATCHES timed batches of that
 * 'n'. Prints "KERNEL NS_PER_CALL" on standard output, the median of the
 * batches' times per call. The checksums of all runs go to standard error
 * at the end so that no kernel's work is dead code. The driver is never
 * instrumented; it reaches a kernel through one call per batch.
 */
import java.util.Arrays;

public final class MicroDriver {
  public static void main(String[] a) {
    long warm = Long.parseLong(a[0]) * 1000000L;
    long batch = Long.parseLong(a[1]) * 1000000L;
    int batches = Integer.parseInt(a[2]);
    long sink = 0;
    for (int j = 3; j < a.length; j++) {
      Object k = MicroKernels.kernel(a[j]);
      int n = 1000;
      long end = System.nanoTime() + warm;
      while (true) {
        long t0 = System.nanoTime();
        sink += MicroKernels.run(k, n);
        long t1 = System.nanoTime();
        if (t1 - t0 < batch / 2 && n < (1 << 29)) n *= 2;
        if (t1 >= end) break;
      }
      double[] per = new double[batches];
      long calls = MicroKernels.calls(k, n);
      for (int b = 0; b < batches; b++) {
        long t0 = System.nanoTime();
        sink += MicroKernels.run(k, n);
        per[b] = (double) (System.nanoTime() - t0) / calls;
      }
      Arrays.sort(per);
      double med = batches % 2 == 1 ? per[batches / 2]
                   : (per[batches / 2 - 1] + per[batches / 2]) / 2;
      System.out.printf("%s %.3f%n", a[j], med);
    }
    System.err.println("checksum " + sink);
  }
}
