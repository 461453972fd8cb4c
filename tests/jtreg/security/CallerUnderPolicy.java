/*
 * @test
 * @summary Under a SecurityManager with a policy file, getCallerClass and
 *          stack walks work as the policy says, the profiler's own work
 *          never fails for want of the program's permissions, and it
 *          does not turn itself off.
 * @requires jdk.version.major < 24
 * @run main/othervm/policy=walker.policy CallerUnderPolicy
 */
import java.security.AccessControlException;
import java.util.List;
import java.util.stream.Collectors;

public class CallerUnderPolicy {
  static void check(boolean ok, String what) {
    if (!ok) throw new RuntimeException("failed: " + what);
  }

  static Class<?> caller() {
    return StackWalker.getInstance(StackWalker.Option.RETAIN_CLASS_REFERENCE)
        .getCallerClass();
  }

  public static void main(String[] args) {
    check(System.getSecurityManager() != null, "a security manager");
    check(caller() == CallerUnderPolicy.class, "getCallerClass");
    List<String> names = StackWalker.getInstance().walk(s -> s
        .map(f -> f.getClassName() + "." + f.getMethodName() + ":" + f.getLineNumber())
        .collect(Collectors.toList()));
    check(names.get(0).startsWith("CallerUnderPolicy.main:"), "top " + names);
    for (String n : names)
      check(!n.contains("cccp") && !n.endsWith(":65535"), "frame " + n);
    try {
      System.getProperty("user.home");
      check(false, "user.home is not granted");
    } catch (AccessControlException e) {
      /* as the policy says */
    }
    System.out.println("ok " + names.size());
  }
}
