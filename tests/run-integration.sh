#!/usr/bin/env bash
# Runs every shell suite (command line, round trips) and sums the counts.
#
# usage: tests/run-integration.sh [--lanes] [SUITE[:MODE]...]
# Without arguments, every suite; with some, only those (e.g. the
# sanitizer build's suites, or one suite to time). --lanes: the suites
# that rewrite whole JDKs (the verification suite's three modes, the
# JDK-mode suites, agent only) run in a lane of their own beside the
# others (the two lanes then take about as long), their
# lines marked "jdk| " (make check: the sanitized build runs beside both;
# on two cores the serial suites leave one idle most of the time). Each
# suite's wall and CPU time (user+sys of the suite and every process it
# waited for) is printed as it ends, in a line that bench/check-time
# reads:
#   == SUITE MODE: W s wall, C s cpu (U user + S sys)
set -u
cd "$(dirname "$0")/.."
total_p=0; total_f=0
# CCCP_FULL=1: every suite at full size (make check-full). Without it the
# verification suite checks a sample of the application jars in the
# modes --reencode and --stress-probes (every jar is still rewritten;
# --cccp, the mode users run, checks them all), and the mutant campaign
# runs at half its standalone size; on JDK 25 the application suites
# compare a fixed part of the applications with the oracle (app mode)
# and run a fixed part of them (JDK mode): APPS25_SAMPLE.
FULL=${CCCP_FULL:-0}
SAMPLE=4; HOSTILE=0.5
[ "$FULL" = 1 ] && SAMPLE=1 && HOSTILE=1
# The verification suite's baselines (the unmodified JDKs and jars) do not
# depend on the mode: the three modes share them.
VCACHE=$(mktemp -d /tmp/cccp-verify-cache.XXXXXX)
lanes=0
[ "${1:-}" = --lanes ] && lanes=1 && shift
# A suite may be given as FILE:MODE; MODE goes to the verification suite.
if [ $# -gt 0 ]; then
  suites=("$@")
else
  # --cccp first: it checks every jar, and the sampled modes take their
  # baselines from its results
  suites=(tests/cli/*.sh tests/report/*.sh tests/roundtrip/*.sh
          tests/verify/test_verify.sh:--cccp
          tests/verify/test_verify.sh:--reencode
          tests/verify/test_verify.sh:--stress-probes)
  for s in tests/cct/*.sh tests/oracle/test_*.sh tests/jop/*.sh tests/hostile/*.sh \
           tests/valgrind/*.sh; do
    [ -f "$s" ] && suites+=("$s")
  done
fi
# run_lane COUNTS SUITE...: runs the suites one after the other and
# writes "PASSED FAILED" to COUNTS
run_lane() {
  local counts=$1 entry s mode log tf sample wall user sys line p=0 f=0
  shift
  local selftest=1
  for entry in "$@"; do
    s=${entry%%:*}; mode=""
    [ "$s" != "$entry" ] && mode=${entry#*:}
    echo "== $s $mode"
    log=$(mktemp); tf=$(mktemp)
    # the verification self-tests do not depend on the mode: once is enough
    sample=1
    [ "$mode" = --reencode ] || [ "$mode" = --stress-probes ] && sample=$SAMPLE
    CCCP_VERIFY_MODE=$mode CCCP_VERIFY_SELFTEST=$selftest \
      CCCP_VERIFY_CACHE=$VCACHE CCCP_VERIFY_SAMPLE=$sample \
      HOSTILE_SCALE=${HOSTILE_SCALE:-$HOSTILE} \
      /usr/bin/time -o "$tf" -f '%e %U %S' bash "$s" 2>&1 | tee "$log"
    [ "${s##*/}" = test_verify.sh ] && selftest=0
    read -r wall user sys < <(tail -1 "$tf")
    echo "== $s $mode: ${wall%.*} s wall, $(echo "$user $sys" | awk '{printf "%.0f s cpu (%.0f user + %.0f sys)", $1 + $2, $1, $2}')"
    line=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$log" | tail -1)
    rm -f "$log" "$tf"
    if [ -z "$line" ]; then
      echo "suite $entry did not finish"; f=$((f + 1)); continue
    fi
    p=$((p + $(echo "$line" | cut -d' ' -f1)))
    f=$((f + $(echo "$line" | cut -d' ' -f3)))
  done
  echo "$p $f" >"$counts"
}

cdir=$(mktemp -d /tmp/cccp-lanes.XXXXXX)
trap 'rm -rf "$VCACHE" "$cdir"' EXIT
if [ $lanes = 1 ]; then
  jdk=() rest=()
  for entry in "${suites[@]}"; do
    case ${entry%%:*} in
      */test_verify.sh|*/test_jdkmode.sh|*/test_jdkmode_apps.sh|*/test_agent.sh)
        jdk+=("$entry") ;;
      *) rest+=("$entry") ;;
    esac
  done
  ( run_lane "$cdir/jdk" "${jdk[@]}" 2>&1 | sed -u 's/^/jdk| /' ) &
  pid=$!
  run_lane "$cdir/rest" "${rest[@]}"
  wait $pid
  names=(rest jdk)
else
  run_lane "$cdir/all" "${suites[@]}"
  names=(all)
fi
for c in "${names[@]}"; do
  if [ ! -s "$cdir/$c" ]; then
    echo "lane $c did not finish"; total_f=$((total_f + 1)); continue
  fi
  read -r p f <"$cdir/$c"
  total_p=$((total_p + p)); total_f=$((total_f + f))
done
echo "integration: $total_p passed, $total_f failed"
[ "$total_f" -eq 0 ]
