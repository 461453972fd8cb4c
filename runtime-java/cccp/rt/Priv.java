/*
 * Priv.java -- the runtime's own work done with the runtime's
 * permissions, not its caller's.
 */
package cccp.rt;

import java.security.AccessController;
import java.security.PrivilegedAction;

/**
 * Under a SecurityManager (JDK 17; 24 and later have none), a check
 * looks at every frame on the stack: the program's, below the runtime's,
 * would decide whether the runtime may read its own properties and
 * files, reflect on a receiver's class or register its shutdown hook,
 * and the program would see the runtime's AccessControlException. The
 * runtime's classes have all permissions (boot class path, or java.base
 * in JDK mode), so its work runs in AccessController.doPrivileged, which
 * stops the check at the runtime's frame. An action's answer is an int.
 */
final class Priv implements PrivilegedAction<Integer> {
  static final int OWNS = 1, OF = 2, HOOK = 3, EXIT_DUMP = 4, SNAPSHOT = 5;

  private final int op, mid;
  private final Class<?> k;
  private final Object arg;
  private final boolean flag;

  private Priv(int op, int mid, Class<?> k, Object arg, boolean flag) {
    this.op = op;
    this.mid = mid;
    this.k = k;
    this.arg = arg;
    this.flag = flag;
  }

  @Override
  public Integer run() {
    switch (op) {
      case OWNS: return Select.owns(mid, k);
      case OF: return Select.of(mid, k);
      case HOOK: CC.Registry.hookWork(); return 0;
      case EXIT_DUMP: ((Dump) arg).exitWork(); return 0;
      default: return Dump.snapshotWork((String) arg, flag);
    }
  }

  private static int go(Priv p) {
    return AccessController.doPrivileged(p).intValue();
  }

  /** Select.owns, privileged. */
  static int owns(int mid, Class<?> k) {
    return go(new Priv(OWNS, mid, k, null, false));
  }

  /** Select.of, privileged. */
  static int of(int mid, Class<?> k) {
    return go(new Priv(OF, mid, k, null, false));
  }

  /** The registry's first work (settings, the hook), privileged. */
  static void hook() {
    go(new Priv(HOOK, 0, null, null, false));
  }

  /** The dump at exit, privileged. */
  static void exitDump(Dump d) {
    go(new Priv(EXIT_DUMP, 0, null, d, false));
  }

  /** A snapshot, privileged. */
  static int snapshot(String path, boolean reset) {
    return go(new Priv(SNAPSHOT, 0, null, path, reset));
  }
}
