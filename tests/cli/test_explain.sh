#!/usr/bin/env bash
# --explain CLASS[.METHOD] and -vv: what the rewrite does with a class and
# its methods, and why. Known answers on the build examples' project,
# xalan (a method made non-overloadable by rule 3 through a library class)
# and the JDK in JDK mode (B2N twin, empty finalize, Object kept); and the
# plan printed must be what the rewrite does: the methods given a twin
# are the twins found in the rewritten class.
#
# Environment: CCCP_REWRITE, BUILD, JDK17.
set -u
source "$(dirname "$0")/../lib.sh"

export JAVA_HOME=$JDK17
suite_tmp
SRC="$ROOT/examples/build/project/src"
mkdir -p "$T/c1" "$T/c2"
"$JDK17/bin/javac" -nowarn -d "$T/c1" "$SRC"/stats/*.java
"$JDK17/bin/jar" --create --file "$T/stats.jar" -C "$T/c1" .
"$JDK17/bin/javac" -nowarn -cp "$T/stats.jar" -d "$T/c2" "$SRC"/demo/*.java
"$JDK17/bin/jar" --create --file "$T/demo.jar" -C "$T/c2" .
cd "$T"

expect_exit 0 "--explain a class of the inputs (no -o)" \
  "$REWRITE" demo.jar stats.jar --explain 'demo.Main$Lcg'
expect_match "^demo/Main\\\$Lcg" "... names it in internal form" "$out"
expect_match "from demo.jar, entry demo/Main\\\$Lcg.class" "... with its input and entry" "$out"
expect_match "rewritten: a class of the inputs" "... rewritten" "$out"
expect_match "uniform\(\)D
    overloadable: yes
    wrappable: yes
    instrumentation: an ESI twin, and the original instrumented in place \(OSI\)" \
  "... a method: overloadable, wrappable, ESI twin and OSI" "$out"
check "... writes nothing" test ! -e cccp-rt.jar
expect_exit 0 "the same with --n2b-wrappers" \
  "$REWRITE" --n2b-wrappers demo.jar stats.jar --explain 'demo/Main$Lcg.uniform'
expect_match "instrumentation: an ESI twin, and the original its N2B wrapper" "... N2B wrapper" "$out"
check "... one method only" test "$(printf '%s\n' "$out" | grep -c 'overloadable:')" = 1
expect_exit 0 "an interface method" "$REWRITE" demo.jar stats.jar --explain 'demo.Main$Source#next'
expect_match "\(interface\)" "... says interface" "$out"
expect_match "a twin that calls it \(for subclasses without their own\)" "... abstract: a twin that calls it" "$out"
expect_exit 0 "a class of --classpath" "$REWRITE" demo.jar --classpath stats.jar --explain stats.Sample::mean
expect_match "library: a class-path entry's" "... is a library" "$out"
expect_match "overloadable: no: library class" "... its method non-overloadable: library class" "$out"
expect_exit 0 "a JDK class in app mode" "$REWRITE" demo.jar --explain java.util.ArrayList.size
expect_match "from the JDK read as a library \($JDK17/lib/modules\)" "... from the JDK image" "$out"
expect_match "library: a class of the JDK" "... a library" "$out"
expect_exit 1 "an unknown class" "$REWRITE" demo.jar --explain no.such.Klass
expect_match "no such class" "... says so" "$err"
expect_exit 1 "an unknown method" "$REWRITE" demo.jar --explain demo.Main.nope
expect_match "declares no method named nope" "... says so" "$err"

# the plan is what the rewrite does: the methods given twins are the
# twins in the rewritten class (javap lists methods taking cccp.rt.CC)
twins_planned() {
  printf '%s\n' "$1" | awk '/^  [^ ]/ {m=$1} /instrumentation: (an ESI twin|a twin|a B2N twin)/ {print m}' |
    sed 's/(.*//' | sort | uniq -c | awk '{print $2 ":" $1}' | tr '\n' ' '
}
twins_made() {
  unzip -p "$1" "$2.class" > "$T/k.class"
  "$JDK17/bin/javap" -p "$T/k.class" | grep 'cccp.rt.CC)' |
    sed 's/(.*//; s/.* //; s/.*\..*/<init>/' | sort | uniq -c | awk '{print $2 ":" $1}' | tr '\n' ' '
}
expect_exit 0 "rewrite demo.jar and stats.jar" "$REWRITE" -q demo.jar stats.jar -o out/
for c in 'demo/Main$Lcg' 'demo/Main$Source' demo/Main stats/Histogram; do
  jar=out/demo.jar; case $c in stats/*) jar=out/stats.jar;; esac
  expect_exit 0 "--explain $c" "$REWRITE" demo.jar stats.jar --explain "$c"
  p=$(twins_planned "$out"); m=$(twins_made "$jar" "$c")
  check "... the twins it plans ($p) are those the rewrite made ($m)" test "$p" = "$m"
done

# leaves (src/hier/leaf.c): library methods that run no instrumented code;
# a call to one makes its node without the slot, one to another publishes it
expect_exit 0 "a leaf of the JDK" "$REWRITE" demo.jar --explain java.lang.Integer.compare
expect_match "leaf: yes: runs no instrumented code" "... says so" "$out"
expect_exit 0 "not a leaf: HashMap.get calls hashCode" "$REWRITE" demo.jar --explain java.util.HashMap.get
expect_match "leaf: no: the answer of the summary it was read from" "... the JDK cache's answer, and how to see why" "$out"
expect_match "no-jdk-cache reads the JDK's code and says why" "... ... says how to see why" "$out"
expect_exit 0 "... read from the JDK's code" "$REWRITE" demo.jar --no-jdk-cache --explain java.util.HashMap.get
expect_match "leaf: no: it calls java/util/HashMap.getNode[^ ]*, which is not a leaf" "... names the call that is not, to follow" "$out"
expect_exit 0 "... and on: HashMap.hash" "$REWRITE" demo.jar --no-jdk-cache --explain java.util.HashMap.hash
expect_match "leaf: no: it calls java/lang/Object.hashCode..I virtually, and a subclass may override it" "... ... calls the key's hashCode" "$out"
expect_exit 0 "a class-path library has no leaves" "$REWRITE" demo.jar --classpath stats.jar --explain stats.Sample.size
expect_match "leaf: no: not a class of the JDK" "... not even a getter (its loader may be instrumented)" "$out"
# the instructions before each call of Object.<init> in demo/Main's code
before_init() {
  unzip -p "$1" demo/Main.class > "$T/m.class"
  "$JDK17/bin/javap" -c -p "$T/m.class" |
    awk '/java\/lang\/Object."<init>"/ {print prev} {prev = $0}' | sed 's/^ *[0-9]*: *//' | sort -u
}
b=$(before_init out/demo.jar)
check "app mode: a call of Object.<init> (a leaf) makes its node only ($b)" \
  test "$b" = pop
expect_exit 0 "rewrite demo.jar against an instrumented JDK" \
  "$REWRITE" -q --jdk "$JDK17" -o jdk/
expect_exit 0 "... and demo.jar in JDK mode" \
  "$REWRITE" -q --summary jdk/jdk.summary demo.jar stats.jar -o jdkapp/
b=$(before_init jdkapp/demo.jar)
check "JDK mode: no leaves, the call publishes its node and keeps the old one ($b)" \
  bash -c "printf '%s\n' \"\$1\" | grep -q '^astore' && ! printf '%s\n' \"\$1\" | grep -q '^pop'" _ "$b"

X=/usr/share/java/xalan2.jar
if [ -f "$X" ]; then
  expect_exit 0 "xalan: a method made non-overloadable by rule 3" \
    "$REWRITE" "$X" -o "$T/xx/" --explain org.apache.xml.serializer.WriterChain.write
  expect_match 'write\(\[C\)V
    overloadable: no: rule 3 via org/apache/xml/serializer/WriterToUTF8Buffered inheriting \(rule 2\) java/io/Writer.write\(\[C\)V < library class' \
    "... with its reason chain" "$out"
  expect_match "left as it is: abstract and non-overloadable" "... and left as it is" "$out"
  expect_exit 0 "xalan -vv" "$REWRITE" -vv "$X" -o "$T/xv/"
  expect_match "org/apache/xml/serializer/WriterChain.write\(\[C\)V: non-overloadable: rule 3" \
    "... lists the non-overloadable methods with their reasons" "$err"
  expect_match "javax/xml/.*: library, copied unchanged: a JDK module owns its package" \
    "... and the classes kept as libraries for JEP 261" "$err"
  expect_match "[0-9]+ non-overloadable methods .*, listed above; --explain" "... and a count" "$err"
  expect_exit 0 "xalan -v" "$REWRITE" -v "$X" -o "$T/xv1/"
  expect_match "[1-9][0-9]* non-overloadable methods of the inputs .* [1-9][0-9]* of their classes kept as libraries \(JEP 261\): -vv lists them" \
    "... counts the non-overloadable methods and the JEP 261 libraries" "$err"
  check "... without listing them" bash -c "! printf '%s' \"\$1\" | grep -q 'WriterChain.write'" _ "$err"
else
  echo "  skip xalan checks: no $X"
fi

# JDK mode: the JDK's classes are inputs
expect_exit 0 "JDK mode: a native method" \
  "$REWRITE" --jdk "$JDK17" --explain java.lang.Thread.currentThread
expect_match "entry java.base/java/lang/Thread.class" "... from its module" "$out"
expect_match "a B2N twin that calls the native method" "... gets a B2N twin" "$out"
expect_exit 0 "JDK mode: Enum.finalize" "$REWRITE" --jdk "$JDK17" --explain java.lang.Enum.finalize
expect_match "an ESI twin, and the original unchanged: an empty finalize\(\)" \
  "... empty: the original stays" "$out"
expect_exit 0 "JDK mode: java.lang.Object" "$REWRITE" --jdk "$JDK17" --explain java.lang.Object.hashCode
expect_match "left as it is: an instrumented JDK keeps java.lang.Object" "... is kept" "$out"

finish
