/*
 * Dump.java -- the shutdown hook: writes every thread's CCT as profile XML
 * version 1 (see runtime-java/README.md), streamed, without a copy of the
 * tree, with profiling bypassed.
 */
package cccp.rt;

import java.io.File;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;

/**
 * Writes the profile to the file named by the system property 'cccp.out'
 * (default "cccp-profile.xml"), through a temporary file renamed at the
 * end. 'cccp.threads=app' leaves out the JVM's system threads. The walk is
 * iterative over the first/next/parent links, so it needs no stack and no
 * memory in proportion to the tree. Run as the dump at exit ('run'), or
 * for a snapshot of the running program ('snapshot'). Not a Thread: app
 * mode's shutdown hook wraps it in one ('hook'); JDK mode registers it as
 * the JDK's own system hook, and a snapshot runs in the thread that asks.
 */
final class Dump implements Runnable {
  /** Deeper nodes are not indented further. */
  private static final int MAX_INDENT = 10;

  private final byte[] buf = new byte[1 << 16];
  private int len;
  private OutputStream out;
  /* the id each method has in the profile, by run-time id */
  private int[] ids;
  /* this dump starts a new interval: each count's base becomes the value
  ** written */
  private boolean reset;

  /** The thread app mode registers as its shutdown hook. */
  static Thread hook(Dump d) {
    return new Thread(d, "cccp-dump");
  }

  /* Set once the dump at exit has started: snapshots are refused. */
  private static volatile boolean exiting;

  @Override
  public void run() {
    exiting = true;
    Budget.free();
    CC.busy = true;
    /* JDK mode runs this in the thread that shuts down, whose slot holds
    ** a node: cleared, so that the JDK code the dump calls makes none */
    CC prev = CC.set(null);
    try {
      Priv.exitDump(this);
    } finally {
      CC.set(prev);
    }
  }

  /* The dump at exit's work, with the runtime's permissions (Priv). */
  void exitWork() {
    dump(System.getProperty("cccp.out", "cccp-profile.xml"));
  }

  /** Snapshot.take's answers. */
  static final int OK = 0, CANNOT_WRITE = 1, NOT_PROFILING = 2, EXITING = 3;

  /**
   * Write the profile as it is now to 'path' while the program runs on
   * (see Snapshot). The other threads go on counting: each count written
   * is a value its counter had during the walk.
   */
  static int snapshot(String path, boolean reset) {
    if (exiting) return EXITING;
    if (CC.Registry.off) return NOT_PROFILING;
    /* this thread's own calls into the JDK (JDK mode) make no nodes */
    CC prev = CC.set(null);
    try {
      return Priv.snapshot(path, reset);
    } finally {
      CC.set(prev);
    }
  }

  /* A snapshot's work, with the runtime's permissions (Priv). */
  static int snapshotWork(String path, boolean reset) {
    Dump d = new Dump();
    d.reset = reset;
    return d.dump(path) ? OK : CANNOT_WRITE;
  }

  private boolean dump(String path) {
    /* a cross-profile is about the application: system threads are
     * left out unless asked for */
    String jop = System.getProperty("cccp.jop");
    boolean appOnly = "app".equals(
        System.getProperty("cccp.threads", jop != null ? "app" : "all"));
    File f = new File(path);
    /* Not a regular file (a device, a FIFO): write to it directly. */
    boolean direct = f.exists() && !f.isFile();
    File tmp = direct ? f : new File(path + ".tmp");
    try {
      out = new FileOutputStream(tmp);
      try {
        if (path.endsWith(".gz")) out = gzip(out);
        synchronized (CC.Registry.class) {
          CC.Registry.sweep();
          write(appOnly, jop);
        }
        flush();
      } finally {
        out.close();
      }
      if (!direct && !tmp.renameTo(f)) {
        f.delete();
        if (!tmp.renameTo(f)) throw new IOException("cannot rename " + tmp);
      }
      return true;
    } catch (IOException | OutOfMemoryError e) {
      if (!direct) tmp.delete();
      if (exiting)
        System.err.println("cccp: cannot write the profile " + path + ": " + e);
      return false;
    }
  }

  /*
   * A gzip stream at the fastest level: a dump is written while the
   * program waits (at exit) or runs, and level 1 takes a fraction of the
   * default's time for most of its size gain on profile text.
   */
  private static OutputStream gzip(OutputStream o) throws IOException {
    return new java.util.zip.GZIPOutputStream(o, 1 << 16) {
      {
        def.setLevel(java.util.zip.Deflater.BEST_SPEED);
      }
    };
  }

  private void write(boolean appOnly, String jop) throws IOException {
    ascii("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
          + "<cct version=\"1\" mode=\"cccp\"");
    jopAttrs(jop);
    treeAttrs();
    ascii(">\n");
    /* the methods listed, numbered densely: the ids the colours left
    ** out are not, nor (JDK mode) the JDK's that no tree names; a node
    ** made after this (a thread still running) is left out */
    boolean[] used = CC.Registry.base > 0 ? used(appOnly) : null;
    int n = CC.Registry.n;
    ids = new int[n + 1];
    for (int i = 1, k = 0; i <= n; i++)
      if (i <= CC.Registry.base ? used[i] : CC.Registry.given(i))
        ids[i] = ++k;
    for (int i = 1; i <= n; i++) {
      if (ids[i] == 0) continue;
      int fl = CC.Registry.flags(i);
      int size = CC.Registry.size(i);
      ascii("  <method id=\"");
      num(ids[i]);
      ascii("\" class=\"");
      text(CC.Registry.cls(i));
      ascii("\" name=\"");
      text(CC.Registry.name(i));
      ascii("\" desc=\"");
      text(CC.Registry.desc(i));
      ascii("\" size=\"");
      num(size);
      if (jop != null && size > 0) {
        ascii("\" words=\"");     // what JOP's method cache loads
        num((size + 3) >> 2);
      }
      if ((fl & 8) != 0) ascii("\" folded=\"1");
      ascii((fl & 1) != 0 ? "\" native=\"1" : "\" native=\"0");
      ascii((fl & 2) != 0 ? "\" library=\"1\"/>\n" : "\" library=\"0\"/>\n");
    }
    for (int r = 0; r < CC.Registry.ROOTS.size(); r++) {
      CC.Root root = CC.Registry.ROOTS.get(r);
      if (root.first == null) continue;
      if (appOnly && root.sys) {
        if (reset) resetOnly(root);
        continue;
      }
      ascii("  <tree thread=\"");
      text(root.thread);
      ascii("\">\n");
      tree(root);
      ascii("  </tree>\n");
    }
    ascii("</cct>\n");
  }

  /*
   * JDK mode: which of the JDK's methods (ids 1..base) the written trees
   * name; only those are listed.
   */
  private static boolean[] used(boolean appOnly) {
    boolean[] u = new boolean[CC.Registry.base + 1];
    for (int r = 0; r < CC.Registry.ROOTS.size(); r++) {
      CC.Root root = CC.Registry.ROOTS.get(r);
      if (appOnly && root.sys) continue;
      Folds f = root.folds;
      if (f != null) {
        Folds.Table t = f.table;
        for (int i = 0; i < t.ids.length; i++)
          if (t.ids[i] > 0 && t.ids[i] < u.length) u[t.ids[i]] = true;
      }
      for (CC n = root.first; n != null; n = preorder(n, root))
        if (n.mid > 0 && n.mid < u.length) u[n.mid] = true;
    }
    return u;
  }

  /*
   * The JOP settings, from "YEAR,R,W,SOFTWARE,SPLIT" (the rewriter's
   * options file sets cccp.jop); nothing when absent or malformed.
   */
  private void jopAttrs(String jop) throws IOException {
    if (jop == null) return;
    String[] v = jop.split(",");
    if (v.length != 5) return;
    for (int i = 0; i < 5; i++)
      if (JopCache.num(v[i]) < 0) return;
    ascii(" jop-model=\"" + v[0] + "\" jop-rws=\"" + v[1]
          + "\" jop-wws=\"" + v[2] + "\" jop-software=\"" + v[3]
          + "\" jop-split=\"" + ("0".equals(v[4]) ? "0" : "1")
          + "\" jop-completed=\"0\"");
    if (JopCache.ON) {
      int colon = JopCache.SETTING.indexOf(':');
      ascii(" jop-cache-words=\"" + JopCache.SETTING.substring(0, colon)
            + "\" jop-cache-blocks=\"" + JopCache.SETTING.substring(colon + 1)
            + "\"");
    }
  }

  /* A metric attribute, when not zero. */
  private void metric(String name, long v) throws IOException {
    if (v == 0) return;
    ascii(name);
    num(v);
  }

  /*
   * Pre-order walk of the children of 'root', closing tags on the way up.
   * Counts are written as what they counted since the last reset
   * (CC.base), which this dump moves when it starts a new interval. A
   * fold node writes its calls as the metric 'folded' (calls 0: each
   * folded call counts once, as a call of its method, under the tree's
   * top fold node, which lists them per method).
   */
  private void tree(CC.Root root) throws IOException {
    depth = 2;
    CC n = root.first;
    while (n != null) {
      /* a node made since the methods were listed (a thread still
      ** running) is left out, with what hangs under it */
      if (n.mid >= ids.length || ids[n.mid] == 0) {
        if ((n = next(n, root)) == null) return;
        continue;
      }
      indent(depth);
      bytes(NODE);
      num(ids[n.mid]);
      bytes(CALLS);
      long v = n.calls;
      boolean fold = n instanceof CC.Fold;
      num(fold ? 0 : v - n.base);
      if (fold) metric("\" folded=\"", v - n.base);
      if (reset) n.base = v;
      if (n instanceof CC.Metered) metrics((CC.Metered) n);
      if (n == root.top && folds(root.folds)) {
        if ((n = next(n, root)) == null) return;
        continue;
      }
      if (n.first != null) {
        bytes(OPEN);
        depth++;
        n = n.first;
        continue;
      }
      bytes(LEAF);
      if ((n = next(n, root)) == null) return;
    }
  }

  /* Block counters since the last reset. */
  private void metrics(CC.Metered c) throws IOException {
    long cy = c.cycles, bc = c.bytecodes, al = c.allocations, re = c.returns;
    metric("\" cycles=\"", cy - c.cyclesBase);
    metric("\" bytecodes=\"", bc - c.bytecodesBase);
    metric("\" allocations=\"", al - c.allocationsBase);
    metric("\" returns=\"", re - c.returnsBase);
    if (!reset) return;
    c.cyclesBase = cy;
    c.bytecodesBase = bc;
    c.allocationsBase = al;
    c.returnsBase = re;
  }

  /*
   * The top fold node's children: the calls of each folded method, by
   * id; false (nothing written) when there are none.
   */
  private boolean folds(Folds f) throws IOException {
    if (f == null) return false;
    Folds.Table t = f.table;
    int k = 0;
    long[] e = new long[t.ids.length];
    for (int i = 0; i < t.ids.length; i++) {
      int m = t.ids[i];
      if (m == 0 || m >= ids.length || ids[m] == 0) continue;
      e[k++] = (long) ids[m] << 32 | i;
    }
    if (k == 0) return false;
    java.util.Arrays.sort(e, 0, k);
    bytes(OPEN);
    for (int j = 0; j < k; j++) {
      int i = (int) e[j];
      long v = t.calls[i];
      indent(depth + 1);
      bytes(NODE);
      num(e[j] >>> 32);
      bytes(CALLS);
      num(v - t.base[i]);
      if (reset) t.base[i] = v;
      bytes(LEAF);
    }
    indent(depth);
    bytes(CLOSE);
    return true;
  }

  /* The node after 'n' in a pre-order walk of 'root''s tree, or null. */
  private static CC preorder(CC n, CC root) {
    if (n.first != null) return n.first;
    while (n.next == null && n != root) n = n.parent;
    return n == root ? null : n.next;
  }

  /* A reset's walk of a tree that is not written: its bases move too. */
  private static void resetOnly(CC.Root root) {
    for (CC n = root.first; n != null; n = preorder(n, root)) {
      n.base = n.calls;
      if (n instanceof CC.Metered) {
        CC.Metered c = (CC.Metered) n;
        c.cyclesBase = c.cycles;
        c.bytecodesBase = c.bytecodes;
        c.allocationsBase = c.allocations;
        c.returnsBase = c.returns;
      }
    }
    Folds f = root.folds;
    if (f == null) return;
    Folds.Table t = f.table;
    for (int i = 0; i < t.ids.length; i++) t.base[i] = t.calls[i];
  }

  /*
   * What the profile says of the trees: their nodes and estimated bytes,
   * the budget, the calls folded since the last reset and where, and
   * the interval the counts cover (times in ms since the epoch).
   */
  private void treeAttrs() throws IOException {
    long nodes = 0, bytes = 0, folded = 0, lost = 0;
    int methods = 0;
    for (CC.Root r : CC.Registry.ROOTS) {
      nodes += r.nodes;
      bytes += r.bytes;
      Folds f = r.folds;
      if (f == null) continue;
      Folds.Table t = f.table;
      for (int i = 0; i < t.ids.length; i++)
        if (t.ids[i] != 0) {
          folded += t.calls[i] - t.base[i];
          methods++;
        }
      lost += f.lost;
    }
    ascii(" tree-nodes=\"");
    num(nodes);
    ascii("\" tree-bytes=\"");
    num(bytes);
    if (Budget.limit != Long.MAX_VALUE) {
      ascii("\" budget=\"");
      num(Budget.limit);
    }
    if (Budget.since != 0) {
      ascii("\" folded-calls=\"");
      num(folded + lost);
      ascii("\" folded-methods=\"");
      num(methods);
      ascii("\" folding-since=\"");
      num(Budget.since);
    }
    long now = System.currentTimeMillis();
    ascii("\" time=\"");
    num(now);
    ascii("\" interval-start=\"");
    num(CC.Registry.intervalStart);
    if (CC.Registry.resets > 0) {
      ascii("\" resets=\"");
      num(CC.Registry.resets);
    }
    long huge = hugeInterpreted();
    if (huge > 0) {
      ascii("\" huge-interpreted=\"");
      num(huge);
    }
    ascii("\"");
    if (reset) {
      CC.Registry.intervalStart = now;
      CC.Registry.resets++;
    }
  }

  /*
   * The method bodies the native agent instrumented as their classes
   * loaded that pass HotSpot's limit for compiling a method only
   * instrumented, while the limit is on: they run interpreted (the
   * rewriter's options file turns the limit off for the jars it wrote,
   * too late for these). 0 without the native agent.
   */
  private static long hugeInterpreted() {
    try {
      return hugeInterpreted0();
    } catch (Throwable e) {   // UnsatisfiedLinkError: no native agent
      return 0;
    }
  }

  private static native long hugeInterpreted0();

  private int depth;

  /* The node after 'n' and its subtree, closing the nodes left on the
  ** way up; null at the end of 'root''s tree. */
  private CC next(CC n, CC root) throws IOException {
    while (n.next == null) {
      n = n.parent;
      if (n == root) return null;
      depth--;
      indent(depth);
      bytes(CLOSE);
    }
    return n.next;
  }

  /* ------------------------------------------------------- bytes out */

  /*
   * The lines of the trees are most of a large profile (millions of
   * nodes): their fixed parts are copied as bytes, and numbers are written
   * without a division by a variable.
   */
  private static final byte[] NODE = ascii8("<node method=\""),
      CALLS = ascii8("\" calls=\""), OPEN = ascii8("\">\n"),
      LEAF = ascii8("\"/>\n"), CLOSE = ascii8("</node>\n"),
      SPACES = spaces(2 * MAX_INDENT);

  private static byte[] ascii8(String s) {
    byte[] b = new byte[s.length()];
    for (int i = 0; i < b.length; i++) b[i] = (byte) s.charAt(i);
    return b;
  }

  private static byte[] spaces(int n) {
    byte[] b = new byte[n];
    java.util.Arrays.fill(b, (byte) ' ');
    return b;
  }

  private void bytes(byte[] b) throws IOException {
    if (len + b.length > buf.length) flush();
    System.arraycopy(b, 0, buf, len, b.length);
    len += b.length;
  }

  private void indent(int depth) throws IOException {
    int k = 2 * Math.min(depth, MAX_INDENT);
    if (len + k > buf.length) flush();
    System.arraycopy(SPACES, 0, buf, len, k);
    len += k;
  }

  private void byte1(int b) throws IOException {
    if (len == buf.length) flush();
    buf[len++] = (byte) b;
  }

  private void flush() throws IOException {
    out.write(buf, 0, len);
    len = 0;
  }

  private void ascii(String s) throws IOException {
    for (int i = 0, k = s.length(); i < k; i++) byte1(s.charAt(i));
  }

  private void num(long v) throws IOException {
    if (len + 20 > buf.length) flush();
    if (v < 0) {
      if (v == Long.MIN_VALUE) {
        ascii(Long.toString(v));
        return;
      }
      buf[len++] = '-';
      v = -v;
    }
    int nd = 1;
    for (long p = 10; nd < 19 && v >= p; p *= 10) nd++;
    int i = len + nd;
    len = i;
    do {
      buf[--i] = (byte) ('0' + (int) (v % 10));
      v /= 10;
    } while (v != 0);
  }

  /*
   * An attribute value: XML-escaped, UTF-8. Tab, newline and carriage
   * return become character references (attribute normalisation would
   * turn them into spaces); other control characters and unpaired
   * surrogates, which XML 1.0 cannot carry, become '?'.
   */
  private void text(String s) throws IOException {
    for (int i = 0, k = s.length(); i < k; i++) {
      char c = s.charAt(i);
      switch (c) {
        case '<': ascii("&lt;"); continue;
        case '>': ascii("&gt;"); continue;
        case '&': ascii("&amp;"); continue;
        case '"': ascii("&quot;"); continue;
        case '\t': ascii("&#9;"); continue;
        case '\n': ascii("&#10;"); continue;
        case '\r': ascii("&#13;"); continue;
        default: break;
      }
      if (c < 0x20) {
        byte1('?');
      } else if (c < 0x80) {
        byte1(c);
      } else if (c < 0x800) {
        byte1(0xC0 | c >> 6);
        byte1(0x80 | c & 0x3F);
      } else if (Character.isHighSurrogate(c) && i + 1 < k
                 && Character.isLowSurrogate(s.charAt(i + 1))) {
        int cp = Character.toCodePoint(c, s.charAt(++i));
        byte1(0xF0 | cp >> 18);
        byte1(0x80 | cp >> 12 & 0x3F);
        byte1(0x80 | cp >> 6 & 0x3F);
        byte1(0x80 | cp & 0x3F);
      } else if (Character.isSurrogate(c) || c == 0xFFFE || c == 0xFFFF) {
        byte1('?');
      } else {
        byte1(0xE0 | c >> 12);
        byte1(0x80 | c >> 6 & 0x3F);
        byte1(0x80 | c & 0x3F);
      }
    }
  }
}
