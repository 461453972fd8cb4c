package ext;

/** Not rewritten: overrides the originals, never the twins. */
public class Sub extends ow.Base {
  @Override public int get() { return 42 + super.get(); }

  @Override protected int hook(int x) { return x * 10; }

  @Override public int fail() { throw new IllegalStateException("from Sub.fail"); }

  @Override public String whereNative(String how) { return where(how); }

  @Override public String where(String how) {
    if (how.equals("chain")) throw Frames.chain();
    Frames.show(how, new Throwable(how), Thread.currentThread().getStackTrace(),
                Frames.WALKER.getCallerClass(), Frames.walk());
    return "sub";
  }
}
