package ext;

public class Dog extends ow.Animal {
  @Override public String sound() { return "woof"; }

  @Override public String speak() { return "dog says " + super.speak(); }
}
