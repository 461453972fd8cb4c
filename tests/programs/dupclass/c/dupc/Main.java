package dupc;

import dup.Lib;
import dup.Shape;

/* Runs the callers of both jars on both kinds of receivers. Every call
** reports its value or what it threw, so that any difference between
** the definitions the JVM loads shows in the output. */
public class Main {
  interface Act { void run() throws Throwable; }

  static void p(String what, Act a) {
    try {
      a.run();
    } catch (Throwable t) {
      System.out.println(what + ": " + t.getClass().getName() + ": "
                         + t.getMessage());
    }
  }

  /* By name: the verifier of Main would load Square for a direct 'new'. */
  static Shape square() {
    try {
      return (Shape) Class.forName("dupc.Square").getDeclaredConstructor()
          .newInstance();
    } catch (Throwable t) {
      System.out.println("Square: " + t.getClass().getName() + ": "
                         + t.getMessage());
      return new Shape();
    }
  }

  public static void main(String[] args) {
    p("lib", () -> {
      Lib lib = new Lib();
      System.out.println("Lib " + lib.name() + " " + lib.show());
      dupa.UseA.run(lib, new Shape());
      dupb.UseB.run(lib, new Shape());
    });
    p("sub", () -> {
      Lib sub = new Sub();
      System.out.println("Sub " + sub.name() + " " + sub.size());
      Shape sq = square();
      dupa.UseA.run(sub, sq);
      dupb.UseB.run(sub, sq);
    });
    p("runnable", () -> {
      Object o = new Sub();
      System.out.println("Runnable " + (o instanceof Runnable));
      if (o instanceof Runnable) ((Runnable) o).run();
    });
    p("tagged", () -> {
      dup.Tagged t = new Tag();
      System.out.println("made " + t.label());
      System.out.println("INIT " + dup.Tagged.INIT);
    });
  }
}
