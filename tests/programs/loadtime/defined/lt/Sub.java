package lt;

/** A subclass of a rewritten class, defined at run time (by another
 *  loader: another runtime package) whose override the rewritten class
 *  calls. */
public class Sub extends Base {
  @Override
  protected int step(int i) {
    return i + 2;
  }

  public static int run() {
    return new Sub().total(50);
  }
}
