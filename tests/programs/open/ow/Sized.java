package ow;

/**
 * An interface of the application that one implementation inherits from
 * the library (Bag: ArrayList.size) and another declares (Fixed): the
 * call site cannot be bound to a twin, and the node for the library
 * method is the runtime's to make.
 */
public interface Sized {
  int size();
}
