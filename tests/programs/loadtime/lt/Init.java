package lt;

/** A rewritten class whose static initializer makes a call. */
public class Init {
  static final int SEED = setup();

  static int setup() {
    return 7;
  }

  public int get() {
    return SEED;
  }
}
