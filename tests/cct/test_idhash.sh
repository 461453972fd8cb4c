#!/usr/bin/env bash
# Identity hashes: what the main thread of tests/programs/idhash prints (a
# HashSet of enum constants, a HashMap keyed by objects without hashCode,
# an IdentityHashMap, default toString of objects, arrays and lambdas,
# System.identityHashCode, the ids and names of the threads it starts),
# before and after reflection, stack traces, a stack walk, a helpful
# NullPointerException message, lambdas and streams, is byte-identical to
# the plain run on JDK 17 and 25: rewritten with default options, with
# --no-load-time, and agent only. The workers' hashes (standard error)
# differ, as cccp-rewrite(1) says: each new thread's generator is seeded
# from a sequence that every new symbol advances. The runtime put on the
# boot class path with -javaagent, as before the native agent did it,
# must differ (the suite can fail).
#
# Environment: CCCP_REWRITE, BUILD (cccp-rt.jar), JDK17, JDK25.
set -u
source "$(dirname "$0")/../lib.sh"

SRC="$ROOT/tests/programs/idhash"
export CCCP_RT=${CCCP_RT:-$ROOT/$BUILD/cccp-rt.jar}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

use_jdks
[ -f "$CCCP_RT" ] || { fail "missing $CCCP_RT (run make first)"; finish; exit; }

mkdir -p "$T/c"
"$JDK17/bin/javac" -nowarn -d "$T/c" "$SRC"/idh/*.java 2>"$T/javac.err" ||
  { fail "javac"; cat "$T/javac.err"; finish; exit; }
(cd "$T/c" && "$JDK17/bin/jar" cf "$T/idh.jar" idh)
expect_exit 0 "rewrite idh.jar (default options)" \
  "$REWRITE" -q "$T/idh.jar" -o "$T/def/"
expect_exit 0 "rewrite idh.jar with --no-load-time" \
  "$REWRITE" -q --no-load-time "$T/idh.jar" -o "$T/nolt/"
expect_exit 0 "the options of agent only" "$REWRITE" -q --agent -o "$T/agent"
check "the manifest keeps its compression method" \
  test "$(unzip -v "$T/idh.jar" META-INF/MANIFEST.MF | awk 'NR==4{print $2}')" = \
       "$(unzip -v "$T/def/idh.jar" META-INF/MANIFEST.MF | awk 'NR==4{print $2}')"

# run NAME JAVA ARGS...: the program's output in $d/NAME.out, .err
run() {
  local name=$1 java=$2
  shift 2
  mkdir -p "$d/$name"
  (cd "$d/$name" && "$java" "$@" idh.Main >../"$name".out 2>../"$name".err)
}

for J in "${JDKS[@]}"; do
  v=$(jdk_version "$J")
  d="$T/run$v"; mkdir -p "$d"
  run plain "$J/bin/java" -cp "$T/idh.jar"
  run plain2 "$J/bin/java" -cp "$T/idh.jar"
  check "JDK $v: the plain program prints the same twice" \
    cmp -s "$d/plain.out" "$d/plain2.out"
  check "JDK $v: the plain program prints its hashes and threads" \
    grep -q "^late Thread-1 id" "$d/plain.out"
  for m in def nolt agent; do
    case $m in
      def) what="default options"; args=(@"$T/def/cccp.args" -cp "$T/def/idh.jar") ;;
      nolt) what="--no-load-time"; args=(@"$T/nolt/cccp.args" -cp "$T/nolt/idh.jar") ;;
      agent) what="agent only"; args=(@"$T/agent/cccp.args" -cp "$T/idh.jar") ;;
    esac
    run "$m" "$J/bin/java" "${args[@]}"
    if cmp -s "$d/plain.out" "$d/$m.out"; then
      pass "JDK $v: $what: the main thread's identity hashes and thread ids are the plain run's ($(wc -l <"$d/plain.out") lines)"
    else
      fail "JDK $v: $what: the output differs"
      diff "$d/plain.out" "$d/$m.out" | head -12 | sed 's/^/       /'
    fi
    check "JDK $v: $what: the workers ran" grep -q "^task 3:" "$d/$m.err"
    check "JDK $v: $what: the main thread's calls are in the profile" \
      bash -c "'$REPORT' top --merge-threads --methods -n 0 '$d/$m/cccp-profile.xml' |
        grep -q 'idh/Main.hashes'"
  done
  # the runtime as the Java agent and the boot class path put it in: the
  # JDK builds its module graph at start-up, hashing on the main thread
  { echo "-Xbootclasspath/a:$T/def/cccp-rt.jar"
    echo "-javaagent:$T/def/cccp-rt.jar"
    sed 's/=boot,/=/' "$T/def/cccp.args"; } >"$T/old.args"
  run old "$J/bin/java" @"$T/old.args" -cp "$T/def/idh.jar"
  check "JDK $v: with -javaagent and -Xbootclasspath/a the hashes differ" \
    bash -c "! cmp -s '$d/plain.out' '$d/old.out'"
done
finish
