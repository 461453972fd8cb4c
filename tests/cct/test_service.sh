#!/usr/bin/env bash
# A real HTTP service under load, instrumented as users run one: a small
# application of ours (tests/data/service/Service.java) on an embedded
# Jetty 9 from Debian, every jar of its class path (tests/service.sh)
# rewritten by cccp-rewrite in app mode with default options, run with
# 'java @OUT/cccp.args -cp ...' on 127.0.0.1 and driven by wrk in load
# phases (tests/data/service/phase.lua: each phase ends with a tail of
# /noop requests, so that none of the counted requests is in flight when
# wrk stops). Per JDK (17; 25 when installed), plain and instrumented:
# wrk sees no socket error and only 200s, the /work and /json answers wrk
# got in each phase are the requests the service counted, the JVM exits
# normally through the service's /stop, and its output holds no
# exception. Instrumented, the profile written at exit is read by
# cccp-report stats and top, and the calls of the handlers Service.work
# and Service.json in it (every context, every thread) are the requests
# the service counted.
#
# Last, the instrumented service runs again under a small budget
# (cccp.budget=1000 nodes): its handlers' calls fold, the counts above
# still hold, and every profile stays within the budget.
#
# Snapshots: between the phases, 'snapshot_here' takes a profile of the
# running service with 'cccp-report dump PID -o FILE --reset' and checks
# that each interval's handler calls are the requests counted in it (the
# profile at exit then holds the last interval only). When cccp-report has
# no 'dump' command yet, the snapshots are skipped with a message and two
# phases run instead of three.
#
# Environment: CCCP_REWRITE, CCCP_REPORT, BUILD, JDK17, JDK25, KEEP=1
# (keep the work folder), SERVICE_SECS (seconds of /work and /json per
# phase, default 3; each phase runs 2 s longer for its /noop tail).
set -u
source "$(dirname "$0")/../lib.sh"
source "$ROOT/tests/service.sh"

T=$(mktemp -d)
SVC_PID=""
trap '[ -z "$SVC_PID" ] || kill -9 "$SVC_PID" 2>/dev/null
      if [ -n "${KEEP:-}" ]; then echo "  kept $T"; else rm -rf "$T"; fi' EXIT
SECS=${SERVICE_SECS:-3}
TAIL=2
START=$SECONDS

miss=$(service_missing)
if [ -n "$miss" ]; then
  echo "  skip: not installed: $(echo $miss)"
  finish; exit
fi
make -s -C "$ROOT" BUILD="$BUILD" "$BUILD/cccp-rt.jar" \
  $([ -n "${CCCP_REPORT:-}" ] || echo bin/cccp-report) >/dev/null ||
  { fail "build cccp-report and cccp-rt.jar"; finish; exit 1; }
use_jdks

# ------------------------------------------------------------- snapshots
# A snapshot needs 'cccp-report dump' (it lists its commands in --help).
HAVE_DUMP=0
"$REPORT" --help 2>/dev/null | grep -Eq '^  dump ' && HAVE_DUMP=1
PHASES=2
[ $HAVE_DUMP = 0 ] || PHASES=3

# calls_of PROFILE: "W J", the calls of Service.work and Service.json in
# PROFILE, every context and thread added up (top's self column: the
# calls of the method itself)
calls_of() {
  "$REPORT" top --merge-threads --methods -n 0 --include service/ "$1" |
    awk '$5 ~ /^service\/Service\.work\(/ { w = $1 }
         $5 ~ /^service\/Service\.json\(/ { j = $1 }
         END { print w + 0, j + 0 }'
}

# snapshot_here WHAT: TAKE A SNAPSHOT HERE. The profile of the running
# service ($SVC_PID) since the last reset, written by 'cccp-report dump
# --reset'; its handler calls must be the requests the service counted
# since then (W J now, against RW RJ at the last reset, which moves here).
snapshot_here() {
  local what=$1 f="$RUN/snap-$SNAPS.xml" w j got
  SNAPS=$((SNAPS + 1))
  if [ $HAVE_DUMP = 0 ]; then
    [ $SNAPS != 1 ] ||
      echo "  skip snapshots ($what): cccp-report has no 'dump' command yet"
    return 0
  fi
  read -r w j < <(service_counts)
  expect_exit 0 "$LABEL: snapshot $SNAPS ($what): cccp-report dump --reset" \
    "$REPORT" dump "$SVC_PID" -o "$f" --reset
  if [ ! -s "$f" ]; then fail "$LABEL: snapshot $SNAPS written"; return 0; fi
  got=$(calls_of "$f")
  if [ "$got" = "$((w - RW)) $((j - RJ))" ]; then
    pass "$LABEL: snapshot $SNAPS: the interval's work/json calls are the requests served in it ($got)"
  else
    fail "$LABEL: snapshot $SNAPS: work/json calls $got, the service counted $((w - RW)) $((j - RJ))"
  fi
  RW=$w RJ=$j
}

# ----------------------------------------------------------------- phases
# phase N: one wrk run of SECS s (+ TAIL s of /noop); its /work and /json
# answers must be the requests the service counted meanwhile
phase() {
  local n=$1 w0 j0 w1 j1 log="$RUN/wrk-$1.txt" rc=0 got reqs
  read -r w0 j0 < <(service_counts)
  wrk -t 2 -c 8 -d $((SECS + TAIL))s -s "$SERVICE_SRC/phase.lua" \
    "http://127.0.0.1:$SVC_PORT/" -- "$SECS" >"$log" 2>&1 || rc=$?
  read -r w1 j1 < <(service_counts)
  got=$(sed -n 's/^phase: work \([0-9]*\) json \([0-9]*\) noop \([0-9]*\) bad \([0-9]*\)$/\1 \2 \3 \4/p' "$log")
  reqs=$(sed -n 's/^ *\([0-9]*\) requests in .*/\1/p' "$log")
  if [ $rc = 0 ] && [ -n "$got" ] && ! grep -Eq 'Socket errors|Non-2xx' "$log" &&
     [ "${got##* }" = 0 ]; then
    pass "$LABEL: phase $n: wrk: $reqs requests, no socket error, all 200 (work json noop: ${got% *})"
  else
    fail "$LABEL: phase $n: wrk (exit $rc) saw errors or other statuses"
    sed 's/^/       /' "$log" | head -12; return 0
  fi
  set -- $got
  if [ "$1 $2" = "$((w1 - w0)) $((j1 - j0))" ] && [ $(($1 + $2 + $3)) = "$reqs" ]; then
    pass "$LABEL: phase $n: the service counted exactly the work/json requests wrk completed ($1 $2)"
  else
    fail "$LABEL: phase $n: wrk completed work $1 json $2 (all: $reqs), the service counted $((w1 - w0)) $((j1 - j0))"
  fi
}

# run_service LABEL MODE JAVA ARGS...: starts the service (MODE plain or
# inst), runs the phases, stops it, checks its output and, instrumented,
# its profile; the work folder is $RUN
run_service() {
  LABEL=$1; local mode=$2 t0=$SECONDS n w j rc=0 phases=1
  shift 2
  RUN="$T/$LABEL"; mkdir -p "$RUN"
  SNAPS=0 RW=0 RJ=0
  [ "$mode" = plain ] || phases=$PHASES
  if ! service_start "$RUN/out.txt" "$@"; then
    fail "$LABEL: the service listens"; sed 's/^/       /' "$RUN/out.txt" | head -20
    return 0
  fi
  pass "$LABEL: the service listens on port $SVC_PORT ($((SECONDS - t0)) s)"
  for n in $(seq $phases); do
    phase "$n"
    [ "$mode" = plain ] || [ "$n" = "$phases" ] || snapshot_here "after phase $n"
  done
  read -r w j < <(service_counts)
  service_stop || rc=$?
  if [ $rc = 0 ] && grep -qx "stopped: work $w json $j" "$RUN/out.txt"; then
    pass "$LABEL: stopped through /stop, the JVM exited 0 (work $w json $j)"
  else
    fail "$LABEL: stopped through /stop (exit $rc)"; tail -5 "$RUN/out.txt" | sed 's/^/       /'
  fi
  if grep -Eq 'Exception|Error|:WARN:|^[[:space:]]+at ' "$RUN/out.txt"; then
    fail "$LABEL: the service's output holds an exception or a warning"
    grep -E -m5 'Exception|Error|:WARN:|^[[:space:]]+at ' "$RUN/out.txt" | sed 's/^/       /'
  else
    pass "$LABEL: no exception or warning in the service's output ($(wc -l <"$RUN/out.txt") lines)"
  fi
  if [ "$mode" = inst ]; then
    local p="$RUN/cct.xml" got from
    # every class read from a jar came from a rewritten one
    from=$(sed -n 's/.* source: \(file:\)\{0,1\}\(\/[^ ]*\.jar\)$/\2/p' "$RUN/load.log" | sort | uniq -c)
    if [ -n "$from" ] && ! echo "$from" | grep -vq " $T/inst/"; then
      pass "$LABEL: every class loaded from a jar came from the rewritten ones ($(echo "$from" | awk '{ n += $1 } END { print n }') classes from $(echo "$from" | wc -l) jars, the runtime's among them)"
    else
      fail "$LABEL: classes loaded from jars that were not rewritten"; echo "$from" | sed 's/^/       /'
    fi
    if [ ! -s "$p" ]; then fail "$LABEL: the profile is written at exit"; return 0; fi
    expect_exit 0 "$LABEL: cccp-report stats reads the profile at exit" "$REPORT" stats "$p"
    echo "$out" | sed -n '1p;/^threads/,$p' | sed 's/^/       /'
    expect_exit 0 "$LABEL: cccp-report top reads it" "$REPORT" top --merge-threads -n 5 "$p"
    got=$(calls_of "$p")
    if [ "$got" = "$((w - RW)) $((j - RJ))" ]; then
      pass "$LABEL: Service.work and Service.json calls in the profile are the requests served$([ $RW = 0 ] || echo ' since the last reset') ($got)"
    else
      fail "$LABEL: Service.work/json calls in the profile $got, the service counted $((w - RW)) $((j - RJ))"
    fi
  fi
  echo "       $LABEL: $((SECONDS - t0)) s"
}

echo "-- build the service, instrument its class path"
check "compile the service ($(basename "${SERVICE_LIBS[0]}") and $((${#SERVICE_LIBS[@]} - 1)) more jars)" \
  service_build "$JDK17" "$T/app/service.jar"
CP=$(IFS=:; echo "$T/app/service.jar:${SERVICE_LIBS[*]}")
expect_exit 0 "instrument the service and its $((${#SERVICE_LIBS[@]})) jars (default options)" \
  "$REWRITE" -q "$T/app/service.jar" "${SERVICE_LIBS[@]}" -o "$T/inst/"
ICP="$T/inst/service.jar"
for j in "${SERVICE_LIBS[@]}"; do ICP="$ICP:$T/inst/$(basename "$j")"; done

for J in "${JDKS[@]}"; do
  v=$(jdk_version "$J")
  echo "-- JDK $v"
  run_service "jdk$v-plain" plain "$J/bin/java" -cp "$CP"
  run_service "jdk$v-cccp" inst "$J/bin/java" @"$T/inst/cccp.args" \
    -Dcccp.out="$T/jdk$v-cccp/cct.xml" \
    -Xlog:class+load=info:file="$T/jdk$v-cccp/load.log":none -cp "$ICP"
done

# The same under a budget that the service's start-up already spends
# (about a tenth of its tree): the handlers' calls fold, and each
# interval still holds exactly the requests served in it; the trees
# stay within the budget.
J=${JDKS[${#JDKS[@]} - 1]}
v=$(jdk_version "$J")
echo "-- JDK $v, a budget of 1000 nodes"
run_service "jdk$v-budget" inst "$J/bin/java" @"$T/inst/cccp.args" \
  -Dcccp.budget=1000 -Dcccp.out="$T/jdk$v-budget/cct.xml" \
  -Xlog:class+load=info:file="$T/jdk$v-budget/load.log":none -cp "$ICP"
p="$T/jdk$v-budget/cct.xml"
attr() { sed -n '2s/.* '"$1"'="\([0-9]*\)".*/\1/p' "$2"; }
for f in "$T/jdk$v-budget"/snap-*.xml "$p"; do
  [ -s "$f" ] || continue
  b=$(attr tree-bytes "$f"); l=$(attr budget "$f"); c=$(attr folded-calls "$f")
  check "jdk$v-budget: $(basename "$f"): within the budget ($b of $l bytes), calls folded ($c)" \
    test -n "$b" -a "${b:-1}" -le "${l:-0}" -a "${c:-0}" -gt 0
done

echo "  test_service.sh took $((SECONDS - START)) s"
finish
