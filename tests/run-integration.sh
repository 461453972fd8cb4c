#!/usr/bin/env bash
# Runs every shell suite (command line, round trips) and sums the counts.
set -u
cd "$(dirname "$0")/.."
total_p=0; total_f=0
# A suite may be given as FILE:MODE; MODE goes to the verification suite.
suites=(tests/cli/*.sh tests/report/*.sh tests/roundtrip/*.sh
        tests/verify/test_verify.sh:--reencode
        tests/verify/test_verify.sh:--stress-probes
        tests/verify/test_verify.sh:--cccp)
for s in tests/cct/*.sh tests/oracle/test_*.sh tests/jop/*.sh tests/hostile/*.sh \
         tests/valgrind/*.sh; do
  [ -f "$s" ] && suites+=("$s")
done
for entry in "${suites[@]}"; do
  s=${entry%%:*}; mode=""
  [ "$s" != "$entry" ] && mode=${entry#*:}
  echo "== $s $mode"
  log=$(mktemp)
  t0=$SECONDS
  # the verification self-tests do not depend on the mode: once is enough;
  # the mutant campaign at half its standalone size
  selftest=1
  [ -n "$mode" ] && [ "$mode" != --reencode ] && selftest=0
  CCCP_VERIFY_MODE=$mode CCCP_VERIFY_SELFTEST=$selftest \
    HOSTILE_SCALE=${HOSTILE_SCALE:-0.5} bash "$s" 2>&1 | tee "$log"
  echo "== $s $mode: $((SECONDS - t0)) s"
  line=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$log" | tail -1)
  rm -f "$log"
  if [ -z "$line" ]; then
    echo "suite $entry did not finish"; total_f=$((total_f + 1)); continue
  fi
  total_p=$((total_p + $(echo "$line" | cut -d' ' -f1)))
  total_f=$((total_f + $(echo "$line" | cut -d' ' -f3)))
done
echo "integration: $total_p passed, $total_f failed"
[ "$total_f" -eq 0 ]
