/*
 * CC.java -- the cccp runtime: calling-context tree nodes, the per-thread
 * slot, method ids, and the dump at exit. Compiled for class version 52,
 * uses only java.base, and is never instrumented itself.
 */
package cccp.rt;

import java.lang.invoke.MethodHandles;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;

/**
 * A node of the calling-context tree (CCT), and the static entry points the
 * instrumented code calls. Each node belongs to one thread: all nodes of a
 * thread hang under that thread's root, and only that thread touches them,
 * so nothing here is synchronized except method registration and the list
 * of roots. A null node means "not profiling" (bootstrap, or the runtime is
 * busy): every entry point passes null through.
 *
 * Children are kept in creation order in a singly linked list (first, next,
 * tail) for the dump; lookup tries the last child found (one-entry cache),
 * then, once a node has two children, a table indexed by method id.
 */
public class CC {
  final int mid;          // method id, 0 for a thread root
  final CC parent;        // null for a thread root
  long calls;             // times this context was entered
  private CC cache;       // child found last
  CC first;               // first child (creation order)
  CC next;                // next sibling
  private CC tail;        // last child
  /*
   * Children by method id, from the second child on (both null before):
   * open addressing, linear probing from 'mid & mask', 'keys[i]' the id
   * of 'table[i]' (0 empty: id 0 makes no node). Ids are dense and the
   * children of one node are often methods registered together, so the
   * id itself spreads them and the first probe mostly finds the child: a
   * node whose calls alternate between children costs two array loads
   * more than a cache hit, not a walk of the sibling list (a likely cache
   * miss per sibling). A collision probes on in 'keys' (one cache line)
   * without touching other nodes, which are scattered in the heap. At
   * most half full.
   */
  private int[] keys;
  private CC[] table;
  private int nkids;      // number of children

  private CC(int mid, CC parent) {
    this.mid = mid;
    this.parent = parent;
  }

  /**
   * A node with block counters, made instead of a plain one when the
   * rewriter asked for counters (its options file sets cccp.counters):
   * other runs do not pay for the fields.
   */
  static final class Metered extends CC {
    long cycles;          // JOP cycles
    long bytecodes;       // executed bytecodes
    long allocations;     // executed allocation bytecodes
    long returns;         // normal returns (--jop)

    Metered(int mid, CC parent) {
      super(mid, parent);
    }
  }

  /** Whether nodes are Metered. */
  private static final boolean METERED =
      Boolean.getBoolean("cccp.counters") || System.getProperty("cccp.jop") != null;

  /** Add 'n' cycles to 'node' when it counts them. */
  static void addCycles(CC node, long n) {
    if (node instanceof Metered) ((Metered) node).cycles += n;
  }

  /* ------------------------------------------------------------ tree */

  /**
   * The child of 'parent' for method 'mid', created on first use, with its
   * call count incremented. Returns null when 'parent' is null (not
   * profiling), and 'parent' itself for id 0: a method of a class whose
   * static initializer (which sets its ids) has not run yet, as when a
   * superclass's initializer makes an instance of a subclass (JVMS 5.5).
   */
  public static CC enter(CC parent, int mid) {
    if (parent == null || mid == 0) return parent;
    CC c = parent.cache;
    if (c == null || c.mid != mid) c = parent.lookup(mid);
    c.calls++;
    if (JopCache.ON) JopCache.invoke(parent, c);
    return c;
  }

  /**
   * The node for a virtual or interface call from instrumented code into a
   * library, symbolic method 'mid', receiver 'recv': the child of 'parent'
   * for the method the JVM selects for the receiver's class. Returns
   * 'parent' itself (no node) when the receiver is null (the call throws),
   * or when the selected method makes its own node or is not shown (see
   * Select).
   */
  public static CC enterv(Object recv, CC parent, int mid) {
    if (parent == null || recv == null) return parent;
    Class<?> k = recv.getClass();
    Select.Hit[] l = Select.last;
    int m = mid < l.length ? Select.cached(l[mid], k) : Select.NONE;
    if (m == Select.NONE) m = Select.selectMiss(mid, k);
    return m == 0 ? parent : enter(parent, m);
  }

  /**
   * The owner check of a twin: true if the receiver's class selects, for
   * the original method 'mid' names, the declaration of the class 'mid'
   * names (the twin's own class). False when a class without a twin (made
   * at run time, a mock, a class that was not rewritten) overrides it, and
   * when that cannot be decided: the caller then makes the original call,
   * which the JVM dispatches itself. Decided once per class and method.
   * A twin's receivers are mostly of one class (its own: a subclass that
   * overrides the method has a twin of its own), so the first class of the
   * method's cached answers ('Select.Hit') answers most checks.
   */
  public static boolean owns(Object recv, int mid) {
    Class<?> k = recv.getClass();
    Select.Hit[] l = Select.owned;
    int r = mid < l.length ? Select.cached(l[mid], k) : Select.NONE;
    return r == Select.NONE ? Select.ownsMiss(mid, k) : r > 0;
  }

  /**
   * Slow path of 'enter' (the cached child is not 'm'): the child from the
   * table's first probe, else 'find'. Small, so that the JIT inlines it
   * into 'enter' and its callers: the first probe is the hot path of
   * calls that alternate between children. It does not move the cache:
   * storing a reference into a node that has reached the old generation
   * costs a GC write barrier (with G1 a StoreLoad fence when the child
   * lives in another region), several times the probe itself.
   */
  private CC lookup(int m) {
    int[] k = keys;
    if (k != null) {
      int i = m & (k.length - 1);
      if (k[i] == m) return table[i];
    }
    return cache = find(m);
  }

  /* The child for 'm' past the first probe: probe on, or check the one
  ** child, or make it. */
  private CC find(int m) {
    int[] k = keys;
    if (k == null) {
      CC c = first;
      if (c != null && c.mid == m) return c;
    } else {
      int mask = k.length - 1;
      for (int i = m & mask, e; (e = k[i]) != 0; i = (i + 1) & mask)
        if (e == m) return table[i];
    }
    return add(m);
  }

  /** Append a new child for 'm' (the list first, so a dump sees it). */
  private CC add(int m) {
    CC c = METERED ? new Metered(m, this) : new CC(m, this);
    if (tail == null) first = c;
    else tail.next = c;
    tail = c;
    if (++nkids > 1) {
      if (keys == null || nkids * 2 > keys.length) rehash();
      else put(keys, table, c);
    }
    return c;
  }

  private void rehash() {
    int n = 4;
    while (n < nkids * 2) n <<= 1;
    int[] k = new int[n];
    CC[] t = new CC[n];
    for (CC c = first; c != null; c = c.next) put(k, t, c);
    table = t;
    keys = k;
  }

  private static void put(int[] k, CC[] t, CC c) {
    int mask = k.length - 1;
    int i = c.mid & mask;
    while (k[i] != 0) i = (i + 1) & mask;
    t[i] = c;
    k[i] = c.mid;
  }

  /* -------------------------------------------------- block counters */

  /** A basic block of the node's method ran: add its JOP cycles. */
  public static void cycles(CC node, int n) {
    if (node instanceof Metered) ((Metered) node).cycles += n;
  }

  /** A return instruction of the node's method is about to run. */
  public static void returned(CC node) {
    if (!(node instanceof Metered)) return;
    ((Metered) node).returns++;
    if (JopCache.ON) JopCache.ret(node);
  }

  /** An exception handler of the node's method starts. */
  public static void caught(CC node) {
    if (node != null && JopCache.ON) JopCache.caught(node);
  }

  /** A basic block of the node's method ran: add its bytecodes. */
  public static void bytecodes(CC node, int n) {
    if (node instanceof Metered) ((Metered) node).bytecodes += n;
  }

  /** A basic block of the node's method ran: add its allocations. */
  public static void allocations(CC node, int n) {
    if (node instanceof Metered) ((Metered) node).allocations += n;
  }

  /* ------------------------------------------------------ thread slot */

  /** Per-thread state (app mode; JDK mode uses a field of Thread). */
  static final class Slot {
    CC node;              // the thread-local CCT node, null = not profiling
    int[] cacheTags;      // JopCache: the method of each block, 0 = none
    int cacheNext;        // JopCache: where the next miss loads
  }

  /** The current thread's slot, or null. */
  static Slot slot() {
    return SLOT.get();
  }

  private static final ThreadLocal<Slot> SLOT = new ThreadLocal<Slot>();

  /** Set while the shutdown hook dumps: 'get' then returns null. */
  static volatile boolean busy;

  /**
   * The current thread's node. A thread's first call creates its root
   * (registered for the dump, with the thread's name at that moment).
   * Returns null while the runtime is busy dumping.
   */
  public static CC get() {
    if (busy) return null;
    Slot s = SLOT.get();
    if (s == null) s = newSlot();
    return s.node;
  }

  /**
   * Store 'node' in the current thread's slot; returns the previous value.
   * A thread without a slot yet gets one (and a root) only when 'node' is
   * not null.
   */
  public static CC set(CC node) {
    Slot s = SLOT.get();
    if (s == null) {
      if (node == null || busy) return null;
      s = newSlot();
    }
    CC prev = s.node;
    s.node = node;
    return prev;
  }

  /*
   * The slot is installed with a null node before the root is made, so
   * that any instrumented code reached from here sees "not profiling".
   */
  private static Slot newSlot() {
    Slot s = new Slot();
    SLOT.set(s);
    Thread t = Thread.currentThread();
    CC root = new CC(0, null);
    Registry.addRoot(root, t.getName(), isSystem(t));
    s.node = root;
    return s;
  }

  /*
   * A JVM system thread: one in the root ("system") thread group, or in a
   * direct child group of it other than "main" (the JDK's
   * InnocuousThreadGroup: Common-Cleaner and friends). The thread named
   * "main" is never a system thread.
   */
  private static boolean isSystem(Thread t) {
    if ("main".equals(t.getName())) return false;
    ThreadGroup g = t.getThreadGroup();
    if (g == null) return false;
    ThreadGroup p = g.getParent();
    if (p == null) return true;
    if (p.getParent() != null) return false;
    String n = g.getName();
    return !"main".equals(n) && !"VirtualThreads".equals(n);
  }

  /* ------------------------------------------------------- method ids */

  /**
   * The id of method ('cls', 'name', 'desc'): small, positive, dense in
   * first-registration order, the same for the same triple. 'flags' bits:
   * 1 native, 2 library, 4 app; repeated registrations OR the flags and
   * keep the largest 'size'.
   */
  public static int register(String cls, String name, String desc, int size,
                             int flags) {
    CC prev = set(null);
    try {
      return Registry.register(cls, name, desc, size, flags);
    } finally {
      set(prev);
    }
  }

  /**
   * Bootstrap method of the CONSTANT_Dynamic (type int) the rewriter emits
   * for class versions 55 and later: registers the method, returns its id.
   */
  public static int mid(MethodHandles.Lookup l, String ignoredName,
                        Class<?> type, String cls, String name, String desc,
                        int size, int flags) {
    return register(cls, name, desc, size, flags);
  }

  /* -------------------------------------------------------- registry */

  /** Method table and thread roots; all access under the class lock. */
  static final class Registry {
    private static final HashMap<String, Integer> IDS =
        new HashMap<String, Integer>();
    static String[] cls = new String[256];
    static String[] name = new String[256];
    static String[] desc = new String[256];
    static int[] size = new int[256];
    static int[] flags = new int[256];
    static int n;                   // methods registered: ids 1..n
    /* "class.method" (binary class name) of the methods registered as
    ** instrumented (flag 4), for the agent's stack-walk filter */
    private static final HashSet<String> APP = new HashSet<String>();

    static final ArrayList<CC> ROOTS = new ArrayList<CC>();
    static final ArrayList<String> NAMES = new ArrayList<String>();
    static final ArrayList<Boolean> SYSTEM = new ArrayList<Boolean>();
    private static boolean hooked;

    static synchronized int register(String c, String m, String d, int sz,
                                     int fl) {
      String key = c + '.' + m + d;
      Integer id = IDS.get(key);
      if ((fl & 4) != 0) APP.add(c.replace('/', '.') + '.' + m);
      if (id != null) {
        int i = id.intValue();
        flags[i] |= fl;
        if (sz > size[i]) size[i] = sz;
        return i;
      }
      int i = ++n;
      if (i == cls.length) grow();
      cls[i] = c;
      name[i] = m;
      desc[i] = d;
      size[i] = sz;
      flags[i] = fl;
      IDS.put(key, Integer.valueOf(i));
      hook();
      return i;
    }

    /** Whether "class.method" names a method registered as
     *  instrumented. */
    static synchronized boolean app(String method) {
      return APP.contains(method);
    }

    private static void grow() {
      int k = cls.length * 2;
      cls = java.util.Arrays.copyOf(cls, k);
      name = java.util.Arrays.copyOf(name, k);
      desc = java.util.Arrays.copyOf(desc, k);
      size = java.util.Arrays.copyOf(size, k);
      flags = java.util.Arrays.copyOf(flags, k);
    }

    static synchronized void addRoot(CC root, String thread, boolean sys) {
      ROOTS.add(root);
      NAMES.add(thread);
      SYSTEM.add(Boolean.valueOf(sys));
      hook();
    }

    /* Install the shutdown hook once (at first registration or root). */
    private static void hook() {
      if (hooked) return;
      hooked = true;
      try {
        Runtime.getRuntime().addShutdownHook(new Dump());
      } catch (IllegalStateException e) {
        /* already shutting down: nothing will be dumped */
      }
    }
  }
}
