/*
 * Snapshot.java -- the profile of a running program, on request: the
 * entry point of 'cccp-report dump PID' (through the native agent's
 * Agent_OnAttach) and of cccp.interval's periodic snapshots.
 */
package cccp.rt;

/** Snapshots of the running program's profile. */
public final class Snapshot {
  private Snapshot() {}

  /** 'take''s answers (the native agent returns them to the client). */
  public static final int OK = Dump.OK, CANNOT_WRITE = Dump.CANNOT_WRITE,
      NOT_PROFILING = Dump.NOT_PROFILING, EXITING = Dump.EXITING;

  /**
   * Write the profile as it is now to 'path' (absolute; written to
   * 'path.tmp' and renamed). With 'reset', a new interval starts: later
   * profiles hold only what runs after this one was taken. Never throws;
   * returns OK, CANNOT_WRITE (the file could not be written),
   * NOT_PROFILING (the runtime is off) or EXITING (the JVM is shutting
   * down and writes its profile at exit).
   */
  public static int take(String path, boolean reset) {
    try {
      return Dump.snapshot(path, reset);
    } catch (Throwable e) {
      return CANNOT_WRITE;
    }
  }

  /**
   * cccp.interval=SECONDS: a daemon thread, "cccp-interval", writes a
   * snapshot every SECONDS, each starting a new interval, to numbered
   * files beside the profile (cccp.out "p.xml" gives p.1.xml, p.2.xml,
   * ...; "p.xml.gz" gives p.1.xml.gz, ...): each holds what ran in its
   * interval, and the profile at exit the last one. Read once, with
   * profiling off (JDK mode: before CC.start turns it on; app mode: at
   * the first registration).
   */
  static void configure() {
    String v = System.getProperty("cccp.interval");
    if (v == null) return;
    long ms;
    try {
      ms = (long) (Double.parseDouble(v.trim()) * 1000);
    } catch (NumberFormatException e) {
      ms = 0;
    }
    if (ms < 10) {
      System.err.println("cccp: cccp.interval=" + v + " is not a number of "
                         + "seconds (0.01 or more): no periodic snapshots");
      return;
    }
    Periodic p = new Periodic(ms, System.getProperty("cccp.out", "cccp-profile.xml"));
    p.setDaemon(true);
    p.start();
  }

  /* The name of snapshot 'k' of profile 'out'. */
  static String numbered(String out, int k) {
    for (String ext : new String[] {".xml.gz", ".xml"})
      if (out.endsWith(ext))
        return out.substring(0, out.length() - ext.length()) + "." + k + ext;
    return out + "." + k;
  }

  /*
   * The thread of cccp.interval. A subclass, so that the JVM starts it
   * in the runtime's own code: nothing instrumented runs in it before
   * its slot says "not profiling" (JDK mode), and it makes no tree.
   */
  private static final class Periodic extends Thread {
    private final long ms;
    private final String out;

    Periodic(long ms, String out) {
      super("cccp-interval");
      this.ms = ms;
      this.out = out;
    }

    @Override
    public void run() {
      boolean warned = false;
      for (int k = 1;; k++) {
        CC.set(null);         // JDK mode: the JDK code it runs makes no nodes
        try {
          Thread.sleep(ms);
        } catch (InterruptedException e) {
          return;
        }
        String f = numbered(out, k);
        int r = take(new java.io.File(f).getAbsolutePath(), true);
        if (r == EXITING || r == NOT_PROFILING) return;
        if (r == CANNOT_WRITE && !warned) {
          warned = true;
          System.err.println("cccp: cannot write the snapshot " + f);
        }
      }
    }
  }
}
