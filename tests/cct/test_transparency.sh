#!/usr/bin/env bash
# Transparency: what reflection shows of instrumented classes (declared and
# public methods, constructors and fields, getDeclaredMethod and friends,
# java.beans properties, record components, enum constants, the default
# serialVersionUID) and what stack walks show (printStackTrace,
# StackWalker, Thread.getStackTrace indexed; also inside lambdas and method
# references implementing an interface of the program, and a native method)
# and what helpful NullPointerException messages say of the calls
# are byte-identical to the plain run, on JDK 17 and 25, rewritten ahead
# of time and agent only (cccp-rewrite --agent: the plain jar, its
# classes instrumented as they load). The program is
# tests/programs/transparent. A run without the runtime's agent must
# differ (the suite can fail).
#
# Environment: CCCP_REWRITE, BUILD (cccp-rt.jar), JDK17, JDK25.
set -u
source "$(dirname "$0")/../lib.sh"

SRC="$ROOT/tests/programs/transparent"
export CCCP_RT=${CCCP_RT:-$ROOT/$BUILD/cccp-rt.jar}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

use_jdks
[ -f "$CCCP_RT" ] || { fail "missing $CCCP_RT (run make first)"; finish; exit; }

mkdir -p "$T/c" "$T/out"
"$JDK17/bin/javac" -nowarn -d "$T/c" "$SRC"/tp/*.java 2>"$T/javac.err" ||
  { fail "javac"; cat "$T/javac.err"; finish; exit; }
(cd "$T/c" && "$JDK17/bin/jar" cf "$T/tp.jar" tp)
expect_exit 0 "rewrite tp.jar (default options)" "$REWRITE" -q "$T/tp.jar" -o "$T/out/"
check "the argfile loads the native agent, which puts the runtime in" \
  grep -q -- '^-agentpath:.*libcccp-agent.so=boot' "$T/out/cccp.args"
check "the argfile has no -javaagent and no -Xbootclasspath/a" \
  bash -c "! grep -q -- '^-javaagent:\|^-Xbootclasspath' '$T/out/cccp.args'"
expect_exit 0 "the options of agent only" "$REWRITE" -q --agent -o "$T/agent"

for J in "${JDKS[@]}"; do
  v=$(jdk_version "$J")
  d="$T/run$v"; mkdir -p "$d"
  (cd "$d" && "$J/bin/java" -cp "$T/tp.jar" tp.Main >plain.txt 2>&1)
  check "JDK $v: the plain program prints members and a stack trace" \
    grep -q "at tp.Main.depth1" "$d/plain.txt"
  (cd "$d" && "$J/bin/java" @"$T/out/cccp.args" -cp "$T/out/tp.jar" tp.Main \
     >inst.txt 2>&1)
  if cmp -s "$d/plain.txt" "$d/inst.txt"; then
    pass "JDK $v: reflection, serialVersionUID and stack traces identical ($(wc -l <"$d/plain.txt") lines)"
  else
    fail "JDK $v: instrumented run differs"
    diff "$d/plain.txt" "$d/inst.txt" | head -12 | sed 's/^/       /'
  fi
  check "JDK $v: the instrumented run wrote a profile" test -s "$d/cccp-profile.xml"
  mkdir -p "$d/agent"
  (cd "$d/agent" && "$J/bin/java" @"$T/agent/cccp.args" -cp "$T/tp.jar" tp.Main \
     >../agent.txt 2>&1)
  if cmp -s "$d/plain.txt" "$d/agent.txt"; then
    pass "JDK $v: agent only: reflection, serialVersionUID and stack traces identical"
  else
    fail "JDK $v: agent only: the run differs"
    diff "$d/plain.txt" "$d/agent.txt" | head -12 | sed 's/^/       /'
  fi
  check "JDK $v: agent only: the program's methods are in the profile" \
    bash -c "[ \$('$REPORT' top --merge-threads --methods -n 0 '$d/agent/cccp-profile.xml' |
      grep -c ' tp/') -gt 20 ]"
  # a constructor that runs before its class's static initializer (it
  # sets the method ids) makes no node, not one named by id 0
  check "JDK $v: cccp-report reads the profile back" \
    "$REPORT" top -n 3 "$d/cccp-profile.xml"
  (cd "$d" && "$J/bin/java" -Xbootclasspath/a:"$CCCP_RT" -cp "$T/out/tp.jar" \
     tp.Main >noagent.txt 2>&1)
  check "JDK $v: without the agent, reflection shows the twins" \
    grep -q "cccp.rt.CC" "$d/noagent.txt"
  check "JDK $v: without the agent, the interface's twin shows under a lambda" \
    grep -q "at tp.Lambdas\$Fn.apply(Lambdas.java:65535)" "$d/noagent.txt"
  check "JDK $v: without the agent, a NullPointerException's message names a twin" \
    grep -q 'npe: Cannot invoke "tp.Messages$Area.area(int, cccp.rt.CC)"' "$d/noagent.txt"
done
finish
