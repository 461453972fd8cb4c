package ext;

/** Defined at run time from its bytes by the test's own class loader. */
public class Dyn extends ow.Base {
  @Override public int get() { return ow.Base.helper(7); }

  @Override public String where(String how) {
    Frames.show(how, new Throwable(how), Thread.currentThread().getStackTrace(),
                Frames.WALKER.getCallerClass(), Frames.walk());
    return "dyn";
  }
}
