/*
 * @test
 * @summary Stack walks, stack traces and getCallerClass see the program's
 *          frames only: no frame of the profiler's runtime, no twin or
 *          forwarding frame, real line numbers.
 * @run main/othervm Walks
 */
import java.util.List;
import java.util.stream.Collectors;

public class Walks {
  static void check(boolean ok, String what) {
    if (!ok) throw new RuntimeException("failed: " + what);
  }

  static List<String> walk() {
    return StackWalker.getInstance().walk(s -> s
        .map(f -> f.getClassName() + "." + f.getMethodName() + ":"
             + f.getLineNumber())
        .collect(Collectors.toList()));
  }

  static List<String> trace(StackTraceElement[] t) {
    return java.util.Arrays.stream(t)
        .map(e -> e.getClassName() + "." + e.getMethodName() + ":"
             + e.getLineNumber())
        .collect(Collectors.toList());
  }

  static Class<?> caller() {
    return StackWalker.getInstance(StackWalker.Option.RETAIN_CLASS_REFERENCE)
        .getCallerClass();
  }

  static void clean(List<String> frames, String what) {
    for (String f : frames) {
      check(!f.contains("cccp") && !f.contains("$twin"), what + ": " + f);
      int line = Integer.parseInt(f.substring(f.lastIndexOf(':') + 1));
      check(line < 65535, what + " line: " + f);
    }
  }

  interface Task { List<String> run(); }

  public static void main(String[] args) throws Exception {
    List<String> w = walk();
    check(w.get(0).startsWith("Walks.walk:"), "top frame " + w);
    check(w.get(1).startsWith("Walks.main:"), "caller frame " + w);
    clean(w, "walk");

    Task t = Walks::walk;
    List<String> viaLambda = t.run();
    check(viaLambda.get(0).startsWith("Walks.walk:"), "lambda " + viaLambda);
    clean(viaLambda, "lambda");

    Runnable r = new Runnable() {
      public void run() { check(caller() == getClass(), "getCallerClass"); }
    };
    r.run();
    check(caller() == Walks.class, "getCallerClass from main");

    List<String> tr = trace(new Throwable().getStackTrace());
    check(tr.get(0).startsWith("Walks.main:"), "Throwable " + tr);
    clean(tr, "Throwable");

    List<String>[] box = new List[1];
    Thread th = new Thread(() -> box[0] = trace(Thread.currentThread().getStackTrace()));
    th.start();
    th.join();
    check(box[0].get(0).startsWith("java.lang.Thread.getStackTrace:"),
          "Thread.getStackTrace " + box[0]);
    clean(box[0], "Thread.getStackTrace");

    try {
      java.util.List.of(1, 2).forEach(i -> { throw new IllegalStateException("x" + i); });
      check(false, "no exception");
    } catch (IllegalStateException e) {
      check(e.getMessage().equals("x1"), "message " + e.getMessage());
      List<String> et = trace(e.getStackTrace());
      check(et.get(0).startsWith("Walks.lambda$main$"), "lambda frame " + et);
      clean(et, "exception");
    }
    System.out.println("ok " + w.size() + " " + tr.size());
  }
}
