package ow;

/** Instrumented, below a class that was not rewritten (ext.Sub). */
public class Leaf extends ext.Sub {
  public int twiceLeaf() { return twice() + 1; }
}
