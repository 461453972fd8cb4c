#!/usr/bin/env bash
# JOP cross-profiling end to end: the JOP programs (examples/jop control
# and packet, tests/data/jop Calls and Throwing) rewritten with --jop and
# the block counters, run on a stock JVM, their cross-profiles completed
# by cccp-report, and compared context by context with the JVMTI oracle's
# bytecode trace of the uninstrumented program (tests/oracle, jop= mode):
# cycles, bytecodes and allocations must be equal, for both timing tables
# and several wait-state and software-cycle settings; with
# --jop-split-exceptions also on the program that throws (and without it,
# they must not be). The programs print what they print plain. Also: the
# options' errors, the completion command (once only), the profile's JOP
# settings, system threads left out, unsupported bytecodes reported.
# Needs 'make jop-examples'. JDK 17, and JDK 25 when present.
set -euo pipefail
source "$(dirname "$0")/../lib.sh"
use_jdks
EX="$ROOT/$BUILD/examples/jop"
FX="$ROOT/$BUILD/fixtures-jop"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
if [ ! -f "$EX/control.jar" ] || [ ! -d "$FX/jopcalls" ]; then
  fail "the JOP programs are not built (make jop-examples)"; finish; exit 1
fi
(cd "$FX" && jar cf "$T/calls.jar" jopcalls && jar cf "$T/throwing.jar" jopthrow)

# name -> jar, main class, arguments (small: the oracle single-steps),
# costed class prefix
prog() {
  case $1 in
    control) P_JAR=$EX/control.jar P_MAIN=control.Main P_ARGS=10000 P_PFX=control/ ;;
    packet) P_JAR=$EX/packet.jar P_MAIN=packet.Main P_ARGS=600 P_PFX=packet/ ;;
    calls) P_JAR=$T/calls.jar P_MAIN=jopcalls.Calls P_ARGS=200 P_PFX=jopcalls/ ;;
    throwing) P_JAR=$T/throwing.jar P_MAIN=jopthrow.Throwing P_ARGS=300 P_PFX=jopthrow/ ;;
  esac
}

# folded PROFILE METRIC: the contexts and their values, sorted
folded() { "$REPORT" folded -m "$2" --merge-threads "$1" | sort; }

# cross J V NAME MODEL R W SW SPLIT [CACHE]: rewrite NAME with these
# settings, run it and the oracle on JDK J (version V), with the method
# cache CACHE (WORDS:BLOCKS, a run-time option) simulated when given;
# sets X (the cross-profile) and O (the oracle's profile). Checks the
# output is the plain one.
cross() {
  local J=$1 v=$2 name=$3 model=$4 r=$5 w=$6 sw=$7 split=$8 cache=${9:-}
  local jc=() oc=""
  [ -n "$cache" ] && jc=(-Dcccp.jop.cache="$cache") && oc=",cache=$cache"
  prog "$name"
  local tag="$name-$model-$r-$w-$sw-$split"
  local d="$T/rw-$tag" flags=(--jop --jop-model "$model" --jop-rws "$r"
        --jop-wws "$w" --jop-software-cycles "$sw" --count-bytecodes
        --count-allocations)
  [ "$split" = 1 ] && flags+=(--jop-split-exceptions)
  [ -d "$d" ] || "$REWRITE" -q "${flags[@]}" "$P_JAR" -o "$d/" ||
    fail "rewrite $tag"
  X="$T/x-$tag-$v${cache:+-c$cache}.xml"
  O="$T/o-$tag-$v${cache:+-c$cache}.xml"
  # shellcheck disable=SC2086
  "$J/bin/java" -cp "$P_JAR" "$P_MAIN" $P_ARGS >"$T/plain-$name-$v.out"
  # shellcheck disable=SC2086
  "$J/bin/java" @"$d/cccp.args" "${jc[@]}" -Dcccp.out="$X" -cp "$d/$(basename "$P_JAR")" \
    "$P_MAIN" $P_ARGS >"$T/inst.out"
  # shellcheck disable=SC2086
  "$J/bin/java" -agentpath:"$A=out=$O,jop=$model,rws=$r,wws=$w,sw=$sw$oc,costed=$P_PFX,counts=1,threads=app" \
    -cp "$P_JAR" "$P_MAIN" $P_ARGS >/dev/null
  if cmp -s "$T/plain-$name-$v.out" "$T/inst.out"; then :
  else fail "$tag: the cross-profiled run prints something else"; fi
}

# seen FOLDED: the lines of FOLDED outside the contexts where the oracle
# saw no single step (a <clinit> HotSpot runs while it resolves a
# constant-pool entry hides its steps, with all it calls; the oracle
# marks those contexts 'unstepped')
seen() {
  awk -v hid="$T/hidden" 'BEGIN { while ((getline l < hid) > 0) { sub(/ [0-9]+$/, "", l); h[l] = 1 } }
    { p = $0; sub(/ [0-9]+$/, "", p); k = p
      while (1) { if (k in h) next; i = match(k, /;[^;]*$/); if (!i) break; k = substr(k, 1, i - 1) }
      print }' "$1"
}

# same WHAT METRIC: X and O agree on METRIC in every context the oracle
# saw
same() {
  folded "$O" unstepped >"$T/hidden" 2>/dev/null || : >"$T/hidden"
  folded "$X" "$2" >"$T/x.all"
  folded "$O" "$2" >"$T/o.all"
  seen "$T/x.all" >"$T/x.f"
  seen "$T/o.all" >"$T/o.f"
  local n h; n=$(wc -l <"$T/o.f"); h=$(($(wc -l <"$T/x.all") - $(wc -l <"$T/x.f")))
  local note=""
  [ "$h" -gt 0 ] && note=" ($h under class initializers the JVM hides from single steps left out)"
  if [ "$n" -gt 0 ] && cmp -s "$T/x.f" "$T/o.f"; then
    pass "$1: $2 equal the oracle's in all $n contexts$note"
  else
    fail "$1: $2 differ from the oracle's ($n contexts)"
    diff "$T/o.f" "$T/x.f" | head -6 | sed 's/^/       /'
  fi
}

# --- the options
prog calls
expect_exit 2 "--jop-model 2011 is a usage error" \
  "$REWRITE" --jop --jop-model 2011 "$P_JAR" -o "$T/u1/"
expect_match "2014 or 2008" "the message names the models" "$err"
expect_exit 2 "--jop-rws without --jop is a usage error" \
  "$REWRITE" --jop-rws 3 "$P_JAR" -o "$T/u2/"
expect_exit 2 "--jop-wws past 1000 is a usage error" \
  "$REWRITE" --jop --jop-wws 1001 "$P_JAR" -o "$T/u3/"
expect_exit 2 "--jop with --identity is a usage error" \
  "$REWRITE" --identity --jop "$P_JAR" -o "$T/u4/"
# bytecodes JOP cannot run are reported: a lambda (invokedynamic)
mkdir -p "$T/indy/src/ji" "$T/indy/cls"
cat >"$T/indy/src/ji/L.java" <<'EOF'
package ji;
public class L {
  public static void main(String[] a) {
    Runnable r = () -> System.out.println("run");
    r.run();
  }
}
EOF
javac -d "$T/indy/cls" "$T/indy/src/ji/L.java"
(cd "$T/indy/cls" && jar cf "$T/indy.jar" .)
expect_exit 0 "rewrite a class with invokedynamic under --jop" \
  "$REWRITE" --jop "$T/indy.jar" -o "$T/indy-out/"
expect_match "1 bytecode that JOP cannot run .* in 1 class \(-v names them\)" \
  "the summary counts it" "$err"
if printf '%s' "$err" | grep -q "class ji/L:"; then
  fail "without -v no class is named"; else pass "without -v no class is named"; fi
expect_exit 0 "the same with -v" "$REWRITE" -v --jop "$T/indy.jar" -o "$T/indy-out2/"
expect_match "class ji/L: 1 bytecode JOP cannot run" "-v names the class with its count" "$err"

for J in "${JDKS[@]}"; do
  v=$(jdk_version "$J")
  echo "-- JDK $v"
  oracle_for "$J"

  # the default settings on every exception-free program
  for name in control packet calls; do
    cross "$J" "$v" "$name" 2014 1 2 200 0
    for m in cycles bytecodes allocations; do same "$name (JDK $v)" $m; done
  done
  # the other tables and settings (on JDK 17; Calls has every kind of
  # call and return, control the most contexts)
  if [ "$v" = 17 ]; then
    for s in "2014 3 5 200" "2008 1 1 200" "2014 0 0 57" "2008 2 3 1000"; do
      set -- $s
      cross "$J" "$v" calls "$1" "$2" "$3" "$4" 0
      same "calls, JOP $1 r=$2 w=$3 sw=$4" cycles
    done
    cross "$J" "$v" control 2008 3 5 200 0
    same "control, JOP 2008 r=3 w=5" cycles
  fi

  # the method cache, simulated at run time (the same rewritten jars):
  # invokes, returns and handlers cost their load only on a miss
  for c in 1024:16 256:8; do
    [ "$v" = 17 ] || [ $c = 1024:16 ] || continue
    for name in control packet calls; do
      cross "$J" "$v" "$name" 2014 1 2 200 0 $c
      same "$name, method cache $c (JDK $v)" cycles
    done
    cross "$J" "$v" throwing 2014 1 2 200 1 $c
    same "throwing, split, method cache $c (JDK $v)" cycles
  done
  if expect_match "jop-cache-words=\"1024\" jop-cache-blocks=\"16\"" \
       "the profile records the cache" "$(head -2 "$T/x-control-2014-1-2-200-0-$v-c1024:16.xml")"; then
    a=$("$REPORT" top -m cycles -n 1 "$T/x-control-2014-1-2-200-0-$v.xml" | head -1 | awk '{print $2}')
    b=$("$REPORT" top -m cycles -n 1 "$T/x-control-2014-1-2-200-0-$v-c1024:16.xml" | head -1 | awk '{print $2}')
    if [ "$b" -lt "$a" ]; then pass "the cache saves cycles on control ($a without, $b with)"
    else fail "the cache saves nothing on control ($a without, $b with)"; fi
  fi

  # exceptions: exact with --jop-split-exceptions only
  cross "$J" "$v" throwing 2014 1 2 200 1
  for m in cycles bytecodes allocations; do same "throwing, split (JDK $v)" $m; done
  if grep -q 'returns="' "$X"; then pass "split: nodes count their returns"
  else fail "split: no returns counted"; fi
  cross "$J" "$v" throwing 2014 1 2 200 0
  folded "$O" unstepped >"$T/hidden" 2>/dev/null || : >"$T/hidden"
  folded "$X" cycles >"$T/x.all"
  folded "$O" cycles >"$T/o.all"
  seen "$T/x.all" >"$T/x.f"
  seen "$T/o.all" >"$T/o.f"
  if not_cmp "$T/x.f" "$T/o.f"; then
    pass "throwing without split: cycles differ from the oracle's (blocks cut short by exceptions)"
  else fail "throwing without split: cycles equal the oracle's, the test cannot tell"; fi
done

# --- the profile and its completion (last JDK's calls run, default settings)
J=${JDKS[0]}
cross "$J" 17 calls 2014 1 2 200 0
expect_match 'jop-model="2014" jop-rws="1" jop-wws="2" jop-software="200" jop-split="0" jop-completed="0"' \
  "the profile records the JOP settings, not completed" "$(head -2 "$X")"
expect_match 'name="large" desc="\(II\)I" size="388" words="97"' \
  "methods carry their size in words" "$(grep 'name="large"' "$X")"
if grep -q '<tree thread="main"' "$X" && ! grep -q 'thread="Reference Handler"\|thread="Common-Cleaner"' "$X"; then
  pass "system threads are left out"
else fail "system threads: $(grep -o '<tree thread="[^"]*"' "$X" | tr '\n' ' ')"; fi
expect_exit 0 "cccp-report jop completes the profile" \
  "$REPORT" jop "$X" -o "$T/done.xml"
expect_match "cycles in all" "it says what it added" "$err"
expect_match 'jop-completed="1"' "the result is marked completed" "$(head -2 "$T/done.xml")"
expect_exit 0 "cccp-report jop on a completed profile" \
  "$REPORT" jop "$T/done.xml" -o "$T/again.xml"
expect_match "completed already" "says it is completed already" "$err"
check "and writes it unchanged" cmp "$T/done.xml" "$T/again.xml"
folded "$T/done.xml" cycles >"$T/d.f"
folded "$X" cycles >"$T/x.f"
check "other commands complete in memory: the same cycles" cmp "$T/d.f" "$T/x.f"
raw=$(python3 -c '
import sys, xml.etree.ElementTree as ET
print(sum(int(n.get("cycles", "0")) for n in ET.parse(sys.argv[1]).getroot().iter("node")))' "$X")
done_=$("$REPORT" top -m cycles -n 1 "$T/done.xml" | head -1 | awk '{print $2}')
if [ "$raw" -gt 0 ] && [ "$done_" -gt "$raw" ]; then
  pass "completion adds cycles ($raw counted in blocks, $done_ in all)"
else fail "completion: $raw in blocks, $done_ in all"; fi
expect_exit 1 "cccp-report jop refuses a profile made without --jop" \
  "$REPORT" jop "$O.none" 
"$REWRITE" -q "$P_JAR" -o "$T/plainrw/"
"$J/bin/java" @"$T/plainrw/cccp.args" -Dcccp.out="$T/plain.xml" \
  -cp "$T/plainrw/calls.jar" "$P_MAIN" 5 >/dev/null
expect_exit 1 "cccp-report jop refuses a profile made without --jop" \
  "$REPORT" jop "$T/plain.xml"
expect_match "not a JOP cross-profile" "and says why" "$err"
# counters without --jop: bytecodes and allocations only
"$REWRITE" -q --count-bytecodes --count-allocations "$P_JAR" -o "$T/cnt/"
"$J/bin/java" @"$T/cnt/cccp.args" -Dcccp.out="$T/cnt.xml" -cp "$T/cnt/calls.jar" \
  "$P_MAIN" $P_ARGS >/dev/null
X="$T/cnt.xml"
check "--count-* alone: the options file asks for counters" \
  grep -qx -- '-Dcccp.counters=true' "$T/cnt/cccp.args"
if ! grep -q 'jop-model\|cycles=' "$X"; then pass "--count-* alone: no cycles, no JOP settings"
else fail "--count-* alone wrote JOP data"; fi
same "--count-* alone" bytecodes
same "--count-* alone" allocations
finish
