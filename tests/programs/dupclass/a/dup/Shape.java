package dup;

/* a.jar's definition: area() is final. */
public class Shape {
  public final String area() { return "A.area"; }
  public String describe() { return "A.describe " + area(); }
}
