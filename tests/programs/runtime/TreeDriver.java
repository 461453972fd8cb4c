/*
 * TreeDriver.java -- the runtime's lookup structures against a model:
 * the child slots and table of a node (alternating children, a node past
 * 8 children, ids that share a slot and collide in the table at every
 * size, a thousand children in a random order with rehashes on the way,
 * grandchildren),
 * the selection caches of enterv (one call site, receivers of 8 library
 * classes in turn and at random: more classes than a chain keeps) and the
 * owner checks (8 receiver classes, inheriting and overriding). The driver
 * counts every context it enters in a map and writes them as an
 * expectation file (args[0]) for cccp-report compare --expect, and checks
 * that a context always gets the same node; owner
 * checks and the nodes enterv returns are checked here. Prints "ok".
 * tests/cct/test_runtime.sh runs it.
 */
package rtdrv;

import cccp.rt.CC;
import java.io.FileWriter;
import java.io.IOException;
import java.io.Writer;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedList;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.TreeSet;
import java.util.Vector;
import java.util.concurrent.ArrayBlockingQueue;

public final class TreeDriver {
  static final String C = "rtdrv/TreeDriver";
  static final Map<String, Long> EXPECT = new LinkedHashMap<String, Long>();
  static final Map<String, CC> NODES = new HashMap<String, CC>();
  static final int[] M = new int[4200];
  static long seed = 42;

  static int rnd(int n) {
    seed = seed * 6364136223846793005L + 1442695040888963407L;
    return (int) ((seed >>> 33) % n);
  }

  static String frame(int i) {
    return C + ".m" + i + "()V";
  }

  /* Enter child i of 'parent' (context 'ctx') and count it. Always the
  ** same node for a context: a second child with the same id would
  ** still sum to the right count in the profile. */
  static CC in(CC parent, String ctx, int i) {
    String c = ctx + " > " + frame(i);
    Long n = EXPECT.get(c);
    EXPECT.put(c, n == null ? 1 : n + 1);
    CC node = CC.enter(parent, M[i]);
    CC was = NODES.put(c, node);
    if (was != null && was != node) throw new AssertionError("two nodes for " + c);
    return node;
  }

  public static void main(String[] args) throws IOException {
    CC main = CC.enter(CC.get(), CC.register(C, "main", "([Ljava/lang/String;)V", 9, 4));
    String top = C + ".main([Ljava/lang/String;)V";
    EXPECT.put(top, 1L);
    for (int i = 0; i < M.length; i++) M[i] = CC.register(C, "m" + i, "()V", 1, 4);
    if (M[M.length - 1] - M[0] != M.length - 1) throw new AssertionError("ids not dense");

    // Two children in turn, then a third: every call misses the last-child cache.
    String a = top + " > " + frame(1);
    CC na = in(main, top, 1);
    for (int k = 0; k < 1000; k++) in(na, a, 2 + (k & 1));
    for (int k = 0; k < 300; k++) in(na, a, 2 + k % 3);

    // Nine to twelve children in turn (past the old list of 8), with grandchildren.
    String b = top + " > " + frame(4);
    CC nb = in(main, top, 4);
    for (int k = 0; k < 1200; k++) {
      int i = 10 + k % (9 + (k / 300));
      CC c = in(nb, b, i);
      if (k % 7 == 0) in(c, b + " > " + frame(i), 5);
    }

    // Ids equal modulo 8, 16, ..., 4096: one child slot, and a table
    // indexed by the id's low bits or by the bits above the slot's
    // collides at every size; some equal modulo 4 only.
    String d = top + " > " + frame(6);
    CC nd = in(main, top, 6);
    int[] coll = {0, 4, 8, 12, 16, 24, 32, 64, 128, 256, 512, 1024, 2048,
                  4096, 516, 2056, 20};
    for (int k = 0; k < 5000; k++) in(nd, d, 100 + coll[rnd(k < 50 ? 3 : coll.length)]);

    // A thousand children in a random order, with repeats and grandchildren.
    String e = top + " > " + frame(7);
    CC ne = in(main, top, 7);
    for (int k = 0; k < 20000; k++) {
      int i = 150 + rnd(k < 2000 ? 40 + k / 2 : 1040);
      CC c = in(ne, e, i);
      if (rnd(5) == 0) in(c, e + " > " + frame(i), 8 + rnd(3));
    }

    selection(main, top);
    owners();

    Writer w = new FileWriter(args[0]);
    try {
      for (Map.Entry<String, Long> x : EXPECT.entrySet())
        w.write(x.getValue() + " " + x.getKey() + "\n");
    } finally {
      w.close();
    }
    System.out.println("ok");
  }

  /* One enterv call site, receivers of 8 library classes: in turn, then at
  ** random. Each call makes a node for the method the class selects. */
  static void selection(CC main, String top) {
    int size = CC.register("java/util/Collection", "size", "()I", 0, 2);
    Collection<?>[] rs = {
      new ArrayList<Object>(), new LinkedList<Object>(), new ArrayDeque<Object>(),
      new HashSet<Object>(), new TreeSet<Object>(), new Vector<Object>(),
      new PriorityQueue<Object>(), new ArrayBlockingQueue<Object>(1),
    };
    String sctx = top + " > " + frame(9);
    CC s = in(main, top, 9);
    CC[] seen = new CC[rs.length];
    for (int k = 0; k < 4000; k++) {
      int r = k < 2000 ? k % (1 + k / 250) : rnd(rs.length);
      CC n = CC.enterv(rs[r], s, size);
      if (n == s || n == null) throw new AssertionError("no node for " + rs[r].getClass());
      if (seen[r] == null) seen[r] = n;
      else if (seen[r] != n) throw new AssertionError("two nodes for " + rs[r].getClass());
      String c = sctx + " > " + rs[r].getClass().getName().replace('.', '/') + ".size()I";
      Long x = EXPECT.get(c);
      EXPECT.put(c, x == null ? 1 : x + 1);
    }
    for (int r = 0; r < rs.length; r++)
      for (int q = 0; q < r; q++)
        if (seen[r] == seen[q]) throw new AssertionError("one node for two classes");
    if (CC.enterv(null, s, size) != s) throw new AssertionError("null receiver");
  }

  static class P {
    void f() {}
  }

  static class Q1 extends P {}
  static class Q2 extends P {}
  static class Q3 extends Q1 {}
  static class Q4 extends P {}
  static class Q5 extends Q2 {}

  static class R1 extends P {
    @Override
    void f() {}
  }

  static class R2 extends Q1 {
    @Override
    void f() {}
  }

  /* Owner checks of P.f for 8 classes (6 select P.f, 2 override it), in
  ** turn and at random: each answer must stay right. */
  static void owners() {
    int f = CC.register(C + "$P", "f", "()V", 1, 4);
    Object[] rs = {new P(), new Q1(), new R1(), new Q2(), new Q3(), new R2(),
                   new Q4(), new Q5()};
    boolean[] own = {true, true, false, true, true, false, true, true};
    for (int k = 0; k < 4000; k++) {
      int r = k < 2000 ? k % (1 + k / 250) : rnd(rs.length);
      if (CC.owns(rs[r], f) != own[r])
        throw new AssertionError("owns " + rs[r].getClass() + " " + !own[r]);
    }
  }
}
