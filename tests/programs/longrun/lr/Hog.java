package lr;

import java.util.ArrayList;
import java.util.List;

/**
 * Calls a method a known number of times, then fills the heap until an
 * OutOfMemoryError ends the program; what it allocated stays reachable
 * to the end, so the heap is full as the JVM exits.
 */
public class Hog {
  static final List<long[]> KEEP = new ArrayList<>();
  static long sink;

  static void work(int i) { sink += i; }

  static long[] chunk(int i) {
    long[] a = new long[1 << 14];
    a[0] = i;
    return a;
  }

  public static void main(String[] args) {
    for (int i = 0; i < 12345; i++) work(i);
    System.out.println("filling");
    for (int i = 0;; i++) KEEP.add(chunk(i));
  }
}
