/*
 * AsmCounter -- the counting floor of bench/apps: the cheapest per-call
 * instrumentation there is, to set the cost of a complete calling-context
 * tree against.
 *
 * Copies each jar into OUTDIR, every method with code rewritten by ASM to
 * add one to its own element of a global array as it is entered:
 *
 *   getstatic AsmCounter$Counts.C [J; ldc ID; dup2; laload; lconst_1;
 *   ladd; lastore
 *
 * (AsmCounter$Counts is on the class path beside this class). A flat
 * count per method: no context, no thread slot, no node. Other entries
 * are copied, except signature files (a signed jar's digests no longer
 * hold) and module-info.class (kept as it is).
 *
 * Usage: java -cp asm.jar:DIR AsmCounter OUTDIR JAR...
 * Prints "AsmCounter: N methods in M classes" on standard error.
 */
import java.io.File;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.Enumeration;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import java.util.zip.ZipOutputStream;

import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

public final class AsmCounter {
  /** The counters: one per method, ids wrapping past the end. */
  public static final class Counts {
    public static final long[] C = new long[1 << 20];
  }

  private static final String COUNTS = "AsmCounter$Counts";
  private static int methods, classes;

  public static void main(String[] a) throws IOException {
    if (a.length < 2) {
      System.err.println("usage: AsmCounter OUTDIR JAR...");
      System.exit(2);
    }
    for (int i = 1; i < a.length; i++)
      rewrite(new File(a[i]), new File(a[0], new File(a[i]).getName()));
    System.err.println("AsmCounter: " + methods + " methods in " + classes
                       + " classes");
  }

  private static void rewrite(File in, File out) throws IOException {
    try (ZipFile z = new ZipFile(in);
         ZipOutputStream o = new ZipOutputStream(new FileOutputStream(out))) {
      for (Enumeration<? extends ZipEntry> e = z.entries(); e.hasMoreElements();) {
        ZipEntry ze = e.nextElement();
        String n = ze.getName();
        if (ze.isDirectory() || n.matches("META-INF/[^/]*\\.(SF|RSA|DSA|EC)"))
          continue;
        byte[] b;
        try (InputStream s = z.getInputStream(ze)) {
          b = s.readAllBytes();
        }
        if (n.endsWith(".class") && !n.endsWith("module-info.class"))
          b = count(b);
        o.putNextEntry(new ZipEntry(n));
        o.write(b);
        o.closeEntry();
      }
    }
  }

  private static byte[] count(byte[] b) {
    ClassReader r = new ClassReader(b);
    ClassWriter w = new ClassWriter(r, ClassWriter.COMPUTE_MAXS);
    r.accept(new ClassVisitor(Opcodes.ASM9, w) {
      @Override
      public MethodVisitor visitMethod(int acc, String name, String desc,
                                       String sig, String[] exc) {
        MethodVisitor mv = super.visitMethod(acc, name, desc, sig, exc);
        return new MethodVisitor(Opcodes.ASM9, mv) {
          @Override
          public void visitCode() {
            super.visitCode();
            int id = methods++ & (Counts.C.length - 1);
            super.visitFieldInsn(Opcodes.GETSTATIC, COUNTS, "C", "[J");
            super.visitLdcInsn(id);
            super.visitInsn(Opcodes.DUP2);
            super.visitInsn(Opcodes.LALOAD);
            super.visitInsn(Opcodes.LCONST_1);
            super.visitInsn(Opcodes.LADD);
            super.visitInsn(Opcodes.LASTORE);
          }
        };
      }
    }, 0);
    classes++;
    return w.toByteArray();
  }
}
