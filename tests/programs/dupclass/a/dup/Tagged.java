package dup;

/* a.jar's definition: no static initializer. */
public interface Tagged {
  String label();
}
