package ow;

/** An instrumented class that classes outside the rewrite override. */
public class Base {
  public int get() { return 1; }

  /** A call through 'this' inside the instrumented class. */
  public int twice() { return get() * 2; }

  protected int hook(int x) { return x + 1; }

  public int viaHook(int x) { return hook(x); }

  public static int call(Base b) { return b.get(); }

  /** Called by overrides: its node must sit under theirs. */
  public static int helper(int x) { return x + 100; }

  public int fail() { return 0; }

  /** Overridden outside the rewrite by methods that look at their stack
   *  (ext.Frames). */
  public String where(String how) { return "base"; }

  /** A call through 'this' in an overridable instrumented method (its
   *  twin's frame stays, with its line). */
  public String whereSelf(String how) {
    return where(how);
  }

  /** Native here, overridden outside: its twin delegates (a B2N twin),
   *  and forwards to the override. */
  public native String whereNative(String how);

  /** A call through an instrumented method. */
  public static String whereVia(Base b, String how) {
    return b.where(how);
  }
}
