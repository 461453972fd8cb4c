#!/usr/bin/env bash
# Leaves the runtime picks: an app-mode call into the library whose
# target only the receiver's class tells (Iterator.hasNext) publishes its
# node in the thread's slot unless the method selected is a leaf of the
# JDK, which the rewriter lists in DIR/cccp.leaves for the JDK it rewrote
# against. The program (tests/programs/leaves) reads the slot around
# each call and prints whether the call left its node there; the profile
# must be the same with the list and without it. On another JDK than the
# list's, or without the list, every such call publishes, as before.
# A rewrite whose code makes no such call writes no list (and removes an
# old one).
#
# Environment: CCCP_REWRITE, CCCP_REPORT, BUILD (cccp-rt.jar), JDK17,
# JDK25.
set -u
source "$(dirname "$0")/../lib.sh"

SRC="$ROOT/tests/programs/leaves"
export CCCP_RT=${CCCP_RT:-$ROOT/$BUILD/cccp-rt.jar}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

use_jdks
[ -f "$CCCP_RT" ] || { fail "missing $CCCP_RT (run make first)"; finish; exit; }

LEAF="hasNext true kept, next a published, size 2 kept, own true published"
NONE="hasNext true published, next a published, size 2 published, own true published"
# three lines of LINE
thrice() { printf '%s\n%s\n%s' "$1" "$1" "$1"; }

check "compile the program" "$JDK17/bin/javac" --release 8 -nowarn \
  -cp "$CCCP_RT" -d "$T/cls" "$SRC/lv/Main.java"
check "jar it" "$JDK17/bin/jar" cf "$T/lv.jar" -C "$T/cls" .
expect_exit 0 "plain run" "$JDK17/bin/java" -cp "$T/lv.jar:$CCCP_RT" lv.Main
PLAIN=$out

for J in "${JDKS[@]}"; do
  v=$("$J/bin/java" -XshowSettings:properties -version 2>&1 |
      sed -n 's/^ *java.runtime.version = //p')
  o=$T/out-${J##*/}
  echo "-- rewritten against $J ($v)"
  expect_exit 0 "rewrite" env JAVA_HOME="$J" "$REWRITE" -q "$T/lv.jar" -o "$o/"
  check "the list's first line names the JDK's build" \
    test "$(head -1 "$o/cccp.leaves")" = "cccp-leaves 1 $v"
  check "it lists ArrayList\$Itr.hasNext and ArrayList.size" bash -c \
    "grep -qxF 'java/util/ArrayList\$Itr.hasNext()Z' '$o/cccp.leaves' &&
     grep -qxF 'java/util/ArrayList.size()I' '$o/cccp.leaves'"
  check "not ArrayList\$Itr.next, which may throw (not a leaf)" bash -c \
    "! grep -q 'ArrayList\\\$Itr.next' '$o/cccp.leaves'"
  check "the options file names it" grep -qxF -e "-Dcccp.leaves=$o/cccp.leaves" "$o/cccp.args"
  expect_exit 0 "run" "$J/bin/java" @"$o/cccp.args" -Dcccp.out="$T/l.xml" -cp "$o/lv.jar" lv.Main
  check "output as the plain run's, but for the slot" \
    test "$(printf '%s' "$out" | sed 's/published/kept/g')" = "$(printf '%s' "$PLAIN")"
  check "leaves keep the slot, the others publish" test "$out" = "$(thrice "$LEAF")"
  grep -v '^-Dcccp.leaves=' "$o/cccp.args" >"$T/none.args"
  expect_exit 0 "run without the list" "$J/bin/java" @"$T/none.args" \
    -Dcccp.out="$T/n.xml" -cp "$o/lv.jar" lv.Main
  check "every call publishes" test "$out" = "$(thrice "$NONE")"
  expect_exit 0 "the same profile" "$REPORT" compare --min-overlap 100 "$T/l.xml" "$T/n.xml"
  expect_match "contexts: A ([0-9]+), B \\1, common \\1, differing 0" "every context" "$out"
  { echo "cccp-leaves 1 0.0.0-another"; tail -n +2 "$o/cccp.leaves"; } >"$T/other.leaves"
  expect_exit 0 "run with another JDK's list" "$J/bin/java" @"$T/none.args" \
    -Dcccp.leaves="$T/other.leaves" -Dcccp.out="$T/o.xml" -cp "$o/lv.jar" lv.Main
  check "it is not used" test "$out" = "$(thrice "$NONE")"
  expect_exit 0 "run with a list that is not there" "$J/bin/java" @"$T/none.args" \
    -Dcccp.leaves="$T/missing.leaves" -cp "$o/lv.jar" lv.Main
  check "every call publishes" test "$out" = "$(thrice "$NONE")"
  expect_exit 0 "rewrite, every body compact" env JAVA_HOME="$J" "$REWRITE" -q \
    --compact-above 1 "$T/lv.jar" -o "$o/c/"
  expect_exit 0 "run" "$J/bin/java" @"$o/c/cccp.args" -Dcccp.out="$T/c.xml" -cp "$o/c/lv.jar" lv.Main
  check "leaves keep the slot, the others publish" test "$out" = "$(thrice "$LEAF")"
  expect_exit 0 "the same profile" "$REPORT" compare --min-overlap 100 "$T/l.xml" "$T/c.xml"
done

if [ "${#JDKS[@]}" -gt 1 ]; then
  echo "-- rewritten against JDK 17, run on ${JDKS[1]}"
  o=$T/out-${JDK17##*/}
  expect_exit 0 "run" "${JDKS[1]}/bin/java" @"$o/cccp.args" -cp "$o/lv.jar" lv.Main
  check "the list of another build is not used" test "$out" = "$(thrice "$NONE")"
fi

echo "-- no virtual call into the library"
mkdir -p "$T/s/st"
cat >"$T/s/st/Main.java" <<'EOF'
package st;
public class Main {
  public static void main(String[] args) {
    System.out.println(Math.max(args.length, 2));
  }
}
EOF
check "compile" "$JDK17/bin/javac" -d "$T/s/cls" "$T/s/st/Main.java"
check "jar" "$JDK17/bin/jar" cf "$T/s/st.jar" -C "$T/s/cls" .
o=$T/out-${JDK17##*/}
expect_exit 0 "rewrite into the folder that has a list" \
  env JAVA_HOME="$JDK17" "$REWRITE" -q "$T/s/st.jar" -o "$o/"
check "no list: the old one is gone" test ! -e "$o/cccp.leaves"
check "the options file names none" bash -c "! grep -q cccp.leaves '$o/cccp.args'"
expect_exit 0 "run" "$JDK17/bin/java" @"$o/cccp.args" -cp "$o/st.jar" st.Main
check "prints 2" test "$out" = 2

finish
