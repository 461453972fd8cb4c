#!/usr/bin/env bash
# The project's own tests in the JDK's harness (tests/jtreg; Debian's
# jtreg7): stack walks and getCallerClass, under a SecurityManager with a
# policy file too; the dump at a System.exit under the program's
# manager; the JDK's modules' permissions (a locale provider under a
# policy that grants the program nothing); patched modules' code sources
# and ModuleReader.list() after close. Each JDK (17; 25 where installed,
# without the SecurityManager tests, which jtreg skips there by their
# @requires) runs them plain and instrumented (JDK mode, the argfile as
# -javaoptions of every test JVM): the same tests run, each passes in
# both, and the instrumented JVMs write profiles.
# Environment: CCCP_REWRITE, BUILD, JDK17, JDK25, JTREG.
set -u
source "$(dirname "$0")/../lib.sh"

suite_tmp
use_jdks
JTREG=${JTREG:-/usr/bin/jtreg}
if [ ! -x "$JTREG" ]; then
  echo "  skip: no jtreg at $JTREG (make deps installs jtreg7)"
  finish
  exit 0
fi
export CCCP_RT=${CCCP_RT:-$ROOT/$BUILD/cccp-rt.jar}

# results DIR: "TEST STATUS" per test of jtreg's work directory DIR
results() {
  (cd "$1" && for f in */*.jtr; do
     printf '%s %s\n' "${f%.jtr}" "$(sed -n 's/^execStatus=\([A-Za-z]*\).*/\1/p' "$f")"
   done) | sort
}

for J in "${JDKS[@]}"; do
  v=$(jdk_version "$J")
  echo "-- JDK $v"
  "$JTREG" -jdk:"$J" -othervm -w "$T/p$v" -r "$T/pr$v" -noreport \
    "$ROOT/tests/jtreg" >"$T/p$v.log" 2>&1
  results "$T/p$v" >"$T/p$v.res"
  n=$(wc -l <"$T/p$v.res")
  want=2; [ "$v" -lt 24 ] && want=5
  check "JDK $v plain: $n tests run, all pass" \
    bash -c "[ $n -ge $want ] && ! grep -qv ' Passed\$' '$T/p$v.res'"
  expect_exit 0 "instrument JDK $v" "$REWRITE" -q --jdk "$J" -o "$T/jdk$v"
  "$JTREG" -jdk:"$J" -othervm \
    -javaoptions:"@$T/jdk$v/cccp.args -Dcccp.out=$T/jt$v.xml" \
    -w "$T/i$v" -r "$T/ir$v" -noreport "$ROOT/tests/jtreg" >"$T/i$v.log" 2>&1
  results "$T/i$v" >"$T/i$v.res"
  check "JDK $v instrumented: the same tests, each passes as plainly" \
    cmp "$T/p$v.res" "$T/i$v.res"
  [ -s "$T/i$v.res" ] && ! cmp -s "$T/p$v.res" "$T/i$v.res" &&
    { diff "$T/p$v.res" "$T/i$v.res"; grep -h -m3 'Exception\|Error' "$T/i$v"/*/*.jtr; }
  check "JDK $v instrumented: the test JVMs ran on it (a profile)" \
    grep -q '<cct' "$T/jt$v.xml"
done

finish
