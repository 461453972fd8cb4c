package fx;

/* Sealed hierarchy (PermittedSubclasses) with nest members. */
public sealed interface Shape permits Shape.Circle, Shape.Square, Shape.Poly {
  double area();

  record Circle(double r) implements Shape {
    public double area() { return Math.PI * r * r; }
  }

  record Square(double side) implements Shape {
    public double area() { return side * side; }
  }

  non-sealed class Poly implements Shape {
    private double a;
    public double area() { return a; }
    private static double secret(Poly p) { return p.a; }
  }

  static double total(Shape[] all) {
    double t = 0;
    for (Shape s : all) {
      if (s instanceof Circle c) t += c.area();
      else t += s.area();
    }
    return t;
  }
}
