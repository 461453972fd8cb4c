package tp;

import java.beans.Introspector;
import java.beans.PropertyDescriptor;
import java.io.ObjectStreamClass;
import java.lang.reflect.Member;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Prints what reflection and stack walks show of a few classes; the
 * output must be the same instrumented or not.
 */
public class Main {
  static void members(Class<?> c) throws Exception {
    System.out.println("== " + c.getName());
    print("declared methods", c.getDeclaredMethods());
    print("methods", c.getMethods());
    print("declared constructors", c.getDeclaredConstructors());
    print("constructors", c.getConstructors());
    print("declared fields", c.getDeclaredFields());
    print("fields", c.getFields());
    ObjectStreamClass osc = ObjectStreamClass.lookup(c);
    System.out.println("serialVersionUID " + (osc == null ? "-" : osc.getSerialVersionUID()));
    if (c.isRecord())
      System.out.println("record components " + Arrays.toString(c.getRecordComponents()));
    if (c.isEnum())
      System.out.println("enum constants " + Arrays.toString(c.getEnumConstants()));
    List<String> props = new ArrayList<>();
    for (PropertyDescriptor p : Introspector.getBeanInfo(c).getPropertyDescriptors())
      props.add(p.getName() + ":" + p.getPropertyType());
    System.out.println("bean properties " + props);
  }

  static void print(String what, Member[] ms) {
    System.out.println(what + " (" + ms.length + ")");
    for (String s : Arrays.stream(ms).map(Object::toString).sorted().collect(Collectors.toList()))
      System.out.println("  " + s);
  }

  static int depth3(int k) { return depth2(k) + 1; }

  static int depth2(int k) { return depth1(k) + 1; }

  static int depth1(int k) {
    if (k == 0) throw new IllegalStateException("deep");
    StackWalker.getInstance().forEach(f -> {
      if (!f.getClassName().startsWith("java."))
        System.out.println("  walk " + f.getClassName() + "." + f.getMethodName() + ":" + f.getLineNumber());
    });
    StackTraceElement[] st = Thread.currentThread().getStackTrace();
    System.out.println("  caller of depth1: " + st[2]);
    return k;
  }

  public static void main(String[] args) throws Exception {
    for (Class<?> c : new Class<?>[] {Bean.class, Counted.class, Shape.class,
                                      Point.class, Color.class, Main.class})
      members(c);
    System.out.println("getDeclaredMethod " + Bean.class.getDeclaredMethod("describe", String.class));
    System.out.println("getMethod " + Bean.class.getMethod("getSize"));
    System.out.println("getConstructor " + Bean.class.getConstructor());
    System.out.println("getDeclaredField " + Bean.class.getDeclaredField("size"));
    try {
      Bean.class.getDeclaredField("serialVersionUID");
      System.out.println("serialVersionUID field present");
    } catch (NoSuchFieldException e) {
      System.out.println("no serialVersionUID field");
    }
    System.out.println("== stack");
    depth3(1);
    try {
      depth3(0);
    } catch (IllegalStateException e) {
      e.printStackTrace(System.out);
    }
    new Bean(3).copy();
    new InitOrder.Leaf();
    System.out.println("init order " + InitOrder.MADE);
    System.out.println("new Point " + new Point(1, 2).scale(3) + " " + Shape.unit().name().isEmpty());
    Lambdas.run();
    Messages.run();
    Finals.run();
  }
}
