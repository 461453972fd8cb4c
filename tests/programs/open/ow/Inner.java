package ow;

/** Made by its superclass's static initializer (Outer). */
public class Inner extends Outer {
  final int twice;

  public Inner() {
    twice = value() * 2;
  }
}
