#!/usr/bin/env bash
# The Java runtime (cccp-rt.jar) without the transform: a driver calls
# CC.get/enter/set/register by hand (tests/programs/runtime/RtDriver.java)
# and the dumped profile, read back by the C reader, must hold exactly
# the expected contexts, thread trees, dense ids and no runtime nodes.
# TreeDriver checks the child tables and the selection and owner-check
# caches against a model of its own.
# Also: the condy bootstrap as the rewriter emits it (JDK 17 and 25),
# the output-path rules, a big deep tree streamed out.
set -u
source "$(dirname "$0")/../lib.sh"

JDK17=${JDK17:-/usr/lib/jvm/java-17-openjdk-amd64}
JDK25=${JDK25:-/usr/lib/jvm/temurin-25-jdk-amd64}
CMP=("$REPORT" compare)
RT="$ROOT/$BUILD/cccp-rt.jar"
SRC="$ROOT/tests/programs/runtime"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

make -s -C "$ROOT" BUILD="$BUILD" "$BUILD/cccp-rt.jar" \
  $([ -n "${CCCP_REPORT:-}" ] || echo bin/cccp-report) >/dev/null ||
  { fail "build cccp-rt.jar and cccp-report"; finish; exit 1; }
check "runtime classes are version 52" bash -c \
  "unzip -p '$RT' cccp/rt/CC.class | head -c 8 | od -An -tu1 | grep -q ' 0  *52$'"
check "compile the driver" "$JDK17/bin/javac" -cp "$RT" -d "$T/cls" "$SRC/RtDriver.java" "$SRC/EnterBench.java" "$SRC/TreeDriver.java" "$SRC/ColourDriver.java"
J="$JDK17/bin/java"
CP="$RT:$T/cls"

echo "-- the driver's profile"
expect_exit 0 "driver runs (cccp.threads=app)" "$J" -Dcccp.threads=app -Dcccp.out="$T/app.xml" -cp "$CP" rtdrv.RtDriver
[ "$out" = 46 ] && pass "driver prints 46" || fail "driver prints '$out'"
expect_exit 0 "contexts and counts are exactly the expected ones" \
  "${CMP[@]}" --expect "$SRC/RtDriver.expect" "$T/app.xml"
check "threads=app leaves out the system-group thread" bash -c "! grep -q 'thread=\"sysworker\"' '$T/app.xml'"
expect_exit 0 "driver runs (all threads)" "$J" -Dcccp.out="$T/all.xml" -cp "$CP" rtdrv.RtDriver
check "one tree per thread, in creation order" bash -c \
  "[ \"\$(grep -o '<tree thread=\"[^\"]*\"' '$T/all.xml' | tr '\n' ' ')\" = '<tree thread=\"main\" <tree thread=\"worker\" <tree thread=\"sysworker\" ' ]"
check "method ids are dense 1..27" bash -c \
  "[ \"\$(grep -o '<method id=\"[0-9]*\"' '$T/all.xml' | grep -o '[0-9]*' | tr '\n' ' ')\" = \"\$(seq -s ' ' 1 27) \" ]"
check "no runtime class in the profile" bash -c "! grep -q 'cccp/rt' '$T/all.xml'"
check "library and native flags are written" grep -q 'name="arraycopy" .* native="1" library="1"' "$T/all.xml"
expect_exit 0 "C reader reads the Java writer's profile" "${CMP[@]}" --min-overlap 100 "$T/all.xml" "$T/all.xml"
expect_match "contexts: A 33, B 33, common 33, differing 0" "same contexts on both sides" "$out"
expect_exit 0 "all threads vs app threads" "${CMP[@]}" "$T/all.xml" "$T/app.xml"
expect_match "A 2  B 1  rtdrv/RtDriver\\\$Worker.run\(\)V" "the system thread's run() is the difference" "$out"
check "no temporary file left" bash -c "! ls '$T' | grep -q '\.tmp$'"

echo "-- child tables and selection caches, against a model"
for metered in false true; do
  expect_exit 0 "tree driver runs (cccp.counters=$metered)" "$J" -Dcccp.counters=$metered \
    -Dcccp.out="$T/tree.xml" -cp "$CP" rtdrv.TreeDriver "$T/tree.expect"
  [ "$out" = ok ] && pass "enterv nodes and owner checks are right" || fail "tree driver prints '$out'"
  expect_exit 0 "every context has exactly its calls" "${CMP[@]}" --expect "$T/tree.expect" "$T/tree.xml"
done

echo "-- coloured method ids"
expect_exit 0 "colour driver runs" "$J" -Dcccp.out="$T/col.xml" -cp "$CP" rtdrv.ColourDriver
[ "$out" = "ok 25" ] && pass "coloured ids have their colour; the others fill the gaps" ||
  fail "colour driver prints '$out'"
check "the profile lists the methods densely 1..25" bash -c \
  "[ \"\$(grep -o '<method id=\"[0-9]*\"' '$T/col.xml' | grep -o '[0-9]*' | tr '\n' ' ')\" = \"\$(seq -s ' ' 1 25) \" ]"
check "every coloured method's node is in the profile" bash -c \
  "[ \"\$(grep -c '<node method=\"[0-9]*\" calls=\"3\"' '$T/col.xml')\" = 24 ]"
expect_exit 0 "C reader reads it" "${CMP[@]}" --min-overlap 100 "$T/col.xml" "$T/col.xml"

echo "-- output paths"
mkdir -p "$T/cwd"
(cd "$T/cwd" && "$J" -cp "$CP" rtdrv.RtDriver >/dev/null)
check "default output is ./cccp-profile.xml" test -s "$T/cwd/cccp-profile.xml"
expect_exit 0 "unwritable output does not fail the program" "$J" -Dcccp.out="$T/none/p.xml" -cp "$CP" rtdrv.RtDriver
expect_match "cccp: cannot write the profile .*none/p.xml" "and says why on stderr" "$err"
mkfifo "$T/fifo"
cat "$T/fifo" >"$T/fromfifo" &
expect_exit 0 "output to a FIFO" "$J" -Dcccp.out="$T/fifo" -cp "$CP" rtdrv.RtDriver
wait
check "a FIFO is written to, not replaced" bash -c "[ -p '$T/fifo' ] && grep -q '</cct>' '$T/fromfifo'"

echo "-- a big tree"
expect_exit 0 "200000-deep chain with 1M nodes" "$J" -Dcccp.out="$T/deep.xml" -cp "$CP" rtdrv.RtDriver deep 200000
expect_exit 0 "read back" "${CMP[@]}" "$T/deep.xml" "$T/deep.xml"
expect_match "contexts: A 1000001, B 1000001" "every node is there" "$out"

echo "-- numbers and indentation"
expect_exit 0 "a chain whose counts have 1 to 19 digits" "$J" -Dcccp.out="$T/num.xml" -cp "$CP" rtdrv.RtDriver numbers
want="0 1 9 10 99 100 12345 999999999 1000000000 4294967296 999999999999999999 1000000000000000000 9223372036854775807"
got=$(grep -o 'calls="[0-9]*"' "$T/num.xml" | sed 1d | grep -o '[0-9]*' | tr '\n' ' ')
[ "$got" = "$want " ] && pass "every count written as it is" || fail "counts written as '$got'"
check "indented two spaces per level down to depth 10, not further" bash -c \
  "[ \"\$(grep '<node' '$T/num.xml' | awk '{ match(\$0, /^ */); print RLENGTH }' | sort -n | uniq | tr '\n' ' ')\" = '4 6 8 10 12 14 16 18 20 ' ]"
expect_exit 0 "read back" "${CMP[@]}" "$T/num.xml" "$T/num.xml"

echo "-- condy bootstrap"
if [ -x "$JDK25/bin/java" ]; then
  check "generate a class with ldc CONSTANT_Dynamic (ClassFile API)" \
    "$JDK25/bin/java" "$SRC/CondyGen.java" "$T/gen"
  for spec in "17:$JDK17" "25:$JDK25"; do
    v=${spec%%:*}; JJ=${spec#*:}
    expect_exit 0 "condy class runs on JDK $v" "$JJ/bin/java" -Dcccp.out="$T/c$v.xml" -cp "$RT:$T/gen" condy.User
    [ "$(echo $out)" = "1 2 1 1" ] && pass "condy ids 1 2 1, register agrees (JDK $v)" ||
      fail "condy ids on JDK $v: $(echo $out)"
  done
  check "condy registration is in the profile" grep -q 'id="2" class="java/lang/System" name="arraycopy" .* size="0" native="1" library="1"' "$T/c17.xml"
else
  echo "  skip condy test: no JDK 25 (ClassFile API) at $JDK25"
fi

echo "-- enter() cost (informational)"
"$J" -Dcccp.out="$T/bench.xml" -cp "$CP" rtdrv.EnterBench 50000000 | sed 's/^/       /'
finish
