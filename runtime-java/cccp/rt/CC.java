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
 * tail) for the dump; lookup tries the child in the node's slot for the
 * method id's low three bits (eight slots, each holding the first child
 * made with those bits), then, once a node has two children, a table
 * indexed by method id.
 */
public class CC {
  final int mid;          // method id, 0 for a thread root
  final CC parent;        // null for a thread root
  long calls;             // times this context was entered
  /* 'calls' at the last reset (a snapshot that starts a new interval):
  ** profiles hold 'calls - base'. Only dumps and merges, under the
  ** registry's lock, touch it. */
  long base;
  /*
   * Children by the low three bits of their id: the first child made with
   * those bits, never replaced. The call site's id is a constant, so once
   * 'enter' is inlined the JIT folds the switch on 'mid & 7' to one field
   * load: a hit costs what the one-entry cache these replace cost (the
   * child found last), and hits far more often: that cache missed most
   * calls of real programs, and moving it would have cost a GC write
   * barrier per miss (see lookup), where a slot is written once, when
   * the child is made (docs/performance.md has the figures). They take
   * 32 of a node's 88 bytes (Budget.NODE).
   */
  private CC k0, k1, k2, k3, k4, k5, k6, k7;
  CC first;               // first child (creation order)
  CC next;                // next sibling
  private CC tail;        // last child
  /*
   * Children by method id, from the second child on (null before): open
   * addressing, linear probing from '(mid >>> 3) & mask', null empty.
   * Ids are dense and the children of one node are often methods
   * registered together, so the id itself spreads them and the first
   * probe mostly finds the child: a call whose slot another child holds
   * costs two array loads and the child's id more than a slot hit, not a
   * walk of the sibling list. Not from 'mid & mask': the children that
   * reach the table are mostly those whose slot a sibling with the same
   * low three bits holds, and in a table of up to 8 entries they would
   * meet that sibling at the first probe every time. The child is the
   * node the call counts in, so reading its id costs no other cache
   * line, where a table of ids beside it would cost a third load and a
   * second bounds check per lookup. At most half full.
   */
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
  static class Metered extends CC {
    long cycles;          // JOP cycles
    long bytecodes;       // executed bytecodes
    long allocations;     // executed allocation bytecodes
    long returns;         // normal returns (--jop)
    /* their values at the last reset (see 'base') */
    long cyclesBase, bytecodesBase, allocationsBase, returnsBase;

    Metered(int mid, CC parent) {
      super(mid, parent);
    }
  }

  /**
   * Settings read once: in a holder class, so that CC itself can be
   * initialized while the VM boots (JDK mode), before system properties.
   */
  static final class Cfg {
    /** Whether nodes are Metered. */
    static final boolean METERED = Boolean.getBoolean("cccp.counters")
                                   || System.getProperty("cccp.jop") != null;
  }

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
    CC c;
    switch (mid & 7) {
    case 0: c = parent.k0; break;
    case 1: c = parent.k1; break;
    case 2: c = parent.k2; break;
    case 3: c = parent.k3; break;
    case 4: c = parent.k4; break;
    case 5: c = parent.k5; break;
    case 6: c = parent.k6; break;
    default: c = parent.k7; break;
    }
    if (c == null || c.mid != mid)
      c = Slots.JDK ? parent.lookup(mid) : parent.find(mid);
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
    int m = selected(recv, mid);
    return m == 0 ? parent : enter(parent, m < 0 ? -m : m);
  }

  /**
   * The node for a static or special call (a constructor) from
   * instrumented code into class 'k', which the rewriter did not know
   * (made at run time, or outside its inputs): 'parent' when 'k' is
   * instrumented (the agent instrumented it as it loaded: its method
   * makes its own node from the slot), else the node of 'mid'.
   */
  public static CC enterc(Class<?> k, CC parent, int mid) {
    if (parent == null || mid == 0) return parent;
    return instrumentedClass(k) ? parent : enter(parent, mid);
  }

  /*
   * Whether class 'k' is instrumented, for 'enterc'; once per class (a
   * ClassValue), false when it cannot be decided: the heap is full, or
   * in JDK mode on a virtual thread (see selectJdk), where the JDK code
   * that decides runs with the slot cleared.
   */
  private static boolean instrumentedClass(Class<?> k) {
    try {
      if (!Slots.JDK) return Select.instrumented(k);
      if (Slots.virtual()) return false;
      CC prev = set(null);
      try {
        return Select.instrumented(k);
      } finally {
        set(prev);
      }
    } catch (OutOfMemoryError e) {
      return false;
    }
  }

  /**
   * An app-mode library call site's 'enterv', its node published in the
   * thread's slot for the call ('set'), unless the selected method is a
   * leaf of the JDK ('Select.leaf'): nothing it runs reads the slot, so
   * its node is all it needs, as at the call of a leaf the rewriter sees
   * (a virtual call whose target only the receiver's class tells:
   * ArrayList$Itr.hasNext through Iterator.hasNext).
   */
  public static void publishv(Object recv, CC parent, int mid) {
    int m = parent == null || recv == null ? 0 : selected(recv, mid);
    if (m < 0) enter(parent, -m);
    else Slots.set(m == 0 ? parent : enter(parent, m));
  }

  /*
   * The method a call of symbolic method 'mid' on 'recv' selects: its id,
   * negated for a leaf, or 0 for no node (see Select).
   */
  private static int selected(Object recv, int mid) {
    Class<?> k = recv.getClass();
    Select.Hit[] l = Select.last;
    int m = mid < l.length ? Select.cached(l[mid], k) : Select.NONE;
    if (m == Select.NONE && (m = Select.memo(mid << 1, k)) == Select.NONE)
      m = Slots.JDK ? selectJdk(mid, k) : Select.selectMiss(mid, k);
    return m;
  }

  /**
   * The owner check of a twin: true if the receiver's class selects, for
   * the original method 'mid' names, the declaration of the class 'mid'
   * names (the twin's own class). False when a class without a twin (made
   * at run time, a mock, a class that was not rewritten) overrides it, and
   * when that cannot be decided (also while the VM boots, in JDK mode):
   * the caller then makes the original call, which the JVM dispatches
   * itself. Decided once per class and method. A twin's receivers are
   * mostly of one class (its own: a subclass that overrides the method
   * has a twin of its own), so the first class of the method's cached
   * answers ('Select.Hit') answers most checks.
   */
  public static boolean owns(Object recv, int mid) {
    if (Slots.JDK) return ownsJdk(recv, mid);
    Class<?> k = recv.getClass();
    Select.Hit[] l = Select.owned;
    int r = mid < l.length ? Select.cached(l[mid], k) : Select.NONE;
    if (r == Select.NONE && (r = Select.memo(mid << 1 | 1, k)) == Select.NONE)
      return Select.ownsMiss(mid, k);
    return r > 0;
  }

  /*
   * The same in JDK mode: false until profiling starts ('Slots.live'),
   * when the caches (Select) cannot be used yet. A cached answer holds
   * whatever the thread's slot says: with the slot cleared (the runtime
   * at work) the twin it admits gets a null node from its caller, as the
   * original would from the slot. Small, so that the JIT inlines it into
   * every twin: with the slot read and the miss inline it was compiled
   * on its own and called from each twin ("already compiled into a big
   * method").
   */
  private static boolean ownsJdk(Object recv, int mid) {
    if (!Slots.live()) return false;
    Class<?> k = recv.getClass();
    Select.Hit[] l = Select.owned;
    int r = mid < l.length ? Select.cached(l[mid], k) : Select.NONE;
    if (r == Select.NONE && (r = Select.memo(mid << 1 | 1, k)) == Select.NONE)
      return ownsJdkMiss(mid, k);
    return r > 0;
  }

  /*
   * The miss of 'ownsJdk': decided with the slot cleared, since the JDK
   * code it runs (ClassValue, reflection) is instrumented and its twins
   * check owners in turn, which then answer false at once and make the
   * original call, as they do while the VM boots. False, undecided, when
   * the thread is not profiling and on a virtual thread (see selectJdk).
   */
  @jdk.internal.vm.annotation.DontInline
  private static boolean ownsJdkMiss(int mid, Class<?> k) {
    CC prev = get();
    if (prev == null || Slots.virtual()) return false;
    set(null);
    try {
      return Select.ownsMiss(mid, k);
    } finally {
      set(prev);
    }
  }

  /*
   * JDK mode: the miss of 'enterv' with the slot cleared (see ownsJdk).
   * A virtual thread takes neither miss (no node; the original call): the
   * misses lock, and a virtual thread that parks inside (class loading,
   * reflection) while its carrier's scheduler code waits for the same
   * lock in an owner check deadlocks the scheduler.
   */
  private static int selectJdk(int mid, Class<?> k) {
    if (Slots.virtual()) return 0;
    CC prev = set(null);
    try {
      return Select.selectMiss(mid, k);
    } finally {
      set(prev);
    }
  }

  /**
   * JDK mode's slow path of 'enter' (the child in the slot for 'm' is not
   * 'm'): the child from the table's first probe, else 'find'. Small, so
   * that the JIT inlines it into 'enter' and its callers: the first probe
   * is the hot path of calls to children whose slot another child holds,
   * which the JDK's ids, numbered class by class, leave common (9-15% of
   * the calls). App mode's ids are coloured for the slots (2-13%): there
   * 'enter' calls 'find' at once, and each inlined copy is the smaller
   * for it, which the JIT's compile time shows. Neither fills the slot:
   * storing a reference into a node that has reached the old generation
   * costs a GC write barrier (with G1 a StoreLoad fence when the child
   * lives in another region), several times the probe itself.
   */
  CC lookup(int m) {
    CC[] t = table;
    if (t != null) {
      CC c = t[home(m, t.length - 1)];
      if (c != null && c.mid == m) return c;
    }
    return find(m);
  }

  /*
   * The child for 'm' not in its slot: probe the table from its home (in
   * JDK mode 'lookup' tried that first), or check the one child, or make
   * it. Never inlined, nor are app mode's other miss paths
   * (Slots, Select): inlined, with 'add' and 'rehash' under it, it made
   * C2's own compilation of 'enter' larger than InlineSmallCode, after
   * which C2 inlines 'enter' nowhere ("already compiled into a big
   * method": a call per call in settled runs), and every inlined copy
   * grew its caller towards the budgets that decide what else is inlined.
   * HotSpot honours the annotation in classes of the boot class path,
   * which the runtime's are.
   */
  @jdk.internal.vm.annotation.DontInline
  private CC find(int m) {
    CC[] t = table;
    if (t == null) {
      CC c = first;
      if (c != null && c.mid == m) return c;
    } else {
      int mask = t.length - 1;
      for (int i = home(m, mask); t[i] != null; i = (i + 1) & mask)
        if (t[i].mid == m) return t[i];
    }
    return add(m);
  }

  /*
   * A new child for 'm', when the tree's budget allows it; otherwise the
   * call counts in this node's fold node (see Fold). A fold node makes
   * no children: every call under it counts in it. Memory that runs out
   * here stops the tree's growth everywhere (Budget.full), not the
   * program.
   */
  private CC add(int m) {
    if (this instanceof Fold) return ((Fold) this).more(m);
    Root r = Slots.tree();
    CC c = make(m, r, false);
    return c != null ? c : fold(r, m);
  }

  /*
   * Make and link the child 'm', charged to tree 'r' (null: to the
   * budget directly): null when the budget refuses it ('force' takes it
   * anyway: merges, which free more than they take) or the heap has no
   * room. The table a child needs is made before anything is linked.
   */
  private CC make(int m, Root r, boolean force) {
    boolean fold = m == Budget.fold;
    int k = nkids + 1;
    int cap = k > 1 && (table == null || k * 2 > table.length) ? cap(k) : 0;
    long size = (fold ? Budget.FOLD : Cfg.METERED ? Budget.METERED
                 : Budget.NODE) + (cap > 0 ? Budget.array(cap) : 0);
    if (!Budget.take(r, size, force, fold)) return null;
    CC c;
    CC[] t = null;
    try {
      c = fold ? new Fold(m, this, r) : Cfg.METERED ? new Metered(m, this)
          : new CC(m, this);
      if (cap > 0) t = new CC[cap];
    } catch (OutOfMemoryError e) {
      Budget.full();
      Budget.give(r, size);
      return null;
    }
    if (t != null && table != null) Budget.give(r, Budget.array(table.length));
    if (r != null) {
      r.nodes++;
      if (fold && this == r && r.top == null) r.top = (Fold) c;
    }
    link(c, t);
    return c;
  }

  /* Append child 'c' (the list first, so a dump sees it); 't', when not
  ** null, is the larger table it needs. */
  private void link(CC c, CC[] t) {
    int m = c.mid;
    if (tail == null) first = c;
    else tail.next = c;
    tail = c;
    switch (m & 7) {    // the slot, if no child holds it yet
    case 0: if (k0 == null) k0 = c; break;
    case 1: if (k1 == null) k1 = c; break;
    case 2: if (k2 == null) k2 = c; break;
    case 3: if (k3 == null) k3 = c; break;
    case 4: if (k4 == null) k4 = c; break;
    case 5: if (k5 == null) k5 = c; break;
    case 6: if (k6 == null) k6 = c; break;
    default: if (k7 == null) k7 = c; break;
    }
    if (++nkids > 1) {
      if (t != null) {
        for (CC d = first; d != null; d = d.next) put(t, d);
        table = t;
      } else {
        put(table, c);
      }
    }
  }

  /* The table's length for 'k' children: at most half full. */
  private static int cap(int k) {
    int n = 4;
    while (n < k * 2) n <<= 1;
    return n;
  }

  /* The child for 'm' if there is one, else null. */
  private CC existing(int m) {
    CC[] t = table;
    if (t == null) {
      for (CC c = first; c != null; c = c.next)
        if (c.mid == m) return c;
      return null;
    }
    int mask = t.length - 1;
    for (int i = home(m, mask); t[i] != null; i = (i + 1) & mask)
      if (t[i].mid == m) return t[i];
    return null;
  }

  /*
   * The call of 'm' from this node, whose child for it the budget
   * refused: counted in this node's fold node, made on first use (the
   * tree's top fold node when there is no room even for that).
   */
  private CC fold(Root r, int m) {
    if (r == null) return this;         // no tree to fold into: see Root
    if (Budget.fold == 0) Budget.registerFold();
    CC f = Budget.fold == 0 ? null : existing(Budget.fold);
    if (f == null && Budget.fold != 0) f = make(Budget.fold, r, false);
    if (!(f instanceof Fold)) f = r.top();
    return f == null ? this : ((Fold) f).more(m);
  }

  /* ----------------------------------------------------- folding */

  /**
   * A thread's root, with what the budget needs of its tree: the bytes
   * its nodes and tables take (estimated, Budget) and those the budget
   * granted it that it has not used yet, and where its folded calls go.
   * Only the thread itself touches its counts; merges and dumps hold the
   * registry's lock.
   */
  static final class Root extends CC {
    long reserve;         // bytes granted, not used yet
    long bytes;           // bytes of this tree's nodes and tables
    long nodes;           // nodes under the root
    /* the fold node under the root itself, and the calls of folded
    ** methods by id; made at the tree's first fold */
    Fold top;
    Folds folds;
    /* the thread's name (a name pattern for the tree of ended threads),
    ** whether the thread is a system one, and in app mode the thread,
    ** weakly (null for the ended threads' trees, and in JDK mode, where a
    ** thread says when it ends) */
    final String thread;
    final boolean sys;
    final java.lang.ref.WeakReference<Thread> owner;

    Root(String thread, boolean sys, java.lang.ref.WeakReference<Thread> owner) {
      super(0, null);
      this.thread = thread;
      this.sys = sys;
      this.owner = owner;
    }

    /*
     * The top fold node: where a fold point that cannot have a fold node
     * of its own counts. Null when the heap has no room for it.
     */
    Fold top() {
      try {
        if (folds == null) folds = new Folds();
      } catch (OutOfMemoryError e) {
        Budget.full();
      }
      if (top != null) return top;
      if (Budget.fold == 0) Budget.registerFold();
      if (Budget.fold != 0) ((CC) this).make(Budget.fold, this, true);
      return top;
    }
  }

  /**
   * A fold node: the child, under a kept context, of method "(folded)"
   * that counts every call made below that context in contexts the
   * budget did not keep. It counts the calls ('calls', written as the
   * metric 'folded'), and the calls of each method in its tree's
   * per-method table (Folds), so that every method's total stays exact;
   * with block counters, what those calls counted. It never has
   * children: enter(fold, m) comes back to it (add).
   */
  static final class Fold extends Metered {
    final Root root;

    Fold(int mid, CC parent, Root root) {
      super(mid, parent);
      this.root = root;
    }

    /* A call of method 'm' under this fold point. */
    CC more(int m) {
      Folds f = root.folds;
      if (f == null) {
        try {
          f = root.folds = new Folds();
        } catch (OutOfMemoryError e) {
          Budget.full();
          return this;
        }
      }
      f.add(m, 1);
      return this;
    }
  }

  /* Where the table's probing for id 'm' starts (see 'table'). */
  private static int home(int m, int mask) {
    return (m >>> 3) & mask;
  }

  private static void put(CC[] t, CC c) {
    int mask = t.length - 1;
    int i = home(c.mid, mask);
    while (t[i] != null) i = (i + 1) & mask;
    t[i] = c;
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

  /**
   * 'returned(node)', then 'restore(back)': the return of an app-mode
   * method that read the slot as it entered, in one call (3 bytes less
   * per return in bodies near HotSpot's size limit).
   */
  public static void returned(CC node, CC back) {
    returned(node);
    Slots.restore(back);
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

  /**
   * Per-thread state: app mode keeps it in a ThreadLocal (class Slots),
   * JDK mode in a field of java.lang.Thread (public for that field's type:
   * its node only).
   */
  public static final class Slot {
    /*
     * Stores between two copies: a slot that lived long enough is in the
     * old generation, where each store of a node pays G1's post-write
     * barrier in full (a StoreLoad fence when the node lives in another
     * region, as it mostly does); into a young object the barrier stops
     * at the card check. Every RENEW stores the thread takes a fresh copy
     * (Slots.renew: an allocation, about a ten-thousandth of what the
     * stores cost).
     */
    static final int RENEW = 1 << 20;

    CC node;              // the thread-local CCT node, null = not profiling
    int[] cacheTags;      // JopCache: the method of each block, 0 = none
    int cacheNext;        // JopCache: where the next miss loads
    int renew = RENEW;    // stores until a young copy replaces it (Slots)
    Root root;            // app mode: the thread's tree (Slots.tree)

    /** A copy, made now and so young. */
    Slot copy() {
      Slot n = new Slot();
      n.node = node;
      n.root = root;
      n.cacheTags = cacheTags;
      n.cacheNext = cacheNext;
      return n;
    }
  }

  /** The current thread's slot in app mode, or null (always null in JDK
   *  mode, whose slot holds the node only). */
  static Slot slot() {
    return Slots.slot();
  }

  /** Set while the shutdown hook dumps: 'get' then returns null. */
  static volatile boolean busy;

  /**
   * The current thread's node. A thread's first call creates its root
   * (registered for the dump, with the thread's name at that moment).
   * Returns null while the runtime is busy dumping, and in JDK mode until
   * the VM has booted.
   */
  public static CC get() {
    return Slots.get();
  }

  /**
   * The caller's node for a method the JVM calls on its own while an
   * instrumented method runs (the N2B wrapper of loadClass(String), which
   * the JVM calls to resolve a class name): the node of the method whose
   * instruction made the JVM call it. The slot holds the node last
   * published by a call site or wrapper, some way above that method on
   * the stack; JDK mode finds the method's own node by walking the stack
   * down from there (Slots.upcall). App mode keeps the slot's node.
   */
  public static CC upcall() {
    CC s = Slots.get();
    return s == null ? null : Slots.upcall(s);
  }

  /**
   * The current thread's root (made on first use), in its slot too: where
   * a thread's own code begins although the caller passed another thread's
   * node (JDK mode: a virtual thread's task, entered from its carrier).
   * Null when not profiling.
   */
  public static CC root() {
    return Slots.root();
  }

  /**
   * The current thread ends (JDK mode: the rewritten Thread.exit and
   * VirtualThread.run call this): its tree joins the tree of the ended
   * threads of its name's pattern, and the thread makes no more nodes.
   */
  public static void ended() {
    CC root = Slots.end();
    if (root != null) Registry.ended(root);
  }

  /**
   * JDK mode: the VM shuts down. The rewritten Shutdown.runHooks calls
   * this as it returns, every shutdown hook run and the VM marked shut
   * down: the profile is written, once (cccp.exit=inserted; otherwise a
   * shutdown hook writes it).
   */
  public static void exit() {
    Dump d = Registry.exitDump();
    if (d != null) d.run();
  }

  /**
   * Store 'node' in the current thread's slot; returns the previous value.
   * A thread without a slot yet gets one (and a root) only when 'node' is
   * not null (app mode) or always (JDK mode, where the root must exist
   * before the runtime's own calls into the instrumented JDK, so that
   * they see the null node).
   */
  public static CC set(CC node) {
    return Slots.set(node);
  }

  /**
   * Put 'node' back in the current thread's slot, as an app-mode method
   * the library called leaves (it read 'node' as it entered): the store
   * is skipped when the slot holds it still, as it does after a callback
   * that made no library call.
   */
  public static void restore(CC node) {
    Slots.restore(node);
  }

  /**
   * The root of the current thread 't', registered for the dump, or null
   * while 't' is being constructed (JDK mode: see Slots). Called by Slots
   * once the thread's slot says "not profiling", so that the JDK code this
   * reaches (JDK mode) makes no nodes.
   */
  static CC newRoot(Thread t) {
    String name = t.getName();
    if (name == null) return null;      // 't' is being constructed
    if (name.isEmpty() && isVirtual(t)) name = "(virtual)";
    boolean sys = isSystem(t);
    Root root = new Root(name, sys, Slots.JDK ? null
                         : new java.lang.ref.WeakReference<Thread>(t));
    Registry.addRoot(root);
    return root;
  }

  /*
   * Add the counts of the tree under 'from' to the tree under 'into'
   * (same contexts: same method ids on the path), without recursion,
   * the nodes 'into' lacks made whatever the budget says ('from' is
   * dropped next, which frees more). What 'from' counted since the last
   * reset is added (its counts minus their bases), so that the next
   * profile's intervals hold it; before any reset the bases are 0.
   * 'stack' is a work array of two or more entries, made by the caller
   * before anything changes (it grows when it can).
   */
  static void merge(Root into, Root from, CC[] stack) {
    int sp = 0;
    stack[sp++] = into;
    stack[sp++] = from;
    while (sp > 0) {
      CC b = stack[--sp], a = stack[--sp];
      for (CC c = b.first; c != null; c = c.next) {
        CC d = a.existing(c.mid);
        if (d == null) d = a.make(c.mid, into, true);
        if (d == null) d = a;             // the heap is full: see make
        d.calls += c.calls - c.base;
        if (c instanceof Metered && d instanceof Metered) {
          Metered mc = (Metered) c, md = (Metered) d;
          md.cycles += mc.cycles - mc.cyclesBase;
          md.bytecodes += mc.bytecodes - mc.bytecodesBase;
          md.allocations += mc.allocations - mc.allocationsBase;
          md.returns += mc.returns - mc.returnsBase;
        }
        if (c.first == null || d == a) continue;
        if (sp + 2 > stack.length) {
          try {
            stack = java.util.Arrays.copyOf(stack, stack.length * 2);
          } catch (OutOfMemoryError e) {
            continue;                     // as when 'make' fails
          }
        }
        stack[sp++] = d;
        stack[sp++] = c;
      }
    }
    if (from.folds != null && into.top() != null && into.folds != null)
      into.folds.addAll(from.folds);
  }

  /**
   * The pattern of a thread name under which ended threads are merged:
   * each run of digits becomes '#' ("pool-3-thread-17": "pool-#-thread-#").
   */
  static String pattern(String name) {
    StringBuilder b = null;
    for (int i = 0, k = name.length(); i < k; i++) {
      char c = name.charAt(i);
      if (c < '0' || c > '9') {
        if (b != null) b.append(c);
        continue;
      }
      if (b == null) b = new StringBuilder(name.substring(0, i));
      b.append('#');
      while (i + 1 < k && name.charAt(i + 1) >= '0' && name.charAt(i + 1) <= '9')
        i++;
    }
    return b == null ? name : b.toString();
  }

  /* A virtual thread (JDK 21 and later; JDK 19 and 20 as a preview). */
  static boolean isVirtual(Thread t) {
    return "java.lang.VirtualThread".equals(t.getClass().getName());
  }

  /*
   * A JVM system thread: one in the root ("system") thread group, or in a
   * direct child group of it other than "main" (the JDK's
   * InnocuousThreadGroup: Common-Cleaner and friends). The thread named
   * "main" is never a system thread.
   */
  static boolean isSystem(Thread t) {
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
   * The id of method ('cls', 'name', 'desc'): small, positive, the same
   * for the same triple. 'flags' bits: 1 native, 2 library, 4 app;
   * repeated registrations OR the flags and keep the largest 'size'.
   * Bits 4-7, when not 0, are the method's colour plus one, which the
   * rewrite chose so that the methods one body calls differ in it: the
   * new id's low three bits are the colour, so that those methods'
   * nodes take distinct slots of their parent (see 'enter'). Ids without
   * a colour fill the gaps the colours leave.
   */
  public static int register(String cls, String name, String desc, int size,
                             int flags) {
    CC prev = set(null);
    try {
      return Registry.register(cls, name, desc, size, flags);
    } catch (OutOfMemoryError e) {
      return 0;                 // the heap is full: the method's calls
                                // count in their callers' nodes
    } finally {
      set(prev);
    }
  }

  /**
   * JDK mode: profiling starts. The rewritten System.initPhase3 calls
   * this as the VM finishes booting; until then every entry point
   * answers null. Reads the settings first, with profiling still off.
   */
  public static void start() {
    if (Cfg.METERED) System.err.println("cccp: block counters are not "
                                        + "supported with an instrumented JDK");
    if (JopCache.ON) System.err.println("cccp: the JOP method cache is not "
                                        + "simulated with an instrumented JDK");
    Registry.exitInserted = "inserted".equals(System.getProperty("cccp.exit"));
    String t = System.getProperty("cccp.jdk.methods");
    if (t != null) {
      JdkMethods m;
      try {
        m = JdkMethods.read(t);
      } catch (java.io.IOException | RuntimeException e) {
        System.err.println("cccp: cannot read the JDK's method table " + t
                           + ": " + e + "; no profile");
        Registry.off = true;
        return;
      }
      String run = System.getProperty("java.runtime.version");
      if (!"unknown".equals(m.build) && !m.build.equals(run)) {
        System.err.println("cccp: " + t + " is for the JDK " + m.build
                           + ", this is " + run + ": no profile (instrument "
                           + "this JDK with cccp-rewrite --jdk)");
        Registry.off = true;
        return;
      }
      Registry.jdk(m);
    }
    Budget.configure();
    Snapshot.configure();
    Slots.start();
  }

  /** A node that is no node (Slots' marker). */
  static CC sentinel() {
    return new CC(-1, null);
  }

  /**
   * Bootstrap method of the CONSTANT_Dynamic (type int) the rewriter emits
   * for class versions 63 and later: registers the method, returns its id.
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
    /* registered method 'id' is at index id - base (JopCache, app mode
    ** only, reads them directly: base 0) */
    static String[] cls = new String[256];
    static String[] name = new String[256];
    static String[] desc = new String[256];
    static int[] size = new int[256];
    static int[] flags = new int[256];
    /* JDK mode: ids 1..base are the instrumented JDK's, fixed at
    ** rewrite time and named by its method table */
    static volatile int base;
    private static volatile JdkMethods jdk;
    static int n;                   // the largest id given
    /* the largest id given with each value of the low three bits, or
    ** that value less eight; ids between them are not yet given */
    private static final int[] LAST = {-8, -7, -6, -5, -4, -3, -2, -1};
    /* "class.method" (binary class name) of the methods registered as
    ** instrumented (flag 4), for the agent's stack-walk filter */
    private static final HashSet<String> APP = new HashSet<String>();

    /* the trees: one list, so that an allocation that fails leaves it
    ** whole (the program's OutOfMemoryError may strike anywhere) */
    static final ArrayList<Root> ROOTS = new ArrayList<Root>();
    private static boolean hooked, configured;
    /* JDK mode: profiling could not start; nothing is dumped */
    static boolean off;

    static synchronized int register(String c, String m, String d, int sz,
                                     int fl) {
      int colour = (fl >>> 4 & 15) - 1;
      fl &= 15;
      String key = c + '.' + m + d;
      Integer id = IDS.get(key);
      if ((fl & 4) != 0) APP.add(c.replace('/', '.') + '.' + m);
      if (id != null) {
        int i = id.intValue() - base;
        flags[i] |= fl;
        if (sz > size[i]) size[i] = sz;
        return id.intValue();
      }
      /* nothing counts as registered until every allocation is made */
      int low = colour >= 0 && colour < 8 ? colour : 0;
      if (colour < 0 || colour >= 8)          // the gap lowest
        for (int k = 1; k < 8; k++)
          if (next(k) < next(low)) low = k;
      int nid = next(low), i = nid - base;
      while (i >= cls.length) grow();
      cls[i] = c;
      name[i] = m;
      desc[i] = d;
      size[i] = sz;
      flags[i] = fl;
      IDS.put(key, Integer.valueOf(nid));
      LAST[low] = nid;
      if (nid > n) n = nid;
      hook();
      return nid;
    }

    /* The next id with low bits 'low': above its last and above the
    ** JDK's (JDK mode). */
    private static int next(int low) {
      int id = LAST[low] + 8;
      if (id <= base) id += (base - id + 8) & ~7;
      return id;
    }

    /** Whether id 'id' (1..n) names a method: the colours leave gaps. */
    static synchronized boolean given(int id) {
      return id <= base || cls[id - base] != null;
    }

    /** JDK mode: ids 1..'t.count' name the methods of table 't'. */
    static synchronized void jdk(JdkMethods t) {
      jdk = t;
      base = n = t.count;
    }

    /*
    ** Class, name, descriptor, size and flags of method 'id' (1..n;
    ** null or 0 for id 0, a method whose class was not initialized). The
    ** JDK's (ids 1..base, JDK mode) are read without the lock: their table
    ** is set before profiling starts and never changes, and the owner
    ** checks of the JDK's own twins, which run everywhere (in a virtual
    ** thread scheduler's carrier threads too), ask for them.
    */
    /** JDK mode: the fixed id of a method of the JDK, or 0. */
    static int jdkId(String c, String m, String d) {
      JdkMethods t = jdk;
      return t == null ? 0 : t.id(c, m, d);
    }

    static String cls(int id) {
      return id > base ? clsReg(id) : jdk != null && id > 0 ? jdk.cls(id) : null;
    }

    static String name(int id) {
      return id > base ? nameReg(id) : jdk != null && id > 0 ? jdk.name(id) : null;
    }

    static String desc(int id) {
      return id > base ? descReg(id) : jdk != null && id > 0 ? jdk.desc(id) : null;
    }

    static int size(int id) {
      return id > base ? sizeReg(id) : 0;
    }

    static int flags(int id) {
      return id > base ? flagsReg(id) : jdk != null && id > 0 ? jdk.flags(id) : 0;
    }

    private static synchronized String clsReg(int id) {
      return cls[id - base];
    }

    private static synchronized String nameReg(int id) {
      return name[id - base];
    }

    private static synchronized String descReg(int id) {
      return desc[id - base];
    }

    private static synchronized int sizeReg(int id) {
      return size[id - base];
    }

    private static synchronized int flagsReg(int id) {
      return flags[id - base];
    }

    /** Whether "class.method" names a method registered as
     *  instrumented. */
    static synchronized boolean app(String method) {
      return APP.contains(method);
    }

    private static void grow() {
      int k = cls.length * 2;
      String[] c = java.util.Arrays.copyOf(cls, k);
      String[] m = java.util.Arrays.copyOf(name, k);
      String[] d = java.util.Arrays.copyOf(desc, k);
      int[] z = java.util.Arrays.copyOf(size, k);
      int[] f = java.util.Arrays.copyOf(flags, k);
      cls = c;
      name = m;
      desc = d;
      size = z;
      flags = f;
    }

    /* the tree of the ended threads of a name pattern, by "0"/"1" (system
    ** thread or not) and the pattern */
    private static final HashMap<String, Root> ENDED = new HashMap<String, Root>();
    /* app mode: look for ended threads when there are this many roots */
    private static int sweepAt = 64;

    static synchronized void addRoot(Root root) {
      if (!Slots.JDK && ROOTS.size() >= sweepAt) {
        sweep();
        sweepAt = Math.max(64, 2 * ROOTS.size());
      }
      ROOTS.add(root);
      hook();
    }

    /** Root 'root' of a thread that has ended: merged, then dropped. */
    static synchronized void ended(CC root) {
      int i = ROOTS.lastIndexOf(root);
      if (i < 0 || !fold(ROOTS.get(i))) return;
      Budget.release(ROOTS.get(i));
      ROOTS.remove(i);
    }

    /*
     * Merge 'r' into the tree of ended threads of its pattern; false when
     * the heap has no room for that tree (then 'r' stays as it is).
     */
    private static boolean fold(Root r) {
      String p, key;
      Root agg;
      CC[] stack;
      try {
        p = pattern(r.thread);
        key = (r.sys ? "1" : "0") + p;
        stack = new CC[64];
        agg = ENDED.get(key);
        if (agg == null) {
          agg = new Root(p, r.sys, null);
          ROOTS.add(agg);
        }
      } catch (OutOfMemoryError e) {
        return false;
      }
      if (ENDED.get(key) != agg) {
        try {
          ENDED.put(key, agg);
        } catch (OutOfMemoryError e) {
          /* the next ended thread of the pattern makes its own */
        }
      }
      merge(agg, r, stack);
      return true;
    }

    /* App mode: merge the roots of threads that have ended (the slot of
    ** a ThreadLocal says nothing when its thread ends); also done by the
    ** dump, under the lock. */
    static void sweep() {
      int n = ROOTS.size(), k = 0;
      for (int i = 0; i < n; i++) {
        Root r = ROOTS.get(i);
        java.lang.ref.WeakReference<Thread> w = r.owner;
        Thread t = w == null ? null : w.get();
        if (w != null && (t == null || !t.isAlive()) && fold(r)) {
          Budget.release(r);
          continue;
        }
        ROOTS.set(k++, r);
      }
      /* the trees 'fold' appended moved down with the rest */
      for (int i = n; i < ROOTS.size(); i++, k++) ROOTS.set(k, ROOTS.get(i));
      for (int i = ROOTS.size() - 1; i >= k; i--) ROOTS.remove(i);
    }

    /* Install the shutdown hook once (at first registration or root);
    ** with the dump inserted into the JDK, keep it for CC.exit. */
    private static void hook() {
      if (hooked || off) return;
      hooked = true;                  // before: the work registers too
      try {
        Priv.hook();
      } catch (OutOfMemoryError e) {
        hooked = false;               // tried again at the next one
      }
    }

    /* hook's work, with the runtime's permissions (Priv): the settings
    ** of app mode, read once (JDK mode reads them in CC.start), and the
    ** dump at exit */
    static void hookWork() {
      if (!Slots.JDK && !configured) {
        /* reading these initializes the holders that read their settings */
        boolean counters = Cfg.METERED | JopCache.ON;
        Budget.configure();
        Snapshot.configure();
        configured = true;
      }
      try {
        Dump d = new Dump();
        if (exitInserted) exitDump = d;
        else if (!Slots.systemHook(d))
          Runtime.getRuntime().addShutdownHook(Dump.hook(d));
      } catch (IllegalStateException e) {
        /* already shutting down: nothing will be dumped */
      }
    }

    /* JDK mode: whether the JDK calls CC.exit as it shuts down (set at
    ** start), and the dump it is to run, once. */
    static boolean exitInserted;
    private static Dump exitDump;
    /* when the interval the counts cover began (ms since the epoch: the
    ** runtime's start, then each reset), and how many resets there were;
    ** under the class lock, as the dump is */
    static long intervalStart = System.currentTimeMillis();
    static int resets;

    static synchronized Dump exitDump() {
      Dump d = exitDump;
      exitDump = null;
      return d;
    }
  }
}
