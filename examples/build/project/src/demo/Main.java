package demo;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import stats.Histogram;
import stats.Sample;

/**
 * Draws numbers from three generators, summarises each with the stats
 * library and prints a histogram of the last: a small program with a
 * library jar, lambdas and JDK calls, for the build examples.
 */
public final class Main {
  interface Source {
    double next();
  }

  /** A linear congruential generator: the same numbers on every run. */
  static final class Lcg {
    private long state;

    Lcg(long seed) {
      state = seed;
    }

    double uniform() {
      state = state * 6364136223846793005L + 1442695040888963407L;
      return (state >>> 11) * 0x1.0p-53;
    }
  }

  public static void main(String[] args) {
    int n = args.length > 0 ? Integer.parseInt(args[0]) : 200_000;
    Lcg rng = new Lcg(42);
    List<Source> sources = new ArrayList<>();
    sources.add(rng::uniform);
    sources.add(() -> -Math.log(1 - rng.uniform()));
    sources.add(() -> {
      double s = 0;
      for (int k = 0; k < 12; k++) s += rng.uniform();
      return s - 6;
    });
    String[] names = {"uniform", "exponential", "normal"};
    Sample last = null;
    for (int s = 0; s < sources.size(); s++) {
      double[] xs = new double[n];
      for (int i = 0; i < n; i++) xs[i] = sources.get(s).next();
      last = new Sample(xs);
      System.out.printf("%-12s mean %7.4f  sd %6.4f  median %7.4f  p99 %7.4f%n",
          names[s], last.mean(), last.stddev(), last.quantile(0.5), last.quantile(0.99));
    }
    Histogram h = last.histogram(12);
    int max = 0;
    for (int b = 0; b < h.bins(); b++) max = Math.max(max, h.count(b));
    for (int b = 0; b < h.bins(); b++) {
      int width = h.count(b) * 50 / max;
      System.out.printf("%7.3f %s%n", h.lowerBound(b),
          "#".repeat(width) + (width == 0 && h.count(b) > 0 ? "." : ""));
    }
    System.out.println(List.of(names).stream().map(String::toUpperCase)
        .collect(Collectors.joining(", ", "generators: ", "")));
  }
}
