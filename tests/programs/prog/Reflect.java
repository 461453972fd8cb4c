/* Reflect.java -- Method.invoke and Constructor.newInstance: the targets
 * keep the calling context of the reflective call. */
package prog;

import java.lang.reflect.Constructor;
import java.lang.reflect.Method;

public final class Reflect {
  static int built;

  public static int target(int x) { return helper(x) + 1; }
  static int helper(int x) { return x * 2; }

  public static final class Made {
    public Made() { built++; }
  }

  public static void main(String[] args) throws Exception {
    Method m = Reflect.class.getMethod("target", int.class);
    int r = 0;
    for (int i = 0; i < 3; i++) r += (Integer) m.invoke(null, i);
    Constructor<Made> c = Made.class.getConstructor();
    for (int i = 0; i < 2; i++) c.newInstance();
    System.out.println(r + built);
  }
}
