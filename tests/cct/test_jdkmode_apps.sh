#!/usr/bin/env bash
# Real applications on an instrumented JDK (JDK mode). Each JDK (17, and
# 25 where installed) is instrumented once (cccp-rewrite --jdk JAVA_HOME
# -o DIR); the twelve applications of tests/apps.sh (test_apps.sh's, the
# same workloads) have every jar of their class path rewritten against
# DIR/jdk.summary with default options and run with DIR/cccp.args.
# Checked per application and JDK: the run prints (and writes) exactly
# what the plain run does (Jython's plain run uses copies of its jars at
# a path as long as the rewritten ones', as in test_apps.sh), and its
# profile (cccp-report stats, tree) holds the application's main method
# (a root of the thread main), native methods as nodes (calls to them),
# calls from the JDK to the JDK and from the application to the JDK
# (more than none: no count is fixed). On JDK 17, javac on the
# instrumented JDK compiles four modules of the JDK's own sources
# (openjdk-17-source's src.zip: java.compiler, java.logging, java.sql,
# jdk.xml.dom, a few hundred files, --module-source-path) into class
# files byte-identical to plain javac's, says what it says, and its
# profile holds javac's methods (Main.compile) and only JDK calls.
# An application whose jar is missing, and the javac part without
# src.zip, are skipped with a message. On JDK 25 without CCCP_FULL=1,
# the applications of tests/apps.sh's APPS25_SAMPLE only.
#
# Environment: CCCP_REWRITE, CCCP_REPORT, BUILD, JDK17, JDK25, APPS_ONLY
# (a,b: only these applications), SRCZIP (the JDK 17 sources), KEEP=1
# (leave the scratch folder).
set -u
source "$(dirname "$0")/../lib.sh"
source "$ROOT/tests/apps.sh"
# JDK mode runs without class data sharing: its identity hashes differ
# on every thread, and Clojure's maps then take other paths
PIN_HASHES=(-XX:+UnlockExperimentalVMOptions -XX:hashCode=2)

DATA="$ROOT/tests/data/apps"
SRCZIP=${SRCZIP:-/usr/lib/jvm/openjdk-17/src.zip}
T=$(mktemp -d)
trap '[ -n "${KEEP:-}" ] || rm -rf "$T"' EXIT
use_jdks
[ -n "${CCCP_REPORT:-}" ] || make -s -C "$ROOT" BUILD="$BUILD" bin/cccp-report \
  >/dev/null || { fail "build cccp-report"; finish; exit 1; }
[ -f "$ROOT/$BUILD/cccp-rt-jdk.jar" ] ||
  { fail "missing $BUILD/cccp-rt-jdk.jar (run make)"; finish; exit 1; }

# stat_of LABEL: the calls of a line of 'cccp-report stats' ($T/stats),
# e.g. "app -> JDK"
stat_of() {
  awk -v l="$1" '{ s = $0; sub(/^ */, "", s) }
    index(s, l " ") == 1 { n = substr(s, length(l) + 1); sub(/^ */, "", n)
                           split(n, f, " "); print f[1]; exit }' "$T/stats"
}

# profile_checks WHAT PROFILE: the invariants of every JDK-mode profile
# of a program on the class path: native methods are nodes, the JDK's
# calls to the JDK and the application's to the JDK are there
profile_checks() {
  local what=$1 prof=$2 nat ajdk jj
  if ! "$REPORT" stats "$prof" >"$T/stats" 2>&1; then
    fail "$what: cccp-report stats"; head -5 "$T/stats" | sed 's/^/       /'; return
  fi
  nat=$(sed -n 's/^native methods: .*, \([0-9]*\) of [0-9]* calls.*/\1/p' "$T/stats")
  ajdk=$(stat_of "app -> JDK"); jj=$(stat_of "JDK -> JDK")
  check "$what: native methods are nodes (${nat:-?} calls)" test "${nat:-0}" -gt 0
  check "$what: the JDK's calls to the JDK are there (${jj:-?})" test "${jj:-0}" -gt 0
  check "$what: the application's calls to the JDK are there (${ajdk:-?})" \
    test "${ajdk:-0}" -gt 0
}

# app NAME "PREFIXES" "JARS" MAIN ARGS... (tests/apps.sh), on the JDK $J
# (version $v) instrumented in $D: rewrite JARS against $D/jdk.summary
# (one folder; the first is the class path), run MAIN ARGS plain and in
# JDK mode, each in its own folder of one name length (relative outputs
# land apart); '@OUT@' in ARGS becomes a folder 'gen' in it.
app() {
  local name=$1 jars=$3 main=$4; shift 4
  if [ "$v" != 17 ] && ! apps_full25 "$name"; then
    echo "-- $name (JDK $v): under CCCP_FULL=1 only"; return 0
  fi
  local base="$T/$name/$v" j p first="" paths=() cp="" icp=""
  local inst="$base/ij" orig="$base/pj"
  echo "-- $name (JDK $v)"
  mkdir -p "$inst"; [ -z "$COPY" ] || mkdir -p "$orig"
  for j in $jars; do
    paths+=("$j"); [ -n "$first" ] || first=$(basename "$j")
    p=$j
    if [ -n "$COPY" ]; then cp -L "$j" "$orig/"; p="$orig/$(basename "$j")"; fi
    cp="$cp${cp:+:}$p"; icp="$icp${icp:+:}$inst/$(basename "$j")"
  done
  expect_exit 0 "$name: rewrite $(echo $jars | wc -w) jars against the JDK $v summary" \
    "$REWRITE" -q --summary "$D/jdk.summary" "${paths[@]}" -o "$inst/"
  [ -s "$inst/$first" ] || return 0
  local agentline="-agentpath:$D/libcccp-agent.so=japp=$inst/cccp.summary"
  check "$name: its options file is the JDK's, its agent given its summary (JDK $v)" \
    bash -c "grep -qxF -- '$agentline' '$inst/cccp.args' &&
      cmp <(grep -v -- '^-agentpath:' '$D/cccp.args') \
          <(grep -vxF -- '$agentline' '$inst/cccp.args')"
  # the jars the manifests name, beside the copies
  for j in "$inst"/*.jar; do
    p=$(basename "$j")
    [ -z "$COPY" ] || [ -e "$orig/$p" ] || [ ! -f "$APPS_SJ/$p" ] ||
      ln -s "$APPS_SJ/$p" "$orig/$p"
  done
  # the plain run beside the instrumented one (two cores)
  local how d a P="$base/p" I="$base/i" pid
  for how in p i; do
    d="$base/$how"; mkdir -p "$d/gen"
    local args=()
    for a in "$@"; do args+=("${a//@OUT@/$d/gen}"); done
    case $how in
      p) (cd "$d" && "$J/bin/java" "${JOPTS[@]}" -cp "$cp" "$main" "${args[@]}" \
            >out.txt 2>&1) &
         pid=$! ;;
      i) (cd "$d" && "$J/bin/java" "${JOPTS[@]}" @"$inst/cccp.args" \
            -Dcccp.out="$d/cct.xml" -cp "$icp" "$main" "${args[@]}" >out.txt 2>&1) ;;
    esac
  done
  wait "$pid"
  if [ ! -s "$P/out.txt" ] && [ -z "$(ls -A "$P/gen")" ]; then
    fail "$name on JDK $v: the plain run printed and wrote nothing"; return 0
  fi
  same_output "$name on JDK $v, JDK mode" "$P" "$I"
  if [ ! -s "$I/cct.xml" ]; then
    fail "$name on JDK $v: no profile written"; return 0
  fi
  local m="${main//.//}.main([Ljava/lang/String;)V"
  "$REPORT" tree --depth 1 --min 0 --color=never "$I/cct.xml" >"$T/tree" 2>&1
  check "$name on JDK $v: the main method is in the CCT, a root of thread main ($m)" \
    awk -v m="$m" 'NF == 3 && $3 ~ /^\[/ { thr = $3 }
                   NF == 4 && thr == "[main]" && $4 == m { ok = 1 }
                   END { exit !ok }' "$T/tree"
  profile_checks "$name on JDK $v" "$I/cct.xml"
  oracle_checks "$name" "$main" "$base" "$inst" "${paths[@]}" -- "$@"
  # the profile is large: only what a failure needs is kept
  [ -n "${KEEP:-}" ] || rm -f "$I/cct.xml"
}

# The JVMTI oracle with every JDK frame counted, for the applications of
# ORACLE_APPS on JDK 17 and ORACLE_APPS25 on JDK 25 (name:floor %, some
# tenths below what docs/testing.md reports): the plain JDK runs
# patched as the
# instrumented one is, with the original classes ($T/id$v: cccp-rewrite
# --identity --jdk; the runtime jar for java.base), and the original
# jars stored as the rewritten ones, at paths of the same length (the
# JDK's reading of its patch jars and of the application's jars are
# calls too); the oracle opens every module's reader before it records
# (open_patches=1), as the runtime does before it profiles. README
# "Status" lists what still differs.
ORACLE_APPS=" antlr:99.4 rhino:99.1 h2:99.2 xalan:99.4 "
ORACLE_APPS25=" antlr:99.5 rhino:98.7 h2:99.2 xalan:99.0 "
oracle_checks() {
  local name=$1 main=$2 base=$3 inst=$4 floor j p q o="$3/o" ocp=""
  shift 4
  local paths=()
  while [ "$1" != -- ]; do paths+=("$1"); shift; done
  shift
  local apps=$ORACLE_APPS
  [ "$v" = 17 ] || apps=$ORACLE_APPS25
  floor=$(echo "$apps" | sed -n "s/.* $name:\([0-9.]*\) .*/\1/p")
  [ -n "$floor" ] && [ -s "$T/oracle$v.args" ] || return 0
  mkdir -p "$base/oj" "$o/gen"
  for j in "$inst"/*.jar; do
    p=$APPS_SJ/$(basename "$j")
    for q in "${paths[@]}"; do [ "$(basename "$q")" != "$(basename "$j")" ] || p=$q; done
    [ -f "$p" ] && jar_like "$p" "$j" "$base/oj/$(basename "$j")"
  done
  for j in "${paths[@]}"; do ocp="$ocp${ocp:+:}$base/oj/$(basename "$j")"; done
  local args=() a
  for a in "$@"; do args+=("${a//@OUT@/$o/gen}"); done
  (cd "$o" && "$J/bin/java" "${JOPTS[@]}" @"$T/oracle$v.args" \
     -agentpath:"$ORACLE_LIB=out=$o/cct.xml,open_patches=1" -cp "$ocp" "$main" "${args[@]}" \
     >out.txt 2>&1)
  "$REPORT" compare --collapse-generated "${BLIND[@]}" "${HIDE_MORE[@]}" \
    --min-overlap "$floor" "$o/cct.xml" "$base/i/cct.xml" >"$T/res" 2>&1
  if [ $? = 0 ]; then
    pass "$name on JDK $v: CCT with the JDK's internals vs the oracle: $(head -1 "$T/res") (>= $floor%)"
  else
    fail "$name on JDK $v: CCT with the JDK's internals vs the oracle (>= $floor%)"
    head -6 "$T/res" | cut -c1-240 | sed 's/^/       /'
  fi
  [ -n "${KEEP:-}" ] || rm -f "$o/cct.xml"
}

# oracle_setup: for the JDK $J in $D, the oracle agent and the options
# of its runs ($T/oracle$v.args)
oracle_setup() {
  local id="$T/id$v" j A
  oracle_for "$J"; ORACLE_LIB=$A
  expect_exit 0 "JDK $v: its original classes as patch jars (--identity --jdk)" \
    "$REWRITE" -q --identity --jdk "$J" -o "$id"
  # laid out as the instrumented patch jars: no module-info.class, and the
  # entry through which the runtime (and open_patches=1) opens them
  mkdir -p "$T/mark/META-INF" && printf 'cccp\n' >"$T/mark/META-INF/cccp.patch"
  for j in "$id"/*.jar; do
    zip -q -d "$j" module-info.class >/dev/null 2>&1
    (cd "$T/mark" && zip -q "$j" META-INF/cccp.patch)
  done
  sed -e "s#^java\.base=[^:]*:#java.base=$id/java.base.jar:#" \
      -e "/^java\.base=/!s#^\([a-z0-9.]*\)=.*/\([^/]*\)\$#\1=$id/\2#" \
      "$D/cccp.args" >"$T/oracle$v.args"
}
oracle_blind

# javac_checks: javac on the instrumented JDK 17 ($J, $D) compiles
# modules of the JDK's own sources as plain javac does
JAVAC_MODS=java.compiler,java.logging,java.sql,jdk.xml.dom
javac_checks() {
  if [ ! -f "$SRCZIP" ]; then
    echo "  skip javac on the JDK's sources: no $SRCZIP (package openjdk-17-source)"
    return 0
  fi
  echo "-- javac (JDK $v): modules $JAVAC_MODS of $(basename "$SRCZIP")"
  local S="$T/javac/src" m n pats=()
  for m in ${JAVAC_MODS//,/ }; do pats+=("$m/*"); done
  mkdir -p "$S"
  check "javac: unpack the sources of $JAVAC_MODS" unzip -q "$SRCZIP" "${pats[@]}" -d "$S"
  n=$(find "$S" -name '*.java' | wc -l)
  # the javac launcher's own options (-J--add-modules -JALL-DEFAULT
  # -J-ms8m): with the root module jdk.compiler alone, the argfile's
  # modules outside the boot layer would be warned about
  local jo=(--add-modules ALL-DEFAULT -Xms8m)
  local opts=(-d cls --module-source-path "$S" --module "$JAVAC_MODS")
  mkdir -p "$T/javac/p" "$T/javac/i"
  # plain javac beside the instrumented one (two cores)
  (cd "$T/javac/p" && "$J/bin/javac" "${opts[@]}" >out.txt 2>&1) &
  local pid=$!
  (cd "$T/javac/i" && "$J/bin/java" "${jo[@]}" @"$D/cccp.args" \
     -Dcccp.out="$T/javac/i/cct.xml" -m jdk.compiler/com.sun.tools.javac.Main \
     "${opts[@]}" >out.txt 2>&1)
  local ist=$?
  wait $pid
  local st=$? n_cls
  n_cls=$(find "$T/javac/p/cls" -name '*.class' 2>/dev/null | wc -l)
  if [ $st = 0 ] && [ "$n_cls" -gt 0 ]; then
    pass "javac: plain javac compiles $n files ($n_cls class files)"
  else
    fail "javac: plain javac (exit $st, $n_cls class files)"
    head -5 "$T/javac/p/out.txt" | sed 's/^/       /'; return 0
  fi
  check "javac on the instrumented JDK $v: exits 0 and prints what plain javac does" \
    bash -c "[ $ist = 0 ] && cmp '$T/javac/p/out.txt' '$T/javac/i/out.txt'"
  check "javac on the instrumented JDK $v: class files byte-identical" \
    diff -r "$T/javac/p/cls" "$T/javac/i/cls"
  if [ ! -s "$T/javac/i/cct.xml" ]; then
    fail "javac on JDK $v: no profile written"; return 0
  fi
  "$REPORT" top --methods -n 0 --include com/sun/tools/javac/main/Main \
    "$T/javac/i/cct.xml" >"$T/top" 2>&1
  check "javac on JDK $v: the profile holds javac's Main.compile" \
    grep -qE '\] com/sun/tools/javac/main/Main\.compile\(\[Ljava/lang/String;' "$T/top"
  if "$REPORT" stats "$T/javac/i/cct.xml" >"$T/stats" 2>&1; then
    local nat jj aa ajdk ja
    nat=$(sed -n 's/^native methods: .*, \([0-9]*\) of [0-9]* calls.*/\1/p' "$T/stats")
    jj=$(stat_of "JDK -> JDK"); aa=$(stat_of "app -> app")
    ajdk=$(stat_of "app -> JDK"); ja=$(stat_of "JDK -> app")
    check "javac on JDK $v: native methods are nodes (${nat:-?} calls)" test "${nat:-0}" -gt 0
    check "javac on JDK $v: JDK -> JDK calls (${jj:-?}), none from or to an application (javac is the JDK's)" \
      test "${jj:-0}" -gt 0 -a "${aa:-x}" = 0 -a "${ajdk:-x}" = 0 -a "${ja:-x}" = 0
  else
    fail "javac on JDK $v: cccp-report stats"; head -5 "$T/stats" | sed 's/^/       /'
  fi
  [ -n "${KEEP:-}" ] || rm -rf "$T/javac"
}

for J in "${JDKS[@]}"; do
  v=$(jdk_version "$J")
  D="$T/jdk$v"
  echo "-- JDK $v"
  expect_exit 0 "instrument the whole JDK $v" "$REWRITE" -q --jdk "$J" -o "$D"
  [ -s "$D/jdk.summary" ] && [ -s "$D/cccp.args" ] ||
    { fail "JDK $v: no jdk.summary or cccp.args"; continue; }
  oracle_setup
  APPS_JAVA="$JDK17/bin/java" apps_each app
  [ "$v" != 17 ] || javac_checks
  [ -n "${KEEP:-}" ] || rm -rf "$D"
done

finish
