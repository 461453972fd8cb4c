package demo.lib;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/** Shapes made and sorted in an explicit module, compared by a lambda the
 *  JDK's sort calls back. */
public final class Shapes {
  public interface Shape {
    double area();
  }

  private Shapes() {}

  public static Shape square(double s) {
    return () -> s * s;
  }

  public static Shape circle(double r) {
    return new Shape() {
      @Override public double area() { return 3 * r * r; }
      @Override public String toString() { return "circle " + r; }
    };
  }

  public static List<Shape> sorted(List<Shape> in) {
    List<Shape> out = new ArrayList<>(in);
    out.sort(Comparator.comparingDouble(Shape::area));
    return out;
  }
}
