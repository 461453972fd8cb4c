package stats;

import java.util.Arrays;

/** A sample of numbers: mean, spread and order statistics. */
public final class Sample {
  private final double[] values;

  public Sample(double[] values) {
    this.values = values.clone();
    Arrays.sort(this.values);
  }

  public int size() {
    return values.length;
  }

  public double mean() {
    double sum = 0;
    for (double v : values) sum += v;
    return sum / values.length;
  }

  public double stddev() {
    double m = mean(), sum = 0;
    for (double v : values) sum += (v - m) * (v - m);
    return Math.sqrt(sum / values.length);
  }

  /** The value below which a fraction q of the sample lies. */
  public double quantile(double q) {
    return values[(int) Math.min(values.length - 1, Math.floor(q * values.length))];
  }

  public Histogram histogram(int bins) {
    Histogram h = new Histogram(values[0], values[values.length - 1], bins);
    for (double v : values) h.add(v);
    return h;
  }
}
