/*
 * Upcalls.java -- the caller's node for a method the JVM calls on its own
 * (JDK mode): loadClass(String) while a class name is resolved.
 */
package cccp.rt;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.Iterator;
import java.util.function.Function;
import java.util.stream.Stream;

/**
 * Instrumented methods pass their node to each other as an argument (ESI);
 * the thread's slot holds the node last published by a call site or a
 * wrapper (a native call, a library call, an invokedynamic), which is on
 * the stack but may be some frames above the method that is running. When
 * the JVM calls Java code in the middle of an instruction (resolving a
 * class name calls the loader's loadClass(String)), the wrapper of that
 * method asks here for its caller's node: the stack is walked from the
 * method the JVM interrupted down to the frame of the slot's node, and
 * the nodes of the frames in between, which their entries made, are found
 * again as children, one level per frame (frames of classes that are not
 * instrumented, such as a script's compiled classes, have none and are
 * passed over). When that fails (an instrumented frame with no node, a
 * stack too deep to walk) the slot's node is the answer, as it is for
 * every other wrapper.
 */
final class Upcalls {
  /** Frames walked at most. */
  private static final int DEPTH = 512;
  /** The line of a twin's forwarding call (Frames.LINE). */
  private static final int FORWARD = 65535;
  private static final String TWIN = "Lcccp/rt/CC;)";

  private static final StackWalker WALKER = walker();

  /*
   * The walker. Its options are an EnumSet, and EnumSet asks Class for the
   * enum's constants, which Class gets the first time by calling values()
   * reflectively: that sets up the JDK's reflection (JDK 17: its
   * properties) or spins method handles (JDK 18 on), work the program does
   * at its own first reflective call, in its own context. The constants
   * are given to Class as it would keep them.
   */
  private static StackWalker walker() {
    try {
      jdk.internal.misc.Unsafe u = jdk.internal.misc.Unsafe.getUnsafe();
      long off = u.objectFieldOffset(Class.class, "enumConstants");
      u.compareAndSetReference(StackWalker.Option.class, off, null,
                               StackWalker.Option.values());
    } catch (RuntimeException | InternalError e) {
      /* another JDK's Class: then reflection */
    }
    return StackWalker.getInstance(
        EnumSet.of(StackWalker.Option.RETAIN_CLASS_REFERENCE,
                   StackWalker.Option.SHOW_REFLECT_FRAMES,
                   StackWalker.Option.SHOW_HIDDEN_FRAMES));
  }

  private Upcalls() {}

  /**
   * One frame that may have a node: its class and method name. The
   * descriptor is asked for only to choose between overloads (before JDK
   * 25 it resolves the method's parameter types, which may load classes
   * the program would load later, or never).
   */
  private static final class Frame {
    final StackWalker.StackFrame f;
    final String cls, name;
    /* a method without a node of its own (see Collect) */
    final boolean bare;
    private String desc;

    Frame(StackWalker.StackFrame f, String cls, boolean bare) {
      this.f = f;
      this.cls = cls;
      this.name = f.getMethodName();
      this.bare = bare;
    }

    boolean named(int mid) {
      return name.equals(CC.Registry.name(mid)) && cls.equals(CC.Registry.cls(mid));
    }

    /* The descriptor without a twin's node parameter ("" if unknown). */
    String desc() {
      if (desc == null) {
        String d;
        try {
          d = Frames.descriptor(f);       // no class loading where it can
        } catch (Throwable e) {
          d = null;
        }
        if (d == null) d = "";
        int k = d.indexOf(TWIN);
        desc = k < 0 ? d : d.substring(0, k) + d.substring(k + TWIN.length() - 1);
      }
      return desc;
    }
  }

  /* The frames below the wrapper that asks, top first: the runtime's
  ** frames, the wrapper's and forwarding twins left out; methods that
  ** are not instrumented (of classes made at run time, of modules that
  ** are not patched, or not registered as instrumented: a script's
  ** compiled classes) marked bare: they make no node on entry, but the
  ** slot's node may be theirs (the node of an instrumented call site
  ** that called them, which they then called back from). Null past
  ** DEPTH. */
  private static final class Collect
      implements Function<Stream<StackWalker.StackFrame>, ArrayList<Frame>> {
    @Override
    public ArrayList<Frame> apply(Stream<StackWalker.StackFrame> s) {
      ArrayList<Frame> out = new ArrayList<Frame>();
      Iterator<StackWalker.StackFrame> it = s.iterator();
      boolean wrapper = true;
      for (int n = 0; it.hasNext(); n++) {
        if (n == DEPTH) return null;
        StackWalker.StackFrame f = it.next();
        Class<?> c = f.getDeclaringClass();
        if (c.getName().startsWith("cccp.rt.")) continue;
        if (wrapper) {                    // the wrapper that asks
          wrapper = false;
          continue;
        }
        if (f.getLineNumber() == FORWARD) continue;
        int jdk = Slots.jdkClass(c);
        boolean bare = Select.generated(c)
            || (jdk == 0 && c != Object.class)
            || (jdk < 0 && !CC.Registry.app(c.getName() + '.' + f.getMethodName()));
        out.add(new Frame(f, c.getName().replace('.', '/'), bare));
      }
      return out;
    }
  }

  /** The node of the method the JVM interrupted, else 's'. */
  static CC caller(CC s) {
    ArrayList<Frame> f = WALKER.walk(new Collect());
    if (f == null) return s;
    int n = f.size();
    for (int k = 0; k <= n; k++) {
      if (k < n ? s.mid <= 0 || !f.get(k).named(s.mid) : s.mid > 0) continue;
      CC node = s;
      for (int j = k - 1; j >= 0 && node != null; j--)
        if (!f.get(j).bare) node = child(node, f.get(j));
      if (node != null) return node;
    }
    return s;
  }

  /*
  ** The child of 'p' for the method of frame 'f', or null; 'p' itself when
  ** it has none and is the method's node already: an N2B wrapper's frame
  ** and its twin's are one node.
  */
  private static CC child(CC p, Frame f) {
    CC found = null;
    for (CC c = p.first; c != null; c = c.next) {
      if (!f.named(c.mid)) continue;
      if (found != null) return overload(p, f);
      found = c;
    }
    return found != null ? found : p.mid > 0 && f.named(p.mid) ? p : null;
  }

  /* Among children of 'p' of the same name, the one of f's descriptor. */
  private static CC overload(CC p, Frame f) {
    String d = f.desc();
    for (CC c = p.first; c != null; c = c.next)
      if (f.named(c.mid) && d.equals(CC.Registry.desc(c.mid))) return c;
    return null;
  }
}
