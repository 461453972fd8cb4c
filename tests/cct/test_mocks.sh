#!/usr/bin/env bash
# A small library and its JUnit 4 tests, run instrumented under Debian's
# JUnit with Mockito mocks and spies of instrumented classes (ByteBuddy
# subclasses made at run time), a cglib proxy and a Guice injector that
# picks the @Inject constructor and binds an anonymous subclass: the same
# tests pass and fail as in the plain run (one fails on purpose), and
# stubbed methods answer as stubbed (the tests assert it). Twice: the
# library and its tests rewritten, then every jar of the class path
# (JUnit, Mockito, ByteBuddy, cglib, Guice, Guava too); and agent only
# (no jar rewritten: every class instrumented as it loads). JDK 17 and 25.
# The program is tests/programs/mocks.
#
# Environment: CCCP_REWRITE, BUILD, JDK17, JDK25.
set -u
source "$(dirname "$0")/../lib.sh"

SRC="$ROOT/tests/programs/mocks"
SJ=/usr/share/java
export CCCP_RT=${CCCP_RT:-$ROOT/$BUILD/cccp-rt.jar}
T=$(mktemp -d)
trap '[ -n "${KEEP:-}" ] || rm -rf "$T"' EXIT

use_jdks

LIBS=""
for j in junit4 hamcrest-core mockito-core byte-buddy byte-buddy-agent \
         objenesis cglib asm guice atinject-jsr330-api aopalliance guava; do
  [ -f "$SJ/$j.jar" ] || { echo "  skip: no $SJ/$j.jar"; finish; exit; }
  LIBS="$LIBS $SJ/$j.jar"
done
LCP=$(echo $LIBS | tr ' ' ':')
# cglib defines classes through ClassLoader.defineClass, as its users
# know to allow
OPENS="--add-opens java.base/java.lang=ALL-UNNAMED"

mkdir -p "$T/c"
"$JDK17/bin/javac" -nowarn -cp "$LCP" -d "$T/c" $(find "$SRC" -name '*.java') \
  2>"$T/javac.err" || { fail "javac"; cat "$T/javac.err"; finish; exit; }
(cd "$T/c" && "$JDK17/bin/jar" cf "$T/shop.jar" shop && "$JDK17/bin/jar" cf "$T/shoptest.jar" shoptest)

# what JUnit reports, without stack frames and times (and the folder of
# the jars JDK 25's warnings name)
report() {
  grep -v -E '^\s+at |^\s+\.\.\. [0-9]+ (more|trimmed)|^Time: ' "$1" |
    sed -E 's#\(file:[^)]*/([^/)]*)\)#(file:.../\1)#g'
}

mkdir -p "$T/lib" "$T/all"
expect_exit 0 "rewrite the library and its tests" \
  "$REWRITE" -q "$T/shop.jar" "$T/shoptest.jar" --classpath "$LCP" -o "$T/lib/"
expect_exit 0 "rewrite every jar of the class path" \
  "$REWRITE" -q "$T/shop.jar" "$T/shoptest.jar" $LIBS -o "$T/all/"
expect_exit 0 "the options of agent only" "$REWRITE" -q --agent -o "$T/agent/"
ALLCP=""
for j in "$T/shop.jar" "$T/shoptest.jar" $LIBS; do
  ALLCP="$ALLCP${ALLCP:+:}$T/all/$(basename "$j")"
done

for J in "${JDKS[@]}"; do
  v=$(jdk_version "$J")
  d="$T/run$v"; mkdir -p "$d"
  (cd "$d" && "$J/bin/java" $OPENS -cp "$T/shop.jar:$T/shoptest.jar:$LCP" \
     org.junit.runner.JUnitCore shoptest.ShopTest >plain.txt 2>&1)
  check "JDK $v: plain: 8 tests, the one meant to fail fails" \
    grep -q "^Tests run: 8,  Failures: 1" "$d/plain.txt"
  for how in lib all agent; do
    cp="$T/lib/shop.jar:$T/lib/shoptest.jar:$LCP"
    [ $how = all ] && cp="$ALLCP"
    [ $how = agent ] && cp="$T/shop.jar:$T/shoptest.jar:$LCP"
    (cd "$d" && "$J/bin/java" @"$T/$how/cccp.args" -Dcccp.out="$d/$how.xml" $OPENS \
       -cp "$cp" org.junit.runner.JUnitCore shoptest.ShopTest >$how.txt 2>&1)
    if cmp -s <(report "$d/plain.txt") <(report "$d/$how.txt"); then
      pass "JDK $v, $how rewritten: the same tests pass and fail"
    else
      fail "JDK $v, $how rewritten: JUnit reports differ"
      diff <(report "$d/plain.txt") <(report "$d/$how.txt") | head -8 | sed 's/^/       /'
    fi
    check "JDK $v, $how rewritten: profile written, the library's methods in it" \
      bash -c "[ \$('$REPORT' top --merge-threads --methods -n 0 '$d/$how.xml' |
        grep -c ' shop/') -gt 3 ]"
  done
done
finish
