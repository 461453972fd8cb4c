/*
 * Select.java -- which method a virtual or interface call into a library
 * really runs, so that the node an application call site makes for it
 * names that method (ArrayList.sort, not the List.sort the bytecode
 * names). Compiled for class version 52, never instrumented.
 */
package cccp.rt;

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

  /**
   * The owner checks' answers for one receiver class: method id to 1
   * (owned) or -1, in an open-addressing table that is replaced, never
   * changed, once published (readers take no lock).
   */
  static final class Owned {
    private volatile int[] tab = new int[8];    // (mid << 1 | yes) + 1

    /** 1 or -1, or 0 if not decided yet. */
    int get(int mid) {
      int[] t = tab;
      int mask = t.length - 1;
      for (int i = (mid * 0x9E3779B9 >>> 7) & mask, e; (e = t[i]) != 0;
           i = (i + 1) & mask)
        if ((e - 1) >>> 1 == mid) return ((e - 1) & 1) != 0 ? 1 : -1;
      return 0;
    }

    synchronized void put(int mid, boolean yes) {
      if (get(mid) != 0) return;
      int[] o = tab;
      int n = 0;
      for (int e : o)
        if (e != 0) n++;
      int[] t = new int[(n + 1) * 2 > o.length ? o.length * 2 : o.length];
      for (int e : o)
        if (e != 0) insert(t, e);
      insert(t, ((mid << 1) | (yes ? 1 : 0)) + 1);
      tab = t;
    }

    private static void insert(int[] t, int e) {
      int mask = t.length - 1;
      int i = (((e - 1) >>> 1) * 0x9E3779B9 >>> 7) & mask;
      while (t[i] != 0) i = (i + 1) & mask;
      t[i] = e;
    }
  }

  static final ClassValue<Owned> OWN = new ClassValue<Owned>() {
    @Override
    protected Owned computeValue(Class<?> k) {
      return new Owned();
    }
  };

  /**
   * Slow path of the owner check: 1 if class 'k' selects the method of
   * 'mid' in the class 'mid' names, else -1 (also when reflection fails:
   * the original call is always right, only slower).
   */
  static int owns(int mid, Class<?> k) {
    String cls = CC.Registry.cls(mid);
    String name = CC.Registry.name(mid);
    String desc = CC.Registry.desc(mid);
    boolean yes;
    try {
      Method m = select(k, name, desc);
      yes = m != null
            && m.getDeclaringClass().getName().replace('.', '/').equals(cls);
    } catch (Throwable e) {
      yes = false;
    }
    OWN.get(k).put(mid, yes);
    return yes ? 1 : -1;
  }

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
    String name = CC.Registry.name(mid);
    String desc = CC.Registry.desc(mid);
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
   * A class the rewriter instrumented: its class file names cccp.rt.CC.
   * Read from the class's loader, once per class: reflection does not show
   * what the rewriter adds (the agent hides it), and a class made at run
   * time has no class file (it was not instrumented).
   */
  static boolean instrumented(Class<?> c) {
    return INSTRUMENTED.get(c).booleanValue();
  }

  private static final ClassValue<Boolean> INSTRUMENTED =
      new ClassValue<Boolean>() {
        @Override
        protected Boolean computeValue(Class<?> c) {
          return Boolean.valueOf(namesRuntime(c));
        }
      };

  private static final byte[] CC_NAME = "cccp/rt/CC".getBytes();

  private static boolean namesRuntime(Class<?> c) {
    String res = c.getName().replace('.', '/') + ".class";
    ClassLoader l = c.getClassLoader();
    java.io.InputStream in = null;
    try {
      in = l != null ? l.getResourceAsStream(res)
                     : ClassLoader.getSystemResourceAsStream(res);
      if (in == null) return false;
      java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
      byte[] buf = new byte[8192];
      for (int n; (n = in.read(buf)) > 0;) out.write(buf, 0, n);
      byte[] b = out.toByteArray();
      outer:
      for (int i = 0; i + CC_NAME.length <= b.length; i++) {
        for (int k = 0; k < CC_NAME.length; k++)
          if (b[i + k] != CC_NAME[k]) continue outer;
        return true;
      }
      return false;
    } catch (java.io.IOException e) {
      return false;
    } finally {
      if (in != null)
        try {
          in.close();
        } catch (java.io.IOException e) {
          /* nothing read from it matters any more */
        }
    }
  }
}
