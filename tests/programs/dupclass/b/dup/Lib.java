package dup;

/* b.jar's definition: superclass Base (an ArrayList, so size() is the
** library's), implements Runnable, no onlyA(), a public secret() that a
** subclass overrides. */
public class Lib extends Base implements Runnable {
  public String name() { return "B.name"; }
  public void run() { System.out.println("  B.run " + name()); }
  public String secret() { return "B.secret"; }
  public String show() { return "B.show " + secret() + " " + name(); }
  public static String make() { return new Lib().show(); }
}
