package lt;

/** A rewritten class that a class defined at run time extends. */
public class Base {
  protected int step(int i) {
    return i + 1;
  }

  public int total(int n) {
    int s = 0;
    for (int i = 0; i < n; i++) s += step(i);
    return s;
  }
}
