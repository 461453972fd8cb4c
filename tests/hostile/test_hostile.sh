#!/usr/bin/env bash
# Hostile inputs never hurt (issue 6): thousands of mutants of real classes,
# jars, jmods and jimages, cyclic hierarchies, policy files and summaries,
# zip bombs and dangerous entry names, through every mode (campaign.py),
# then atomic output: SIGKILL in the middle of a whole-JDK run, a full disk,
# a file-size limit, a read-only folder, an output that is an input.
# Bounded: about two minutes with the normal build. Knobs: CCCP_REWRITE
# (e.g. an ASan build), HOSTILE_SCALE (mutant count factor, default 1),
# HOSTILE_SEED, JDK17.
set -u
source "$(dirname "$0")/../lib.sh"

JDK17=${JDK17:-/usr/lib/jvm/java-17-openjdk-amd64}
SCALE=${HOSTILE_SCALE:-1}
SEED=${HOSTILE_SEED:-20260}
HERE="$ROOT/tests/hostile"
CMP="$TOOLS/cmp-entries"
EX="$ROOT/$BUILD/examples/wordfreq.jar"
# the instrumentation (mode --cccp) copies the runtime jar next to outputs
export CCCP_RT=${CCCP_RT:-$ROOT/$BUILD/cccp-rt.jar}
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:exitcode=86}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:exitcode=87}
T=$(mktemp -d /tmp/cccp-hostile.XXXXXX)
MOUNTS=()
cleanup() {
  for m in "${MOUNTS[@]}"; do umount "$m" 2>/dev/null; done
  rm -rf "$T"
}
trap cleanup EXIT

if [ ! -x "$CMP" ] || [ ! -d "$JDK17/jmods" ]; then
  echo "  skip: needs $CMP (make tools) and $JDK17/jmods"
  finish; exit
fi

# no_sanitizer_report TEXT: fails the suite on an ASan/UBSan/LSan report.
no_san() {
  if printf '%s' "$1" | grep -Eq 'Sanitizer|runtime error:'; then
    fail "sanitizer report: $(printf '%s' "$1" | grep -E 'Sanitizer|runtime error' | head -2)"
  fi
}

# one_error TEXT FILE: exactly one non-warning line, naming FILE.
one_error() {
  local lines
  lines=$(printf '%s\n' "$1" | grep -v '^cccp-rewrite: warning:' | grep -c .)
  [ "$lines" -eq 1 ] && printf '%s' "$1" | grep -q "^cccp-rewrite: $2"
}

echo "-- mutant campaign (seed $SEED, scale $SCALE)"
for section in classes jars jmods jimages realimage bombs names modes aux; do
  log="$T/campaign-$section.log"
  python3 "$HERE/campaign.py" --rewrite "$REWRITE" --cmp "$CMP" \
    --work "$T/work" --jdk "$JDK17" --example "$EX" --seed "$SEED" \
    --scale "$SCALE" "$section" >"$log" 2>&1
  rc=$?
  grep -v '^  FAIL' "$log" | grep -v '^campaign:' | sed 's/^/       /'
  if [ $rc -eq 0 ]; then
    pass "$section: every mutant rejected cleanly or copied exactly"
  else
    fail "$section: $(grep -c '^  FAIL' "$log") broken runs"
    grep '^  FAIL' "$log" | cut -c1-300 | sort | uniq -c | sort -rn | \
      head -12 | sed 's/^/       /'
  fi
done
rm -rf "$T/work"

echo "-- atomic output: SIGKILL during a whole-JDK run"
# kill_run WHEN OUT ARGS...: start a run, SIGKILL it after WHEN seconds
# ("1.0") or as soon as WHEN jars exist in OUT ("jars:N", the commit
# phase: jars are renamed into place one after the other at the very end).
kill_run() {
  local when=$1 out=$2; shift 2
  "$REWRITE" -q "$@" -o "$out/" 2>/dev/null &
  local pid=$! n=0 t=0
  if [ "${when#jars:}" != "$when" ]; then
    while kill -0 "$pid" 2>/dev/null && [ $t -lt 6000 ]; do
      n=$(compgen -G "$out/*.jar" | wc -l)
      [ "$n" -ge "${when#jars:}" ] && break
      sleep 0.005; t=$((t + 1))
    done
  else
    sleep "$when"
  fi
  kill -KILL "$pid" 2>/dev/null
  wait "$pid" 2>/dev/null
}
# check_jars OUT SOURCE: every jar in OUT is complete (SOURCE: the image,
# or the jmods folder); echoes "present partial temps".
check_jars() {
  local out=$1 src=$2 n=0 bad=0 j m
  for j in "$out"/*.jar; do
    [ -e "$j" ] || continue
    n=$((n + 1)); m=$(basename "$j" .jar)
    if [ -d "$src" ]; then set -- "$src/$m.jmod"; else set -- -m "$m" "$src"; fi
    if ! unzip -tq "$j" >/dev/null 2>&1 || ! "$CMP" "$@" "$j" >/dev/null 2>&1; then
      bad=$((bad + 1)); echo "       partial output: $j" >&2
    fi
  done
  echo "$n $bad $(ls -A "$out" 2>/dev/null | grep -c '\.cccp-')"
}
IMG="$JDK17/lib/modules"
partial=0; trial=0
for spec in "1.0 --jdk $JDK17" "jars:1 --jdk $JDK17" "jars:20 $JDK17/jmods"; do
  trial=$((trial + 1))
  set -- $spec
  when=$1; shift
  if [ "$1" = --jdk ]; then src=$IMG; args=(--identity --jdk "$2")
  else src=$1; args=(--identity "$1"/*.jmod); fi
  kill_run "$when" "$T/kill$trial" "${args[@]}"
  read -r n bad temps < <(check_jars "$T/kill$trial" "$src")
  partial=$((partial + bad))
  echo "       kill $trial (${when}, $(basename "$src")): $n jars present, $bad partial, $temps temporary files left"
done
[ "$partial" -eq 0 ] && pass "after $trial SIGKILLs every jar present is complete" \
  || fail "$partial partial jars after SIGKILL"
# a new run into a folder that holds a killed run's leftovers
expect_exit 0 "a new run over a killed run's leftovers" "$REWRITE" -q --identity --jdk "$JDK17" -o "$T/kill2/"
no_san "$err"
read -r n bad temps < <(check_jars "$T/kill2" "$IMG")
[ "$n" -eq "$(ls "$JDK17/jmods" | wc -l)" ] && [ "$bad" -eq 0 ] &&
  pass "it writes every module completely ($n jars; $temps stale temporary files stay)" ||
  fail "after a rerun: $n jars, $bad partial"
rm -rf "$T"/kill*

echo "-- atomic output: full disk, file-size limit, read-only folder"
JMOD="$JDK17/jmods/java.base.jmod"
SMALL="$JDK17/jmods/java.logging.jmod"
mkdir -p "$T/full4m"
if mount -t tmpfs -o size=4m tmpfs "$T/full4m" 2>/dev/null; then
  MOUNTS+=("$T/full4m")
  expect_exit 3 "full disk: exit 3" "$REWRITE" -q --identity "$JMOD" -o "$T/full4m/java.base.jar"
  no_san "$err"
  expect_match "java.base.jar: .*No space left on device" "full disk: message names the output and the cause" "$err"
  check "full disk: one message only" one_error "$err" "$T/full4m/java.base.jar"
  check "full disk: nothing left behind" test -z "$(ls -A "$T/full4m")"
  # the first jar fits, the second does not: neither may stay
  expect_exit 3 "full disk, two jmods into a folder: exit 3" "$REWRITE" -q --identity "$SMALL" "$JMOD" -o "$T/full4m/d/"
  check "full disk: no jar committed when a later one fails" test -z "$(ls -A "$T/full4m/d" 2>/dev/null)"
else
  echo "  skip full-disk tests: cannot mount a tmpfs (not root?)"
fi

# RLIMIT_FSIZE: by default the kernel kills the writer with SIGXFSZ.
rc=0
( ulimit -f 2048; exec "$REWRITE" -q --identity "$JMOD" -o "$T/fsize.jar" ) 2>"$T/err" || rc=$?
err=$(cat "$T/err"); no_san "$err"
left=$(ls -A "$T" | grep -c 'fsize.jar')
if [ "$rc" -eq 3 ] && [ "$left" -eq 0 ]; then
  pass "file-size limit: exit 3 and nothing left"
else
  fail "file-size limit: exit $rc (wanted 3), $left files left ($(ls -A "$T" | grep fsize.jar | tr '\n' ' '))"
fi
rm -f "$T"/.fsize.jar.cccp-* "$T/fsize.jar"
rc=0
( trap '' XFSZ; ulimit -f 2048; exec "$REWRITE" -q --identity "$JMOD" -o "$T/fsize.jar" ) 2>"$T/err" || rc=$?
err=$(cat "$T/err"); no_san "$err"
[ "$rc" -eq 3 ] && pass "file-size limit, SIGXFSZ ignored: exit 3" || fail "file-size limit, SIGXFSZ ignored: exit $rc"
expect_match "fsize.jar: .*(too large|File too large)" "file-size limit: message names the cause" "$err"
check "file-size limit: nothing left" test -z "$(ls -A "$T" | grep fsize.jar)"

mkdir -p "$T/ro"
if mount -t tmpfs -o size=1m tmpfs "$T/ro" 2>/dev/null && mkdir -p "$T/ro/sub" &&
   mount -o remount,ro "$T/ro" 2>/dev/null; then
  MOUNTS+=("$T/ro")
  t0=$(date +%s%N)
  expect_exit 3 "read-only folder: exit 3" "$REWRITE" -q --identity --jdk "$JDK17" -o "$T/ro/sub/"
  t1=$(date +%s%N)
  expect_match "Read-only file system" "read-only folder: message says why" "$err"
  ms=$(( (t1 - t0) / 1000000 ))
  [ "$ms" -lt 1000 ] && pass "read-only folder: refused before the work (${ms} ms)" \
    || fail "read-only folder: refused only after ${ms} ms"
  expect_exit 3 "read-only folder, new subfolder: exit 3" "$REWRITE" -q --identity "$EX" -o "$T/ro/new/"
  expect_exit 3 "read-only folder, jar: exit 3" "$REWRITE" -q --identity "$EX" -o "$T/ro/x.jar"
  check "read-only folder: untouched" test "$(ls -A "$T/ro")" = sub
else
  echo "  skip read-only folder tests: cannot mount a read-only tmpfs"
fi

echo "-- output names"
# The temporary file adds 14 bytes to the name (".NAME.cccp-XXXXXX"): an
# output name that is legal (<= 255 bytes) must not fail because of it.
long=$(printf 'n%.0s' $(seq 1 246))
mkdir -p "$T/long" && cp "$EX" "$T/long/$long.jar"
expect_exit 0 "a 250-byte output file name" "$REWRITE" -q --identity "$T/long/$long.jar" -o "$T/long/out/"
check "it is written completely" "$CMP" "$T/long/$long.jar" "$T/long/out/$long.jar"

echo "-- atomic output: the output is an input"
mkdir -p "$T/same" && cp "$EX" "$T/same/in.jar" && cp "$EX" "$T/pristine.jar"
ln -s "$T/same/in.jar" "$T/same/link.jar"
ln "$T/same/in.jar" "$T/same/hard.jar"
for o in "$T/same/in.jar" "$T/same/./in.jar" "$T/same/../same/in.jar" \
         "$T/same/link.jar" "$T/same/hard.jar" "$T/same/" "$T/same"; do
  expect_exit 2 "refused: -o ${o#$T/}" "$REWRITE" -q --identity "$T/same/in.jar" -o "$o"
done
(cd "$T/same" && "$REWRITE" -q --identity in.jar -o in.jar 2>/dev/null); rc=$?
[ "$rc" -eq 2 ] && pass "refused: relative -o in.jar" || fail "relative -o in.jar: exit $rc"
check "the input is untouched" cmp "$T/pristine.jar" "$T/same/in.jar"
check "no temporary file beside it" test -z "$(ls -A "$T/same" | grep cccp-)"
mkdir -p "$T/cls" && unzip -q -o "$EX" -d "$T/cls"
C="$(find "$T/cls" -name '*.class' | head -1)"
cp "$C" "$T/pristine.class"
expect_exit 2 "refused: a class onto itself" "$REWRITE" -q --identity "$C" -o "$C"
check "the class is untouched" cmp "$T/pristine.class" "$C"

finish
