package dupc;

/* A third jar's subclass, compiled against b.jar: overrides name(),
** secret() (private in a.jar's Lib) and size(). */
public class Sub extends dup.Lib {
  public String name() { return "Sub.name<" + super.name() + ">"; }
  public String secret() { return "Sub.secret"; }
  public int size() { return 7 + super.size(); }
}
