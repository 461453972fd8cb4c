package tp;

public record Point(int x, int y) implements Shape {
  public Point {
    if (x < 0) throw new IllegalArgumentException("x < 0");
  }

  public double area() { return 0; }

  public Point scale(int k) { return new Point(x * k, y * k); }
}
