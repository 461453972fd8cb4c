#!/usr/bin/env bash
# A program that patches JDK modules itself (tests/programs/patchmod:
# java.base gets a replaced java.lang.Void and a new class, java.logging
# a new class): the JVM takes one --patch-module per module, and the
# instrumented JDK's options file already has one for every module, so
# the program's patches go to cccp-rewrite (--jdk ... --patch-module),
# which instruments them as part of their modules. On JDK 17 and 25: the
# instrumented run prints what the plain run with the program's own
# --patch-module prints, the patched classes replace the JDK's in the
# module's jar (once each), the rewrite warns of nothing, and the profile
# has the patch's methods with the JDK calls they make. A caller-sensitive
# method of the patch that asks StackWalker.getCallerClass gets the JVM's
# refusal, in JDK mode and in app mode (the program rewritten, its own
# --patch-module on the command line). Usage errors:
# --patch-module without --jdk, without '=', twice for one module, for a
# module the JDK lacks.
#
# Environment: CCCP_REWRITE, BUILD (cccp-rt.jar), JDK17, JDK25.
set -u
source "$(dirname "$0")/../lib.sh"

SRC="$ROOT/tests/programs/patchmod"
export CCCP_RT=${CCCP_RT:-$ROOT/$BUILD/cccp-rt.jar}
suite_tmp
use_jdks
[ -f "$CCCP_RT" ] || { fail "missing $CCCP_RT (run make first)"; finish; exit; }

JC="$JDK17/bin/javac"
"$JC" -nowarn --release 17 --patch-module java.base="$SRC/base" -d "$T/base" \
  $(find "$SRC/base" -name '*.java') 2>"$T/javac.err" &&
"$JC" -nowarn --release 17 --patch-module java.logging="$SRC/logging" \
  -d "$T/logging" $(find "$SRC/logging" -name '*.java') 2>>"$T/javac.err" &&
"$JC" -nowarn --release 17 -d "$T/app" "$SRC/app/Main.java" 2>>"$T/javac.err" ||
  { fail "javac"; cat "$T/javac.err"; finish; exit; }
"$JDK17/bin/jar" cf "$T/base.jar" -C "$T/base" .
"$JDK17/bin/jar" cf "$T/logging.jar" -C "$T/logging" .
"$JDK17/bin/jar" cf "$T/main.jar" -C "$T/app" .
expect_exit 0 "rewrite the program (app mode, default options)" \
  "$REWRITE" -q "$T/main.jar" -o "$T/appmode/"

expect_exit 2 "--patch-module needs --jdk" \
  "$REWRITE" -q --patch-module java.base="$T/base.jar" "$T/base.jar" -o "$T/x/"
expect_exit 2 "--patch-module needs MODULE=PATH" \
  "$REWRITE" -q --jdk "$JDK17" --patch-module java.base -o "$T/x"
expect_exit 2 "--patch-module names a module once" \
  "$REWRITE" -q --jdk "$JDK17" --patch-module java.base="$T/base.jar" \
  --patch-module java.base="$T/logging.jar" -o "$T/x"
expect_exit 1 "--patch-module's path must exist" \
  "$REWRITE" -q --jdk "$JDK17" --patch-module java.base="$T/none.jar" -o "$T/x"
expect_exit 2 "--patch-module of a module the JDK lacks" \
  "$REWRITE" -q --jdk "$JDK17" --patch-module no.such.module="$T/base.jar" \
  -o "$T/x"
expect_match "has no module no.such.module" "... and says which" "$err"

for J in "${JDKS[@]}"; do
  v=$(jdk_version "$J")
  "$J/bin/java" --patch-module java.base="$T/base.jar" \
    --patch-module java.logging="$T/logging.jar" -cp "$T/app" Main \
    >"$T/plain$v.out" 2>"$T/plain$v.err"
  check "JDK $v plain: the program runs on its patches" \
    grep -q "^Void patched" "$T/plain$v.out"
  check "JDK $v plain: getCallerClass refused to a caller-sensitive method" \
    grep -q "UnsupportedOperationException: StackWalker::getCallerClass" "$T/plain$v.out"
  "$J/bin/java" @"$T/appmode/cccp.args" --patch-module java.base="$T/base.jar" \
    --patch-module java.logging="$T/logging.jar" -cp "$T/appmode/main.jar" Main \
    >"$T/app$v.out" 2>"$T/app$v.err"
  check "JDK $v app mode, the program's own patches: prints as plain" \
    cmp "$T/plain$v.out" "$T/app$v.out"
  "$REWRITE" --jdk "$J" --patch-module java.base="$T/base.jar" \
    --patch-module "java.logging=:$T/logging.jar" \
    -o "$T/jdk$v" >/dev/null 2>"$T/rw$v.err"
  rc=$?
  check "JDK $v: instrument the JDK with the patches (exit 0)" test $rc = 0
  check "JDK $v: no warning of the patches' classes" \
    bash -c "! grep -e base.jar -e logging.jar -e duplicate '$T/rw$v.err'"
  check "JDK $v: the replaced class once in java.base's jar" \
    test "$(unzip -l "$T/jdk$v/java.base.jar" | grep -c ' java/lang/Void.class$')" = 1
  check "JDK $v: the new classes in their modules' jars" \
    bash -c "unzip -l '$T/jdk$v/java.base.jar' | grep -q ' java/util/Patched.class\$' &&
             unzip -l '$T/jdk$v/java.logging.jar' | grep -q ' java/util/logging/PatchedLog.class\$'"
  "$J/bin/java" @"$T/jdk$v/cccp.args" -Dcccp.out="$T/p$v.xml" -cp "$T/app" \
    Main >"$T/inst$v.out" 2>"$T/inst$v.err"
  check "JDK $v instrumented: prints what the plain run with its patches does" \
    cmp "$T/plain$v.out" "$T/inst$v.out"
  check "JDK $v instrumented: standard error as plain" \
    cmp "$T/plain$v.err" "$T/inst$v.err"
  "$REPORT" folded "$T/p$v.xml" >"$T/p$v.folded" 2>&1
  check "JDK $v: the profile has the patch's methods and their JDK calls" \
    bash -c "grep -q ';java/util/Patched.hello;java/util/List.of;' '$T/p$v.folded' &&
             grep -q ';java/lang/Void.patched ' '$T/p$v.folded' &&
             grep -q ';java/util/logging/PatchedLog.hi;java/util/logging/Logger.getAnonymousLogger' '$T/p$v.folded'"
done

finish
