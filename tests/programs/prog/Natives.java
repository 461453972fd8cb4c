/* Natives.java -- native methods called from Java: arraycopy, the
 * identity hashCode of plain objects, Thread.currentThread. */
package prog;

public final class Natives {
  static final class Plain { }

  public static void main(String[] args) {
    int[] a = {1, 2, 3, 4};
    int[] b = new int[4];
    for (int i = 0; i < 3; i++) System.arraycopy(a, 0, b, 0, 4);
    Object o = new Object();
    Plain p = new Plain();
    int h = o.hashCode() ^ o.hashCode() ^ p.hashCode() ^ p.hashCode();
    Thread t = Thread.currentThread();
    System.out.println(b[3] + h + (t != null ? 1 : 0));
  }
}
