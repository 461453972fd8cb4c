/*
 * AsmRoundtrip -- the ASM baseline for bench/roundtrip.
 *
 * Does the same job as `cccp-rewrite --identity JMOD... -o DIR/`: for every
 * jmod, every entry under classes/ is written (with the classes/ prefix
 * stripped) into DIR/<module>.jar; .class entries go through ASM first,
 * other entries are copied. Output entries are deflated at the default
 * level (zlib 6, the same as cccp), in the jmod's own entry order (as cccp
 * does), with a fixed timestamp.
 *
 * Modes (what happens to each class):
 *   plain   new ClassReader(b).accept(cw = new ClassWriter(0), 0)
 *           -- full parse and full re-serialisation of every method
 *   reader  cw = new ClassWriter(reader, 0); reader.accept(cw, 0)
 *           -- ASM's fast path: unchanged methods are copied verbatim
 *   frames  new ClassWriter(COMPUTE_FRAMES); accept(cw, 0)
 *           -- additionally recomputes max_stack/max_locals and all stack
 *              map frames (getCommonSuperClass loads classes through the
 *              running JVM: only meaningful when that JVM is the JDK whose
 *              jmods are processed); a class where this throws is written
 *              unchanged and counted as a failure
 *   copy    no ASM at all: the same reads and deflate writes in Java
 *           (the JVM's own I/O floor, for reference)
 *
 * Parallelism: a fixed pool of -j threads; one task per jmod, submitted
 * largest first (LPT scheduling), each task reads its jmod and writes its
 * own jar. java.base is ~29% of the JDK 17 jmod bytes, so with 2 threads the
 * two workers stay balanced.
 *
 * Output on stdout, one machine-readable line per pass:
 *   ASM-PASS mode=plain pass=1 seconds=2.345 classes=26569 entries=27000 failures=0
 *
 * Usage: java -cp asm.jar:DIR AsmRoundtrip [--mode plain|reader|frames|copy]
 *            [-j N] [--passes P] -o OUTDIR JMOD...
 */
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.File;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.zip.ZipEntry;
import java.util.zip.ZipException;
import java.util.zip.ZipFile;
import java.util.zip.ZipInputStream;
import java.util.zip.ZipOutputStream;

import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassWriter;

public final class AsmRoundtrip {
    private static final String PREFIX = "classes/";
    /* 1980-01-01 00:00 local time: the smallest DOS timestamp. */
    private static final long FIXED_TIME = dosEpoch();

    private static String mode = "plain";
    /* Deflate level of the output jars (cccp-rewrite -l uses the same). */
    private static int level = 6;
    private static boolean COPY;
    /* Set when java.util.zip.ZipFile refused a jmod and the streaming
     * fallback (skip the 4-byte "JM\1\0" header) had to be used. */
    private static volatile boolean usedStreamFallback;

    private static long dosEpoch() {
        java.util.Calendar c = java.util.Calendar.getInstance();
        c.clear();
        c.set(1980, 0, 1, 0, 0, 0);
        return c.getTimeInMillis();
    }

    static final class Result {
        long classes, entries, failures, bytesOut;
    }

    public static void main(String[] args) throws Exception {
        int threads = Runtime.getRuntime().availableProcessors();
        int passes = 1;
        File outDir = null;
        List<File> jmods = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            switch (a) {
                case "--mode": mode = args[++i]; break;
                case "-j": threads = Integer.parseInt(args[++i]); break;
                case "--passes": passes = Integer.parseInt(args[++i]); break;
                case "--level": level = Integer.parseInt(args[++i]); break;
                case "-o": outDir = new File(args[++i]); break;
                default:
                    if (a.startsWith("-")) usage("unknown option " + a);
                    jmods.add(new File(a));
            }
        }
        if (!mode.equals("plain") && !mode.equals("reader") && !mode.equals("frames")
                && !mode.equals("copy"))
            usage("unknown mode " + mode);
        COPY = mode.equals("copy");
        if (outDir == null || jmods.isEmpty() || threads < 1 || passes < 1)
            usage("need -o OUTDIR and at least one jmod");
        if (!outDir.isDirectory() && !outDir.mkdirs())
            throw new IOException("cannot create " + outDir);

        /* Largest first: the pool then approximates the optimal schedule. */
        jmods.sort((x, y) -> Long.compare(y.length(), x.length()));

        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            for (int p = 1; p <= passes; p++) {
                long t0 = System.nanoTime();
                List<Future<Result>> fs = new ArrayList<>();
                for (File jm : jmods) {
                    File out = new File(outDir, moduleName(jm) + ".jar");
                    fs.add(pool.submit(() -> processJmod(jm, out)));
                }
                Result total = new Result();
                for (Future<Result> f : fs) {
                    Result r = f.get();
                    total.classes += r.classes;
                    total.entries += r.entries;
                    total.failures += r.failures;
                    total.bytesOut += r.bytesOut;
                }
                double s = (System.nanoTime() - t0) / 1e9;
                System.out.printf(Locale.ROOT,
                    "ASM-PASS mode=%s pass=%d seconds=%.3f classes=%d entries=%d failures=%d bytes_out=%d threads=%d zip_input=%s%n",
                    mode, p, s, total.classes, total.entries, total.failures,
                    total.bytesOut, threads,
                    usedStreamFallback ? "ZipInputStream-after-header" : "ZipFile-direct");
                System.out.flush();
            }
        } finally {
            pool.shutdown();
        }
    }

    private static void usage(String msg) {
        System.err.println("AsmRoundtrip: " + msg);
        System.err.println("usage: AsmRoundtrip [--mode plain|reader|frames|copy] [-j N] [--passes P] -o OUTDIR JMOD...");
        System.exit(2);
    }

    private static String moduleName(File jm) {
        String n = jm.getName();
        int dot = n.lastIndexOf('.');
        return dot > 0 ? n.substring(0, dot) : n;
    }

    private static byte[] transform(byte[] in, Result r) {
        ClassReader reader = new ClassReader(in);
        switch (mode) {
            case "copy":
                return in; /* never reached: take() skips transform() */
            case "reader": {
                ClassWriter cw = new ClassWriter(reader, 0);
                reader.accept(cw, 0);
                return cw.toByteArray();
            }
            case "frames": {
                try {
                    ClassWriter cw = new ClassWriter(ClassWriter.COMPUTE_FRAMES);
                    reader.accept(cw, 0);
                    return cw.toByteArray();
                } catch (RuntimeException | LinkageError e) {
                    r.failures++;
                    return in;
                }
            }
            default: {
                ClassWriter cw = new ClassWriter(0);
                reader.accept(cw, 0);
                return cw.toByteArray();
            }
        }
    }

    /* One jmod -> one jar. Entries are collected (in container order) and
     * then written; a jmod's classes/ part is at most ~26 MB uncompressed
     * (java.base), so holding one module per thread is bounded. */
    private static Result processJmod(File jmod, File out) throws IOException {
        Result r = new Result();
        List<Object[]> entries = new ArrayList<>();
        try (ZipFile zf = new ZipFile(jmod)) {
            Enumeration<? extends ZipEntry> en = zf.entries();
            while (en.hasMoreElements()) {
                ZipEntry e = en.nextElement();
                String name = e.getName();
                if (e.isDirectory() || !name.startsWith(PREFIX)) continue;
                try (InputStream in = zf.getInputStream(e)) {
                    take(name.substring(PREFIX.length()), in.readAllBytes(), entries, r);
                }
            }
        } catch (ZipException ze) {
            /* ZipFile could not open it as is: stream the zip that follows
             * the 4-byte jmod header. */
            usedStreamFallback = true;
            entries.clear();
            r = new Result();
            try (InputStream raw = new FileInputStream(jmod)) {
                new DataInputStream(raw).readFully(new byte[4]);
                try (ZipInputStream zin = new ZipInputStream(raw)) {
                    ZipEntry e;
                    while ((e = zin.getNextEntry()) != null) {
                        String name = e.getName();
                        if (e.isDirectory() || !name.startsWith(PREFIX)) continue;
                        take(name.substring(PREFIX.length()), zin.readAllBytes(), entries, r);
                    }
                }
            }
        }

        try (OutputStream fos = new BufferedOutputStream(new FileOutputStream(out), 1 << 16);
             ZipOutputStream zos = new ZipOutputStream(fos)) {
            zos.setMethod(ZipOutputStream.DEFLATED);
            zos.setLevel(level);
            for (Object[] me : entries) {
                ZipEntry ze = new ZipEntry((String) me[0]);
                ze.setTime(FIXED_TIME);
                zos.putNextEntry(ze);
                zos.write((byte[]) me[1]);
                zos.closeEntry();
            }
        }
        r.bytesOut = out.length();
        return r;
    }

    private static void take(String name, byte[] bytes, List<Object[]> entries, Result r) {
        r.entries++;
        if (name.endsWith(".class")) {
            r.classes++;
            if (!COPY) bytes = transform(bytes, r);
        }
        entries.add(new Object[] {name, bytes});
    }
}
