package idh;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * Output that depends on identity hashes. Standard output: the main
 * thread's (a HashSet of enum constants, a HashMap keyed by objects
 * without hashCode, an IdentityHashMap, default toString of an object,
 * an array and a lambda's instance, System.identityHashCode), before and
 * after reflection, stack traces, a stack walk, a helpful
 * NullPointerException message, lambdas and streams, and the ids and
 * names of the threads the program starts. Standard error: the workers'
 * hashes (a thread started before and one after the first calls into
 * libraries, a pool's), of objects of their own: an object is hashed
 * once, by the thread that hashes it first.
 */
public class Main {
  enum Color { BLACK, RED, GREEN, YELLOW, BLUE, MAGENTA, CYAN, WHITE }

  enum Shade { LIGHT, PALE, MEDIUM, DEEP, DARK, DIM, BRIGHT, MUTED }

  static final class Key {
    final int n;

    Key(int n) {
      this.n = n;
    }
  }

  interface Shape {
    double area();
  }

  static final class Square implements Shape {
    final double side;

    Square(double side) {
      this.side = side;
    }

    @Override
    public double area() {
      return side * side;
    }
  }

  static String keys(Map<Key, Integer> m) {
    StringBuilder b = new StringBuilder();
    for (Key k : m.keySet()) b.append(k.n).append(' ');
    return b.toString().trim();
  }

  static String hashes(String when) {
    return hashes(when, Color.values()) + " lambda@"
        + Integer.toHexString(lambda().hashCode());
  }

  static Runnable lambda() {
    return () -> {};
  }

  static String hashes(String when, Enum<?>[] values) {
    Set<Enum<?>> set = new HashSet<>(Arrays.asList(values));
    Map<Key, Integer> map = new HashMap<>();
    Map<Key, Integer> ids = new IdentityHashMap<>();
    for (int i = 0; i < 12; i++) {
      Key k = new Key(i);
      map.put(k, i);
      ids.put(k, i);
    }
    int[] a = new int[3];
    return when + ": " + set + "\n" + when + ": map " + keys(map) + "\n"
        + when + ": identity map " + keys(ids) + "\n" + when + ": "
        + new Object() + " " + a.getClass().getName() + "@"
        + Integer.toHexString(a.hashCode()) + " "
        + System.identityHashCode(when);
  }

  static Thread worker(String name) {
    Thread t = new Thread(() -> System.err.println(
        Thread.currentThread().getName() + ": "
        + hashes("worker", Shade.values())));
    System.out.println(name + " " + t.getName() + " id "
                       + (t.getId() - Thread.currentThread().getId()));
    return t;
  }

  public static void main(String[] args) throws Exception {
    Thread early = worker("early");
    early.start();
    early.join();
    System.out.println(hashes("start"));
    List<String> names = new ArrayList<>();
    for (Method m : Main.class.getDeclaredMethods()) names.add(m.getName());
    Collections.sort(names);
    System.out.println("methods " + names);
    System.out.println("top frame " + new Throwable().getStackTrace()[0]);
    System.out.println("frames " + StackWalker.getInstance(
        StackWalker.Option.RETAIN_CLASS_REFERENCE).walk(s -> s.count()));
    try {
      Object nothing = args.length > 99 ? args : null;
      nothing.toString();
    } catch (NullPointerException e) {
      System.out.println("npe " + e.getMessage());
    }
    Supplier<String> s = () -> "lambda";
    List<Shape> shapes = new ArrayList<>();
    for (int i = 1; i <= 50; i++) shapes.add(new Square(i));
    double sum = shapes.stream().mapToDouble(Shape::area).sum();
    String kinds = shapes.stream().limit(3)
        .map(x -> x.getClass().getSimpleName()).collect(Collectors.joining(","));
    System.out.println(s.get() + " " + sum + " " + kinds);
    System.out.println(hashes("after"));
    Thread late = worker("late");
    late.start();
    late.join();
    ExecutorService pool = Executors.newFixedThreadPool(2);
    List<Future<String>> fs = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      final int n = i;
      fs.add(pool.submit(() -> hashes("task " + n, Shade.values())));
    }
    for (Future<String> f : fs) System.err.println(f.get());
    pool.shutdown();
    /* nothing more on the main thread: the pool's threads and the main
    ** thread race to hash the pool's objects (plain runs differ) */
  }
}
