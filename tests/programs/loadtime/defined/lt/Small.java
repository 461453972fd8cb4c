package lt;

/** A class the program defines at run time (lt.Define). */
public class Small {
  static int g(int i) {
    return i * i;
  }

  public static int run() {
    int s = 0;
    for (int i = 0; i < 100; i++) s += g(i);
    return s;
  }
}
