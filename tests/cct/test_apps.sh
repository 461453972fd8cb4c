#!/usr/bin/env bash
# Real applications from Debian packages (the list in tests/apps.sh,
# which tests/cct/test_jdkmode_apps.sh shares), every jar of their class
# path instrumented in app mode with default options: xalan (an XSLT
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
# (docs/testing.md, the profiles against the oracle). Jython reads its own jar's directory, every entry
# prefixed with the jar's path: its plain and oracle runs use copies of
# the jars in a folder whose path is as long as the rewritten jars'. An
# application whose jar is missing is skipped with a message.
# Agent only (cccp-rewrite --agent: the plain jars, every class
# instrumented as it loads) is held to the same output and overlap, on
# JDK 17 (on 25 too under CCCP_FULL=1). On JDK 25 without CCCP_FULL=1
# the applications outside tests/apps.sh's APPS25_SAMPLE are held to the
# same output only.
#
# Environment: CCCP_REWRITE, BUILD, JDK17, JDK25, APPS_ONLY (a,b: only
# these applications).
set -u
source "$(dirname "$0")/../lib.sh"
source "$ROOT/tests/apps.sh"

JDK17=${JDK17:-/usr/lib/jvm/java-17-openjdk-amd64}
JDK25=${JDK25:-/usr/lib/jvm/temurin-25-jdk-amd64}
CMP=("$REPORT" compare)
DATA="$ROOT/tests/data/apps"
SJ=/usr/share/java
T=$(mktemp -d)
trap '[ -n "${KEEP:-}" ] || rm -rf "$T"' EXIT

make -s -C "$ROOT" BUILD="$BUILD" "$BUILD/cccp-rt.jar" "$BUILD/libcccp-agent.so" \
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
AGENT="$T/agent"
expect_exit 0 "the options of agent only" "$REWRITE" -q --agent -o "$AGENT"

# app NAME "PREFIXES" "JARS" MAIN ARGS... (tests/apps.sh): instrument
# JARS (all into one folder; the first is the class path), then per JDK
# run MAIN ARGS plain, under the oracle and instrumented, each in its own
# folder (so relative outputs land apart); '@OUT@' in ARGS becomes a
# folder 'gen' in it.
app() {
  local name=$1 prefixes=$2 jars=$3 main=$4; shift 4
  local j pre=() first="" p
  for j in $prefixes; do pre+=(--app-prefix "$j"); done
  echo "-- $name"
  local inst="$T/$name/inst" orig="$T/$name/orig"
  mkdir -p "$inst"; [ -z "$COPY" ] || mkdir -p "$orig"
  # the class path: every jar, plain or rewritten (one folder: names must
  # differ); with COPY, the plain jars are copies in a folder whose path is
  # as long as the rewritten jars', the jars their manifests name beside
  local paths=() cp="" icp=""
  for j in $jars; do
    p=$j
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
    # run folders of one name length: p(lain), o(racle), i(nstrumented),
    # a(gent only)
    local hows="p o i a"
    [ "$v" = 17 ] || [ "${CCCP_FULL:-0}" = 1 ] || hows="p o i"
    if [ "$v" != 17 ] && ! apps_full25 "$name"; then
      hows="p i"; echo "  (JDK 25: $name's oracle comparison under CCCP_FULL=1 only)"
    fi
    for how in $hows; do
      d="$T/$name/$v-$how"; mkdir -p "$d/gen"
      local args=()
      for a in "$@"; do args+=("${a//@OUT@/$d/gen}"); done
      case $how in
        p) (cd "$d" && "$J/bin/java" "${JOPTS[@]}" -cp "$cp" "$main" "${args[@]}" >out.txt 2>&1) ;;
        o) (cd "$d" && "$J/bin/java" "${JOPTS[@]}" -agentpath:"$ORACLE=out=$d/cct.xml" \
              -cp "$cp" "$main" "${args[@]}" >out.txt 2>&1) ;;
        i) (cd "$d" && "$J/bin/java" "${JOPTS[@]}" @"$inst/cccp.args" -Dcccp.out="$d/cct.xml" \
              -cp "$icp" "$main" "${args[@]}" >out.txt 2>&1) ;;
        a) (cd "$d" && "$J/bin/java" "${JOPTS[@]}" @"$AGENT/cccp.args" -Dcccp.out="$d/cct.xml" \
              -cp "$cp" "$main" "${args[@]}" >out.txt 2>&1) ;;
      esac
    done
    local P="$T/$name/$v-p" O="$T/$name/$v-o" I
    if [ ! -s "$P/out.txt" ] && [ -z "$(ls -A "$P/gen")" ]; then
      fail "$name on JDK $v: the plain run printed and wrote nothing"; continue
    fi
    [ "${hows#* o}" = "$hows" ] || check "$name on JDK $v: output identical under the oracle" \
      cmp "$P/out.txt" "$O/out.txt"
    for how in $hows; do
      local what
      case $how in i) what=instrumented ;; a) what="agent only" ;; *) continue ;; esac
      I="$T/$name/$v-$how"
      same_output "$name on JDK $v, $what" "$P" "$I"
      [ "${hows#* o}" != "$hows" ] || continue
      if [ ! -s "$I/cct.xml" ] || [ ! -s "$O/cct.xml" ]; then
        fail "$name on JDK $v, $what: a profile is missing"; continue
      fi
      "${CMP[@]}" "${pre[@]}" --collapse-generated --hide-vm-upcalls "${BLIND[@]}" \
        "${HIDE_MORE[@]}" --top 5 --min-overlap "$MIN_OVERLAP" \
        "$O/cct.xml" "$I/cct.xml" >"$T/res" 2>&1
      local st=$? ov
      ov=$(head -1 "$T/res")
      if [ $st = 0 ]; then
        pass "$name on JDK $v, $what: CCT vs oracle $ov ($(sed -n 2p "$T/res"))"
      else
        fail "$name on JDK $v, $what: CCT vs oracle $ov"; sed 's/^/       /' "$T/res" | cut -c1-300
      fi
    done
  done
}

APPS_JAVA="$JDK17/bin/java" apps_each app

finish
