/* Statics.java -- static initializers: the main class's (before main)
 * and a nested holder's (triggered from main). */
package prog;

public final class Statics {
  static final int BASE = compute();
  static int compute() { return 40; }

  static final class Holder {
    static final int VALUE = init();
    static int init() { return 2; }
  }

  public static void main(String[] args) {
    int v = Holder.VALUE + Holder.VALUE;
    System.out.println(BASE + v);
  }
}
