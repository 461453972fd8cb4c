/* MicroKernels -- one kernel per instrumentation protocol, for bench/micro.
 *
 * These classes are compiled into a jar that bench/micro runs as it is
 * (plain) and rewritten by cccp-rewrite with default options
 * (instrumented). Each kernel's run(n) makes n calls of the protocol it
 * measures (a loop in the kernel, itself instrumented, except for the N2B
 * kernels, whose loop is in the JDK) and returns a checksum that the driver
 * keeps, so that the JIT cannot drop the work. Every kernel has classes of
 * its own: no call site or receiver type profile is shared between two
 * kernels. The callees are small and inlinable, as most hot callees are;
 * the instrumented-minus-plain difference is then the protocol's cost.
 */
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedList;
import java.util.function.IntUnaryOperator;

/** A kernel: 'run(n)' makes 'n' calls of one protocol. */
abstract class Kernel {
  abstract long run(int n);
  /** Calls of the protocol that one 'run(n)' makes (default n). */
  long calls(int n) {
    return n;
  }

  static final String[] NAMES = {
    "esi-static", "esi-final", "esi-alt2", "esi-alt12", "esi-loop",
    "n2b-lambda", "n2b-sort",
    "tl-hashcode",
    "lib-static", "lib-virt1", "lib-virt2", "lib-virt4",
    "owns1", "owns2", "owns4",
  };

  /** The kernel named 'name' (one of NAMES). */
  static Kernel of(String name) {
    switch (name) {
      case "esi-static": return new EsiStatic();
      case "esi-final": return new EsiFinal();
      case "esi-alt2": return new EsiAlt2();
      case "esi-alt12": return new EsiAlt12();
      case "esi-loop": return new EsiLoop();
      case "n2b-lambda": return new N2bLambda();
      case "n2b-sort": return new N2bSort();
      case "tl-hashcode": return new TlHashCode();
      case "lib-static": return new LibStatic();
      case "lib-virt1": return new LibVirt(1);
      case "lib-virt2": return new LibVirt(2);
      case "lib-virt4": return new LibVirt(4);
      case "owns1": return Owns.make(1);
      case "owns2": return Owns.make(2);
      case "owns4": return Owns.make(4);
      default: throw new IllegalArgumentException("no kernel " + name);
    }
  }
}

/* (a) ESI: a static call between instrumented methods. */
final class EsiStatic extends Kernel {
  static int f(int x) {
    return x * 31 + 7;
  }

  long run(int n) {
    long s = 0;
    for (int i = 0; i < n; i++) s += f(i);
    return s;
  }
}

/* (a) ESI: a virtual call of a final method (no owner check). */
final class EsiFinal extends Kernel {
  static final class Box {
    int v;
    final int f(int x) {
      return v += x;
    }
  }

  final Box b = new Box();

  long run(int n) {
    long s = 0;
    Box b = this.b;
    for (int i = 0; i < n; i++) s += b.f(i);
    return s;
  }
}

/* (a) ESI, two callees in turn: the caller's node alternates between two
 * children (the one-entry child cache of the runtime misses every call). */
final class EsiAlt2 extends Kernel {
  static int f(int x) {
    return x * 31 + 7;
  }

  static int g(int x) {
    return x * 17 + 3;
  }

  long run(int n) {
    long s = 0;
    for (int i = 0; i < n; i += 2) s += f(i) + g(i);
    return s;
  }

  long calls(int n) {
    return (n + 1) / 2 * 2;
  }
}

/* (a) ESI in a loop over a field's array: plain code loads the field and
 * the array's length once, before the loop, and needs no range check. */
final class EsiLoop extends Kernel {
  int[] a = new int[4096];
  {
    for (int i = 0; i < a.length; i++) a[i] = i * 7;
  }

  static int f(int x) {
    return x * 31 + 7;
  }

  long run(int n) {
    long s = 0;
    for (int k = 0; k < n; k += 4096)
      for (int i = 0; i < a.length; i++) s += f(a[i]);
    return s;
  }

  long calls(int n) {
    return (n + 4095) / 4096 * 4096L;
  }
}

/* (a) ESI, twelve callees in turn: a node with more than 8 children. */
final class EsiAlt12 extends Kernel {
  static int f0(int x) { return x + 1; }
  static int f1(int x) { return x + 2; }
  static int f2(int x) { return x + 3; }
  static int f3(int x) { return x + 4; }
  static int f4(int x) { return x + 5; }
  static int f5(int x) { return x + 6; }
  static int f6(int x) { return x + 7; }
  static int f7(int x) { return x + 8; }
  static int f8(int x) { return x + 9; }
  static int f9(int x) { return x + 10; }
  static int f10(int x) { return x + 11; }
  static int f11(int x) { return x + 12; }

  long run(int n) {
    long s = 0;
    for (int i = 0; i < n; i += 12)
      s += f0(i) + f1(i) + f2(i) + f3(i) + f4(i) + f5(i) + f6(i) + f7(i)
           + f8(i) + f9(i) + f10(i) + f11(i);
    return s;
  }

  long calls(int n) {
    return (n + 11) / 12 * 12;
  }
}

/* (b) N2B: the JDK (Arrays.setAll, uninstrumented) calls an instrumented
 * IntUnaryOperator, whose original method is the N2B wrapper. */
final class N2bLambda extends Kernel {
  static final class Op implements IntUnaryOperator {
    int k = 3;
    public int applyAsInt(int x) {
      return x * k + 1;
    }
  }

  final int[] a = new int[1024];
  final Op op = new Op();

  long run(int n) {
    long s = 0;
    for (int done = 0; done < n; done += a.length) {
      Arrays.setAll(a, op);
      s += a[done & 1023];
    }
    return s;
  }

  long calls(int n) {
    return (n + 1023) / 1024 * 1024L;
  }
}

/* (b) N2B: List.sort (JDK) calls an instrumented Comparator. */
final class N2bSort extends Kernel {
  static final class Cmp implements Comparator<Integer> {
    public int compare(Integer x, Integer y) {
      return Integer.compare(x.intValue(), y.intValue());
    }
  }

  final Integer[] in = new Integer[256];
  final Integer[] a = new Integer[256];
  final Cmp cmp = new Cmp();
  final long perSort;

  N2bSort() {
    long x = 12345;
    for (int i = 0; i < in.length; i++) {
      x = x * 6364136223846793005L + 1442695040888963407L;
      in[i] = Integer.valueOf((int) (x >>> 40));
    }
    final long[] count = {0};
    Integer[] b = in.clone();
    Arrays.sort(b, (p, q) -> {
      count[0]++;
      return Integer.compare(p.intValue(), q.intValue());
    });
    perSort = count[0];
  }

  long run(int n) {
    long s = 0;
    for (long done = 0; done < n; done += perSort) {
      System.arraycopy(in, 0, a, 0, in.length);
      Arrays.sort(a, cmp);
      s += a[7].intValue();
    }
    return s;
  }

  long calls(int n) {
    return (n + perSort - 1) / perSort * perSort;
  }
}

/* (c) The thread-local protocol: a call site whose target may be a
 * non-overloadable method (an override of Object.hashCode). */
final class TlHashCode extends Kernel {
  static final class Key {
    final int v;
    Key(int v) {
      this.v = v;
    }
    @Override
    public int hashCode() {
      return v * 31;
    }
  }

  final Object k = new Key(5);

  long run(int n) {
    long s = 0;
    Object k = this.k;
    for (int i = 0; i < n; i++) s += k.hashCode() + i;
    return s;
  }
}

/* (d) A library call site, static: a call of a JDK static method. */
final class LibStatic extends Kernel {
  long run(int n) {
    long s = 0;
    for (int i = 0; i < n; i++) s += Integer.rotateLeft(i, 5);
    return s;
  }
}

/* (d) A library call site, virtual (CC.enterv): Collection.size on 1, 2
 * or 4 JDK receiver classes in turn. */
final class LibVirt extends Kernel {
  final Collection<?>[] rs;

  LibVirt(int classes) {
    Collection<?>[] all = {
      new ArrayList<Integer>(Arrays.asList(1, 2)),
      new LinkedList<Integer>(Arrays.asList(1, 2, 3)),
      new ArrayDeque<Integer>(Arrays.asList(1)),
      new HashSet<Integer>(Arrays.asList(1, 2, 3, 4)),
    };
    rs = new Collection<?>[4];
    for (int i = 0; i < 4; i++) rs[i] = all[i % classes];
  }

  long run(int n) {
    long s = 0;
    Collection<?>[] rs = this.rs;
    for (int i = 0; i < n; i++) s += rs[i & 3].size();
    return s;
  }
}

/* (e) The owner check (CC.owns) at the start of the twin of an
 * overridable method, called virtually on 1, 2 or 4 receiver classes.
 * Each receiver count has its own hierarchy. */
final class Owns {
  static Kernel make(int classes) {
    switch (classes) {
      case 1: return new O1.K();
      case 2: return new O2.K();
      default: return new O4.K();
    }
  }
}

final class O1 {
  static class S {
    int f(int x) {
      return x + 1;
    }
  }

  static final class K extends Kernel {
    final S[] rs = {new S(), new S(), new S(), new S()};

    long run(int n) {
      long s = 0;
      S[] rs = this.rs;
      for (int i = 0; i < n; i++) s += rs[i & 3].f(i);
      return s;
    }
  }
}

final class O2 {
  static class S {
    int f(int x) {
      return x + 1;
    }
  }

  static class T extends S {
    int f(int x) {
      return x + 2;
    }
  }

  static final class K extends Kernel {
    final S[] rs = {new S(), new T(), new S(), new T()};

    long run(int n) {
      long s = 0;
      S[] rs = this.rs;
      for (int i = 0; i < n; i++) s += rs[i & 3].f(i);
      return s;
    }
  }
}

final class O4 {
  static class S {
    int f(int x) {
      return x + 1;
    }
  }

  static class T extends S {
    int f(int x) {
      return x + 2;
    }
  }

  static class U extends S {
    int f(int x) {
      return x + 3;
    }
  }

  static class V extends S {
    int f(int x) {
      return x + 4;
    }
  }

  static final class K extends Kernel {
    final S[] rs = {new S(), new T(), new U(), new V()};

    long run(int n) {
      long s = 0;
      S[] rs = this.rs;
      for (int i = 0; i < n; i++) s += rs[i & 3].f(i);
      return s;
    }
  }
}

/** Entry point for the driver: kernels by name, with an uninstrumented
 *  caller reaching them through 'Kernel' (one N2B call per run). */
public final class MicroKernels {
  public static Object kernel(String name) {
    return Kernel.of(name);
  }

  public static long run(Object k, int n) {
    return ((Kernel) k).run(n);
  }

  public static long calls(Object k, int n) {
    return ((Kernel) k).calls(n);
  }

  public static String[] names() {
    return Kernel.NAMES.clone();
  }
}
