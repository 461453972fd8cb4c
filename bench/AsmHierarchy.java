import java.util.ArrayList;
import java.util.Enumeration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/**
 * The peer of 'cccp-rewrite --analyze' in bench/analyze: read every class
 * of the given jmods with ASM (ClassReader, SKIP_CODE) and build the class
 * hierarchy with every declared method, as a whole-program analysis must.
 * Prints the number of classes and methods. Usage: AsmHierarchy -j N JMOD...
 */
public final class AsmHierarchy {
    static final class Info {
        String superName;
        String[] interfaces;
        final List<String> methods = new ArrayList<>();
    }

    public static void main(String[] args) throws Exception {
        int threads = 1, i = 0;
        if (args.length > 1 && args[0].equals("-j")) {
            threads = Integer.parseInt(args[1]);
            i = 2;
        }
        Map<String, Info> all = new HashMap<>();
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        List<Future<Map<String, Info>>> parts = new ArrayList<>();
        for (; i < args.length; i++) {
            String path = args[i];
            parts.add(pool.submit(() -> scan(path)));
        }
        for (Future<Map<String, Info>> f : parts) all.putAll(f.get());
        pool.shutdown();
        long methods = 0;
        for (Info info : all.values()) methods += info.methods.size();
        System.out.println(all.size() + " classes, " + methods + " methods");
    }

    static Map<String, Info> scan(String path) throws Exception {
        Map<String, Info> out = new HashMap<>();
        try (ZipFile z = new ZipFile(path)) {
            for (Enumeration<? extends ZipEntry> e = z.entries(); e.hasMoreElements();) {
                ZipEntry ze = e.nextElement();
                String n = ze.getName();
                if (!n.startsWith("classes/") || !n.endsWith(".class")
                        || n.endsWith("module-info.class")) continue;
                byte[] b = z.getInputStream(ze).readAllBytes();
                Info info = new Info();
                String[] name = new String[1];
                new ClassReader(b).accept(new ClassVisitor(Opcodes.ASM9) {
                    @Override
                    public void visit(int v, int acc, String nm, String sig,
                                      String sup, String[] itf) {
                        name[0] = nm;
                        info.superName = sup;
                        info.interfaces = itf;
                    }

                    @Override
                    public MethodVisitor visitMethod(int acc, String nm, String d,
                                                     String sig, String[] ex) {
                        info.methods.add(nm + d);
                        return null;
                    }
                }, ClassReader.SKIP_CODE | ClassReader.SKIP_DEBUG | ClassReader.SKIP_FRAMES);
                out.put(name[0], info);
            }
        }
        return out;
    }
}
