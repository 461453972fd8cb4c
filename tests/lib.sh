# tests/lib.sh -- tiny assertion helpers for the shell suites.
# Each suite sources this, calls 'check' / 'expect_*', and ends with
# 'finish', which prints "N passed, N failed" and sets the exit status.

passed=0
failed=0
BUILD=${BUILD:-build}
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
REWRITE="${CCCP_REWRITE:-$ROOT/bin/cccp-rewrite}"
REPORT="${CCCP_REPORT:-$ROOT/bin/cccp-report}"
TOOLS="$ROOT/$BUILD/tools"
# the cached JDK summaries of the rewriters under test, kept with the build
# (the user's own cache folder is left alone)
export XDG_CACHE_HOME=${CCCP_TEST_CACHE:-$ROOT/$BUILD/cache}

# The JDKs the suites run (JDK 25 may be missing: suites skip it, saying so).
JDK17=${JDK17:-/usr/lib/jvm/java-17-openjdk-amd64}
JDK25=${JDK25:-/usr/lib/jvm/temurin-25-jdk-amd64}

# suite_tmp: a temporary folder in $T, removed when the suite exits.
suite_tmp() { T=$(mktemp -d); trap 'rm -rf "$T"' EXIT; }

# example_jar: the bundled example's jar in $EX, built when missing.
example_jar() {
  EX="$ROOT/$BUILD/examples/wordfreq.jar"
  [ -f "$EX" ] || make -s -C "$ROOT" BUILD="$BUILD" "$BUILD/examples/wordfreq.jar" >/dev/null
}

pass() { passed=$((passed + 1)); echo "  ok   $*"; }
fail() { failed=$((failed + 1)); echo "  FAIL $*"; }

# check DESCRIPTION COMMAND...: passes when the command exits 0.
check() {
  local what=$1; shift
  if "$@" >/tmp/cccp-check.$$ 2>&1; then pass "$what"
  else fail "$what"; sed 's/^/       /' /tmp/cccp-check.$$ | head -20; fi
  rm -f /tmp/cccp-check.$$
}

# expect_exit CODE DESCRIPTION COMMAND...: runs the command, keeps its
# stderr in $err and stdout in $out, and passes when it exits with CODE.
expect_exit() {
  local want=$1 what=$2; shift 2
  local rc=0
  out=$("$@" 2>/tmp/cccp-err.$$) || rc=$?
  err=$(cat /tmp/cccp-err.$$); rm -f /tmp/cccp-err.$$
  if [ "$rc" -eq "$want" ]; then pass "$what"
  else fail "$what (exit $rc, wanted $want)"; echo "$err" | sed 's/^/       /' | head -5; fi
}

# expect_match REGEX DESCRIPTION TEXT
expect_match() {
  if printf '%s' "$3" | grep -Eq -- "$1"; then pass "$2"
  else fail "$2"; echo "       wanted /$1/ in: $3" | head -5; fi
}

finish() {
  echo "$passed passed, $failed failed"
  [ "$failed" -eq 0 ]
}

# not_cmp A B: passes when the files differ.
not_cmp() { ! cmp -s "$1" "$2"; }

# use_jdks: JDK17 and JDK25 (overridable from the environment) and JDKS,
# the JDKs a suite runs on: 25 only where installed, else a visible skip.
use_jdks() {
  JDK17=${JDK17:-/usr/lib/jvm/java-17-openjdk-amd64}
  JDK25=${JDK25:-/usr/lib/jvm/temurin-25-jdk-amd64}
  JDKS=("$JDK17")
  if [ -x "$JDK25/bin/java" ]; then JDKS+=("$JDK25")
  else echo "  skip JDK 25: none at $JDK25"; fi
}

# oracle_blind: BLIND, the cccp-report compare options that hide, on both
# sides, the methods the JVMTI oracle cannot see: those with an
# interpreter intrinsic entry post no MethodEntry event (Thread.currentThread
# from JDK 19 on).
oracle_blind() {
  local m
  BLIND=()
  for m in java/lang/Math.{sin,cos,tan,abs,sqrt,log,log10,pow,exp,fma} \
           java/lang/StrictMath.sqrt java/lang/ref/Reference.get \
           java/util/zip/CRC32.{update,updateBytes,updateByteBuffer} \
           java/util/zip/CRC32C.{updateBytes,updateDirectByteBuffer} \
           java/lang/Float.{intBitsToFloat,floatToRawIntBits} \
           java/lang/Double.{longBitsToDouble,doubleToRawLongBits} \
           java/lang/Thread.currentThread; do
    BLIND+=(--hide "$m")
  done
}

# jar_like ORIG LIKE OUT: ORIG's entries, stored, ordered and dated as
# LIKE (a rewritten jar) stores them: the jar an oracle run reads where
# the instrumented run reads LIKE (which entries are deflated is calls
# too)
jar_like() {
  python3 - "$@" <<'EOF'
import sys, zipfile
orig, like, out = sys.argv[1:4]
with zipfile.ZipFile(orig) as zi, zipfile.ZipFile(like) as zl, \
     zipfile.ZipFile(out, 'w') as zo:
    names = set(zi.namelist())
    for i in zl.infolist():
        if i.filename in names:
            zo.writestr(i, zi.read(i.filename), compress_type=i.compress_type)
EOF
}

# jdk_version HOME: the JDK's feature version (17, 25).
jdk_version() {
  "$1/bin/java" -version 2>&1 | sed -n 's/.*version "\([0-9]*\).*/\1/p' | head -1
}

# oracle_for HOME: builds the JVMTI oracle against the JDK at HOME (once
# per JDK version, under $BUILD) and sets A to its library.
oracle_for() {
  local v od
  v=$(jdk_version "$1")
  od="$ROOT/$BUILD/oracle"
  [ "$v" = 17 ] || od="$ROOT/$BUILD/oracle-$v"
  check "build the oracle against JDK $v" bash "$ROOT/tests/oracle/build.sh" "$od" "$1"
  A="$od/libcccporacle.so"
}

# deps_jar_dir DIR: the jars the suites judge, as links in DIR (made): the
# jars under /usr/share/java of the Debian packages .ci/deps installs and
# of the packages they depend on, recursively (Depends and Pre-Depends,
# installed): a verdict does not depend on what else the machine has
# (groovy installed with its recommendations brings ant-optional, whose
# jars no suite asks for). Every name of such a jar is linked (xalan2.jar
# and xalan2-2.7.2.jar). With CCCP_ALL_JARS=1 (make check-machine), every
# jar under /usr/share/java. Prints how many jars there are.
deps_jar_dir() {
  local dir=$1 pkgs keep f
  mkdir -p "$dir"
  keep=$(mktemp)
  if [ "${CCCP_ALL_JARS:-0}" = 1 ]; then
    for f in /usr/share/java/*.jar; do readlink -f "$f"; done | sort -u >"$keep"
  else
    pkgs=$(sed -n '/^pkgs=(/,/^)/p' "$ROOT/.ci/deps" | sed 's/#.*//' | tr ' ' '\n' |
           grep -E '^[a-z0-9][a-z0-9.+-]+$')
    # shellcheck disable=SC2086
    apt-cache depends --recurse --installed --no-recommends --no-suggests \
        --no-conflicts --no-breaks --no-replaces --no-enhances $pkgs 2>/dev/null |
      grep -v '^ ' | sed 's/^<\(.*\)>$/\1/' | sort -u |
      xargs dpkg -L 2>/dev/null | grep '^/usr/share/java/[^/]*\.jar$' |
      while read -r f; do readlink -f "$f"; done | sort -u >"$keep"
  fi
  for f in /usr/share/java/*.jar; do
    grep -qxF "$(readlink -f "$f")" "$keep" && ln -sf "$f" "$dir/${f##*/}"
  done
  wc -l <"$keep"
  rm -f "$keep"
}

# use_report: cccp-report built when CCCP_REPORT names none (the suite
# ends if it cannot be), and CCCP_RT the build's runtime unless given
use_report() {
  [ -n "${CCCP_REPORT:-}" ] || make -s -C "$ROOT" BUILD="$BUILD" bin/cccp-report \
    >/dev/null || { fail "build cccp-report"; finish; exit 1; }
  export CCCP_RT=${CCCP_RT:-$ROOT/$BUILD/cccp-rt.jar}
}

# method_calls FILE METHOD: METHOD's calls over the whole profile (every
# thread, every context), "pkg/Cls.name(desc)"; 0 when it is not there
method_calls() {
  "$REPORT" top --merge-threads --methods -n 0 "$1" |
    awk -v m="$2" '$NF == m { print $1; found = 1 } END { if (!found) print 0 }'
}

# fib_scripts DIR: fib(20) as a Groovy script, a Clojure program, a
# Jython script and a JavaScript program (DIR/fib.groovy, fib.clj,
# fib.py, fib.js), each printing fib=6765; fib runs 2 fib(21) - 1 =
# 21891 times. FIB_RE: the method each compiles fib to, as the profile
# names it (awk regular expressions, by language).
fib_scripts() {
  printf 'def fib(n) { n < 2 ? n : fib(n - 1) + fib(n - 2) }\nprintln "fib=" + fib(20)\n' \
    >"$1/fib.groovy"
  printf '(defn fib [n] (if (< n 2) n (+ (fib (- n 1)) (fib (- n 2)))))\n(println (str "fib=" (fib 20)))\n' \
    >"$1/fib.clj"
  printf 'def fib(n):\n    return n if n < 2 else fib(n - 1) + fib(n - 2)\nprint("fib=%%d" %% fib(20))\n' \
    >"$1/fib.py"
  printf 'function fib(n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }\nprint("fib=" + fib(20));\n' \
    >"$1/fib.js"
  declare -gA FIB_RE=(
    [groovy]='^fib\.fib\(Ljava/lang/Object;\)Ljava/lang/Object;$'
    [clojure]='^user\$fib\.invoke\(Ljava/lang/Object;\)Ljava/lang/Object;$'
    [jython]='^org/python/pycode/_pyx[0-9]+\.fib\$[0-9]+\('
    [rhino]='^org/mozilla/javascript/gen/.*\._c_fib_[0-9]+\(')
}

# check_fib JAVA_HOME LABEL OUT ARGS PLAIN_CP INST_CP LANG MAIN ARG...:
# runs MAIN ARG... plain (class path PLAIN_CP) and with the options file
# ARGS (INST_CP, the profile to OUT.xml): the output must be the plain
# run's and hold fib=6765, and the method FIB_RE[LANG] names must have
# exactly 21891 calls.
check_fib() {
  local J=$1 label=$2 out=$3 args=$4 pcp=$5 icp=$6 re=${FIB_RE[$7]}
  shift 7
  "$J/bin/java" -cp "$pcp" "$@" >"$out.plain" 2>&1
  "$J/bin/java" @"$args" -cp "$icp" -Dcccp.out="$out.xml" "$@" >"$out.out" 2>&1
  check "$label: prints as plainly" \
    bash -c "cmp -s '$out.plain' '$out.out' && grep -qx fib=6765 '$out.out'"
  check "$label: fib is a node, 21891 calls" \
    test "$("$REPORT" top --merge-threads --methods -n 0 "$out.xml" |
            awk -v re="$re" '$NF ~ re { print $1 }')" = 21891
}
