package fx;

import java.util.function.Function;
import java.util.function.Supplier;
import java.util.function.IntBinaryOperator;
import java.util.List;
import java.util.ArrayList;

/* invokedynamic: lambdas, method references, string concatenation. */
public class Lambdas implements Runnable {
  private int base = 3;

  public void run() {
    int k = base;
    Function<String, Integer> len = String::length;
    Supplier<List<String>> mk = ArrayList::new;
    IntBinaryOperator add = (a, b) -> a + b + k;
    Runnable r = this::helper;
    Runnable s = Lambdas::stat;
    Function<Object, String> ts = Object::toString;
    String msg = "len=" + len.apply("abc") + " sum=" + add.applyAsInt(1, 2)
        + " " + mk.get() + ts.apply(k) + base;
    r.run();
    s.run();
    System.out.println(msg);
  }

  private void helper() { base++; }

  static void stat() {}

  interface Greeter {
    String greet(String who);
    default Greeter twice() { return w -> greet(greet(w)); }
    static Greeter polite() { return w -> "dear " + w; }
  }
}
