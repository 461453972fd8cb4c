#!/usr/bin/env bash
# Runs every shell suite (command line, round trips) and sums the counts.
#
# usage: tests/run-integration.sh [SUITE[:MODE]...]
# Without arguments, every suite; with some, only those (e.g. the
# sanitizer build's suites, or one suite to time). Each suite's wall and
# CPU time (user+sys of the suite and every process it waited for) is
# printed as it ends, in a line that bench/check-time reads:
#   == SUITE MODE: W s wall, C s cpu (U user + S sys)
set -u
cd "$(dirname "$0")/.."
total_p=0; total_f=0
# CCCP_FULL=1: every suite at full size (make check-full). Without it the
# verification suite checks a sample of the application jars in the
# modes --reencode and --stress-probes (every jar is still rewritten;
# --cccp, the mode users run, checks them all), and the mutant campaign
# runs at half its standalone size.
FULL=${CCCP_FULL:-0}
SAMPLE=4; HOSTILE=0.5
[ "$FULL" = 1 ] && SAMPLE=1 && HOSTILE=1
# The verification suite's baselines (the unmodified JDKs and jars) do not
# depend on the mode: the three modes share them.
VCACHE=$(mktemp -d /tmp/cccp-verify-cache.XXXXXX)
trap 'rm -rf "$VCACHE"' EXIT
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
selftest=1
for entry in "${suites[@]}"; do
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
    echo "suite $entry did not finish"; total_f=$((total_f + 1)); continue
  fi
  total_p=$((total_p + $(echo "$line" | cut -d' ' -f1)))
  total_f=$((total_f + $(echo "$line" | cut -d' ' -f3)))
done
echo "integration: $total_p passed, $total_f failed"
[ "$total_f" -eq 0 ]
