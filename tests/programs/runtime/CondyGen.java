/*
 * CondyGen.java -- writes condy/User.class (class version 61), whose main
 * loads method ids with ldc of a CONSTANT_Dynamic of type I bootstrapped
 * by cccp.rt.CC.mid, exactly as the rewriter emits it, and prints them.
 * Needs the java.lang.classfile API (JDK 24+); the class it writes runs
 * on JDK 17 too. Usage: java CondyGen.java OUTDIR
 */
import static java.lang.constant.ConstantDescs.*;

import java.lang.classfile.ClassFile;
import java.lang.constant.ClassDesc;
import java.lang.constant.DirectMethodHandleDesc;
import java.lang.constant.DynamicConstantDesc;
import java.lang.constant.MethodHandleDesc;
import java.lang.constant.MethodTypeDesc;
import java.nio.file.Files;
import java.nio.file.Path;

public class CondyGen {
  public static void main(String[] args) throws Exception {
    ClassDesc cc = ClassDesc.of("cccp.rt.CC");
    ClassDesc ps = ClassDesc.of("java.io.PrintStream");
    DirectMethodHandleDesc bsm = MethodHandleDesc.ofMethod(
        DirectMethodHandleDesc.Kind.STATIC, cc, "mid",
        MethodTypeDesc.of(CD_int, CD_MethodHandles_Lookup, CD_String, CD_Class,
            CD_String, CD_String, CD_String, CD_int, CD_int));
    DynamicConstantDesc<Integer> work = DynamicConstantDesc.ofNamed(bsm, "_",
        CD_int, "condy/User", "work", "()V", 7, 4);
    DynamicConstantDesc<Integer> nat = DynamicConstantDesc.ofNamed(bsm, "_",
        CD_int, "java/lang/System", "arraycopy",
        "(Ljava/lang/Object;ILjava/lang/Object;II)V", 0, 3);
    MethodTypeDesc println = MethodTypeDesc.of(CD_void, CD_int);
    byte[] b = ClassFile.of().build(ClassDesc.of("condy.User"), c -> c
        .withVersion(61, 0)
        .withFlags(ClassFile.ACC_PUBLIC | ClassFile.ACC_SUPER)
        .withMethodBody("main", MethodTypeDesc.of(CD_void, CD_String.arrayType()),
            ClassFile.ACC_PUBLIC | ClassFile.ACC_STATIC, code -> {
              for (DynamicConstantDesc<Integer> d : java.util.List.of(work, nat, work)) {
                code.getstatic(ClassDesc.of("java.lang.System"), "out", ps);
                code.ldc(d);
                code.invokevirtual(ps, "println", println);
              }
              code.getstatic(ClassDesc.of("java.lang.System"), "out", ps);
              code.ldc("condy/User").ldc("work").ldc("()V").iconst_0().iconst_0();
              code.invokestatic(cc, "register", MethodTypeDesc.of(CD_int,
                  CD_String, CD_String, CD_String, CD_int, CD_int));
              code.invokevirtual(ps, "println", println);
              code.return_();
            }));
    Path out = Path.of(args[0], "condy", "User.class");
    Files.createDirectories(out.getParent());
    Files.write(out, b);
  }
}
