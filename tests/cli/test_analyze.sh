#!/usr/bin/env bash
# --analyze: hierarchy and overloadability analysis through the command
# line: report contents, summaries for incremental builds, policy files.
set -u
source "$(dirname "$0")/../lib.sh"

JDK17=${JDK17:-/usr/lib/jvm/java-17-openjdk-amd64}
BASE="$JDK17/jmods/java.base.jmod"
EX="$ROOT/$BUILD/examples/wordfreq.jar"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

if [ ! -f "$BASE" ]; then
  echo "  SKIP analyze suite: no $BASE"; finish; exit $?
fi

echo "-- report"
expect_exit 0 "analyze java.base" "$REWRITE" --analyze "$BASE" --report "$T/base.xml"
expect_match "non-overloadable [0-9]+" "summary counts on stderr" "$err"
attr() { # class method desc -> the <method .../> line
  awk -v c="<class name=\"$1\"" -v m="<method name=\"$2\" desc=\"$3\"" \
    'index($0, c) == 3 { inside = 1; next } /<\/class>/ { inside = 0 }
     inside && index($0, m) { print; exit }' "$T/base.xml"
}
check "java/lang/Object is kept as a library class (not in the report)" \
  test -z "$(attr java/lang/Object toString '()Ljava/lang/String;')"
expect_match 'overloadable="no".*reason="seed method-invoke' "Method.invoke is a non-overloadable seed" \
  "$(attr java/lang/reflect/Method invoke '(Ljava/lang/Object;[Ljava/lang/Object;)Ljava/lang/Object;')"
expect_match 'overloadable="yes" wrappable="yes"' "String.toString is overloadable" \
  "$(attr java/lang/String toString '()Ljava/lang/String;')"
expect_match 'overloadable="no".*rule 3' "Comparator.equals is non-overloadable by rule 3" \
  "$(attr java/util/Comparator equals '(Ljava/lang/Object;)Z')"
expect_match 'overloadable="yes" wrappable="no"' "Class.forName is caller-sensitive: non-wrappable" \
  "$(attr java/lang/Class forName '(Ljava/lang/String;)Ljava/lang/Class;')"
expect_match 'native="1" overloadable="no"' "MethodHandle.invokeExact is a non-overloadable native" \
  "$(attr java/lang/invoke/MethodHandle invokeExact '([Ljava/lang/Object;)Ljava/lang/Object;')"
expect_match 'overloadable="no"' "Method.invoke is non-overloadable" \
  "$(attr java/lang/reflect/Method invoke '(Ljava/lang/Object;[Ljava/lang/Object;)Ljava/lang/Object;')"
expect_match 'overloadable="yes" wrappable="yes"' "ArrayList.add is overloadable and wrappable" \
  "$(attr java/util/ArrayList add '(Ljava/lang/Object;)Z')"
check "report is well-formed XML" python3 -c "import xml.dom.minidom,sys; xml.dom.minidom.parse(sys.argv[1])" "$T/base.xml"

echo "-- summaries"
expect_exit 0 "whole-program analysis of java.base + app" "$REWRITE" -q --analyze "$BASE" "$EX" --report "$T/whole.xml"
expect_exit 0 "summary of java.base" "$REWRITE" -q --analyze "$BASE" --emit-summary "$T/base.sum"
expect_exit 0 "app against the summary" "$REWRITE" -q --analyze "$EX" --summary "$T/base.sum" --report "$T/incr.xml"
check "summary-based report equals the whole-program one" cmp "$T/whole.xml" "$T/incr.xml"
head -c 1000 "$T/base.sum" > "$T/trunc.sum"
expect_exit 1 "truncated summary is bad input" "$REWRITE" --analyze "$EX" --summary "$T/trunc.sum"
expect_match "trunc.sum" "message names the summary" "$err"

echo "-- library classes"
expect_exit 0 "app alone takes library classes from the JDK on PATH" "$REWRITE" -v --analyze "$EX"
expect_match "library classes from .*/lib/modules" "the JDK used is named with -v" "$err"
expect_match " 0 missing" "nothing missing with the default JDK" "$err"
expect_exit 0 "without any JDK, missing supertypes are warned about" \
  env -u JAVA_HOME PATH=/nonexistent "$REWRITE" --analyze "$EX"
expect_match "no JDK among the inputs" "no JDK found is reported" "$err"
expect_match "java/lang/Object not found" "missing class named" "$err"
expect_exit 0 "app with the JDK on the class path" "$REWRITE" --analyze "$EX" --classpath "$JDK17" --report "$T/app.xml"
expect_match " 0 missing" "nothing missing with --classpath" "$err"
check "only the app's classes are reported" bash -c "! grep -q 'class name=\"java/' '$T/app.xml'"

echo "-- policy"
expect_exit 0 "--print-policy" "$REWRITE" --print-policy
expect_match 'id="object-virtual"' "built-in entries are printed with ids" "$out"
cat > "$T/p.xml" <<'XML'
<policy><nonoverloadable class="wordfreq/*" name="add" desc="*"/></policy>
XML
expect_exit 0 "user policy adds an entry" "$REWRITE" -q --analyze "$EX" --classpath "$JDK17" --policy "$T/p.xml" --report "$T/pol.xml"
check "policy entry applied" grep -q 'name="add" desc="(Ljava/lang/String;)V" native="0" overloadable="no"' "$T/pol.xml"
echo '<policy><nonoverloadable class=' > "$T/bad.xml"
expect_exit 1 "malformed policy is bad input" "$REWRITE" --analyze "$EX" --policy "$T/bad.xml"
expect_match "bad.xml" "message names the policy file" "$err"
ids=$("$REWRITE" --print-policy | grep -o 'id="[a-z0-9-]*"' | cut -d'"' -f2 | sort -u)
undocumented=$(for i in $ids; do grep -q -- "$i" "$ROOT/man/cccp-rewrite.1" || echo "$i"; done)
[ -z "$undocumented" ] && pass "every built-in policy entry is explained in the man page" \
  || fail "policy entries missing from the man page: $undocumented"
echo "-- policy: JDK-mode entries"
expect_exit 0 "--print-policy" "$REWRITE" --print-policy
for k in redirect thread-entry upcall insert-call thread-field; do
  expect_match "<$k class=" "the built-in policy lists <$k> entries" "$out"
done
expect_match '<redirect class="java/lang/Class" from="jdk/internal/reflect/Reflection.filterMethods\(Ljava/lang/Class;\[Ljava/lang/reflect/Method;\)\[Ljava/lang/reflect/Method;" to="cccp/rt/Reflect.filterMethods\(' \
  "the reflection filter is printed as from/to members" "$out"
expect_match '<insert-call class="java/lang/System" name="initPhase3" desc="\(\)V" call="start" id="profiling-start" why="[^"]+"' \
  "an inserted call is printed with its reason" "$out"
cat > "$T/rm.xml" <<'XML'
<policy>
  <redirect class="java/lang/Class" remove="1"/>
  <upcall class="com/acme/*" remove="1"/>
</policy>
XML
expect_exit 0 "a user policy removes JDK-mode entries" "$REWRITE" --policy "$T/rm.xml" --print-policy
expect_match '<redirect class="java/lang/Class" from="\*\.\*" remove="1" id="user"/>' "the removal is printed" "$out"
printf '%s\n' "$out" > "$T/printed.xml"
expect_exit 0 "the printed policy reads back" "$REWRITE" --policy "$T/printed.xml" --print-policy
for bad in '<redirect from="a/B.c()V"/>' \
           '<redirect from="a/B.c()V" to="x/Y.z()I"/>' \
           '<thread-entry from="a/B.c()V"/>' \
           '<upcall class="a" native="1"/>' \
           '<insert-call class="a" name="b" desc="()V" call="stop"/>' \
           '<thread-field class="a*" name="b"/>'; do
  printf '<policy>\n%s\n</policy>\n' "$bad" > "$T/bad.xml"
  expect_exit 1 "malformed: $bad" "$REWRITE" --policy "$T/bad.xml" --print-policy
  expect_match "bad.xml:2: " "  the message names the file and line" "$err"
done
if [ -d "$JDK17/jmods" ] || [ -f "$JDK17/lib/modules" ]; then
  cat > "$T/to.xml" <<'XML'
<policy>
  <redirect class="java/lang/Thread" from="java/lang/Thread.getName()Ljava/lang/String;"
            to="cccp/rt/Frames.name(Ljava/lang/Thread;)Ljava/lang/String;"/>
</policy>
XML
  expect_exit 1 "a redirect to a missing method stops the JDK's rewrite" \
    "$REWRITE" -q --jdk "$JDK17" -o "$T/jdk-to" --policy "$T/to.xml"
  expect_match 'to.xml:3: <redirect> to cccp/rt/Frames.name\(Ljava/lang/Thread;\)Ljava/lang/String;: no such static method' \
    "  the message names the entry and the method" "$err"
  check "  nothing is written" test ! -e "$T/jdk-to"
  sed -i 's|cccp/rt/Frames.name|java/util/Objects.toString|; s|(Ljava/lang/Thread;)|(Ljava/lang/Object;)|' "$T/to.xml"
  expect_exit 0 "a redirect to a static method of the JDK passes the check" \
    "$REWRITE" -q --analyze --jdk "$JDK17" --policy "$T/to.xml"
fi
expect_exit 2 "--report without --analyze is a usage error" "$REWRITE" --identity "$EX" -o "$T/x.jar" --report "$T/r.xml"

finish
