/*
 * ColourDriver.java -- method ids with colours (CC.register's flag bits
 * 4-7): a coloured id's low three bits are its colour, an id without one
 * is the lowest id not given, a second registration keeps the first id,
 * and the profile lists the methods densely whatever gaps the colours
 * leave. Prints "ok" and the number of methods registered, or what is
 * wrong; tests/cct/test_runtime.sh reads the profile back.
 */
package rtdrv;

import cccp.rt.CC;
import java.util.BitSet;

public final class ColourDriver {
  public static void main(String[] args) {
    String c = "rtdrv/ColourDriver";
    int main = CC.register(c, "main", "([Ljava/lang/String;)V", 10, 4);
    BitSet used = new BitSet();
    used.set(main);
    int n = 24;
    int[] ids = new int[n];
    for (int k = 0; k < n; k++) {
      int colour = k % 4 == 3 ? -1 : k * 5 % 8;
      int lowest = used.nextClearBit(1);
      ids[k] = CC.register(c, "m" + k, "()V", 1, 4 | (colour + 1) << 4);
      if (ids[k] <= 0 || used.get(ids[k])) fail("m" + k + " got id " + ids[k] + ", given before");
      if (colour >= 0 && (ids[k] & 7) != colour)
        fail("m" + k + " of colour " + colour + " got id " + ids[k]);
      if (colour < 0 && ids[k] != lowest)
        fail("m" + k + " without a colour got id " + ids[k] + ", not " + lowest);
      used.set(ids[k]);
    }
    for (int k = 0; k < n; k++) {
      int again = CC.register(c, "m" + k, "()V", 1, 4 | (7 - k % 8 + 1) << 4);
      if (again != ids[k]) fail("m" + k + " registered again got " + again + ", not " + ids[k]);
    }
    CC cc = CC.enter(CC.get(), main);
    for (int r = 0; r < 3; r++)
      for (int k = 0; k < n; k++) CC.enter(cc, ids[k]);
    System.out.println("ok " + (n + 1));
  }

  static void fail(String why) {
    System.out.println(why);
    System.exit(1);
  }
}
