package ow;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Proxy;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.Map;
import java.util.function.Function;
import java.util.function.IntSupplier;

/**
 * Open-world dispatch: classes the rewriter never saw override methods of
 * instrumented classes; every kind of call site must run the override.
 * args[0]: the class file of ext.Dyn, defined here from its bytes.
 */
public class Main {
  static final class Loader extends ClassLoader {
    Loader() { super(Main.class.getClassLoader()); }

    Class<?> define(String name, byte[] b) {
      return defineClass(name, b, 0, b.length);
    }
  }

  /* Sized.size: ArrayList's for a Bag, Fixed's own for a Fixed */
  static int sizes(Sized a, Sized b) {
    return a.size() * 10 + b.size();
  }

  public static void main(String[] args) throws Throwable {
    Base sub = (Base) Class.forName("ext.Sub").getDeclaredConstructor().newInstance();
    System.out.println("virtual " + sub.get());
    System.out.println("static->virtual " + Base.call(sub));
    System.out.println("inherited self call " + sub.twice());
    System.out.println("protected hook " + sub.viaHook(3));
    try {
      sub.fail();
    } catch (IllegalStateException e) {
      System.out.println("thrown " + e.getMessage());
    }

    byte[] bytes = Files.readAllBytes(Paths.get(args[0]));
    Base dyn = (Base) new Loader().define("ext.Dyn", bytes)
        .getDeclaredConstructor().newInstance();
    System.out.println("defined at run time " + dyn.get() + " " + dyn.twice());

    IntSupplier ref = dyn::get;
    System.out.println("method reference " + ref.getAsInt());
    MethodHandle mh = MethodHandles.lookup().findVirtual(Base.class, "get",
        MethodType.methodType(int.class));
    System.out.println("method handle " + (int) mh.invoke(sub));
    System.out.println("reflection " + Base.class.getMethod("get").invoke(dyn));

    Shape circle = (Shape) Class.forName("ext.Circle").getDeclaredConstructor().newInstance();
    System.out.println("interface default overridden " + circle.name() + " " + circle.describe());
    Shape lambda = () -> "lambda";
    System.out.println("interface default inherited " + lambda.name() + " " + lambda.describe());
    Shape proxy = (Shape) Proxy.newProxyInstance(Main.class.getClassLoader(),
        new Class<?>[] {Shape.class},
        (p, m, a) -> m.getName().equals("name") ? "proxy" : "proxied-" + m.getName());
    System.out.println("proxy " + proxy.name() + " " + proxy.kind());

    Animal dog = (Animal) Class.forName("ext.Dog").getDeclaredConstructor().newInstance();
    System.out.println("abstract and super " + dog.speak());

    Leaf leaf = new Leaf();
    System.out.println("instrumented below not rewritten " + leaf.get() + " "
        + leaf.twiceLeaf() + " " + leaf.viaHook(5));

    stacks(sub, dyn, circle);
    System.out.println("made by its superclass's initializer " + new Inner().twice
        + " " + Outer.FIRST.value());

    Bag bag = new Bag();
    bag.add("x");
    System.out.println("inherited from the library " + sizes(bag, new Fixed()));

    Base plain = new Base();
    int sum = 0;
    for (int i = 0; i < 100000; i++) sum += plain.get() + sub.get();
    System.out.println("loop " + sum);
  }

  /** Stack traces and walks seen by overrides outside the rewrite, reached
   *  through each kind of call site (ext.Frames prints them). */
  static void stacks(Base sub, Base dyn, Shape circle) throws Throwable {
    System.out.println(sub.where("virtual"));
    System.out.println(Base.whereVia(sub, "through an instrumented method"));
    System.out.println(sub.whereSelf("self call"));
    System.out.println(sub.whereNative("native in the rewrite"));
    System.out.println(dyn.where("defined at run time"));
    System.out.println(circle.where("interface"));
    Function<String, String> ref = sub::where;
    System.out.println(ref.apply("method reference"));
    Shape proxy = (Shape) Proxy.newProxyInstance(Main.class.getClassLoader(),
        new Class<?>[] {Shape.class}, new ext.Handler());
    System.out.println(proxy.where("interface"));
    try {
      sub.where("chain");
    } catch (RuntimeException e) {
      e.printStackTrace(System.out);
    }
    Base waiter = (Base) Class.forName("ext.Waiter").getDeclaredConstructor().newInstance();
    Thread t = new Thread(new Runner(waiter), "waiter");
    t.start();
    if (!ext.Frames.awaitParked(t)) System.out.println("the override did not run");
    for (StackTraceElement e : t.getStackTrace())
      System.out.println("  other thread " + e);
    for (Map.Entry<Thread, StackTraceElement[]> e : Thread.getAllStackTraces().entrySet())
      if (e.getKey() == t)
        for (StackTraceElement f : e.getValue())
          System.out.println("  all threads " + f);
    ext.Frames.release();
    t.join();
  }

  static final class Runner implements Runnable {
    private final Base target;

    Runner(Base target) { this.target = target; }

    @Override public void run() { System.out.println(target.where("thread")); }
  }
}
