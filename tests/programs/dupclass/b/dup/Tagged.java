package dup;

/* b.jar's definition: a static initializer and only abstract methods, so
** the JVM initializes it on first use of INIT, not with its implementors. */
public interface Tagged {
  Object INIT = Say.it("  Tagged.<clinit>");
  String label();

  final class Say {
    static Object it(String s) {
      System.out.println(s);
      return s;
    }
  }
}
