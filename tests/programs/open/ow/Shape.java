package ow;

public interface Shape {
  default String name() { return "shape"; }

  String kind();

  default String describe() { return name() + "/" + kind(); }

  default String where(String how) { return "shape"; }
}
