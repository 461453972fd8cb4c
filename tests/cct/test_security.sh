#!/usr/bin/env bash
# Programs under a SecurityManager (JDK 17; JDK 24 and later have none):
# tests/programs/security/sec/Guarded, run with a policy that grants it
# almost nothing, its manager installed by the program or at start-up
# (-Djava.security.manager), plain, in app mode and in JDK mode. Checked:
# the instrumented run prints and exits as the plain one (the stack walk
# the policy forbids fails alike, the stack trace and the reflection
# show what plainly), and writes its profile, with the program's calls
# in it: the runtime's own work is done with the runtime's permissions,
# the patched modules' classes keep what the JDK's policy grants their
# modules (a locale provider of jdk.localedata formats a number), and
# cccp.rt, which every instrumented class names, is not a restricted
# package. Also, in JDK mode, what a program sees of the patched modules
# (tests/programs/patched/pm/Modules): a class's code source, and a
# module's resources listed by its reader and read after the reader is
# closed, as plainly.
# Environment: CCCP_REWRITE, CCCP_REPORT, BUILD, JDK17.
set -u
source "$(dirname "$0")/../lib.sh"

suite_tmp
JDK17=${JDK17:-/usr/lib/jvm/java-17-openjdk-amd64}
use_report
J="$JDK17/bin/java"

check "compile the programs" "$JDK17/bin/javac" -nowarn -d "$T/cls" \
  "$ROOT"/tests/programs/security/sec/*.java "$ROOT"/tests/programs/patched/pm/*.java
(cd "$T/cls" && "$JDK17/bin/jar" cf "$T/sec.jar" sec pm)
cat >"$T/sec.policy" <<'P'
grant {
  permission java.lang.RuntimePermission "exitVM.*";
  permission java.lang.RuntimePermission "setSecurityManager";
  permission java.lang.RuntimePermission "createSecurityManager";
};
P
expect_exit 0 "rewrite it (app mode)" "$REWRITE" -q "$T/sec.jar" -o "$T/app/"
expect_exit 0 "instrument JDK 17" "$REWRITE" -q --jdk "$JDK17" -o "$T/jdk"
expect_exit 0 "rewrite it against the instrumented JDK" \
  "$REWRITE" -q --summary "$T/jdk/jdk.summary" "$T/sec.jar" -o "$T/jm/"

POL=(-Djava.security.policy=="$T/sec.policy")
# run TAG HOW ARGS...: the program plain and as ARGS run it, its manager
# installed as HOW says (install: by the program; start: at start-up)
run() {
  local tag=$1 how=$2 rc0 rc1 sm=() a=()
  shift 2
  if [ "$how" = start ]; then sm=(-Djava.security.manager); else a=(install); fi
  "$J" "${sm[@]}" "${POL[@]}" -cp "$T/sec.jar" sec.Guarded "${a[@]}" \
    >"$T/$tag.plain" 2>"$T/$tag.eplain"
  rc0=$?
  "$J" "$@" "${sm[@]}" "${POL[@]}" -Dcccp.out="$T/$tag.xml" sec.Guarded \
    "${a[@]}" >"$T/$tag.out" 2>"$T/$tag.err"
  rc1=$?
  check "$tag: exits as plainly ($rc0)" test "$rc0" = 3 -a "$rc1" = 3
  check "$tag: prints what the plain run prints" cmp "$T/$tag.plain" "$T/$tag.out"
  # the JDK's warning about setSecurityManager names the caller's jar
  sed -i "s|file:$T/[a-z]*/*sec.jar|file:JAR|" "$T/$tag.eplain" "$T/$tag.err"
  check "$tag: ... on stderr too" cmp "$T/$tag.eplain" "$T/$tag.err"
  check "$tag: the forbidden walk fails alike" \
    grep -q '^walker java.security.AccessControlException' "$T/$tag.out"
  local n
  n=$("$REPORT" top --merge-threads --methods -n 0 "$T/$tag.xml" 2>/dev/null |
      awk '$NF == "sec/Guarded.work(I)I" { print $1 }')
  check "$tag: the profile is written, its calls there (${n:-none})" test "${n:-0}" = 100
}

run app-install install @"$T/app/cccp.args" -cp "$T/app/sec.jar"
run app-start start @"$T/app/cccp.args" -cp "$T/app/sec.jar"
run jdk-install install @"$T/jdk/cccp.args" -cp "$T/jm/sec.jar"
run jdk-start start @"$T/jdk/cccp.args" -cp "$T/jm/sec.jar"

"$J" -cp "$T/sec.jar" pm.Modules >"$T/pm.plain" 2>&1
"$J" @"$T/jdk/cccp.args" -Dcccp.out="$T/pm.xml" -cp "$T/jm/sec.jar" pm.Modules \
  >"$T/pm.out" 2>&1
check "patched modules: code sources and resource lists as plainly" \
  cmp "$T/pm.plain" "$T/pm.out"
check "... (a platform module's code source is its jrt: location)" \
  grep -q '^java.sql code source: jrt:/java.sql$' "$T/pm.out"

finish
