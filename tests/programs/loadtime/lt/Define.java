package lt;

import java.nio.file.Files;
import java.nio.file.Paths;

/**
 * Defines classes at run time from class files that are on no class
 * path (arguments: pairs of class name and file), calls each one's
 * static run() and prints what it returns, or the error the definition
 * or the call ends with.
 */
public class Define extends ClassLoader {
  Define() {
    super(Define.class.getClassLoader());
  }

  public static void main(String[] args) throws Exception {
    Define loader = new Define();
    for (int i = 0; i + 1 < args.length; i += 2) {
      byte[] b = Files.readAllBytes(Paths.get(args[i + 1]));
      try {
        Class<?> c = loader.defineClass(args[i], b, 0, b.length);
        System.out.println(args[i] + " " + c.getMethod("run").invoke(null));
      } catch (Throwable e) {
        System.out.println(args[i] + " " + e.getClass().getName());
      }
    }
  }
}
