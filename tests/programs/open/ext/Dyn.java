package ext;

/** Defined at run time from its bytes by the test's own class loader. */
public class Dyn extends ow.Base {
  @Override public int get() { return ow.Base.helper(7); }
}
