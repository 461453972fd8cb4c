/*
 * Slots.java -- the thread slot of app mode: a ThreadLocal holding a
 * small per-thread object. JDK mode replaces this class (runtime-java/jdk).
 */
package cccp.rt;

/** Where the current thread's CCT node is kept (see CC.get, CC.set). */
final class Slots {
  /** Which variant this is (a constant: javac folds it into CC). */
  static final boolean JDK = false;

  private static final ThreadLocal<CC.Slot> SLOT = new ThreadLocal<CC.Slot>();

  private Slots() {}

  /*
   * The slot last looked up and its thread: a program's hot code mostly
   * runs in one thread, which then finds its slot with one load and a
   * compare instead of a ThreadLocal lookup (two per library call site).
   * Replaced, not updated, so that a racing thread sees a consistent
   * pair (final fields).
   */
  private static final class Last {
    final Thread t;
    final CC.Slot s;

    Last(Thread t, CC.Slot s) {
      this.t = t;
      this.s = s;
    }
  }

  private static Last last = new Last(null, null);

  static CC.Slot slot() {
    Thread t = Thread.currentThread();
    Last l = last;
    return l.t == t ? l.s : slotOf(t);
  }

  /* 'slot' for a thread other than the last one (a miss path: CC.find) */
  @jdk.internal.vm.annotation.DontInline
  private static CC.Slot slotOf(Thread t) {
    CC.Slot s = SLOT.get();
    if (s != null) {
      try {
        last = new Last(t, s);
      } catch (OutOfMemoryError e) {
        /* found again next time */
      }
    }
    return s;
  }

  static CC get() {
    if (CC.busy) return null;
    CC.Slot s = slot();
    if (s == null && (s = newSlot()) == null) return null;
    return s.node;
  }

  static CC set(CC node) {
    CC.Slot s = slot();
    if (s == null) {
      if (node == null || CC.busy || (s = newSlot()) == null) return null;
    }
    CC prev = s.node;
    s.node = node;
    if (--s.renew < 0) renew(s);
    return prev;
  }

  static void restore(CC node) {
    CC.Slot s = slot();
    if (s == null || s.node == node) return;
    s.node = node;
    if (--s.renew < 0) renew(s);
  }

  /*
   * Replace the current thread's slot by a young copy (CC.Slot.RENEW), in
   * its ThreadLocal and as the last one looked up. A failed allocation
   * keeps the old slot. Never inlined (a miss path: CC.find).
   */
  @jdk.internal.vm.annotation.DontInline
  private static void renew(CC.Slot s) {
    s.renew = CC.Slot.RENEW;
    try {
      CC.Slot n = s.copy();
      Last l = new Last(Thread.currentThread(), n);
      SLOT.set(n);                      // replaces the entry's value
      last = l;
    } catch (OutOfMemoryError e) {
      /* the old slot serves on */
    }
  }

  /*
   * The bytes the budget has granted (Budget), changed by compare-and-set,
   * never under a lock: see Budget.
   */
  private static final java.util.concurrent.atomic.AtomicLong USED =
      new java.util.concurrent.atomic.AtomicLong();

  static long used() {
    return USED.get();
  }

  static boolean casUsed(long expect, long update) {
    return USED.compareAndSet(expect, update);
  }

  /** JDK mode only (see runtime-java/jdk). */
  static void start() {}

  /**
   * Registers the dump as the JDK's last system shutdown hook (slot 9 of
   * java.lang.Shutdown's ten; the JDK uses 0 to 2), as JDK mode does: it
   * runs after the application's hooks (their calls are in the profile),
   * in the thread that shuts the VM down, and needs no new thread: when
   * the program's own OutOfMemoryError has filled the heap, the JDK cannot
   * start the application's hooks, and the dump still runs (it frees its
   * reserve first, Budget.free). The native agent registered the slot
   * at start-up ('hooked'); else the Java agent exported
   * jdk.internal.access to the runtime; false without either, or when
   * the slot is taken: then an application hook writes the profile.
   */
  static boolean systemHook(Runnable dump) {
    if (hooked) {
      atExit = dump;
      return true;
    }
    try {
      Class<?> s = Class.forName("jdk.internal.access.SharedSecrets");
      Object a = s.getMethod("getJavaLangAccess").invoke(null);
      Class<?> i = Class.forName("jdk.internal.access.JavaLangAccess");
      i.getMethod("registerShutdownHook", int.class, boolean.class,
                  Runnable.class)
          .invoke(a, 9, false, dump);
      return true;
    } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
      return false;
    }
  }

  /* Set by the native agent when it started the runtime (it registered
  ** an AtExit in slot 9, through JNI, which needs no export) */
  static volatile boolean hooked;
  private static volatile Runnable atExit;

  /** What the native agent registers: the dump, once there is one. */
  static final class AtExit implements Runnable {
    @Override
    public void run() {
      Runnable d = atExit;
      if (d != null) d.run();
    }
  }

  /** JDK mode only: app mode keeps the slot's node (CC.upcall). */
  static CC upcall(CC s) {
    return s;
  }

  /** JDK mode only: in app mode a class's file tells (Select). */
  static int jdkClass(Class<?> c) {
    return -1;
  }

  /** JDK mode only: app mode profiles from the start. */
  static boolean live() {
    return true;
  }

  /** JDK mode only (virtual threads run JDK code only there). */
  static boolean virtual() {
    return false;
  }

  /** JDK mode only: app mode finds ended threads itself (Registry). */
  static CC end() {
    return null;
  }

  /** JDK mode only: no method starts from the root in app mode. */
  static CC root() {
    return get();
  }


  /*
   * The slot is installed with a null node before the root is made, so
   * that any instrumented code reached from here sees "not profiling".
   * Null when the heap has no room for them (the program's own
   * OutOfMemoryError): the thread is not profiled until a later call
   * finds room, and the program sees no error it would not have seen.
   * Never inlined (a miss path: CC.find).
   */
  @jdk.internal.vm.annotation.DontInline
  private static CC.Slot newSlot() {
    CC.Slot s;
    try {
      s = new CC.Slot();
      SLOT.set(s);
    } catch (OutOfMemoryError e) {
      return null;
    }
    CC r;
    try {
      r = CC.newRoot(Thread.currentThread());
    } catch (OutOfMemoryError e) {
      SLOT.remove();
      return null;
    }
    if (r instanceof CC.Root) s.root = (CC.Root) r;
    s.node = r;
    return s;
  }

  /** The current thread's tree, or null (see CC.add). */
  static CC.Root tree() {
    CC.Slot s = slot();
    return s == null ? null : s.root;
  }
}
