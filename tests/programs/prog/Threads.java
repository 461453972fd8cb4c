/* Threads.java -- a second thread gets its own CCT root. */
package prog;

public final class Threads {
  static final class Worker implements Runnable {
    int n;
    public void run() { for (int i = 0; i < 3; i++) work(); }
    void work() { n++; }
  }

  public static void main(String[] args) throws InterruptedException {
    Worker w = new Worker();
    Thread t = new Thread(w, "worker");
    t.start();
    t.join();
    w.work();
    System.out.println(w.n);
  }
}
