#!/usr/bin/env bash
# Open-world dispatch: classes the rewriter never saw (a directory that was
# not rewritten, a class defined at run time from its bytes, a proxy, a
# lambda) override methods of instrumented classes. Each kind of call site
# must run the override, exactly as the plain program does, on JDK 17 and
# 25; the profile puts the override's callees under the override. The
# program is tests/programs/open (ow: rewritten; ext: never rewritten).
# Synchronized methods (ow.SyncMain): an override outside the rewrite
# that does not lock runs without the receiver's monitor, on every path.
# The overrides print what they see of their stack (printStackTrace with
# cause and suppressed, Thread.getStackTrace of their own and of another
# thread, getAllStackTraces, StackWalker walks and getCallerClass): the
# twin that forwarded the call to them must not show, so the output is
# the plain run's. Without the agent it shows (line 65535), and the
# output differs. Agent only (cccp-rewrite --agent: nothing rewritten,
# ow and ext instrumented as they load, ext.Dyn as the program defines
# it): the output as plainly, the overrides nodes with their callees.
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
expect_exit 0 "the options of agent only" "$REWRITE" -q --agent -o "$T/agent"

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

# twins MODE IN.jar [ARG]: the twins of ow/Locked in a rewritten jar.
# 'sync OUT.jar': copies IN.jar with ACC_SYNCHRONIZED set again on each
# twin whose original is synchronized: the shape before such a twin
# locked by itself (after its owner check), so that it held the monitor
# while it forwarded. 'len NAME': the code length of the twin NAME.
twins() {
  python3 - "$@" <<'PY'
import struct, sys, zipfile
mode, src = sys.argv[1:3]
ENTRY = "ow/Locked.class"
SKIP = {3: 5, 4: 5, 9: 5, 10: 5, 11: 5, 12: 5, 17: 5, 18: 5, 5: 9, 6: 9,
        7: 3, 8: 3, 16: 3, 19: 3, 20: 3, 15: 4}
def methods(b):
    """(offset of the access flags, name, descriptor, code length)"""
    n = struct.unpack_from(">H", b, 8)[0]
    utf8, off, i = {}, 10, 1
    while i < n:
        tag = b[off]
        if tag == 1:
            ln = struct.unpack_from(">H", b, off + 1)[0]
            utf8[i] = b[off + 3:off + 3 + ln].decode()
            off += 3 + ln
        else:
            off += SKIP[tag]
            i += tag in (5, 6)
        i += 1
    off += 6
    off += 2 + 2 * struct.unpack_from(">H", b, off)[0]
    for member in (0, 1):
        cnt = struct.unpack_from(">H", b, off)[0]
        off += 2
        for _ in range(cnt):
            at = off
            _, ni, di, na = struct.unpack_from(">HHHH", b, off)
            off += 8
            code = None
            for _ in range(na):
                an, al = struct.unpack_from(">HI", b, off)
                if utf8[an] == "Code":
                    code = struct.unpack_from(">I", b, off + 10)[0]
                off += 6 + al
            if member:
                yield at, utf8[ni], utf8[di], code
zin = zipfile.ZipFile(src)
b = bytearray(zin.read(ENTRY))
ms = list(methods(b))
CC = "Lcccp/rt/CC;"
if mode == "len":
    print(next(c for _, n, d, c in ms if n == sys.argv[3] and CC in d))
else:
    sync = {(n, d) for at, n, d, _ in ms
            if struct.unpack_from(">H", b, at)[0] & 0x20}
    for at, n, d, _ in ms:
        if CC in d and (n, d.replace(CC, "")) in sync:
            b[at + 1] |= 0x20
    with zipfile.ZipFile(sys.argv[3], "w") as zout:
        for e in zin.infolist():
            zout.writestr(e, bytes(b) if e.filename == ENTRY else zin.read(e))
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
  # for ow.Leaf's missing superclass), left as it is at run time too
  # (--no-load-time: agent only instruments it); N2B wrappers assume a
  # closed world
  for mode in default n2b jop; do
    local flags=(--no-load-time); [ $mode = n2b ] && flags+=(--n2b-wrappers)
    [ $mode = jop ] && flags+=(--jop --count-bytecodes --count-allocations)
    mkdir -p "$B/$mode"
    expect_exit 0 "$mode: rewrite ow.jar alone" \
      "$REWRITE" "${flags[@]}" "$B/ow.jar" -o "$B/$mode/"
    if [ $mode = n2b ]; then
      expect_match "warning: --n2b-wrappers assumes a closed world" \
        "n2b: the closed-world mode says so at rewrite time" "$err"
    fi
  done
  mkdir -p "$B/oldsync"
  check "a copy whose twins are synchronized (the shape that held the monitor)" \
    twins sync "$B/default/ow.jar" "$B/oldsync/ow.jar"
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
    # without the agent's filters (the runtime on the boot class path,
    # the agent without "boot"), the forwarding twins' frames show
    { echo "-Xbootclasspath/a:$B/default/cccp-rt.jar"
      sed 's/=boot,/=/; s/=boot$//' "$B/default/cccp.args"; } >"$B/noagent.args"
    mkdir -p "$d/noagent"         # its own profile, apart from inst.txt's
    (cd "$d/noagent" && "$J/bin/java" @"$B/noagent.args" \
       -cp "$B/default/ow.jar:$B/ext" ow.Main "$B/dyn/Dyn.class" >../noagent.txt 2>&1)
    check "JDK $v: without the agent, stack traces show the forwarding frames" \
      grep -q "where:65535" "$d/noagent.txt"
    check "JDK $v: without the agent, getCallerClass names a twin's class" \
      grep -q "^  caller ow.Base" "$d/noagent.txt"
    mkdir -p "$d/agent"
    (cd "$d/agent" && "$J/bin/java" @"$T/agent/cccp.args" -Xverify:all \
       -cp "$B/ow.jar:$B/ext" ow.Main "$B/dyn/Dyn.class" >../agent.txt 2>&1)
    if cmp -s "$d/plain.txt" "$d/agent.txt"; then
      pass "JDK $v: agent only: output identical"
    else
      fail "JDK $v: agent only: output differs"
      diff "$d/plain.txt" "$d/agent.txt" | head -10 | sed 's/^/       /'
    fi
    (cd "$d/agent" && "$J/bin/java" @"$T/agent/cccp.args" -Xverify:all \
       -Dcccp.out=sync.xml -cp "$B/ow.jar:$B/ext" ow.SyncMain 20000 \
       >../sync-agent.txt 2>&1)
    (cd "$d" && "$J/bin/java" -cp "$B/ow.jar:$B/ext" ow.SyncMain 20000 \
       >sync-plain0.txt 2>&1)
    check "JDK $v: agent only: synchronized methods overridden: output identical" \
      cmp "$d/sync-plain0.txt" "$d/sync-agent.txt"
    [ "$g" = -g:none ] && continue
    check "JDK $v: agent only: an override defined at run time is a node, its callees under it" \
      name_under "$d/agent/cccp-profile.xml" ext/Dyn.get ow/Base.helper
    check "JDK $v: agent only: super call from an override reaches the original" \
      name_under "$d/agent/cccp-profile.xml" ext/Sub.get ow/Base.get
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
    check "JDK $v: an application interface method a class inherits from the library is a node" \
      name_under "$P" ow/Main.sizes java/util/ArrayList.size
    check "JDK $v: ... and one a class declares is its own node" \
      name_under "$P" ow/Main.sizes ow/Fixed.size
    check "JDK $v: a constructor that runs before its class's initializer is a node" \
      name_under "$P" 'ow/Outer.<clinit>' 'ow/Inner.<init>'
    # closed world: documented to differ, and it does (else this suite
    # would pass without exercising open-world dispatch)
    (cd "$d" && "$J/bin/java" @"$B/n2b/cccp.args" \
       -cp "$B/n2b/ow.jar:$B/ext" ow.Main "$B/dyn/Dyn.class" >n2b.txt 2>&1)
    check "JDK $v: --n2b-wrappers (closed world) does not see the overrides" \
      not_cmp "$d/plain.txt" "$d/n2b.txt"
    sync_suite "$J" "$v" "$B" "$d"
  done
}

# not_grep ERE FILE: passes when no line of FILE matches.
not_grep() { ! grep -Eq "$1" "$2"; }

# sync_suite JDK V B D: synchronized methods of ow.Locked; ext.Unlocked
# overrides one without 'synchronized'. The override must run without
# the monitor, as in the plain program (the twin forwards before it
# locks); the owned twins hold it, release it when they throw, re-enter
# it, and are compiled by the JITs.
sync_suite() {
  local J=$1 v=$2 B=$3 d=$4 mode name len
  (cd "$d" && "$J/bin/java" -cp "$B/ow.jar:$B/ext" ow.SyncMain 20000 >sync-plain.txt 2>&1)
  check "JDK $v: plain: the override runs without the monitor, another thread takes it" \
    grep -q "^override holds the monitor false; wait() threw IllegalMonitorStateException; a thread that locks it ran; base probe holds the monitor true" "$d/sync-plain.txt"
  check "JDK $v: plain: two threads count exactly; the monitor is free after a throw" \
    grep -q "^ext.Unlocked: two threads count 200000, depth 20" "$d/sync-plain.txt"
  for mode in default jop; do
    (cd "$d" && "$J/bin/java" @"$B/$mode/cccp.args" -Xverify:all \
       -cp "$B/$mode/ow.jar:$B/ext" ow.SyncMain 20000 >"sync-$mode.txt" 2>&1)
    if cmp -s "$d/sync-plain.txt" "$d/sync-$mode.txt"; then
      pass "JDK $v: $mode: synchronized methods, owned and overridden outside: output identical"
    else
      fail "JDK $v: $mode: synchronized methods: output differs"
      diff "$d/sync-plain.txt" "$d/sync-$mode.txt" | head -10 | sed 's/^/       /'
    fi
  done
  # the old shape held the monitor around the override: the suite sees it
  (cd "$d" && "$J/bin/java" @"$B/default/cccp.args" -Dopen.join=300 \
     -cp "$B/oldsync/ow.jar:$B/ext" ow.SyncMain 20000 >sync-old.txt 2>&1)
  check "JDK $v: a synchronized twin that forwards would hold the monitor (differs)" \
    grep -q "^override holds the monitor true; wait() returned; a thread that locks it is blocked" "$d/sync-old.txt"
  # HotSpot compiles a method with monitor instructions only when its
  # monitor-matching analysis pairs them all: the twins are compiled
  # (told apart by their code length; the loop calls no original) and
  # the analysis reports no mismatch
  (cd "$d" && "$J/bin/java" @"$B/default/cccp.args" -Xbatch -XX:+PrintCompilation \
     -Xlog:monitormismatch=info -cp "$B/default/ow.jar:$B/ext" ow.SyncMain 200000 \
     >sync-jit.txt 2>&1)
  for name in add nested; do
    len=$(twins len "$B/default/ow.jar" $name)
    check "JDK $v: the JITs compile the twin ow.Locked::$name ($len bytes) at tier 4" \
      grep -Eq "^ *[0-9]+ +[0-9]+ +[!a-z% ]* 4 +ow\.Locked::$name \($len bytes\)$" "$d/sync-jit.txt"
  done
  check "JDK $v: no monitor mismatch; nothing of ow.Locked left uncompiled" \
    not_grep "monitormismatch|ow\.Locked::.*(not compilable|COMPILE SKIPPED)" "$d/sync-jit.txt"
}

suite "$JDK17/bin/javac" 8 "${JDKS[@]}"
# no line numbers: the forwarding block's line entry is the method's only one
suite "$JDK17/bin/javac" 8 -g:none "${JDKS[@]}"
if [ -x "$JDK25/bin/javac" ]; then suite "$JDK25/bin/javac" 25 "$JDK25"
else echo "  skip Java 25 classes: no JDK 25 at $JDK25"; fi
finish
