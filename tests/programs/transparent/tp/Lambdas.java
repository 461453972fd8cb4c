package tp;

import java.util.stream.Collectors;

/**
 * Stacks seen through an interface of the program that lambdas and method
 * references implement (their classes, made at run time, have no twins:
 * the interface's twin delegates to them) and through a native method.
 */
final class Lambdas {
  interface Fn { String apply(String s); }

  private Lambdas() {}

  static String call(Fn f, String s) { return f.apply(s); }

  static native int missing();

  static void run() {
    System.out.println("== lambdas");
    System.out.println(call(s -> {
      new Throwable("in a lambda").printStackTrace(System.out);
      return s;
    }, "lambda"));
    try {
      call(s -> String.valueOf(Integer.parseInt(s)), "not a number");
    } catch (NumberFormatException e) {
      e.printStackTrace(System.out);
    }
    System.out.println(call(String::trim, "  method reference  "));
    System.out.println(call(s -> StackWalker.getInstance().walk(f -> f
        .filter(x -> x.getClassName().startsWith("tp."))
        .map(x -> x.getMethodName() + ":" + x.getLineNumber())
        .collect(Collectors.toList())).toString(), "walk"));
    System.out.println(call(s -> StackWalker.getInstance(
        StackWalker.Option.RETAIN_CLASS_REFERENCE).getCallerClass().getName(),
        "caller"));
    System.out.println(call(s -> Thread.currentThread().getStackTrace()[3].toString(), "indexed"));
    try {
      missing();
    } catch (UnsatisfiedLinkError e) {
      e.printStackTrace(System.out);
    }
  }
}
