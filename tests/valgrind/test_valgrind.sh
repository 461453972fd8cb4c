#!/usr/bin/env bash
# valgrind memcheck on representative runs of cccp-rewrite (make valgrind):
# instrumenting the example application against the JDK image, re-encoding
# and instrumenting a real jar with two worker threads, the analysis with
# a policy file, a report and a summary, stress probes, a bad class and a
# bad policy; and every command of cccp-report on small profiles. Any
# memcheck error or a leak (definite or indirect) fails the run. Takes
# about a minute.
#
# Environment: CCCP_REWRITE, BUILD, JDK17.
set -u
source "$(dirname "$0")/../lib.sh"

JDK17=${JDK17:-/usr/lib/jvm/java-17-openjdk-amd64}
export CCCP_RT=${CCCP_RT:-$ROOT/$BUILD/cccp-rt.jar}
EX="$ROOT/$BUILD/examples/wordfreq.jar"
JAR=/usr/share/java/commons-lang3.jar
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
command -v valgrind >/dev/null || { echo "  skip: valgrind is not installed"; finish; exit; }
[ -f "$JAR" ] || JAR=$EX

VG=(valgrind --error-exitcode=99 --leak-check=full
    --errors-for-leak-kinds=definite,indirect --show-leak-kinds=definite,indirect
    --track-fds=no --quiet)

# vg NAME ARGS...: cccp-rewrite ARGS under memcheck, clean or failed.
# PROG names another program (cccp-report).
PROG=$REWRITE
vg() {
  local name=$1; shift
  local t0=$SECONDS st=0
  "${VG[@]}" --log-file="$T/$name.vg" "$PROG" "$@" >"$T/$name.out" 2>&1 || st=$?
  if [ $st = 99 ] || [ -s "$T/$name.vg" ]; then
    fail "$name: memcheck errors or leaks"; head -30 "$T/$name.vg" | sed 's/^/       /'
  elif [ $st -gt 3 ]; then
    fail "$name: exit $st"; tail -3 "$T/$name.out" | sed 's/^/       /'
  else
    pass "$name: memcheck clean (exit $st, $((SECONDS - t0))s)"
  fi
}

vg instrument-example -q "$EX" -o "$T/ex.jar"
vg reencode-j2 -q -j 2 --reencode --classpath "$JDK17/jmods/java.base.jmod" \
  "$JAR" -o "$T/re.jar"
vg instrument-j2 -q -j 2 --classpath "$JDK17/jmods/java.base.jmod" \
  "$JAR" -o "$T/in.jar"
vg analyze -q --analyze --classpath "$JDK17/jmods/java.base.jmod" "$JAR" \
  --policy "$ROOT/tests/data/policy-example.xml" \
  --report "$T/r.xml" --emit-summary "$T/s.sum"
vg summary -q --summary "$T/s.sum" "$EX" -o "$T/ex2.jar"
vg stress-probes -q --stress-probes --summary "$T/s.sum" "$EX" -o "$T/ex3.jar"
printf 'not a class' >"$T/bad.class"
vg bad-input -q --identity "$T/bad.class" -o "$T/bad-out.class"
printf '<policy><nonwrappable name="x"/><oops/></policy>' >"$T/bad.xml"
vg bad-policy -q --policy "$T/bad.xml" --analyze "$EX"

# cccp-report on the report suite's hand-made profiles: every command,
# and a truncated profile.
PROG=$REPORT
P=$ROOT/tests/report/data
vg report-top top "$P/small.xml" "$P/small-b.xml"
vg report-tree tree --merge-threads -m cycles --min 5% --color=always "$P/small.xml"
vg report-folded folded "$P/small.xml" -o "$T/f.txt"
vg report-callgrind callgrind "$P/small.xml" -o "$T/cg.out"
vg report-pprof pprof "$P/small.xml" -o "$T/p.pb.gz"
vg report-flame flame "$P/small.xml" -o "$T/f.html"
vg report-stats stats "$P/small.xml"
vg report-merge merge "$P/small.xml" "$P/small-b.xml" -o "$T/m.xml"
vg report-compare compare --app-prefix app/ --hide-vm-upcalls "$P/small.xml" "$P/small-b.xml"
vg report-expect compare --app-prefix app/ --expect "$P/small-b.expect" "$P/small-b.xml"
vg report-diff diff --flame "$P/small.xml" "$P/small-b.xml" -o "$T/d.html"
head -c 700 "$P/small.xml" >"$T/cut.xml"
vg report-truncated top "$T/cut.xml"
finish
