#!/usr/bin/env bash
# The load-time rewriter (the default of app-mode rewrites; the native
# agent instruments, as they load, the classes that were not rewritten).
# Checked on JDK 17 and 25 (where installed), in app mode:
# - classes a program defines at run time from bytes (lt.Define): a small
#   one and a subclass of a rewritten class are nodes with their exact
#   call counts (also through a JDK interface: one node, not the
#   library call's and the method's own); one whose method would pass
#   64 KiB once instrumented runs as it is, with one warning; bytes that are no class file fail
#   as plainly (ClassFormatError), the JVM unharmed; every output line
#   as plainly; -Dcccp.load=off leaves them all as they are;
# - hostile bytes at the agent's entry point: mutants of lt.Small
#   (tests/tools/mutate-class.py: the code as the verifier refuses it,
#   and 1,500 seeded random ones), each defined at run time:
#   every one ends as in the plain run (loads and returns the same, or
#   fails with the same error: a StackMapTable, max_stack or max_locals
#   the JVM refuses is not turned into one it takes), the JVM unharmed,
#   stderr only the agent's "left uninstrumented" lines;
# - a class of a folder the rewrite did not see (lt.Late), made by
#   rewritten code right after a call into the JDK: the static
#   initializer of its rewritten superclass is a node under the caller,
#   not under the JDK method, and its constructor one node (with and
#   without the agent's rewriting);
# - scripts compiled to classes at run time: a Groovy script's fib, a
#   Clojure fn fib, a Jython function fib and a JavaScript function fib
#   compiled by Rhino (Debian's groovy, clojure, jython and rhino, their
#   jars rewritten) are nodes with the calls the
#   program makes (2 fib(21) - 1 = 21891 for fib(20)), the output as
#   plainly; with --no-load-time Clojure's is not in the profile.
# Environment: CCCP_REWRITE, CCCP_REPORT, BUILD, JDK17, JDK25.
set -u
source "$(dirname "$0")/../lib.sh"

suite_tmp
use_jdks
use_report
P=$ROOT/tests/programs/loadtime

check "compile the programs" "$JDK17/bin/javac" -d "$T/cls" -sourcepath "$P/late" \
  "$P"/lt/*.java
# lt.Late is not in the jar: a folder of its own, never rewritten
mkdir -p "$T/late/lt" && mv "$T/cls/lt/Late.class" "$T/late/lt/"
check "compile the classes they define" "$JDK17/bin/javac" -cp "$T/cls" \
  -d "$T/def" "$P"/defined/lt/*.java
# a method whose instrumented code would pass 64 KiB: 10,000 calls
python3 - "$T/big/lt/Huge.java" <<'PY'
import os, sys
os.makedirs(os.path.dirname(sys.argv[1]), exist_ok=True)
with open(sys.argv[1], "w") as f:
    f.write("package lt; public class Huge { static int f(int x) "
            "{ return x * 31 + 7; } public static int run() { int x = 1;\n")
    f.write("x = f(x);\n" * 10000)
    f.write("return x; } }\n")
PY
check "compile a class too large to instrument" "$JDK17/bin/javac" \
  -d "$T/def" "$T/big/lt/Huge.java"
printf 'not a class file' >"$T/def/Bad.class"
(cd "$T/cls" && "$JDK17/bin/jar" cf "$T/lt.jar" lt)
check "compile the platform-loader program" "$JDK17/bin/javac" \
  -d "$T/pcls" "$P"/plat/lt/Platform.java
(cd "$T/pcls" && "$JDK17/bin/jar" cf "$T/plat.jar" lt)
expect_exit 0 "rewrite it (default options)" "$REWRITE" -q "$T/plat.jar" -o "$T/plat/"
expect_exit 0 "rewrite the program (default options)" \
  "$REWRITE" -q "$T/lt.jar" -o "$T/app/"
check "its options give the agent the rewrite's hierarchy" \
  grep -q "^-agentpath:.*libcccp-agent.so=boot,app=$T/app/cccp.summary\$" "$T/app/cccp.args"
check "... without the JDK's classes (the agent reads the JVM's own)" \
  test "$(stat -c %s "$T/app/cccp.summary")" -lt 100000
DEF=(lt.Small "$T/def/lt/Small.class" lt.Sub "$T/def/lt/Sub.class"
     lt.Huge "$T/def/lt/Huge.class" lt.Bad "$T/def/Bad.class")

groovy_cp=$(for j in /usr/share/groovy/lib/*.jar; do [ -e "$j" ] && echo "$j"; done)
clojure_cp="/usr/share/java/clojure-1.11.jar /usr/share/java/spec.alpha.jar
  /usr/share/java/core.specs.alpha.jar"
fib_scripts "$T"
# shellcheck disable=SC2086
expect_exit 0 "rewrite Groovy's jars (default options)" \
  "$REWRITE" -q $groovy_cp -o "$T/groovy/"
# shellcheck disable=SC2086
expect_exit 0 "rewrite Clojure's jars (default options)" \
  "$REWRITE" -q $clojure_cp -o "$T/clojure/"
expect_exit 0 "rewrite Jython's jar (default options)" \
  "$REWRITE" -q /usr/share/java/jython.jar -o "$T/jython/"
expect_exit 0 "rewrite Rhino's jar (default options)" \
  "$REWRITE" -q /usr/share/java/js.jar -o "$T/rhino/"
# shellcheck disable=SC2086
expect_exit 0 "rewrite Clojure's jars with --no-load-time" \
  "$REWRITE" -q --no-load-time $clojure_cp -o "$T/clojure-aot/"
# cp DIR JARS...: the rewritten copies of JARS in DIR, as a class path
cp_of() {
  local dir=$1 j out=""
  shift
  for j in "$@"; do out="$out${out:+:}$dir/${j##*/}"; done
  echo "$out"
}

for J in "${JDKS[@]}"; do
  v=$(jdk_version "$J")
  echo "-- JDK $v"
  "$J/bin/java" -cp "$T/lt.jar" lt.Define "${DEF[@]}" >"$T/d$v.plain" 2>&1
  "$J/bin/java" @"$T/app/cccp.args" -cp "$T/app/lt.jar" \
    -Dcccp.out="$T/d$v.xml" lt.Define "${DEF[@]}" >"$T/d$v.out" 2>"$T/d$v.err"
  check "JDK $v: classes defined at run time print as plainly" \
    cmp "$T/d$v.plain" "$T/d$v.out"
  check "JDK $v: ... (bytes that are no class fail alike)" \
    grep -qx 'lt.Bad java.lang.ClassFormatError' "$T/d$v.out"
  check "JDK $v: a class defined at run time is a node, its calls exact" \
    test "$(method_calls "$T/d$v.xml" 'lt/Small.g(I)I')" = 100
  check "JDK $v: ... called through a JDK interface, one node: 30 calls" \
    bash -c "[ \$('$REPORT' folded '$T/d$v.xml' |
      awk '/lt\/Small.run;lt\/Small.applyAsInt [0-9]+\$/ { s += \$NF } END { print s + 0 }') = 30 ] &&
      ! '$REPORT' folded '$T/d$v.xml' | grep -q 'applyAsInt;lt/Small.applyAsInt'"
  check "JDK $v: ... and so is a subclass of a rewritten class" \
    test "$(method_calls "$T/d$v.xml" 'lt/Sub.step(I)I')" = 50
  check "JDK $v: a class too large to instrument runs as it is, with one warning" \
    bash -c "[ \$(wc -l <'$T/d$v.err') = 1 ] &&
      grep -q '^cccp: lt/Huge: .*run()I left uninstrumented' '$T/d$v.err'"
  # (no-cache: the agent reads the JVM's image, there being no entry for
  # it in the rewriter's cache of the JDK's classes)
  mkdir -p "$T/nocache"
  for how in load-time no-cache off; do
    XDG_CACHE_HOME=$([ $how = no-cache ] && echo "$T/nocache" || echo "$XDG_CACHE_HOME") \
    "$J/bin/java" @"$T/app/cccp.args" -Dcccp.load=$([ $how = off ] && echo off || echo on) \
      -cp "$T/app/lt.jar:$T/late" -Dcccp.out="$T/m$v$how.xml" lt.Maker >"$T/m$v$how.out" 2>&1
    check "JDK $v, $how: a class the rewrite did not know, made after a JDK call: its superclass's initializer under the caller" \
      bash -c "grep -qx 'made 3314349' '$T/m$v$how.out' &&
        '$REPORT' folded '$T/m$v$how.xml' | grep -q '^\[main\];lt/Maker.main;lt/Init.<clinit>;lt/Init.setup 1\$' &&
        ! '$REPORT' folded '$T/m$v$how.xml' | grep -q 'hashCode;lt/Init'"
    check "JDK $v, $how: ... and its constructor one node, whether or not instrumented as it loaded" \
      bash -c "'$REPORT' folded '$T/m$v$how.xml' | grep -q '^\[main\];lt/Maker.main;lt/Late.<init>;lt/Init.<init> 1\$' &&
        ! '$REPORT' folded '$T/m$v$how.xml' | grep -q 'Late.<init>;lt/Late.<init>'"
  done
  # hostile bytes: mutants of lt.Small (the targeted ones and 500 random
  # ones a seed), each defined at run time
  for seed in 1 2 3; do
    python3 "$ROOT/tests/tools/mutate-class.py" "$T/def/lt/Small.class" \
      "$T/mut$seed" $seed 500 lt.Small >"$T/mut$seed.args"
    timeout 300 "$J/bin/java" -cp "$T/lt.jar" lt.Define @"$T/mut$seed.args" \
      >"$T/mut$seed-$v.plain" 2>&1
    timeout 300 "$J/bin/java" @"$T/app/cccp.args" -cp "$T/app/lt.jar" \
      -Dcccp.out="$T/mut$seed-$v.xml" lt.Define @"$T/mut$seed.args" \
      >"$T/mut$seed-$v.out" 2>"$T/mut$seed-$v.err"
    check "JDK $v: $(($(wc -l <"$T/mut$seed.args") / 2)) mutants of a class (seed $seed), each defined at run time: each ends as plainly" \
      bash -c "cmp '$T/mut$seed-$v.plain' '$T/mut$seed-$v.out' &&
        [ \$((\$(wc -l <'$T/mut$seed.args') / 2)) = \$(wc -l <'$T/mut$seed-$v.out') ] &&
        ! grep -qv '^cccp: lt/Small: .* left uninstrumented: ' '$T/mut$seed-$v.err'"
  done
  "$J/bin/java" @"$T/app/cccp.args" -Dcccp.load=off -cp "$T/app/lt.jar" \
    -Dcccp.out="$T/off$v.xml" lt.Define "${DEF[@]}" >"$T/off$v.out" 2>&1
  check "JDK $v: -Dcccp.load=off: as plainly, the classes as they are" \
    bash -c "cmp -s '$T/d$v.plain' '$T/off$v.out' &&
      [ \$(grep -c 'lt/Small' '$T/off$v.xml') = 0 ]"

  # shellcheck disable=SC2086
  gcp=$(cp_of "$T/groovy" $groovy_cp)
  # shellcheck disable=SC2086
  ccp=$(cp_of "$T/clojure" $clojure_cp)
  # shellcheck disable=SC2086
  check_fib "$J" "JDK $v: Groovy" "$T/g$v" "$T/groovy/cccp.args" \
    "$(echo $groovy_cp | tr ' ' :)" "$gcp" groovy groovy.ui.GroovyMain "$T/fib.groovy"
  # shellcheck disable=SC2086
  check_fib "$J" "JDK $v: Clojure" "$T/c$v" "$T/clojure/cccp.args" \
    "$(echo $clojure_cp | tr ' ' :)" "$ccp" clojure clojure.main "$T/fib.clj"
  check_fib "$J" "JDK $v: Jython" "$T/y$v" "$T/jython/cccp.args" \
    /usr/share/java/jython.jar "$T/jython/jython.jar" jython \
    org.python.util.jython "$T/fib.py"
  check_fib "$J" "JDK $v: Rhino (compiled)" "$T/r$v" "$T/rhino/cccp.args" \
    /usr/share/java/js.jar "$T/rhino/js.jar" rhino \
    org.mozilla.javascript.tools.shell.Main -opt 9 "$T/fib.js"
  # shellcheck disable=SC2086
  "$J/bin/java" @"$T/clojure-aot/cccp.args" \
    -cp "$(cp_of "$T/clojure-aot" $clojure_cp)" -Dcccp.out="$T/a$v.xml" \
    clojure.main "$T/fib.clj" >/dev/null 2>&1
  check "JDK $v: Clojure with --no-load-time: fib is not in the profile" \
    test "$(method_calls "$T/a$v.xml" 'user$fib.invoke(Ljava/lang/Object;)Ljava/lang/Object;')" = 0
  # the platform loader's classes (javax.script, java.sql) are the JDK's:
  # the agent does not read the JDK's classes to learn it
  (cd "$T" && CCCP_LOAD_DEBUG=1 "$J/bin/java" @"$T/plat/cccp.args" \
     -Dcccp.out="$T/plat$v.xml" -cp "$T/plat/plat.jar" lt.Platform \
     >"$T/plat$v.out" 2>"$T/plat$v.err")
  check "JDK $v: a program of platform-loader classes runs" \
    grep -q '^engines ' "$T/plat$v.out"
  check "JDK $v: ... and the agent makes no hierarchy for their classes" \
    bash -c "! grep -q 'read in' '$T/plat$v.err'"
done

finish
