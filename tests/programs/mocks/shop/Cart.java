package shop;

import java.util.ArrayList;
import java.util.List;

/** Calls its own overridable methods: spies and proxies intercept them. */
public class Cart {
  private final List<Integer> items = new ArrayList<>();

  public Cart add(int price) { items.add(price); return this; }

  public int count() { return items.size(); }

  public int sum() {
    int s = 0;
    for (int i : items) s += price(i);
    return s;
  }

  protected int price(int raw) { return raw; }

  public String summary() { return count() + " items, " + sum(); }
}
