package dupc;

/* Overrides area(), final in a.jar's Shape: loads only with b.jar's. */
public class Square extends dup.Shape {
  public String area() { return "Square.area"; }
}
