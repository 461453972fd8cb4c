package java.util;

/** A class the patch adds to java.base. */
public final class Patched {
    private Patched() {}

    public static String hello(String who) {
        List<String> l = new ArrayList<>(List.of(who, "patched", "java.base"));
        Collections.sort(l);
        return String.join(" ", l);
    }
}
