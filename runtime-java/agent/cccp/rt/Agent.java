/*
 * Agent.java -- the Java agent of cccp-rt.jar ("-javaagent:cccp-rt.jar",
 * in the argfile the rewriter writes): hides from reflection what the
 * rewriter adds to classes. Compiled for class version 55.
 */
package cccp.rt;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.lang.instrument.ClassFileTransformer;
import java.lang.instrument.Instrumentation;
import java.lang.invoke.MethodHandles;
import java.security.ProtectionDomain;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

/**
 * At start-up, before the main class loads:
 * 1. defines the reflection filter (class Hidden, renamed) in java.base as
 *    java.lang.CccpHidden, through a lookup on java.lang.Class (java.base
 *    opens java.lang to the runtime's module for this);
 * 2. retransforms java.lang.Class so that its three requests for declared
 *    members go through the filter (the calls of Reflection.filterMethods,
 *    Reflection.filterFields and getDeclaredConstructors0), and
 *    java.io.ObjectStreamClass so that a static initialiser the rewriter
 *    added does not enter the default serialVersionUID (PatchClass).
 * 3. defines the stack-walk filter (class Frames) as java.lang.CccpFrames
 *    and retransforms Throwable, Thread, StackWalker and
 *    StackStreamFactory$StackFrameTraverser so that the stack traces and
 *    walks they make leave out the frames of twins forwarding a call.
 * 4. retransforms java.lang.NullPointerException so that getMessage reads
 *    the VM's helpful message (JDK 14+) through the filter, which leaves
 *    out the parameter of the twins it names (Hidden.untwin).
 * Nothing else of the JDK is touched. A failure is reported on stderr and
 * leaves reflection, stack walks or messages as they are (the program
 * still runs).
 */
public final class Agent {
  static final String FILTER = "java/lang/CccpHidden";
  static final String FRAMES = "java/lang/CccpFrames";
  static final String STE = "[Ljava/lang/StackTraceElement;";
  static final String METHODS =
      "(Ljava/lang/Class;[Ljava/lang/reflect/Method;)[Ljava/lang/reflect/Method;";
  static final String FIELDS =
      "(Ljava/lang/Class;[Ljava/lang/reflect/Field;)[Ljava/lang/reflect/Field;";

  private Agent() {}

  public static void premain(String args, Instrumentation inst) {
    try {
      exports(inst);
    } catch (Throwable e) {
      /* then the profile is written by an application shutdown hook */
    }
    start(new InstHost(inst));
  }

  /**
   * The native agent's start (libcccp-agent.so, "boot" option), at VMInit
   * in the main thread, after it defined the runtime's classes in the boot
   * loader: premain's work without java.lang.instrument. -javaagent and
   * -Xbootclasspath/a turn off the archived module graph of class data
   * sharing, and the JDK then builds it at start-up, drawing identity
   * hashes on the main thread that the plain run does not draw. Nothing
   * here draws one. 'hidden' and 'frames': the class files of Hidden and
   * Frames, from the runtime's jar.
   */
  static void boot(byte[] hidden, byte[] frames) {
    start(new NativeHost(hidden, frames));
  }

  private static void start(Host h) {
    try {
      install(h);
    } catch (Throwable e) {
      System.err.println("cccp: reflection will show the members cccp adds: "
                         + e);
    }
    try {
      frames(h);
    } catch (Throwable e) {
      System.err.println("cccp: stack traces may show forwarding frames: "
                         + e);
    }
    try {
      messages(h);
    } catch (Throwable e) {
      System.err.println("cccp: messages of NullPointerExceptions may name "
                         + "cccp.rt.CC: " + e);
    }
  }

  /* What premain (java.lang.instrument) and the native agent (JVMTI and
  ** JNI, which check no module access) each do their own way. */
  private interface Host {
    /* java.base opens java.lang to the runtime */
    void open();

    /* defines the class file 'b' in java.base and initialises it */
    Class<?> define(byte[] b) throws Throwable;

    /* the class file of the agent's class 'name' */
    byte[] read(String name) throws IOException;

    /* sets static field 'name' of the filter 'c' to 'v' */
    void put(Class<?> c, String name, Class<?> type, Object v)
        throws Throwable;

    /* retransforms the boot classes named 'names' (internal names):
    ** 'patch' edits them */
    void retransform(String[] names) throws Throwable;
  }

  private static final class InstHost implements Host {
    private final Instrumentation inst;

    InstHost(Instrumentation inst) {
      this.inst = inst;
    }

    @Override
    public void open() {
      Module base = Class.class.getModule(), self = Agent.class.getModule();
      Map<String, Set<Module>> open =
          Collections.singletonMap("java.lang", Collections.singleton(self));
      inst.redefineModule(base, Collections.<Module>emptySet(),
                          Collections.<String, Set<Module>>emptyMap(), open,
                          Collections.<Class<?>>emptySet(),
                          Collections.<Class<?>, java.util.List<Class<?>>>emptyMap());
    }

    @Override
    public Class<?> define(byte[] b) throws Throwable {
      MethodHandles.Lookup l =
          MethodHandles.privateLookupIn(Class.class, MethodHandles.lookup());
      Class<?> c = l.defineClass(b);
      Class.forName(c.getName(), true, null);
      return c;
    }

    @Override
    public byte[] read(String name) throws IOException {
      return Agent.read(name + ".class");
    }

    @Override
    public void put(Class<?> c, String name, Class<?> type, Object v)
        throws Throwable {
      MethodHandles.privateLookupIn(Class.class, MethodHandles.lookup())
          .findStaticSetter(c, name, type).invoke(v);
    }

    @Override
    public void retransform(String[] names) throws Throwable {
      Class<?>[] cs = new Class<?>[names.length];
      for (int i = 0; i < names.length; i++)
        cs[i] = Class.forName(names[i].replace('/', '.'), false, null);
      ClassFileTransformer t = new ClassFileTransformer() {
        @Override
        public byte[] transform(Module m, ClassLoader loader, String name,
                                Class<?> redefined, ProtectionDomain pd,
                                byte[] b) {
          return loader == null ? patch(name, b) : null;
        }
      };
      inst.addTransformer(t, true);
      try {
        inst.retransformClasses(cs);
      } finally {
        inst.removeTransformer(t);
      }
    }
  }

  private static final class NativeHost implements Host {
    private final byte[] hidden, frames;

    NativeHost(byte[] hidden, byte[] frames) {
      this.hidden = hidden;
      this.frames = frames;
    }

    @Override
    public void open() {}

    @Override
    public Class<?> define(byte[] b) throws Throwable {
      Class<?> c = defineBoot(b);
      if (c == null) throw new IllegalStateException("not defined");
      Class.forName(c.getName(), true, null);
      return c;
    }

    @Override
    public byte[] read(String name) throws IOException {
      byte[] b = name.equals("cccp/rt/Hidden") ? hidden
          : name.equals("cccp/rt/Frames") ? frames : null;
      if (b == null) throw new IOException(name + " not given");
      return b;
    }

    @Override
    public void put(Class<?> c, String name, Class<?> type, Object v) {
      putStatic(c, name, "L" + type.getName().replace('.', '/') + ";", v);
    }

    @Override
    public void retransform(String[] names) throws Throwable {
      String[] later = retransformBoot(names);
      if (later == null) throw new IllegalStateException("RetransformClasses");
      /* not loaded yet: edited as they load (the agent's hook calls
      ** 'patch'), so that they are linked where the plain run links
      ** them (HotSpot hashes a class it links, on the linking thread) */
      for (String n : later) {
        PatchClass.Edit[] e = pending.remove(n);
        if (e != null) LATER.put(n, e);
      }
    }
  }

  /* The native agent's part (libcccp-agent.so; HotSpot finds a boot
  ** class's natives among the agent libraries' symbols): JNI DefineClass
  ** in the boot loader, then initialised; a static field set through
  ** JNI; JVMTI RetransformClasses, its hook calling 'patch'. */
  private static native Class<?> defineBoot(byte[] b);

  private static native void putStatic(Class<?> c, String name, String sig,
                                       Object v);

  /* retransforms the loaded ones of boot classes 'names'; the names of
  ** the others, which the agent's hook hands to 'patch' as they load;
  ** null when JVMTI refused */
  private static native String[] retransformBoot(String[] names);

  /* The edits of the retransformation under way, by class name, and why
  ** a class could not be edited. */
  private static Map<String, PatchClass.Edit[]> pending;
  private static final Map<String, String> failed = new HashMap<>();
  /* the edits of classes not loaded yet, by name */
  private static final Map<String, PatchClass.Edit[]> LATER =
      new java.util.concurrent.ConcurrentHashMap<>();

  /** 'b', the class file of boot class 'name', edited, or null. */
  static byte[] patch(String name, byte[] b) {
    PatchClass.Edit[] e = pending != null ? pending.get(name) : null;
    if (e == null) {
      e = LATER.remove(name);
      if (e == null) return null;
      try {
        return PatchClass.patch(b, e);
      } catch (Throwable x) {
        System.err.println("cccp: " + name + " left as it is: " + x);
        return null;
      }
    }
    try {
      byte[] r = PatchClass.patch(b, e);
      pending.remove(name);
      return r;
    } catch (Throwable x) {
      failed.put(name, x.toString());
      return null;
    }
  }

  /*
  ** Helpful NullPointerException messages (JDK 14 and later) name the
  ** methods of the failed call by their parameters, a twin's with the
  ** added cccp.rt.CC: getMessage reads the message through the filter.
  */
  static void messages(Host h) throws Throwable {
    if (Runtime.version().feature() < 14) return;
    final Map<String, PatchClass.Edit[]> edits = new HashMap<>();
    edits.put("java/lang/NullPointerException", new PatchClass.Edit[] {
        new PatchClass.Edit(
            "java/lang/NullPointerException.extendedMessage:Ljava/lang/String;",
            PatchClass.GETFIELD, "npeMessage",
            "(Ljava/lang/NullPointerException;)Ljava/lang/String;")});
    retransform(h, edits, "java/lang/NullPointerException");
  }

  /*
  ** java.base exports jdk.internal.access to the runtime, so that the dump
  ** at exit can be the JDK's last system shutdown hook, as in JDK mode
  ** (Slots.systemHook): it then runs after the application's hooks, and
  ** runs even when the heap is so full that the JDK cannot start them.
  */
  static void exports(Instrumentation inst) {
    Module base = Class.class.getModule(), self = Agent.class.getModule();
    inst.redefineModule(base, Collections.<Module>emptySet(),
                        Collections.singletonMap("jdk.internal.access",
                                                 Collections.singleton(self)),
                        Collections.<String, Set<Module>>emptyMap(),
                        Collections.<Class<?>>emptySet(),
                        Collections.<Class<?>, java.util.List<Class<?>>>emptyMap());
  }

  static void install(Host h) throws Throwable {
    h.open();
    define(h, "cccp/rt/Hidden", FILTER);
    final Map<String, PatchClass.Edit[]> edits = new HashMap<>();
    edits.put("java/lang/Class", new PatchClass.Edit[] {
        new PatchClass.Edit(
            "jdk/internal/reflect/Reflection.filterMethods:" + METHODS,
            PatchClass.INVOKESTATIC, "filterMethods", METHODS),
        new PatchClass.Edit(
            "jdk/internal/reflect/Reflection.filterFields:" + FIELDS,
            PatchClass.INVOKESTATIC, "filterFields", FIELDS),
        new PatchClass.Edit(
            "java/lang/Class.getDeclaredConstructors0:"
                + "(Z)[Ljava/lang/reflect/Constructor;",
            PatchClass.INVOKEVIRTUAL, "constructors",
            "(Ljava/lang/Class;Z)[Ljava/lang/reflect/Constructor;")});
    edits.put("java/io/ObjectStreamClass", new PatchClass.Edit[] {
        new PatchClass.Edit(
            "java/io/ObjectStreamClass.hasStaticInitializer:(Ljava/lang/Class;)Z",
            PatchClass.INVOKESTATIC, "hasStaticInitializer",
            "(Ljava/lang/Class;)Z")});
    retransform(h, edits, "java/lang/Class", "java/io/ObjectStreamClass");
  }

  /*
  ** The stack-walk filter: each place where the JDK makes the frames a
  ** program sees (JDK 17 and 25 differ, hence the alternatives).
  */
  static void frames(Host h) throws Throwable {
    Class<?> f = define(h, "cccp/rt/Frames", FRAMES);
    h.put(f, "APP", Predicate.class, new AppMethods());
    String traverser = "java/lang/StackStreamFactory$StackFrameTraverser";
    final Map<String, PatchClass.Edit[]> edits = new HashMap<>();
    edits.put("java/lang/Throwable", new PatchClass.Edit[] {
        /* getOurStackTrace: as in JDK 25, and as in JDK 17 */
        edit("java/lang/StackTraceElement.of:(Ljava/lang/Object;I)" + STE,
             PatchClass.INVOKESTATIC, "of", "(Ljava/lang/Object;I)" + STE,
             true),
        edit("java/lang/StackTraceElement.of:(Ljava/lang/Throwable;I)" + STE,
             PatchClass.INVOKESTATIC, "of",
             "(Ljava/lang/Throwable;I)" + STE, true)});
    edits.put("java/lang/Thread", new PatchClass.Edit[] {
        /* getAllStackTraces (and getStackTrace of another thread, JDK
        ** 17); getStackTrace of another thread (JDK 25) */
        edit("java/lang/Thread.dumpThreads:([Ljava/lang/Thread;)[" + STE,
             PatchClass.INVOKESTATIC, "dumpThreads",
             "([Ljava/lang/Thread;)[" + STE, false),
        edit("java/lang/StackTraceElement.of:(" + STE + ")" + STE,
             PatchClass.INVOKESTATIC, "of", "(" + STE + ")" + STE, true)});
    edits.put(traverser, new PatchClass.Edit[] {
        /* consumeFrames: the stream the walk's function gets */
        edit("java/util/function/Function.apply:"
                 + "(Ljava/lang/Object;)Ljava/lang/Object;",
             PatchClass.INVOKEINTERFACE, "apply",
             "(Ljava/util/function/Function;Ljava/lang/Object;)"
                 + "Ljava/lang/Object;", false)});
    edits.put("java/lang/StackWalker", new PatchClass.Edit[] {
        edit("java/lang/StackStreamFactory$CallerClassFinder.findCaller:"
                 + "()Ljava/lang/Class;",
             PatchClass.INVOKEVIRTUAL, "caller",
             "(Ljava/lang/Object;)Ljava/lang/Class;", false)});
    retransform(h, edits, "java/lang/Throwable", "java/lang/Thread",
                "java/lang/StackWalker", traverser);
  }

  /* The filter's question to the runtime: whether "class.method" is an
  ** instrumented method (the runtime and the agent share one loader). */
  static final class AppMethods implements Predicate<String> {
    @Override
    public boolean test(String method) {
      return CC.Registry.app(method);
    }
  }

  /* Defines the agent's class 'from' in java.base under the name 'to'
  ** (package java.lang) and initialises it. */
  private static Class<?> define(Host h, String from, String to)
      throws Throwable {
    return h.define(rename(h.read(from), from, to));
  }

  private static PatchClass.Edit edit(String ref, int op, String name,
                                      String desc, boolean optional) {
    return new PatchClass.Edit(FRAMES, ref, op, name, desc, optional);
  }

  /* Apply 'edits' (by class name) to boot classes 'cs'; an exception
  ** names the classes that could not be patched (they stay as they are). */
  private static void retransform(Host h,
                                  final Map<String, PatchClass.Edit[]> edits,
                                  String... names) throws Throwable {
    failed.clear();
    pending = edits;
    try {
      h.retransform(names);
    } finally {
      pending = null;
    }
    if (!edits.isEmpty())
      throw new IllegalStateException("not patched: " + edits.keySet() + " "
                                      + failed);
  }

  private static byte[] read(String res) throws IOException {
    InputStream in = Agent.class.getClassLoader() == null
        ? ClassLoader.getSystemResourceAsStream(res)
        : Agent.class.getClassLoader().getResourceAsStream(res);
    if (in == null) in = Object.class.getResourceAsStream("/" + res);
    if (in == null) throw new IOException(res + " not found");
    try {
      return in.readAllBytes();
    } finally {
      in.close();
    }
  }

  /* 'b' with every CONSTANT_Utf8 equal to 'from' replaced by 'to', and
  ** every "Lfrom;" in descriptors by "Lto;". */
  static byte[] rename(byte[] b, String from, String to) throws IOException {
    ClassBytes c = new ClassBytes(b);
    ByteArrayOutputStream o = new ByteArrayOutputStream(b.length + 64);
    o.write(b, 0, 10);
    for (int i = 1; i < c.count; i++) {
      int p = c.off[i];
      if (p == 0) continue;
      String u = b[p] == 1 ? c.utf8(i) : null;
      if (u != null && (u.equals(from) || u.contains("L" + from + ";"))) {
        o.write(1);
        ClassBytes.utf(o, u.equals(from) ? to
               : u.replace("L" + from + ";", "L" + to + ";"));
      } else {
        o.write(b, p, c.end(i) - p);
      }
    }
    o.write(b, c.poolEnd, b.length - c.poolEnd);
    return o.toByteArray();
  }
}
