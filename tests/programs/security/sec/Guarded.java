package sec;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

/**
 * Runs under a SecurityManager (installed here with the argument
 * "install", or by -Djava.security.manager) and a policy that grants
 * almost nothing: calls into the JDK, reflection on its own class, a
 * stack walk that the policy forbids, a stack trace, a number formatted
 * by a locale provider of another module, and System.exit(3).
 * An instrumented run must print and exit as the plain one does, and
 * the runtime's own work (its settings, the reflection behind library
 * call sites, the filters of stack traces and reflection, the dump at
 * exit) must not fail for want of the program's permissions.
 */
public class Guarded {
  static int work(int i) { return i * 2; }

  @SuppressWarnings("removal")
  public static void main(String[] args) throws Exception {
    if (args.length > 0 && args[0].equals("install"))
      System.setSecurityManager(new SecurityManager());
    int s = 0;
    for (int i = 0; i < 100; i++) s += work(i);
    List<Integer> l = new ArrayList<>(Arrays.asList(3, 1, 2));
    Collections.sort(l);
    System.out.println("sum " + s + " " + l);
    System.out.println("methods " + Guarded.class.getDeclaredMethods().length);
    /* the CLDR locale provider, in jdk.localedata, which the JDK's own
     * policy grants what it needs by its module's location */
    System.out.println(String.format(
        java.util.Locale.forLanguageTag("th-TH-u-nu-thai"), "%,d", 1234567));
    try {
      Class<?> c = StackWalker.getInstance(
          StackWalker.Option.RETAIN_CLASS_REFERENCE).getCallerClass();
      System.out.println("caller " + c);
    } catch (SecurityException e) {
      System.out.println("walker " + e);
    }
    System.out.println(Arrays.toString(new Throwable().getStackTrace()));
    System.exit(3);
  }
}
