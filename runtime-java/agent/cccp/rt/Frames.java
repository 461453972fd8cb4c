/*
 * Frames.java -- the stack-walk filter. Defined by the agent inside
 * java.base, in package java.lang, under the name java.lang.CccpFrames
 * (its bytes are renamed), and called by the patched Throwable, Thread,
 * StackWalker and StackStreamFactory$StackFrameTraverser. Compiled for
 * class version 55; uses only java.base; no lambdas or nested classes
 * (only this class is renamed and defined).
 */
package cccp.rt;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.EnumSet;
import java.util.Iterator;
import java.util.Spliterator;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;

/**
 * Leaves out of stack traces and stack walks the frame a twin keeps on
 * the stack while it forwards a call to an override that has no twin (a
 * class made at run time, a mock, a proxy, a class that was not
 * rewritten), and the frame of a delegating twin (of a native method, of
 * an abstract method a class without twins implements, as a lambda
 * does). The rewriter puts that code under a line of its own, LINE,
 * which HotSpot reports for the frame; a frame is left out
 *   - of a StackTraceElement array when its line is LINE and the frame
 *     above it (its callee) has the same method name, or its method is
 *     one the runtime registered as instrumented (APP: the callee of a
 *     twin that a lambda implements is the lambda's body, its hidden
 *     class's frame does not show), so that a real line 65535 elsewhere
 *     stays;
 *   - of a StackWalker stream when its line is LINE and its method's
 *     last parameter is a cccp.rt.CC (a twin).
 * Everything else is passed through as the JDK made it. Any failure is
 * reported on stderr once, and the frames are then left as they are.
 */
public final class Frames
    implements Predicate<StackWalker.StackFrame>,
               Function<Stream<StackWalker.StackFrame>, Object>,
               Spliterator<StackWalker.StackFrame>,
               Consumer<StackWalker.StackFrame>,
               java.security.PrivilegedExceptionAction<MethodHandles.Lookup> {
  /** The line of a twin's forwarding call (FORWARD_LINE in cccp.c). */
  static final int LINE = 65535;
  private static final String TWIN = "Lcccp/rt/CC;)";
  /* The JDK's members the filter calls, found by lookups when first
  ** needed, in three groups: method handles spin classes and fill the
  ** JDK's caches of method types and lambda forms, work an instrumented
  ** JDK's runtime does not do before the program asks (it keeps the
  ** original calls and filters their results: it never needs 'calls'). */
  private static MethodHandle OF, OF_ARRAY, DUMP;         /* calls */
  private static MethodHandle WALKER, HAS, REFLECT, HANDLE, HIDDEN; /* walk */
  private static MethodHandle TYPE;                       /* info */
  private static Class<?> INFO;
  private static volatile boolean calls, walk, info;
  private static volatile boolean reported;

  /* The same members through the native agent (java.lang.CccpFrames:
  ** app mode; boot.c), which links nothing on the program's thread (see
  ** Hidden.jni). An instrumented JDK's filter has no natives. */
  private static volatile boolean jni = true;

  private static native StackTraceElement[] of0(Object backtrace, int depth);

  private static native StackTraceElement[] ofArray0(StackTraceElement[] a);

  private static native StackTraceElement[][] dump0(Thread[] ts);

  private static native StackWalker walker0(Object finder);

  private static native boolean has0(StackWalker w, StackWalker.Option o);

  private static native boolean skipped0(Class<?> c);

  private static native Object type0(Object info);
  /** Whether "class.method" (binary class name) names a method the
   *  runtime registered as instrumented; set by the agent. */
  static volatile Predicate<String> APP;
  /* Made when first needed: by then the program has made a walker with
  ** options, and StackWalker.Option is linked (HotSpot hashes a class it
  ** links, on the linking thread) */
  private static volatile StackWalker.Option[] show;

  private static StackWalker.Option[] show() {
    StackWalker.Option[] s = show;
    if (s == null)
      show = s = new StackWalker.Option[] {
          StackWalker.Option.SHOW_REFLECT_FRAMES,
          StackWalker.Option.SHOW_HIDDEN_FRAMES};
    return s;
  }
  /* The walkers of 'caller', by the options of the walker asked. */
  private static final StackWalker[] WALKERS = new StackWalker[4];

  /* package access to java.lang: this class is java.lang.CccpFrames
  ** (defined by the agent) or, in an instrumented JDK, cccp.rt.Frames
  ** in java.base. With this class's permissions, not the program's
  ** (a SecurityManager asks for suppressAccessChecks): the action is an
  ** instance of this class, which the agent defines alone. */
  private static MethodHandles.Lookup lookupIn(Class<?> c)
      throws IllegalAccessException {
    try {
      return java.security.AccessController.doPrivileged(
          new Frames(c, MethodHandles.lookup()));
    } catch (java.security.PrivilegedActionException e) {
      throw (IllegalAccessException) e.getException();
    }
  }

  /* the lookup that 'run' makes, privileged (lookupIn) */
  private final Class<?> target;
  private final MethodHandles.Lookup self;
  /* as a walk's spliterator: the traverser's, and its last frame */
  private final Spliterator<StackWalker.StackFrame> src;
  private StackWalker.StackFrame cur;

  private Frames(Class<?> target, MethodHandles.Lookup self) {
    this.target = target;
    this.self = self;
    this.src = null;
  }

  private Frames(Spliterator<StackWalker.StackFrame> src) {
    this.target = null;
    this.self = null;
    this.src = src;
  }

  @Override
  public MethodHandles.Lookup run() throws IllegalAccessException {
    return MethodHandles.privateLookupIn(target, self);
  }

  private static synchronized void calls() throws ReflectiveOperationException {
    if (calls) return;
    Class<?> ste = StackTraceElement.class;
    MethodHandles.Lookup jl = lookupIn(ste);
    MethodHandle of;
    try {       /* of(Object backtrace, int depth) as in JDK 25 */
      of = jl.findStatic(ste, "of", MethodType.methodType(
          StackTraceElement[].class, Object.class, int.class));
    } catch (NoSuchMethodException e) {
      of = jl.findStatic(ste, "of", MethodType.methodType(
          StackTraceElement[].class, Throwable.class, int.class));
    }
    OF = of.asType(MethodType.methodType(StackTraceElement[].class,
                                         Object.class, int.class));
    try {       /* as in JDK 25 */
      OF_ARRAY = jl.findStatic(ste, "of", MethodType.methodType(
          StackTraceElement[].class, StackTraceElement[].class));
    } catch (NoSuchMethodException e) {
      /* JDK 17: not called */
    }
    DUMP = lookupIn(Thread.class).findStatic(
        Thread.class, "dumpThreads", MethodType.methodType(
            StackTraceElement[][].class, Thread[].class));
    calls = true;
  }

  private static synchronized void walk() throws ReflectiveOperationException {
    if (walk) return;
    Class<?> ssf = Class.forName("java.lang.StackStreamFactory");
    Class<?> asw =
        Class.forName("java.lang.StackStreamFactory$AbstractStackWalker");
    MethodHandles.Lookup p = lookupIn(ssf);
    WALKER = lookupIn(asw).findGetter(asw, "walker", StackWalker.class)
        .asType(MethodType.methodType(StackWalker.class, Object.class));
    HAS = lookupIn(StackTraceElement.class).findVirtual(StackWalker.class,
        "hasOption",
        MethodType.methodType(boolean.class, StackWalker.Option.class));
    MethodType test = MethodType.methodType(boolean.class, Class.class);
    REFLECT = p.findStatic(ssf, "isReflectionFrame", test);
    HANDLE = p.findStatic(ssf, "isMethodHandleFrame", test);
    try {       /* JDK 15 and later (the agent runs on 11) */
      HIDDEN = MethodHandles.lookup().findVirtual(Class.class, "isHidden",
          MethodType.methodType(boolean.class));
    } catch (NoSuchMethodException e) {
      /* no hidden classes */
    }
    walk = true;
  }

  private static synchronized void info() throws ReflectiveOperationException {
    if (info) return;
    Class<?> c = Class.forName("java.lang.StackFrameInfo");
    try {       /* as in JDK 25: see 'descriptor' */
      TYPE = lookupIn(c).findGetter(c, "type", Object.class)
          .asType(MethodType.methodType(Object.class, Object.class));
    } catch (NoSuchFieldException e) {
      /* getDescriptor answers */
    }
    INFO = c;
    info = true;
  }

  private Frames() {
    this(null, null);
  }

  /** In place of StackTraceElement.of(backtrace, depth) in Throwable. */
  public static StackTraceElement[] of(Object backtrace, int depth)
      throws Throwable {
    if (jni) {
      try {
        return strip(of0(backtrace, depth));
      } catch (UnsatisfiedLinkError e) {
        jni = false;
      }
    }
    if (!calls) calls();
    return strip((StackTraceElement[]) OF.invokeExact(backtrace, depth));
  }

  /** In place of StackTraceElement.of(backtrace, depth) in Throwable
   *  (as in JDK 17). */
  public static StackTraceElement[] of(Throwable backtrace, int depth)
      throws Throwable {
    if (jni) {
      try {
        return strip(of0(backtrace, depth));
      } catch (UnsatisfiedLinkError e) {
        jni = false;
      }
    }
    if (!calls) calls();
    return strip((StackTraceElement[]) OF.invokeExact((Object) backtrace,
                                                      depth));
  }

  /** In place of StackTraceElement.of(elements) in Thread (another
   *  thread's stack, as in JDK 25): that only completes the elements it
   *  returns. */
  public static StackTraceElement[] of(StackTraceElement[] a)
      throws Throwable {
    if (jni) {
      try {
        return strip(ofArray0(a));
      } catch (UnsatisfiedLinkError e) {
        jni = false;
      }
    }
    if (!calls) calls();
    return strip((StackTraceElement[]) OF_ARRAY.invokeExact(a));
  }

  /** In place of Thread.dumpThreads (getAllStackTraces; another
   *  thread's stack as in JDK 17). */
  public static StackTraceElement[][] dumpThreads(Thread[] ts)
      throws Throwable {
    if (jni) {
      try {
        return strip(dump0(ts));
      } catch (UnsatisfiedLinkError e) {
        jni = false;
      }
    }
    if (!calls) calls();
    return strip((StackTraceElement[][]) DUMP.invokeExact(ts));
  }

  /**
   * In place of 'function.apply(stream)' in StackFrameTraverser: the
   * user's function gets the stream without forwarding frames. The walk
   * of 'caller' (an instance of this class) sees all frames.
   */
  @SuppressWarnings("unchecked")
  public static Object apply(Function<Object, Object> f, Object s) {
    /* the runtime's own walks (cccp.rt.Upcalls) see every frame */
    if ((Object) f instanceof Frames || f.getClass().getName().startsWith("cccp.rt."))
      return f.apply(s);
    /* the frames through a spliterator of this class: Stream.filter
    ** would link stream classes the program's walk does not (HotSpot
    ** hashes a class it links, on the linking thread) */
    Spliterator<StackWalker.StackFrame> in =
        ((Stream<StackWalker.StackFrame>) s).spliterator();
    return f.apply(StreamSupport.stream(new Frames(in), false));
  }

  /* The frames of 'src' without forwarding ones (a Spliterator; 'cur'
  ** the frame its tryAdvance handed to this, as a Consumer). */
  @Override
  public boolean tryAdvance(Consumer<? super StackWalker.StackFrame> action) {
    while (src.tryAdvance(this)) {
      StackWalker.StackFrame f = cur;
      cur = null;
      if (test(f)) {
        action.accept(f);
        return true;
      }
    }
    return false;
  }

  @Override
  public void accept(StackWalker.StackFrame f) {
    cur = f;
  }

  @Override
  public Spliterator<StackWalker.StackFrame> trySplit() {
    return null;
  }

  @Override
  public long estimateSize() {
    return src.estimateSize();
  }

  @Override
  public int characteristics() {
    return src.characteristics()
        & ~(Spliterator.SIZED | Spliterator.SUBSIZED);
  }

  /**
   * In place of CallerClassFinder.findCaller() in
   * StackWalker.getCallerClass ('finder' made for the walker asked):
   * the class of the caller of the method that asks, as the finder
   * chooses it (reflection and method-handle frames skipped), with
   * forwarding frames left out. The finder itself cannot be asked: this
   * frame, between getCallerClass and the finder, would be its answer.
   */
  public static Class<?> caller(Object finder) throws Throwable {
    int k = 0;
    if (jni) {
      try {
        StackWalker w = walker0(finder);
        k = (has0(w, show()[0]) ? 1 : 0) | (has0(w, show()[1]) ? 2 : 0);
      } catch (UnsatisfiedLinkError e) {
        jni = false;
      }
    }
    if (!jni) {
      if (!walk) walk();
      StackWalker w = (StackWalker) WALKER.invokeExact(finder);
      k = ((boolean) HAS.invokeExact(w, show()[0]) ? 1 : 0)
          | ((boolean) HAS.invokeExact(w, show()[1]) ? 2 : 0);
    }
    StackWalker all = WALKERS[k];
    if (all == null) {
      EnumSet<StackWalker.Option> o =
          EnumSet.of(StackWalker.Option.RETAIN_CLASS_REFERENCE);
      for (int i = 0; i < 2; i++)
        if ((k & 1 << i) != 0) o.add(show()[i]);
      WALKERS[k] = all = StackWalker.getInstance(o);
    }
    Object c = all.walk(new Frames());
    if (c instanceof Object[]) throw (RuntimeException) ((Object[]) c)[0];
    if (c instanceof Throwable) {
      report((Throwable) c);
      throw (Throwable) c;
    }
    if (c == null) throw new IllegalCallerException("no caller frame");
    return (Class<?>) c;
  }

  /** The walk of 'caller', all frames: from the frame of
   *  StackWalker.getCallerClass, the second frame the finder would not
   *  skip, or null. A failure of the filter is returned. */
  @Override
  public Object apply(Stream<StackWalker.StackFrame> s) {
    try {
      Iterator<StackWalker.StackFrame> it = s.iterator();
      boolean seen = false;
      while (!seen && it.hasNext()) {
        StackWalker.StackFrame f = it.next();
        seen = f.getDeclaringClass() == StackWalker.class
            && f.getMethodName().equals("getCallerClass");
      }
      StackWalker.StackFrame asks = null;
      while (it.hasNext()) {
        StackWalker.StackFrame f = it.next();
        Class<?> k = f.getDeclaringClass();
        if (skipped(k)) continue;
        if (asks == null) {
          asks = f;
          continue;
        }
        if (forwarding(f)) continue;
        if (callerSensitive(asks))       /* the JVM's refusal, as thrown */
          return new Object[] {new UnsupportedOperationException(
              "StackWalker::getCallerClass called from @CallerSensitive "
              + (Runtime.version().feature() >= 22
                 ? "[" + asks.getClassName() + "  caller sensitive, "
                   + k.getName() + " ]"
                 : "'" + external(asks) + "' method"))};
        return k;
      }
      return null;
    } catch (Throwable e) {
      return e;
    }
  }

  private static Class<?> sensitive;   /* @CallerSensitive, when looked up */

  /*
   * Whether the frame's method is @CallerSensitive to the JVM: annotated,
   * in a class of the boot or platform loader (a twin's frame stands for
   * its original).
   */
  private static boolean callerSensitive(StackWalker.StackFrame f) {
    Class<?> k = f.getDeclaringClass();
    ClassLoader l = k.getClassLoader();
    if (l != null && l.getParent() != null) return false;
    try {
      if (sensitive == null)
        sensitive = Class.forName("jdk.internal.reflect.CallerSensitive",
                                  false, null);
      return k.getDeclaredMethod(f.getMethodName(), params(f))
          .isAnnotationPresent(sensitive.asSubclass(
              java.lang.annotation.Annotation.class));
    } catch (ReflectiveOperationException e) {
      return false;
    }
  }

  /* the parameter types of the frame's method (a twin's without its node) */
  private static Class<?>[] params(StackWalker.StackFrame f) {
    Class<?>[] ps = f.getMethodType().parameterArray();
    int n = ps.length;
    if (n > 0 && ps[n - 1].getName().equals("cccp.rt.CC"))
      ps = java.util.Arrays.copyOf(ps, n - 1);
    return ps;
  }

  /* the frame's method as HotSpot names it: "R C.m(P1, P2)" */
  private static String external(StackWalker.StackFrame f) {
    StringBuilder b = new StringBuilder();
    b.append(f.getMethodType().returnType().getTypeName()).append(' ')
        .append(f.getClassName()).append('.').append(f.getMethodName())
        .append('(');
    Class<?>[] ps = params(f);
    for (int i = 0; i < ps.length; i++)
      b.append(i == 0 ? "" : ", ").append(ps[i].getTypeName());
    return b.append(')').toString();
  }

  /* whether the caller finder skips a frame of class 'k' */
  private static boolean skipped(Class<?> k) throws Throwable {
    if (jni) {
      try {
        return skipped0(k);
      } catch (UnsatisfiedLinkError e) {
        jni = false;
      }
    }
    if (!walk) walk();
    return (HIDDEN != null && (boolean) HIDDEN.invokeExact(k))
        || (boolean) REFLECT.invokeExact(k)
        || (boolean) HANDLE.invokeExact(k);
  }

  /** The stream filter: false for a forwarding frame. Called for each
   *  frame in order (the stream is sequential and ordered). */
  @Override
  public boolean test(StackWalker.StackFrame f) {
    try {
      return !forwarding(f);
    } catch (UnsupportedOperationException e) {
      return true;            /* a walk without method names (JDK 25) */
    } catch (Throwable e) {
      report(e);
      return true;
    }
  }

  /* 1 for the frame of a twin at its forwarding call, or of a
  ** delegating twin. */
  private static boolean forwarding(StackWalker.StackFrame f)
      throws Throwable {
    f.getMethodName();              /* a walk without method information */
    String d = descriptor(f);
    return d != null && d.contains(TWIN) && f.getLineNumber() == LINE;
  }

  /* The descriptor of the method of 'f', or null when the walk has no
  ** method information. In JDK 25 the frame holds the descriptor string
  ** once its name is known, and getDescriptor needs
  ** RETAIN_CLASS_REFERENCE and makes a MethodType, which loads every
  ** parameter type: read the string first. Loading there can fail (a
  ** ClassCircularityError when the walk runs while a loader that is not
  ** parallel capable loads one of them) and loads classes the program
  ** would load later, or never. */
  static String descriptor(StackWalker.StackFrame f)
      throws Throwable {
    Object t = null;
    if (jni) {
      try {
        f.getMethodName();                /* fills in name and type */
        t = type0(f);
      } catch (UnsatisfiedLinkError e) {
        jni = false;
      }
    }
    if (!jni) {
      if (!info) info();
      if (TYPE != null && f.getClass() == INFO) {
        f.getMethodName();                /* fills in name and type */
        t = (Object) TYPE.invokeExact((Object) f);
      }
    }
    if (t instanceof String) return (String) t;
    if (t instanceof MethodType)
      return ((MethodType) t).toMethodDescriptorString();
    try {
      return f.getDescriptor();
    } catch (UnsupportedOperationException e) {
      return null;
    }
  }

  /* Each of 'r' without forwarding frames. */
  static StackTraceElement[][] strip(StackTraceElement[][] r) {
    if (r != null)
      for (int i = 0; i < r.length; i++) r[i] = strip(r[i]);
    return r;
  }

  /* 'a' without forwarding frames ('a' itself when there are none). */
  static StackTraceElement[] strip(StackTraceElement[] a) {
    try {
      if (a == null) return a;
      int n = 0;
      for (int i = 1; i < a.length; i++)
        if (dropped(a, i)) n++;
      if (n == 0) return a;
      StackTraceElement[] r = new StackTraceElement[a.length - n];
      r[0] = a[0];
      for (int i = 1, k = 1; i < a.length; i++)
        if (!dropped(a, i)) r[k++] = a[i];
      return r;
    } catch (Throwable e) {
      report(e);
      return a;
    }
  }

  private static boolean dropped(StackTraceElement[] a, int i) {
    StackTraceElement e = a[i], callee = a[i - 1];
    if (e == null || e.getLineNumber() != LINE) return false;
    String m = e.getMethodName();
    if (callee != null && m.equals(callee.getMethodName())) return true;
    Predicate<String> app = APP;
    return app != null && app.test(e.getClassName() + '.' + m);
  }

  /* Once: the filter failed, stack walks show what the JDK made. */
  private static void report(Throwable e) {
    if (reported) return;
    reported = true;
    try {
      System.err.println("cccp: stack traces may show forwarding frames: "
                         + e);
    } catch (Throwable ignored) {
      /* nothing more to do */
    }
  }
}
