#!/usr/bin/env bash
# Agent only (cccp-rewrite --agent -o DIR): no jar rewritten, every class
# of the program instrumented by the native agent as it loads.
# - the command: the files it writes; inputs or no -o are usage errors;
# - on JDK 17 and 25 (where installed), the test programs
#   (tests/programs/prog), run from their plain jar: output as plainly,
#   the calling contexts their hand-written expectations give, and the
#   profile of the ahead-of-time rewrite (overlap >= 99.9%); on JDK 17,
#   every class the agent instrumented is byte-identical to the rewrite's;
# - scripts: a Groovy script's fib, a Clojure fn fib and a JavaScript
#   function fib compiled by Rhino (-opt 9) are nodes with their 21891
#   calls, from Debian's plain jars, the output as plainly;
# - JDK mode (--agent --summary of an instrumented JDK): the options are
#   the JDK's with the agent given its file; test programs print as
#   plainly, with their expected contexts, every class byte-identical to
#   the rewrite against the JDK's summary; a program rewritten against
#   it with default options rewrites its classes made at run time as
#   they load (lt.Define, lt.Maker of tests/programs/loadtime);
# - a class path with entries that do not exist (the JVM skips them);
#   -Dcccp.load=off: no class instrumented; an agent file naming no
#   rewriter: one line saying the classes are not instrumented, and the
#   program runs as plainly.
# Environment: CCCP_REWRITE, CCCP_REPORT, BUILD, JDK17, JDK25.
set -u
source "$(dirname "$0")/../lib.sh"

suite_tmp
use_jdks
use_report
PROGS="$ROOT/tests/programs/prog"

expect_exit 0 "--agent -o DIR writes the options" "$REWRITE" -q --agent -o "$T/A"
check "... the runtime, the agent, the options and the agent file" \
  test -s "$T/A/cccp-rt.jar" -a -s "$T/A/libcccp-agent.so" -a \
       -s "$T/A/cccp.args" -a -s "$T/A/cccp.agent"
check "... the options load the agent with its file" \
  grep -qx -- "-agentpath:$T/A/libcccp-agent.so=boot,agent=$T/A/cccp.agent" "$T/A/cccp.args"
check "... the file names this rewriter" \
  bash -c "[ \"\$(sed -n 2p '$T/A/cccp.agent')\" = \"\$(realpath '$REWRITE')\" ]"
check "compile the test programs" "$JDK17/bin/javac" -d "$T/cls" "$PROGS"/*.java
(cd "$T/cls" && "$JDK17/bin/jar" cf "$T/prog.jar" prog)
expect_exit 2 "--agent with an input is a usage error" \
  "$REWRITE" --agent "$T/prog.jar" -o "$T/B"
expect_exit 2 "--agent without -o is a usage error" "$REWRITE" --agent
expect_exit 2 "--whole-summary without --analyze is a usage error" \
  "$REWRITE" --whole-summary - "$T/prog.jar" -o "$T/C.jar"
mkdir -p "$T/aot"
JAVA_HOME=$JDK17 expect_exit 0 "rewrite the test programs ahead of time (JDK 17)" \
  "$REWRITE" -q "$T/prog.jar" -o "$T/aot/prog.jar"
(mkdir -p "$T/aotcls" && cd "$T/aotcls" && unzip -q "$T/aot/prog.jar")

for J in "${JDKS[@]}"; do
  v=$(jdk_version "$J")
  echo "-- JDK $v"
  for e in "$PROGS"/*.expect; do
    p=$(basename "$e" .expect)
    want=$(sed -n 's/^# stdout: //p' "$e")
    rm -rf "$T/dump"
    got=$(CCCP_LOAD_DUMP="$T/dump" "$J/bin/java" -Xverify:all @"$T/A/cccp.args" \
          -Dcccp.out="$T/$p-$v.xml" -cp "$T/prog.jar" "prog.$p" 2>"$T/err" |
          tr '\n' ' ' | sed 's/ $//')
    if [ "$got" = "$want" ] && [ ! -s "$T/err" ]; then
      pass "$p agent only prints '$want' (JDK $v)"
    else
      fail "$p agent only on JDK $v: '$got' (want '$want')"
      sed 's/^/       /' "$T/err" | head -5
    fi
    check "$p: the calling contexts of the expectations (JDK $v)" \
      bash -c "'$REPORT' compare --app-prefix prog/ --collapse-generated \
        --expect '$e' '$T/$p-$v.xml' | grep -q '^ok:'"
    (cd "$T/aot" && "$J/bin/java" @"$T/aot/prog.jar.args" \
      -Dcccp.out="$T/$p-$v-aot.xml" -cp "$T/aot/prog.jar" "prog.$p" \
      >/dev/null 2>&1)
    check "$p: the profile of the rewrite ahead of time (JDK $v)" \
      "$REPORT" compare --min-overlap 99.9 "$T/$p-$v-aot.xml" "$T/$p-$v.xml"
    if [ "$v" = 17 ]; then
      check "$p: each class as the rewrite writes it (JDK 17)" bash -c "
        cd '$T/dump' && n=0 && for f in \$(find . -name '*.class'); do
          cmp '$T/aotcls/'\$f \$f || exit 1; n=\$((n + 1)); done; [ \$n -gt 0 ]"
    fi
  done

  groovy_cp=$(for j in /usr/share/groovy/lib/*.jar; do [ -e "$j" ] && echo "$j"; done | paste -sd:)
  clojure_cp=/usr/share/java/clojure-1.11.jar:/usr/share/java/spec.alpha.jar:/usr/share/java/core.specs.alpha.jar
  fib_scripts "$T"
  check_fib "$J" "JDK $v: Groovy" "$T/g$v" "$T/A/cccp.args" "$groovy_cp" \
    "$groovy_cp" groovy groovy.ui.GroovyMain "$T/fib.groovy"
  check "JDK $v: Groovy: its own classes are nodes" \
    bash -c "[ \$('$REPORT' top --merge-threads --methods -n 0 '$T/g$v.xml' |
      grep -c ' groovy/lang/') -gt 100 ]"
  check_fib "$J" "JDK $v: Clojure" "$T/c$v" "$T/A/cccp.args" "$clojure_cp" \
    "$clojure_cp" clojure clojure.main "$T/fib.clj"
  check_fib "$J" "JDK $v: Rhino (compiled)" "$T/r$v" "$T/A/cccp.args" \
    /usr/share/java/js.jar /usr/share/java/js.jar rhino \
    org.mozilla.javascript.tools.shell.Main -opt 9 "$T/fib.js"
  got=$("$J/bin/java" @"$T/A/cccp.args" -Dcccp.out="$T/cp$v.xml" \
        -cp "$T/nothing.jar::$T/prog.jar:$T/none" prog.Calls 2>"$T/err")
  check "JDK $v: class path entries that do not exist are skipped" \
    bash -c "[ '$got' = 204 ] && [ ! -s '$T/err' ] &&
      [ \$(grep -c 'prog/Calls' '$T/cp$v.xml') -gt 0 ]"
  got=$("$J/bin/java" @"$T/A/cccp.args" -Dcccp.load=off -Dcccp.out="$T/off$v.xml" \
        -cp "$T/prog.jar" prog.Calls 2>"$T/err")
  check "JDK $v: -Dcccp.load=off: no class instrumented (and no profile)" \
    bash -c "[ '$got' = 204 ] && [ ! -s '$T/err' ] && [ ! -e '$T/off$v.xml' ]"
done

# JDK mode: the instrumented JDK's summary given to --agent; and the
# default of a rewrite against it, which rewrites at load time too
LT="$ROOT/tests/programs/loadtime"
check "compile the load-time programs" "$JDK17/bin/javac" -d "$T/ltc" \
  -sourcepath "$LT/late" "$LT"/lt/*.java
mkdir -p "$T/late/lt" && mv "$T/ltc/lt/Late.class" "$T/late/lt/"
check "compile the class they define" "$JDK17/bin/javac" -cp "$T/ltc" \
  -d "$T/ltdef" "$LT"/defined/lt/Small.java
(cd "$T/ltc" && "$JDK17/bin/jar" cf "$T/lt.jar" lt)
for J in "${JDKS[@]}"; do
  v=$(jdk_version "$J")
  echo "-- JDK $v, JDK mode"
  expect_exit 0 "JDK $v: instrument the JDK" "$REWRITE" -q --jdk "$J" -o "$T/jdk$v"
  expect_exit 0 "JDK $v: --agent with the instrumented JDK's summary" \
    "$REWRITE" -q --agent --summary "$T/jdk$v/jdk.summary" -o "$T/AJ$v"
  check "JDK $v: ... its options are the JDK's, the agent given its file" \
    bash -c "grep -qx -- '-agentpath:$T/jdk$v/libcccp-agent.so=agent=$T/AJ$v/cccp.agent' '$T/AJ$v/cccp.args' &&
      [ \$(grep -c -- '--patch-module' '$T/AJ$v/cccp.args') = \$(grep -c -- '--patch-module' '$T/jdk$v/cccp.args') ]"
  expect_exit 0 "JDK $v: rewrite the test programs against it" \
    "$REWRITE" -q --summary "$T/jdk$v/jdk.summary" "$T/prog.jar" -o "$T/aj$v/"
  rm -rf "$T/ajcls$v" && mkdir -p "$T/ajcls$v" && (cd "$T/ajcls$v" && unzip -q "$T/aj$v/prog.jar")
  for p in Calls Callback Lambdas Reflect Threads; do
    e="$PROGS/$p.expect"
    want=$(sed -n 's/^# stdout: //p' "$e")
    rm -rf "$T/dump"
    got=$(CCCP_LOAD_DUMP="$T/dump" "$J/bin/java" @"$T/AJ$v/cccp.args" \
          -Dcccp.out="$T/j$p-$v.xml" -cp "$T/prog.jar" "prog.$p" 2>"$T/err" |
          tr '\n' ' ' | sed 's/ $//')
    check "JDK $v, JDK mode: $p agent only prints '$want', its calling contexts expected" \
      bash -c "[ '$got' = '$want' ] && [ ! -s '$T/err' ] &&
        '$REPORT' compare --app-prefix prog/ --collapse-generated \
          --expect '$e' '$T/j$p-$v.xml' | grep -q '^ok:'"
    check "JDK $v, JDK mode: $p: each class as the rewrite against the JDK's summary writes it" \
      bash -c "cd '$T/dump' && n=0 && for f in \$(find . -name '*.class'); do
        cmp '$T/ajcls$v/'\$f \$f || exit 1; n=\$((n + 1)); done; [ \$n -gt 0 ]"
  done
  expect_exit 0 "JDK $v, JDK mode: rewrite a program against the JDK's summary (default options)" \
    "$REWRITE" -q --summary "$T/jdk$v/jdk.summary" "$T/lt.jar" -o "$T/ltj$v/"
  check "JDK $v, JDK mode: ... its options give the JDK's agent its classes" \
    grep -qx -- "-agentpath:$T/jdk$v/libcccp-agent.so=japp=$T/ltj$v/cccp.summary" "$T/ltj$v/cccp.args"
  "$J/bin/java" @"$T/ltj$v/cccp.args" -cp "$T/ltj$v/lt.jar" -Dcccp.out="$T/ltd$v.xml" \
    lt.Define lt.Small "$T/ltdef/lt/Small.class" >"$T/ltd$v.out" 2>&1
  check "JDK $v, JDK mode: a class defined at run time is rewritten as it loads, its calls exact" \
    bash -c "grep -qx 'lt.Small 328815' '$T/ltd$v.out' &&
      [ \$('$REPORT' top --merge-threads --methods -n 0 '$T/ltd$v.xml' |
           awk '\$NF == \"lt/Small.g(I)I\" { print \$1 }') = 100 ]"
  "$J/bin/java" @"$T/ltj$v/cccp.args" -cp "$T/ltj$v/lt.jar:$T/late" \
    -Dcccp.out="$T/ltm$v.xml" lt.Maker >"$T/ltm$v.out" 2>&1
  check "JDK $v, JDK mode: a class the rewrite did not know: initializer and constructor under the caller, once" \
    bash -c "grep -qx 'made 3314349' '$T/ltm$v.out' &&
      '$REPORT' folded '$T/ltm$v.xml' | grep -q '^\[main\];lt/Maker.main;lt/Init.<clinit>;lt/Init.setup 1\$' &&
      '$REPORT' folded '$T/ltm$v.xml' | grep -q '^\[main\];lt/Maker.main;lt/Late.<init>;lt/Init.<init> 1\$' &&
      ! '$REPORT' folded '$T/ltm$v.xml' | grep -q 'Late.<init>;lt/Late.<init>'"
done

mkdir -p "$T/broken"
cp "$T/A/"* "$T/broken/"
sed "s|$T/A/|$T/broken/|g" "$T/A/cccp.args" >"$T/broken/cccp.args"
printf 'cccp-agent 1\n%s/no-such-rewriter\n' "$T" >"$T/broken/cccp.agent"
got=$("$JDK17/bin/java" @"$T/broken/cccp.args" -Dcccp.out="$T/broken.xml" \
      -cp "$T/prog.jar" prog.Calls 2>"$T/err")
check "an agent file naming no rewriter: the program runs as plainly" \
  test "$got" = 204
check "... with one line saying the classes are not instrumented" \
  bash -c "[ \$(wc -l <'$T/err') = 1 ] &&
    grep -q '^cccp: classes are not instrumented: .*no-such-rewriter' '$T/err'"

finish
