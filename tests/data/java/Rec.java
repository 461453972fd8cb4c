package fx;

import java.util.List;

/* A record with a compact constructor (MethodParameters), generic
   components (Signature) and annotated components. */
public record Rec<T>(@Anno.Marker int count, List<T> items, @Anno.Visible("c") String name) {
  public Rec {
    if (count < 0) throw new IllegalArgumentException("count " + count);
  }

  static Rec<String> of(String n) { return new Rec<>(1, List.of(n), n); }
}
