package lv;

import cccp.rt.CC;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/**
 * Library calls whose target only the receiver's class tells, and whether
 * each left its node in the thread's slot (read with CC.get, which the
 * rewriter leaves alone): a JDK leaf it selects (ArrayList$Itr.hasNext,
 * ArrayList.size) needs none, a method that is not a leaf
 * (ArrayList$Itr.next) publishes it, as does a call that selects an
 * instrumented method (Own.hasNext: its entry reads the slot). The slot
 * is read in main itself: an instrumented method would make its own node
 * and, in the compact form, put it in the slot.
 */
public class Main {
  static final class Own implements Iterator<String> {
    int left = 2;

    @Override
    public boolean hasNext() {
      return left > 0;
    }

    @Override
    public String next() {
      left--;
      return "own";
    }
  }

  public static void main(String[] args) {
    List<String> l = new ArrayList<String>();
    l.add("a");
    l.add("b");
    StringBuilder out = new StringBuilder();
    for (int i = 0; i < 3; i++) {         // the first selection, then cached
      Iterator<String> it = l.iterator();
      Object before = CC.get();
      boolean more = it.hasNext();
      String a = CC.get() == before ? "kept" : "published";
      before = CC.get();
      String s = it.next();
      String b = CC.get() == before ? "kept" : "published";
      before = CC.get();
      int v = l.size();
      String c = CC.get() == before ? "kept" : "published";
      Iterator<String> own = new Own();
      before = CC.get();
      boolean omore = own.hasNext();
      String d = CC.get() == before ? "kept" : "published";
      out.append("hasNext ").append(more).append(' ').append(a)
         .append(", next ").append(s).append(' ').append(b)
         .append(", size ").append(v).append(' ').append(c)
         .append(", own ").append(omore).append(' ').append(d).append('\n');
    }
    System.out.print(out);
  }
}
