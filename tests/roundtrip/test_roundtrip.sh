#!/usr/bin/env bash
# Whole-JDK round trip: every class of every JDK 17 jmod, of the JDK 17
# and JDK 25 run-time images, and of the jars of the packages .ci/deps
# installs (deps_jar_dir in tests/lib.sh; every jar under /usr/share/java
# with CCCP_ALL_JARS=1, make check-machine) is
# parsed and written back, and must come back byte-identical (the tool
# checks each class itself; cmp-entries then checks every entry of every
# output against its input). Any mismatch is named.
set -u
source "$(dirname "$0")/../lib.sh"

JDK17=${JDK17:-/usr/lib/jvm/java-17-openjdk-amd64}
JDK25=${JDK25:-$(ls -d /usr/lib/jvm/*25* 2>/dev/null | head -1)}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

classes_in() { # count .class entries of the jars in a folder
  local n=0 j
  for j in "$1"/*.jar; do n=$((n + $(unzip -Z1 "$j" | grep -c '\.class$' || true))); done
  echo "$n"
}

echo "-- JDK 17 jmods"
if ls "$JDK17"/jmods/*.jmod >/dev/null 2>&1; then
  expect_exit 0 "identity over all JDK 17 jmods" "$REWRITE" --identity "$JDK17"/jmods/*.jmod -o "$T/jmods/"
  echo "       $err" | tail -1
  bad=0
  for m in "$JDK17"/jmods/*.jmod; do
    name=$(basename "$m" .jmod)
    "$TOOLS/cmp-entries" "$m" "$T/jmods/$name.jar" >"$T/cmp.log" 2>&1 || { bad=1; cat "$T/cmp.log"; }
  done
  [ $bad -eq 0 ] && pass "every jmod entry identical ($(classes_in "$T/jmods") classes)" || fail "jmod entries differ"
  rm -rf "$T/jmods"
else
  echo "  skip: no jmods under $JDK17 (install openjdk-17-jdk-headless)"
fi

image_roundtrip() { # JAVA_HOME label
  local home=$1 label=$2 dest="$T/img-${2// /}"
  expect_exit 0 "identity over the $label image ($home)" "$REWRITE" --identity --jdk "$home" -o "$dest/"
  echo "       $err" | tail -1
  local bad=0 j mod
  for j in "$dest"/*.jar; do
    mod=$(basename "$j" .jar)
    "$TOOLS/cmp-entries" -m "$mod" "$home/lib/modules" "$j" >"$T/cmp.log" 2>&1 || { bad=1; cat "$T/cmp.log"; }
  done
  [ $bad -eq 0 ] && pass "every $label image resource identical ($(ls "$dest" | wc -l) modules, $(classes_in "$dest") classes)" \
                 || fail "$label image entries differ"
  rm -rf "$dest"
}

echo "-- JDK run-time images"
image_roundtrip "$JDK17" "JDK 17"
if [ -n "$JDK25" ] && [ -f "$JDK25/lib/modules" ]; then
  image_roundtrip "$JDK25" "JDK 25"
else
  echo "  SKIP JDK 25 image: no JDK 25 under /usr/lib/jvm"
fi

echo "-- jars of the packages .ci/deps installs (CCCP_ALL_JARS=1: every jar under /usr/share/java)"
deps_jar_dir "$T/jars" >/dev/null
jars=$(for j in "$T/jars"/*.jar; do readlink -f "$j"; done | sort -u)
njars=0; nclasses=0; bad=0
mkdir -p "$T/share"
for j in $jars; do
  njars=$((njars + 1))
  o="$T/share/$(basename "$j")"
  if ! "$REWRITE" -q --identity "$j" -o "$o" 2>"$T/err.log"; then
    bad=$((bad + 1)); echo "       $(cat "$T/err.log")"; continue
  fi
  if ! "$TOOLS/cmp-entries" "$j" "$o" >"$T/cmp.log" 2>&1; then
    bad=$((bad + 1)); cat "$T/cmp.log"; continue
  fi
  nclasses=$((nclasses + $(unzip -Z1 "$o" | grep -c '\.class$' || true)))
  rm -f "$o"
done
[ $bad -eq 0 ] && pass "all $njars jars identical ($nclasses classes)" \
               || fail "$bad of $njars jars failed"

finish
