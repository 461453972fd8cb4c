package dup;

/* b.jar's definition: area() is overridable. */
public class Shape {
  public String area() { return "B.area"; }
  public String describe() { return "B.describe " + area(); }
}
