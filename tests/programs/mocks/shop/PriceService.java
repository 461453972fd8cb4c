package shop;

import javax.inject.Inject;

/** Computes prices through its collaborator (instrumented calls). */
public class PriceService {
  private final TaxRate rate;
  private final String region;

  @Inject
  public PriceService(TaxRate rate) { this(rate, "EU"); }

  public PriceService(TaxRate rate, String region) {
    this.rate = rate;
    this.region = region;
  }

  public int gross(int net) { return net + net * rate.percent(region) / 100; }

  public int total(int... nets) {
    int t = 0;
    for (int n : nets) t += gross(n);
    return t;
  }

  public String label() { return rate.name() + "@" + region; }
}
