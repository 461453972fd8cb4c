package lt;

import java.nio.file.Files;
import java.nio.file.Paths;

/**
 * Defines classes at run time from class files that are on no class
 * path (arguments: pairs of class name and file; '@FILE' reads the
 * arguments from FILE, one a line), each in a loader of its own, calls
 * each one's static run() and prints what it returns, or the error the
 * definition or the call ends with.
 */
public class Define extends ClassLoader {
  Define() {
    super(Define.class.getClassLoader());
  }

  public static void main(String[] args) throws Exception {
    if (args.length == 1 && args[0].startsWith("@"))
      args = Files.readAllLines(Paths.get(args[0].substring(1)))
          .toArray(new String[0]);
    for (int i = 0; i + 1 < args.length; i += 2) {
      byte[] b = Files.readAllBytes(Paths.get(args[i + 1]));
      try {
        Class<?> c = new Define().defineClass(args[i], b, 0, b.length);
        System.out.println(args[i] + " " + c.getMethod("run").invoke(null));
      } catch (Throwable e) {
        System.out.println(args[i] + " " + e.getClass().getName());
      }
    }
  }
}
