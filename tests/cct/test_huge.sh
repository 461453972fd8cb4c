#!/usr/bin/env bash
# Methods near HotSpot's 8,000-byte limit for compiling a method
# (-XX:HugeMethodLimit): a generated class whose methods of 2,000 to
# 7,000 bytes the ordinary instrumentation pushes past the limit (class
# initialisation guards, library call sites) -- a static method with a
# switch, a constructor, a synchronized method with the owner check --
# stay under it in their compact form, and one that cannot (only library
# call sites) is noted. The compact form changes neither the program's
# output nor its profile: the same calling-context tree as the ordinary
# form, with a class initialised in a handler after a library call threw
# and callbacks from the library. bench/huge-methods measures the sizes.
#
# Environment: CCCP_REWRITE, CCCP_REPORT, BUILD (cccp-rt.jar), JDK17.
set -u
source "$(dirname "$0")/../lib.sh"

JDK17=${JDK17:-/usr/lib/jvm/java-17-openjdk-amd64}
HUGE="$ROOT/bench/huge-methods"
not_grep() { ! grep -Eq "$1" "$2"; }
export CCCP="$REWRITE"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
[ -f "$ROOT/$BUILD/cccp-rt.jar" ] || { fail "missing cccp-rt.jar (run make first)"; finish; exit; }

mkdir -p "$T/src/huge" "$T/c"
python3 - "$T/src/huge" <<'EOF'
import sys
d = sys.argv[1]
NF = 40
util = ["package huge;", "public class Util {",
        "  static final int BASE;",
        "  static { BASE = Integer.parseInt(\"7\"); }",
        "  static int g() { return Integer.valueOf(3).intValue(); }"]
for k in range(NF):
    util.append("  static int f%d(int x) { return x * %d + BASE; }" % (k, k + 1))
util.append("}")
open(d + "/Util.java", "w").write("\n".join(util) + "\n")
open(d + "/Late.java", "w").write(
    "package huge;\npublic class Late {\n"
    "  static final int VALUE;\n"
    "  static { VALUE = Util.g() + Integer.parseInt(\"11\"); }\n}\n")
b = ["package huge;", "import java.util.*;", "public class Big {",
     "  int total;"]


def guarded_calls(n):
    """n statements 'if (n > c) s += Util.fK(n);' into b"""
    for c in range(n):
        b.append("    if (n > %d) s += Util.f%d(n);" % (c, c % NF))


# a switch of guarded static calls (the class has an instrumented <clinit>)
b.append("  static int loop(int n) {")
b.append("    int s = 0;")
b.append("    for (int i = 0; i < n; i++) {")
b.append("      switch (i) {")
for c in range(200):
    b.append("      case %d: s += Util.f%d(i + %d); break;" % (c, c % NF, c))
b.append("      default: s += i;")
b.append("      }")
b.append("    }")
b.append("    synchronized (Util.class) { s += Util.f2(n); }")
b.append("    try { s += Integer.parseInt(\"x\" + n); }")
b.append("    catch (NumberFormatException e) { s += Late.VALUE; }")
b.append("    List<Integer> l = new ArrayList<>(Arrays.asList(3, 1, 2));")
b.append("    Collections.sort(l, new Comparator<Integer>() {")
b.append("      public int compare(Integer a, Integer c) { return Util.f1(a) - Util.f1(c); } });")
b.append("    return s + l.get(0);")
b.append("  }")
# a constructor: super(), then the same kind of code
b.append("  Big(int n) {")
b.append("    super();")
b.append("    int s = 0;")
guarded_calls(300)
b.append("    total = s;")
b.append("  }")
# a synchronized instance method of a class that may be extended: the
# twin checks its owner and locks by itself
b.append("  public synchronized int sync(int n) {")
b.append("    int s = total;")
guarded_calls(300)
b.append("    return s;")
b.append("  }")
# library call sites only: even the compact form passes the limit
b.append("  static int libs(List<Integer> l) {")
b.append("    int s = 0;")
for c in range(700):
    b.append("    s += l.size();")
b.append("    return s;")
b.append("  }")
b.append("  public static void main(String[] a) {")
b.append("    Big b = new Big(250);")
b.append("    System.out.println(loop(250) + \" \" + b.total + \" \" + b.sync(250) + \" \" + libs(Arrays.asList(1, 2)));")
b.append("  }")
b.append("}")
open(d + "/Big.java", "w").write("\n".join(b) + "\n")
EOF
check "javac the generated class" "$JDK17/bin/javac" -nowarn -d "$T/c" "$T/src/huge"/*.java
(cd "$T/c" && "$JDK17/bin/jar" cf "$T/big.jar" huge)

# the ordinary form (compact only above 65,535 bytes): four methods
# cross the limit, eight bodies (each has a twin)
mkdir -p "$T/plain" "$T/ord" "$T/cmp"
expect_exit 0 "rewrite with the ordinary form only" "$REWRITE" -v \
  --compact-above 65535 "$T/big.jar" -o "$T/ord/big.jar"
expect_match "note: 8 method bodies past HotSpot's 8000-byte limit" \
  "the ordinary form: 8 bodies past the limit, noted" "$err"
expect_match "method loop\(I\)I grows from [0-9]+ to [0-9]+ bytes of code" \
  "-v names them" "$err"
expect_exit 0 "bench/huge-methods on the ordinary form" "$HUGE" "$T/big.jar" "$T/ord/big.jar"
expect_match "big.jar: 8 methods cross the 8000-byte limit" \
  "bench/huge-methods counts the same 8" "$out"
expect_match "init [0-9]+/202" "loop's growth: 202 initialisation guards (the switch's 200, Util.f2, Late.VALUE)" "$out"

# the default: only the body of library call sites stays past it
expect_exit 0 "rewrite with the default options" "$REWRITE" "$T/big.jar" -o "$T/cmp/big.jar"
expect_match "note: 2 method bodies past HotSpot's 8000-byte limit.*-v names them" \
  "the default: 2 bodies noted" "$err"
expect_match "8 method bodies in the compact form" "8 bodies compact (libs too: smaller)" "$err"
expect_exit 0 "bench/huge-methods on the default" "$HUGE" "$T/big.jar" "$T/cmp/big.jar"
expect_match "big.jar: 2 methods cross" "bench/huge-methods: 2 cross" "$out"
n=$(printf '%s\n' "$out" | grep -c '^huge\.Big\.libs(')
check "those are libs and its twin" [ "$n" = 2 ]

# same output, verified bytecode, the same calling-context tree
(cd "$T/plain" && "$JDK17/bin/java" -cp "$T/big.jar" huge.Big >out.txt 2>&1)
for v in ord cmp; do
  (cd "$T/$v" && "$JDK17/bin/java" -Xverify:all @"$T/$v/big.jar.args" \
     -Dcccp.out="$T/$v/p.xml" -cp "$T/$v/big.jar" huge.Big >out.txt 2>&1)
  check "$v: the same output as the plain run" cmp "$T/plain/out.txt" "$T/$v/out.txt"
done
# the compact body compiles: C1 takes it (javac's handler of the
# synchronized block covers itself: no call put there)
(cd "$T/cmp" && "$JDK17/bin/java" @"$T/cmp/big.jar.args" -Xcomp \
   -XX:TieredStopAtLevel=1 -XX:+PrintCompilation \
   -XX:CompileCommand=quiet -XX:CompileCommand=compileonly,huge.Big::loop \
   -cp "$T/cmp/big.jar" huge.Big >jit.txt 2>&1)
check "C1 compiles the compact loop" grep -q "huge.Big::loop ([0-9]* bytes)$" "$T/cmp/jit.txt"
check "... and skips nothing" not_grep "COMPILE SKIPPED|not compilable" "$T/cmp/jit.txt"
# the bodies past the limit only instrumented are compiled: the options
# file turns the limit off (and a later option turning it on again wins)
check "the options file turns the limit off" \
  grep -qx -- "-XX:-DontCompileHugeMethods" "$T/cmp/big.jar.args"
check "... for the ordinary form too" \
  grep -qx -- "-XX:-DontCompileHugeMethods" "$T/ord/big.jar.args"
# against an instrumented JDK, whose options the rewrite copies (on JDK
# 17 they turn the limit off already: keytool's Main.doCommands passes
# it): the line once
expect_exit 0 "instrument the JDK" "$REWRITE" -q --jdk "$JDK17" -o "$T/jdk"
mkdir -p "$T/jb"
expect_exit 0 "rewrite against it" "$REWRITE" -q --summary "$T/jdk/jdk.summary" \
  "$T/big.jar" -o "$T/jb/"
check "... whose options file turns the limit off once" \
  [ "$(grep -cx -- "-XX:-DontCompileHugeMethods" "$T/jb/cccp.args")" = 1 ]
check "... and still has the JDK's options" grep -q -- "--patch-module" "$T/jb/cccp.args"
# the C1 compilations of libs: the options file, then the arguments given
jit_libs() {
  (cd "$T/cmp" && "$JDK17/bin/java" @"$T/cmp/big.jar.args" "$@" -Xcomp \
     -XX:TieredStopAtLevel=1 -XX:+PrintCompilation \
     -XX:CompileCommand=quiet -XX:CompileCommand=compileonly,huge.Big::libs \
     -cp "$T/cmp/big.jar" huge.Big >jit.txt 2>&1)
}
jit_libs
check "C1 compiles libs, past the limit" grep -q "huge.Big::libs ([0-9]* bytes)$" "$T/cmp/jit.txt"
jit_libs -XX:+DontCompileHugeMethods
check "... which it does not with the limit on" not_grep "huge.Big::libs \\(" "$T/cmp/jit.txt"
# classes rewritten as they load (agent only): no options file can turn
# the limit off by then, so the profile counts the bodies that ran
# interpreted (while the program prints what it prints), and cccp-report
# says so; none when the JVM's options turned the limit off (the last
# word wins, wherever it is: the command line, an argument file, the
# environment)
expect_exit 0 "cccp-rewrite --agent" "$REWRITE" -q --agent -o "$T/agent"
agent_big() {
  rm -f "$T/agent/p.xml"
  (cd "$T/agent" && "$JDK17/bin/java" @"$T/agent/cccp.args" "$@" \
     -Dcccp.out="$T/agent/p.xml" -cp "$T/big.jar" huge.Big >out.txt 2>&1)
  "$REPORT" stats "$T/agent/p.xml" >"$T/agent/stats.txt" 2>&1
}
huge_note="^note: 2 method bodies instrumented as their classes loaded passed HotSpot's 8000-byte limit"
agent_big
check "agent only: the same output as the plain run, nothing added" cmp "$T/plain/out.txt" "$T/agent/out.txt"
check "agent only: the profile counts huge/Big's 2 bodies past the limit" \
  grep -q 'huge-interpreted="2"' "$T/agent/p.xml"
check "... and cccp-report stats notes them" grep -q "$huge_note" "$T/agent/stats.txt"
"$REPORT" top "$T/agent/p.xml" >"$T/agent/top.txt" 2>&1
check "... so does cccp-report top" grep -q "$huge_note" "$T/agent/top.txt"
agent_big -XX:-DontCompileHugeMethods
check "none with the limit off on the command line" not_grep "huge-interpreted" "$T/agent/p.xml"
check "... no note" not_grep "^note" "$T/agent/stats.txt"
printf -- '-XX:-DontCompileHugeMethods\n' >"$T/off.args"
agent_big @"$T/off.args"
check "... or in an argument file" not_grep "huge-interpreted" "$T/agent/p.xml"
JAVA_TOOL_OPTIONS=-XX:-DontCompileHugeMethods agent_big
check "... or in JAVA_TOOL_OPTIONS" not_grep "huge-interpreted" "$T/agent/p.xml"
agent_big @"$T/off.args" -XX:+DontCompileHugeMethods
check "counted again when a later option turns the limit back on" \
  grep -q 'huge-interpreted="2"' "$T/agent/p.xml"
mkdir -p "$T/src/tiny" "$T/tc" "$T/tiny"
printf 'package tiny;\npublic class T { public static void main(String[] a) { System.out.println(a.length); } }\n' \
  >"$T/src/tiny/T.java"
check "javac a small class" "$JDK17/bin/javac" -d "$T/tc" "$T/src/tiny/T.java"
(cd "$T/tc" && "$JDK17/bin/jar" cf "$T/tiny.jar" tiny)
expect_exit 0 "rewrite a jar with no method past the limit" "$REWRITE" "$T/tiny.jar" -o "$T/tiny/"
check "its options file leaves the limit on" not_grep "DontCompileHugeMethods" "$T/tiny/cccp.args"
expect_exit 0 "compact and ordinary forms: the same profile" \
  "$REPORT" compare --min-overlap 100 "$T/ord/p.xml" "$T/cmp/p.xml"
expect_match "differing 0" "no context differs" "$out"
expect_exit 0 "the tree of the compact form" "$REPORT" tree "$T/cmp/p.xml"
expect_match "Late\.<clinit>" "the class initialised in the handler has its node" "$out"

# A '<clinit>' with no room for the code that sets the method ids (7,000
# table entries, 56 KB, and 600 methods, whose ids take 12 KB more): a
# method of their own sets them (cccp$mids), which '<clinit>' calls
# first. The rewrite succeeds, reflection shows the class's own members
# only, and every method has its node.
mkdir -p "$T/big/src/big" "$T/big/c"
python3 - "$T/big/src/big" <<'EOF2'
import sys
d = sys.argv[1]
NT, NM = 7000, 600
src = ["package big;", "public class Tables {",
       "  static final int[] T = {" +
       ",".join(str(100000 + 7 * k) for k in range(NT)) + "};"]
for k in range(NM):
    src.append("  static int m%d() { return %d; }" % (k, k))
src.append("  public static void main(String[] a) {")
src.append("    long s = 0; for (int v : T) s += v;")
for k in range(NM):
    src.append("    s += m%d();" % k)
src.append("    System.out.println(\"sum \" + s + \" methods \" + "
           "Tables.class.getDeclaredMethods().length + \" fields \" + "
           "Tables.class.getDeclaredFields().length);")
src.append("  }")
src.append("}")
open(d + "/Tables.java", "w").write("\n".join(src) + "\n")
EOF2
check "javac builds the class of the large <clinit>" \
  bash -c "'$JDK17/bin/javac' --release 8 -nowarn -d '$T/big/c' '$T/big/src/big/Tables.java' &&
           cd '$T/big/c' && '$JDK17/bin/jar' cf ../big.jar ."
check "the class of the large <clinit> is rewritten" "$REWRITE" -q "$T/big/big.jar" -o "$T/big/out/"
"$JDK17/bin/javap" -p -c -cp "$T/big/out/big.jar" big.Tables >"$T/big/javap" 2>&1
check "its <clinit> calls cccp\$mids, which sets the ids" \
  grep -q 'invokestatic .*Method cccp\$mids:()V' "$T/big/javap"
check "the id fields are not final" \
  bash -c "grep -Eq 'static int cccp.mid.0;' '$T/big/javap' && ! grep -Eq 'final int cccp.mid.' '$T/big/javap'"
"$JDK17/bin/java" -cp "$T/big/big.jar" big.Tables >"$T/big/plain" 2>&1
"$JDK17/bin/java" @"$T/big/out/cccp.args" -Dcccp.out="$T/big/p.xml" \
  -cp "$T/big/out/big.jar" big.Tables >"$T/big/inst" 2>&1
check "it prints what the plain class prints (sum, its methods and fields)" \
  bash -c "grep -q '^sum .* methods 601 fields 1$' '$T/big/plain' && cmp -s '$T/big/plain' '$T/big/inst'"
expect_match '^1$' "its last method has its node" \
  "$(method_calls "$T/big/p.xml" 'big/Tables.m599()I')"
finish
