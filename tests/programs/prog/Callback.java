/* Callback.java -- JDK callbacks: Collections.sort and List.sort with a
 * comparator (called through its bridge method). Input orders are chosen
 * so that TimSort makes exactly n-1 (sorted) and 2 (reversed) compares. */
package prog;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;

public final class Callback {
  static final class ByLen implements Comparator<String> {
    public int compare(String a, String b) { return a.length() - b.length(); }
  }

  public static void main(String[] args) {
    List<String> l = new ArrayList<>(Arrays.asList("a", "bb", "ccc", "dddd", "eeeee"));
    Collections.sort(l, new ByLen());
    List<String> m = new ArrayList<>(Arrays.asList("ccc", "bb", "a"));
    m.sort(new ByLen());
    System.out.println(l.get(4));
    System.out.println(m.get(0));
  }
}
