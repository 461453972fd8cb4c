#!/usr/bin/env bash
# The build examples under examples/build, run as a user would, on copies
# in a temporary folder: the Makefile (a pattern rule per jar, make -j2;
# a second run does nothing; touching one source rewrites only what
# depends on it), the Ant build and the Maven build (offline, with
# Debian's exec-maven-plugin). Each instruments the project, runs it with
# the program's own output and prints the hottest calling contexts.
#
# Environment: CCCP_REWRITE, CCCP_REPORT, BUILD, JDK17.
set -u
source "$(dirname "$0")/../lib.sh"

export JAVA_HOME=$JDK17 PATH="$JDK17/bin:$PATH"
suite_tmp
cp -r "$ROOT/examples/build" "$T/build"
rm -rf "$T/build/make/out" "$T/build/ant/build" "$T/build/maven/target"
TOOLS_ARGS=(CCCP_REWRITE="$REWRITE" CCCP_REPORT="$REPORT")

# the program's output, uninstrumented
mkdir -p "$T/plain"
javac -nowarn -d "$T/plain" $(find "$T/build/project/src" -name '*.java')
java -cp "$T/plain" demo.Main > "$T/plain.txt"
check "the project runs uninstrumented ($(wc -l < "$T/plain.txt") lines)" test -s "$T/plain.txt"
# the instrumented program's own lines: what the report did not print
program_lines() { grep -v "profile.xml: \|^contexts by\|^ *self \|^ *[0-9]\+ \+[0-9.]\+% .* > \|^\.\.\. [0-9]* more\|^$" "$1"; }
hot='demo/Main.main\(\[Ljava/lang/String;\)V > stats/Sample.histogram\(I\)Lstats/Histogram; > stats/Histogram.add\(D\)V'

echo "-- Make"
M="$T/build/make"
# as a user runs it: not as a sub-make of the suite's own make
mk() { env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make --no-print-directory -C "$M" "${TOOLS_ARGS[@]}" "$@"; }
expect_exit 0 "make -j2 instrument" mk -j2 instrument
check "... wrote both instrumented jars and their summaries" \
  test -s "$M/out/inst/demo.jar" -a -s "$M/out/inst/stats.jar" -a -s "$M/out/inst/stats.summary"
rewritten() { printf '%s\n' "$out" | grep -o -- '-o [^ ]*/inst/[a-z]*\.jar' | sed 's|.*/||' | sort | tr '\n' ' '; }
check "... rewrote each jar once ($(rewritten))" test "$(rewritten)" = "demo.jar stats.jar "
expect_exit 0 "make -j2 instrument again" mk -j2 instrument
check "... does nothing" bash -c "! printf '%s' \"\$1\" | grep -q 'cccp-rewrite\|javac'" _ "$out"
check "make -q instrument: up to date" mk -q instrument
st=$(stat -c %Y "$M/out/inst/stats.jar")
sleep 1; touch "$M/../project/src/demo/Main.java"
expect_exit 0 "after touching demo/Main.java" mk -j2 instrument
check "... only demo.jar is rewritten ($(rewritten))" test "$(rewritten)" = "demo.jar "
check "... stats.jar's instrumented copy is untouched" test "$(stat -c %Y "$M/out/inst/stats.jar")" = "$st"
sleep 1; touch "$M/../project/src/stats/Histogram.java"
expect_exit 0 "after touching stats/Histogram.java" mk -j2 instrument
check "... stats.jar is rewritten, and demo.jar, compiled against it ($(rewritten))" \
  test "$(rewritten)" = "demo.jar stats.jar "
expect_exit 0 "make -s run" mk -s run
printf '%s\n' "$out" > "$T/make-run.txt"
check "... prints what the program prints" diff <(program_lines "$T/make-run.txt") "$T/plain.txt"
expect_match "$hot" "... and the hottest contexts, the library's methods under the program's" "$out"

echo "-- Ant"
if command -v ant >/dev/null; then
  A="$T/build/ant"
  an() { (cd "$A" && ant -Dcccp.rewrite="$REWRITE" -Dcccp.report="$REPORT" "$@"); }
  expect_exit 0 "ant (compile, jar, instrument, run, report)" an
  printf '%s\n' "$out" | sed -n 's/^ *\[exec\] //p' > "$T/ant-run.txt"
  check "... prints what the program prints" diff <(program_lines "$T/ant-run.txt") "$T/plain.txt"
  expect_match "$hot" "... and the hottest contexts" "$out"
  ai=$(stat -c %Y "$A/build/inst/demo.jar")
  sleep 1
  expect_exit 0 "ant instrument again" an instrument
  check "... does not rewrite the unchanged jar" test "$(stat -c %Y "$A/build/inst/demo.jar")" = "$ai"
else
  echo "  skip Ant example: no ant (apt-get install ant)"
fi

echo "-- Maven"
if command -v mvn >/dev/null && [ -d /usr/share/maven-repo/org/codehaus/mojo/exec-maven-plugin/3.1.0 ]; then
  V="$T/build/maven"
  expect_exit 0 "mvn verify, offline with Debian's exec-maven-plugin" \
    bash -c "cd '$V' && mvn -B -q -Dstyle.color=never -s settings.xml -Dmaven.repo.local=target/m2 \
      -Dcccp.rewrite='$REWRITE' -Dcccp.report='$REPORT' verify"
  printf '%s\n' "$out" | sed 's/\x1b\[[0-9;]*m//g' > "$T/mvn-run.txt"
  check "... prints what the program prints" diff <(program_lines "$T/mvn-run.txt") "$T/plain.txt"
  expect_match "$hot" "... and the hottest contexts" "$out"
  check "... the instrumented jar in target/inst" test -s "$V/target/inst/demo.jar"
else
  echo "  skip Maven example: no mvn or no Debian exec-maven-plugin 3.1.0 (apt-get install maven libexec-maven-plugin-java)"
fi

finish
