/* Calls.java -- direct, virtual, interface and (mutually) recursive calls. */
package prog;

public final class Calls {
  interface Op { int apply(int x); }
  static final class Inc implements Op { public int apply(int x) { return x + 1; } }
  static final class Dbl implements Op { public int apply(int x) { return x * 2; } }
  abstract static class Shape {
    abstract int area();
    int twice() { return 2 * area(); }
  }
  static final class Sq extends Shape {
    final int s;
    Sq(int s) { this.s = s; }
    int area() { return s * s; }
  }
  static final class Rect extends Shape {
    final int w, h;
    Rect(int w, int h) { this.w = w; this.h = h; }
    int area() { return w * h; }
  }

  static int add(int a, int b) { return a + b; }
  static int fact(int n) { return n <= 1 ? 1 : n * fact(n - 1); }
  static boolean even(int n) { return n == 0 || odd(n - 1); }
  static boolean odd(int n) { return n != 0 && even(n - 1); }

  public static void main(String[] args) {
    int r = 0;
    for (int i = 0; i < 7; i++) r = add(r, i);
    Op[] ops = {new Inc(), new Dbl(), new Inc()};
    for (Op op : ops) r = op.apply(r);
    Shape[] sh = {new Sq(3), new Rect(2, 5)};
    for (Shape s : sh) r += s.twice();
    r += fact(5);
    r += even(4) ? 1 : 0;
    System.out.println(r);
  }
}
