package demo.auto;

import java.util.Map;
import java.util.TreeMap;

/** A jar with no module-info: on the module path, the automatic module
 *  "auto" (named from its file). */
public class Words {
  public static Map<String, Integer> count(String text) {
    Map<String, Integer> m = new TreeMap<>();
    for (String w : text.split("\\W+"))
      if (!w.isEmpty()) m.merge(w.toLowerCase(), 1, Integer::sum);
    return m;
  }
}
