package pm;

import java.lang.module.ModuleReader;
import java.lang.module.ModuleReference;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * What a program sees of the JDK's modules, which JDK mode delivers by
 * patching them: a class's code source, and a module's resources listed
 * through its reader, the list read after the reader is closed.
 */
public class Modules {
  public static void main(String[] args) throws Exception {
    System.out.println("java.sql code source: " + java.sql.DriverManager.class
        .getProtectionDomain().getCodeSource().getLocation());
    System.out.println("java.base code source: "
        + String.class.getProtectionDomain().getCodeSource());
    for (String m : new String[] {"java.base", "java.sql", "java.logging"}) {
      ModuleReference ref = ModuleLayer.boot().configuration()
          .findModule(m).get().reference();
      Stream<String> s;
      try (ModuleReader r = ref.open()) {
        s = r.list();
      }
      List<String> names = s.collect(Collectors.toList());
      System.out.println(m + ": " + names.size() + " resources, "
          + names.stream().filter(n -> n.startsWith("cccp") || n.contains("Cccp")
                                  || n.contains("cccp.patch")).count()
          + " of cccp's");
    }
  }
}
