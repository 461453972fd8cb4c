/*
 * Slots.java -- the thread slot of JDK mode: two fields the rewriter adds
 * to java.lang.Thread (cccp$slot, the slot that holds the current node;
 * cccp$root, the thread's root), read after Thread.currentThread(). This
 * class replaces the app mode's in the runtime patched into java.base.
 */
package cccp.rt;

/**
 * While the VM boots, instrumented code runs before anything is ready:
 * until 'start' (called at the end of System.initPhase3, the rewriter
 * puts the call there) every entry point answers null, "not profiling",
 * without touching anything. A thread's state, with "node" the node its
 * slot holds (null when it has no slot yet): node null and root null, no
 * root yet; node null and root set, not profiling (the runtime is at
 * work, or the root is being made); node set, the current node.
 *
 * Nothing here calls a method of the JDK before the slot says "not
 * profiling": the JDK is instrumented, and its entries call back here.
 */
final class Slots {
  /** Which variant this is (a constant: javac folds it into CC). */
  static final boolean JDK = true;

  /** Set once the VM has booted and the runtime is configured. */
  private static boolean live;

  /** A thread's root while it is being made, and once it has ended. */
  private static final CC MAKING = CC.sentinel();
  private static final CC ENDED = CC.sentinel();

  private Slots() {}

  static CC.Slot slot() {
    return null;
  }

  /** Whether profiling has started. */
  static boolean live() {
    return live;
  }

  static CC get() {
    if (!live) return null;
    Thread t = Thread.currentThread();
    CC.Slot s = t.cccp$slot;
    if (s != null) {
      CC c = s.node;
      if (c != null) return c;
    }
    if (t.cccp$root != null || CC.busy) return null;
    return root(t);
  }

  static CC set(CC node) {
    if (!live) return null;
    Thread t = Thread.currentThread();
    CC.Slot s = t.cccp$slot;
    CC prev;
    if (s == null || (prev = s.node) == null) {
      prev = null;
      if (t.cccp$root == null) {
        if (CC.busy) return null;
        prev = root(t);
      }
      put(t, node);
      return prev;
    }
    s.node = node;
    if (--s.renew < 0) renew(t, s);
    return prev;
  }

  /** The current thread's tree, or null (see CC.add). */
  static CC.Root tree() {
    CC r = Thread.currentThread().cccp$root;
    return r instanceof CC.Root ? (CC.Root) r : null;
  }

  /** App mode's (CC.restore); JDK mode does not call it. */
  static void restore(CC node) {
    set(node);
  }

  /*
   * The node is kept in a slot object, not in a field of Thread (old in a
   * program that runs long enough), and the thread replaces its slot by a
   * young copy every CC.Slot.RENEW stores, as app mode's Slots does. A
   * failed allocation keeps the old slot.
   */
  private static void renew(Thread t, CC.Slot s) {
    s.renew = CC.Slot.RENEW;
    try {
      t.cccp$slot = s.copy();
    } catch (OutOfMemoryError e) {
      /* the old slot serves on */
    }
  }

  /* The current node of 't': its slot's, null when it has no slot. */
  private static CC node(Thread t) {
    CC.Slot s = t.cccp$slot;
    return s == null ? null : s.node;
  }

  /*
   * Make 't''s slot hold 'c' (a slot made on first use; none while the
   * heap has no room for it: the thread is not profiled until a later
   * call finds room, and the JDK's own threads, which take care not to
   * allocate, see no OutOfMemoryError they would not have seen).
   */
  private static void put(Thread t, CC c) {
    CC.Slot s = t.cccp$slot;
    if (s == null) {
      if (c == null) return;
      try {
        s = new CC.Slot();
      } catch (OutOfMemoryError e) {
        return;
      }
      t.cccp$slot = s;
    }
    s.node = c;
  }

  static CC root() {
    if (!live) return null;
    Thread t = Thread.currentThread();
    CC r = t.cccp$root;
    if (r == MAKING || r == ENDED) return null;
    if (r == null) {
      if (CC.busy) return null;
      return root(t);
    }
    put(t, r);
    return r;
  }

  /*
   * Whether the current thread runs the runtime's own work: profiling, the
   * thread has its root, and the slot is cleared (the runtime clears it
   * around whatever it calls in the JDK).
   */
  static boolean ownWork() {
    if (!live) return false;
    Thread t = Thread.currentThread();
    CC r = t.cccp$root;
    return node(t) == null && r != null && r != MAKING && r != ENDED;
  }

  /*
   * The current thread ends: its root, which it no longer adds to (null
   * when it had none); from now on the thread is not profiled.
   */
  static CC end() {
    if (!live) return null;
    Thread t = Thread.currentThread();
    CC r = t.cccp$root;
    if (r == null || r == MAKING || r == ENDED) return null;
    t.cccp$root = ENDED;
    put(t, null);
    return r;
  }

  /*
   * The root of 't', made with the slot saying "not profiling". None yet
   * (null, and a later call tries again) while 't' is being constructed:
   * a thread the VM attaches (JNI, DestroyJavaVM) runs its own Thread
   * constructor, whose fields (name; JDK 21+ holder) are not set yet.
   */
  private static CC root(Thread t) {
    t.cccp$root = MAKING;
    CC r;
    try {
      r = CC.newRoot(t);
    } catch (Throwable e) {
      r = null;
    }
    t.cccp$root = r;
    put(t, r);
    return r;
  }

  /**
   * Profiling starts: called once by the booted VM's main thread (at the
   * end of System.initPhase3), after 'configure' has read the settings
   * with profiling still off.
   */
  static void start() {
    Frames.APP = new Twins();
    Reflect.patches();
    /* the runtime's classes that call into the JDK from their static
    ** initializers: initialized now, while profiling is off, not in the
    ** context of whatever first needs them */
    openPatches();
    nameRuntime();
    U = jdk.internal.misc.Unsafe.getUnsafe();
    USED_AT = U.objectFieldOffset(Cell.class, "bytes");
    for (String c : new String[] {"Select", "Upcalls", "Hidden", "Dump"}) {
      try {
        Class.forName("cccp.rt." + c, true, null);
      } catch (ClassNotFoundException | LinkageError e) {
        /* then it initializes when first used */
      }
    }
    try {
      vthread = Class.forName("java.lang.VirtualThread", false, null);
    } catch (ClassNotFoundException e) {
      vthread = null;                   // before JDK 19
    }
    live = true;
  }

  /**
   * Registers the dump as the JDK's last system shutdown hook (slot 9 of
   * java.lang.Shutdown's ten; the JDK uses 0 to 2): it runs in the thread
   * that shuts the VM down, after the application's hooks have ended (their
   * calls are in the profile), and the JDK runs no hook code the program
   * would not run (an application hook starts ApplicationShutdownHooks).
   * False when the slot is taken: then as in app mode.
   */
  static boolean systemHook(Runnable dump) {
    try {
      jdk.internal.access.SharedSecrets.getJavaLangAccess()
          .registerShutdownHook(9, false, dump);
      return true;
    } catch (InternalError e) {
      return false;
    }
  }

  /** See CC.upcall: the walk runs with the slot cleared (its JDK calls
   *  make no nodes), not in virtual threads (it may load classes). */
  static CC upcall(CC s) {
    if (virtual()) return s;
    Thread t = Thread.currentThread();
    put(t, null);
    try {
      return Upcalls.caller(s);
    } catch (Throwable e) {
      return s;
    } finally {
      put(t, s);
    }
  }

  /**
   * Whether class 'c' of a module is instrumented: 1 when its module is
   * one of the patched modules (java.base, and those java.base exports
   * cccp.rt to, which the options file lists) and it is not
   * java.lang.Object (kept as it is), 0 for the classes of other modules,
   * -1 for classes outside modules (the class file tells). Reads nothing
   * and initializes nothing: the class's file would be read through
   * the class loaders, whose work initializes JDK classes the program
   * would initialize later, in its own context.
   */
  static int jdkClass(Class<?> c) {
    Module m = c.getModule();
    if (!m.isNamed()) return -1;
    if (c == Object.class) return 0;
    Module rt = Slots.class.getModule();
    return m == rt || rt.isExported("cccp.rt", m) ? 1 : 0;
  }

  /*
   * The reader of each patched module's patch jars, opened while profiling
   * is off: the JDK opens them when a loader first looks for a resource
   * of the module, in Java (ModulePatcher lists every entry of the jar:
   * a fifth to over half of the calls of short programs), which is how
   * the instrumented JDK is delivered, not what the program does. The
   * name asked for is in every patch jar cccp-rewrite writes: found
   * there, the module's reader of the JDK image stays closed (opening it
   * loads libjimage, which a plain run may never do).
   */
  private static void openPatches() {
    Module rt = Slots.class.getModule();
    for (Module m : ModuleLayer.boot().modules()) {
      if (m != rt && !rt.isExported("cccp.rt", m)) continue;
      try (java.io.InputStream in = m.getResourceAsStream("META-INF/cccp.patch")) {
        /* the reader is open */
      } catch (java.io.IOException | RuntimeException e) {
        /* then it opens when the program first needs it */
      }
    }
  }

  /*
   * The runtime's class named to the JDK's platform and application class
   * loaders while profiling is off, then forgotten by their lock maps.
   * Every rewritten class names cccp.rt.CC, and the JVM asks a class's
   * loader for a name it has not yet seen that loader answer: in the
   * program's context (verifying or linking the main class, listing its
   * methods, whose twins take a CC) and adding an entry to the loader's
   * map of class-loading locks, which then grows one class earlier than
   * without cccp. Once a loader has answered, the JVM keeps the answer
   * and asks no more; the lock entry, whose loading is over, is removed,
   * so the map holds what it would hold without cccp. A map that had no
   * table yet (the loader had loaded nothing) is given none again, so
   * that the program's first load makes it, as without cccp.
   */
  private static void nameRuntime() {
    jdk.internal.misc.Unsafe u = jdk.internal.misc.Unsafe.getUnsafe();
    long off, table, sizeCtl;
    try {
      off = u.objectFieldOffset(ClassLoader.class, "parallelLockMap");
      Class<?> chm = java.util.concurrent.ConcurrentHashMap.class;
      table = u.objectFieldOffset(chm, "table");
      sizeCtl = u.objectFieldOffset(chm, "sizeCtl");
    } catch (RuntimeException | InternalError e) {
      return;                           // another JDK's layout: leave it
    }
    ClassLoader[] ls = {jdk.internal.loader.ClassLoaders.platformClassLoader(),
                        jdk.internal.loader.ClassLoaders.appClassLoader()};
    for (ClassLoader l : ls) {
      try {
        Object m = u.getReference(l, off);
        boolean fresh = m instanceof java.util.concurrent.ConcurrentHashMap
            && u.getReferenceVolatile(m, table) == null
            && u.getIntVolatile(m, sizeCtl) == 0;
        Class.forName(CC.class.getName(), false, l);
        if (!(m instanceof java.util.concurrent.ConcurrentHashMap)) continue;
        java.util.concurrent.ConcurrentHashMap<?, ?> map =
            (java.util.concurrent.ConcurrentHashMap<?, ?>) m;
        map.remove(CC.class.getName());
        if (fresh && map.isEmpty()) {
          u.putReferenceVolatile(m, table, null);
          u.putIntVolatile(m, sizeCtl, 0);
        }
      } catch (ClassNotFoundException | RuntimeException | LinkageError e) {
        /* then the loader is asked in the program's context */
      }
    }
  }

  /*
   * The bytes the budget has granted (Budget), changed by compare-and-set,
   * never under a lock. Unsafe's natives, called here under their own
   * names, run no instrumented code (their twins are the ones that count).
   * Set by 'start', before any tree grows (nothing calls 'casUsed'
   * earlier): this class initializes with the VM's first instrumented
   * call, before Unsafe can be asked.
   */
  private static jdk.internal.misc.Unsafe U;
  private static final Cell USED = new Cell();
  private static long USED_AT;

  private static final class Cell {
    volatile long bytes;
  }

  static long used() {
    jdk.internal.misc.Unsafe u = U;
    return u == null ? 0 : u.getLongVolatile(USED, USED_AT);
  }

  static boolean casUsed(long expect, long update) {
    return U.compareAndSetLong(USED, USED_AT, expect, update);
  }

  /** The class of virtual threads, or null. */
  private static Class<?> vthread;

  /** Whether the current thread is a virtual thread. */
  static boolean virtual() {
    Class<?> v = vthread;
    return v != null && Thread.currentThread().getClass() == v;
  }

  /*
   * The stack-walk filter's question, whether a frame at the forwarding
   * line belongs to an instrumented method: here every class with such a
   * line is (the JDK's, the application's rewritten against it).
   */
  private static final class Twins
      implements java.util.function.Predicate<String> {
    @Override
    public boolean test(String method) {
      return true;
    }
  }
}
