#!/usr/bin/env bash
# One class name, two definitions: a.jar and b.jar define dup.Lib,
# dup.Shape and dup.Tagged differently (a method in one only, final or
# private in one and overridable in the other, another superclass and
# other interfaces, a static initializer in one); c.jar subclasses and
# implements them and calls through callers compiled against each. The
# JVM loads the copy of the jar first on the class path. For both class
# path orders, with the jars rewritten in one run in either order, the
# instrumented program prints what the plain one does, on JDK 17 and 25.
# The rewriter says once per pair of inputs that they define classes
# differently; identical copies are not worth a word. The program is
# tests/programs/dupclass.
#
# Environment: CCCP_REWRITE, BUILD (cccp-rt.jar), JDK17, JDK25.
set -u
source "$(dirname "$0")/../lib.sh"

SRC="$ROOT/tests/programs/dupclass"
export CCCP_RT=${CCCP_RT:-$ROOT/$BUILD/cccp-rt.jar}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

use_jdks
[ -f "$CCCP_RT" ] || { fail "missing $CCCP_RT (run make first)"; finish; exit; }

# Each jar compiled on its own, c.jar against b.jar's definitions (its
# Square overrides what a.jar's Shape makes final).
J17="$JDK17/bin"
build() {
  mkdir -p "$T/a" "$T/b" "$T/c" &&
    "$J17/javac" --release 8 -nowarn -d "$T/a" $(find "$SRC/a" -name '*.java') &&
    "$J17/javac" --release 8 -nowarn -d "$T/b" $(find "$SRC/b" -name '*.java') &&
    "$J17/javac" --release 8 -nowarn -cp "$T/b:$T/a" -d "$T/c" \
      $(find "$SRC/c" -name '*.java') &&
    for x in a b c; do (cd "$T/$x" && "$J17/jar" cf "../$x.jar" .) || return 1; done &&
    cp "$T/a.jar" "$T/a2.jar"
}
check "javac 17 builds a.jar, b.jar, c.jar" build
[ -f "$T/c.jar" ] || { finish; exit; }

# rewrite NAME JAR...: all jars in one run, default options, into
# $T/NAME/; the warnings in $T/NAME.err.
rewrite() {
  local name=$1; shift
  "$REWRITE" "$@" -o "$T/$name/" 2>"$T/$name.err"
}
check "rewrite a.jar b.jar c.jar" rewrite ab "$T/a.jar" "$T/b.jar" "$T/c.jar"
check "rewrite b.jar a.jar c.jar" rewrite ba "$T/b.jar" "$T/a.jar" "$T/c.jar"
check "rewrite a.jar and an identical copy" \
  rewrite same "$T/a.jar" "$T/a2.jar" "$T/c.jar"

# The warning: once per pair, the kept input first, a few names, the count.
for o in ab ba; do
  first=$T/${o:0:1}.jar second=$T/${o:1:1}.jar
  n=$(grep -c "define .* differently" "$T/$o.err")
  expect_match '^1$' "$o: one warning for the pair" "$n"
  expect_match "$first and $second define 3 classes of the same names differently \(dup/Lib, dup/Shape, dup/Tagged\): .*analysis follows $first" \
    "$o: the warning names the inputs, classes, count and the input followed" \
    "$(cat "$T/$o.err")"
done
no_warning() { ! grep "differently" "$1"; }
check "identical copies: no warning" no_warning "$T/same.err"

# cls_has JAR CLASS TEXT: the class file's bytes hold TEXT (a descriptor
# in its constant pool).
cls_has() { unzip -p "$1" "$2" | grep -aqF -- "$3"; }
not_cls_has() { ! cls_has "$@"; }
# UseA calls Lib.size(): through the twin size(CC) only where Lib has one
# definition
check "identical copies: UseA calls the twin of Lib.size" \
  cls_has "$T/same/a.jar" dupa/UseA.class "(Lcccp/rt/CC;)I"
for o in ab ba; do
  check "$o: UseA calls Lib.size without a node" \
    not_cls_has "$T/$o/a.jar" dupa/UseA.class "(Lcccp/rt/CC;)I"
done

# run JDK CP OUT [ARGS...]: dupc.Main on class path CP (its stdout and
# stderr in OUT; the exit status on its last line).
run() {
  local jdk=$1 cp=$2 out=$3; shift 3
  (cd "$T" && "$jdk/bin/java" -Xverify:all "$@" -cp "$cp" dupc.Main) \
    >"$out" 2>&1
  echo "exit $?" >>"$out"
}

for J in "${JDKS[@]}"; do
  v=$(jdk_version "$J")
  for r in ab ba; do
    x=${r:0:1} y=${r:1:1}
    run "$J" "$T/c.jar:$T/$x.jar:$T/$y.jar" "$T/plain-$v-$r.out"
  done
  # the program tells the orders apart: each loads its own copies
  check "JDK $v: plain, a.jar first loads a.jar's Lib" \
    grep -q "^  A size = 42$" "$T/plain-$v-ab.out"
  check "JDK $v: plain, b.jar first loads b.jar's Lib" \
    grep -q "^  A size = 0$" "$T/plain-$v-ba.out"
  for o in ab ba; do
    for r in ab ba; do
      x=${r:0:1} y=${r:1:1}
      out=$T/inst-$v-$o-$r.out
      run "$J" "$T/$o/c.jar:$T/$o/$x.jar:$T/$o/$y.jar" "$out" @"$T/$o/cccp.args"
      if cmp -s "$T/plain-$v-$r.out" "$out"; then
        pass "JDK $v: rewritten as $o, run with $x.jar first: same output"
      else
        fail "JDK $v: rewritten as $o, run with $x.jar first: same output"
        diff "$T/plain-$v-$r.out" "$out" | head -10 | sed 's/^/       /'
      fi
    done
  done
  # identical copies
  run "$J" "$T/c.jar:$T/a.jar:$T/a2.jar" "$T/plain-$v-same.out"
  run "$J" "$T/same/c.jar:$T/same/a.jar:$T/same/a2.jar" \
    "$T/same-$v.out" @"$T/same/cccp.args"
  check "JDK $v: identical copies: same output" \
    cmp "$T/plain-$v-same.out" "$T/same-$v.out"
done

finish
