/*
 * RtDriver.java -- drives the cccp runtime by hand, the way instrumented
 * code would (no transform involved): ESI-style passing of the node, the
 * thread-local protocol around a "native" call with a callback, an
 * exception unwinding through several frames, a second thread, a thread
 * in the system thread group, a node with many children, registration
 * through the condy bootstrap. tests/cct/test_runtime.sh checks the dump
 * against RtDriver.expect.
 */
package rtdrv;

import cccp.rt.CC;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;

public final class RtDriver {
  static final String C = "rtdrv/RtDriver";
  static final int MAIN = CC.register(C, "main", "([Ljava/lang/String;)V", 40, 4);
  static final int F = CC.register(C, "f", "(I)I", 10, 4);
  static final int G = CC.register(C, "g", "()V", 3, 4);
  static final int NAT = CC.register("java/lang/System", "arraycopy",
      "(Ljava/lang/Object;ILjava/lang/Object;II)V", 0, 1 | 2);
  static final int CB = CC.register(C, "callback", "()V", 5, 4);
  static final int THROW = CC.register(C, "thrower", "(I)V", 12, 4);
  static final int RUN = CC.register(C + "$Worker", "run", "()V", 8, 4);
  static int[] fan = new int[20];

  public static void main(String[] args) throws Throwable {
    if (args.length == 2 && args[0].equals("deep")) {
      deep(Integer.parseInt(args[1]));
      return;
    }
    if (args.length == 1 && args[0].equals("numbers")) {
      numbers();
      return;
    }
    CC cc = CC.enter(CC.get(), MAIN);
    int x = 0;
    for (int i = 0; i < 10; i++) x += f(cc, i);
    // A "native" call profiled at the call site, with a callback.
    CC nat = CC.enter(cc, NAT);
    CC prev = CC.set(nat);
    try {
      callback();
      callback();
    } finally {
      CC.set(prev);
    }
    // An exception through three frames.
    try {
      thrower(cc, 3);
    } catch (IllegalStateException e) {
      x++;
    }
    // Many children: the table path.
    for (int i = 0; i < fan.length; i++)
      fan[i] = CC.register(C, "fan" + i, "()V", 1, 4);
    for (int k = 0; k < 3; k++)
      for (int i = 0; i < fan.length; i++) CC.enter(cc, fan[i]);
    // Registration is idempotent; the condy bootstrap registers too.
    if (CC.register(C, "f", "(I)I", 10, 4) != F) throw new AssertionError("id");
    MethodHandle bsm = MethodHandles.lookup().findStatic(CC.class, "mid",
        MethodType.methodType(int.class, MethodHandles.Lookup.class,
            String.class, Class.class, String.class, String.class,
            String.class, int.class, int.class));
    Object id = bsm.invokeWithArguments(MethodHandles.lookup(), "_", int.class,
        C, "g", "()V", Integer.valueOf(3), Integer.valueOf(4));
    if (((Integer) id).intValue() != G) throw new AssertionError("condy id");
    // A second thread, and one in the system thread group.
    Thread w = new Thread(new Worker(), "worker");
    w.start();
    w.join();
    ThreadGroup sys = Thread.currentThread().getThreadGroup().getParent();
    Thread s = new Thread(sys, new Worker(), "sysworker");
    s.start();
    s.join();
    // null means not profiling: passes through.
    if (CC.enter(null, F) != null) throw new AssertionError("null");
    System.out.println(x);
  }

  /* A chain 'n' deep under main, each level with 4 leaves: a big tree. */
  static void deep(int n) {
    CC cc = CC.enter(CC.get(), MAIN);
    for (int i = 0; i < n; i++) {
      for (int k = 0; k < 4; k++) CC.enter(cc, k == 0 ? G : fan(k));
      cc = CC.enter(cc, F);
    }
    System.out.println(n);
  }

  /* Counts of every width, set through reflection: the dump writes
  ** them in decimal, and the indentation stops at depth 10. */
  static final long[] COUNTS = {0, 1, 9, 10, 99, 100, 12345, 999999999,
      1000000000, 4294967296L, 999999999999999999L, 1000000000000000000L,
      Long.MAX_VALUE};

  static void numbers() throws ReflectiveOperationException {
    java.lang.reflect.Field calls = CC.class.getDeclaredField("calls");
    calls.setAccessible(true);
    CC cc = CC.enter(CC.get(), MAIN);
    for (int i = 0; i < COUNTS.length; i++) {
      cc = CC.enter(cc, CC.register(C, "n" + i, "()V", 1, 4));
      calls.setLong(cc, COUNTS[i]);
    }
    System.out.println(COUNTS.length);
  }

  static int fan(int k) {
    if (fan[k] == 0) fan[k] = CC.register(C, "fan" + k, "()V", 1, 4);
    return fan[k];
  }

  static int f(CC caller, int i) {
    CC cc = CC.enter(caller, F);
    if (i % 2 == 0) g(cc);
    g(cc);
    return i;
  }

  static void g(CC caller) {
    CC.enter(caller, G);
  }

  /* Reached from "native code": N2B style, the node comes from the slot. */
  static void callback() {
    CC cc = CC.enter(CC.get(), CB);
    g(cc);
  }

  static void thrower(CC caller, int n) {
    CC cc = CC.enter(caller, THROW);
    if (n == 0) throw new IllegalStateException();
    thrower(cc, n - 1);
  }

  static final class Worker implements Runnable {
    public void run() {
      CC cc = CC.enter(CC.get(), RUN);
      for (int i = 0; i < 5; i++) f(cc, i);
    }
  }
}
