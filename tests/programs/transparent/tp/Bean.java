package tp;

import java.io.Serializable;

/** Serializable, no serialVersionUID and no static initialiser. */
public class Bean implements Serializable {
  private int size;
  public String label = "x";
  protected transient long stamp;

  public Bean() {}

  Bean(int size) { this.size = size; }

  public int getSize() { return size; }

  public void setSize(int size) { this.size = size; }

  public boolean isEmpty() { return size == 0; }

  protected String describe(String prefix) { return prefix + size; }

  static int twice(int x) { return 2 * x; }

  private void secret() {}

  public synchronized int sync() { return size; }

  public Bean copy() { return new Bean(size); }
}
