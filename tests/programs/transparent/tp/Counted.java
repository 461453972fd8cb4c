package tp;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;

/** Serializable, with a static initialiser. */
public final class Counted implements Serializable, Comparable<Counted> {
  static final List<String> LOG = new ArrayList<>();
  final int n;

  public Counted(int n) { this.n = n; LOG.add("made " + n); }

  @Override public int compareTo(Counted o) { return Integer.compare(n, o.n); }

  @Override public String toString() { return "Counted" + n; }
}
