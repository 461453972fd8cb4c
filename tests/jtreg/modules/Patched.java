/*
 * @test
 * @summary The JDK's modules answer as they do plainly: a platform
 *          module's code source is its jrt: location, java.base's is
 *          null, and a module reader's list of resources stays readable
 *          after the reader is closed and names none of the profiler's.
 * @run main/othervm Patched
 */
import java.lang.module.ModuleReader;
import java.lang.module.ModuleReference;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;

public class Patched {
  static void check(boolean ok, String what) {
    if (!ok) throw new RuntimeException("failed: " + what);
  }

  public static void main(String[] args) throws Exception {
    check(String.class.getProtectionDomain().getCodeSource() == null,
          "java.base's code source");
    String sql = java.sql.DriverManager.class.getProtectionDomain()
        .getCodeSource().getLocation().toString();
    check(sql.equals("jrt:/java.sql"), "java.sql's code source " + sql);
    for (String m : new String[] {"java.base", "java.sql", "java.logging"}) {
      ModuleReference ref = ModuleLayer.boot().configuration()
          .findModule(m).get().reference();
      Stream<String> s;
      try (ModuleReader r = ref.open()) {
        s = r.list();
      }
      List<String> names = s.collect(Collectors.toList());
      check(names.size() > 10, m + ": " + names.size() + " resources");
      check(names.contains("module-info.class"), m + ": module-info.class");
      for (String n : names)
        check(!n.startsWith("cccp") && !n.contains("Cccp"), m + ": " + n);
      try (ModuleReader r = ref.open()) {
        check(r.find("module-info.class").isPresent(), m + ": find");
      }
    }
    System.out.println("ok");
  }
}
