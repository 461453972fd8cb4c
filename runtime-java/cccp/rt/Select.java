/*
 * Select.java -- which method a virtual or interface call into a library
 * really runs, so that the node an application call site makes for it
 * names that method (ArrayList.sort, not the List.sort the bytecode
 * names). Compiled for class version 52, never instrumented.
 */
package cccp.rt;

import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.HashMap;

/**
 * Method selection (JVMS 5.4.6) by reflection, cached per symbolic method
 * id and receiver class. The answer is the id of the selected method, or
 * 0 when the call site must not make a node: the selected method belongs
 * to an instrumented class (its own entry makes the node from the
 * thread-local slot) or to a class generated at run time (lambda and
 * proxy classes: their frames are not shown; what they call lands under
 * the caller).
 */
final class Select {
  /** Marker method of instrumented classes without method-id fields. */
  static final String MARKER = "cccp$instrumented";
  /** Prefix of the method-id fields (class versions below 63). */
  static final String MID_FIELD = "cccp$mid$";

  /** One cached answer: receiver class 'k' selects method id 'mid'. */
  static final class Hit {
    final Class<?> k;
    final int mid;

    Hit(Class<?> k, int mid) {
      this.k = k;
      this.mid = mid;
    }
  }

  /**
   * Last answer per symbolic id (a one-entry inline cache, published
   * racily: 'Hit' has only final fields). Grown under the class lock.
   */
  static volatile Hit[] last = new Hit[256];

  /** Every answer, by symbolic id then class; under the class lock. */
  private static final HashMap<Long, Integer> ALL = new HashMap<Long, Integer>();
  private static final HashMap<Class<?>, Integer> CLASS_IDS =
      new HashMap<Class<?>, Integer>();
  private static final ArrayList<Class<?>> KEEP = new ArrayList<Class<?>>();

  private Select() {}

  /** The selected method id for symbolic id 'mid' and receiver class 'k'. */
  static int of(int mid, Class<?> k) {
    Hit[] l = last;
    if (mid < l.length) {
      Hit h = l[mid];
      if (h != null && h.k == k) return h.mid;
    }
    return slow(mid, k);
  }

  private static synchronized int slow(int mid, Class<?> k) {
    Integer ck = CLASS_IDS.get(k);
    if (ck == null) {
      ck = Integer.valueOf(KEEP.size());
      CLASS_IDS.put(k, ck);
      KEEP.add(k);
    }
    Long key = Long.valueOf(((long) mid << 32) | ck.intValue());
    Integer r = ALL.get(key);
    int sel;
    if (r != null) {
      sel = r.intValue();
    } else {
      sel = resolve(mid, k);
      ALL.put(key, Integer.valueOf(sel));
    }
    Hit[] l = last;
    if (mid >= l.length) {
      int n = l.length;
      while (n <= mid) n *= 2;
      l = java.util.Arrays.copyOf(l, n);
    }
    l[mid] = new Hit(k, sel);
    last = l;
    return sel;
  }

  /* Selection proper; errors and odd cases keep the symbolic method. */
  private static int resolve(int mid, Class<?> k) {
    String name, desc;
    synchronized (CC.Registry.class) {
      name = CC.Registry.name[mid];
      desc = CC.Registry.desc[mid];
    }
    Method m;
    try {
      m = select(k, name, desc);
    } catch (Throwable e) {           // linkage trouble: keep the symbol
      return mid;
    }
    if (m == null) return mid;
    Class<?> d = m.getDeclaringClass();
    if (generated(d) || instrumented(d)) return 0;
    return CC.Registry.register(d.getName().replace('.', '/'), name, desc, 0,
                                Modifier.isNative(m.getModifiers()) ? 3 : 2);
  }

  /**
   * JVMS 5.4.6 for a receiver of class 'k': the first declaration in the
   * superclass chain that is neither static nor private, else the one
   * non-abstract interface method that no other candidate's interface
   * overrides (maximally specific). Null when nothing fits.
   */
  static Method select(Class<?> k, String name, String desc) {
    for (Class<?> c = k; c != null; c = c.getSuperclass()) {
      Method m = declared(c, name, desc);
      if (m != null) {
        int mod = m.getModifiers();
        if (!Modifier.isStatic(mod) && !Modifier.isPrivate(mod))
          return Modifier.isAbstract(mod) ? null : m;
      }
    }
    ArrayList<Method> cand = new ArrayList<Method>();
    for (Class<?> c = k; c != null; c = c.getSuperclass())
      defaults(c, name, desc, cand);
    Method best = null;
    for (Method m : cand) {
      if (Modifier.isAbstract(m.getModifiers())) continue;
      boolean shadowed = false;
      for (Method o : cand)
        if (o != m && m.getDeclaringClass().isAssignableFrom(o.getDeclaringClass())
            && o.getDeclaringClass() != m.getDeclaringClass())
          shadowed = true;
      if (shadowed) continue;
      if (best != null) return null;  // ambiguous: the JVM throws
      best = m;
    }
    return best;
  }

  /* Matching instance methods of every superinterface of 'c'. */
  private static void defaults(Class<?> c, String name, String desc,
                               ArrayList<Method> out) {
    for (Class<?> i : c.getInterfaces()) {
      Method m = declared(i, name, desc);
      if (m != null && !Modifier.isStatic(m.getModifiers())
          && !Modifier.isPrivate(m.getModifiers()) && !out.contains(m))
        out.add(m);
      defaults(i, name, desc, out);
    }
  }

  /* The method 'name' 'desc' that 'c' declares, or null. */
  private static Method declared(Class<?> c, String name, String desc) {
    for (Method m : c.getDeclaredMethods())
      if (m.getName().equals(name) && descriptor(m).equals(desc)) return m;
    return null;
  }

  /** The JVM descriptor of 'm', e.g. "(ILjava/lang/String;)V". */
  static String descriptor(Method m) {
    StringBuilder b = new StringBuilder("(");
    for (Class<?> p : m.getParameterTypes()) type(b, p);
    b.append(')');
    type(b, m.getReturnType());
    return b.toString();
  }

  private static void type(StringBuilder b, Class<?> t) {
    while (t.isArray()) {
      b.append('[');
      t = t.getComponentType();
    }
    if (t.isPrimitive()) {
      b.append(t == int.class ? 'I' : t == long.class ? 'J'
               : t == boolean.class ? 'Z' : t == byte.class ? 'B'
               : t == char.class ? 'C' : t == short.class ? 'S'
               : t == float.class ? 'F' : t == double.class ? 'D' : 'V');
    } else {
      b.append('L').append(t.getName().replace('.', '/')).append(';');
    }
  }

  /** A class made at run time: hidden or VM-anonymous, or a proxy. */
  static boolean generated(Class<?> c) {
    return c.getName().indexOf('/') >= 0 || Proxy.isProxyClass(c);
  }

  /**
   * A class the rewriter instrumented: it declares a synthetic method-id
   * field, or, having none, the marker method.
   */
  static boolean instrumented(Class<?> c) {
    for (Field f : c.getDeclaredFields())
      if (f.isSynthetic() && f.getName().startsWith(MID_FIELD)) return true;
    for (Method m : c.getDeclaredMethods())
      if (m.isSynthetic() && m.getName().equals(MARKER)) return true;
    return false;
  }
}
