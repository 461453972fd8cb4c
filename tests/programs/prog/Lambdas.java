/* Lambdas.java -- a lambda called through its interface, a method
 * reference in a stream, a lambda called back by a JDK forEach. */
package prog;

import java.util.Arrays;
import java.util.List;
import java.util.stream.IntStream;

public final class Lambdas {
  static int hits;
  static void hit() { hits++; }
  static int sq(int x) { return x * x; }

  public static void main(String[] args) {
    Runnable r = () -> hit();
    r.run();
    r.run();
    int s = IntStream.range(0, 4).map(Lambdas::sq).sum();
    List<Integer> list = Arrays.asList(1, 2, 3);
    int[] acc = {0};
    list.forEach(x -> acc[0] += x);
    System.out.println(hits + s + acc[0]);
  }
}
