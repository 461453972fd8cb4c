/**
 * A program run with patches of its own for java.base (a JDK class
 * replaced, a class added) and java.logging (a class added): what it
 * prints shows which classes it got.
 */
public class Main {
    public static void main(String[] args) throws Exception {
        System.out.println(Void.class.getMethod("patched").invoke(null));
        Class<?> p = Class.forName("java.util.Patched");
        System.out.println(p.getMethod("hello", String.class).invoke(null, "main"));
        System.out.println(p.getModule() + " " + Void.class.getModule() + " " + Void.TYPE);
        System.out.println(p.getMethod("caller").invoke(null));
        try {
            System.out.println(p.getMethod("sensitive", int.class, String[].class)
                               .invoke(null, 1, new String[0]));
        } catch (java.lang.reflect.InvocationTargetException e) {
            System.out.println(e.getCause());
        }
        Class<?> l = Class.forName("java.util.logging.PatchedLog");
        System.out.println(l.getModule() + " " + l.getMethod("hi").invoke(null));
        try {
            Void.class.getMethod("absent");
        } catch (NoSuchMethodException e) {
            System.out.println("no " + e.getMessage());
        }
    }
}
