/*
 * Select.java -- which method a virtual or interface call into a library
 * really runs, so that the node an application call site makes for it
 * names that method (ArrayList.sort, not the List.sort the bytecode
 * names). Compiled for class version 52, never instrumented.
 */
package cccp.rt;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;

/**
 * Method selection (JVMS 5.4.6) by reflection, cached per symbolic method
 * id and receiver class. The answer is the id of the selected method
 * (negated when it is a leaf, see 'leaf'), or 0 when the call site must
 * not make a node: the selected method belongs
 * to an instrumented class (its own entry makes the node from the
 * thread-local slot) or to a class generated at run time (lambda and
 * proxy classes: their frames are not shown; what they call lands under
 * the caller).
 */
final class Select {
  /**
   * Cached answers for one symbolic id: receiver class 'k0' gives 'v0'
   * (the selected method id for 'enterv', 1 or -1 for 'owns'), 'k1' gives
   * 'v1', ...: the last class added first, 'n' classes, at most CHAIN.
   * One object, so that a lookup reads one or two cache lines and no
   * chain of objects scattered in the heap. Immutable (final fields), so
   * published without locks; a new class makes a new Hit.
   */
  static final class Hit {
    final Class<?> k0, k1, k2, k3;
    final int v0, v1, v2, v3;
    final int n;

    /** 'k' gives 'v', then the classes of 'h' (null: none). */
    Hit(Class<?> k, int v, Hit h) {
      k0 = k;
      v0 = v;
      if (h == null) {
        k1 = k2 = k3 = null;
        v1 = v2 = v3 = 0;
        n = 1;
      } else {
        k1 = h.k0;
        v1 = h.v0;
        k2 = h.k1;
        v2 = h.v1;
        k3 = h.k2;
        v3 = h.v2;
        n = h.n + 1;
      }
    }
  }

  /**
   * Receiver classes a call site's Hit remembers. A polymorphic site of
   * a few classes (the common case: 2 to 4) then finds its answer in a
   * few compares; past CHAIN classes the answer comes from the receiver
   * class's table ('PER_CLASS'), without allocating or locking.
   */
  static final int CHAIN = 4;      // Hit's k0..k3

  /** 'enterv': the Hit per symbolic id. Grown under the class lock. */
  static volatile Hit[] last = new Hit[256];
  /** 'owns': the Hit per original method id. Grown under the class lock. */
  static volatile Hit[] owned = new Hit[256];

  private Select() {}

  /**
   * Every answer for one receiver class: key (mid << 1 | 1 for the owner
   * check, 0 for selection) to value, in an open-addressing table that is
   * replaced, never changed, once published (readers take no lock).
   */
  static final class Answers {
    private volatile long[] tab = new long[8];   // key << 32 | value, 0 empty

    /** The value for 'key', or NONE. */
    int get(int key) {
      long[] t = tab;
      int mask = t.length - 1;
      long e;
      for (int i = (key * 0x9E3779B9 >>> 7) & mask; (e = t[i]) != 0;
           i = (i + 1) & mask)
        if ((int) (e >>> 32) == key) return (int) e;
      return NONE;
    }

    synchronized void put(int key, int val) {
      if (get(key) != NONE) return;
      long[] o = tab;
      int n = 0;
      for (long e : o)
        if (e != 0) n++;
      long[] t = new long[(n + 1) * 2 > o.length ? o.length * 2 : o.length];
      for (long e : o)
        if (e != 0) insert(t, e);
      insert(t, ((long) key << 32) | (val & 0xffffffffL));
      tab = t;
    }

    private static void insert(long[] t, long e) {
      int mask = t.length - 1;
      int i = ((int) (e >>> 32) * 0x9E3779B9 >>> 7) & mask;
      while (t[i] != 0) i = (i + 1) & mask;
      t[i] = e;
    }
  }

  static final PerClass<Answers> PER_CLASS = new PerClass<Answers>() {
    @Override
    protected Answers compute(Class<?> k) {
      return new Answers();
    }
  };

  /** No answer cached. */
  static final int NONE = Integer.MIN_VALUE;

  /*
   * Answers past the Hits, for call sites of more receiver classes than a
   * Hit keeps (JDK mode: HashMap.hash's key.hashCode(), equals): a
   * direct-mapped cache of (key, class) -> value, keys as in Answers.
   * Lossy: a colliding answer replaces the one there, and the class's
   * table ('PER_CLASS') still has it. Cheaper than PerClass.get, which
   * in JDK mode is instrumented JDK code, run with the slot cleared.
   * Entries are immutable (final fields), so
   * the array is read and written without locks; it holds at most
   * MEMO.length classes at any time.
   */
  static final class Memo {
    final Class<?> k;
    final int key, v;

    Memo(Class<?> k, int key, int v) {
      this.k = k;
      this.key = key;
      this.v = v;
    }
  }

  private static final Memo[] MEMO = new Memo[1 << 12];

  /* App mode: by the class's name, never its identity hash: drawn here,
  ** on the program's thread, it would move every identity hash the
  ** thread draws later (PerClass). JDK mode: Object.hashCode of a Class,
  ** the identity hash (an intrinsic; Class does not override it),
  ** nothing of the instrumented JDK. */
  private static int at(int key, Class<?> k) {
    int h = Slots.JDK ? k.hashCode() : k.getName().hashCode();
    return (h + key * 0x9E3779B9) >>> 20;
  }

  /** The answer for 'key' and class 'k' in the memo, or NONE. */
  static int memo(int key, Class<?> k) {
    Memo e = MEMO[at(key, k)];
    return e != null && e.k == k && e.key == key ? e.v : NONE;
  }

  private static void memo(int key, Class<?> k, int v) {
    MEMO[at(key, k)] = new Memo(k, key, v);
  }

  /**
   * The value 'h' holds for class 'k', or NONE. Inlined into the call
   * sites of 'enterv' and 'owns': a monomorphic site pays one compare, a
   * site of up to CHAIN classes a few more, in one object.
   */
  static int cached(Hit h, Class<?> k) {
    if (h == null) return NONE;
    if (h.k0 == k) return h.v0;
    if (h.k1 == k) return h.v1;
    if (h.k2 == k) return h.v2;
    if (h.k3 == k) return h.v3;
    return NONE;
  }

  /**
   * Remember 'val' for ('mid', 'k') in the Hit of 'mid' in 'l' (while it
   * is shorter than CHAIN); returns the array, grown if needed. Under the
   * class lock.
   */
  private static Hit[] remember(Hit[] l, int mid, Class<?> k, int val) {
    if (mid >= l.length) {
      int n = l.length;
      while (n <= mid) n *= 2;
      l = java.util.Arrays.copyOf(l, n);
    }
    Hit h = l[mid];
    if (cached(h, k) == NONE && (h == null || h.n < CHAIN))
      l[mid] = new Hit(k, val, h);
    return l;
  }

  /**
   * The owner check when the Hit of 'mid' does not know 'k': the class's
   * table, else decided by reflection ('owns'); remembered in the Hit.
   * Undecided (the heap is full): the original call, as when reflection
   * fails. Never inlined (a miss path: CC.find).
   */
  @jdk.internal.vm.annotation.DontInline
  static boolean ownsMiss(int mid, Class<?> k) {
    return miss(mid, k, true) > 0;
  }

  /**
   * Selection when the Hit of 'mid' does not know 'k': the class's table,
   * else by reflection ('of'); remembered in the Hit. Undecided (the heap
   * is full): the symbolic method, as when reflection fails ('resolve').
   * Never inlined (a miss path: CC.find).
   */
  @jdk.internal.vm.annotation.DontInline
  static int selectMiss(int mid, Class<?> k) {
    int r = miss(mid, k, false);
    return r == NONE ? mid : r;
  }

  /*
   * The answer of an owner check ('owns') or a selection for 'mid' and
   * 'k', decided with the slot cleared, memoized and remembered; NONE
   * when the heap has no room to decide. The program's own
   * OutOfMemoryError never escapes from here: the call it would strike
   * does not allocate in the original.
   */
  private static int miss(int mid, Class<?> k, boolean owns) {
    int key = mid << 1 | (owns ? 1 : 0), r = NONE;
    try {
      r = PER_CLASS.get(k).get(key);
      if (r == NONE) {
        CC prev = CC.set(null);
        try {
          r = owns ? Priv.owns(mid, k) : Priv.of(mid, k);
        } finally {
          CC.set(prev);
        }
      }
      memo(key, k, r);
      Hit[] l = owns ? owned : last;
      if (mid >= l.length || l[mid] == null || l[mid].n < CHAIN)
        synchronized (Select.class) {
          if (owns) owned = remember(owned, mid, k, r);
          else last = remember(last, mid, k, r);
        }
    } catch (OutOfMemoryError e) {
      /* undecided */
    }
    return r;
  }

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
      Decl m = select(k, name, desc);
      yes = m != null && m.owner.getName().replace('.', '/').equals(cls);
    } catch (Throwable e) {
      yes = false;
    }
    int r = yes ? 1 : -1;
    PER_CLASS.get(k).put(mid << 1 | 1, r);
    return r;
  }

  /**
   * The selected method id for symbolic id 'mid' and receiver class 'k',
   * decided by reflection and kept in the class's table. Decided under no
   * lock (threads that race decide the same): reflection loads classes,
   * and a thread that holds a lock of ours while it waits for a class
   * loader's would deadlock with a rewritten loader that makes a call
   * here, or, a virtual thread, unmount holding it.
   */
  static int of(int mid, Class<?> k) {
    Answers a = PER_CLASS.get(k);
    int r = a.get(mid << 1);
    if (r != NONE) return r;
    r = resolve(mid, k);
    a.put(mid << 1, r);
    return a.get(mid << 1);             // the first answer kept
  }

  /* Selection proper; errors and odd cases keep the symbolic method. */
  private static int resolve(int mid, Class<?> k) {
    String name = CC.Registry.name(mid);
    String desc = CC.Registry.desc(mid);
    Decl m;
    try {
      m = select(k, name, desc);
    } catch (Throwable e) {           // linkage trouble: keep the symbol
      return mid;
    }
    if (m == null) return mid;
    Class<?> d = m.owner;
    if (generated(d) || instrumented(d)) return 0;
    String cls = d.getName().replace('.', '/');
    /* the colour of the method the call names, which the rewrite chose
    ** for the node that makes the call (see CC.register) */
    int id = CC.Registry.register(cls, name, desc, 0,
                                  (Modifier.isNative(m.mod) ? 3 : 2)
                                  | ((mid & 7) + 1) << 4);
    return leaf(d, cls, name, desc) ? -id : id;
  }

  /**
   * Whether the method 'name' 'desc' that class 'd' ('cls') declares is a
   * leaf: a method of the JDK that runs no instrumented code, by the
   * rewriter's analysis of the JDK it rewrote against. The rewriter
   * writes those a virtual call of the program may select to the file
   * that the system property cccp.leaves names (its first line names
   * that JDK's build: on another JDK nothing is a leaf). A JDK class is
   * one of the boot or the platform loader: other loaders may load
   * instrumented classes of the same name.
   */
  static boolean leaf(Class<?> d, String cls, String name, String desc) {
    if (Leaves.SET.isEmpty()) return false;
    ClassLoader l = d.getClassLoader();
    return (l == null || l == Leaves.PLATFORM)
           && Leaves.SET.contains(cls + '.' + name + desc);
  }

  /** The leaves of cccp.leaves, read at the first selection that asks. */
  static final class Leaves {
    static final java.util.Set<String> SET = read();
    /** The platform class loader (JDK 9+; JDK 8's extension loader). Only
     *  with leaves: never while the system loader is being made. */
    static final ClassLoader PLATFORM =
        SET.isEmpty() ? null : ClassLoader.getSystemClassLoader().getParent();

    /*
     * Lines "class.name descriptor" after the header, "cccp-leaves 1
     * BUILD"; an empty set when there is no file, it cannot be read, or
     * BUILD is not this JVM's java.runtime.version.
     */
    private static java.util.Set<String> read() {
      java.util.HashSet<String> s = new java.util.HashSet<String>();
      String f = System.getProperty("cccp.leaves");
      if (f == null) return s;
      String text;
      try {
        text = new String(bytes(f), "UTF-8");
      } catch (java.io.IOException | RuntimeException e) {
        return s;                       // publish at every site, as before
      }
      String want = "cccp-leaves 1 " + System.getProperty("java.runtime.version");
      int at = 0;
      for (int line = 0; at < text.length(); line++) {
        int nl = text.indexOf('\n', at);
        if (nl < 0) nl = text.length();
        String t = text.substring(at, nl);
        at = nl + 1;
        if (line == 0 && !t.equals(want)) return s;
        if (line > 0 && !t.isEmpty()) s.add(t);
      }
      return s;
    }

    /* The file's bytes, read with the classes the JVM has linked at
    ** start-up: a reader's classes would be linked here, on the
    ** program's thread, and HotSpot draws an identity hash for each
    ** class it links (Verifier::verify), moving the thread's hashes. */
    private static byte[] bytes(String f) throws java.io.IOException {
      java.io.FileInputStream in = new java.io.FileInputStream(f);
      try {
        byte[] b = new byte[8192];
        int n = 0;
        for (int r; (r = in.read(b, n, b.length - n)) > 0;) {
          n += r;
          if (n == b.length) b = java.util.Arrays.copyOf(b, b.length * 2);
        }
        return java.util.Arrays.copyOf(b, n);
      } finally {
        in.close();
      }
    }
  }

  /**
   * JVMS 5.4.6 for a receiver of class 'k': the first declaration in the
   * superclass chain that is neither static nor private, else the one
   * non-abstract interface method that no other candidate's interface
   * overrides (maximally specific). Null when nothing fits.
   */
  static Decl select(Class<?> k, String name, String desc) {
    for (Class<?> c = k; c != null; c = c.getSuperclass()) {
      Decl m = declared(c, name, desc);
      if (m != null) {
        if (!Modifier.isStatic(m.mod) && !Modifier.isPrivate(m.mod))
          return Modifier.isAbstract(m.mod) ? null : m;
      }
    }
    ArrayList<Decl> cand = new ArrayList<Decl>();
    for (Class<?> c = k; c != null; c = c.getSuperclass())
      defaults(c, name, desc, cand);
    Decl best = null;
    for (Decl m : cand) {
      if (Modifier.isAbstract(m.mod)) continue;
      boolean shadowed = false;
      for (Decl o : cand)
        if (o != m && m.owner.isAssignableFrom(o.owner) && o.owner != m.owner)
          shadowed = true;
      if (shadowed) continue;
      if (best != null) return null;  // ambiguous: the JVM throws
      best = m;
    }
    return best;
  }

  /* Matching instance methods of every superinterface of 'c'. */
  private static void defaults(Class<?> c, String name, String desc,
                               ArrayList<Decl> out) {
    for (Class<?> i : c.getInterfaces()) {
      Decl m = declared(i, name, desc);
      if (m != null && !Modifier.isStatic(m.mod) && !Modifier.isPrivate(m.mod)
          && !has(out, i))
        out.add(m);
      defaults(i, name, desc, out);
    }
  }

  private static boolean has(ArrayList<Decl> l, Class<?> owner) {
    for (Decl d : l)
      if (d.owner == owner) return true;
    return false;
  }

  /** A method 'select' found: the class declaring it, its access flags. */
  static final class Decl {
    final Class<?> owner;
    final int mod;

    Decl(Class<?> owner, int mod) {
      this.owner = owner;
      this.mod = mod;
    }
  }

  /*
   * The method 'name' 'desc' that 'c' declares, or null. From the class's
   * file where a loader other than the boot loader read it from a jar or
   * folder: reflection would resolve the parameter and return types of
   * every method of the class, asking its loader for classes the program
   * would ask for later, in its own context, or never.
   */
  private static Decl declared(Class<?> c, String name, String desc) {
    Table t = c.getClassLoader() != null ? TABLES.get(c) : NO_TABLE;
    if (t != NO_TABLE) {
      for (int i = 0; i < t.mod.length; i++)
        if (t.name[i].equals(name) && t.desc[i].equals(desc))
          return new Decl(c, t.mod[i]);
      return null;
    }
    for (Method m : c.getDeclaredMethods())
      if (m.getName().equals(name) && descriptor(m).equals(desc))
        return new Decl(c, m.getModifiers());
    return null;
  }

  /** The methods a class file declares: names, descriptors, flags. */
  static final class Table {
    final String[] name;
    final String[] desc;
    final int[] mod;

    Table(int n) {
      name = new String[n];
      desc = new String[n];
      mod = new int[n];
    }
  }

  /* No class file to read: reflection decides. */
  private static final Table NO_TABLE = new Table(0);

  private static final PerClass<Table> TABLES = new PerClass<Table>() {
    @Override
    protected Table compute(Class<?> c) {
      if (twinsNative) {
        try {
          Object[] m = declared(c);
          if (m != null) {
            String[] nd = (String[]) m[0];
            int[] mod = (int[]) m[1];
            Table t = new Table(mod.length);
            for (int i = 0; i < mod.length; i++) {
              t.name[i] = nd[2 * i];
              t.desc[i] = nd[2 * i + 1];
              t.mod[i] = mod[i];
            }
            return t;
          }
        } catch (UnsatisfiedLinkError e) {
          twinsNative = false;        // no native agent: the class file
        }
      }
      byte[] b = classFile(c, false);
      if (b == null) return NO_TABLE;
      try {
        return methods(b);
      } catch (java.io.IOException | RuntimeException e) {
        return NO_TABLE;
      }
    }
  };

  /* The method table of class file 'b' (JVMS 4.1; 4.4 for the pool). */
  static Table methods(byte[] b) throws java.io.IOException {
    java.io.DataInputStream in =
        new java.io.DataInputStream(new java.io.ByteArrayInputStream(b));
    if (in.readInt() != 0xCAFEBABE) throw new java.io.IOException("magic");
    in.readInt();                       // minor, major
    int n = in.readUnsignedShort();
    String[] utf = new String[n];
    for (int i = 1; i < n; i++) {
      int tag = in.readUnsignedByte();
      switch (tag) {
      case 1: utf[i] = in.readUTF(); break;
      case 7: case 8: case 16: case 19: case 20: skip(in, 2); break;
      case 15: skip(in, 3); break;
      case 3: case 4: case 9: case 10: case 11: case 12: case 17: case 18:
        skip(in, 4); break;
      case 5: case 6: skip(in, 8); i++; break;
      default: throw new java.io.IOException("constant tag " + tag);
      }
    }
    skip(in, 6);                        // access, this, super
    skip(in, 2 * in.readUnsignedShort());
    for (int i = in.readUnsignedShort(); i > 0; i--) {   // fields
      skip(in, 6);
      attributes(in);
    }
    int m = in.readUnsignedShort();
    Table t = new Table(m);
    for (int i = 0; i < m; i++) {
      t.mod[i] = in.readUnsignedShort();
      t.name[i] = utf[in.readUnsignedShort()];
      t.desc[i] = utf[in.readUnsignedShort()];
      attributes(in);
      if (t.name[i] == null || t.desc[i] == null)
        throw new java.io.IOException("method name");
    }
    return t;
  }

  private static void attributes(java.io.DataInputStream in)
      throws java.io.IOException {
    for (int i = in.readUnsignedShort(); i > 0; i--) {
      skip(in, 2);
      skip(in, in.readInt() & 0xFFFFFFFFL);
    }
  }

  private static void skip(java.io.DataInputStream in, long n)
      throws java.io.IOException {
    while (n > 0) {
      long k = in.skip(n);
      if (k <= 0) throw new java.io.EOFException();
      n -= k;
    }
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

  /** A class made at run time: hidden or VM-anonymous, or a proxy (by
   *  its superclass: Proxy.isProxyClass would link java.lang.reflect.Proxy
   *  on the program's thread, see Leaves.bytes). */
  static boolean generated(Class<?> c) {
    if (c.getName().indexOf('/') >= 0) return true;
    Class<?> s = c.getSuperclass();
    return s != null && s.getName().equals("java.lang.reflect.Proxy");
  }

  /**
   * A class the rewriter instrumented: its class file names cccp.rt.CC.
   * Read from the class's loader, once per class: reflection does not show
   * what the rewriter adds (the agent hides it), and a class made at run
   * time has no class file (it was not instrumented).
   */
  static boolean instrumented(Class<?> c) {
    int j = Slots.jdkClass(c);
    if (j >= 0) return j > 0;
    return INSTRUMENTED.get(c).booleanValue();
  }

  private static final PerClass<Boolean> INSTRUMENTED =
      new PerClass<Boolean>() {
        @Override
        protected Boolean compute(Class<?> c) {
          return Boolean.valueOf(namesRuntime(c));
        }
      };

  private static final byte[] CC_NAME = "cccp/rt/CC".getBytes();

  /* Whether the native agent answers 'twins' (false once it did not). */
  private static volatile boolean twinsNative = true;

  /* 1: class 'c' declares a twin, 0: it does not, -1: undecided (the
   * native agent, libcccp-agent.so). */
  private static native int twins(Class<?> c);

  /* The methods class 'c' declares as the JVM has them (the native agent:
   * JVMTI, which reads no file and loads no class): {names and
   * descriptors, two per method; access flags}, or null when it cannot
   * tell. Reading the class file instead opens zip streams on the
   * program's thread, and the JDK hashes each by identity. */
  private static native Object[] declared(Class<?> c);

  /* The jars class files were read from, open (a few; kept for the run). */
  private static final java.util.HashMap<java.io.File, java.util.jar.JarFile>
      JARS = new java.util.HashMap<java.io.File, java.util.jar.JarFile>();

  /*
   * Entry 'res' of the jar or folder class 'c' came from (its code source),
   * or null. Read directly: a class loader's getResource asks every module
   * of the loaders above it first, which makes the JDK create and cache a
   * reader per module, work the program would do later, in its own
   * context, or never.
   */
  private static java.io.InputStream fromCodeSource(Class<?> c, String res) {
    try {
      java.security.CodeSource cs = c.getProtectionDomain().getCodeSource();
      java.net.URL u = cs != null ? cs.getLocation() : null;
      if (u == null || !"file".equals(u.getProtocol())) return null;
      java.io.File f = new java.io.File(u.toURI());
      if (f.isDirectory()) {
        java.io.File e = new java.io.File(f, res);
        return e.isFile() ? new java.io.FileInputStream(e) : null;
      }
      /* opened under no lock (see 'of'); the loser of a race closes its */
      java.util.jar.JarFile j, o;
      synchronized (JARS) {
        j = JARS.get(f);
      }
      if (j == null) {
        o = new java.util.jar.JarFile(f, false);
        synchronized (JARS) {
          j = JARS.get(f);
          if (j == null) JARS.put(f, j = o);
        }
        if (j != o) o.close();
      }
      java.util.zip.ZipEntry e = j.getEntry(res);
      return e != null ? j.getInputStream(e) : null;
    } catch (Exception e) {
      return null;                // the loader then
    }
  }

  /*
   * Whether class 'c' is instrumented: it declares a twin (asked of the
   * native agent, which sees classes instrumented as they loaded too),
   * else its class file names the runtime.
   */
  private static boolean namesRuntime(Class<?> c) {
    if (twinsNative) {
      try {
        int t = twins(c);
        if (t >= 0) return t > 0;
      } catch (UnsatisfiedLinkError e) {
        twinsNative = false;        // no native agent: the class file
      }
    }
    byte[] b = classFile(c, true);
    if (b == null) return false;
    outer:
    for (int i = 0; i + CC_NAME.length <= b.length; i++) {
      for (int k = 0; k < CC_NAME.length; k++)
        if (b[i + k] != CC_NAME[k]) continue outer;
      return true;
    }
    return false;
  }

  /*
   * The class file of 'c' from its code source, else (when 'loader') from
   * its loader; null when there is none.
   */
  private static byte[] classFile(Class<?> c, boolean loader) {
    String res = c.getName().replace('.', '/') + ".class";
    ClassLoader l = c.getClassLoader();
    java.io.InputStream in = null;
    try {
      in = fromCodeSource(c, res);
      if (in == null && loader)
        in = l != null ? l.getResourceAsStream(res)
                       : ClassLoader.getSystemResourceAsStream(res);
      if (in == null) return null;
      java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
      byte[] buf = new byte[8192];
      for (int n; (n = in.read(buf)) > 0;) out.write(buf, 0, n);
      return out.toByteArray();
    } catch (java.io.IOException e) {
      return null;
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
