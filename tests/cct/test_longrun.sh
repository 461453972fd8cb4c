#!/usr/bin/env bash
# Long runs: the tree's memory budget, intervals, compressed profiles,
# periodic snapshots, thread names (tests/programs/longrun). Checked, in
# app mode on JDK 17 and 25 (where installed) and in JDK mode on 17:
# - a program whose calls recurse at random (millions of distinct
#   contexts) runs under a small heap, prints what it prints plainly,
#   and writes a profile that stays within its budget, says that it
#   folded, and whose per-method totals are exact;
# - cccp.budget in nodes, "none", and a malformed value (one warning);
# - snapshots that start new intervals (Snapshot.take, the entry point
#   of cccp-report dump) add up to the whole, per method, with a thread
#   counting throughout; without a reset they are cumulative;
# - a profile named .xml.gz is gzip, and cccp-report reads it;
#   cccp.interval writes numbered
#   snapshots whose intervals add up with the profile at exit;
# - a program that dies of its own OutOfMemoryError, its data still
#   reachable (no shutdown hook runs in a full heap unless something
#   frees memory as main ends: the native agent drops the runtime's
#   reserve), prints and exits as plainly (the JVM's report of the
#   error may take its other form: the tree takes heap) and leaves its
#   profile; so does one ended by SIGTERM;
# - a program that fills the heap, catches the OutOfMemoryError and goes
#   on, twenty times, runs as plainly: no error escapes the runtime where
#   the original does not allocate, and the JVM's own threads (the
#   Reference Handler, instrumented in JDK mode) survive;
# - unnamed virtual threads' trees are named "(virtual)" (JDK 25).
# Environment: CCCP_REWRITE, CCCP_REPORT, BUILD, JDK17, JDK25.
set -u
source "$(dirname "$0")/../lib.sh"

suite_tmp
use_jdks
use_report

check "compile the long-run programs" "$JDK17/bin/javac" -d "$T/cls" \
  "$ROOT"/tests/programs/longrun/lr/*.java
(cd "$T/cls" && "$JDK17/bin/jar" cf "$T/lr.jar" lr)
expect_exit 0 "rewrite the long-run programs (app mode)" \
  "$REWRITE" -q "$T/lr.jar" -o "$T/app/"

# attr FILE NAME: attribute NAME of the profile's <cct> element (gzip or not)
attr() {
  gzip -dcf "$1" | sed -n '2s/.* '"$2"'="\([^"]*\)".*/\1/p'
}
# same_totals FILE OUT WHAT: the totals of a, b, c and e in profile FILE
# are those the program printed in OUT
same_totals() {
  local f=$1 out=$2 what=$3 m ok=1 want got
  for m in a b c e; do
    want=$(awk -v m=$m '$1 == m { print $2 }' "$out")
    got=$(method_calls "$f" "lr/Recurse.$m(I)J")
    [ "$want" = "$got" ] || { ok=0; echo "    $m: program $want, profile $got"; }
  done
  [ $ok = 1 ] && pass "$what" || fail "$what"
}

# The JVM reports the uncaught OutOfMemoryError in one of two forms:
# with its stack trace when a little memory is left, else as "thrown from
# the UncaughtExceptionHandler". The tree takes heap, so how much is left
# when the heap fills differs from the plain run's: either form is right.
oom_report='^(Exception: java.lang.OutOfMemoryError thrown from the UncaughtExceptionHandler in thread "main"|Exception in thread "main" java.lang.OutOfMemoryError: Java heap space|'$'\t''at .*)?$'
oom() {         # oom TAG JAVA ARGS...: plain and instrumented Hog
  local tag=$1 java=$2 rc0 rc1
  shift 2
  "$java" -Xmx64m -cp "$T/lr.jar" lr.Hog >"$T/$tag.hplain" 2>"$T/$tag.heplain"
  rc0=$?
  "$java" -Xmx64m "$@" lr.Hog >"$T/$tag.hout" 2>"$T/$tag.heout"
  rc1=$?
  check "$tag: OutOfMemoryError: the exit status is the plain run's ($rc0)" \
    test $rc0 = $rc1 -a $rc0 != 0
  check "$tag: ... and so is the output" cmp "$T/$tag.hplain" "$T/$tag.hout"
  check "$tag: ... and the JVM reports the error as plainly" \
    bash -c "! grep -Evq '$oom_report' '$T/$tag.heout' && grep -q OutOfMemoryError '$T/$tag.heout'"
  check "$tag: ... and the profile is written, its counts whole" \
    test "$(method_calls "$T/$tag-oom.xml" 'lr/Hog.work(I)V')" = 12345
}

recover() {     # recover TAG JAVA ARGS...: plain and instrumented Recover
  local tag=$1 java=$2 rc0 rc1
  shift 2
  "$java" -Xmx64m -cp "$T/lr.jar" lr.Recover 20 >"$T/$tag.rplain" 2>&1
  rc0=$?
  "$java" -Xmx64m "$@" lr.Recover 20 >"$T/$tag.rout" 2>&1
  rc1=$?
  check "$tag: a program that recovers from its OutOfMemoryError 20 times exits as plainly ($rc0)" \
    test $rc0 = $rc1 -a $rc0 = 0
  check "$tag: ... prints the same (the JVM's threads survive, no error escapes the runtime)" \
    cmp "$T/$tag.rplain" "$T/$tag.rout"
  check "$tag: ... and its profile counts every call" \
    test "$(method_calls "$T/$tag-rec.xml" 'lr/Recover.work(I)V')" = 20000
}

recurse() {     # recurse TAG JAVA ARGS...: plain and instrumented Recurse
  local tag=$1 java=$2
  shift 2
  "$java" -Xmx128m -cp "$T/lr.jar" lr.Recurse 100000 25 >"$T/$tag.plain" 2>&1
  "$java" -Xmx128m "$@" lr.Recurse 100000 25 >"$T/$tag.out" 2>&1
  local rc=$?
  check "$tag: exit status 0" test $rc = 0
  check "$tag: prints what the plain run prints" cmp "$T/$tag.plain" "$T/$tag.out"
  local p=$T/$tag.xml
  check "$tag: the profile is written" test -s "$p"
  local budget bytes folded
  budget=$(attr "$p" budget); bytes=$(attr "$p" tree-bytes)
  folded=$(attr "$p" folded-calls)
  check "$tag: the budget is a quarter of the heap ($budget bytes)" \
    test "${budget:-0}" -gt $((24 << 20)) -a "${budget:-0}" -le $((32 << 20))
  check "$tag: the tree stays within it ($bytes bytes)" \
    test -n "$bytes" -a "${bytes:-0}" -le "${budget:-0}"
  check "$tag: calls were folded ($folded)" test "${folded:-0}" -gt 100000
  same_totals "$p" "$T/$tag.out" "$tag: every method's total is exact"
}

for J in "${JDKS[@]}"; do
  v=$(jdk_version "$J")
  echo "-- JDK $v, app mode"
  A=(@"$T/app/cccp.args" -cp "$T/app/lr.jar")
  recurse "app$v" "$J/bin/java" "${A[@]}" -Dcccp.out="$T/app$v.xml"
  oom "app$v" "$J/bin/java" "${A[@]}" -Dcccp.out="$T/app$v-oom.xml"
  recover "app$v" "$J/bin/java" "${A[@]}" -Dcccp.out="$T/app$v-rec.xml"

  # a budget in nodes; none; a malformed one
  "$J/bin/java" "${A[@]}" -Dcccp.budget=300 -Dcccp.out="$T/n$v.xml" \
    lr.Recurse 2000 12 >"$T/n$v.out" 2>"$T/n$v.err"
  check "JDK $v: cccp.budget=300 (nodes) folds" \
    test "$(attr "$T/n$v.xml" budget)" = $((300 * 88))
  same_totals "$T/n$v.xml" "$T/n$v.out" "JDK $v: ... and the totals stay exact"
  check "JDK $v: ... silently" test ! -s "$T/n$v.err"
  "$J/bin/java" "${A[@]}" -Dcccp.budget=none -Dcccp.out="$T/u$v.xml" \
    lr.Recurse 2000 12 >/dev/null 2>&1
  check "JDK $v: cccp.budget=none: no budget, nothing folded" \
    test -z "$(attr "$T/u$v.xml" budget)$(attr "$T/u$v.xml" folded-calls)"
  "$J/bin/java" "${A[@]}" -Dcccp.budget=lots -Dcccp.out="$T/b$v.xml" \
    lr.Recurse 20 5 >"$T/b$v.out" 2>"$T/b$v.err"
  expect_match "^cccp: cccp.budget=lots is not a budget .*: using a quarter of the heap$" \
    "JDK $v: a malformed budget is one warning" "$(cat "$T/b$v.err")"
  check "JDK $v: ... and the run goes on" test -s "$T/b$v.xml"

  # intervals: three snapshots, each starting a new one
  "$J/bin/java" "${A[@]}" -Dcccp.out="$T/f$v.xml" lr.Phases \
    "$T/s1-$v.xml" "$T/s2-$v.xml.gz" >"$T/ph$v.out" 2>&1
  busy=$(awk '$1 == "busy" { print $2 }' "$T/ph$v.out")
  check "JDK $v: the snapshots are taken (Snapshot.take answers 0)" \
    test "$(grep -c '^snapshot .* 0$' "$T/ph$v.out")" = 2
  check "JDK $v: a profile named .xml.gz is gzip" gzip -t "$T/s2-$v.xml.gz"
  got="$(method_calls "$T/s1-$v.xml" 'lr/Phases.work(I)V') $(method_calls "$T/s2-$v.xml.gz" 'lr/Phases.work(I)V') $(method_calls "$T/f$v.xml" 'lr/Phases.work(I)V')"
  check "JDK $v: each interval holds its own phase's calls ($got)" \
    test "$got" = "1000 2000 3000"
  sum=$(( $(method_calls "$T/s1-$v.xml" 'lr/Phases.busy()V') + \
          $(method_calls "$T/s2-$v.xml.gz" 'lr/Phases.busy()V') + \
          $(method_calls "$T/f$v.xml" 'lr/Phases.busy()V') ))
  check "JDK $v: a thread's calls throughout add up over the intervals ($sum, counted $busy)" \
    test "$sum" = "$busy"
  check "JDK $v: the second interval says it follows a reset" \
    test "$(attr "$T/s2-$v.xml.gz" resets)" = 1
  "$J/bin/java" "${A[@]}" -Dlr.noreset=true -Dcccp.out="$T/g$v.xml" lr.Phases \
    "$T/c1-$v.xml" "$T/c2-$v.xml" >/dev/null 2>&1
  got="$(method_calls "$T/c1-$v.xml" 'lr/Phases.work(I)V') $(method_calls "$T/c2-$v.xml" 'lr/Phases.work(I)V') $(method_calls "$T/g$v.xml" 'lr/Phases.work(I)V')"
  check "JDK $v: snapshots without a reset are cumulative ($got)" \
    test "$got" = "1000 3000 6000"

  # periodic snapshots
  mkdir -p "$T/iv$v"
  "$J/bin/java" "${A[@]}" -Dcccp.interval=0.25 -Dcccp.out="$T/iv$v/p.xml" \
    lr.Ticks 1600 >"$T/iv$v.out" 2>&1
  ticks=$(awk '$1 == "ticks" { print $2 }' "$T/iv$v.out")
  n=$(ls "$T/iv$v" | grep -c '^p\.[0-9]*\.xml$')
  check "JDK $v: cccp.interval=0.25 writes numbered snapshots ($n)" test "$n" -ge 3
  sum=$(method_calls "$T/iv$v/p.xml" 'lr/Ticks.tick()V')
  for f in "$T/iv$v"/p.[0-9]*.xml; do
    sum=$((sum + $(method_calls "$f" 'lr/Ticks.tick()V')))
  done
  check "JDK $v: ... whose intervals add up with the profile at exit ($sum, counted $ticks)" \
    test "$sum" = "$ticks"

  # ended by SIGTERM: the JVM runs its shutdown hooks, the dump among them
  "$J/bin/java" -cp "$T/lr.jar" lr.Ticks 20000 >/dev/null 2>&1 &
  p=$!; sleep 1.5; kill -TERM $p; wait $p; rc0=$?
  "$J/bin/java" "${A[@]}" -Dcccp.out="$T/term$v.xml" lr.Ticks 20000 \
    >"$T/term$v.out" 2>&1 &
  p=$!; sleep 1.5; kill -TERM $p; wait $p; rc1=$?
  check "JDK $v: SIGTERM: the exit status is the plain run's ($rc0)" \
    test "$rc0" = "$rc1" -a "$rc0" = 143
  check "JDK $v: ... and the profile is written" \
    test "$(method_calls "$T/term$v.xml" 'lr/Ticks.tick()V')" -gt 0

  if [ "$v" -ge 21 ]; then
    "$J/bin/java" "${A[@]}" -Dcccp.out="$T/v$v.xml" lr.Virtual >/dev/null 2>&1
    check "JDK $v: unnamed virtual threads' tree is named (virtual)" \
      grep -q '<tree thread="(virtual)">' "$T/v$v.xml"
    check "JDK $v: ... a named one keeps its name's pattern" \
      grep -q '<tree thread="worker-#">' "$T/v$v.xml"
    check "JDK $v: ... and no tree is nameless" \
      bash -c "! grep -q '<tree thread=\"\">' '$T/v$v.xml'"
  fi
done

echo "-- JDK 17, JDK mode"
expect_exit 0 "instrument JDK 17" "$REWRITE" -q --jdk "$JDK17" -o "$T/jdk"
expect_exit 0 "rewrite the long-run programs against it" \
  "$REWRITE" -q --summary "$T/jdk/jdk.summary" "$T/lr.jar" -o "$T/jm/"
recurse jdkmode "$JDK17/bin/java" @"$T/jm/cccp.args" -cp "$T/jm/lr.jar" \
  -Dcccp.out="$T/jdkmode.xml"
oom jdkmode "$JDK17/bin/java" @"$T/jm/cccp.args" -cp "$T/jm/lr.jar" \
  -Dcccp.out="$T/jdkmode-oom.xml"
recover jdkmode "$JDK17/bin/java" @"$T/jm/cccp.args" -cp "$T/jm/lr.jar" \
  -Dcccp.out="$T/jdkmode-rec.xml"

finish
