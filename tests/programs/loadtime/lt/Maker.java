package lt;

/**
 * Makes an object of lt.Late, a class of a folder that was not rewritten
 * (tests/programs/loadtime/late): unknown to the rewrite, it extends
 * lt.Init, whose static initializer runs as Late is first made, right
 * after a call into the JDK. Prints what it gets.
 */
public class Maker {
  public static void main(String[] args) {
    int h = "late".hashCode();
    System.out.println("made " + (new Late().get() + h));
  }
}
