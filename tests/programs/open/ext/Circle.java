package ext;

public class Circle implements ow.Shape {
  @Override public String name() { return "circle"; }

  @Override public String kind() { return "round"; }
}
