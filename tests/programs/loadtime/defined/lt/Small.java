package lt;

import java.util.function.IntUnaryOperator;

/**
 * A class the program defines at run time (lt.Define). Its applyAsInt is
 * called through the JDK's interface (a call into a library, as the
 * rewriter sees it) 30 times.
 */
public class Small implements IntUnaryOperator {
  static int g(int i) {
    return i * i;
  }

  @Override
  public int applyAsInt(int i) {
    return i + 1;
  }

  public static int run() {
    int s = 0;
    for (int i = 0; i < 100; i++) s += g(i);
    IntUnaryOperator op = new Small();
    for (int i = 0; i < 30; i++) s += op.applyAsInt(i);
    return s;
  }
}
