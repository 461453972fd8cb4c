package fx;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/* Declaration, parameter and type annotations, including the bytecode
   offset targets (local variables, casts, instanceof, new, type
   arguments of calls, catch parameters). */
@Anno.Defaults(i = 42, color = Color.RED, many = {})
@Anno.Marker
public class Annotated<@Anno.TU(1) T extends @Anno.TUI Serializable>
    extends @Anno.TU(2) ArrayList<@Anno.TU(3) String>
    implements @Anno.TUI Comparable<Annotated<T>> {
  private static final long serialVersionUID = 1L;

  @Anno.Visible("field") @Anno.Marker
  public Map<@Anno.TU(4) String, List<@Anno.TU(5) ? extends T>> map;

  public int compareTo(Annotated<T> o) { return 0; }

  @Anno.Visible("m")
  public @Anno.TU(6) String work(@Anno.Visible("p0") @Anno.Marker int a,
      final @Anno.TU(7) String b, @Anno.Marker Object c)
      throws @Anno.TU(8) IllegalStateException {
    @Anno.TU(9) String local = b + a;
    @Anno.TUI Object other = c;
    if (c instanceof @Anno.TU(10) String) {
      local = (@Anno.TU(11) String) c;
    }
    List<@Anno.TU(12) String> l = new @Anno.TU(13) ArrayList<@Anno.TU(14) String>();
    l.add(local);
    try {
      Integer.parseInt(local);
    } catch (@Anno.TU(15) NumberFormatException e) {
      local = String.valueOf(other);
    }
    for (@Anno.TU(16) int i = 0; i < 2; i++) {
      @Anno.TUI long x = i * 2L;
      local += x;
    }
    return java.util.Collections.<@Anno.TU(17) String>emptyList().isEmpty()
        ? local : b;
  }

  public <@Anno.TU(18) U> U[] arr(U @Anno.TU(19) [] in) { return in; }
}
