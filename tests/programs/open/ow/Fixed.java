package ow;

/** Implements Sized.size itself. */
public class Fixed implements Sized {
  @Override
  public int size() {
    return 3;
  }
}
