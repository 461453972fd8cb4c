package snap;

import java.io.File;

/**
 * A program in two phases for 'cccp-report dump': phase 1 calls 'work'
 * 1000 times, then the program creates GO.ready and waits (at most a
 * minute) for the file GO, then phase 2 calls 'work' 5000 times more and
 * it exits with status 3. A snapshot taken while it waits holds exactly
 * the first 1000 calls; the profile at exit all 6000.
 */
public class Main {
  static long sink;

  static int work(int i) {
    return i * 31 + 7;
  }

  static void phase(int n) {
    for (int i = 0; i < n; i++) sink += work(i);
  }

  public static void main(String[] args) throws Exception {
    phase(1000);
    System.out.println("phase 1: " + sink);
    File go = new File(args[0]);
    new File(args[0] + ".ready").createNewFile();
    for (int i = 0; i < 6000 && !go.exists(); i++) Thread.sleep(10);
    phase(5000);
    System.out.println("phase 2: " + sink);
    System.exit(3);
  }
}
