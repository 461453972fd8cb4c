package tp;

import java.util.Map;

/**
 * Helpful NullPointerException messages (JDK 14+): the VM describes the
 * failed call, and the call whose result was null, by the called
 * methods; instrumented code calls twins, whose added parameter must not
 * show. Compiled without -g, so locals show as "<localN>".
 */
class Messages {
  interface Area {
    int area(int scale);
  }

  static final class Square implements Area {
    public int area(int scale) {
      return 4 * scale;
    }

    Square next() {
      return null;
    }
  }

  static Area none() {
    return null;
  }

  static void print(Runnable r) {
    try {
      r.run();
    } catch (NullPointerException e) {
      System.out.println("npe: " + e.getMessage());
    }
  }

  static void run() {
    print(() -> none().area(2));
    print(() -> new Square().next().next());
    print(() -> {
      Map<String, String> m = none() == null ? null : Map.of();
      m.keySet();
    });
    print(() -> {
      Square s = new Square().next();
      System.out.println(s.area(3));
    });
    try {
      none().area(1);
    } catch (NullPointerException e) {
      System.out.println(e);
    }
  }
}
