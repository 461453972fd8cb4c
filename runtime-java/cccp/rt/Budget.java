/*
 * Budget.java -- the memory the calling-context trees may take
 * (cccp.budget), and what the runtime keeps back so that the profile is
 * written however the program ends.
 */
package cccp.rt;

/**
 * Making a node may land here, so nothing here calls the JDK once
 * profiling runs (in JDK mode the JDK is instrumented, and its methods
 * would make nodes in turn), but System.currentTimeMillis, a native.
 *
 * The trees of all threads share one budget of bytes. A thread takes it
 * in chunks (its Root's reserve), so that making a node costs nothing
 * shared;
 * the last sixteenth is kept for fold nodes, so that a context that
 * loses children to the budget can still say where, and its last 64th
 * for each thread's top fold node, which a thread makes whatever the
 * budget says (made there, a fold can never fail to count). Merges of
 * ended threads' trees are forced too: the ended tree is dropped right
 * after, under the same lock, which frees more. Past the budget a
 * call whose context is new counts in a fold node (CC.fold): no call is
 * lost, each method's total stays exact, and the contexts kept count on
 * exactly. A tree that is dropped (an ended thread's, merged into the
 * tree of its name's pattern) gives its bytes back.
 *
 * Sizes are estimates of HotSpot's layout: a 12-byte object header and
 * 4-byte references below 32 GB of heap (compressed oops), 8-byte
 * references above.
 */
final class Budget {
  private Budget() {}

  /* Bytes of a node, a node with block counters, a fold node. */
  static int NODE = 88, METERED = 152, FOLD = 160;
  private static int REF = 4;

  /* The budget in bytes (Long.MAX_VALUE: none); ordinary nodes stop at
  ** 'soft', fold nodes at 'hard', a thread's top fold node (which every
  ** thread can make, forced) at 'limit'. */
  static long limit = Long.MAX_VALUE, soft = Long.MAX_VALUE,
      hard = Long.MAX_VALUE;
  /* what the trees hold or have been granted (their reserves) is
  ** Slots.used(), changed by compare-and-set: no lock. A thread ending
  ** merges its tree under the registry's lock, which takes bytes here; a
  ** virtual thread that found a lock here taken would unmount holding
  ** the registry's, and the carriers that mount the next virtual threads
  ** (whose roots the registry records) would block on it with nothing
  ** left to run its owner (docs/design.md, "Virtual threads and the
  ** runtime's locks") */
  /* the largest chunk a thread takes at a time */
  private static final long CHUNK = 64 << 10;
  /* when the trees first folded (System.currentTimeMillis), 0 before */
  static volatile long since;
  /* the heap ran out while a node was being made */
  static volatile boolean heapFull;
  /* the budget refused an ordinary node, a fold node: until a tree is
  ** dropped, calls in new contexts fold without asking 'grant' each
  ** time */
  private static volatile boolean softFull, hardFull;

  /** The id of the method "(folded)" of fold nodes, 0 until needed. */
  static volatile int fold;


  /* memory kept for the end: the native agent drops it as the main
  ** thread ends (libcccp-agent.so, by this name), the dump at exit as it
  ** starts (free) */
  private static byte[] reserve;

  /* The bytes of a node table of 'n' entries. */
  static long array(int n) {
    return (16 + (long) n * REF + 7) & ~7L;
  }

  /**
   * Read cccp.budget, once, with profiling off: the budget of the trees,
   * as bytes with a suffix (k, m, g: "512m"), as a share of the maximum
   * heap ("25%"), as a number of nodes (a bare number), or "none". The
   * default is a quarter of the maximum heap. Also sets the reserve for
   * the dump at exit aside.
   */
  static void configure() {
    Runtime rt = Runtime.getRuntime();
    long max = rt.maxMemory();
    boolean wide = !"32".equals(System.getProperty("sun.arch.data.model"))
        && max >= (32L << 30) - (1L << 30);
    if (wide) {
      REF = 8;
      NODE = 144;
      METERED = 208;
      FOLD = 216;
    }
    String v = System.getProperty("cccp.budget");
    long b = max == Long.MAX_VALUE ? 1L << 30 : max / 4;
    if (v != null) {
      long p = parse(v.trim(), max);
      if (p == -2) {
        System.err.println("cccp: cccp.budget=" + v + " is not a budget (a "
                           + "number of nodes, bytes as 512m or 2g, a share "
                           + "of the heap as 25%, or none): "
                           + "using a quarter of the heap");
      } else {
        b = p;
      }
    }
    limit = b < 0 ? Long.MAX_VALUE : Math.max(b, 64L * FOLD);
    soft = limit == Long.MAX_VALUE ? limit : limit - limit / 16;
    hard = limit == Long.MAX_VALUE ? limit : limit - limit / 64;
    try {
      reserve = new byte[(int) Math.min(4L << 20, Math.max(max / 32, 64 << 10))];
    } catch (OutOfMemoryError e) {
      reserve = null;
    }
  }

  /* cccp.budget's value in bytes, -1 for none, -2 when malformed. */
  static long parse(String v, long max) {
    if (v.equals("none") || v.equals("0") || v.equals("off")) return -1;
    long mul = 1;
    int n = v.length();
    if (n == 0) return -2;
    char c = Character.toLowerCase(v.charAt(n - 1));
    boolean share = false, bytes = true;
    switch (c) {
      case 'k': mul = 1L << 10; n--; break;
      case 'm': mul = 1L << 20; n--; break;
      case 'g': mul = 1L << 30; n--; break;
      case '%': share = true; n--; break;
      default: bytes = false; break;
    }
    if (n == 0 || n > 15) return -2;
    long x = 0;
    for (int i = 0; i < n; i++) {
      char d = v.charAt(i);
      if (d < '0' || d > '9') return -2;
      x = x * 10 + (d - '0');
    }
    if (share) return x == 0 || x > 100 || max == Long.MAX_VALUE ? -2 : max / 100 * x;
    return bytes ? x * mul : x * NODE;
  }

  /**
   * Charge 'n' bytes to tree 'r' (null: the budget directly): false when
   * the budget refuses them. Ordinary nodes stop at the soft limit, fold
   * nodes ('fold') at the limit; 'force' never refuses.
   */
  static boolean take(CC.Root r, long n, boolean force, boolean fold) {
    if (r != null && r.reserve >= n) {
      r.reserve -= n;
      r.bytes += n;
      return true;
    }
    if (!force && (fold ? hardFull : softFull)) return false;
    /* fold nodes are granted one at a time: a chunk of their share in a
    ** reserve would go to ordinary nodes */
    long g = grant(n, r == null || fold ? 0 : CHUNK, force, fold);
    if (g == 0) return false;
    if (r != null) {
      r.reserve += g - n;
      r.bytes += n;
    }
    return true;
  }

  /* 'n' bytes taken but not used (a node that could not be made, the
  ** table a larger one replaced) go back to tree 'r''s reserve. */
  static void give(CC.Root r, long n) {
    if (r == null) {
      add(-n);
      return;
    }
    r.bytes -= n;
    r.reserve += n;
  }

  /*
   * At least 'n' bytes and up to 'chunk' from the budget (fewer as it
   * runs out: a chunk is at most a 64th of what is left), or 0.
   */
  private static long grant(long n, long chunk, boolean force,
                            boolean fold) {
    for (;;) {
      long used = Slots.used();
      long cap = heapFull && !force ? used : fold ? hard : soft;
      long left = cap - used;
      if (left < n && !force) {
        if (fold) hardFull = true;
        else softFull = true;
        /* a tree dropped meanwhile (release) cleared the flags first */
        if (Slots.used() != used) {
          if (fold) hardFull = false;
          else softFull = false;
          continue;
        }
        if (since == 0) since = System.currentTimeMillis();
        return 0;
      }
      /* no calls into the JDK here: in JDK mode it is instrumented */
      long g = left / 64 < chunk ? left / 64 : chunk;
      if (g < n) g = n;
      if (Slots.casUsed(used, used + g)) return g;
    }
  }

  /* Add 'n' (negative: give back) to the bytes granted. */
  private static void add(long n) {
    long used;
    do {
      used = Slots.used();
    } while (!Slots.casUsed(used, used + n));
  }

  /** Tree 'r' is dropped: its bytes and its reserve go back. */
  static void release(CC.Root r) {
    add(-(r.bytes + r.reserve));
    r.bytes = 0;
    r.reserve = 0;
    softFull = hardFull = false;
  }

  /** The heap had no room for a node: no tree grows from now on. */
  static void full() {
    heapFull = true;
    if (since == 0) since = System.currentTimeMillis();
  }

  /*
   * Register the method of fold nodes (when the first fold happens);
   * threads that race here get the same id.
   */
  static void registerFold() {
    if (fold != 0) return;
    int id;
    try {
      /* (its first run resolves the strings, which allocates) */
      id = CC.register("cccp", "(folded)", "", 0, 8);
    } catch (OutOfMemoryError e) {
      id = 0;
    }
    if (id == 0) full();                // the heap is full
    else fold = id;
  }

  /** The bytes granted so far (the dump reports it). */
  static long used() {
    return Slots.used();
  }

  /** Give up the reserve: the dump at exit runs in what it frees. */
  static void free() {
    reserve = null;
  }
}
