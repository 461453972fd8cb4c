/*
** policy.c -- seeds of the overloadability analysis and the rules where
** the rewriter departs from its usual code: the rule list, pattern
** matching, the built-in HotSpot 8-25 policy and its printing. The XML
** reader is in policy_xml.c.
*/
#include <stdlib.h>
#include <string.h>

#include "cccp/policy.h"
#include "pol_int.h"

/* ORDER cr_pol_kind */
const char *const cr_pol__kindname[CR_POL__COUNT] = {
  "nonoverloadable", "nonwrappable", "overloadable", "wrappable",
  "redirect", "thread-entry", "upcall", "insert-call", "thread-field"
};

/*
** The built-in policy. Every entry says why it exists; the long form is
** 'cr_policy_doc' below (keep both in step). Natives that must not get a
** wrapper frame are listed as 'nonwrappable': the implication "native and
** non-wrappable => non-overloadable" (paper 4.4) then makes them
** non-overloadable, so their calls are profiled at the call site.
*/
#define ANY (-1)
typedef struct seed {          /* the seeds' part of a 'cr_pol_rule' */
  cr_pol_kind kind;
  const char *cls, *name, *desc, *annotation;
  signed char native, virt, sigpoly;
  const char *id, *why, *origin;
} seed;

static const seed builtin[] = {
  /* ---- non-overloadable */
  {CR_POL_NONOVL, "java/lang/Object", "*", "*", NULL, ANY, 1, ANY,
   "object-virtual",
   "HotSpot requires java.lang.Object's vtable to keep its base size "
   "(klassVtable: 'Incompatible definition of java.lang.Object'): no new "
   "virtual twins in Object", NULL},
  {CR_POL_NONOVL, "java/lang/Object", "<init>", "()V", NULL, ANY, ANY, ANY,
   "object-init",
   "the Rewriter turns each return of Object.<init>()V into "
   "_return_register_finalizer; a constructor chain ending in a twin "
   "would never register finalizable objects", NULL},
  {CR_POL_NONOVL, "*", "<clinit>", "*", NULL, ANY, ANY, ANY, "clinit",
   "class initialisers are run by the VM only and must be static ()V "
   "(JVMS 2.9.2): instrumented in place, never twinned", NULL},
  {CR_POL_NONOVL, "*", "*", "*",
   "Ljava/lang/invoke/MethodHandle$PolymorphicSignature;", ANY, ANY, ANY,
   "signature-polymorphic",
   "linked by the VM per call-site descriptor "
   "(MethodHandles::is_signature_polymorphic): no fixed-descriptor twin "
   "can forward the call", NULL},
  {CR_POL_NONOVL, "*", "*", "*", NULL, ANY, ANY, 1,
   "signature-polymorphic-shape",
   "JVMS 2.9.3 shape (native varargs (Object[]) in MethodHandle or "
   "VarHandle), in case the annotation is absent", NULL},
  {CR_POL_NONOVL, "java/lang/reflect/Method", "invoke",
   "(Ljava/lang/Object;[Ljava/lang/Object;)Ljava/lang/Object;", NULL, ANY,
   ANY, ANY, "method-invoke",
   "intrinsic _invoke: Method::is_ignored_by_security_stack_walk skips "
   "this frame by identity; a twin frame would be seen as the caller of "
   "reflectively invoked caller-sensitive methods", NULL},
  {CR_POL_NONOVL, "*", "*", "*", "Ljava/lang/invoke/LambdaForm$Compiled;",
   ANY, ANY, ANY, "lambda-form-compiled",
   "intrinsic _compiledLambdaForm: skipped by security stack walks "
   "(is_compiled_lambda_form) and linked by MemberName (pregenerated "
   "LambdaForm holders)", NULL},
  {CR_POL_NONOVL, "java/security/AccessController", "executePrivileged",
   "*", NULL, ANY, ANY, ANY, "execute-privileged",
   "JVM_GetStackAccessControlContext finds the privileged frame by "
   "holder and name and reads its locals 1 (context) and 2 (caller); "
   "keep exactly one such frame, the original (JDK 17+)", NULL},
  {CR_POL_NONOVL, "java/lang/Thread", "runWith", "*", NULL, ANY, ANY, ANY,
   "scoped-value-bindings",
   "JVM_FindScopedValueBindings finds runWith frames by holder and name "
   "and reads local 1 (the bindings snapshot) (JDK 21+)", NULL},
  {CR_POL_NONOVL, "java/lang/ScopedValue$Carrier", "runWith", "*", NULL,
   ANY, ANY, ANY, "scoped-value-bindings",
   "JVM_FindScopedValueBindings, as for Thread.runWith (JDK 21+)", NULL},
  /* ---- non-wrappable (natives among them become non-overloadable) */
  {CR_POL_NONWRAP, "*", "*", "*", "Ljdk/internal/reflect/CallerSensitive;",
   ANY, ANY, ANY, "caller-sensitive",
   "JVM_GetCallerClass requires a @CallerSensitive frame 1 and returns "
   "the next frame's class: a wrapper frame would be taken for the "
   "caller (JDK 9+)", NULL},
  {CR_POL_NONWRAP, "*", "*", "*", "Lsun/reflect/CallerSensitive;", ANY,
   ANY, ANY, "caller-sensitive",
   "as above, JDK 8 name of the annotation", NULL},
  {CR_POL_NONWRAP, "jdk/internal/reflect/Reflection", "getCallerClass",
   "*", NULL, ANY, ANY, ANY, "get-caller-class",
   "JVM_GetCallerClass: frame 0 must be this native (intrinsic "
   "_getCallerClass), frame 1 its caller", NULL},
  {CR_POL_NONWRAP, "sun/reflect/Reflection", "getCallerClass", "*", NULL,
   ANY, ANY, ANY, "get-caller-class",
   "JDK 8: as above; getCallerClass(int) counts frames", NULL},
  {CR_POL_NONWRAP, "java/lang/SecurityManager", "*", "*", NULL, 1, ANY,
   ANY, "security-manager-stack",
   "JVM_GetClassContext and the JDK 8 classDepth/classLoaderDepth0/"
   "currentClassLoader0/currentLoadedClass0 natives return or count the "
   "caller frames; callers index the result by depth", NULL},
  {CR_POL_NONWRAP, "java/security/AccessController",
   "getStackAccessControlContext", "*", NULL, ANY, ANY, ANY,
   "access-control-stack",
   "walks the caller frames up to the privileged frame collecting "
   "protection domains", NULL},
  {CR_POL_NONWRAP, "java/security/AccessController", "doPrivileged*", "*",
   NULL, 1, ANY, ANY, "do-privileged-native",
   "JDK 8: the native doPrivileged marks its caller frame privileged; a "
   "wrapper frame (AccessController, all permissions) would be marked "
   "instead", NULL},
  {CR_POL_NONWRAP, "java/lang/Throwable", "fillInStackTrace", "*", NULL, 1,
   ANY, ANY, "fill-in-stack-trace",
   "java_lang_Throwable::fill_in_stack_trace walks the stack from this "
   "native, skipping fillInStackTrace and <init> frames of the "
   "throwable", NULL},
  {CR_POL_NONWRAP, "java/lang/StackStreamFactory$AbstractStackWalker",
   "callStackWalk", "*", NULL, 1, ANY, ANY, "stack-walker",
   "StackWalk::walk starts at this native, skips walker frames by class "
   "and a skip count, then calls back doStackWalk (JDK 9+)", NULL},
  {CR_POL_NONWRAP, "java/lang/StackStreamFactory$AbstractStackWalker",
   "fetchStackFrames", "*", NULL, 1, ANY, ANY, "stack-walker",
   "continues the walk anchored by callStackWalk (JDK 9+)", NULL},
  {CR_POL_NONWRAP, "jdk/internal/vm/Continuation", "enterSpecial", "*",
   NULL, 1, ANY, ANY, "continuation",
   "intrinsic _Continuation_enterSpecial with a VM-generated wrapper: "
   "bottom frame of a continuation (JDK 19+)", NULL},
  {CR_POL_NONWRAP, "jdk/internal/vm/Continuation", "doYield", "*", NULL, 1,
   ANY, ANY, "continuation",
   "intrinsic _Continuation_doYield: freezes the frames up to "
   "enterSpecial (JDK 19+)", NULL},
  {CR_POL_NONWRAP, "java/lang/Thread", "getStackTrace",
   "()[Ljava/lang/StackTraceElement;", NULL, ANY, ANY, ANY,
   "stack-depth-idiom",
   "callers index Thread.currentThread().getStackTrace() by depth "
   "([2] is their caller); no wrapper frame above it", NULL},
};

/*
** The rules of the other kinds. Most are for JDK mode, where the runtime
** lives inside java.base: the calls through which the JDK hands members
** and stack frames to programs go to the runtime's filters (what the
** agent patches into an uninstrumented JDK), and the runtime needs the
** thread slot, the moment the VM has booted and the end of each thread
** from the JDK itself. The rewriter (src/xform/jdk.c) applies the fields
** of a class before its inserted calls, each kind in this order.
*/
#define RULE(k, c, n, d, i, w)                                            \
  {.kind = (k), .cls = (c), .name = (n), .desc = (d), .native = ANY,     \
   .virt = ANY, .sigpoly = ANY, .id = (i), .why = (w)}
#define REDIRECT_(c, fo, fn, fd, tc, tn, td, a, i, w)                     \
  {.kind = CR_POL_REDIRECT, .cls = (c), .name = "*", .desc = "*",        \
   .native = ANY, .virt = ANY, .sigpoly = ANY, .from = {fo, fn, fd},     \
   .to = {tc, tn, td}, .after = (a), .id = (i), .why = (w)}
#define REDIRECT(c, fo, fn, fd, tc, tn, td, i, w)                         \
  REDIRECT_(c, fo, fn, fd, tc, tn, td, 0, i, w)
/* the call stays; the filter gets its result (see cr_pol_rule.after) */
#define AFTER(c, fo, fn, fd, tc, tn, td, i, w)                            \
  REDIRECT_(c, fo, fn, fd, tc, tn, td, 1, i, w)
#define INSERT(c, n, d, call_, i, w)                                      \
  {.kind = CR_POL_INSERT_CALL, .cls = (c), .name = (n), .desc = (d),     \
   .native = ANY, .virt = ANY, .sigpoly = ANY, .call = (call_),          \
   .id = (i), .why = (w)}
#define STE "[Ljava/lang/StackTraceElement;"
#define M_ARR "[Ljava/lang/reflect/Method;"
#define F_ARR "[Ljava/lang/reflect/Field;"
#define C_ARR "[Ljava/lang/reflect/Constructor;"
#define REFLECT_WHY                                                       \
  "Class lists its methods, fields and constructors through this call: "  \
  "the filter calls it and leaves out the twins, wrappers and fields "    \
  "the rewriter added"
#define FRAMES_WHY                                                        \
  "stack traces are made here: the filter leaves out the frames of "      \
  "twins that forward to an original (line 65535)"
#define WALKER_WHY                                                        \
  "StackWalker hands frames to the program here: the filter leaves out "  \
  "the frames of twins that forward to an original (line 65535)"
static const cr_pol_rule builtin_jdk[] = {
  REDIRECT("java/lang/Class", "jdk/internal/reflect/Reflection",
           "filterMethods", "(Ljava/lang/Class;" M_ARR ")" M_ARR,
           "cccp/rt/Reflect", "filterMethods",
           "(Ljava/lang/Class;" M_ARR ")" M_ARR, "reflection-filter",
           REFLECT_WHY),
  REDIRECT("java/lang/Class", "jdk/internal/reflect/Reflection",
           "filterFields", "(Ljava/lang/Class;" F_ARR ")" F_ARR,
           "cccp/rt/Reflect", "filterFields",
           "(Ljava/lang/Class;" F_ARR ")" F_ARR, "reflection-filter",
           REFLECT_WHY),
  AFTER("java/lang/Class", "java/lang/Class", "getDeclaredConstructors0",
        "(Z)" C_ARR, "cccp/rt/Reflect", "constructors", "(" C_ARR ")" C_ARR,
        "reflection-filter",
        "Class lists its constructors through this native call: the "
        "filter leaves out of its result the wrappers the rewriter added"),
  AFTER("java/io/ObjectStreamClass", "java/io/ObjectStreamClass",
        "hasStaticInitializer", "(Ljava/lang/Class;)Z", "cccp/rt/Reflect",
        "staticInit", "(Ljava/lang/Class;Z)Z", "serial-static-initializer",
        "the default serialVersionUID depends on whether the class has a "
        "<clinit>, which the rewriter may add: the filter answers for the "
        "original class"),
  AFTER("java/lang/NullPointerException", "java/lang/NullPointerException",
        "getExtendedNPEMessage", "()Ljava/lang/String;", "cccp/rt/Reflect",
        "npeMessage", "(Ljava/lang/String;)Ljava/lang/String;",
        "npe-message",
        "the VM's helpful message (JDK 14+) names the called methods by "
        "their parameters, and instrumented code calls twins: the filter "
        "leaves out their cccp.rt.CC"),
  AFTER("jdk/internal/loader/BuiltinClassLoader", "jdk/internal/loader/Resource",
        "getCodeSourceURL", "()Ljava/net/URL;", "cccp/rt/Reflect",
        "codeSource", "(Ljava/net/URL;)Ljava/net/URL;", "patched-code-source",
        "a class of a patched module comes from its patch jar: its code "
        "source is the module's own location again, so that the JDK's "
        "policy grants it what it grants the module"),
  AFTER("jdk/internal/module/ModulePatcher$JarResourceFinder",
        "java/util/jar/JarFile", "stream", "()Ljava/util/stream/Stream;",
        "cccp/rt/Reflect", "entries",
        "(Ljava/util/stream/Stream;)Ljava/util/stream/Stream;",
        "patched-module-list",
        "a patched module's reader lists its patch jars' entries: as the "
        "JDK's own reader, the list outlives the reader, and names none "
        "of the runtime's files"),
  REDIRECT("java/lang/SecurityManager", "java/util/Map", "containsKey",
           "(Ljava/lang/Object;)Z", "cccp/rt/Reflect", "restricted",
           "(Ljava/util/Map;Ljava/lang/Object;)Z", "runtime-package-access",
           "a SecurityManager restricts the packages a module does not "
           "export to all, which cccp.rt in java.base is: every class of "
           "an instrumented module names cccp.rt.CC"),
  /* Throwable.getOurStackTrace: JDK 25, JDK 17 */
  AFTER("java/lang/Throwable", "java/lang/StackTraceElement", "of",
        "(Ljava/lang/Object;I)" STE, "cccp/rt/Reflect", "frames",
        "(" STE ")" STE, "stack-trace-filter",
        FRAMES_WHY " (Throwable, JDK 25)"),
  AFTER("java/lang/Throwable", "java/lang/StackTraceElement", "of",
        "(Ljava/lang/Throwable;I)" STE, "cccp/rt/Reflect", "frames",
        "(" STE ")" STE, "stack-trace-filter",
        FRAMES_WHY " (Throwable, JDK 17)"),
  /* other threads' stacks */
  AFTER("java/lang/Thread", "java/lang/Thread", "dumpThreads",
        "([Ljava/lang/Thread;)[" STE, "cccp/rt/Reflect", "frames",
        "([" STE ")[" STE, "stack-trace-filter",
        FRAMES_WHY " (other threads, JDK 17)"),
  AFTER("java/lang/Thread", "java/lang/StackTraceElement", "of",
        "(" STE ")" STE, "cccp/rt/Reflect", "frames", "(" STE ")" STE,
        "stack-trace-filter", FRAMES_WHY " (other threads, JDK 25)"),
  /* StackWalker: the stream a walk's function gets, and getCallerClass */
  REDIRECT("java/lang/StackStreamFactory$StackFrameTraverser",
           "java/util/function/Function", "apply",
           "(Ljava/lang/Object;)Ljava/lang/Object;", "cccp/rt/Frames",
           "apply",
           "(Ljava/util/function/Function;Ljava/lang/Object;)"
           "Ljava/lang/Object;", "stack-walker-filter",
           WALKER_WHY " (the stream of StackWalker.walk)"),
  REDIRECT("java/lang/StackStreamFactory$StackFrameBuffer",
           "java/lang/reflect/Constructor", "newInstance",
           "([Ljava/lang/Object;)Ljava/lang/Object;",
           "java/lang/CccpFrameInfo", "make",
           "(Ljava/lang/reflect/Constructor;[Ljava/lang/Object;)"
           "Ljava/lang/Object;", "stack-frame-objects",
           "JDK 22+ makes a walk's frame objects by reflection: those of the "
           "runtime's own walks are made directly, without spinning the "
           "method handles of a first reflective call for the program"),
  REDIRECT("java/lang/StackWalker",
           "java/lang/StackStreamFactory$CallerClassFinder", "findCaller",
           "()Ljava/lang/Class;", "cccp/rt/Frames", "caller",
           "(Ljava/lang/Object;)Ljava/lang/Class;", "stack-walker-filter",
           "StackWalker.getCallerClass would name the class of a twin "
           "that forwards: the filter walks again and skips such frames"),
  RULE(CR_POL_THREAD_ENTRY, "java/lang/VirtualThread", "run",
       "(Ljava/lang/Runnable;)V", "virtual-thread-root",
       "a virtual thread's task runs under VirtualThread.run, called from "
       "the continuation its carrier entered: it starts from the virtual "
       "thread's root (CC.root), not under the carrier's node"),
  RULE(CR_POL_UPCALL, "*", "loadClass",
       "(Ljava/lang/String;)Ljava/lang/Class;", "load-class-upcall",
       "the JVM calls loadClass(String) in the middle of an instruction "
       "that resolves a class name, where the slot holds a node above the "
       "interrupted method: CC.upcall finds that method's node on the "
       "stack"),
  INSERT("java/lang/Thread", "exit", "()V", "ended", "thread-end",
         "the VM calls Thread.exit when a platform thread ends: CC.ended "
         "merges the thread's tree into those of its name pattern"),
  INSERT("java/lang/System", "initPhase3", "()V", "start",
         "profiling-start",
         "the VM calls System.initPhase3 last while it boots (JDK 9+): "
         "CC.start reads the settings and starts profiling"),
  INSERT("java/lang/Shutdown", "runHooks", "()V", "exit", "profile-dump",
         "the JDK runs the shutdown hooks here, then marks the VM shut down: "
         "CC.exit writes the profile as it returns, with every hook's calls "
         "in it, and no hook of cccp's own makes Shutdown initialise early"),
  INSERT("java/lang/VirtualThread", "run", "(Ljava/lang/Runnable;)V",
         "ended", "thread-end",
         "as Thread.exit, for a virtual thread (JDK 19+)"),
  RULE(CR_POL_THREAD_FIELD, "java/lang/Thread", "cccp$slot",
       "Lcccp/rt/CC$Slot;", "thread-slot",
       "the thread's slot, which holds the current node, read after "
       "Thread.currentThread() instead of a ThreadLocal (which the JDK's "
       "own code uses)"),
  RULE(CR_POL_THREAD_FIELD, "java/lang/Thread", "cccp$root", "Lcccp/rt/CC;",
       "thread-slot", "the root of the thread's tree"),
};
#undef RULE
#undef REDIRECT_
#undef REDIRECT
#undef AFTER
#undef INSERT
#undef STE
#undef M_ARR
#undef F_ARR
#undef C_ARR
#undef REFLECT_WHY
#undef FRAMES_WHY
#undef WALKER_WHY
#undef ANY

const char cr_policy_doc[] =
"Built-in policy (HotSpot, JDK 8 to 25). Non-overloadable methods get no\n"
"extended-signature twin: calls to them use the thread-local protocol.\n"
"Non-wrappable methods get no wrapper frame: a Java method gets a full\n"
"instrumented copy of its body under the original signature instead of a\n"
"wrapper; a native one becomes non-overloadable and is profiled at its\n"
"call sites. The hierarchy rules then spread non-overloadability to the\n"
"methods that share a call site with a seed.\n"
"\n"
"object-virtual  Every virtual method of java.lang.Object. HotSpot requires\n"
"  Object's vtable to have its base size and stops the VM with\n"
"  \"Incompatible definition of java.lang.Object\" otherwise; final,\n"
"  private and static additions are accepted, virtual ones are not.\n"
"  (Object.finalize is among them; the paper also leaves it unchanged.)\n"
"object-init  Object.<init>()V. The interpreter's Rewriter turns each\n"
"  return of this very method into _return_register_finalizer, which\n"
"  registers objects of classes overriding finalize; constructor chains\n"
"  ending in a twin would skip the registration. Its body must also never\n"
"  store to local 0.\n"
"clinit  <clinit>: run by the VM only, must be static ()V (JVMS 2.9.2).\n"
"signature-polymorphic, signature-polymorphic-shape  Methods annotated\n"
"  @MethodHandle.PolymorphicSignature, or of the JVMS 2.9.3 shape (native,\n"
"  varargs, one Object[] parameter, in MethodHandle or VarHandle):\n"
"  invoke, invokeExact, invokeBasic, linkTo*, VarHandle.get/set/... The VM\n"
"  links each call site by its own descriptor; no fixed-descriptor\n"
"  bytecode twin can forward such a call. Non-overloadable natives.\n"
"method-invoke  Method.invoke(Object, Object[]). HotSpot recognises the\n"
"  frame by its intrinsic id (_invoke) and skips it in\n"
"  Reflection.getCallerClass, SecurityManager.getClassContext and access\n"
"  control walks (Method::is_ignored_by_security_stack_walk). A twin has\n"
"  no intrinsic id: it would be reported as the caller of every\n"
"  caller-sensitive method invoked reflectively.\n"
"lambda-form-compiled  Methods annotated @LambdaForm.Compiled (the\n"
"  pregenerated LambdaForm holder classes of the run-time image): skipped\n"
"  by security stack walks (is_compiled_lambda_form) and linked by\n"
"  MemberName, never through our call sites.\n"
"execute-privileged  AccessController.executePrivileged (JDK 17+).\n"
"  JVM_GetStackAccessControlContext stops at the first frame whose holder\n"
"  is AccessController and whose name is executePrivileged and reads its\n"
"  locals 1 and 2 (context, caller class). Exactly one such frame, with\n"
"  the original layout, must be on the stack.\n"
"scoped-value-bindings  Thread.runWith and ScopedValue$Carrier.runWith\n"
"  (JDK 21+). JVM_FindScopedValueBindings recognises the frames by holder\n"
"  and name and reads local 1, the bindings snapshot.\n"
"caller-sensitive  Methods annotated @CallerSensitive\n"
"  (jdk.internal.reflect, JDK 9+; sun.reflect, JDK 8; RUNTIME retention,\n"
"  so in RuntimeVisibleAnnotations). JVM_GetCallerClass insists that\n"
"  frame 1 is @CallerSensitive and returns the class of the next frame\n"
"  not ignored by security stack walks: a wrapper frame would be taken\n"
"  for the caller (the method's own class). Non-wrappable; their twins\n"
"  must carry @CallerSensitive too (HotSpot honours it in boot and\n"
"  platform classes). Native ones (Reflection.getCallerClass, JDK 8\n"
"  AccessController.doPrivileged) become non-overloadable.\n"
"get-caller-class  Reflection.getCallerClass (jdk.internal.reflect;\n"
"  sun.reflect in JDK 8, whose getCallerClass(int) counts frames): frame 0\n"
"  must be this native (intrinsic _getCallerClass).\n"
"security-manager-stack  The natives of java.lang.SecurityManager\n"
"  (getClassContext; JDK 8 also classDepth, classLoaderDepth0,\n"
"  currentClassLoader0, currentLoadedClass0): they return or count the\n"
"  classes of the caller frames, and SecurityManager code indexes the\n"
"  result by depth (JDK 8 checkMemberAccess reads getClassContext()[3]).\n"
"access-control-stack  AccessController.getStackAccessControlContext:\n"
"  collects the protection domains of the caller frames up to the\n"
"  privileged frame.\n"
"do-privileged-native  JDK 8's native AccessController.doPrivileged*:\n"
"  the VM marks the caller frame of the native privileged; a wrapper\n"
"  frame in AccessController (all permissions) would be marked instead,\n"
"  and the real caller's protection domain would be lost.\n"
"fill-in-stack-trace  Throwable.fillInStackTrace(int) (native): the walk\n"
"  of java_lang_Throwable::fill_in_stack_trace starts here and skips the\n"
"  fillInStackTrace and <init> frames of the throwable by name.\n"
"stack-walker  StackStreamFactory$AbstractStackWalker.callStackWalk and\n"
"  fetchStackFrames (JDK 9+): StackWalk::walk anchors the walk at these\n"
"  natives, skips walker frames by class and a skip count, and calls back\n"
"  doStackWalk by name.\n"
"continuation  jdk.internal.vm.Continuation.enterSpecial and doYield\n"
"  (JDK 19+): intrinsics with VM-generated native wrappers that delimit\n"
"  the frames a virtual thread freezes and thaws.\n"
"stack-depth-idiom  Thread.getStackTrace(): callers index the current\n"
"  thread's trace by depth ([2] is their caller); no wrapper frame above\n"
"  it.\n"
"\n"
"Considered and not needed: Class.forName0 (JDK 8+ pass the caller\n"
"explicitly; the paper's JDK 6 list also had DriverManager.\n"
"getCallerClassLoader and ResourceBundle.getClassContext, gone since);\n"
"VM.latestUserDefinedLoader0 and StackWalker filtering (by class or\n"
"class loader, which twins share); MethodAccessorImpl subclasses (skipped\n"
"by class); upcalls from the VM by name (Thread.run, ClassLoader.loadClass,\n"
"MethodHandleNatives.link*, doStackWalk): the original signature stays.\n"
"\n"
"Beyond the seeds, the rules where the rewriter departs from its usual\n"
"code because the JVM or the JDK requires it. They apply to the classes\n"
"of an instrumented JDK only (JDK mode, where the runtime lives in\n"
"java.base), except upcall, which applies to every class.\n"
"\n"
"reflection-filter  <redirect> in java.lang.Class: the calls of\n"
"  Reflection.filterMethods and Reflection.filterFields go to\n"
"  cccp/rt/Reflect, which calls the original and leaves out the twins and\n"
"  the cccp$ fields the rewriter added, and the result of\n"
"  Class.getDeclaredConstructors0 goes there too (after=\"1\": the native\n"
"  call stays). Without them getMethods, getDeclaredMethods, getFields,\n"
"  getConstructors and the rest list the twins (methods with a trailing\n"
"  cccp.rt.CC parameter): serialization, bean introspection and every\n"
"  program that lists members see methods the original does not have.\n"
"serial-static-initializer  <redirect after=\"1\"> in\n"
"  java.io.ObjectStreamClass: the answer of hasStaticInitializer goes to\n"
"  cccp/rt/Reflect, with the class. The default\n"
"  serialVersionUID hashes whether the class has a <clinit>, and the\n"
"  rewriter adds one where it needs one (marked by a synthetic\n"
"  cccp$clinit field); with the pinned serialVersionUID hidden from\n"
"  reflection the default is computed, and without the filter it differs\n"
"  from the original: instances serialized by an uninstrumented JVM no\n"
"  longer read back (InvalidClassException), nor the other way round.\n"
"npe-message  <redirect after=\"1\"> in java.lang.NullPointerException:\n"
"  the message getExtendedNPEMessage makes (JDK 14+, the VM's helpful\n"
"  message) goes to cccp/rt/Reflect. The VM names the call that failed,\n"
"  and the call whose result was null, by the called method's parameter\n"
"  types, and instrumented code calls twins: without it the program reads\n"
"  'Cannot invoke \"C.m(int, cccp.rt.CC)\"' where the original reads\n"
"  'Cannot invoke \"C.m(int)\"'.\n"
"patched-code-source  <redirect after=\"1\"> in\n"
"  jdk.internal.loader.BuiltinClassLoader: the code source of a class the\n"
"  platform or application loader defines (Resource.getCodeSourceURL)\n"
"  goes to cccp/rt/Reflect, which gives a class of a patched module its\n"
"  module's own location (jrt:/MODULE) instead of the patch jar's. The\n"
"  JDK's policy (lib/security/default.policy) grants permissions by\n"
"  those locations: without it, under a SecurityManager, the patched\n"
"  modules' classes lose them (jdk.localedata's locale providers cannot\n"
"  load: ServiceConfigurationError from String.format).\n"
"patched-module-list  <redirect after=\"1\"> in\n"
"  jdk.internal.module.ModulePatcher$JarResourceFinder: the entries of a\n"
"  patch jar that ModuleReader.list() streams (JarFile.stream) go to\n"
"  cccp/rt/Reflect, which reads them at once and leaves out the\n"
"  runtime's own (cccp/, java/lang/Cccp*, META-INF/cccp.patch, folders).\n"
"  The JDK streams them from the open jar: a program that lists a module\n"
"  and closes its reader before it reads the list got 'zip file closed',\n"
"  where the JDK's own reader's list outlives it; and it saw files no\n"
"  module of the JDK has.\n"
"runtime-package-access  <redirect> in java.lang.SecurityManager: its\n"
"  lookups of restricted packages (Map.containsKey on the packages the\n"
"  boot layer's modules do not export to all, in checkPackageAccess and\n"
"  checkPackageDefinition, JDK 17) go to cccp/rt/Reflect, which answers\n"
"  that cccp.rt is not restricted. It is a package of java.base exported\n"
"  only to the modules and the class path that --add-exports names, and\n"
"  every class the rewriter instrumented names cccp.rt.CC: without it,\n"
"  under a manager installed at start-up, the application's classes\n"
"  and the patched modules' need RuntimePermission\n"
"  \"accessClassInPackage.cccp.rt\", which no policy grants.\n"
"stack-trace-filter  <redirect> in Throwable and Thread: the calls that\n"
"  make stack traces (StackTraceElement.of in Throwable.getOurStackTrace:\n"
"  of(Throwable, int) on JDK 17, of(Object, int) on 25; another thread's\n"
"  stack: Thread.dumpThreads on 17, StackTraceElement.of(\n"
"  StackTraceElement[]) on 25) stay, and their results go to\n"
"  cccp/rt/Reflect (after=\"1\"), which leaves out the frame of a twin that\n"
"  forwards to an original (under line 65535).\n"
"  Without them traces show one more frame, of the same name, wherever an\n"
"  owner check forwarded, and code that indexes a trace by depth reads\n"
"  the wrong frame.\n"
"stack-walker-filter  <redirect> in StackStreamFactory$StackFrameTraverser\n"
"  (Function.apply, through which StackWalker.walk hands its stream to\n"
"  the program) and in StackWalker (CallerClassFinder.findCaller, for\n"
"  getCallerClass): the same filter for StackWalker. getCallerClass\n"
"  cannot be wrapped (a frame between it and the finder becomes the\n"
"  answer): Frames.caller walks again itself. Without them walks show the\n"
"  forwarding frames and getCallerClass may name a twin's class.\n"
"stack-frame-objects  <redirect> in StackStreamFactory$StackFrameBuffer:\n"
"  its Constructor.newInstance (JDK 22+ makes a walk's frame objects by\n"
"  reflection) goes to java/lang/CccpFrameInfo, which makes the frames of\n"
"  the runtime's own walks (the upcalls' stack walks, with the thread's\n"
"  slot cleared) directly and every other walk's by reflection, as\n"
"  without cccp. Without it the runtime's first walk spins the method\n"
"  handles of a first reflective call, and the program's own first\n"
"  reflective call finds the JDK's caches filled (JDK 25: a reflective\n"
"  program's CCT overlapped the exact one by 98.4% instead of 99.9%).\n"
"virtual-thread-root  <thread-entry> VirtualThread.run(Runnable) (JDK\n"
"  19+): the method starts from the current thread's root (CC.root), not\n"
"  from the node its caller passes. A virtual thread's task runs under\n"
"  run, called from the continuation its carrier thread entered: without\n"
"  the entry each virtual thread's calls lie in its carrier's tree, under\n"
"  the scheduler's frames, instead of in a tree of its own.\n"
"load-class-upcall  <upcall> loadClass(String) of any class (instance\n"
"  methods only: the JVM makes no such call to a static method). The JVM\n"
"  calls a class loader's loadClass in the middle of an instruction that\n"
"  resolves a class name, when the thread's slot holds the node last\n"
"  published by a call site or wrapper, above the method that runs (ESI\n"
"  calls do not publish their nodes). The method's entries from the\n"
"  original signature (wrapper, instrumented copy) read the caller's node\n"
"  with CC.upcall, which in JDK mode walks the stack from the interrupted\n"
"  method to the frame of the slot's node (in app mode it reads the\n"
"  slot). Without it class loading lies under an unrelated node, often\n"
"  the thread's root.\n"
"thread-end  <insert-call> CC.ended before each return of Thread.exit()V,\n"
"  which the VM calls as a platform thread ends, and of\n"
"  VirtualThread.run(Runnable)V: the thread's tree joins the trees of its\n"
"  name pattern, with the thread's last calls in it. Without them the\n"
"  trees of ended threads are not merged (cccp-rewrite warns when\n"
"  Thread.exit is missing).\n"
"profiling-start  <insert-call> CC.start before the return of\n"
"  System.initPhase3()V (JDK 9+), which the VM calls by name as the last\n"
"  step of its boot: until then every entry point of the runtime answers\n"
"  \"not profiling\", since it can read its settings only then. Without it\n"
"  profiling never starts (cccp-rewrite warns when the method is\n"
"  missing).\n"
"profile-dump  <insert-call> CC.exit before each return of\n"
"  Shutdown.runHooks()V, which runs the shutdown hooks (the application's\n"
"  among them) and then marks the VM shut down: the profile is written\n"
"  there, once, with every hook's calls in it (cccp.args says\n"
"  -Dcccp.exit=inserted). Without it the runtime registers a system\n"
"  shutdown hook of its own, which initialises Shutdown as the program\n"
"  starts, not as it ends, and misses the calls after the hooks.\n"
"thread-slot  <thread-field> cccp$slot and cccp$root in java.lang.Thread:\n"
"  the thread's slot, which holds the current node (type cccp/rt/CC$Slot),\n"
"  and its root (cccp/rt/CC), read after Thread.currentThread() instead\n"
"  of through a ThreadLocal. The runtime of an instrumented JDK reads\n"
"  these fields: without them the VM cannot boot (NoSuchFieldError, then\n"
"  StackOverflowError, as it initialises).\n";

/* ------------------------------------------------------------- storage */

cr_policy *cr_pol__alloc(void) {
  cr_policy *p = cr_calloc(1, sizeof *p);
  if (!p) return NULL;
  p->a = cr_arena_new();
  if (!p->a) {
    cr_free(p);
    return NULL;
  }
  return p;
}

int cr_policy_new(cr_policy **out, int with_builtin, cr_diag *d) {
  *out = NULL;
  cr_policy *p = cr_pol__alloc();
  if (!p) return cr_diag_set(d, CR_ENOMEM, -1, "out of memory");
  if (with_builtin) {
    size_t ns = sizeof builtin / sizeof builtin[0];
    size_t nj = sizeof builtin_jdk / sizeof builtin_jdk[0];
    for (size_t i = 0; i < ns + nj; i++) {
      cr_pol_rule r;
      if (i < ns) {
        const seed *s = &builtin[i];
        memset(&r, 0, sizeof r);
        r.kind = s->kind;
        r.cls = s->cls;
        r.name = s->name;
        r.desc = s->desc;
        r.annotation = s->annotation;
        r.native = s->native;
        r.virt = s->virt;
        r.sigpoly = s->sigpoly;
        r.id = s->id;
        r.why = s->why;
      } else {
        r = builtin_jdk[i - ns];
      }
      r.origin = "built-in";
      int rc = cr_policy_add(p, &r, d);
      if (rc) {
        cr_policy_free(p);
        return rc;
      }
    }
  }
  *out = p;
  return 0;
}

void cr_policy_free(cr_policy *p) {
  if (!p) return;
  cr_free(p->v);
  cr_arena_free(p->a);
  cr_free(p);
}

static const char *dup(cr_arena *a, const char *s, int *oom) {
  if (!s) return NULL;
  char *c = cr_arena_strndup(a, s, strlen(s));
  if (!c) *oom = 1;
  return c;
}

/* 2 if the pattern is "*", 1 if it has no wildcard, else 0. */
static int literal(const char *pat) {
  if (strcmp(pat, "*") == 0) return 2;
  return !strchr(pat, '*');
}

/* ------------------------------------------------ references, checks */

/* Past one field type at 's' (JVMS 4.3.2), or NULL. */
static const char *field_type(const char *s) {
  while (*s == '[') s++;
  switch (*s) {
  case 'B': case 'C': case 'D': case 'F': case 'I': case 'J': case 'S':
  case 'Z':
    return s + 1;
  case 'L': {
    const char *e = s + 1;
    while (*e && *e != ';' && *e != '.' && *e != '(' && *e != ')') e++;
    return *e == ';' && e > s + 1 ? e + 1 : NULL;
  }
  default:
    return NULL;
  }
}

/*
** The stack shape of method descriptor 'desc' into 'out' (cap bytes):
** one letter per parameter and then the return, 'L' for any reference,
** 'I' for int and its narrower types, J F D, 'V' for void. 0 if 'desc'
** is not a method descriptor (JVMS 4.3.3) or too long.
*/
static int shape(const char *desc, char *out, size_t cap) {
  size_t n = 0;
  if (*desc++ != '(') return 0;
  for (;;) {
    int ret = *desc == ')';
    if (ret) desc++;
    const char *e = ret && *desc == 'V' ? desc + 1 : field_type(desc);
    if (!e || n + 2 > cap) return 0;
    char k = *desc == '[' || *desc == 'L' ? 'L' : *desc;
    if (k == 'B' || k == 'C' || k == 'S' || k == 'Z') k = 'I';
    out[n++] = k;
    desc = e;
    if (ret) break;
  }
  out[n] = '\0';
  return *desc == '\0';
}

int cr_policy_parse_ref(cr_pol_ref *out, cr_arena *a, const char *s,
                        int lit, cr_diag *d) {
  memset(out, 0, sizeof *out);
  const char *dot = strchr(s, '.');
  const char *par = dot ? strchr(dot, '(') : NULL;
  if (!dot || dot == s || (par ? par : dot + strlen(dot)) == dot + 1 ||
      (lit && !par) || strchr(dot + 1, '.'))
    return cr_diag_set(d, CR_EFORMAT, -1,
                       "\"%s\" is not of the form owner.name(desc)", s);
  size_t nn = (size_t)((par ? par : dot + strlen(dot)) - (dot + 1));
  out->owner = cr_arena_strndup(a, s, (size_t)(dot - s));
  out->name = cr_arena_strndup(a, dot + 1, nn);
  out->desc = par ? cr_arena_strndup(a, par, strlen(par)) : "*";
  if (!out->owner || !out->name || !out->desc)
    return cr_diag_set(d, CR_ENOMEM, -1, "out of memory");
  char sh[256];
  if (lit && (strchr(s, '*') || !shape(out->desc, sh, sizeof sh)))
    return cr_diag_set(d, CR_EFORMAT, -1,
                       "\"%s\" is not one method: owner.name(desc) with "
                       "a method descriptor and no '*'", s);
  return 0;
}

static int has_star(const char *s) { return s && strchr(s, '*'); }

/* A member named literally: given, not empty ('cr_policy_add' turns an
** empty pattern into "*"), without '*'. */
static int lit(const char *s) { return s && *s && !strchr(s, '*'); }

/* "where: <kind>: " in front of the messages of 'check'. */
static int bad(cr_diag *d, const cr_pol_rule *r, const char *msg) {
  return cr_diag_set(d, CR_EUSAGE, -1, "%s: <%s>: %s",
                     r->origin ? r->origin : "policy",
                     cr_pol__kindname[r->kind], msg);
}

/*
** What each kind needs. Entries name the one member they change
** literally (a redirect's calls, an inserted call, a field); removals
** may use patterns everywhere and leave anything out.
*/
static int check(const cr_pol_rule *r, cr_diag *d) {
  int seedk = r->kind <= CR_POL_WRAP;
  if (r->remove < 0 || r->remove > 1) return bad(d, r, "remove must be 0 or 1");
  if (seedk) {
    if (r->remove || r->from.owner || r->from.name || r->from.desc ||
        r->to.owner || r->to.name || r->to.desc || r->call)
      return bad(d, r, "remove, from, to and call are not for seeds");
    return 0;
  }
  if (r->annotation || r->native >= 0 || r->virt >= 0 || r->sigpoly >= 0)
    return bad(d, r, "annotation, native, virtual and sigpoly are for "
                     "seeds only");
  int named = r->name && strcmp(r->name, "*") != 0;
  int described = r->desc && strcmp(r->desc, "*") != 0;
  if (r->kind != CR_POL_REDIRECT &&
      (r->from.owner || r->from.name || r->from.desc || r->to.owner ||
       r->to.name || r->to.desc))
    return bad(d, r, "from and to are for redirect only");
  if (r->kind != CR_POL_INSERT_CALL && r->call)
    return bad(d, r, "call is for insert-call only");
  if (r->kind != CR_POL_REDIRECT && r->after > 0)
    return bad(d, r, "after is for redirect only");
  switch (r->kind) {
  case CR_POL_REDIRECT: {
    if (named || described)
      return bad(d, r, "name and desc have no meaning (from names the "
                       "call)");
    if (r->remove) {
      if (r->to.owner || r->to.name || r->to.desc)
        return bad(d, r, "a removal has no to");
      return 0;
    }
    const cr_pol_ref *f = &r->from, *t = &r->to;
    if (!f->owner || !f->name || !f->desc || !t->owner || !t->name ||
        !t->desc)
      return bad(d, r, "from and to are required");
    char fs[256], ts[256];
    if (!lit(f->owner) || !lit(f->name) || !lit(f->desc) || !lit(t->owner) ||
        !lit(t->name) || !lit(t->desc) || !shape(f->desc, fs, sizeof fs) ||
        !shape(t->desc, ts, sizeof ts))
      return bad(d, r, "from and to must each name one method "
                       "owner.name(desc)");
    size_t fn = strlen(fs), tn = strlen(ts);
    if (r->after) {
      /* the filter takes the call's result, after its one stack operand
      ** when it wants it (its one argument, or the receiver of a call
      ** without arguments), and returns what the call returns */
      char res = fs[fn - 1];
      char x = fn == 1 ? 'L' : fn == 2 ? fs[0] : 0;   /* the operand */
      if (res == 'V' || res == 'J' || res == 'D' || tn < 2 || tn > 3 ||
          ts[tn - 1] != res || ts[tn - 2] != res ||
          (tn == 3 && (ts[0] != x || x == 'J' || x == 'D')))
        return bad(d, r, "with after, to must take what from returns (after "
                         "the call's one argument or receiver, if any) and "
                         "return it");
      return 0;
    }
    /* the static method takes the call's arguments, after the receiver
    ** of a virtual call, and returns what the call returns */
    if (strcmp(fs, ts) != 0 && !(ts[0] == 'L' && strcmp(fs, ts + 1) == 0))
      return bad(d, r, "to must take the arguments of from (and its "
                       "receiver first, for an instance method) and "
                       "return what from returns");
    return 0;
  }
  case CR_POL_INSERT_CALL:
    if (r->call && !has_star(r->call) && strcmp(r->call, "ended") != 0 &&
        strcmp(r->call, "start") != 0 && strcmp(r->call, "exit") != 0)
      return bad(d, r, "call must be ended, start or exit");
    if (r->remove) return 0;
    char sh[256];
    if (!lit(r->cls) || !lit(r->name) || !lit(r->desc) || !lit(r->call) ||
        !shape(r->desc, sh, sizeof sh))
      return bad(d, r, "class, name, desc (of one method) and call are "
                       "required, without '*'");
    return 0;
  case CR_POL_THREAD_FIELD: {
    if (r->remove) return 0;
    if (!lit(r->cls) || !lit(r->name))
      return bad(d, r, "class and name are required, without '*'");
    const char *e = described ? field_type(r->desc) : NULL;
    if (described && (r->desc[0] != 'L' || !e || *e))
      return bad(d, r, "desc must be one class type (the default: "
                       "Lcccp/rt/CC;)");
    return 0;
  }
  default:
    return 0;
  }
}

int cr_policy_add(cr_policy *p, const cr_pol_rule *r, cr_diag *d) {
  if ((unsigned)r->kind >= CR_POL__COUNT)
    return cr_diag_set(d, CR_EUSAGE, -1, "policy rule kind %d is invalid",
                       (int)r->kind);
  if (r->native < -1 || r->native > 1 || r->virt < -1 || r->virt > 1 ||
      r->sigpoly < -1 || r->sigpoly > 1)
    return cr_diag_set(d, CR_EUSAGE, -1, "policy qualifier out of range");
  int rc = check(r, d);
  if (rc) return rc;
  if (p->n == p->cap) {
    size_t nc = p->cap ? p->cap * 2 : 32;
    cr_pol__rule *v = cr_realloc(p->v, nc * sizeof *v);
    if (!v) return cr_diag_set(d, CR_ENOMEM, -1, "out of memory");
    p->v = v;
    p->cap = nc;
  }
  int oom = 0;
  cr_pol__rule *e = &p->v[p->n];
  memset(e, 0, sizeof *e);
  e->r = *r;
  e->r.cls = dup(p->a, r->cls && *r->cls ? r->cls : "*", &oom);
  e->r.name = dup(p->a, r->name && *r->name ? r->name : "*", &oom);
  e->r.desc = dup(p->a, r->desc && *r->desc ? r->desc : "*", &oom);
  e->r.annotation = dup(p->a, r->annotation, &oom);
  e->r.id = dup(p->a, r->id ? r->id : "user", &oom);
  e->r.why = dup(p->a, r->why, &oom);
  e->r.origin = dup(p->a, r->origin, &oom);
  if (r->kind == CR_POL_REDIRECT) {  /* parts left out match anything */
    e->r.from.owner = dup(p->a, r->from.owner ? r->from.owner : "*", &oom);
    e->r.from.name = dup(p->a, r->from.name ? r->from.name : "*", &oom);
    e->r.from.desc = dup(p->a, r->from.desc ? r->from.desc : "*", &oom);
    e->r.to.owner = dup(p->a, r->to.owner, &oom);
    e->r.to.name = dup(p->a, r->to.name, &oom);
    e->r.to.desc = dup(p->a, r->to.desc, &oom);
  }
  if (r->kind == CR_POL_INSERT_CALL)
    e->r.call = dup(p->a, r->call ? r->call : "*", &oom);
  if (oom) return cr_diag_set(d, CR_ENOMEM, -1, "out of memory");
  e->lit_cls = literal(e->r.cls);
  e->lit_name = literal(e->r.name);
  e->lit_desc = literal(e->r.desc);
  p->n++;
  return 0;
}

size_t cr_policy_count(const cr_policy *p) { return p ? p->n : 0; }

const cr_pol_rule *cr_policy_rule(const cr_policy *p, size_t i) {
  return i < p->n ? &p->v[i].r : NULL;
}

/* ------------------------------------------------------------ matching */

/*
** Glob with '*' only: iterative, remembering the last star, so the cost
** is O(len(pat) * len(s)) in the worst case and nothing recurses.
*/
int cr_policy_glob(const char *pat, const char *s) {
  const char *star = NULL, *resume = NULL;
  while (*s) {
    if (*pat == '*') {
      star = pat++;
      resume = s;
    } else if (*pat == *s) {
      pat++;
      s++;
    } else if (star) {
      pat = star + 1;
      s = ++resume;
    } else {
      return 0;
    }
  }
  while (*pat == '*') pat++;
  return *pat == '\0';
}

/* 'lit': 1 literal (strcmp), 2 the pattern is "*", 0 a glob. */
static int field(const char *pat, int lit, const char *s) {
  if (lit == 2) return 1;
  return lit ? strcmp(pat, s) == 0 : cr_policy_glob(pat, s);
}

enum { ACC_PRIVATE = 0x2, ACC_STATIC = 0x8, ACC_VARARGS = 0x80,
       ACC_NATIVE = 0x100 };

static int is_virtual(const cr_pol_method *m) {
  return !(m->access & (ACC_PRIVATE | ACC_STATIC)) && m->name[0] != '<';
}

/* JVMS 2.9.3: declared in MethodHandle or VarHandle, one Object[]
** parameter, ACC_VARARGS and ACC_NATIVE. */
static int sigpoly_shape(const cr_pol_method *m) {
  return (strcmp(m->cls, "java/lang/invoke/MethodHandle") == 0 ||
          strcmp(m->cls, "java/lang/invoke/VarHandle") == 0) &&
         (m->access & (ACC_VARARGS | ACC_NATIVE)) ==
             (ACC_VARARGS | ACC_NATIVE) &&
         strncmp(m->desc, "([Ljava/lang/Object;)", 21) == 0;
}

static int has_annot(const cr_pol_method *m, const char *a) {
  for (uint32_t i = 0; i < m->nannots; i++)
    if (strcmp(m->annots[i], a) == 0) return 1;
  return 0;
}

static int matches(const cr_pol__rule *e, const cr_pol_method *m) {
  const cr_pol_rule *r = &e->r;
  /* cheapest tests first: literals, qualifiers, then globs */
  if (e->lit_cls == 1 && strcmp(r->cls, m->cls) != 0) return 0;
  if (e->lit_name == 1 && strcmp(r->name, m->name) != 0) return 0;
  if (r->annotation && !m->nannots) return 0;
  if (r->native >= 0 && !!(m->access & ACC_NATIVE) != r->native) return 0;
  if (!field(r->cls, e->lit_cls, m->cls)) return 0;
  if (!field(r->name, e->lit_name, m->name)) return 0;
  if (!field(r->desc, e->lit_desc, m->desc)) return 0;
  if (r->native >= 0 && !!(m->access & ACC_NATIVE) != r->native) return 0;
  if (r->virt >= 0 && is_virtual(m) != r->virt) return 0;
  if (r->sigpoly == 1 && !sigpoly_shape(m)) return 0;
  if (r->sigpoly == 0 && sigpoly_shape(m)) return 0;
  if (r->annotation && !has_annot(m, r->annotation)) return 0;
  return 1;
}

void cr_policy_prepare(const cr_policy *p, const char *cls, uint8_t *mask) {
  for (size_t i = 0; p && i < p->n; i++)
    mask[i] = (uint8_t)field(p->v[i].r.cls, p->v[i].lit_cls, cls);
}

int cr_policy_match_masked(const cr_policy *p, cr_pol_kind kind,
                           const cr_pol_method *m, const uint8_t *mask) {
  if (!p) return -1;
  for (size_t i = 0; i < p->n; i++)
    if (mask[i] && p->v[i].r.kind == kind && matches(&p->v[i], m))
      return (int)i;
  return -1;
}

size_t cr_policy_select(const cr_policy *p, cr_pol_kind kind,
                        const uint8_t *mask, uint32_t *idx) {
  size_t n = 0;
  for (size_t i = 0; p && i < p->n; i++)
    if (mask[i] && p->v[i].r.kind == kind) idx[n++] = (uint32_t)i;
  return n;
}

int cr_policy_match_in(const cr_policy *p, cr_pol_kind kind,
                       const cr_pol_method *m, const uint32_t *idx,
                       size_t n) {
  for (size_t j = 0; p && j < n; j++)
    if (idx[j] < p->n && p->v[idx[j]].r.kind == kind &&
        matches(&p->v[idx[j]], m))
      return (int)idx[j];
  return -1;
}

int cr_policy_match(const cr_policy *p, cr_pol_kind kind,
                    const cr_pol_method *m) {
  if (!p) return -1;
  for (size_t i = 0; i < p->n; i++)
    if (p->v[i].r.kind == kind && matches(&p->v[i], m)) return (int)i;
  return -1;
}

/* ------------------------------------------- the kinds beyond seeds */

/*
** What an entry of the other kinds is about: a method, a call made in a
** class, an inserted call or a field. NULL members are not asked about.
*/
typedef struct subject {
  const char *cls, *name, *desc;
  const cr_pol_ref *call;        /* redirect */
  const char *event;             /* insert-call */
} subject;

static int about(const cr_pol__rule *e, const subject *s) {
  const cr_pol_rule *r = &e->r;
  if (!field(r->cls, e->lit_cls, s->cls)) return 0;
  if (s->name && !field(r->name, e->lit_name, s->name)) return 0;
  if (s->desc && !field(r->desc, e->lit_desc, s->desc)) return 0;
  if (s->call && !(cr_policy_glob(r->from.owner, s->call->owner) &&
                   cr_policy_glob(r->from.name, s->call->name) &&
                   cr_policy_glob(r->from.desc, s->call->desc)))
    return 0;
  if (s->event && !cr_policy_glob(r->call, s->event)) return 0;
  return 1;
}

/* The first entry of 'kind' about 's' that no removal cancels, or -1. */
static int find(const cr_policy *p, cr_pol_kind kind, const subject *s) {
  int hit = -1;
  for (size_t i = 0; p && i < p->n; i++) {
    const cr_pol__rule *e = &p->v[i];
    if (e->r.kind != kind || !about(e, s)) continue;
    if (e->r.remove) return -1;
    if (hit < 0) hit = (int)i;
  }
  return hit;
}

int cr_policy_find(const cr_policy *p, cr_pol_kind kind, const char *cls,
                   const char *name, const char *desc) {
  subject s = {cls, name, desc, NULL, NULL};
  return find(p, kind, &s);
}

int cr_policy_redirect(const cr_policy *p, const char *cls,
                       const cr_pol_ref *call) {
  subject s = {cls, NULL, NULL, call, NULL};
  return find(p, CR_POL_REDIRECT, &s);
}

int cr_policy_removed(const cr_policy *p, size_t i) {
  if (!p || i >= p->n) return 1;
  const cr_pol_rule *r = &p->v[i].r;
  if (r->remove) return 1;
  subject s = {r->cls, r->name, NULL, NULL, NULL};
  if (r->kind == CR_POL_REDIRECT) {
    s.name = NULL;
    s.call = &r->from;
  } else if (r->kind != CR_POL_THREAD_FIELD) {
    s.desc = r->desc;
  }
  if (r->kind == CR_POL_INSERT_CALL) s.event = r->call;
  for (size_t k = 0; k < p->n; k++)
    if (p->v[k].r.kind == r->kind && p->v[k].r.remove &&
        about(&p->v[k], &s))
      return 1;
  return 0;
}

/* ------------------------------------------------------------ printing */

/* Attribute value with XML escapes. */
static void attr(FILE *f, const char *name, const char *v) {
  fprintf(f, " %s=\"", name);
  cr_xml_attr(f, v);
  fputc('"', f);
}

/* A method reference attribute, "owner.name(desc)"; a removal's left
** out descriptor ("*") is left out. */
static void ref(FILE *f, const char *name, const cr_pol_ref *r) {
  fprintf(f, " %s=\"", name);
  cr_xml_attr(f, r->owner);
  fputc('.', f);
  cr_xml_attr(f, r->name);
  if (strcmp(r->desc, "*") != 0) cr_xml_attr(f, r->desc);
  fputc('"', f);
}

/* Comment text: "--" is not allowed inside XML comments. */
static void comment(FILE *f, const char *s) {
  fputs("  <!-- ", f);
  for (; *s; s++) {
    fputc(*s, f);
    if (*s == '-' && s[1] == '-') fputc(' ', f);
  }
  fputs(" -->\n", f);
}

int cr_policy_print(const cr_policy *p, FILE *f) {
  fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", f);
  fprintf(f, "<!-- cccp effective policy: %zu rules -->\n",
          cr_policy_count(p));
  fputs("<policy version=\"1\">\n", f);
  for (size_t i = 0; p && i < p->n; i++) {
    const cr_pol_rule *r = &p->v[i].r;
    if (r->origin) comment(f, r->origin);
    fprintf(f, "  <%s", cr_pol__kindname[r->kind]);
    attr(f, "class", r->cls);
    if (r->kind == CR_POL_REDIRECT) {
      ref(f, "from", &r->from);
      if (r->to.owner) ref(f, "to", &r->to);
      if (r->after > 0) attr(f, "after", "1");
    } else {
      attr(f, "name", r->name);
      if (r->kind != CR_POL_THREAD_FIELD || r->desc)
        attr(f, "desc", r->desc);
    }
    if (r->call) attr(f, "call", r->call);
    if (r->remove) attr(f, "remove", "1");
    if (r->annotation) attr(f, "annotation", r->annotation);
    if (r->native >= 0) attr(f, "native", r->native ? "1" : "0");
    if (r->virt >= 0) attr(f, "virtual", r->virt ? "1" : "0");
    if (r->sigpoly >= 0) attr(f, "sigpoly", r->sigpoly ? "1" : "0");
    attr(f, "id", r->id);
    if (r->why) attr(f, "why", r->why);
    fputs("/>\n", f);
  }
  fputs("</policy>\n", f);
  return ferror(f) ? CR_EIO : 0;
}
