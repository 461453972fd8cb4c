/* Nested.java -- callbacks that call the library in their turn: a
 * comparator that calls Collections.max with another comparator; a
 * stream's close handler that calls the library and throws, which the
 * stream catches before it runs the next handler; objects that a stream
 * makes through a constructor reference, whose constructor calls the
 * library, before the stream calls the next callback. Each callback sits
 * under the library method the application called, whatever the
 * callback before it left behind. */
package prog;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

public final class Nested {
  static final List<String> seen = new ArrayList<>();

  static final class Outer implements Comparator<String> {
    public int compare(String a, String b) {
      Collections.max(Arrays.asList(a, b), new Inner());
      return a.length() - b.length();
    }
  }

  static final class Inner implements Comparator<String> {
    public int compare(String a, String b) { return a.compareTo(b); }
  }

  static final class Fail implements Runnable {
    public void run() {
      seen.add("fail");
      throw new IllegalStateException("no");
    }
  }

  static final class Next implements Runnable {
    public void run() { seen.add("next"); }
  }

  static final class Made {
    final String s;
    Made(String s) {
      seen.add(s);
      this.s = s;
    }
  }

  static void take(Made m) { seen.add(m.s.toUpperCase()); }

  public static void main(String[] args) {
    List<String> l = new ArrayList<>(Arrays.asList("ccc", "bb", "a"));
    l.sort(new Outer());
    try {
      Stream.of("z").onClose(new Fail()).onClose(new Next()).close();
    } catch (IllegalStateException e) {
      seen.add(e.getMessage());
    }
    Stream.of("x", "y").map(Made::new).forEach(Nested::take);
    System.out.println(l.get(0) + " " + seen);
  }
}
