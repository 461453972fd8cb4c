/*
 * Folds.java -- a tree's calls of folded methods, by method id.
 */
package cccp.rt;

/**
 * The calls each method made in contexts the budget folded, for one
 * tree: so that every method's total over the profile stays exact. Open
 * addressing by method id, at most three quarters full; only the tree's
 * thread adds (merges and dumps hold the registry's lock). A dump reads
 * the current table while the thread may replace it by a larger one:
 * the table and its arrays are replaced together, never changed in
 * size, so a reader sees a consistent table (with counts a little old).
 */
final class Folds {
  static final class Table {
    final int[] ids;      // 0: empty
    final long[] calls;
    final long[] base;    // calls at the last reset (see CC.base)
    int size;

    Table(int n) {
      ids = new int[n];
      calls = new long[n];
      base = new long[n];
    }
  }

  volatile Table table = new Table(16);
  /* calls that found no room (the heap was full when the table had to
  ** grow): counted here, not per method */
  long lost;

  /** 'n' more calls of method 'm'. */
  void add(int m, long n) {
    Table t = table;
    int i = slot(t, m);
    if (t.ids[i] == 0) {
      if ((t.size + 1) * 4 > t.ids.length * 3) {
        try {
          t = grow(t);
          i = slot(t, m);
        } catch (OutOfMemoryError e) {
          Budget.full();
          if (t.size + 1 == t.ids.length) {
            lost += n;
            return;
          }
        }
      }
      t.ids[i] = m;
      t.size++;
    }
    t.calls[i] += n;
  }

  /* Where id 'm' is, or the empty entry where it goes. */
  private static int slot(Table t, int m) {
    int mask = t.ids.length - 1;
    int h = m * 0x9E3779B1;
    int i = (h ^ h >>> 16) & mask;
    while (t.ids[i] != 0 && t.ids[i] != m) i = (i + 1) & mask;
    return i;
  }

  private Table grow(Table t) {
    Table n = new Table(t.ids.length * 2);
    for (int i = 0; i < t.ids.length; i++) {
      if (t.ids[i] == 0) continue;
      int j = slot(n, t.ids[i]);
      n.ids[j] = t.ids[i];
      n.calls[j] = t.calls[i];
      n.base[j] = t.base[i];
      n.size++;
    }
    table = n;
    return n;
  }

  /** Add what 'from' counted since its last reset (a merge). */
  void addAll(Folds from) {
    Table t = from.table;
    for (int i = 0; i < t.ids.length; i++)
      if (t.ids[i] != 0) add(t.ids[i], t.calls[i] - t.base[i]);
    lost += from.lost;
  }
}
