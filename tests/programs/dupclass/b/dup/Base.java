package dup;

/* Only b.jar has it: b.jar's Lib extends it. */
public class Base extends java.util.ArrayList<String> {
  public String onlyB() { return "B.onlyB " + size(); }
  public String name() { return "Base.name"; }
}
