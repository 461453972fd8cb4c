#!/usr/bin/env bash
# Real applications from Debian packages, every jar of their class path
# instrumented in app mode with default options: xalan (an XSLT
# transform), rhino (a JavaScript program, compiled to classes at run
# time), antlr (a parser generator run), h2 (an SQL script on an in-memory
# database), clojure, groovy and jython (scripts compiled to classes at
# run time), FOP (an FO document to text), Batik (SVG to PNG) and Lucene
# (a search in an index of tests/data/apps). Workloads are in
# tests/data/apps. For each, on JDK 17 and 25
# (when installed): the instrumented run prints (and writes) exactly what
# the plain run does, and its CCT overlaps the JVMTI oracle's CCT of the
# plain run by >= 99.9% (CCCP paper 6.1), compared in app-mode
# visibility: library internals and runtime-generated frames collapsed,
# frames the JVM calls on its own and the oracle's blind spots hidden on
# both sides (cccp-report compare --hide-vm-upcalls, --hide). Groovy and
# Jython are asserted at a lower floor: they sort the methods reflection
# lists, whose order HotSpot does not keep when a class has more methods
# (the twins), and Jython reads its rewritten class files as data
# (README, "Status"). Jython reads its own jar's directory, every entry
# prefixed with the jar's path: its plain and oracle runs use copies of
# the jars in a folder whose path is as long as the rewritten jars'. An
# application whose jar is missing is skipped with a message.
#
# Environment: CCCP_REWRITE, BUILD, JDK17, JDK25.
set -u
source "$(dirname "$0")/../lib.sh"

JDK17=${JDK17:-/usr/lib/jvm/java-17-openjdk-amd64}
JDK25=${JDK25:-/usr/lib/jvm/temurin-25-jdk-amd64}
CMP=("$REPORT" compare)
DATA="$ROOT/tests/data/apps"
SJ=/usr/share/java
T=$(mktemp -d)
trap '[ -n "${KEEP:-}" ] || rm -rf "$T"' EXIT

make -s -C "$ROOT" BUILD="$BUILD" "$BUILD/cccp-rt.jar" \
  $([ -n "${CCCP_REPORT:-}" ] || echo bin/cccp-report) >/dev/null ||
  { fail "build cccp-report and cccp-rt.jar"; finish; exit 1; }
ORACLE="$ROOT/$BUILD/oracle/libcccporacle.so"
check "build the oracle agent" bash "$ROOT/tests/oracle/build.sh" \
  "$ROOT/$BUILD/oracle" "$JDK17"

# Methods with an interpreter intrinsic entry post no JVMTI MethodEntry,
# so the oracle cannot see them (Thread.currentThread from JDK 19 on):
# hidden on both sides.
oracle_blind

JDKS=("$JDK17")
if [ -x "$JDK25/bin/java" ]; then JDKS+=("$JDK25")
else echo "  skip JDK 25: none at $JDK25"; fi

# mask FILE: the locations of the jars a warning names (the copies' and
# the rewritten jars' folders differ)
mask() {
  sed -E 's#\(file:[^)]*/([^/)]*)\)#(file:.../\1)#g' "$1"
}

# app NAME "PREFIXES" "JARS" MAIN ARGS...: instrument JARS (all into one
# folder; the first is the class path), then per JDK run MAIN ARGS plain,
# under the oracle and instrumented, each in its own folder (so relative
# outputs land apart); '@OUT@' in ARGS becomes a folder 'gen' in it.
app() {
  local name=$1 prefixes=$2 jars=$3 main=$4; shift 4
  local j missing=0 pre=() first="" p
  for j in $jars; do
    p=$j; [ "${j#/}" = "$j" ] && p="$SJ/$j"
    [ -f "$p" ] || { echo "  skip $name: no $p"; missing=1; }
  done
  [ $missing = 0 ] || return 0
  for j in $prefixes; do pre+=(--app-prefix "$j"); done
  echo "-- $name"
  local inst="$T/$name/inst" orig="$T/$name/orig"
  mkdir -p "$inst"; [ -z "$COPY" ] || mkdir -p "$orig"
  # the class path: every jar, plain or rewritten (one folder: names must
  # differ); with COPY, the plain jars are copies in a folder whose path is
  # as long as the rewritten jars', the jars their manifests name beside
  local paths=() cp="" icp=""
  for j in $jars; do
    p=$j; [ "${j#/}" = "$j" ] && p="$SJ/$j"
    paths+=("$p"); [ -n "$first" ] || first=$(basename "$p")
    if [ -n "$COPY" ]; then cp -L "$p" "$orig/"; p="$orig/$(basename "$p")"; fi
    cp="$cp${cp:+:}$p"; icp="$icp${icp:+:}$inst/$(basename "$p")"
  done
  expect_exit 0 "$name: instrument $(echo $jars | wc -w) jars (default options)" \
    "$REWRITE" -q "${paths[@]}" -o "$inst/"
  [ -s "$inst/$first" ] || return 0
  for j in "$inst"/*.jar; do
    p=$(basename "$j")
    [ -z "$COPY" ] || [ -e "$orig/$p" ] || [ ! -f "$SJ/$p" ] || ln -s "$SJ/$p" "$orig/$p"
  done
  local J v how d a
  for J in "${JDKS[@]}"; do
    v=$("$J/bin/java" -version 2>&1 | sed -n 's/.*version "\([0-9]*\).*/\1/p' | head -1)
    # run folders of one name length: p(lain), o(racle), i(nstrumented)
    for how in p o i; do
      d="$T/$name/$v-$how"; mkdir -p "$d/gen"
      local args=()
      for a in "$@"; do args+=("${a//@OUT@/$d/gen}"); done
      case $how in
        p) (cd "$d" && "$J/bin/java" "${JOPTS[@]}" -cp "$cp" "$main" "${args[@]}" >out.txt 2>&1) ;;
        o) (cd "$d" && "$J/bin/java" "${JOPTS[@]}" -agentpath:"$ORACLE=out=$d/cct.xml" \
              -cp "$cp" "$main" "${args[@]}" >out.txt 2>&1) ;;
        i) (cd "$d" && "$J/bin/java" "${JOPTS[@]}" @"$inst/cccp.args" -Dcccp.out="$d/cct.xml" \
              -cp "$icp" "$main" "${args[@]}" >out.txt 2>&1) ;;
      esac
    done
    local P="$T/$name/$v-p" O="$T/$name/$v-o" I="$T/$name/$v-i"
    if [ ! -s "$P/out.txt" ] && [ -z "$(ls -A "$P/gen")" ]; then
      fail "$name on JDK $v: the plain run printed and wrote nothing"; continue
    fi
    if cmp -s <(mask "$P/out.txt") <(mask "$I/out.txt") &&
       diff -r "$P/gen" "$I/gen" >/dev/null; then
      pass "$name on JDK $v: instrumented output identical ($(wc -l <"$P/out.txt") lines, $(ls "$P/gen" | wc -l) files)"
    else
      fail "$name on JDK $v: instrumented output differs"
      diff <(mask "$P/out.txt") <(mask "$I/out.txt") | head -5 | sed 's/^/       /'
      diff -r "$P/gen" "$I/gen" | head -3 | sed 's/^/       /'
    fi
    check "$name on JDK $v: output identical under the oracle" \
      cmp "$P/out.txt" "$O/out.txt"
    if [ ! -s "$I/cct.xml" ] || [ ! -s "$O/cct.xml" ]; then
      fail "$name on JDK $v: a profile is missing"; continue
    fi
    "${CMP[@]}" "${pre[@]}" --collapse-generated --hide-vm-upcalls "${BLIND[@]}" \
      "${HIDE_MORE[@]}" --top 5 --min-overlap "$MIN_OVERLAP" \
      "$O/cct.xml" "$I/cct.xml" >"$T/res" 2>&1
    local st=$? ov
    ov=$(head -1 "$T/res")
    if [ $st = 0 ]; then
      pass "$name on JDK $v: CCT vs oracle $ov ($(sed -n 2p "$T/res"))"
    else
      fail "$name on JDK $v: CCT vs oracle $ov"; sed 's/^/       /' "$T/res" | cut -c1-300
    fi
  done
}

# Per application: frames hidden on both sides besides the common ones
# (classes generated at run time are not instrumented: their internal
# calls are invisible to cccp, and the agent sees them), JVM options for
# all three runs, and the overlap asked for.
HIDE_MORE=()
JOPTS=()
COPY=
MIN_OVERLAP=99.9

app xalan "org/apache/ java_cup/" "xalan2.jar serializer.jar xercesImpl.jar" \
  org.apache.xalan.xslt.Process -IN "$DATA/catalog.xml" -XSL "$DATA/catalog.xsl"
HIDE_MORE=(--hide 'org/mozilla/javascript/gen/*')
app rhino "org/mozilla/" "js.jar" \
  org.mozilla.javascript.tools.shell.Main "$DATA/script.js"
# Clojure: the script's fns and core.specs.alpha (shipped as source) are
# compiled at run time. Its hash maps of Vars, classes and namespaces hash
# by identity, and HotSpot draws identity hashes from a per-thread
# sequence (-XX:hashCode=5): the instrumented run hashes a few objects of
# its own on the main thread (the runtime's and the agent's tables), which
# moves every later hash, and with them the maps' shapes and orders
# (99.14% on JDK 17 measured so). hashCode=2 makes every identity hash 1
# on every side: the maps then keep their keys in insertion order.
HIDE_MORE=(--hide 'user$*' --hide 'clojure/core/specs/alpha$*')
JOPTS=(-XX:+UnlockExperimentalVMOptions -XX:hashCode=2)
app clojure "clojure/" "clojure-1.11.jar spec.alpha.jar core.specs.alpha.jar" \
  clojure.main "$DATA/work.clj"
JOPTS=()
# Groovy and Jython sort what Class.getDeclaredMethods lists (Groovy's
# CachedClass, Jython's PyJavaType), and HotSpot lists a class's methods
# in an order that depends on how many it has (an unstable sort by name):
# with the twins, the overloads of a name come in another order, the sort
# compares other pairs, and caches fill in another order. The jython
# script's module (org/python/pycode) is compiled at run time. Jython's
# finalizers run when the collector finds their objects, which the
# runtime's allocations make sooner: no collector runs on any side
# (Epsilon). Jython also reads its compiled modules' class files
# (rewritten: larger) as data, and lists the loaded packages (the
# runtime's among them). Groovy's caches keyed by class hash by
# identity too. (README, "Status": the shares.)
GROOVY=$(for j in /usr/share/groovy/lib/*.jar; do [ -e "$j" ] && echo "$j"; done)
HIDE_MORE=(--hide 'Script*' --hide 'work*')
MIN_OVERLAP=99.7
app groovy "groovy/ org/codehaus/groovy/ org/apache/groovy/" "$GROOVY" \
  groovy.ui.GroovyMain "$DATA/work.groovy"
HIDE_MORE=(--hide 'org/python/pycode/*')
MIN_OVERLAP=99.8
JOPTS=(-XX:+UnlockExperimentalVMOptions -XX:+UseEpsilonGC -Xmx3g -Xlog:gc+init=off)
COPY=1
app jython "org/python/" "jython.jar" org.python.util.jython "$DATA/work.py"
COPY=
JOPTS=()
HIDE_MORE=()
MIN_OVERLAP=99.9
app antlr "antlr/" "antlr.jar" antlr.Tool -o @OUT@ "$DATA/calc.g"
app h2 "org/h2/" "h2.jar" \
  org.h2.tools.RunScript -url jdbc:h2:mem:t -script "$DATA/h2.sql" -showResults
# FOP to text and Batik to PNG: the jars their start scripts list (the
# PDF renderer, the indexing Lucene run: test_load_apps.sh,
# test_realapps.sh, whose outputs hold times and random ids)
FOP="commons-io.jar serializer.jar xalan2.jar xml-apis.jar batik-all.jar \
commons-logging.jar xercesImpl.jar xmlgraphics-commons.jar xml-apis-ext.jar \
fontbox2.jar $([ -f /usr/share/fop/fop-hyph.jar ] && echo /usr/share/fop/fop-hyph.jar) fop.jar"
JOPTS=(-Djava.awt.headless=true
       -Dorg.apache.commons.logging.Log=org.apache.commons.logging.impl.SimpleLog)
app fop "org/apache/ org/mozilla/" "$FOP" \
  org.apache.fop.cli.Main "$DATA/fop.fo" -txt gen/fop.txt
JOPTS=(-Djava.awt.headless=true)
app batik "org/apache/ org/mozilla/" "xercesImpl.jar batik-all.jar \
xml-apis-ext.jar batik-transcoder.jar fop.jar xmlgraphics-commons.jar \
commons-logging.jar commons-io.jar" \
  org.apache.batik.apps.rasterizer.Main -scriptSecurityOff -d gen/drawing.png \
  "$DATA/drawing.svg"
JOPTS=()
# Lucene: a search in an index of tests/data/apps the plain library makes
# first (an index holds times and random ids)
LU=(lucene-demo-4.10.4.jar lucene-core-4.10.4.jar
    lucene-analyzers-common-4.10.4.jar
    lucene-queryparser-4.10.4.jar)
if (cd "$T" && mkdir -p lucene-idx/docs && cp "$DATA"/* lucene-idx/docs/ &&
    cd lucene-idx && "$JDK17/bin/java" -cp "$(printf "$SJ/%s:" "${LU[@]}")" \
      org.apache.lucene.demo.IndexFiles -index idx -docs docs >/dev/null 2>&1); then
  app lucene "org/apache/lucene/" "${LU[*]}" \
    org.apache.lucene.demo.SearchFiles -index "$T/lucene-idx/idx" -query 'select OR fib'
else
  echo "  skip lucene: no index made (no Lucene 4.10 demo in $SJ?)"
fi

finish
