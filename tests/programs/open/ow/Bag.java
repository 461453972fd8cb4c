package ow;

import java.util.ArrayList;

/** Implements Sized.size with ArrayList's. */
public class Bag extends ArrayList<Object> implements Sized {
  private static final long serialVersionUID = 1L;
}
