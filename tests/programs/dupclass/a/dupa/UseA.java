package dupa;

import dup.Lib;
import dup.Shape;

/* Callers compiled against a.jar's definitions. */
public class UseA {
  static void p(String what, java.util.concurrent.Callable<Object> c) {
    String r;
    try {
      r = String.valueOf(c.call());
    } catch (Throwable t) {
      r = t.getClass().getName() + ": " + t.getMessage();
    }
    System.out.println("  A " + what + " = " + r);
  }

  public static void run(Lib lib, Shape s) {
    p("name", () -> lib.name());
    p("onlyA", () -> lib.onlyA());
    p("size", () -> lib.size());
    p("tag", () -> lib.tag());
    p("show", () -> lib.show());
    p("make", () -> Lib.make());
    p("area", () -> s.area());
    p("describe", () -> s.describe());
  }
}
