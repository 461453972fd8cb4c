package tp;

import java.util.ArrayList;
import java.util.List;

/**
 * A superclass whose static initializer makes an instance of a subclass:
 * the middle class's constructor runs before its own static initializer
 * (JVMS 5.5: it is being initialized, by this thread, while its
 * superclass is).
 */
public class InitOrder {
  static final List<String> MADE = new ArrayList<>();
  static final InitOrder FIRST = new InitOrder.Leaf();

  InitOrder() { MADE.add("InitOrder"); }

  public static class Middle extends InitOrder {
    static final String TAG = tag();

    Middle() { MADE.add("Middle tag=" + TAG); }

    static String tag() { return "set"; }
  }

  public static class Leaf extends Middle {
    Leaf() { MADE.add("Leaf"); }
  }
}
