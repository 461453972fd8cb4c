package dup;

/* Only a.jar's Lib implements it. */
public interface Named {
  default String tag() { return "A.tag " + getClass().getSimpleName(); }
}
