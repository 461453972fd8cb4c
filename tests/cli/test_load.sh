#!/usr/bin/env bash
# What the JVM really loads: manifest Class-Path closures (relative,
# absolute, '..', %-escaped, through a symbolic link, missing entries,
# two jars named alike) and classes of JDK modules' packages shipped in
# jars (left unchanged, one warning per jar). Tiny jars are built here
# with javac and jar; the instrumented program must print what the plain
# one prints, on JDK 17 and, when installed, JDK 25.
#
# Environment: CCCP_REWRITE, BUILD, JDK17, JDK25.
set -u
source "$(dirname "$0")/../lib.sh"

JDK17=${JDK17:-/usr/lib/jvm/java-17-openjdk-amd64}
JDK25=${JDK25:-/usr/lib/jvm/temurin-25-jdk-amd64}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
JAVAC="$JDK17/bin/javac"
if [ ! -x "$JAVAC" ]; then
  echo "  SKIP load suite: no javac at $JAVAC"; finish; exit $?
fi
make -s -C "$ROOT" BUILD="$BUILD" "$BUILD/cccp-rt.jar" "$BUILD/libcccp-agent.so" \
  "$BUILD/tools/cmp-entries" >/dev/null ||
  { fail "build cccp-rt.jar, libcccp-agent.so and cmp-entries"; finish; exit 1; }

# ------------------------------------------------------------ fixtures
# app/app.jar      Class-Path: lib/util.jar lib/util-1.0.jar (a link to
#                  util.jar) lib%20dir/sp.jar $T/xml/xmlapi.jar
#                  missing.jar
# app/lib/util.jar Class-Path: ../more/more.jar
# app/more/more.jar Class-Path: util.jar (another util.jar)
# xml/xmlapi.jar   javax/xml/namespace/QName (the JDK has its own),
#                  javax/xml/Extra (the JDK has none), x/Helper
src() { mkdir -p "$(dirname "$T/src/$1")"; cat > "$T/src/$1"; }
src app/app/Main.java <<'EOF'
package app;
import javax.xml.namespace.QName;
public class Main implements u.Util.Visitor {
  int seen;
  public void visit(String s) { seen += s.length(); System.out.println("visit " + s); }
  public static void main(String[] args) {
    Main me = new Main();
    u.Util.each(new String[] {"alpha", "beta", "gamma"}, me);
    System.out.println("seen " + me.seen);
    System.out.println(m.more.More.twice(21) + " " + m2.Other.name());
    System.out.println(new QName("urn:x", "local").getLocalPart());
    System.out.println(x.Helper.shout("helper") + " " + s.Sp.space());
  }
}
EOF
src util/u/Util.java <<'EOF'
package u;
public class Util {
  public interface Visitor { void visit(String s); }
  public static void each(String[] xs, Visitor v) { for (String x : xs) v.visit(x); }
}
EOF
src more/m/more/More.java <<'EOF'
package m.more;
public class More { public static int twice(int x) { return x + x; } }
EOF
src other/m2/Other.java <<'EOF'
package m2;
public class Other { public static String name() { return "other"; } }
EOF
src sp/s/Sp.java <<'EOF'
package s;
public class Sp { public static String space() { return "with space"; } }
EOF
src xml/javax/xml/namespace/QName.java <<'EOF'
package javax.xml.namespace;
public class QName {
  private final String local;
  public QName(String ns, String local) { this.local = "shadowed " + local; }
  public String getLocalPart() { return local; }
}
EOF
src xml/javax/xml/Extra.java <<'EOF'
package javax.xml;
public class Extra { public static int one() { return 1; } }
EOF
src xml/x/Helper.java <<'EOF'
package x;
public class Helper { public static String shout(String s) { return s.toUpperCase(); } }
EOF

# header NAME VALUE EOL: a manifest header in lines of at most 72 bytes,
# continued with a space, as the jar tool writes it.
header() {
  local s="$1: $2" eol=$3
  printf "%s$eol" "${s:0:72}"; s=${s:72}
  while [ -n "$s" ]; do printf " %s$eol" "${s:0:71}"; s=${s:71}; done
}
# jarof NAME OUT.jar [Class-Path [EOL]]: the classes of src/NAME into
# OUT.jar, with a manifest (lines ending in EOL, default LF).
jarof() {
  local name=$1 out=$2 cp=${3:-} eol=${4:-'\n'} d="$T/jar/$1"
  mkdir -p "$d/META-INF" "$(dirname "$out")"
  (cd "$T/src/$name" && find . -name '*.java') | sed 's/\.java$/*.class/' |
    while read -r c; do (cd "$T/cls" && cp --parents $c "$d/"); done
  { printf "Manifest-Version: 1.0$eol"
    [ -n "$cp" ] && header Class-Path "$cp" "$eol"
    [ "$name" = app ] && printf "Main-Class: app.Main$eol"
    printf "$eol"; } > "$d/META-INF/MANIFEST.MF"
  (cd "$d" && zip -qrX "$out" META-INF $(ls | grep -v META-INF))
}
A="$T/app"
build() {
  # --release 8: no modules, so that the javax.xml sources compile
  mkdir -p "$T/cls" &&
  "$JAVAC" -nowarn -Xlint:-options --release 8 -d "$T/cls" \
    $(find "$T/src" -name '*.java') &&
  jarof xml "$T/xml/xmlapi.jar" &&
  jarof other "$A/more/util.jar" &&
  jarof more "$A/more/more.jar" "util.jar" &&
  jarof util "$A/lib/util.jar" "../more/more.jar" &&
  ln -s util.jar "$A/lib/util-1.0.jar" &&
  jarof sp "$A/lib dir/sp.jar" &&
  jarof app "$A/app.jar" \
    "lib/util.jar lib/util-1.0.jar lib%20dir/sp.jar $T/xml/xmlapi.jar missing.jar" '\r\n'
}
check "build the fixture jars" build
[ -f "$A/app.jar" ] || { finish; exit 1; }

JDKS=("$JDK17")
[ -x "$JDK25/bin/java" ] && JDKS+=("$JDK25") || echo "  (no JDK 25 at $JDK25)"
# same_run DESC ARGS...: the instrumented run (java @ARGFILE ARGS...) prints
# what 'java -jar app.jar' prints, on every JDK; the first ARG is the
# argfile.
same_run() {
  local what=$1 args=$2 J v; shift 2
  for J in "${JDKS[@]}"; do
    v=$("$J/bin/java" -version 2>&1 | sed -n 's/.*version "\([0-9]*\).*/\1/p' | head -1)
    (cd "$T" && "$J/bin/java" -jar "$A/app.jar" > "$T/plain.txt" 2>&1)
    rm -f "$T/cct.xml"
    (cd "$T" && "$J/bin/java" @"$args" -Dcccp.out="$T/cct.xml" "$@" > "$T/inst.txt" 2>&1)
    if cmp -s "$T/plain.txt" "$T/inst.txt"; then
      pass "$what, JDK $v: output identical ($(wc -l < "$T/plain.txt") lines)"
    else
      fail "$what, JDK $v: output differs"; diff "$T/plain.txt" "$T/inst.txt" | head -5 | sed 's/^/       /'
    fi
  done
}
mfcp() { # JAR -> its Class-Path value, continuation lines joined
  unzip -p "$1" META-INF/MANIFEST.MF | tr -d '\r' |
    awk '/^Class-Path: /{v=substr($0,13);c=1;next} c&&/^ /{v=v substr($0,2);next} {c=0} END{print v}'
}
entry_same() { cmp -s <(unzip -p "$1" "$3") <(unzip -p "$2" "$3"); }

echo "-- closure, one folder"
O="$T/out"
expect_exit 0 "instrument app.jar with its manifest closure" "$REWRITE" -j 2 "$A/app.jar" -o "$O/"
e1=$err
check "every jar of the closure is written" test -f "$O/app.jar" -a -f "$O/util.jar" \
  -a -f "$O/more.jar" -a -f "$O/util-2.jar" -a -f "$O/sp.jar" -a -f "$O/xmlapi.jar"
check "a jar reached twice (a symbolic link) is written once" test ! -e "$O/util-1.0.jar"
check "the runtime files beside them" test -f "$O/cccp-rt.jar" -a -f "$O/cccp.args" \
  -a -f "$O/cccp.leaves" -a -f "$O/libcccp-agent.so" -a -f "$O/cccp.summary"
check "nothing else in the folder" test "$(ls "$O" | wc -l)" -eq 11
expect_match "^cccp-rewrite: warning: $T/xml/xmlapi.jar: 2 classes in packages of JDK modules \(such as javax\.xml(\.namespace)?\) left unchanged" \
  "one warning for the jar with classes of JDK packages" "$e1"
check "exactly one such warning" test "$(printf '%s\n' "$e1" | grep -c 'packages of JDK modules')" -eq 1
check "a missing Class-Path entry is no warning" bash -c "! printf '%s' \"\$1\" | grep -q missing.jar" _ "$e1"
check "QName (JDK package) copied byte-identical" entry_same "$T/xml/xmlapi.jar" "$O/xmlapi.jar" javax/xml/namespace/QName.class
check "Extra (JDK package) copied byte-identical" entry_same "$T/xml/xmlapi.jar" "$O/xmlapi.jar" javax/xml/Extra.class
check "Helper (own package) instrumented" bash -c "! cmp -s <(unzip -p '$T/xml/xmlapi.jar' x/Helper.class) <(unzip -p '$O/xmlapi.jar' x/Helper.class)"
check "app.jar names the rewritten copies; the missing entry made absolute" \
  test "$(mfcp "$O/app.jar")" = "util.jar util.jar sp.jar xmlapi.jar $A/missing.jar"
check "util.jar names more.jar" test "$(mfcp "$O/util.jar")" = "more.jar"
check "more.jar names its own util.jar, renamed util-2.jar" test "$(mfcp "$O/more.jar")" = "util-2.jar"
check "a manifest without Class-Path is copied" entry_same "$A/lib dir/sp.jar" "$O/sp.jar" META-INF/MANIFEST.MF
check "the argfile loads the agent that puts the runtime in" grep -q -- "-agentpath:.*libcccp-agent.so=boot" "$O/cccp.args"
check "the runtime is beside the agent" test -s "$O/cccp-rt.jar"
same_run "java -jar out/app.jar" "$O/cccp.args" -jar "$O/app.jar"
check "the profile has nodes of a closure jar (m/more/More)" grep -q 'm/more/More' "$T/cct.xml"
expect_exit 0 "a second run" "$REWRITE" -q -j 1 "$A/app.jar" -o "$T/out2/"
check "outputs are deterministic" bash -c "for f in '$O'/*.jar; do cmp \"\$f\" '$T/out2/'\"\${f##*/}\" || exit 1; done"

expect_exit 0 "a jar given on the command line keeps its name" \
  "$REWRITE" -q "$A/app.jar" "$A/more/util.jar" -o "$T/names/"
check "...the closure's jar of the same name gives way" \
  test "$(mfcp "$T/names/app.jar")" = "util-2.jar util-2.jar sp.jar xmlapi.jar $A/missing.jar" \
    -a "$(mfcp "$T/names/more.jar")" = "util.jar"
expect_exit 2 "two command-line jars named alike are refused" \
  "$REWRITE" -q "$A/lib/util.jar" "$A/more/util.jar" -o "$T/names2/"

echo "-- one jar"
mkdir -p "$T/f" "$T/m"
expect_exit 0 "into one jar, the closure stays a library" "$REWRITE" "$A/app.jar" -o "$T/f/app.jar"
expect_match "note: the 5 jars that the inputs' manifests name are libraries" "a note says so" "$err"
check "no missing types (the closure is in the hierarchy)" bash -c "! printf '%s' \"\$1\" | grep -q 'not found'" _ "$err"
check "its Class-Path names the originals" \
  test "$(mfcp "$T/f/app.jar")" = "$A/lib/util.jar $A/lib/util-1.0.jar $A/lib%20dir/sp.jar $T/xml/xmlapi.jar $A/missing.jar"
same_run "java -cp app.jar, the closure as libraries" "$T/f/app.jar.args" -cp "$T/f/app.jar" app.Main
expect_exit 0 "--manifest-closure merges the closure into one jar" \
  "$REWRITE" -q --manifest-closure "$A/app.jar" -o "$T/m/all.jar"
check "its Class-Path keeps only what was not merged" test "$(mfcp "$T/m/all.jar")" = "$A/missing.jar"
check "the closure's classes are in it" bash -c "unzip -Z1 '$T/m/all.jar' | grep -qx m/more/More.class"
same_run "java -cp all.jar" "$T/m/all.jar.args" -cp "$T/m/all.jar" app.Main

echo "-- options"
expect_exit 0 "--no-manifest-closure" "$REWRITE" -q --no-manifest-closure "$A/app.jar" -o "$T/nc/"
check "only app.jar is written" test "$(ls "$T/nc" | grep -c '\.jar$')" -eq 2
check "its Class-Path names the originals" \
  test "$(mfcp "$T/nc/app.jar")" = "$A/lib/util.jar $A/lib/util-1.0.jar $A/lib%20dir/sp.jar $T/xml/xmlapi.jar $A/missing.jar"
same_run "--no-manifest-closure, originals as libraries" "$T/nc/cccp.args" -jar "$T/nc/app.jar"
expect_exit 0 "--classpath keeps a jar of the closure a library" \
  "$REWRITE" -q "$A/app.jar" --classpath "$T/xml/xmlapi.jar" -o "$T/cp/"
check "that jar is not written" test ! -e "$T/cp/xmlapi.jar"
check "the manifest names the original" test "$(mfcp "$T/cp/app.jar")" = "util.jar util.jar sp.jar $T/xml/xmlapi.jar $A/missing.jar"
same_run "--classpath library" "$T/cp/cccp.args" -jar "$T/cp/app.jar"
expect_exit 0 "--analyze follows the closure" "$REWRITE" -q --analyze "$A/app.jar" --report "$T/r.xml"
check "the report has a class of a closure jar" grep -q 'class name="m/more/More"' "$T/r.xml"
check "...but not the JDK package's" bash -c "! grep -q 'class name=\"javax/xml' '$T/r.xml'"
expect_exit 0 "--identity does not follow by default" "$REWRITE" -q --identity "$A/app.jar" -o "$T/id/"
check "--identity wrote app.jar alone" test "$(ls "$T/id")" = "app.jar"
check "--identity copies the manifest" entry_same "$A/app.jar" "$T/id/app.jar" META-INF/MANIFEST.MF
expect_exit 0 "--identity --manifest-closure" "$REWRITE" -q --identity --manifest-closure "$A/app.jar" -o "$T/idc/"
check "...writes the closure" test "$(ls "$T/idc" | wc -l)" -eq 6

echo "-- JDK packages from a summary"
JM="$JDK17/jmods"
if [ -f "$JM/java.base.jmod" ] && [ -f "$JM/java.xml.jmod" ]; then
  expect_exit 0 "a summary with java.base and java.xml as libraries" \
    "$REWRITE" -q --analyze --no-manifest-closure "$A/lib dir/sp.jar" \
    --classpath "$JM/java.base.jmod:$JM/java.xml.jmod" --emit-summary "$T/jdk.sum"
  expect_exit 0 "instrument against the summary" \
    "$REWRITE" --summary "$T/jdk.sum" "$A/app.jar" -o "$T/sum/"
  expect_match "xmlapi.jar: 2 classes in packages of JDK modules" \
    "the summary knows the JDK's packages" "$err"
  check "QName copied byte-identical" entry_same "$T/xml/xmlapi.jar" "$T/sum/xmlapi.jar" javax/xml/namespace/QName.class
  same_run "against a summary" "$T/sum/cccp.args" -jar "$T/sum/app.jar"
else
  echo "  skip: no jmods in $JM"
fi

echo "-- Class-Path entries the JVM does not follow"
mkdir -p "$T/odd/dir"
printf 'not a zip' > "$T/odd/junk.jar"
cp "$A/lib dir/sp.jar" "$T/odd/sp.jar"
jarof util "$T/odd/odd.jar" "junk.jar dir/ http://example.org/x.jar file://host/y.jar bad%zz.jar sp.jar"
expect_exit 0 "odd entries are skipped, not fatal" "$REWRITE" "$T/odd/odd.jar" -o "$T/oddout/"
expect_match "junk.jar.*ignored, as the JVM does" "a file that is not a jar: warning" "$err"
expect_match "'dir/' is a folder: not followed" "a folder: warning" "$err"
expect_match "file://host/y.jar' is a URL naming a host" "a host: warning" "$err"
expect_match "bad%zz.jar' is a bad %-escape" "a bad escape: warning" "$err"
check "the next entry is still followed" test -f "$T/oddout/sp.jar"
check "http: and folder entries kept, junk made absolute" \
  test "$(mfcp "$T/oddout/odd.jar")" = "$T/odd/junk.jar $T/odd/dir/ http://example.org/x.jar file://host/y.jar bad%zz.jar sp.jar"

finish
