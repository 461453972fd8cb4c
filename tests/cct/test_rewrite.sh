#!/usr/bin/env bash
# End-to-end CCCP instrumentation in app mode: the example application is
# rewritten (no mode flag), run with the generated JVM options on JDK 17
# and 25 (when installed), and must print what the plain program prints;
# its profile must hold the calling contexts the program makes (numbers
# from examples/wordfreq/src: 20 rounds x 20000 words). Then the xf
# fixtures under -Xverify:all, the rhino shell, and real jars from
# /usr/share/java loaded and linked (verified) by tests/verify/LinkCheck.
#
# Environment: CCCP_REWRITE, BUILD (where 'make' put the example jar, the
# fixtures and cccp-rt.jar), JDK17, JDK25.
set -u
source "$(dirname "$0")/../lib.sh"

JDK17=${JDK17:-/usr/lib/jvm/java-17-openjdk-amd64}
JDK25=${JDK25:-/usr/lib/jvm/temurin-25-jdk-amd64}
EX="$ROOT/$BUILD/examples/wordfreq.jar"
FIX="$ROOT/$BUILD/fixtures"
export CCCP_RT=${CCCP_RT:-$ROOT/$BUILD/cccp-rt.jar}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

JDKS=("$JDK17")
if [ -x "$JDK25/bin/java" ]; then JDKS+=("$JDK25")
else echo "  skip JDK 25: none at $JDK25"; fi

for f in "$EX" "$CCCP_RT" "$FIX/xf/XfCases.class"; do
  [ -f "$f" ] || { fail "missing $f (run make first)"; finish; exit; }
done

# node_under FILE PARENT_REGEX CHILD_REGEX [CALLS]: some node whose method
# matches CHILD (class.name) sits directly under a node matching PARENT,
# with CALLS calls when given. Uses the <method> table for the names.
node_under() {
  python3 - "$@" <<'PY'
import sys, re, xml.etree.ElementTree as ET
f, parent, child = sys.argv[1:4]
calls = sys.argv[4] if len(sys.argv) > 4 else None
root = ET.parse(f).getroot()
name = {m.get('id'): m.get('class') + '.' + m.get('name') for m in root.iter('method')}
for tree in root.iter('tree'):
    for p in tree.iter('node'):
        if not re.fullmatch(parent, name.get(p.get('method'), '')):
            continue
        for c in p.findall('node'):
            if re.fullmatch(child, name.get(c.get('method'), '')) and \
               (calls is None or c.get('calls') == calls):
                sys.exit(0)
print('no', child, 'under', parent, '' if calls is None else 'with calls=' + calls)
sys.exit(1)
PY
}
not() { ! "$@" >/dev/null; }
# top_level FILE THREAD METHOD_REGEX: METHOD is a child of THREAD's root.
top_level() {
  python3 - "$@" <<'PY'
import sys, re, xml.etree.ElementTree as ET
f, thread, meth = sys.argv[1:4]
root = ET.parse(f).getroot()
name = {m.get('id'): m.get('class') + '.' + m.get('name') for m in root.iter('method')}
for tree in root.iter('tree'):
    if tree.get('thread') != thread: continue
    if any(re.fullmatch(meth, name.get(n.get('method'), '')) for n in tree.findall('node')):
        sys.exit(0)
print('no', meth, 'at the top of thread', thread); sys.exit(1)
PY
}

echo "-- instrument the example (default mode)"
mkdir -p "$T/wf"
expect_exit 0 "cccp-rewrite wordfreq.jar -o INST_wordfreq.jar" \
  "$REWRITE" "$EX" -o "$T/wf/INST_wordfreq.jar"
check "args file next to the output" test -s "$T/wf/INST_wordfreq.jar.args"
check "runtime jar next to the output" test -s "$T/wf/cccp-rt.jar"
expect_exit 0 "second run" "$REWRITE" -q -j 1 "$EX" -o "$T/wf/again.jar"
check "instrumented output is deterministic (-j 1 vs default)" \
  cmp "$T/wf/INST_wordfreq.jar" "$T/wf/again.jar"
expect_exit 0 "re-instrumenting an instrumented jar is refused per class" \
  "$REWRITE" "$T/wf/INST_wordfreq.jar" -o "$T/wf/twice.jar"
expect_match "instrumented already" "  ... with a warning" "$err"

for J in "${JDKS[@]}"; do
  v=$("$J/bin/java" -version 2>&1 | sed -n 's/.*version "\([0-9]*\).*/\1/p' | head -1)
  echo "-- wordfreq on JDK $v"
  d="$T/run$v"; mkdir -p "$d"
  (cd "$d" && "$J/bin/java" -cp "$EX" wordfreq.Main >plain.txt 2>&1)
  (cd "$d" && "$J/bin/java" @"$T/wf/INST_wordfreq.jar.args" -Xverify:all \
     -cp "$T/wf/INST_wordfreq.jar" wordfreq.Main >inst.txt 2>&1)
  check "JDK $v: same output as the plain run" cmp "$d/plain.txt" "$d/inst.txt"
  P="$d/cccp-profile.xml"
  check "JDK $v: profile written" test -s "$P"
  [ -s "$P" ] || continue
  check "JDK $v: profile is well-formed XML" python3 -c \
    "import xml.etree.ElementTree as E,sys; E.parse(sys.argv[1])" "$P"
  check "JDK $v: Main.main at the top of the main thread's tree" \
    top_level "$P" main 'wordfreq/Main\.main'
  check "JDK $v: TableCounter.add x400000 under Main.main" \
    node_under "$P" 'wordfreq/Main\.main' 'wordfreq/TableCounter\.add' 400000
  check "JDK $v: StreamCounter.add x20000 under Counter.addAll" \
    node_under "$P" 'wordfreq/Counter\.addAll' 'wordfreq/StreamCounter\.add' 20000
  check "JDK $v: TableCounter.reset x20 under Main.main" \
    node_under "$P" 'wordfreq/Main\.main' 'wordfreq/TableCounter\.reset' 20
  check "JDK $v: String.hashCode (library) x400000 under TableCounter.slot" \
    node_under "$P" 'wordfreq/TableCounter\.slot' 'java/lang/String\.hashCode' 400000
  # library nodes name the method the receiver selects, not the one the
  # call names (Map.put on a HashMap is HashMap.put)
  check "JDK $v: HashMap.put (library, called as Map.put) under TableCounter.counts" \
    node_under "$P" 'wordfreq/TableCounter\.counts' 'java/util/HashMap\.put'
  check "JDK $v: no node named by the interface (Map.put)" \
    not node_under "$P" 'wordfreq/TableCounter\.counts' 'java/util/Map\.put'
  check "JDK $v: comparator under ArrayList.sort (callback through the library)" \
    node_under "$P" 'java/util/ArrayList\.sort' 'wordfreq/ByCountThenWord\.compare'
  check "JDK $v: lambda body under ReferencePipeline.collect" \
    node_under "$P" 'java/util/stream/ReferencePipeline\.collect' 'wordfreq/StreamCounter\.lambda\$counts\$0' 20000
  check "JDK $v: Tokenizer.tokens under Main.main" \
    node_under "$P" 'wordfreq/Main\.main' 'wordfreq/Tokenizer\.tokens' 1
done

echo "-- overhead (wordfreq 100 rounds, best of 3, same JVM)"
for J in "${JDKS[@]}"; do
  v=$("$J/bin/java" -version 2>&1 | sed -n 's/.*version "\([0-9]*\).*/\1/p' | head -1)
  best() {
    local b=999999
    for i in 1 2 3; do
      local s=$(date +%s%N); "$@" >/dev/null 2>&1; local e=$(( ($(date +%s%N) - s) / 1000000 ))
      [ "$e" -lt "$b" ] && b=$e
    done; echo "$b"
  }
  p=$(cd "$T" && best "$J/bin/java" -cp "$EX" wordfreq.Main 100)
  i=$(cd "$T" && best "$J/bin/java" @"$T/wf/INST_wordfreq.jar.args" -cp "$T/wf/INST_wordfreq.jar" wordfreq.Main 100)
  echo "  JDK $v: plain $p ms, instrumented $i ms ($(python3 -c "print(f'{$i/$p:.2f}')")x)"
done

echo "-- fixtures under -Xverify:all"
(cd "$FIX" && jar cf "$T/xf.jar" xf)
mkdir -p "$T/xfi" "$T/js"
expect_exit 0 "instrument the xf fixtures" "$REWRITE" -q "$T/xf.jar" -o "$T/xfi/xf.jar"
for J in "${JDKS[@]}"; do
  v=$("$J/bin/java" -version 2>&1 | sed -n 's/.*version "\([0-9]*\).*/\1/p' | head -1)
  (cd "$T" && "$J/bin/java" -cp "$T/xf.jar" xf.XfCases >"$T/xf-plain$v.txt" 2>&1)
  (cd "$T" && "$J/bin/java" -Xverify:all @"$T/xfi/xf.jar.args" -cp "$T/xfi/xf.jar" \
     xf.XfCases >"$T/xf-inst$v.txt" 2>&1)
  check "JDK $v: fixtures verify and print the same" cmp "$T/xf-plain$v.txt" "$T/xf-inst$v.txt"
done

echo "-- method ids coloured for the slots"
(cd "$FIX" && jar cf "$T/hi.jar" hi)
mkdir -p "$T/hii"
expect_exit 0 "instrument the hierarchy fixtures" "$REWRITE" -q "$T/hi.jar" -o "$T/hii/hi.jar"
# the flags CoLib's <clinit> registers each of its methods with: bits 4-7
# are the colour + 1 (0: none)
"$JDK17/bin/javap" -c -p -cp "$T/hii/hi.jar" hi.CoLib >"$T/colib.txt" 2>&1
python3 - "$T/colib.txt" >"$T/colours.txt" <<'PY'
import re, sys
push = []
for line in open(sys.argv[1]):
    m = re.search(r'(ldc|iconst_|bipush|sipush)\S*\s*(#\d+)?\s*(-?\d+)?.*?(// String (\S+))?$', line)
    if 'invokestatic' in line and 'cccp/rt/CC.register' in line and len(push) >= 5:
        name, flags = push[-4], int(push[-1])
        print(name, flags >> 4)
        push = []
    elif m:
        if m.group(5): push.append(m.group(5))
        elif m.group(1) == 'iconst_': push.append(line.split('iconst_')[1].split()[0].replace('m1', '-1'))
        else: push.append(m.group(3))
PY
check "CoLib registers a..h with eight distinct colours" bash -c \
  "[ \"\$(grep -E '^[a-h] [1-8]\$' '$T/colours.txt' | cut -d' ' -f2 | sort -u | wc -l)\" = 8 ]"
expect_exit 0 "the analysis counts the colouring" "$REWRITE" --analyze "$T/hi.jar"
expect_match "method ids coloured: [0-9]+ methods or families, 2 of 2 bodies calling 2-8 of them with each in its own slot" \
  "both bodies with 2-8 callees (CoCaller.main, .loop) have each callee in its own slot" "$err"
check "methods no body calls with another have no colour" bash -c \
  "grep -qx 'alone 0' '$T/colours.txt' && grep -qx 'i 0' '$T/colours.txt'"
for J in "${JDKS[@]}"; do
  v=$("$J/bin/java" -version 2>&1 | sed -n 's/.*version "\([0-9]*\).*/\1/p' | head -1)
  a=$("$J/bin/java" -cp "$T/hi.jar" hi.CoCaller 2>&1)
  b=$(cd "$T/hii" && "$J/bin/java" -Xverify:all @"$T/hii/hi.jar.args" -Dcccp.out="$T/hii/co$v.xml" \
      -cp "$T/hii/hi.jar" hi.CoCaller 2>&1)
  [ "$a" = "$b" ] && pass "JDK $v: the coloured fixture prints the same ($b)" ||
    fail "JDK $v: the coloured fixture prints '$b', plain '$a'"
  for m in a b c d e f g h; do
    node_under "$T/hii/co$v.xml" 'hi/CoCaller\.loop' "hi/CoLib\.$m" 3 || { fail "JDK $v: CoLib.$m is not under loop with 3 calls"; continue 2; }
  done
  pass "JDK $v: each of the eight has its node under loop, 3 calls"
done

echo "-- rhino shell"
JS=/usr/share/java/js.jar
if [ -f "$JS" ]; then
  # Rhino finds its JavaScript-visible methods and constructors by
  # reflection (getMethods, getConstructors): the runtime's agent hides
  # the twins, so default options do
  expect_exit 0 "instrument js.jar (default options)" \
    "$REWRITE" -q "$JS" -o "$T/js/js.jar"
  SCRIPT='function f(n){return n<2?n:f(n-1)+f(n-2)}; print(1+1); print(f(15))'
  for J in "${JDKS[@]}"; do
    v=$("$J/bin/java" -version 2>&1 | sed -n 's/.*version "\([0-9]*\).*/\1/p' | head -1)
    a=$(cd "$T" && "$J/bin/java" -cp "$JS" org.mozilla.javascript.tools.shell.Main -e "$SCRIPT" 2>&1)
    b=$(cd "$T/js" && "$J/bin/java" -Xverify:all @"$T/js/js.jar.args" -cp "$T/js/js.jar" \
        org.mozilla.javascript.tools.shell.Main -e "$SCRIPT" 2>&1)
    [ "$a" = "$b" ] && pass "JDK $v: rhino prints the same ($(echo $b))" \
      || { fail "JDK $v: rhino output differs"; echo "$b" | head -5 | sed 's/^/       /'; }
    check "JDK $v: rhino profile has Main.main" top_level "$T/js/cccp-profile.xml" main \
      'org/mozilla/javascript/tools/shell/Main\.main'
  done
else
  echo "  skip rhino: no $JS"
fi

echo "-- a JDK summary gives the bytes of a whole-program run"
APP=/usr/share/java/commons-lang3.jar
if [ -f "$APP" ]; then
  mkdir -p "$T/sum/whole"
  expect_exit 0 "summary of the JDK 17 image (every class instrumented)" \
    "$REWRITE" -q --analyze --jdk "$JDK17" --emit-summary "$T/sum/jdk.sum"
  expect_exit 0 "whole program: the JDK image and commons-lang3 instrumented together" \
    "$REWRITE" -q --jdk "$JDK17" "$APP" -o "$T/sum/whole/"
  expect_exit 0 "commons-lang3 alone against the summary" \
    "$REWRITE" -q --summary "$T/sum/jdk.sum" "$APP" -o "$T/sum/app.jar"
  check "the two instrumented commons-lang3 jars are byte-identical" \
    cmp "$T/sum/whole/commons-lang3.jar" "$T/sum/app.jar"
  rm -rf "$T/sum"
else
  echo "  skip: no $APP"
fi

echo "-- real jars load and link (verify) after instrumentation"
JAVA17="$JDK17/bin/java"
mkdir -p "$T/lc"
"$JDK17/bin/javac" -d "$T/lc" "$ROOT/tests/verify/LinkCheck.java" \
  "$ROOT/tests/tools/SuidList.java" 2>/dev/null
# the dependencies some of the jars name in their manifests
DEPS=(/usr/share/java/xercesImpl.jar /usr/share/java/serializer.jar)
for name in commons-lang3 commons-cli commons-io js guava xalan2 serializer \
            xercesImpl antlr h2; do
  jar="/usr/share/java/$name.jar"
  [ -f "$jar" ] || { echo "  skip $name: not installed"; continue; }
  mkdir -p "$T/orig" "$T/inst"
  cp "$jar" "$T/orig/$name.jar"
  if ! "$REWRITE" -q "$T/orig/$name.jar" -o "$T/inst/$name.jar" 2>"$T/$name.err"; then
    fail "$name: instrumentation"; head -5 "$T/$name.err" | sed 's/^/       /'; continue
  fi
  "$JAVA17" -cp "$T/lc" LinkCheck jars "$T/$name.base" "$T/orig/$name.jar" >/dev/null 2>&1
  # (in $T: classes the link check initialises may write a profile)
  (cd "$T" && "$JAVA17" -Xbootclasspath/a:"$CCCP_RT" -cp "$T/lc" LinkCheck jars \
    "$T/$name.new" "$T/inst/$name.jar" >/dev/null 2>&1)
  if "$JAVA17" -cp "$T/lc" LinkCheck compare "$T/$name.base" "$T/$name.new" >"$T/$name.cmp" 2>&1; then
    pass "$name: $(grep '^compare:' "$T/$name.cmp" | sed 's/^compare: //')"
  else
    fail "$name: $(grep '^compare:' "$T/$name.cmp" | sed 's/^compare: //')"
    grep -v '^compare:' "$T/$name.cmp" | head -8 | cut -c1-300 | sed 's/^/       /'
  fi
  # serialization ids: the instrumented classes keep their default ones
  "$JAVA17" -cp "$T/lc" SuidList "$T/orig/$name.jar" "${DEPS[@]}" \
    >"$T/$name.suid0" 2>"$T/$name.nser"
  (cd "$T" && "$JAVA17" -Xbootclasspath/a:"$CCCP_RT" -cp "$T/lc" SuidList \
    "$T/inst/$name.jar" "${DEPS[@]}" >"$T/$name.suid1" 2>/dev/null)
  if cmp -s "$T/$name.suid0" "$T/$name.suid1"; then
    pass "$name: same serialVersionUIDs ($(sed 's/^serializable //' "$T/$name.nser"))"
  else
    fail "$name: serialVersionUIDs differ"
    diff "$T/$name.suid0" "$T/$name.suid1" | head -4 | sed 's/^/       /'
  fi
done

finish
