package demo.app;

import demo.auto.Words;
import demo.lib.Shapes;
import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.List;

/**
 * A program of three modules, run from the module path (-p, -m): its
 * own, an explicit one it requires (demo.lib) and an automatic one
 * (auto). Prints what each module computes, the modules' names, the
 * declared methods reflection shows, and a stack trace through them.
 */
public class Main {
  static int fib(int n) {
    return n < 2 ? n : fib(n - 1) + fib(n - 2);
  }

  static void fail(int depth) {
    if (depth == 0) throw new IllegalStateException("deep");
    fail(depth - 1);
  }

  public static void main(String[] args) {
    System.out.println("fib=" + fib(15));
    List<Shapes.Shape> s = Shapes.sorted(Arrays.asList(
        Shapes.square(3), Shapes.circle(1), Shapes.square(1)));
    for (Shapes.Shape x : s) System.out.println("area " + x.area());
    System.out.println(Words.count("the cat and the hat and the bat"));
    for (Class<?> c : new Class<?>[] {Main.class, Shapes.class, Words.class})
      System.out.println(c.getName() + " in " + c.getModule().getName()
                         + (c.getModule().isNamed() ? "" : " (unnamed)"));
    String[] ms = Arrays.stream(Main.class.getDeclaredMethods())
                      .map(Method::getName).sorted().toArray(String[]::new);
    System.out.println("methods " + String.join(",", ms));
    try {
      fail(3);
    } catch (IllegalStateException e) {
      for (StackTraceElement f : e.getStackTrace())
        System.out.println("  at " + f.getModuleName() + "/" + f.getClassName()
                           + "." + f.getMethodName());
    }
  }
}
