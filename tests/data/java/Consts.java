package fx;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/* Constants of every primitive kind, switches, exceptions, generics. */
@Deprecated
public class Consts<T extends Comparable<T>> implements Cloneable {
  public static final int I = 123456789;
  public static final long L = 0x123456789ABCDEFL;
  public static final float F = 3.25f;
  public static final double D = Double.NaN;
  public static final String S = "caf\u00e9 \u0000 \uD83D\uDE00 end";
  public static final char C = '\u20ac';
  public static final boolean Z = true;
  public static final byte B = -7;
  public static final short SH = 30000;
  protected List<? super T> sink = new ArrayList<>();
  @Deprecated int old;

  public static int strSwitch(String s) {
    switch (s) {
    case "alpha": return 1;
    case "beta": return 2;
    case "gamma": return 3;
    default: return s.length();
    }
  }

  public static int table(int x) {
    switch (x) {
    case 1: return 10;
    case 2: return 20;
    case 3: return 30;
    case 4: return 45;
    default: return -1;
    }
  }

  public static int lookup(int x) {
    switch (x) {
    case -1000: return 1;
    case 7: return 2;
    case 100000: return 3;
    default: return 0;
    }
  }

  public static long arith(long a, double b, float c) {
    long r = a * 31 + (long) b;
    r ^= Float.floatToIntBits(c);
    return r + L + (long) D;
  }

  public <K, V extends List<K>> Map<K, V> generic(Map<K, V> m) throws IOException,
      CloneNotSupportedException {
    if (m == null) throw new IOException("null");
    return m;
  }

  public int tryFinally(int[] a) {
    int s = 0;
    try {
      for (int i = 0; i < a.length; i++) s += a[i] / (i - 2);
    } catch (ArithmeticException | IndexOutOfBoundsException e) {
      s = -1;
    } catch (RuntimeException e) {
      s = -2;
    } finally {
      s++;
    }
    synchronized (this) {
      s <<= 1;
    }
    return s;
  }

  public Runnable local() {
    class Local implements Runnable {
      public void run() { old++; }
    }
    Runnable anon = new Runnable() {
      public void run() { old--; }
    };
    return old > 0 ? new Local() : anon;
  }

  class Inner {
    int get() { return old; }
    class Deeper { int get2() { return get() + old; } }
  }

  static class Nested { static double[][] grid = new double[3][4]; }

  public Object arrays() {
    long[] l = {1L, 2L};
    String[][] s = new String[2][];
    Object o = l;
    boolean b = o instanceof long[];
    return b ? s : l;
  }
}
