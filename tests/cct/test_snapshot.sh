#!/usr/bin/env bash
# cccp-report dump: snapshots of a running instrumented JVM. The program
# (tests/programs/snapshot) pauses between two phases; a snapshot taken in
# the pause is a profile holding the first phase's calls only, and the
# program then runs on, prints and exits as it does without cccp. Two
# snapshots in a row, a relative -o, the reply waited for as long as the
# JVM writes (a FIFO nobody reads holds it up), --timeout, a JVM that
# exits during a snapshot, -Xcheck:jni silent. App mode on JDK 17 and 25
# (where installed), JDK mode on JDK 17. And the refusals, each with its
# message and exit status, none touching the target: not a number, a
# process that is not a JVM or has exited, a JVM without cccp (its output
# unchanged, no attach socket made), another user's JVM (as root: a JVM
# of nobody's is dumped), -Xrs without its socket,
# -XX:+DisableAttachMechanism, an agent replaced on disk (rewriting into
# the folder again keeps the same bytes).
#
# Environment: CCCP_REWRITE, CCCP_REPORT, BUILD, JDK17, JDK25.
set -u
source "$(dirname "$0")/../lib.sh"

SRC="$ROOT/tests/programs/snapshot"
T=$(mktemp -d)
T=$(cd "$T" && pwd -P)
chmod 755 "$T"          # a JVM of nobody's reads the program there
PIDS=()
# the programs this suite started, if a check left one waiting
cleanup() {
  local p
  for p in "${PIDS[@]}"; do kill -9 "$p" 2>/dev/null; done
  rm -rf "$T"
}
trap cleanup EXIT
cd "$T"

make -s -C "$ROOT" BUILD="$BUILD" "$BUILD/cccp-rt.jar" "$BUILD/libcccp-agent.so" \
  $([ -n "${CCCP_REPORT:-}" ] || echo bin/cccp-report) \
  $([ -n "${CCCP_REWRITE:-}" ] || echo bin/cccp-rewrite) >/dev/null ||
  { fail "build cccp-rt.jar, libcccp-agent.so and the tools"; finish; exit 1; }
use_jdks

# launch NAME CMD...: runs CMD (a JVM running snap.Main $T/NAME) in the
# background, its output in $T/NAME.out and $T/NAME.err, and waits (at
# most a minute) for its pause; P is its pid.
launch() {
  local name=$1 i
  shift
  rm -f "$T/$name" "$T/$name.ready"
  "$@" >"$T/$name.out" 2>"$T/$name.err" &
  P=$!
  PIDS+=("$P")
  for ((i = 0; i < 600; i++)); do
    [ -f "$T/$name.ready" ] && return 0
    kill -0 "$P" 2>/dev/null || break
    sleep 0.1
  done
  fail "$name: the program did not reach its pause"
  return 1
}

# resume NAME: ends the pause and waits for the program; RC its status.
resume() {
  touch "$T/$1"
  RC=0
  wait "$P" || RC=$?
}

# same_run NAME WHAT: the program NAME exited, printed and wrote on stderr
# what the plain run did (status 3, two lines, nothing).
same_run() {
  check "$2: exits as without cccp (status $PRC)" test "$RC" = "$PRC"
  check "$2: prints what it prints without cccp" cmp "$T/$1.out" "$T/plain.out"
  check "$2: nothing on its stderr" cmp "$T/$1.err" "$T/plain.err"
}

# fifo_wait PID: until the JVM's Attach Listener thread waits in the
# open of a FIFO for a reader (at most 5 s: the kernel may not say).
fifo_wait() {
  local i t
  for ((i = 0; i < 50; i++)); do
    for t in /proc/$1/task/*; do
      [ "$(cat "$t/comm" 2>/dev/null)" = "Attach Listener" ] &&
        [ "$(cat "$t/wchan" 2>/dev/null)" = wait_for_partner ] && return
    done
    sleep 0.1
  done
}

# work_calls PROFILE: the calls of snap.Main.work in it.
work_calls() {
  "$REPORT" folded "$1" | sed -n 's#.*snap/Main\.work \([0-9]*\)$#\1#p' |
    awk '{ n += $1 } END { print n + 0 }'
}

check "compile the program" "$JDK17/bin/javac" -d "$T/cls" "$SRC/snap/Main.java"
check "jar it" "$JDK17/bin/jar" cf "$T/snap.jar" -C "$T/cls" .
touch "$T/plain"
PRC=0
"$JDK17/bin/java" -cp "$T/snap.jar" snap.Main "$T/plain" >"$T/plain.out" \
  2>"$T/plain.err" || PRC=$?
check "the plain run prints its two phases and exits 3" \
  test "$PRC" = 3 -a "$(wc -l <"$T/plain.out")" = 2

for J in "${JDKS[@]}"; do
  v=$(jdk_version "$J")
  o=$T/app$v
  echo "-- JDK $v, app mode"
  expect_exit 0 "JDK $v: rewrite the program" env JAVA_HOME="$J" "$REWRITE" -q \
    "$T/snap.jar" -o "$o/"
  check "JDK $v: the options file loads the agent copied beside the runtime" \
    bash -c "grep -qxF -- '-agentpath:$o/libcccp-agent.so=boot,app=$o/cccp.summary' '$o/cccp.args' &&
             cmp '$o/libcccp-agent.so' '$ROOT/$BUILD/libcccp-agent.so'"
  launch r$v "$J/bin/java" @"$o/cccp.args" -Dcccp.out="$T/r$v-exit.xml" \
    -cp "$o/snap.jar" snap.Main "$T/r$v" || continue
  expect_exit 0 "JDK $v: a snapshot in the pause" "$REPORT" dump "$P" -o "$T/r$v-1.xml"
  check "JDK $v: nothing printed without -v" test -z "$out$err"
  expect_exit 0 "JDK $v: it is a profile (stats reads it)" "$REPORT" stats "$T/r$v-1.xml"
  check "JDK $v: holding the first phase's 1000 calls of work (got $(work_calls "$T/r$v-1.xml"))" \
    test "$(work_calls "$T/r$v-1.xml")" = 1000
  mkdir -p "$T/sub"
  expect_exit 0 "JDK $v: a second one, -o relative to the folder of cccp-report, -v" \
    bash -c "cd '$T/sub' && '$REPORT' dump -v '$P' -o r$v-2.xml"
  expect_match "^cccp-report: process $P wrote $T/sub/r$v-2.xml$" "JDK $v: -v names the file" "$err"
  expect_exit 0 "JDK $v: a profile too" "$REPORT" stats "$T/sub/r$v-2.xml"
  check "JDK $v: the program runs on" kill -0 "$P"
  check "JDK $v: no attach trigger left in its folder" \
    bash -c "! ls -a '$T' | grep -q '^\.attach_pid'"
  resume r$v
  same_run r$v "JDK $v"
  check "JDK $v: the profile at exit holds all 6000 calls of work (got $(work_calls "$T/r$v-exit.xml"))" \
    test "$(work_calls "$T/r$v-exit.xml")" = 6000
done

A=$T/app17
echo "-- the reply is waited for (JDK 17, -Xcheck:jni)"
mkfifo "$T/fifo"
if launch f "$JDK17/bin/java" -Xcheck:jni @"$A/cccp.args" -Dcccp.out="$T/f-exit.xml" \
     -cp "$A/snap.jar" snap.Main "$T/f"; then
  expect_exit 6 "--timeout 1 while the JVM cannot write (a FIFO nobody reads)" \
    "$REPORT" dump "$P" -o "$T/fifo" --timeout 1
  expect_match "^cccp-report: process $P did not answer within 1 s \(--timeout\); the snapshot may still be written$" \
    "says so" "$err"
  cat "$T/fifo" >"$T/fifo-1.xml"
  expect_exit 0 "that snapshot is written once the FIFO is read" "$REPORT" stats "$T/fifo-1.xml"
  "$REPORT" dump "$P" -o "$T/fifo" >/dev/null 2>"$T/d.err" &
  D=$!
  fifo_wait "$P"
  sleep 2
  cat "$T/fifo" >"$T/fifo-2.xml"
  drc=0
  wait "$D" || drc=$?
  check "without --timeout a snapshot that takes 2 s is waited for" \
    test "$drc" = 0 -a ! -s "$T/d.err"
  expect_exit 0 "--reset is passed on" "$REPORT" dump "$P" -o "$T/f-3.xml" --reset
  if [ "$(id -u)" = 0 ]; then
    expect_exit 5 "another user's JVM (dumped as nobody)" setpriv --reuid=nobody \
      --regid=nogroup --clear-groups "$REPORT" dump "$P" -o /tmp/x.xml
    expect_match "^cccp-report: process $P belongs to user root \(uid 0\): only that user or root can dump it$" \
      "says whose it is" "$err"
  fi
  "$REPORT" dump "$P" -o "$T/fifo" >/dev/null 2>"$T/d.err" &
  D=$!
  fifo_wait "$P"
  resume f
  drc=0
  wait "$D" || drc=$?
  check "a JVM that exits during the snapshot: exit 6" test "$drc" = 6
  check "... and says so" grep -qx "cccp-report: process $P exited during the snapshot" "$T/d.err"
  same_run f "the JVM of these snapshots"
  expect_exit 0 "its profile at exit is written" "$REPORT" stats "$T/f-exit.xml"
fi

echo "-- refusals (JDK 17)"
expect_exit 2 "a pid that is not a number" "$REPORT" dump 12x -o "$T/x.xml"
expect_match '^cccp-report: dump: "12x" is not a process id$' "says so" "$err"
expect_exit 2 "no -o" "$REPORT" dump 1
sleep 60 &
S=$!
PIDS+=("$S")
expect_exit 5 "a process that is not a JVM" "$REPORT" dump "$S" -o "$T/x.xml"
expect_match "^cccp-report: process $S \(sleep\) is not a JVM$" "says so" "$err"
kill "$S"
wait "$S" 2>/dev/null
expect_exit 5 "a process that has exited" "$REPORT" dump "$S" -o "$T/x.xml"
expect_match "^cccp-report: process $S does not exist$" "says so" "$err"
if launch u "$JDK17/bin/java" -cp "$T/snap.jar" snap.Main "$T/u"; then
  expect_exit 5 "a JVM that runs without cccp" "$REPORT" dump "$P" -o "$T/x.xml"
  expect_match "^cccp-report: process $P \(java\) runs no cccp runtime: start it with java @DIR/cccp.args" \
    "says how to start it" "$err"
  check "... and made no attach socket" test ! -e "/tmp/.java_pid$P"
  resume u
  same_run u "the JVM without cccp"
fi
check "no snapshot written by any of these" test ! -e "$T/x.xml"
if launch x "$JDK17/bin/java" -Xrs @"$A/cccp.args" -Dcccp.out="$T/x-exit.xml" \
     -cp "$A/snap.jar" snap.Main "$T/x"; then
  expect_exit 0 "-Xrs: the attach listener starts with the JVM: a snapshot" \
    "$REPORT" dump "$P" -o "$T/x-1.xml"
  rm -f "/tmp/.java_pid$P"
  expect_exit 5 "-Xrs, its attach socket removed: refused" "$REPORT" dump "$P" -o "$T/x.xml"
  expect_match "^cccp-report: process $P has no attach socket and (ignores|does not catch) SIGQUIT \(started with -Xrs\?\)" \
    "says why" "$err"
  resume x
  same_run x "the JVM with -Xrs"
fi
if launch n "$JDK17/bin/java" -XX:+DisableAttachMechanism @"$A/cccp.args" \
     -Dcccp.out="$T/n-exit.xml" -cp "$A/snap.jar" snap.Main "$T/n"; then
  expect_exit 5 "-XX:+DisableAttachMechanism: refused" "$REPORT" dump "$P" -o "$T/x.xml"
  expect_match "^cccp-report: process $P was started with -XX:\+DisableAttachMechanism" \
    "says why" "$err"
  resume n
  same_run n "the JVM without attach (no thread dump)"
fi

expect_exit 0 "rewrite the program once more" "$REWRITE" -q "$T/snap.jar" -o "$T/rep/"
if launch e "$JDK17/bin/java" @"$T/rep/cccp.args" -Dcccp.out="$T/e-exit.xml" \
     -cp "$T/rep/snap.jar" snap.Main "$T/e"; then
  expect_exit 0 "rewriting into its folder again keeps the agent it loaded" \
    "$REWRITE" -q "$T/snap.jar" -o "$T/rep/"
  expect_exit 0 "so it is dumped" "$REPORT" dump "$P" -o "$T/e-1.xml"
  cp "$T/rep/libcccp-agent.so" "$T/other.so" && echo >>"$T/other.so" &&
    mv "$T/other.so" "$T/rep/libcccp-agent.so"
  expect_exit 5 "its agent replaced on disk: refused" "$REPORT" dump "$P" -o "$T/x.xml"
  expect_match "^cccp-report: process $P: its $T/rep/libcccp-agent.so was removed or replaced after it started" \
    "says why" "$err"
  resume e
  same_run e "the JVM whose agent was replaced"
fi

if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null; then
  echo "-- a JVM of nobody's (JDK 17)"
  mkdir -p "$T/nb" && chmod 777 "$T/nb"
  NOBODY=(setpriv --reuid=nobody --regid=nogroup --clear-groups)
  if launch nb/b "${NOBODY[@]}" "$JDK17/bin/java" @"$A/cccp.args" \
       -Dcccp.out="$T/nb/exit.xml" -cp "$A/snap.jar" snap.Main "$T/nb/b"; then
    expect_exit 0 "root dumps it (its working folder is not its to write: the trigger goes to /tmp)" \
      "$REPORT" dump "$P" -o "$T/nb/1.xml"
    check "the JVM wrote the file as nobody" test "$(stat -c %U "$T/nb/1.xml")" = nobody
    expect_exit 0 "nobody dumps its own JVM" "${NOBODY[@]}" "$REPORT" dump "$P" -o "$T/nb/2.xml"
    expect_exit 3 "a file the JVM cannot write" "$REPORT" dump "$P" -o "$T/3.xml"
    expect_match "^cccp-report: process $P could not write $T/3.xml as user nobody \(uid 65534\)$" \
      "says so, and as whom" "$err"
    check "no attach trigger left in /tmp" test ! -e "/tmp/.attach_pid$P"
    resume nb/b
    same_run nb/b "nobody's JVM"
  fi
else
  echo "  skip JVMs of other users: not root, or no setpriv"
fi

echo "-- JDK mode (JDK 17)"
expect_exit 0 "instrument JDK 17" "$REWRITE" -q --jdk "$JDK17" -o "$T/jdk"
check "its options file loads the agent copied beside it" \
  grep -qxF -- "-agentpath:$T/jdk/libcccp-agent.so" "$T/jdk/cccp.args"
expect_exit 0 "the program against its summary" "$REWRITE" -q --summary \
  "$T/jdk/jdk.summary" "$T/snap.jar" -o "$T/japp/"
if launch j "$JDK17/bin/java" @"$T/japp/cccp.args" -Dcccp.out="$T/j-exit.xml" \
     -cp "$T/japp/snap.jar" snap.Main "$T/j"; then
  expect_exit 0 "JDK mode: a snapshot in the pause" "$REPORT" dump "$P" -o "$T/j-1.xml"
  expect_exit 0 "JDK mode: a profile" "$REPORT" stats "$T/j-1.xml"
  check "JDK mode: holding the first phase's 1000 calls of work (got $(work_calls "$T/j-1.xml"))" \
    test "$(work_calls "$T/j-1.xml")" = 1000
  check "JDK mode: with the JDK's methods (String.charAt under main)" \
    bash -c "'$REPORT' folded '$T/j-1.xml' | grep -q '^\[main\];.*java/lang/String\.charAt '"
  resume j
  same_run j "JDK mode"
  check "JDK mode: the profile at exit holds all 6000 calls of work" \
    test "$(work_calls "$T/j-exit.xml")" = 6000
fi
finish
