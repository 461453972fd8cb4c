package dupc;

public class Tag implements dup.Tagged {
  public String label() { return "Tag.label"; }
}
