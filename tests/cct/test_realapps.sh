#!/usr/bin/env bash
# More real applications from Debian packages, run as a new user would:
# every jar of the class path their launcher uses is rewritten with
# default options (the manifest Class-Path closure comes along), no policy
# files, no special flags; the instrumented run must print and write
# exactly what the plain run does, on JDK 17 and 25. Batik (SVG to PNG,
# the class path of Debian's rasterizer script) and Lucene (the demo:
# index files, then search them). Times in messages are masked. An
# application whose jars are missing is skipped with a message. (xalan
# and FOP: test_load_apps.sh; rhino, antlr, h2, clojure, groovy, jython,
# and FOP, Batik and Lucene runs that the JVMTI oracle can follow:
# test_apps.sh.)
#
# Environment: CCCP_REWRITE, BUILD, JDK17, JDK25.
set -u
source "$(dirname "$0")/../lib.sh"

DATA="$ROOT/tests/data/apps"
SJ=/usr/share/java
export CCCP_RT=${CCCP_RT:-$ROOT/$BUILD/cccp-rt.jar}
T=$(mktemp -d)
trap '[ -n "${KEEP:-}" ] || rm -rf "$T"' EXIT

use_jdks

# mask FILE: times and durations out of a run's messages
# and the paths of the jars a warning names
mask() {
  sed -E -e 's/[0-9]+ (total )?(ms|milliseconds)/N \1\2/g' \
    -e 's#\(file:[^)]*/([^/)]*)\)#(file:.../\1)#g' "$1"
}

# app NAME "JARS" SETUP MAIN ARGS...: rewrite JARS (paths) into one folder,
# then per JDK run SETUP (a shell command, in the run's folder: inputs)
# and MAIN ARGS plain and instrumented, each in its own folder, then POST
# (a shell command that may call 'run MAIN ARGS...' the same way, and
# remove files that differ from run to run); compare their messages and
# every file left.
POST=":"
app() {
  local name=$1 jars=$2 setup=$3 main=$4; shift 4
  local j cp="" icp=""
  for j in $jars; do
    [ -f "$j" ] || { echo "  skip $name: no $j"; return 0; }
  done
  echo "-- $name"
  local inst="$T/$name/inst"
  mkdir -p "$inst"
  expect_exit 0 "$name: rewrite $(echo $jars | wc -w) jars and their manifest closure (default options)" \
    "$REWRITE" -q $jars -o "$inst/"
  for j in $jars; do
    cp="$cp${cp:+:}$j"; icp="$icp${icp:+:}$inst/$(basename "$j")"
  done
  local J v how d
  for J in "${JDKS[@]}"; do
    v=$(jdk_version "$J")
    for how in plain inst; do
      d="$T/$name/$v-$how"; mkdir -p "$d/run"
      (cd "$d/run" && eval "$setup")
      if [ $how = plain ]; then
        run() { "$J/bin/java" -Djava.awt.headless=true -cp "$cp" "$@"; }
      else
        run() { "$J/bin/java" @"$inst/cccp.args" -Dcccp.out="$d/cct.xml" \
                  -Djava.awt.headless=true -cp "$icp" "$@"; }
      fi
      (cd "$d/run" && run "$main" "$@" >../out.txt 2>&1 && eval "$POST" >>../out.txt 2>&1)
    done
    local P="$T/$name/$v-plain" I="$T/$name/$v-inst"
    if [ ! -s "$P/out.txt" ]; then
      fail "$name on JDK $v: the plain run printed nothing"; continue
    fi
    if cmp -s <(mask "$P/out.txt") <(mask "$I/out.txt") &&
       diff -r "$P/run" "$I/run" >/dev/null; then
      pass "$name on JDK $v: instrumented output identical ($(wc -l <"$P/out.txt") lines, $(find "$P/run" -type f | wc -l) files)"
    else
      fail "$name on JDK $v: instrumented output differs"
      diff <(mask "$P/out.txt") <(mask "$I/out.txt") | head -6 | sed 's/^/       /'
      diff -r "$P/run" "$I/run" 2>&1 | head -3 | sed 's/^/       /'
    fi
    check "$name on JDK $v: profile written" test -s "$I/cct.xml"
  done
}

BATIK="$SJ/xercesImpl.jar $SJ/batik-all.jar $SJ/xml-apis-ext.jar \
$SJ/batik-transcoder.jar $SJ/fop.jar $SJ/xmlgraphics-commons.jar \
$SJ/commons-logging.jar $SJ/commons-io.jar"
app batik "$BATIK" "cp '$DATA/drawing.svg' ." \
  org.apache.batik.apps.rasterizer.Main -scriptSecurityOff -d drawing.png drawing.svg

LU=$SJ/lucene
# segment files hold times and random ids: the search reads them back
POST="run org.apache.lucene.demo.SearchFiles -index idx -query 'select OR fib' \
  && rm -rf idx"
app lucene "$LU-demo-4.10.4.jar $LU-core-4.10.4.jar \
$LU-analyzers-common-4.10.4.jar $LU-queryparser-4.10.4.jar" \
  "mkdir -p docs && cp '$DATA'/* docs/" \
  org.apache.lucene.demo.IndexFiles -index idx -docs docs
POST=":"
finish
