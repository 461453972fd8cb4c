package ow;

public abstract class Animal {
  public abstract String sound();

  public String speak() { return sound() + "!"; }
}
