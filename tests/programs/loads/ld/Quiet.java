package ld;

import java.util.HashMap;

/*
 * A class whose method names a class the program never loads: a JDK call
 * of hashCode on it (HashMap.hash) has the runtime choose the receiver's
 * method, which must not load that class (reflection on the receiver's
 * methods would: it resolves every parameter type).
 */
public class Quiet {
  static final class Never {}

  static final class Key {
    final int k;

    Key(int k) {
      this.k = k;
    }

    @Override
    public int hashCode() {
      return k;
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Key && ((Key) o).k == k;
    }

    Never never(Never n) {
      return n;
    }
  }

  public static void main(String[] args) {
    HashMap<Object, Integer> m = new HashMap<>();
    for (int i = 0; i < 10; i++) m.put(new Key(i), i * i);
    System.out.println(m.get(new Key(3)));
  }
}
