/*
** policy.c -- seeds of the overloadability analysis: the rule list,
** pattern matching, the built-in HotSpot 8-25 policy and its printing.
** The XML reader is in policy_xml.c.
*/
#include <stdlib.h>
#include <string.h>

#include "cccp/policy.h"
#include "pol_int.h"

/* ORDER cr_pol_kind */
const char *const cr_pol__kindname[CR_POL__COUNT] = {
  "nonoverloadable", "nonwrappable", "overloadable", "wrappable"
};

/*
** The built-in policy. Every entry says why it exists; the long form is
** 'cr_policy_doc' below (keep both in step). Natives that must not get a
** wrapper frame are listed as 'nonwrappable': the implication "native and
** non-wrappable => non-overloadable" (paper 4.4) then makes them
** non-overloadable, so their calls are profiled at the call site.
*/
#define ANY (-1)
static const cr_pol_rule builtin[] = {
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
"MethodHandleNatives.link*, doStackWalk): the original signature stays.\n";

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
    for (size_t i = 0; i < sizeof builtin / sizeof builtin[0]; i++) {
      cr_pol_rule r = builtin[i];
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

int cr_policy_add(cr_policy *p, const cr_pol_rule *r, cr_diag *d) {
  if ((unsigned)r->kind >= CR_POL__COUNT)
    return cr_diag_set(d, CR_EUSAGE, -1, "policy rule kind %d is invalid",
                       (int)r->kind);
  if (r->native < -1 || r->native > 1 || r->virt < -1 || r->virt > 1 ||
      r->sigpoly < -1 || r->sigpoly > 1)
    return cr_diag_set(d, CR_EUSAGE, -1, "policy qualifier out of range");
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

int cr_policy_match(const cr_policy *p, cr_pol_kind kind,
                    const cr_pol_method *m) {
  if (!p) return -1;
  for (size_t i = 0; i < p->n; i++)
    if (p->v[i].r.kind == kind && matches(&p->v[i], m)) return (int)i;
  return -1;
}

/* ------------------------------------------------------------ printing */

/* Attribute value with XML escapes. */
static void attr(FILE *f, const char *name, const char *v) {
  fprintf(f, " %s=\"", name);
  cr_xml_attr(f, v);
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
    attr(f, "name", r->name);
    attr(f, "desc", r->desc);
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
