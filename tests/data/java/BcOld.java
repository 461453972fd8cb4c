package bc;

/* Rewritten by the tests into a version-49 class whose jsrf() uses
** jsr/ret (javac 17 cannot emit either). No invokedynamic here. */
public class BcOld {
  static int jsrf(int x) {
    return x;
  }

  static int loop(int n) {
    int s = 0;
    for (int i = 0; i < n; i++) s += i;
    return s;
  }

  public static void main(String[] args) {
    System.out.println(jsrf(41));
    System.out.println(loop(10));
  }
}
