package dup;

/* a.jar's definition: superclass Object, implements Named, declares
** size() itself, onlyA() that b.jar's lacks, a private secret(). */
public class Lib implements Named {
  public String name() { return "A.name"; }
  public String onlyA() { return "A.onlyA " + name(); }
  public int size() { return 42; }
  private String secret() { return "A.secret"; }
  public String show() { return "A.show " + secret() + " " + name(); }
  public static String make() { return new Lib().show(); }
}
