package ow;

/**
 * A static initializer that makes an instance of a subclass: when the
 * program's first use is "new Inner()", Inner's initialization has
 * started (it starts with its superclasses, JVMS 5.5) but not run when
 * Inner's constructor runs here.
 */
public class Outer {
  static final Outer FIRST = new Inner();

  int value() {
    return 1;
  }
}
