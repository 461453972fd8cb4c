/* Exceptions.java -- exceptions unwinding through several frames; calls
 * made after the catch land under the catching method. */
package prog;

public final class Exceptions {
  static int after;

  static void a(int n) { b(n); }
  static void b(int n) {
    try {
      c(n);
    } finally {
      after++;
    }
  }
  static void c(int n) { if (n >= 0) throw new IllegalStateException(); }
  static int d() { return 1; }
  static int recover() { return 7; }
  static int mid() {
    try {
      a(1);
    } catch (IllegalStateException e) {
      return recover();
    }
    return 0;
  }

  public static void main(String[] args) {
    int r = 0;
    for (int i = 0; i < 3; i++) {
      try {
        a(i);
      } catch (IllegalStateException e) {
        r++;
      }
      r += d();
    }
    r += mid();
    a(-1);
    System.out.println(r + after);
  }
}
