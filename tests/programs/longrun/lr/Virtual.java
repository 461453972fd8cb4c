package lr;

import java.util.ArrayList;
import java.util.List;

/**
 * Runs a task in unnamed virtual threads and in one named one (JDK 21
 * and later; started by reflection, so that it compiles for 17).
 */
public class Virtual {
  static long sink;

  static void task() { sink++; }

  public static void main(String[] args) throws Exception {
    Object b = Thread.class.getMethod("ofVirtual").invoke(null);
    Class<?> builder = Class.forName("java.lang.Thread$Builder");
    java.lang.reflect.Method start = builder.getMethod("start", Runnable.class);
    List<Thread> ts = new ArrayList<>();
    for (int i = 0; i < 20; i++) ts.add((Thread) start.invoke(b, (Runnable) Virtual::task));
    for (Thread t : ts) t.join();
    Object named = builder.getMethod("name", String.class).invoke(b, "worker-7");
    Thread w = (Thread) start.invoke(named, (Runnable) Virtual::task);
    w.join();
    System.out.println("done " + sink);
  }
}
