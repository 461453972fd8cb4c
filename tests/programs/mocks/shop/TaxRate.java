package shop;

/** A collaborator the tests mock. */
public class TaxRate {
  public int percent(String region) {
    return "EU".equals(region) ? 20 : 5;
  }

  public String name() { return "standard"; }
}
