package dupb;

import dup.Lib;
import dup.Shape;

/* Callers compiled against b.jar's definitions. */
public class UseB {
  static void p(String what, java.util.concurrent.Callable<Object> c) {
    String r;
    try {
      r = String.valueOf(c.call());
    } catch (Throwable t) {
      r = t.getClass().getName() + ": " + t.getMessage();
    }
    System.out.println("  B " + what + " = " + r);
  }

  public static void run(Lib lib, Shape s) {
    p("name", () -> lib.name());
    p("onlyB", () -> lib.onlyB());
    p("size", () -> lib.size());
    p("secret", () -> lib.secret());
    p("show", () -> lib.show());
    p("run", () -> { lib.run(); return "ran"; });
    p("area", () -> s.area());
    p("describe", () -> s.describe());
  }
}
