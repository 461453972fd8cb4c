/*
 * LinkCheck -- load and link (and so verify) every class of some jars, one
 * result line per class, and compare two such runs.
 *
 *   java [vm options] LinkCheck jdk  OUT MODULE.jar|MODULE...
 *       Each MODULE.jar holds the classes of the JDK module MODULE (the jar's
 *       base name); a bare MODULE means every class the running JVM has in
 *       that module. Every class is loaded by that module's loader in the
 *       boot layer and linked. Run it with --add-modules ALL-SYSTEM, and
 *       to check rewritten classes with --patch-module MODULE=MODULE.jar plus
 *       -XX:+UnlockDiagnosticVMOptions -XX:+BytecodeVerificationLocal
 *       -Xshare:off (the boot loader's classes are not verified otherwise).
 *
 *   java [vm options] LinkCheck jars OUT [--universe LIST] [--no-strict50] JAR...
 *       Each JAR gets a fresh child-first URLClassLoader over it whose parent
 *       is one loader over every jar named in the file LIST (dependencies,
 *       unmodified). Class files of version 50 are defined as version 51 so
 *       that HotSpot cannot fail over to the old inference verifier, which
 *       ignores the StackMapTable (--no-strict50 keeps them as they are).
 *
 *   java LinkCheck extract MODULE ENTRY OUT
 *       Copies one class file (e.g. java/sql/Timestamp.class) of a module
 *       of the running JVM to OUT.
 *
 *   java LinkCheck compare BASELINE NEW
 *       Prints the entries whose result in NEW is a failure that BASELINE
 *       does not have: no failure there, another kind of failure, or a
 *       VerifyError, ClassFormatError or ASM error with another message
 *       (NEW lines); the entries missing from NEW (MISSING); and a summary
 *       line. Exits 1 when there is any. An entry failing in both with a
 *       LinkageError or other error whose message changed (say another
 *       missing dependency is met first) was not verifiable in either run:
 *       CHANGED, not counted; so is a method ASM's analyzer rejects in
 *       both whose message changed (the analyzer loads classes HotSpot
 *       never asks for, and names the first it misses). Messages are compared without bytecode
 *       offsets ("@12:") and CCCP's extra parameter in descriptors: a class
 *       the original of which fails verification with the same reason in
 *       the same method fails the same way (seen: a protected field read
 *       across the runtime packages of two jars' loaders, where code was
 *       inserted before the read).
 *
 * "Linked" means: Class.forName(name, false, loader) (loads, does not link
 * or initialize), then Class.getDeclaredFields(), whose native side
 * (JVM_GetClassDeclaredFields) calls InstanceKlass::link_class first, which
 * verifies the class, its superclasses and superinterfaces. No class
 * initializer runs.
 *
 * HotSpot never verifies some classes (verifier.cpp,
 * is_eligible_for_verification): before JDK 24 java.lang.Object, Class,
 * String and Throwable; every subclass of
 * jdk.internal.reflect.MagicAccessorImpl, while that class exists (it does
 * in 17, not in 25). Both seen on 17: a corrupted one links. Those link
 * fine whatever their code; they get the status UNVERIFIED (counted as OK by
 * compare), so that a second verifier can be pointed at them.
 *
 * Result lines: KEY TAB STATUS [TAB DETAIL], STATUS one of OK, FAIL, SKIP,
 * UNVERIFIED.
 * KEY is MODULE/CLASS (jdk) or JARNAME!CLASS (jars). Lines starting with
 * '#' are comments; the last line of a complete run is "# done".
 */
import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.security.CodeSource;
import java.security.cert.Certificate;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.regex.Pattern;
import java.util.zip.ZipFile;

public final class LinkCheck {

    public static void main(String[] args) throws Exception {
        if (args.length < 2) usage();
        switch (args[0]) {
            case "jdk": jdk(args); break;
            case "jars": jars(args); break;
            case "compare": System.exit(compare(args)); break;
            case "extract": extract(args); break;
            default: usage();
        }
    }

    static void usage() {
        System.err.println("usage: LinkCheck jdk OUT MODULE.jar|MODULE...\n"
            + "       LinkCheck jars OUT [--universe LIST] [--no-strict50] JAR...\n"
            + "       LinkCheck extract MODULE ENTRY OUT\n"
            + "       LinkCheck compare BASELINE NEW");
        System.exit(2);
    }

    // ---------------------------------------------------------------- jdk

    static final Class<?> MAGIC = magic();

    static Class<?> magic() {
        try {
            return Class.forName("jdk.internal.reflect.MagicAccessorImpl", false, null);
        } catch (ClassNotFoundException e) {
            return null;
        }
    }

    /** Classes HotSpot links without verifying them (see the header). */
    static boolean hotspotSkips(Class<?> c) {
        if (Runtime.version().feature() < 24
                && (c == Object.class || c == Class.class || c == String.class || c == Throwable.class))
            return true;
        return MAGIC != null && MAGIC.isAssignableFrom(c);
    }

    /** Class names of a module of the running JVM (patches included), sorted. */
    static List<String> moduleClassNames(String mod) throws IOException {
        Optional<java.lang.module.ResolvedModule> rm = ModuleLayer.boot().configuration().findModule(mod);
        List<String> names = new ArrayList<>();
        if (rm.isEmpty()) return names;
        try (java.lang.module.ModuleReader r = rm.get().reference().open()) {
            r.list().filter(e -> e.endsWith(".class") && !e.startsWith("META-INF/")
                    && !e.endsWith("module-info.class"))
                .forEach(e -> names.add(e.substring(0, e.length() - 6).replace('/', '.')));
        }
        names.sort(null);
        return names;
    }

    static void extract(String[] args) throws IOException {
        Module m = ModuleLayer.boot().findModule(args[1])
            .orElseThrow(() -> new IllegalArgumentException("no module " + args[1]));
        try (var in = m.getResourceAsStream(args[2])) {
            if (in == null) throw new IllegalArgumentException("no " + args[2] + " in " + args[1]);
            Files.write(Paths.get(args[3]), in.readAllBytes());
        }
    }

    static void jdk(String[] args) throws IOException {
        int n = 0, fails = 0, skips = 0, unverified = 0;
        try (PrintWriter out = writer(args[1])) {
            for (int i = 2; i < args.length; i++) {
                boolean isJar = args[i].endsWith(".jar");
                String mod = isJar
                    ? Paths.get(args[i]).getFileName().toString().replaceFirst("\\.jar$", "")
                    : args[i];
                Optional<Module> m = ModuleLayer.boot().findModule(mod);
                List<String> names = isJar ? classNames(Paths.get(args[i])) : moduleClassNames(mod);
                if (m.isEmpty()) {
                    out.println("# module " + mod + " is not in the boot layer: "
                        + names.size() + " classes skipped");
                    for (String cn : names) {
                        out.println(mod + "/" + cn + "\tSKIP\tmodule not in the boot layer");
                        skips++;
                    }
                    continue;
                }
                Module module = m.get();
                ClassLoader loader = module.getClassLoader();
                for (String cn : names) {
                    String r = link(cn, loader);
                    if (r == null) {
                        // Loaded by the module's loader but from elsewhere?
                        Class<?> c = Class.forName(cn, false, loader);
                        if (c.getModule() != module) {
                            r = "FAIL\tWrongModule: loaded into " + c.getModule();
                        } else if (hotspotSkips(c)) {
                            r = "UNVERIFIED\tHotSpot links this class without verifying it";
                            unverified++;
                        }
                    }
                    out.println(mod + "/" + cn + "\t" + (r == null ? "OK" : r));
                    n++;
                    if (r != null && r.startsWith("FAIL")) fails++;
                }
                out.flush();
            }
            out.println("# linked " + n + ", failed " + fails + ", skipped " + skips
                + ", unverified by HotSpot " + unverified);
            out.println("# done");
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException(e);
        }
    }

    // --------------------------------------------------------------- jars

    static void jars(String[] args) throws IOException {
        List<URL> universe = new ArrayList<>();
        boolean strict50 = true;
        List<Path> jars = new ArrayList<>();
        for (int i = 2; i < args.length; i++) {
            if (args[i].equals("--universe")) {
                for (String l : Files.readAllLines(Paths.get(args[++i]))) {
                    if (!l.isBlank()) universe.add(new File(l.trim()).toURI().toURL());
                }
            } else if (args[i].equals("--no-strict50")) {
                strict50 = false;
            } else {
                jars.add(Paths.get(args[i]));
            }
        }
        URLClassLoader parent = new URLClassLoader("universe",
            universe.toArray(new URL[0]), ClassLoader.getPlatformClassLoader());
        int n = 0, fails = 0;
        try (PrintWriter out = writer(args[1])) {
            for (Path jar : jars) {
                String label = jar.getFileName().toString();
                List<String> names = classNames(jar);
                try (ChildFirstLoader loader = new ChildFirstLoader(jar, parent, strict50)) {
                    for (String cn : names) {
                        String r = link(cn, loader);
                        if (r == null) {
                            Class<?> c = loader.loadClass(cn);
                            if (c.getClassLoader() != loader)
                                r = "FAIL\tNotFromJar: defined by " + c.getClassLoader();
                        }
                        out.println(label + "!" + cn + "\t" + (r == null ? "OK" : r));
                        n++;
                        if (r != null) fails++;
                    }
                } catch (ClassNotFoundException e) {
                    throw new IllegalStateException(e);
                }
                out.flush();
            }
            out.println("# linked " + n + ", failed " + fails);
            out.println("# done");
        }
    }

    /**
     * Child-first loader over one jar (multi-release aware): the jar's own
     * classes are always defined here, so they are the ones verified, even
     * when the parent could also supply them. Only java.* goes to the
     * parent first (no other loader may define it).
     */
    static final class ChildFirstLoader extends URLClassLoader {
        static { ClassLoader.registerAsParallelCapable(); }
        private final JarFile jar;
        private final CodeSource cs;
        private final boolean strict50;

        ChildFirstLoader(Path jarPath, ClassLoader parent, boolean strict50) throws IOException {
            super("verify:" + jarPath.getFileName(), new URL[] { jarPath.toUri().toURL() }, parent);
            this.jar = new JarFile(jarPath.toFile(), false, ZipFile.OPEN_READ, Runtime.version());
            this.cs = new CodeSource(jarPath.toUri().toURL(), (Certificate[]) null);
            this.strict50 = strict50;
        }

        @Override
        protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
            synchronized (getClassLoadingLock(name)) {
                Class<?> c = findLoadedClass(name);
                if (c == null && !name.startsWith("java.")) {
                    try {
                        c = findClass(name);
                    } catch (ClassNotFoundException e) {
                        // not in this jar
                    }
                }
                if (c == null) c = getParent().loadClass(name);
                if (resolve) resolveClass(c);
                return c;
            }
        }

        @Override
        protected Class<?> findClass(String name) throws ClassNotFoundException {
            JarEntry e = jar.getJarEntry(name.replace('.', '/') + ".class");
            if (e == null) throw new ClassNotFoundException(name);
            byte[] b;
            try (var in = jar.getInputStream(e)) {
                b = in.readAllBytes();
            } catch (IOException x) {
                throw new ClassNotFoundException(name, x);
            }
            if (strict50 && b.length > 8 && (b[0] & 0xff) == 0xca && b[6] == 0 && b[7] == 50)
                b[7] = 51;
            int dot = name.lastIndexOf('.');
            if (dot > 0) {
                String pkg = name.substring(0, dot);
                if (getDefinedPackage(pkg) == null) {
                    try {
                        definePackage(pkg, null, null, null, null, null, null, null);
                    } catch (IllegalArgumentException raced) {
                        // defined meanwhile
                    }
                }
            }
            return defineClass(name, b, 0, b.length, cs);
        }

        /** Bytes of a class of this jar as stored (for ASM), or null. */
        byte[] bytes(String name) throws IOException {
            JarEntry e = jar.getJarEntry(name.replace('.', '/') + ".class");
            if (e == null) return null;
            try (var in = jar.getInputStream(e)) {
                return in.readAllBytes();
            }
        }

        @Override
        public void close() throws IOException {
            jar.close();
            super.close();
        }
    }

    // ------------------------------------------------------------- shared

    /**
     * Binary names of the classes of a jar (versioned view), sorted: the
     * load order, which can matter (loader constraints, resolution errors),
     * is then the same for an original and a rewritten jar.
     */
    static List<String> classNames(Path jarPath) throws IOException {
        TreeSet<String> names = new TreeSet<>();
        try (JarFile jf = new JarFile(jarPath.toFile(), false, ZipFile.OPEN_READ, Runtime.version())) {
            jf.versionedStream().forEach(e -> {
                String n = e.getName();
                if (e.isDirectory() || !n.endsWith(".class") || n.startsWith("META-INF/")
                        || n.endsWith("module-info.class"))
                    return;
                names.add(n.substring(0, n.length() - 6).replace('/', '.'));
            });
        }
        return new ArrayList<>(names);
    }

    /** Loads and links one class; null on success, else "FAIL\tdetail". */
    static String link(String name, ClassLoader loader) {
        try {
            Class<?> c = Class.forName(name, false, loader);
            c.getDeclaredFields();
            return null;
        } catch (Throwable t) {
            return "FAIL\t" + describe(t);
        }
    }

    /** Identity hashes in messages ("loader 'x' @1b6d3586"), which vary by run. */
    static final Pattern HASH = Pattern.compile("@[0-9a-f]{4,}");
    private static final Pattern SPACE = Pattern.compile("\\s+");

    /** One line: the kind, then each exception of the cause chain. */
    static String describe(Throwable t) {
        StringBuilder sb = new StringBuilder(kind(t)).append(": ");
        int depth = 0;
        for (Throwable c = t; c != null && depth < 4; c = c.getCause(), depth++) {
            if (depth > 0) sb.append(" / caused by ");
            sb.append(c.getClass().getName());
            String m = c.getMessage();
            if (m != null) {
                int cut = m.indexOf("Current Frame:");
                if (cut >= 0) m = m.substring(0, cut);
                m = SPACE.matcher(m).replaceAll(" ").trim();
                m = HASH.matcher(m).replaceAll("@X");
                if (m.length() > 500) m = m.substring(0, 500) + "...";
                sb.append(": ").append(m);
            }
        }
        return sb.toString();
    }

    /** VerifyError, ClassFormatError, LinkageError or Other (first match in the chain). */
    static String kind(Throwable t) {
        for (Throwable c = t; c != null; c = c.getCause())
            if (c instanceof VerifyError) return "VerifyError";
        for (Throwable c = t; c != null; c = c.getCause())
            if (c instanceof ClassFormatError) return "ClassFormatError";
        for (Throwable c = t; c != null; c = c.getCause())
            if (c instanceof LinkageError) return "LinkageError";
        return "Other";
    }

    static PrintWriter writer(String path) throws IOException {
        return new PrintWriter(Files.newBufferedWriter(Paths.get(path), StandardCharsets.UTF_8));
    }

    // ------------------------------------------------------------ compare

    static Map<String, String[]> read(String path, boolean[] done) throws IOException {
        Map<String, String[]> m = new LinkedHashMap<>();
        try (BufferedReader r = Files.newBufferedReader(Paths.get(path), StandardCharsets.UTF_8)) {
            for (String l; (l = r.readLine()) != null; ) {
                if (l.startsWith("#")) {
                    if (l.equals("# done")) done[0] = true;
                    continue;
                }
                String[] f = l.split("\t", 3);
                // A CCCP twin (extra Lcccp/rt/CC; parameter) stands for its
                // original method: a failure of either counts for both.
                String key = f[0].replace("Lcccp/rt/CC;", "");
                String[] v = { f[1], f.length > 2 ? f[2] : "" };
                String[] old = m.get(key);
                if (old == null || !old[0].equals("FAIL")) m.put(key, v);
            }
        }
        return m;
    }

    private static final Pattern OFFSET = Pattern.compile("@([0-9]+|X):");

    /** A failure message without what a rewrite moves: bytecode offsets
     *  (LinkCheck writes those of 4 digits or more as "@X") and CCCP's
     *  extra parameter in the descriptors it names. */
    static String canon(String detail) {
        return OFFSET.matcher(detail.replace("Lcccp/rt/CC;", "")).replaceAll("@N:");
    }

    /** Kinds whose message must stay the same (AsmCheck's included). */
    static final java.util.Set<String> STRICT_KINDS =
        java.util.Set.of("VerifyError", "ClassFormatError", "structure");

    /** The kind a result detail starts with ("VerifyError: ..."). */
    static String kindOf(String detail) {
        return detail.substring(0, Math.max(0, detail.indexOf(':')));
    }

    static int compare(String[] args) throws IOException {
        boolean[] baseDone = { false }, newDone = { false };
        Map<String, String[]> base = read(args[1], baseDone);
        Map<String, String[]> neu = read(args[2], newDone);
        int baseFail = 0, newFail = 0, fixed = 0, missing = 0, skipped = 0, changed = 0;
        Map<String, Integer> byKind = new LinkedHashMap<>();
        for (String[] v : base.values()) if (v[0].equals("FAIL")) baseFail++;
        for (Map.Entry<String, String[]> e : neu.entrySet()) {
            String[] n = e.getValue(), b = base.get(e.getKey());
            if (n[0].equals("SKIP")) { skipped++; continue; }
            if (n[0].equals("FAIL")) {
                String kind = kindOf(n[1]);
                boolean bothFail = b != null && b[0].equals("FAIL");
                if (bothFail && canon(b[1]).equals(canon(n[1]))) continue;
                if (bothFail && kindOf(b[1]).equals(kind) && !STRICT_KINDS.contains(kind)) {
                    changed++;
                    System.out.println("CHANGED " + e.getKey() + "\t" + n[1]);
                    System.out.println("    baseline: " + b[1]);
                    continue;
                }
                newFail++;
                byKind.merge(kind, 1, Integer::sum);
                System.out.println("NEW " + e.getKey() + "\t" + n[1]);
                if (bothFail) System.out.println("    baseline: " + b[1]);
            } else if (b != null && b[0].equals("FAIL")) {
                fixed++;
            }
        }
        for (String k : base.keySet()) {
            if (!neu.containsKey(k)) {
                missing++;
                System.out.println("MISSING " + k);
            }
        }
        if (!baseDone[0]) System.out.println("INCOMPLETE baseline " + args[1]);
        if (!newDone[0]) System.out.println("INCOMPLETE run " + args[2]);
        System.out.println("compare: " + neu.size() + " entries, " + skipped + " skipped, "
            + baseFail + " baseline failures, " + newFail + " new failures " + byKind
            + ", " + missing + " missing, " + changed + " changed, " + fixed + " fixed");
        return newFail == 0 && missing == 0 && baseDone[0] && newDone[0] ? 0 : 1;
    }
}
