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
}
