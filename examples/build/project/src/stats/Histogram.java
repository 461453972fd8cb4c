package stats;

/** Counts of values in equal-width bins between two bounds. */
public final class Histogram {
  private final double low, width;
  private final int[] counts;

  Histogram(double low, double high, int bins) {
    this.low = low;
    this.width = (high - low) / bins;
    this.counts = new int[bins];
  }

  void add(double v) {
    int i = (int) ((v - low) / width);
    counts[Math.min(counts.length - 1, Math.max(0, i))]++;
  }

  public int bins() {
    return counts.length;
  }

  public int count(int bin) {
    return counts[bin];
  }

  public double lowerBound(int bin) {
    return low + bin * width;
  }
}
