#!/usr/bin/env bash
# make install PREFIX=... puts the tools, both runtime jars, the native
# agent and the man pages in FHS places (bin, share/cccp, share/man); the installed tools,
# run from another folder without CCCP_RT, find their runtime from their
# own location, instrument the bundled example, and read its profile back;
# make uninstall removes every file install wrote. The same staged under
# DESTDIR.
#
# Environment: CCCP_REWRITE, CCCP_REPORT, BUILD, JDK17.
set -u
source "$(dirname "$0")/../lib.sh"

JDK17=${JDK17:-/usr/lib/jvm/java-17-openjdk-amd64}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
EX="$ROOT/$BUILD/examples/wordfreq.jar"
[ -f "$EX" ] || make -s -C "$ROOT" BUILD="$BUILD" "$BUILD/examples/wordfreq.jar" >/dev/null
# the binaries under test (the sanitized build's in the ASan run)
BINDIR=$(cd "$(dirname "$REWRITE")" && pwd)
mk() { make -s -C "$ROOT" BUILD="$BUILD" BINDIR="$BINDIR" "$@"; }
FILES="bin/cccp-rewrite bin/cccp-report share/cccp/cccp-rt.jar
       share/cccp/cccp-rt-jdk.jar share/cccp/libcccp-agent.so
       share/man/man1/cccp-rewrite.1
       share/man/man1/cccp-report.1 share/man/man5/cccp-profile.5"

P="$T/prefix"
expect_exit 0 "make install PREFIX=DIR" mk install PREFIX="$P"
missing=""
for f in $FILES; do [ -s "$P/$f" ] || missing="$missing $f"; done
check "every file in its place (bin, share/cccp, share/man)${missing:+; missing:$missing}" \
  test -z "$missing"
check "the tools are executable" test -x "$P/bin/cccp-rewrite" -a -x "$P/bin/cccp-report"
check "the installed runtime is the built one" cmp "$P/share/cccp/cccp-rt.jar" "$ROOT/$BUILD/cccp-rt.jar"

# another folder, no CCCP_RT, no source tree on the way: the runtime is
# found at ../share/cccp from the binary
mkdir -p "$T/elsewhere" && cd "$T/elsewhere"
expect_exit 0 "the installed cccp-rewrite instruments the example from another folder" \
  env -u CCCP_RT "$P/bin/cccp-rewrite" -q "$EX" -o out/
check "... and copies the installed runtime beside it" cmp out/cccp-rt.jar "$P/share/cccp/cccp-rt.jar"
check "... and the installed native agent" cmp out/libcccp-agent.so "$P/share/cccp/libcccp-agent.so"
check "... which the options file loads, given the rewrite's summary" \
  grep -qx -- "-agentpath:$(pwd -P)/out/libcccp-agent.so=boot,app=$(pwd -P)/out/cccp.summary" out/cccp.args
if [ -x "$JDK17/bin/java" ]; then
  (cd out && "$JDK17/bin/java" -jar "$EX" >"$T/plain.txt" 2>&1)
  (cd out && "$JDK17/bin/java" @cccp.args -Dcccp.out="$T/p.xml" -jar wordfreq.jar \
     >"$T/inst.txt" 2>&1)
  check "the instrumented example prints what the plain one does ($(wc -l <"$T/plain.txt") lines)" \
    bash -c "test -s '$T/plain.txt' && cmp '$T/plain.txt' '$T/inst.txt'"
  expect_exit 0 "the installed cccp-report reads its profile" \
    env -u CCCP_RT "$P/bin/cccp-report" top -n 3 "$T/p.xml"
  expect_match 'wordfreq/Main\.main' "... whose hottest contexts lie under main" "$out"
else
  echo "  skip the run of the example: no java at $JDK17"
fi
cd "$T"

expect_exit 0 "make uninstall PREFIX=DIR" mk uninstall PREFIX="$P"
left=$(find "$P" -type f | sed "s#^$P/##" | tr '\n' ' ')
check "no file left behind${left:+: $left}" test -z "$left"

# staged: DESTDIR holds PREFIX's tree
S="$T/stage"
expect_exit 0 "make install DESTDIR=STAGE PREFIX=/usr/local" mk install DESTDIR="$S" PREFIX=/usr/local
check "the staged tree is under DESTDIR/usr/local" test -x "$S/usr/local/bin/cccp-rewrite" \
  -a -s "$S/usr/local/share/cccp/cccp-rt-jdk.jar" -a -s "$S/usr/local/share/man/man5/cccp-profile.5"
expect_exit 0 "make uninstall DESTDIR=STAGE PREFIX=/usr/local" mk uninstall DESTDIR="$S" PREFIX=/usr/local
check "the staged tree is empty again" test -z "$(find "$S" -type f)"
finish
