/*
 * AsmCheck -- a second verifier, independent of HotSpot: ASM's
 * CheckClassAdapter (structure, without data flow) then, method by method,
 * an Analyzer over a SimpleVerifier (type inference from scratch; the
 * StackMapTable is not used), exactly what CheckClassAdapter.verify() does,
 * but with one result per method so two runs can be compared.
 *
 *   java [vm options] AsmCheck jdk  OUT EVERY [--also LIST] MODULE.jar|MODULE...
 *       The jars only name the classes (as for LinkCheck jdk); the bytes
 *       checked are those the running JVM has for them, and SimpleVerifier
 *       resolves types through the system class loader. So run it on the
 *       JDK the jars belong to, with --add-modules ALL-SYSTEM, and for
 *       rewritten jars with their --patch-module options: the baseline is
 *       the same command without them.
 *   java AsmCheck jars OUT EVERY [--also LIST] --universe LIST JAR...
 *       Types resolve through a child-first loader over the jar, then the
 *       jars named in the universe list (as LinkCheck does).
 *
 * The sample: classes whose name hashes to 0 modulo EVERY (stable whatever
 * the jar order), plus every class named in the --also file.
 * Output lines as LinkCheck's: KEY TAB OK|FAIL [TAB DETAIL], KEY being
 * JAR-OR-MODULE/CLASS for the class structure and .../CLASS.NAME+DESC for
 * each method. Compare two runs with "LinkCheck compare".
 *
 * ASM 9.4 reads class files up to version 64 (Java 20); newer ones are
 * handed to it with the major version lowered to 64 (the format is the same).
 *
 * Departures from plain SimpleVerifier, to judge as the JVM does where
 * classes are absent from the class path: every reference is assignable to
 * java.lang.Object without loading it (SimpleVerifier loads both types, so
 * passing a value whose class is absent to an Object parameter failed with
 * TypeNotPresentException); a join that needs an absent class gives an
 * unusable value instead of failing (HotSpot checks the StackMapTable's
 * types and computes no joins; a rewrite adds locals, such as spilled call
 * arguments, whose types meet at joins the original did not have). And
 * identity hashes in messages are written "@X".
 */
import java.io.IOException;
import java.io.PrintWriter;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

import org.objectweb.asm.ClassReader;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.analysis.Analyzer;
import org.objectweb.asm.tree.analysis.BasicValue;
import org.objectweb.asm.tree.analysis.SimpleVerifier;
import org.objectweb.asm.util.CheckClassAdapter;

public final class AsmCheck {
    static final int ASM_MAX_MAJOR = 64;
    static final Type OBJECT = Type.getObjectType("java/lang/Object");
    static int classes, methods, fails;

    public static void main(String[] args) throws Exception {
        if (args.length < 3 || !(args[0].equals("jdk") || args[0].equals("jars"))) {
            System.err.println("usage: AsmCheck jdk OUT EVERY [--also LIST] MODULE.jar...\n"
                + "       AsmCheck jars OUT EVERY [--also LIST] --universe LIST JAR...");
            System.exit(2);
        }
        boolean jdk = args[0].equals("jdk");
        int every = Integer.parseInt(args[2]);
        Set<String> also = new HashSet<>();
        List<URL> universe = new ArrayList<>();
        List<Path> jars = new ArrayList<>();
        for (int i = 3; i < args.length; i++) {
            if (args[i].equals("--also")) {
                for (String l : Files.readAllLines(Paths.get(args[++i])))
                    if (!l.isBlank()) also.add(l.trim());
            } else if (args[i].equals("--universe")) {
                for (String l : Files.readAllLines(Paths.get(args[++i])))
                    if (!l.isBlank()) universe.add(Paths.get(l.trim()).toUri().toURL());
            } else {
                jars.add(Paths.get(args[i]));
            }
        }
        ClassLoader parent = new URLClassLoader("universe", universe.toArray(new URL[0]),
            ClassLoader.getPlatformClassLoader());
        try (PrintWriter out = LinkCheck.writer(args[1])) {
            for (Path jar : jars) {
                String label = jar.getFileName().toString();
                boolean isJar = label.endsWith(".jar");
                if (jdk) label = label.replaceFirst("\\.jar$", "");
                List<String> names = isJar ? LinkCheck.classNames(jar) : LinkCheck.moduleClassNames(label);
                Module module = jdk ? ModuleLayer.boot().findModule(label).orElse(null) : null;
                if (jdk && module == null) {
                    out.println("# module " + label + " is not in the boot layer");
                    continue;
                }
                try (LinkCheck.ChildFirstLoader cfl = jdk ? null
                         : new LinkCheck.ChildFirstLoader(jar, parent, false)) {
                    ClassLoader loader = jdk ? ClassLoader.getSystemClassLoader() : cfl;
                    for (String cn : names) {
                        if ((cn.hashCode() & 0x7fffffff) % every != 0 && !also.contains(cn)) continue;
                        String entry = cn.replace('.', '/') + ".class";
                        byte[] b;
                        if (jdk) {
                            try (var in = module.getResourceAsStream(entry)) {
                                b = in == null ? null : in.readAllBytes();
                            }
                        } else {
                            b = cfl.bytes(cn);
                        }
                        String key = label + (jdk ? "/" : "!") + cn;
                        if (b == null) {
                            fails++;
                            out.println(key + "\tFAIL\tmissing: no class file " + entry);
                            continue;
                        }
                        check(out, key, b, loader);
                    }
                }
                out.flush();
            }
            out.println("# classes " + classes + ", methods " + methods + ", failed " + fails);
            out.println("# done");
        }
    }

    private static final Pattern INSN = Pattern.compile("instruction \\d+");
    private static final Pattern SPACE = Pattern.compile("\\s+");

    static String detail(Throwable t) {
        String m = t.getClass().getName() + ": " + t.getMessage();
        if (t.getCause() != null) m += " / caused by " + t.getCause();
        m = SPACE.matcher(m).replaceAll(" ");
        m = INSN.matcher(m).replaceAll("instruction N");
        m = LinkCheck.HASH.matcher(m).replaceAll("@X");
        return m.length() > 500 ? m.substring(0, 500) + "..." : m;
    }

    static void check(PrintWriter out, String key, byte[] b, ClassLoader loader) {
        classes++;
        if (b.length > 8 && (((b[6] & 0xff) << 8) | (b[7] & 0xff)) > ASM_MAX_MAJOR) {
            b = b.clone();
            b[6] = 0;
            b[7] = (byte) ASM_MAX_MAJOR;
        }
        ClassNode cn = new ClassNode();
        try {
            new ClassReader(b).accept(new CheckClassAdapter(Opcodes.ASM9, cn, false) { },
                ClassReader.SKIP_DEBUG);
        } catch (Throwable t) {
            fails++;
            out.println(key + "\tFAIL\tstructure: " + detail(t));
            return;
        }
        out.println(key + "\tOK");
        Type syperType = cn.superName == null ? null : Type.getObjectType(cn.superName);
        List<Type> interfaces = new ArrayList<>();
        for (String i : cn.interfaces) interfaces.add(Type.getObjectType(i));
        for (MethodNode mn : cn.methods) {
            methods++;
            SimpleVerifier v = new SimpleVerifier(Opcodes.ASM9, Type.getObjectType(cn.name), syperType,
                interfaces, (cn.access & Opcodes.ACC_INTERFACE) != 0) {
                    // Every reference is assignable to java.lang.Object
                    // (JVMS 4.10.1.2), as HotSpot decides without loading
                    // anything; SimpleVerifier would load the other type,
                    // and fail when it is absent from the class path.
                    @Override
                    protected boolean isAssignableFrom(Type t, Type u) {
                        return t.equals(OBJECT) && (u.getSort() == Type.OBJECT || u.getSort() == Type.ARRAY)
                            || super.isAssignableFrom(t, u);
                    }

                    // A join that needs a class absent from the class path
                    // cannot be computed; HotSpot never computes joins (the
                    // StackMapTable states the type). The value is then
                    // unusable, as a join of unrelated kinds is: a use of
                    // it still fails, a dead one does not.
                    @Override
                    public BasicValue merge(BasicValue a, BasicValue b) {
                        try {
                            return super.merge(a, b);
                        } catch (TypeNotPresentException | LinkageError e) {
                            return BasicValue.UNINITIALIZED_VALUE;
                        }
                    }
                };
            v.setClassLoader(loader);
            String mkey = key + "." + mn.name + mn.desc;
            try {
                new Analyzer<BasicValue>(v).analyze(cn.name, mn);
                out.println(mkey + "\tOK");
            } catch (Throwable t) {
                fails++;
                out.println(mkey + "\tFAIL\tanalyzer: " + detail(t));
            }
        }
    }
}
