#!/usr/bin/env bash
# HotSpot's own verifier, and ASM's on a sample, judge cccp-rewrite outputs.
#
# For each JDK (17; 25 when installed) the whole class library is rewritten
# with --jdk, then every class of every module is loaded and linked (so
# verified) on that same JDK with the rewritten module jars patched in
# (--patch-module, -XX:+BytecodeVerificationLocal so that boot classes are
# verified too, -Xshare:off) and compared with the same run on the
# unmodified JDK: only NEW failures count. The same for the jars of the
# Debian packages .ci/deps installs and their dependencies (deps_jar_dir
# in tests/lib.sh; every jar under /usr/share/java with CCCP_ALL_JARS=1,
# make check-machine), one child-first loader per jar, the other jars as
# dependencies. HotSpot's verifier is the judge: a class HotSpot verified
# before and rejects after is a new failure, whatever the message, and so
# is a class ASM's analyzer accepted before and rejects after; a method
# ASM's analyzer already rejected in the original is not a new failure
# because its message changed (ASM loads classes HotSpot never asks for,
# and reports the first it misses). A self-test first proves that broken
# classes are caught.
#
# Environment:
#   CCCP_VERIFY_MODE       rewrite mode to judge (default --identity; e.g.
#                          --reencode, --stress-probes, --cccp: jars only,
#                          with the runtime jar on the boot class path). A
#                          mode cccp-rewrite rejects is skipped with a message.
#   CCCP_VERIFY_ASM_EVERY  ASM checks one class in N (default 20; 1 = all)
#   CCCP_VERIFY_JARS       directory of application jars (default: the
#                          jars of .ci/deps' packages, see deps_jar_dir)
#   CCCP_VERIFY_CP         extra jars (colon-separated) the rewritten
#                          application jars may need (e.g. a probe runtime)
#   CCCP_VERIFY_JVM_OPTS   extra options for the JVMs that run rewritten code
#   CCCP_VERIFY_KEEP=1     keep the work directory (results, logs) and print it
#   CCCP_VERIFY_SELFTEST=0 skip the self-tests (they do not depend on the
#                          mode: a run of several modes needs them once)
#   CCCP_VERIFY_CACHE=DIR  keep the baseline results (the runs on the
#                          unmodified JDKs and jars, which do not depend on
#                          the mode) in DIR, and take them from there when
#                          a run with the same inputs completed: a run of
#                          several modes computes each baseline once
#   CCCP_VERIFY_SAMPLE=N   link and check (HotSpot and ASM) the rewritten
#                          application jars of a sample only: the jars that
#                          tests/verify/sample-jars.txt names, plus one in N
#                          of the others (chosen by a hash of the jar's name
#                          and the mode, so each mode checks other ones).
#                          Every jar is still rewritten. Default 1: all.
#   CCCP_REWRITE           cccp-rewrite binary (default bin/cccp-rewrite)
#   JDK17, JDK25           JDK homes (default: the ones under /usr/lib/jvm)
set -u
export LC_ALL=C   # one sort order for module and jar lists
source "$(dirname "$0")/../lib.sh"

MODE=${CCCP_VERIFY_MODE:---identity}
REWRITE=${CCCP_REWRITE:-$REWRITE}
EVERY=${CCCP_VERIFY_ASM_EVERY:-20}
JARDIR=${CCCP_VERIFY_JARS:-}
EXTRA_OPTS=${CCCP_VERIFY_JVM_OPTS:-}
if [ "$MODE" = --cccp ] && [ -z "${CCCP_VERIFY_JVM_OPTS:-}" ]; then
  # instrumented classes need the runtime on the boot class path
  EXTRA_OPTS="-Xbootclasspath/a:${CCCP_RT:-$ROOT/${BUILD:-build}/cccp-rt.jar}"
fi
JDK17=${JDK17:-/usr/lib/jvm/java-17-openjdk-amd64}
if [ -z "${JDK25:-}" ]; then
  for d in /usr/lib/jvm/*25*; do [ -x "$d/bin/java" ] && JDK25=$d && break; done
fi
JDK25=${JDK25:-}
HERE="$ROOT/tests/verify"
ASMCP=""
for a in asm asm-tree asm-analysis asm-util; do
  [ -f "/usr/share/java/$a.jar" ] && ASMCP="$ASMCP${ASMCP:+:}/usr/share/java/$a.jar"
done
[ "$(echo "$ASMCP" | tr : '\n' | grep -c .)" -eq 4 ] || ASMCP=""

T=$(mktemp -d)
if [ "${CCCP_VERIFY_KEEP:-0}" = 1 ]; then trap 'echo "work directory kept: $T"' EXIT
else trap 'rm -rf "$T"' EXIT; fi
mkdir -p "$T/logs"
[ -n "$JARDIR" ] || { JARDIR="$T/jars"; deps_jar_dir "$JARDIR" >/dev/null; }
CLS="$T/cls"
VOPT="-XX:+UnlockDiagnosticVMOptions -XX:+BytecodeVerificationLocal -Xshare:off"
START=$SECONDS
CACHE=${CCCP_VERIFY_CACHE:-}
[ -n "$CACHE" ] && mkdir -p "$CACHE"
SAMPLE=${CCCP_VERIFY_SAMPLE:-1}
FROM_CACHE=0   # baselines taken from $CACHE

# run LOG CMD...: runs CMD with its output in $T/logs/LOG; returns its status.
run() {
  local log="$T/logs/$1"; shift
  "$@" >"$log" 2>&1
}
# run_pair LOG1 LOG2 -- CMD1... -- CMD2...: both at once (2 cores: the
# baseline and the rewritten run of each check go side by side); sets
# rc1 and rc2.
run_pair() {
  local log1=$1 log2=$2; shift 3
  local a=()
  while [ "$1" != "--" ]; do a+=("$1"); shift; done
  shift
  run "$log1" "${a[@]}" & local pid=$!
  run "$log2" "$@"; rc2=$?
  wait $pid; rc1=$?
}
# cache_key WORD...: the name of a baseline result in $CACHE: a digest of
# the words that make the run (JDK, modules, jars, lists), of the size and
# time of each file among them, of the contents of the lists this run made
# (under $T, whose name changes from run to run), and of the harness.
cache_key() {
  {
    local a
    for a in "$@"; do
      case $a in
        "$T"/*) echo "${a#"$T"/}"; cat "$a" ;;
        *) echo "$a"; [ -f "$a" ] && stat -L -c '%s %Y' "$a" ;;
      esac
    done
    cat "$HERE/LinkCheck.java" "$HERE/AsmCheck.java"
  } | md5sum | cut -c1-32
}
# complete FILE: a result file of a run that went to its end.
complete() { [ "$(tail -1 "$1" 2>/dev/null)" = "# done" ]; }
# baseline_pair KEY LOG1 LOG2 OUT1 -- CMD1... -- CMD2...: run_pair, except
# that the baseline CMD1 (which writes OUT1) is not run when $CACHE holds
# a complete result under KEY (it is copied to OUT1), and that a complete
# OUT1 is kept there.
baseline_pair() {
  local key=$1 log1=$2 log2=$3 out1=$4; shift 4
  local c="$CACHE/$key.txt"
  if [ -n "$CACHE" ] && complete "$c"; then
    FROM_CACHE=$((FROM_CACHE + 1))
    cp "$c" "$out1"
    echo "baseline taken from $c" > "$T/logs/$log1"
    shift
    while [ "$1" != "--" ]; do shift; done
    shift
    run "$log2" "$@"; rc2=$?; rc1=0
    return
  fi
  run_pair "$log1" "$log2" "$@"
  if [ -n "$CACHE" ] && [ $rc1 -eq 0 ] && complete "$out1"; then
    cp "$out1" "$c.$$" && mv "$c.$$" "$c"
  fi
}
# cached_note N: says how many baselines came from $CACHE since the count
# was N.
cached_note() {
  [ $FROM_CACHE -gt "$1" ] && echo " ($((FROM_CACHE - $1)) baselines from an earlier run)"
}
# filter_jars FULL OUT JAR...: the lines of FULL (a "jars" result, of
# LinkCheck or AsmCheck) that belong to the given jars, into OUT. A jar's
# lines do not depend on the other jars of the run: each has its own
# loader, and the dependencies come from the same universe.
filter_jars() {
  local full=$1 out=$2; shift 2
  printf '%s\n' "${@##*/}" > "$T/filter.names"
  awk -F'\t' 'NR == FNR { want[$1] = 1; next }
    /^#/ { if ($0 == "# done") print; next }
    { j = $1; sub(/!.*/, "", j); if (j in want) print }' "$T/filter.names" "$full" > "$out.$$" &&
  mv "$out.$$" "$out"
}

# show LOG: the end of a log, indented (after a failure).
show() { grep -v "module-info.class ignored in patch\|Using incubator modules" "$T/logs/$1" | tail -${2:-12} | sed 's/^/       /'; }

# summary FILE: the "compare:" line of a compare log.
summary() { grep '^compare:' "$T/logs/$1" | tail -1; }
count_new() { summary "$1" | sed -n 's/.* \([0-9][0-9]*\) new failures.*/\1/p'; }
count_base() { summary "$1" | sed -n 's/.*, \([0-9][0-9]*\) baseline failures.*/\1/p'; }

# compare_ok WHAT BASE NEW LOG: passes when NEW has no failure BASE lacks.
compare_ok() {
  local what=$1 base=$2 new=$3 log=$4
  if run "$log" "$JAVA17" -cp "$CLS" LinkCheck compare "$base" "$new"; then
    pass "$what: $(summary "$log" | sed 's/^compare: //')"
  else
    fail "$what: $(summary "$log" | sed 's/^compare: //')"
    grep -v '^compare:' "$T/logs/$log" | head -40 | cut -c1-400 | sed 's/^/       /'
  fi
}

JAVA17="$JDK17/bin/java"
echo "-- harness ($MODE)"
if ! [ -x "$JAVA17" ]; then
  fail "JDK 17 at $JDK17 (needed to build and run the harness)"; finish; exit
fi
if [ -z "$ASMCP" ]; then
  echo "  skip ASM checks: no asm, asm-tree, asm-analysis, asm-util jars in /usr/share/java"
  check "harness compiles" "$JDK17/bin/javac" --release 17 -d "$CLS" "$HERE/LinkCheck.java"
else
  check "harness compiles" "$JDK17/bin/javac" --release 17 -cp "$ASMCP" -d "$CLS" \
    "$HERE/LinkCheck.java" "$HERE/AsmCheck.java"
fi

# ------------------------------------------------------------------ self-test
# selftest_jdk VERSION HOME: broken classes patched into a boot module
# (java.logging) and a platform module (java.sql) must be reported.
selftest_jdk() {
  local v=$1 java="$2/bin/java"
  local d="$T/self$v"
  mkdir -p "$d/logging/java/util/logging" "$d/sql/java/sql" "$d/base/java/lang"
  run "self$v-extract.log" "$java" -cp "$CLS" LinkCheck extract java.logging \
      java/util/logging/XMLFormatter.class "$d/XMLFormatter.class" &&
  run "self$v-extract.log" "$java" -cp "$CLS" LinkCheck extract java.sql \
      java/sql/Timestamp.class "$d/Timestamp.class" &&
  run "self$v-extract.log" "$java" -cp "$CLS" LinkCheck extract java.base \
      java/lang/Integer.class "$d/Integer.class" &&
  python3 "$HERE/corrupt.py" smt "$d/XMLFormatter.class" "$d/logging/java/util/logging/XMLFormatter.class" >/dev/null &&
  python3 "$HERE/corrupt.py" code "$d/Timestamp.class" "$d/sql/java/sql/Timestamp.class" >/dev/null &&
  python3 "$HERE/corrupt.py" smt "$d/Integer.class" "$d/base/java/lang/Integer.class" >/dev/null &&
  (cd "$d/logging" && zip -qr ../java.logging.jar .) &&
  (cd "$d/sql" && zip -qr ../java.sql.jar .) &&
  (cd "$d/base" && zip -qr ../java.base.jar .)
  if [ $? -ne 0 ]; then fail "JDK $v self-test: make the broken classes"; show "self$v-extract.log"; return; fi
  local patch="--patch-module java.logging=$d/java.logging.jar --patch-module java.sql=$d/java.sql.jar"

  run_pair "self$v-base.log" "self$v-new.log" \
    -- "$java" $VOPT -cp "$CLS" LinkCheck jdk "$d/base.txt" java.logging java.sql \
    -- "$java" $VOPT $patch -cp "$CLS" LinkCheck jdk "$d/new.txt" java.logging java.sql
  run "self$v-cmp.log" "$JAVA17" -cp "$CLS" LinkCheck compare "$d/base.txt" "$d/new.txt"
  local c="$T/logs/self$v-cmp.log"
  if [ "$(count_new "self$v-cmp.log")" = 2 ] &&
     grep -q "^NEW java.logging/java.util.logging.XMLFormatter	VerifyError: .*Expect.*stackmap frame" "$c" &&
     grep -q "^NEW java.sql/java.sql.Timestamp	VerifyError: .*Bad type on operand stack" "$c"; then
    pass "JDK $v self-test: broken boot-module and platform-module classes are the only new failures"
  else
    fail "JDK $v self-test: broken boot-module and platform-module classes are the only new failures"
    show "self$v-cmp.log"; show "self$v-new.log" 5
  fi

  # Control: without BytecodeVerificationLocal the boot class slips through.
  run "self$v-nolocal.log" "$java" -Xshare:off $patch -cp "$CLS" LinkCheck jdk "$d/nolocal.txt" java.logging java.sql
  run "self$v-cmp2.log" "$JAVA17" -cp "$CLS" LinkCheck compare "$d/base.txt" "$d/nolocal.txt"
  if [ "$(count_new "self$v-cmp2.log")" = 1 ] && grep -q "^NEW java.sql/java.sql.Timestamp" "$T/logs/self$v-cmp2.log"; then
    pass "JDK $v control: without -XX:+BytecodeVerificationLocal the boot class is not verified"
  else
    fail "JDK $v control: without -XX:+BytecodeVerificationLocal the boot class is not verified"
    show "self$v-cmp2.log"
  fi

  # A class the VM needs at startup: the VM dies, which must not pass.
  run "self$v-boot.log" "$java" $VOPT --patch-module java.base="$d/java.base.jar" -cp "$CLS" \
      LinkCheck jdk "$d/boot.txt" java.logging
  run "self$v-cmp3.log" "$JAVA17" -cp "$CLS" LinkCheck compare "$d/base.txt" "$d/boot.txt"
  local rc=$?
  if [ $rc -ne 0 ] && grep -q "VerifyError" "$T/logs/self$v-boot.log"; then
    pass "JDK $v self-test: a broken startup class (java.lang.Integer) kills the VM and fails the run"
  else
    fail "JDK $v self-test: a broken startup class (java.lang.Integer) kills the VM and fails the run"
    show "self$v-boot.log" 5
  fi

  if [ -n "$ASMCP" ]; then
    echo java.sql.Timestamp > "$d/also.txt"
    run_pair "self$v-asm1.log" "self$v-asm2.log" \
      -- "$java" -cp "$CLS:$ASMCP" AsmCheck jdk "$d/asm-base.txt" 1000000 --also "$d/also.txt" java.sql \
      -- "$java" $patch -cp "$CLS:$ASMCP" AsmCheck jdk "$d/asm-new.txt" 1000000 --also "$d/also.txt" java.sql
    run "self$v-asm3.log" "$JAVA17" -cp "$CLS" LinkCheck compare "$d/asm-base.txt" "$d/asm-new.txt"
    if grep -q "^NEW java.sql/java.sql.Timestamp.<init>.*analyzer" "$T/logs/self$v-asm3.log"; then
      pass "JDK $v self-test: ASM reports the broken constructor"
    else
      fail "JDK $v self-test: ASM reports the broken constructor"; show "self$v-asm3.log"
    fi
  fi
}

selftest_jars() {
  local d="$T/selfjar"
  mkdir -p "$d/c52" "$d/c51" "$d/good/vfix" "$d/bad/vfix" "$d/orig" "$d/broken"
  "$JDK17/bin/javac" --release 8 -d "$d/c52" "$HERE/fixture/Sample.java" 2>"$T/logs/selfjar.log" &&
  "$JDK17/bin/javac" --release 7 -nowarn -d "$d/c51" "$HERE/fixture/Sample50.java" 2>>"$T/logs/selfjar.log" &&
  cp "$d/c52/vfix/Sample.class" "$d/good/vfix/" &&
  python3 "$HERE/corrupt.py" v50 "$d/c51/vfix/Sample50.class" "$d/good/vfix/Sample50.class" >/dev/null &&
  python3 "$HERE/corrupt.py" code "$d/good/vfix/Sample.class" "$d/bad/vfix/Sample.class" >/dev/null &&
  python3 "$HERE/corrupt.py" smt "$d/good/vfix/Sample50.class" "$d/bad/vfix/Sample50.class" >/dev/null &&
  (cd "$d/good" && zip -qr "$d/orig/sample.jar" .) &&
  (cd "$d/bad" && zip -qr "$d/broken/sample.jar" .)
  if [ $? -ne 0 ]; then fail "jar self-test: make the broken classes"; show selfjar.log; return; fi
  : > "$d/uni.txt"
  run selfjar-base.log "$JAVA17" -cp "$CLS" LinkCheck jars "$d/base.txt" --universe "$d/uni.txt" "$d/orig/sample.jar"
  run selfjar-new.log "$JAVA17" -cp "$CLS" LinkCheck jars "$d/new.txt" --universe "$d/uni.txt" "$d/broken/sample.jar"
  run selfjar-cmp.log "$JAVA17" -cp "$CLS" LinkCheck compare "$d/base.txt" "$d/new.txt"
  if [ "$(count_new selfjar-cmp.log)" = 2 ] &&
     grep -q "^NEW sample.jar!vfix.Sample	VerifyError: .*Bad type on operand stack" "$T/logs/selfjar-cmp.log" &&
     grep -q "^NEW sample.jar!vfix.Sample50	VerifyError: .*stackmap frame" "$T/logs/selfjar-cmp.log"; then
    pass "jar self-test: broken classes of an application jar are caught (version 52 and 50)"
  else
    fail "jar self-test: broken classes of an application jar are caught (version 52 and 50)"
    show selfjar-cmp.log
  fi
  # Control: as plain version 50, HotSpot falls back to the old verifier,
  # which ignores the StackMapTable: the damaged table goes unnoticed.
  run selfjar-lax.log "$JAVA17" -cp "$CLS" LinkCheck jars "$d/lax.txt" --no-strict50 --universe "$d/uni.txt" "$d/broken/sample.jar"
  run selfjar-cmp2.log "$JAVA17" -cp "$CLS" LinkCheck compare "$d/base.txt" "$d/lax.txt"
  if [ "$(count_new selfjar-cmp2.log)" = 1 ] && ! grep -q "Sample50" "$T/logs/selfjar-cmp2.log"; then
    pass "jar control: without the 50->51 relabelling a broken version-50 StackMapTable passes"
  else
    fail "jar control: without the 50->51 relabelling a broken version-50 StackMapTable passes"
    show selfjar-cmp2.log
  fi
  if [ -n "$ASMCP" ]; then
    run selfjar-asm1.log "$JAVA17" -cp "$CLS:$ASMCP" AsmCheck jars "$d/asm-base.txt" 1 --universe "$d/uni.txt" "$d/orig/sample.jar"
    run selfjar-asm2.log "$JAVA17" -cp "$CLS:$ASMCP" AsmCheck jars "$d/asm-new.txt" 1 --universe "$d/uni.txt" "$d/broken/sample.jar"
    run selfjar-asm3.log "$JAVA17" -cp "$CLS" LinkCheck compare "$d/asm-base.txt" "$d/asm-new.txt"
    if grep -q "^NEW sample.jar!vfix.Sample.<init>(I)V	analyzer" "$T/logs/selfjar-asm3.log"; then
      pass "jar self-test: ASM reports the broken constructor"
    else
      fail "jar self-test: ASM reports the broken constructor"; show selfjar-asm3.log
    fi
  fi
}

# Does cccp-rewrite know the mode? (A usage error, status 2, says no.)
rc=0
"$REWRITE" -q $MODE "$CLS" -o "$T/probe.jar" >"$T/logs/probe.log" 2>&1 || rc=$?
MODE_OK=1
if [ $rc -eq 2 ]; then
  MODE_OK=0
  echo "  SKIP mode $MODE: cccp-rewrite rejects it ($(head -1 "$T/logs/probe.log")); only the self-tests run"
fi

echo "-- self-test: broken classes must be caught"
if [ "${CCCP_VERIFY_SELFTEST:-1}" = 0 ]; then
  echo "  skip: the self-tests ran with another mode (CCCP_VERIFY_SELFTEST=0)"
else
  selftest_jdk 17 "$JDK17"
  if [ -n "$JDK25" ] && [ -x "$JDK25/bin/java" ]; then selftest_jdk 25 "$JDK25"; fi
  selftest_jars
  echo "  self-tests took $((SECONDS - START))s"
fi
if [ $MODE_OK = 0 ]; then
  echo "  SKIP mode $MODE: not supported by $REWRITE"
  finish; exit
fi


# ------------------------------------------------------------ regressions
# Fixtures with a known answer (tests/verify/fixture/regress, one jar per
# directory), rewritten in the mode under test and linked on each JDK:
#   dupa + dupb   two inputs define vfix.dup.Twin, KidA and KidB with
#                 other superclasses (as jansi/jansi1, jline-1.0/jline2,
#                 byte-buddy/byte-buddy-dep); dupb's Twin, whose
#                 constructor calls a library super(...), and Chooser,
#                 which joins KidA and KidB as dupb defines them, must
#                 verify;
#   use           rewritten without dep.jar, so joins of its types cannot
#                 be computed from the hierarchy: the original
#                 StackMapTable's types must be kept (as h2's
#                 FullTextLucene, lucene-test-framework without lucene);
#   protsub       fails in the original too (a protected field read across
#                 two loaders' runtime packages), at another offset after
#                 a rewrite: the same failure, not a new one.
# ASM's analyzer checks every class too: use's Slot stores a class that is
# absent at check time (vfix.gone.Gone) where a twin has its extra
# parameter.
regress_jars() {
  local d="$T/regress" f=$HERE/fixture/regress p
  mkdir -p "$d/jar" "$d/out"
  : > "$T/logs/regress.log"
  for p in dupa dupb dep protbase gone use protsub; do
    local cp=""
    [ $p = use ] && cp="$d/cls/dep:$d/cls/gone"
    [ $p = protsub ] && cp="$d/cls/protbase"
    mkdir -p "$d/cls/$p"
    "$JDK17/bin/javac" --release 8 -nowarn -Xlint:-options ${cp:+-cp "$cp"} \
      -d "$d/cls/$p" $(find "$f/$p" -name '*.java' | sort) >>"$T/logs/regress.log" 2>&1 &&
    (cd "$d/cls/$p" && zip -qr "$d/jar/$p.jar" .) || {
      fail "regression fixtures: build $p.jar"; show regress.log; return; }
  done
  if ! run regress-rw1.log "$REWRITE" -q $MODE "$d/jar/dupa.jar" "$d/jar/dupb.jar" -o "$d/out/" ||
     ! run regress-rw2.log "$REWRITE" -q $MODE "$d/jar/use.jar" -o "$d/out/" ||
     ! run regress-rw3.log "$REWRITE" -q $MODE "$d/jar/protsub.jar" -o "$d/out/"; then
    fail "regression fixtures: cccp-rewrite $MODE"
    show regress-rw1.log 3; show regress-rw2.log 3; show regress-rw3.log 3; return
  fi
  printf '%s\n' "$d/jar/dep.jar" "$d/jar/protbase.jar" > "$d/uni.txt"
  local v home jars=(dupa dupb use protsub) orig=() outs=()
  for p in "${jars[@]}"; do orig+=("$d/jar/$p.jar"); outs+=("$d/out/$p.jar"); done
  for v in 17 25; do
    home=$JDK17; [ $v = 25 ] && home=$JDK25
    [ -n "$home" ] && [ -x "$home/bin/java" ] || continue
    run_pair "regress$v-base.log" "regress$v-new.log" \
      -- "$home/bin/java" -cp "$CLS" LinkCheck jars "$d/base$v.txt" --universe "$d/uni.txt" "${orig[@]}" \
      -- "$home/bin/java" $EXTRA_OPTS -cp "$CLS" LinkCheck jars "$d/new$v.txt" --universe "$d/uni.txt" "${outs[@]}"
    local want=0 c
    for c in dupb.jar!vfix.dup.Twin dupb.jar!vfix.dup.Chooser use.jar!vfix.use.Pick \
             use.jar!vfix.use.Local use.jar!vfix.use.Setup use.jar!vfix.use.Handler; do
      grep -q "^$c	OK\$" "$d/base$v.txt" && grep -q "^$c	OK\$" "$d/new$v.txt" && want=$((want + 1))
    done
    local prot="^protsub.jar!vfix.prot.Sub	FAIL	VerifyError: .*Bad access to protected data in getfield" rc=0
    run "regress$v-cmp.log" "$JAVA17" -cp "$CLS" LinkCheck compare "$d/base$v.txt" "$d/new$v.txt" || rc=1
    if [ $rc = 0 ] && [ $want = 6 ] && grep -q "$prot" "$d/base$v.txt" && grep -q "$prot" "$d/new$v.txt"; then
      pass "JDK $v regressions: a class named twice, joins of types the rewriter lacks, a failure moved by a rewrite ($(summary "regress$v-cmp.log" | sed 's/^compare: //'))"
    else
      fail "JDK $v regressions: a class named twice, joins of types the rewriter lacks, a failure moved by a rewrite"
      cut -c1-300 "$d/new$v.txt" | sed 's/^/       /'
      show "regress$v-cmp.log"
    fi
  done
  [ -n "$ASMCP" ] || return
  run_pair regress-asm1.log regress-asm2.log \
    -- "$JAVA17" -cp "$CLS:$ASMCP" AsmCheck jars "$d/asm-base.txt" 1 --universe "$d/uni.txt" "${orig[@]}" \
    -- "$JAVA17" $EXTRA_OPTS -cp "$CLS:$ASMCP" AsmCheck jars "$d/asm-new.txt" 1 --universe "$d/uni.txt" "${outs[@]}"
  if run regress-asm3.log "$JAVA17" -cp "$CLS" LinkCheck compare "$d/asm-base.txt" "$d/asm-new.txt" &&
     grep -q "^use.jar!vfix.use.Slot.make(Ljava/lang/Class;)Ljava/lang/Object;	OK" "$d/asm-base.txt"; then
    pass "regressions: no new ASM analyzer failures ($(summary regress-asm3.log | sed 's/^compare: //'))"
  else
    fail "regressions: no new ASM analyzer failures"; show regress-asm3.log
  fi
}
regress_jars


# ---------------------------------------------------------------------- JDKs
# verify_jdk VERSION HOME
verify_jdk() {
  local v=$1 home=$2 t0=$SECONDS
  local java="$home/bin/java" out="$T/jdk$v" r="$T/r$v"
  echo "-- JDK $v: $MODE over $home"
  mkdir -p "$r"
  # --cccp: without the redirect that gives the classes of patched modules
  # their module's location as code source (patched-code-source), so that
  # the class-loading log shows the jar each class came from
  local pol=()
  if [ "$MODE" = --cccp ]; then
    printf '<policy><redirect class="jdk/internal/loader/BuiltinClassLoader" remove="1"/></policy>\n' \
      >"$T/nocs.xml"
    pol=(--policy "$T/nocs.xml")
  fi
  if ! run "jdk$v-rewrite.log" "$REWRITE" -q $MODE "${pol[@]}" --jdk "$home" -o "$out"; then
    fail "JDK $v: cccp-rewrite $MODE --jdk"; show "jdk$v-rewrite.log"; return
  fi
  # The rewritten run names its classes from the output jars, the baseline
  # from the JDK's own modules: a class or module lost on the way shows up
  # as MISSING.
  local mods=() names=() m
  for m in "$out"/*.jar; do      # JDK mode adds the runtime, not a module
    case $m in */cccp-rt*.jar) ;; *) mods+=("$m") ;; esac
  done
  while read -r m; do names+=("${m%%@*}"); done < <("$java" --list-modules | sort)
  pass "JDK $v: rewritten, ${#mods[@]} module jars for ${#names[@]} modules ($((SECONDS - t0))s)"
  : > "$r/patch.args"
  local exports=ALL-UNNAMED jdkopts=$EXTRA_OPTS
  for m in "${mods[@]}"; do
    local mn=$(basename "$m" .jar)
    if [ "$MODE" = --cccp ] && [ "$mn" = java.base ]; then
      echo "--patch-module java.base=$m:$out/cccp-rt-jdk.jar" >> "$r/patch.args"
    else
      echo "--patch-module $mn=$m" >> "$r/patch.args"
      exports+=",$mn"
    fi
  done
  if [ "$MODE" = --cccp ]; then
    # JDK mode: the runtime is in java.base (DIR/cccp.args does the same
    # for the modules of the default boot layer; here every module is)
    echo "--add-exports java.base/cccp.rt=$exports" >> "$r/patch.args"
    echo "-Dcccp.jdk.methods=$out/jdk.methods" >> "$r/patch.args"
    jdkopts=
  fi

  local t1=$SECONDS cached0=$FROM_CACHE
  baseline_pair "$(cache_key jdk "$java" "$home/lib/modules" "$VOPT" "${names[@]}")" \
    "jdk$v-base.log" "jdk$v-new.log" "$r/base.txt" \
    -- "$java" $VOPT --add-modules ALL-SYSTEM -cp "$CLS" \
      LinkCheck jdk "$r/base.txt" "${names[@]}" \
    -- "$java" $VOPT @"$r/patch.args" $jdkopts --add-modules ALL-SYSTEM \
      -Xlog:class+load=info:file="$r/load.log":none -cp "$CLS" \
      LinkCheck jdk "$r/new.txt" "${mods[@]}"
  [ $rc1 -eq 0 ] || { fail "JDK $v: baseline run (unmodified JDK)"; show "jdk$v-base.log"; }
  local rc=$rc2
  if [ $rc -eq 0 ] && tail -1 "$r/new.txt" 2>/dev/null | grep -q '^# done'; then
    pass "JDK $v: the patched VM went through every class of every rewritten module ($(grep '^# linked' "$r/new.txt" | sed 's/^# //'))"
  else
    fail "JDK $v: the patched VM ran to the end (exit $rc)"; show "jdk$v-new.log"
  fi
  compare_ok "JDK $v: no new HotSpot verification/linkage failures" "$r/base.txt" "$r/new.txt" "jdk$v-cmp.log"
  local linked_s=$((SECONDS - t1))

  # The classes really came from the rewritten jars (the patch took effect).
  local notfrom
  notfrom=$(awk -v dir="$out/" '
    NR == FNR { if ($2 == "source:" && (index($3, dir) == 1 || index($3, "file:" dir) == 1)) from[$1] = 1; next }
    /^#/ { next }
    $2 != "SKIP" { cn = substr($1, index($1, "/") + 1); if (!(cn in from)) { n++; if (n <= 5) print "       " cn } }
    END { print n + 0 }' "$r/load.log" "$r/new.txt" 2>&1)
  if [ "$(echo "$notfrom" | tail -1)" = 0 ]; then
    pass "JDK $v: the class loading log shows every checked class read from the rewritten jars"
  else
    fail "JDK $v: classes not read from the rewritten jars: $(echo "$notfrom" | tail -1)"
    echo "$notfrom" | head -5
  fi
  local skipped
  skipped=$(grep -c '	SKIP' "$r/new.txt")
  [ "$skipped" -eq 0 ] && pass "JDK $v: no module left out of the boot layer" ||
    { fail "JDK $v: $skipped classes skipped"; grep '^# module' "$r/new.txt" | sed 's/^/       /'; }

  local asm_s=0
  if [ -n "$ASMCP" ]; then
    local t2=$SECONDS
    grep '	UNVERIFIED' "$r/new.txt" | cut -f1 | cut -d/ -f2 > "$r/also.txt"
    baseline_pair "$(cache_key jdk-asm "$java" "$home/lib/modules" "$EVERY" "$r/also.txt" "${names[@]}")" \
      "jdk$v-asmbase.log" "jdk$v-asmnew.log" "$r/asm-base.txt" \
      -- "$java" --add-modules ALL-SYSTEM -cp "$CLS:$ASMCP" \
        AsmCheck jdk "$r/asm-base.txt" "$EVERY" --also "$r/also.txt" "${names[@]}" \
      -- "$java" @"$r/patch.args" $jdkopts --add-modules ALL-SYSTEM -cp "$CLS:$ASMCP" \
        AsmCheck jdk "$r/asm-new.txt" "$EVERY" --also "$r/also.txt" "${mods[@]}"
    [ $rc1 -eq 0 ] || { fail "JDK $v: ASM baseline run"; show "jdk$v-asmbase.log"; }
    [ $rc2 -eq 0 ] || { fail "JDK $v: ASM run on the rewritten classes"; show "jdk$v-asmnew.log"; }
    compare_ok "JDK $v: no new ASM analyzer failures (1 class in $EVERY + $(wc -l < "$r/also.txt") HotSpot skips; $(grep '^# classes' "$r/asm-new.txt" | sed 's/^# //'))" \
      "$r/asm-base.txt" "$r/asm-new.txt" "jdk$v-asmcmp.log"
    asm_s=$((SECONDS - t2))
  fi
  echo "  JDK $v $MODE: $(grep -c '	' "$r/new.txt") classes, baseline failures $(count_base "jdk$v-cmp.log"), new failures $(count_new "jdk$v-cmp.log"); HotSpot runs ${linked_s}s, ASM ${asm_s}s, total $((SECONDS - t0))s$(cached_note "$cached0")"
}

verify_jdk 17 "$JDK17"
if [ -n "$JDK25" ] && [ -x "$JDK25/bin/java" ]; then verify_jdk 25 "$JDK25"
else echo "  SKIP JDK 25: no JDK 25 (looked for /usr/lib/jvm/*25*, or set JDK25=...)"; fi

# ---------------------------------------------------------- application jars
verify_jars() {
  local t0=$SECONDS r="$T/rjars" out="$T/apps"
  echo "-- application jars: $MODE over $JARDIR"
  mkdir -p "$r" "$out"
  local f jars=()
  while read -r f; do jars+=("$f"); done < <(
    for f in "$JARDIR"/*.jar; do [ -f "$f" ] && readlink -f "$f"; done | sort -u)
  if [ ${#jars[@]} -eq 0 ]; then echo "  SKIP application jars: none in $JARDIR"; return; fi
  if [ -n "$(printf '%s\n' "${jars[@]##*/}" | sort | uniq -d)" ]; then
    fail "application jars have distinct base names"; return
  fi
  printf '%s\n' "${jars[@]}" > "$r/universe.txt"
  [ -n "${CCCP_VERIFY_CP:-}" ] && echo "$CCCP_VERIFY_CP" | tr : '\n' >> "$r/universe.txt"

  # One run for all; if it fails, one run per jar to name the culprits.
  local ok=()
  if run jars-rewrite.log "$REWRITE" -q $MODE "${jars[@]}" -o "$out/"; then
    ok=("${jars[@]}")
  else
    for f in "${jars[@]}"; do
      if run jars-rewrite1.log "$REWRITE" -q $MODE "$f" -o "$out/"; then ok+=("$f")
      else fail "rewrite $f"; show jars-rewrite1.log 3; fi
    done
  fi
  pass "application jars: ${#ok[@]} of ${#jars[@]} rewritten ($((SECONDS - t0))s)"
  [ ${#ok[@]} -eq 0 ] && return

  # The jars whose outputs are linked and checked: every one, or a sample.
  local sel=("${ok[@]}")
  if [ "$SAMPLE" -gt 1 ]; then
    local name p h
    local -A listed=()
    while read -r name _; do
      case $name in ''|'#'*) continue ;; esac
      p=$(readlink -f "$JARDIR/$name" 2>/dev/null)
      if [ -n "$p" ] && [ -f "$p" ]; then listed[$p]=1
      else echo "  NOTE sample: $name (tests/verify/sample-jars.txt) is not in $JARDIR"; fi
    done < "$HERE/sample-jars.txt"
    sel=()
    for f in "${ok[@]}"; do
      h=$(printf '%s %s' "$MODE" "${f##*/}" | cksum); h=${h%% *}
      if [ -n "${listed[$f]:-}" ] || [ $((h % SAMPLE)) -eq 0 ]; then sel+=("$f"); fi
    done
    echo "  checking a sample: ${#sel[@]} of ${#ok[@]} rewritten jars (the ${#listed[@]} of sample-jars.txt, and 1 in $SAMPLE of the others; CCCP_FULL=1 checks them all)"
  fi
  local outs=()
  for f in "${sel[@]}"; do outs+=("$out/${f##*/}"); done

  # Baselines: a cached one of every jar (another mode's) serves a sample.
  local key akey k
  key=$(cache_key jars "$JAVA17" "$r/universe.txt" "${sel[@]}")
  akey=$(cache_key jars-asm "$JAVA17" "$r/universe.txt" "$EVERY" "${sel[@]}")
  if [ -n "$CACHE" ] && [ ${#sel[@]} -lt ${#ok[@]} ]; then
    k=$(cache_key jars "$JAVA17" "$r/universe.txt" "${ok[@]}")
    complete "$CACHE/$k.txt" && filter_jars "$CACHE/$k.txt" "$CACHE/$key.txt" "${sel[@]}"
    k=$(cache_key jars-asm "$JAVA17" "$r/universe.txt" "$EVERY" "${ok[@]}")
    complete "$CACHE/$k.txt" && filter_jars "$CACHE/$k.txt" "$CACHE/$akey.txt" "${sel[@]}"
  fi

  local t1=$SECONDS cached0=$FROM_CACHE
  baseline_pair "$key" jars-base.log jars-new.log "$r/base.txt" \
    -- "$JAVA17" -cp "$CLS" LinkCheck jars "$r/base.txt" --universe "$r/universe.txt" "${sel[@]}" \
    -- "$JAVA17" $EXTRA_OPTS -cp "$CLS" LinkCheck jars "$r/new.txt" --universe "$r/universe.txt" "${outs[@]}"
  [ $rc1 -eq 0 ] || { fail "application jars: baseline run"; show jars-base.log; }
  [ $rc2 -eq 0 ] || { fail "application jars: run over the rewritten jars"; show jars-new.log; }
  compare_ok "application jars: no new HotSpot verification/linkage failures" "$r/base.txt" "$r/new.txt" jars-cmp.log
  local linked_s=$((SECONDS - t1)) asm_s=0
  if [ -n "$ASMCP" ]; then
    local t2=$SECONDS
    baseline_pair "$akey" jars-asmbase.log jars-asmnew.log "$r/asm-base.txt" \
      -- "$JAVA17" -cp "$CLS:$ASMCP" AsmCheck jars "$r/asm-base.txt" "$EVERY" \
        --universe "$r/universe.txt" "${sel[@]}" \
      -- "$JAVA17" $EXTRA_OPTS -cp "$CLS:$ASMCP" AsmCheck jars "$r/asm-new.txt" "$EVERY" \
        --universe "$r/universe.txt" "${outs[@]}"
    [ $rc1 -eq 0 ] || { fail "application jars: ASM baseline run"; show jars-asmbase.log; }
    [ $rc2 -eq 0 ] || { fail "application jars: ASM run on the rewritten jars"; show jars-asmnew.log; }
    compare_ok "application jars: no new ASM analyzer failures (1 class in $EVERY; $(grep '^# classes' "$r/asm-new.txt" | sed 's/^# //'))" \
      "$r/asm-base.txt" "$r/asm-new.txt" jars-asmcmp.log
    asm_s=$((SECONDS - t2))
  fi
  echo "  jars $MODE: ${#sel[@]} jars, $(grep -c '	' "$r/new.txt") classes, baseline failures $(count_base jars-cmp.log), new failures $(count_new jars-cmp.log); HotSpot runs ${linked_s}s, ASM ${asm_s}s, total $((SECONDS - t0))s$(cached_note "$cached0")"
}
verify_jars

echo "  test_verify.sh took $((SECONDS - START))s"
finish
