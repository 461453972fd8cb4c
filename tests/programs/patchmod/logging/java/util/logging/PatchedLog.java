package java.util.logging;

/** A class a patch adds to java.logging. */
public final class PatchedLog {
    private PatchedLog() {}

    public static String hi() {
        return Logger.getAnonymousLogger().getClass().getName() + " patched";
    }
}
