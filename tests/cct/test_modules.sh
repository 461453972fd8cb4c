#!/usr/bin/env bash
# Programs run from the module path. tests/programs/modules is three
# jars: demo.app (an explicit module, run with -m) requires demo.lib
# (explicit) and auto (a jar with no module-info: an automatic module).
# The instrumented classes of a named module name the runtime, which a
# named module cannot reach on its own (app mode: the boot loader's
# unnamed module, which no named module reads; JDK mode: java.base,
# which exports cccp.rt to the JDK's modules and the class path only):
# the agent gives each such module access as its first instrumented
# class loads. In app mode and in JDK mode, on JDK 17 and 25, the
# rewritten jars print what the plain ones do, and the profile holds
# each module's methods with their exact counts. Then JRuby (Debian's
# jruby, when installed) as its launcher runs it, jruby.jar on the module
# path (app mode; JDK mode on JDK 17): the same output, and the Ruby
# method JRuby compiles to a class at run time in the profile.
#
# Environment: CCCP_REWRITE, CCCP_REPORT, BUILD, JDK17, JDK25.
set -u
source "$(dirname "$0")/../lib.sh"

SRC="$ROOT/tests/programs/modules"
suite_tmp
use_jdks
use_report

J17="$JDK17/bin"
build() {
  mkdir -p "$T/c/lib" "$T/c/auto" "$T/c/app" "$T/mods" &&
    "$J17/javac" --release 11 -nowarn -d "$T/c/lib" \
      "$SRC/lib/module-info.java" "$SRC/lib/demo/lib/Shapes.java" &&
    "$J17/jar" cf "$T/mods/demo.lib.jar" -C "$T/c/lib" . &&
    "$J17/javac" --release 11 -nowarn -d "$T/c/auto" \
      "$SRC/auto/demo/auto/Words.java" &&
    "$J17/jar" cf "$T/mods/auto.jar" -C "$T/c/auto" . &&
    "$J17/javac" --release 11 -nowarn -p "$T/mods" -d "$T/c/app" \
      "$SRC/app/module-info.java" "$SRC/app/demo/app/Main.java" &&
    "$J17/jar" cf "$T/mods/demo.app.jar" -C "$T/c/app" .
}
check "javac builds demo.lib, auto and demo.app" build
[ -f "$T/mods/demo.app.jar" ] || { finish; exit; }
JARS=("$T/mods/demo.lib.jar" "$T/mods/auto.jar" "$T/mods/demo.app.jar")
# the module path of the jars rewritten into DIR (the jars only: the
# folder also holds the runtime's jar)
mp() { echo "$1/demo.lib.jar:$1/auto.jar:$1/demo.app.jar"; }

# JDK mode's options file patches every module of the JDK; a program
# run with -m resolves only those it needs, and the launcher warns of
# the others (docs/design.md)
unwarned() { grep -Ev '^WARNING: Unknown module: .* specified to --(patch-module|add-exports)$' "$1"; }

# same_run LABEL PLAIN_PREFIX INST_PREFIX: stdout identical, and stderr
# (JDK mode's launcher warnings aside) too
same_run() {
  check "$1: prints what the plain run prints" cmp -s "$2.out" "$3.out"
  [ -s "$3.out" ] || sed 's/^/       /' "$3.err" | head -5
  check "$1: its stderr is the plain run's" \
    cmp -s <(unwarned "$2.err") <(unwarned "$3.err")
}

# counts LABEL PROFILE: each module's methods in the profile, exactly
counts() {
  local p=$2
  expect_match '^1973$' "$1: demo.app's fib(15), 1973 calls" \
    "$(method_calls "$p" 'demo/app/Main.fib(I)I')"
  expect_match '^1$' "$1: demo.lib's Shapes.sorted, once" \
    "$(method_calls "$p" 'demo/lib/Shapes.sorted(Ljava/util/List;)Ljava/util/List;')"
  expect_match '^1$' "$1: the automatic module's Words.count, once" \
    "$(method_calls "$p" 'demo/auto/Words.count(Ljava/lang/String;)Ljava/util/Map;')"
}

check "app mode: rewrite the three jars" "$REWRITE" -q "${JARS[@]}" -o "$T/app/"
for J in "${JDKS[@]}"; do
  v=$(jdk_version "$J")
  (cd "$T" && "$J/bin/java" -p "$(mp "$T/mods")" -m demo.app/demo.app.Main \
     >"$T/p$v.out" 2>"$T/p$v.err")
  check "JDK $v: the plain program runs" grep -qx 'fib=610' "$T/p$v.out"
  (cd "$T" && "$J/bin/java" @"$T/app/cccp.args" -Dcccp.out="$T/a$v.xml" \
     -p "$(mp "$T/app")" -m demo.app/demo.app.Main >"$T/a$v.out" 2>"$T/a$v.err")
  same_run "JDK $v, app mode" "$T/p$v" "$T/a$v"
  counts "JDK $v, app mode" "$T/a$v.xml"
  # JDK mode: the JDK instrumented, the jars rewritten against it
  if "$REWRITE" -q --jdk "$J" -o "$T/jdk$v" 2>"$T/jdk$v.log" &&
     "$REWRITE" -q --summary "$T/jdk$v/jdk.summary" "${JARS[@]}" -o "$T/j$v/"; then
    pass "JDK $v: instrument the JDK, rewrite the jars against it"
    (cd "$T" && "$J/bin/java" @"$T/j$v/cccp.args" -Dcccp.out="$T/j$v.xml" \
       -p "$(mp "$T/j$v")" -m demo.app/demo.app.Main >"$T/j$v.out" 2>"$T/j$v.err")
    same_run "JDK $v, JDK mode" "$T/p$v" "$T/j$v"
    counts "JDK $v, JDK mode" "$T/j$v.xml"
  else
    fail "JDK $v: instrument the JDK, rewrite the jars against it"
    tail -3 "$T/jdk$v.log" | sed 's/^/       /'
  fi
done

# JRuby as /usr/bin/jruby runs it: jruby.jar (an automatic module,
# org.jruby.dist) on the module path, its libraries on the class path.
JR=/usr/share/jruby/lib
if [ ! -f "$JR/jruby.jar" ]; then
  echo "  skip JRuby: not installed (apt-get install jruby)"
  finish
  exit
fi
LIBS=(bcpkix bcprov bctls bcutil jansi1 jline2 snakeyaml)
IN=("$(readlink -f "$JR/jruby.jar")")
for l in "${LIBS[@]}"; do IN+=("$(readlink -f "$JR/$l.jar")"); done
cat >"$T/fib.rb" <<'EOF'
require 'json'
def fib(n) n < 2 ? n : fib(n - 1) + fib(n - 2) end
puts "fib=#{fib(20)}"
h = Hash.new(0)
%w[a b a c b a].each { |w| h[w] += 1 }
puts h.sort_by { |k, n| [-n, k] }.inspect, JSON.generate(h)
begin
  Integer("x")
rescue ArgumentError => e
  puts "rescued #{e.class}"
end
EOF
# jruby DIR JAVA ARGS...: the launcher's command, the jars in DIR (the
# rewritten ones keep their resolved names)
jruby() {
  local d=$1 j=$2 cp="" l f; shift 2
  for l in "${LIBS[@]}"; do
    f=$d/$(basename "$(readlink -f "$JR/$l.jar")")
    [ -f "$f" ] || f=$JR/$l.jar
    cp="$cp${cp:+:}$f"
  done
  f=$d/$(basename "${IN[0]}"); [ -f "$f" ] || f=$JR/jruby.jar
  (cd "$T" && "$j/bin/java" "$@" @/usr/share/jruby/bin/.jruby.module_opts -Xss2048k \
     -Djffi.boot.library.path="$JR/jni" -Djruby.home=/usr/share/jruby \
     -Djruby.lib="$JR" --module-path "$f" -classpath "$cp" org.jruby.Main fib.rb)
}
# the jars' locations in warnings differ (the launcher names jruby.jar,
# a link to jruby-core.jar, which the rewrite writes)
masked() { sed -E 's#\(file:[^)]*\)#(file:...)#g' "$1" | unwarned /dev/stdin; }
rubyfib() {
  "$REPORT" top --merge-threads --methods -n 0 "$1" |
    awk '$NF ~ /^fib\.RUBY\$method\$fib\$[0-9]+\(/ { n += $1 } END { print n + 0 }'
}
check "JRuby: rewrite jruby.jar and its libraries" "$REWRITE" -q "${IN[@]}" -o "$T/ra/"
for J in "${JDKS[@]}"; do
  v=$(jdk_version "$J")
  jruby /nonexistent "$J" >"$T/rp$v.out" 2>"$T/rp$v.err"
  check "JDK $v: JRuby runs the script plain" grep -qx 'fib=6765' "$T/rp$v.out"
  confs=(ra)
  # JDK mode (JDK 17: the modules' case on JDK 25 is the program's
  # above): RipperParser's '<clinit>' (its parser tables) has no room
  # left for the code that sets its method ids
  if [ "$J" = "$JDK17" ] && [ -f "$T/jdk$v/jdk.summary" ]; then
    expect_exit 0 "JDK $v: JRuby rewritten against the instrumented JDK" \
      "$REWRITE" -q --summary "$T/jdk$v/jdk.summary" "${IN[@]}" -o "$T/rj$v/"
    [ -f "$T/rj$v/cccp.args" ] && confs+=("rj$v")
  fi
  for c in "${confs[@]}"; do
    mode=$([ "$c" = ra ] && echo "app mode" || echo "JDK mode")
    jruby "$T/$c" "$J" @"$T/$c/cccp.args" -Dcccp.out="$T/$c-$v.xml" \
      >"$T/$c-$v.out" 2>"$T/$c-$v.err"
    check "JDK $v, JRuby in $mode: prints what the plain run prints" \
      cmp -s "$T/rp$v.out" "$T/$c-$v.out"
    check "JDK $v, JRuby in $mode: its stderr is the plain run's" \
      cmp -s <(masked "$T/rp$v.err") <(masked "$T/$c-$v.err")
    n=$(rubyfib "$T/$c-$v.xml")
    check "JDK $v, JRuby in $mode: the method JRuby compiled fib to is in the profile ($n calls)" \
      test "$n" -gt 0
  done
done
finish
