package bc;

import java.util.ArrayList;
import java.util.List;
import java.util.function.IntUnaryOperator;

/* Control flow for the bytecode IR and frame tests: loops, switches,
** try/catch/finally, monitors, merges of reference types. main() prints
** a line per case; the tests compare it before and after rewriting. */
public class BcFlow {
  enum Dir { N, E, S, W }

  sealed interface Shape permits Sq, Circ {}
  record Sq(int side) implements Shape {}
  record Circ(int r) implements Shape {}

  private int count;

  BcFlow(int start) {
    this.count = start > 0 ? start : -start;
  }

  static int nested(int n) {
    int s = 0;
    for (int i = 0; i < n; i++)
      for (int j = 0; j < i; j++) {
        if ((i + j) % 3 == 0) continue;
        s += i * j;
        if (s > 1000) break;
      }
    return s;
  }

  static int table(int k) {
    switch (k) {
    case 0: return 10;
    case 1: return 11;
    case 2: return 12;
    case 3: return 13;
    default: return -1;
    }
  }

  static int lookup(int k) {
    switch (k) {
    case -100: return 1;
    case 7: return 2;
    case 100000: return 3;
    default: return 0;
    }
  }

  static int onlyDefault(int k) {
    switch (k) {
    default: return k + 1;
    }
  }

  static int strings(String s) {
    switch (s) {
    case "alpha": return 1;
    case "beta": return 2;
    case "gamma": return 3;
    default: return 0;
    }
  }

  static int enums(Dir d) {
    switch (d) {
    case N: return 0;
    case E: return 90;
    case S: return 180;
    default: return 270;
    }
  }

  static String tryFinally(int x) {
    StringBuilder sb = new StringBuilder();
    try {
      if (x == 0) throw new IllegalStateException("zero");
      sb.append("ok");
      if (x < 0) return sb.toString();
    } catch (IllegalStateException e) {
      sb.append("caught");
    } finally {
      sb.append("+fin");
    }
    return sb.toString();
  }

  static int deadInTry(int x) {
    try {
      if (x > 0) return 1;
      return 2;
    } catch (RuntimeException e) {
      return 3;
    }
  }

  static long longs(long a, double b) {
    long r = a;
    for (int i = 0; i < 3; i++) {
      double t = b * i;
      r += (long) t;
    }
    return r;
  }

  synchronized int bump(int by) {
    synchronized (this) {
      count += by;
    }
    return count;
  }

  static Object merge(int k) {
    Object o;
    if (k == 0) o = new ArrayList<String>();
    else if (k == 1) o = new java.util.LinkedList<String>();
    else o = null;
    List<?> l = (List<?>) o;
    return l == null ? "null" : l.getClass().getSimpleName();
  }

  /* at the join before the return, javac's frame lists k and r only: the
  ** list of either branch is out of scope (TOP) */
  static int scoped(int k) {
    int r;
    if (k == 0) {
      ArrayList<String> a = new ArrayList<>();
      a.add("x");
      r = a.size();
    } else {
      java.util.LinkedList<String> l = new java.util.LinkedList<>();
      l.add("y");
      r = l.size() + k;
    }
    return r;
  }

  static Object[] arrays(int k) {
    Object[] a = k > 0 ? new String[] {"s"} : new Integer[] {1};
    int[][] m = new int[2][3];
    m[1][2] = k;
    return new Object[] {a[0], m[1][2]};
  }

  static int area(Shape s) {
    if (s instanceof Sq q) return q.side() * q.side();
    if (s instanceof Circ c) return 3 * c.r() * c.r();
    return 0;
  }

  static int lambdas(int k) {
    IntUnaryOperator f = x -> x * k;
    IntUnaryOperator g = f.andThen(x -> x + 1);
    return g.applyAsInt(5);
  }

  public static void main(String[] args) {
    System.out.println("nested " + nested(20) + " " + onlyDefault(4));
    for (int k = -1; k < 5; k++)
      System.out.println("table " + table(k) + " lookup " + lookup(k * 7));
    for (String s : new String[] {"alpha", "beta", "gamma", "delta"})
      System.out.println("strings " + strings(s));
    for (Dir d : Dir.values()) System.out.println("enums " + enums(d));
    for (int x = -1; x <= 1; x++) System.out.println("tf " + tryFinally(x));
    System.out.println("dead " + deadInTry(1) + deadInTry(0));
    System.out.println("longs " + longs(7, 2.5));
    System.out.println("bump " + new BcFlow(-3).bump(4));
    for (int k = 0; k < 3; k++) System.out.println("merge " + merge(k));
    System.out.println("scoped " + scoped(0) + scoped(2));
    System.out.println("arrays " + arrays(1)[0] + arrays(0)[0]);
    System.out.println("area " + area(new Sq(3)) + " " + area(new Circ(2)));
    System.out.println("lambdas " + lambdas(3));
  }
}
