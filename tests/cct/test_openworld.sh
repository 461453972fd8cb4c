#!/usr/bin/env bash
# Open-world dispatch: classes the rewriter never saw (a directory that was
# not rewritten, a class defined at run time from its bytes, a proxy, a
# lambda) override methods of instrumented classes. Each kind of call site
# must run the override, exactly as the plain program does, on JDK 17 and
# 25; the profile puts the override's callees under the override. The
# program is tests/programs/open (ow: rewritten; ext: never rewritten).
# The overrides print what they see of their stack (printStackTrace with
# cause and suppressed, Thread.getStackTrace of their own and of another
# thread, getAllStackTraces, StackWalker walks and getCallerClass): the
# twin that forwarded the call to them must not show, so the output is
# the plain run's. Without the agent it shows (line 65535), and the
# output differs.
#
# Environment: CCCP_REWRITE, BUILD (cccp-rt.jar), JDK17, JDK25.
set -u
source "$(dirname "$0")/../lib.sh"

SRC="$ROOT/tests/programs/open"
export CCCP_RT=${CCCP_RT:-$ROOT/$BUILD/cccp-rt.jar}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

use_jdks
[ -f "$CCCP_RT" ] || { fail "missing $CCCP_RT (run make first)"; finish; exit; }

# name_under FILE PARENT CHILD: a node named CHILD (class.name) sits
# directly under one named PARENT in the main thread's tree.
name_under() {
  python3 - "$@" <<'PY'
import sys, xml.etree.ElementTree as ET
f, parent, child = sys.argv[1:4]
r = ET.parse(f).getroot()
name = {m.get('id'): m.get('class') + '.' + m.get('name') for m in r.iter('method')}
for t in r.iter('tree'):
    for p in t.iter('node'):
        if name.get(p.get('method')) == parent and any(
                name.get(c.get('method')) == child for c in p.findall('node')):
            sys.exit(0)
print('no', child, 'under', parent); sys.exit(1)
PY
}

# suite JAVAC RELEASE [-g:none] JDK...: compile with JAVAC for RELEASE
# (class version 52: method ids in fields; 69: in dynamic constants),
# with or without debug information (line numbers), rewrite, run on each
# JDK.
suite() {
  local javac=$1 rel=$2 g=-g; shift 2
  [ "$1" = -g:none ] && { g=$1; shift; }
  local B="$T/r$rel$([ $g = -g ] || echo -nolines)" xrel=$rel
  echo "-- classes compiled for Java $rel ($g)"
  # ow and ext are compiled together (ow.Leaf extends ext.Sub); ext uses
  # StackWalker (Java 9), so for Java 8 everything is compiled for 11
  # first and ow again for 8 against it; ext.Dyn is kept apart: only the
  # program defines it, from its bytes
  [ "$rel" -lt 11 ] && xrel=11
  mkdir -p "$B/c" "$B/x" "$B/ext" "$B/dyn"
  "$javac" --release "$xrel" $g -nowarn -d "$B/x" $(find "$SRC" -name '*.java') \
    2>"$B/javac.err" &&
  "$javac" --release "$rel" $g -nowarn -cp "$B/x" -d "$B/c" "$SRC"/ow/*.java \
    2>>"$B/javac.err" || { fail "javac --release $rel"; cat "$B/javac.err"; return; }
  cp -r "$B/x/ext" "$B/c/"
  (cd "$B/c" && "$JDK17/bin/jar" cf "$B/ow.jar" ow)
  cp -r "$B/c/ext" "$B/ext/"
  mv "$B/ext/ext/Dyn.class" "$B/dyn/"
  # the rewriter sees only ow.jar: ext is the open world (one warning,
  # for ow.Leaf's missing superclass); N2B wrappers assume a closed world
  for mode in default n2b; do
    local flags=(); [ $mode = n2b ] && flags=(--n2b-wrappers)
    mkdir -p "$B/$mode"
    expect_exit 0 "$mode: rewrite ow.jar alone" \
      "$REWRITE" "${flags[@]}" "$B/ow.jar" -o "$B/$mode/"
    if [ $mode = n2b ]; then
      expect_match "warning: --n2b-wrappers assumes a closed world" \
        "n2b: the closed-world mode says so at rewrite time" "$err"
    fi
  done
  local J
  for J in "$@"; do
    v=$(jdk_version "$J")
    d="$B/run$v"; mkdir -p "$d"
    (cd "$d" && "$J/bin/java" -cp "$B/ow.jar:$B/ext" ow.Main "$B/dyn/Dyn.class" \
       >plain.txt 2>&1)
    check "JDK $v: the plain program runs the overrides" \
      grep -q "^defined at run time 107 214" "$d/plain.txt"
    check "JDK $v: the overrides looked at their stacks" \
      grep -q "^  caller ow.Main" "$d/plain.txt"
    (cd "$d" && "$J/bin/java" @"$B/default/cccp.args" -Xverify:all \
       -cp "$B/default/ow.jar:$B/ext" ow.Main "$B/dyn/Dyn.class" >inst.txt 2>&1)
    if cmp -s "$d/plain.txt" "$d/inst.txt"; then
      pass "JDK $v: instrumented output identical ($(wc -l <"$d/plain.txt") lines)"
    else
      fail "JDK $v: instrumented output differs"
      diff "$d/plain.txt" "$d/inst.txt" | head -10 | sed 's/^/       /'
    fi
    # without the agent, the forwarding twins' frames show
    grep -v -- '^-javaagent:' "$B/default/cccp.args" >"$B/noagent.args"
    mkdir -p "$d/noagent"         # its own profile, apart from inst.txt's
    (cd "$d/noagent" && "$J/bin/java" @"$B/noagent.args" \
       -cp "$B/default/ow.jar:$B/ext" ow.Main "$B/dyn/Dyn.class" >../noagent.txt 2>&1)
    check "JDK $v: without the agent, stack traces show the forwarding frames" \
      grep -q "where:65535" "$d/noagent.txt"
    check "JDK $v: without the agent, getCallerClass names a twin's class" \
      grep -q "^  caller ow.Base" "$d/noagent.txt"
    [ "$g" = -g:none ] && continue
    P="$d/cccp-profile.xml"
    check "JDK $v: an override defined at run time is a node, its callees under it" \
      name_under "$P" ext/Dyn.get ow/Base.helper
    check "JDK $v: super call from an override reaches the instrumented original" \
      name_under "$P" ext/Sub.get ow/Base.get
    check "JDK $v: a self call inside an instrumented method reaches the override" \
      name_under "$P" ow/Base.twice ext/Sub.get
    check "JDK $v: interface default overridden outside" \
      name_under "$P" ow/Shape.describe ext/Circle.name
    check "JDK $v: interface default inherited by a lambda stays instrumented" \
      name_under "$P" ow/Shape.describe ow/Shape.name
    # closed world: documented to differ, and it does (else this suite
    # would pass without exercising open-world dispatch)
    (cd "$d" && "$J/bin/java" @"$B/n2b/cccp.args" \
       -cp "$B/n2b/ow.jar:$B/ext" ow.Main "$B/dyn/Dyn.class" >n2b.txt 2>&1)
    check "JDK $v: --n2b-wrappers (closed world) does not see the overrides" \
      not_cmp "$d/plain.txt" "$d/n2b.txt"
  done
}

suite "$JDK17/bin/javac" 8 "${JDKS[@]}"
# no line numbers: the forwarding block's line entry is the method's only one
suite "$JDK17/bin/javac" 8 -g:none "${JDKS[@]}"
if [ -x "$JDK25/bin/javac" ]; then suite "$JDK25/bin/javac" 25 "$JDK25"
else echo "  skip Java 25 classes: no JDK 25 at $JDK25"; fi
finish
