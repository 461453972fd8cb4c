package java.util;

/** A class the patch adds to java.base. */
public final class Patched {
    private static final StackWalker WALKER =
        StackWalker.getInstance(StackWalker.Option.RETAIN_CLASS_REFERENCE);

    private Patched() {}

    public static String hello(String who) {
        List<String> l = new ArrayList<>(List.of(who, "patched", "java.base"));
        Collections.sort(l);
        return String.join(" ", l);
    }

    /** Its caller's class. */
    public static Class<?> caller() {
        return WALKER.getCallerClass();
    }

    /** The JVM refuses getCallerClass to a caller-sensitive method. */
    @jdk.internal.reflect.CallerSensitive
    public static Class<?> sensitive(int n, String[] s) {
        return WALKER.getCallerClass();
    }
}
