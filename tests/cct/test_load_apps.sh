#!/usr/bin/env bash
# Debian applications instrumented the way a user would: the main jar (and
# for FOP the jars its start script lists), with default options, so that
# the manifest Class-Path closure comes along and the jars holding
# javax.xml / org.w3c.dom copies (xml-apis, jaxp) are handled as the JVM
# loads them. xalan runs an XSLT transform, FOP renders an FO document to
# text and to PDF; the instrumented runs must print and write exactly
# what the plain runs do (PDF: but for its dates and ID), on JDK 17 and
# 25 (when installed). An application whose jars are missing is skipped.
#
# Environment: CCCP_REWRITE, BUILD, JDK17, JDK25.
set -u
source "$(dirname "$0")/../lib.sh"

DATA="$ROOT/tests/data/apps"
SJ=/usr/share/java
T=$(mktemp -d)
trap '[ -n "${KEEP:-}" ] || rm -rf "$T"' EXIT
make -s -C "$ROOT" BUILD="$BUILD" "$BUILD/cccp-rt.jar" "$BUILD/libcccp-agent.so" \
  >/dev/null || { fail "build cccp-rt.jar and libcccp-agent.so"; finish; exit 1; }
use_jdks
have() {
  local j
  for j in "$@"; do [ -f "$j" ] || { echo "  skip: no $j"; return 1; }; done
}

# same NAME FILE-PLAIN FILE-INST: compare two outputs.
same() {
  if cmp -s "$2" "$3"; then pass "$1: identical ($(wc -c < "$2") bytes)"
  else fail "$1: differs"; diff "$2" "$3" | head -5 | sed 's/^/       /'; fi
}

echo "-- xalan: xalan2.jar and its manifest closure"
if have "$SJ/xalan2.jar"; then
  X="$T/xalan"
  expect_exit 0 "instrument xalan2.jar (default options)" "$REWRITE" "$SJ/xalan2.jar" -o "$X/"
  for j in serializer xercesImpl xml-apis; do
    check "the closure brings $j.jar" test -f "$X/$j.jar"
  done
  expect_match "xml-apis.jar: [0-9]+ classes in packages of JDK modules" \
    "one warning for xml-apis.jar" "$err"
  check "xml-apis' javax.xml.transform.sax.SAXTransformerFactory is unchanged" \
    cmp <(unzip -p "$SJ/xml-apis.jar" javax/xml/transform/sax/SAXTransformerFactory.class) \
        <(unzip -p "$X/xml-apis.jar" javax/xml/transform/sax/SAXTransformerFactory.class)
  for J in "${JDKS[@]}"; do
    v=$(jdk_version "$J")
    args=(org.apache.xalan.xslt.Process -IN "$DATA/catalog.xml" -XSL "$DATA/catalog.xsl")
    "$J/bin/java" -cp "$SJ/xalan2.jar" "${args[@]}" > "$T/xp.txt" 2>&1
    "$J/bin/java" @"$X/cccp.args" -Dcccp.out="$T/xalan-$v.xml" -cp "$X/xalan2.jar" \
      "${args[@]}" > "$T/xi.txt" 2>&1
    same "xalan on JDK $v, instrumented" "$T/xp.txt" "$T/xi.txt"
    check "xalan on JDK $v: profile written" test -s "$T/xalan-$v.xml"
  done
fi

echo "-- FOP: fop.jar and the jars of its start script, with their closures"
FOPJARS=()
for j in commons-io serializer xalan2 xml-apis batik-all commons-logging \
         xercesImpl xmlgraphics-commons xml-apis-ext fontbox2; do
  FOPJARS+=("$SJ/$j.jar")
done
[ -f /usr/share/fop/fop-hyph.jar ] && FOPJARS+=(/usr/share/fop/fop-hyph.jar)
FOPJARS+=("$SJ/fop.jar")
if have "${FOPJARS[@]}"; then
  F="$T/fop"
  expect_exit 0 "instrument fop.jar and its libraries" "$REWRITE" -q "${FOPJARS[@]}" -o "$F/"
  check "batik-all's absolute Class-Path brings xmlgraphics-commons and rhino" \
    test -f "$F/xmlgraphics-commons.jar" -a -f "$F/rhino.jar"
  check "batik-all's manifest names the rewritten copies" bash -c \
    "unzip -p '$F/batik-all.jar' META-INF/MANIFEST.MF | grep -q '^Class-Path: jaxp-1.4.jar rhino.jar xalan2.jar xmlgraphics-commons.jar'"
  PCP=$(IFS=:; echo "${FOPJARS[*]}")
  ICP=""
  for j in "${FOPJARS[@]}"; do ICP="$ICP${ICP:+:}$F/${j##*/}"; done
  LOG=(-Djava.awt.headless=true
       -Dorg.apache.commons.logging.Log=org.apache.commons.logging.impl.SimpleLog)
  # PDF without its creation dates and document ID
  pdfbody() { strings "$1" | grep -v -e CreationDate -e '/ID \[' -e 'Date>' -e '<dc:date>'; }
  for J in "${JDKS[@]}"; do
    v=$(jdk_version "$J")
    for fmt in txt pdf; do
      (cd "$T" && "$J/bin/java" "${LOG[@]}" -cp "$PCP" org.apache.fop.cli.Main \
         "$DATA/fop.fo" -$fmt "$T/fp.$fmt" > "$T/fp.err" 2>&1)
      (cd "$T" && "$J/bin/java" @"$F/cccp.args" -Dcccp.out="$T/fop-$v.xml" "${LOG[@]}" \
         -cp "$ICP" org.apache.fop.cli.Main "$DATA/fop.fo" -$fmt "$T/fi.$fmt" > "$T/fi.err" 2>&1)
      if [ $fmt = txt ]; then
        same "FOP -txt on JDK $v, instrumented" "$T/fp.txt" "$T/fi.txt"
      else
        pdfbody "$T/fp.pdf" > "$T/fp.pdf.txt"; pdfbody "$T/fi.pdf" > "$T/fi.pdf.txt"
        same "FOP -pdf on JDK $v, instrumented (dates and ID aside)" "$T/fp.pdf.txt" "$T/fi.pdf.txt"
        check "FOP -pdf on JDK $v: same size" test "$(stat -c %s "$T/fp.pdf")" = "$(stat -c %s "$T/fi.pdf")"
      fi
      same "FOP -$fmt on JDK $v, messages" "$T/fp.err" "$T/fi.err"
    done
    check "FOP on JDK $v: profile written" test -s "$T/fop-$v.xml"
  done
fi

finish
