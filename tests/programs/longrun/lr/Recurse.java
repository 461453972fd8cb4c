package lr;

/**
 * Calls that recurse at random among four small methods: millions of
 * distinct calling contexts from a few methods. Prints each method's
 * calls as the program counted them. Arguments: rounds, depth.
 */
public class Recurse {
  static long na, nb, nc, nd, seed = 42;

  static int pick() {
    seed = seed * 6364136223846793005L + 1442695040888963407L;
    return (int) (seed >>> 62);
  }

  static long a(int d) { na++; return d == 0 ? 1 : 1 + call(d - 1); }
  static long b(int d) { nb++; return d == 0 ? 2 : 2 + call(d - 1); }
  static long c(int d) { nc++; return d == 0 ? 3 : 3 + call(d - 1); }
  static long e(int d) { nd++; return d == 0 ? 4 : 4 + call(d - 1); }

  static long call(int d) {
    switch (pick()) {
      case 0: return a(d);
      case 1: return b(d);
      case 2: return c(d);
      default: return e(d);
    }
  }

  public static void main(String[] args) {
    int rounds = Integer.parseInt(args[0]), depth = Integer.parseInt(args[1]);
    long sum = 0;
    for (int i = 0; i < rounds; i++) sum += call(depth);
    System.out.println("a " + na + "\nb " + nb + "\nc " + nc + "\ne " + nd
                       + "\nsum " + sum);
  }
}
