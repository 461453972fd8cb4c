/*
 * JopCache.java -- a simulation of JOP's method cache, per thread, for
 * cross-profiles (the run-time option cccp.jop.cache=WORDS:BLOCKS).
 */
package cccp.rt;

/**
 * JOP keeps whole methods in a cache of BLOCKS blocks of WORDS/BLOCKS
 * words. On every invoke it looks up the callee, on every return the
 * caller, by tag (the method); a miss loads the method at 'next', over
 * floor(n/blockWords)+1 blocks (n the method's size in words), clears
 * the tags it overwrites and moves 'next' past them (FIFO); a hit changes
 * nothing. A miss costs the load time b = 6 + (n+1)*(2+c), c = max(0,
 * r-1), minus what the invoke or return hides (37 for invokes; 9, 10 or
 * 11 for returns); a hit costs nothing more than the constant part the
 * block counters and the completion already count. Resuming in a method
 * at an exception handler looks it up like a return (hides 9).
 *
 * Only costed methods (instrumented, with bytecode) take part: a call to
 * or from the library is not JOP code here. Each thread has its own
 * cache (JOP has one, and a thread switch would disturb it).
 */
final class JopCache {
  /** Whether the simulation runs (both properties set and valid). */
  static final boolean ON;
  private static final int BLOCKS;
  private static final int BLOCK_WORDS;
  private static final int C;          // c = max(0, r - 1)
  /** The setting, "WORDS:BLOCKS", for the profile; null when off. */
  static final String SETTING;

  static {
    int blocks = 0, bw = 0, c = 0;
    String set = null;
    String s = System.getProperty("cccp.jop.cache");
    String j = System.getProperty("cccp.jop");
    if (s != null && j != null) {
      int colon = s.indexOf(':');
      int words = colon > 0 ? num(s.substring(0, colon)) : -1;
      blocks = colon > 0 ? num(s.substring(colon + 1)) : -1;
      String[] v = j.split(",");
      int r = v.length == 5 ? num(v[1]) : -1;
      if (words <= 0 || blocks <= 0 || blocks > 4096 || words % blocks != 0
          || words > (1 << 24) || r < 0) {
        System.err.println("cccp: cccp.jop.cache=" + s + " ignored: WORDS:"
                           + "BLOCKS, WORDS a multiple of BLOCKS (e.g. "
                           + "1024:16), with a --jop rewrite");
        blocks = 0;
      } else {
        bw = words / blocks;
        c = r > 1 ? r - 1 : 0;
        set = words + ":" + blocks;
      }
    }
    BLOCKS = blocks;
    BLOCK_WORDS = bw;
    C = c;
    SETTING = set;
    ON = set != null;
  }

  /** A decimal of 1 to 9 digits, or -1. */
  static int num(String s) {
    if (s.length() == 0 || s.length() > 9) return -1;
    int v = 0;
    for (int i = 0; i < s.length(); i++) {
      char ch = s.charAt(i);
      if (ch < '0' || ch > '9') return -1;
      v = v * 10 + (ch - '0');
    }
    return v;
  }

  private JopCache() {}

  /** Size in words of costed method 'mid', or -1 when it is not costed. */
  private static int words(int mid) {
    if (mid <= 0) return -1;
    int fl = CC.Registry.flags[mid];
    int size = CC.Registry.size[mid];
    return (fl & 3) != 0 || size <= 0 ? -1 : (size + 3) >> 2;
  }

  /* Cycles a miss on a method of 'n' words shows past 'hidden'. */
  private static long miss(int n, int hidden) {
    long b = 6 + (long) (n + 1) * (2 + C);
    return b > hidden ? b - hidden : 0;
  }

  /* Look 'mid' up in this thread's cache; loads it on a miss. */
  private static boolean hit(int mid, int n) {
    CC.Slot s = CC.slot();
    if (s == null) return true;
    int[] tag = s.cacheTags;
    if (tag == null) tag = s.cacheTags = new int[BLOCKS];
    for (int i = 0; i < BLOCKS; i++)
      if (tag[i] == mid) return true;
    int k = n / BLOCK_WORDS + 1;
    if (k > BLOCKS) k = BLOCKS;
    int nx = s.cacheNext;
    for (int i = 0; i < k; i++) tag[(nx + i) % BLOCKS] = 0;
    tag[nx] = mid;
    s.cacheNext = (nx + k) % BLOCKS;
    return false;
  }

  /** Costed or not, node 'c' was entered from 'parent'. */
  static void invoke(CC parent, CC c) {
    int n = words(c.mid);
    if (n < 0 || hit(c.mid, n)) return;
    if (words(parent.mid) >= 0) CC.addCycles(parent, miss(n, 37));
  }

  /** The method of 'node' returns (normally) to its parent's. */
  static void ret(CC node) {
    CC p = node.parent;
    int n = p == null ? -1 : words(p.mid);
    if (n < 0 || words(node.mid) < 0 || hit(p.mid, n)) return;
    CC.addCycles(node, miss(n, hidden(CC.Registry.desc[node.mid])));
  }

  /** An exception handler of the method of 'node' starts. */
  static void caught(CC node) {
    int n = words(node.mid);
    if (n >= 0 && !hit(node.mid, n)) CC.addCycles(node, miss(n, 9));
  }

  /* What the return of a method with descriptor 'd' hides. */
  private static int hidden(String d) {
    switch (d.charAt(d.indexOf(')') + 1)) {
      case 'V': return 9;
      case 'J': case 'D': return 11;
      default: return 10;
    }
  }
}
