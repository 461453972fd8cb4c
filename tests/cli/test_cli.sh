#!/usr/bin/env bash
# Command-line behaviour of cccp-rewrite: modes, outputs, errors, exit
# statuses, determinism and atomic output. Uses the example jar and the
# JDK 17 jmods as real inputs.
set -u
source "$(dirname "$0")/../lib.sh"

JDK17=${JDK17:-/usr/lib/jvm/java-17-openjdk-amd64}
EX="$ROOT/$BUILD/examples/wordfreq.jar"
T=$(mktemp -d)
trap 'chmod -R u+w "$T"; rm -rf "$T"' EXIT

echo "-- usage"
expect_exit 0 "--help exits 0" "$REWRITE" --help
expect_match "Usage: cccp-rewrite" "--help prints usage" "$out"
expect_exit 0 "--version exits 0" "$REWRITE" --version
expect_match "^cccp-rewrite [0-9]" "--version prints the version" "$out"
mkdir -p "$T/inst"
expect_exit 0 "no mode instruments (CCCP)" "$REWRITE" "$EX" -o "$T/inst/x.jar"
expect_match "instrumented [0-9]+ classes" "instrumenting run says what it did" "$err"
check "the runtime jar is copied next to the output" test -s "$T/inst/cccp-rt.jar"
check "the JVM options go to OUTPUT.args" \
  grep -qx -- "-agentpath:$(cd "$T/inst" && pwd -P)/libcccp-agent.so=boot,app=$(cd "$T/inst" && pwd -P)/x.jar.summary" "$T/inst/x.jar.args"
expect_exit 2 "no output is a usage error" "$REWRITE" --identity "$EX"
expect_exit 2 "no input is a usage error" "$REWRITE" --identity -o "$T/x.jar"
expect_exit 2 "bad -j is a usage error" "$REWRITE" --identity -j 0 "$EX" -o "$T/x.jar"
expect_exit 2 "unknown option is a usage error" "$REWRITE" --frobnicate
expect_exit 2 "--jdk with -o FILE.jar is refused" "$REWRITE" --identity --jdk "$JDK17" -o "$T/x.jar"

echo "-- identity on a jar"
expect_exit 0 "identity rewrite of the example jar" "$REWRITE" --identity "$EX" -o "$T/a.jar"
expect_match "entries \([0-9]+ classes" "summary names entries and classes" "$err"
check "output holds the same entries, bytes and order" "$TOOLS/cmp-entries" "$EX" "$T/a.jar"
# programs compare entry times (Clojure loads a source newer than its class)
check "entries keep their timestamps" python3 -c '
import sys, zipfile
a = {i.filename: i.date_time for i in zipfile.ZipFile(sys.argv[1]).infolist()}
b = {i.filename: i.date_time for i in zipfile.ZipFile(sys.argv[2]).infolist()}
assert a == b, [n for n in a if a[n] != b.get(n)][:5]
assert len(set(a.values())) > 0 and (1980, 1, 1, 0, 0, 0) not in a.values()
' "$EX" "$T/a.jar"
check "unzip accepts the output" unzip -tq "$T/a.jar"
check "the rewritten jar runs" java -jar "$T/a.jar" 1
# and the system that made each entry, its attributes (a Unix mode) and
# its UTF-8 flag, which programs read (Ant's ZipFile parses names of
# MS-DOS entries another way); the example's classes, made by a Unix zip
python3 - "$EX" "$T/unix.jar" <<'PY'
import sys, zipfile
src = zipfile.ZipFile(sys.argv[1])
with zipfile.ZipFile(sys.argv[2], "w") as z:
    for i in src.infolist():
        j = zipfile.ZipInfo(i.filename, i.date_time)
        j.create_system = 3
        j.external_attr = (0o40755 if i.is_dir() else 0o100644) << 16
        z.writestr(j, src.read(i), zipfile.ZIP_DEFLATED)
    j = zipfile.ZipInfo("bin/run.sh", (2020, 1, 2, 3, 4, 6))
    j.create_system = 3
    j.external_attr = 0o100755 << 16
    z.writestr(j, "#!/bin/sh\n")
PY
for mode in --identity --cccp; do
  expect_exit 0 "rewrite a jar made on Unix ($mode)" "$REWRITE" -q $mode "$T/unix.jar" -o "$T/unix$mode/"
  check "entries keep their system and Unix modes, and get the UTF-8 flag ($mode)" python3 -c '
import sys, zipfile
a = {i.filename: (i.create_system, i.external_attr) for i in zipfile.ZipFile(sys.argv[1]).infolist()}
b = zipfile.ZipFile(sys.argv[2]).infolist()
assert all(a[i.filename] == (i.create_system, i.external_attr) for i in b if i.filename in a), [i.filename for i in b if a.get(i.filename, (i.create_system, i.external_attr)) != (i.create_system, i.external_attr)][:5]
assert (3, 0o100755 << 16) in [(i.create_system, i.external_attr) for i in b]
assert all(i.flag_bits & 0x800 for i in b)
' "$T/unix.jar" "$T/unix$mode/unix.jar"
done
expect_exit 0 "same run again" "$REWRITE" -q --identity "$EX" -o "$T/b.jar"
check "output is deterministic (two runs)" cmp "$T/a.jar" "$T/b.jar"
expect_exit 0 "single-threaded run" "$REWRITE" -q -j 1 --identity "$EX" -o "$T/c.jar"
check "output does not depend on -j" cmp "$T/a.jar" "$T/c.jar"
expect_exit 0 "-q prints nothing" "$REWRITE" -q --identity "$EX" -o "$T/d.jar"
[ -z "$err" ] && pass "-q is silent" || fail "-q is silent: $err"
# -q keeps warnings (they name what may run differently), not the summary
mkdir -p "$T/w"
expect_exit 0 "-q with a warning" "$REWRITE" -q --n2b-wrappers "$EX" -o "$T/w/w.jar"
expect_match '^cccp-rewrite: warning: --n2b-wrappers assumes a closed world' \
  "-q still prints warnings" "$err"
[ "$(printf '%s\n' "$err" | wc -l)" = 1 ] && pass "-q prints the warning alone" ||
  fail "-q prints the warning alone: $err"
check "no temporary files left" bash -c "! ls -A '$T' | grep -q cccp-"

echo "-- other containers"
JMOD="$JDK17/jmods/java.logging.jmod"
if [ -f "$JMOD" ]; then
  expect_exit 0 "jmod into a directory" "$REWRITE" -q --identity "$JMOD" -o "$T/mods/"
  check "jmod gives MODULE.jar" test -f "$T/mods/java.logging.jar"
  check "jmod classes at package paths" bash -c "unzip -Z1 '$T/mods/java.logging.jar' | grep -qx 'java/util/logging/Logger.class'"
  check "jmod round trip is exact" "$TOOLS/cmp-entries" "$JMOD" "$T/mods/java.logging.jar"
else
  echo "  skip jmod tests: no $JMOD"
fi
mkdir -p "$T/dir" && (cd "$T/dir" && unzip -q "$EX")
expect_exit 0 "directory input" "$REWRITE" -q --identity "$T/dir" -o "$T/dir.jar"
check "directory round trip is exact" "$TOOLS/cmp-entries" "$T/dir" "$T/dir.jar"
CLS="$T/dir/wordfreq/Main.class"
expect_exit 0 "single class to a class file" "$REWRITE" -q --identity "$CLS" -o "$T/Main.class"
check "single class is identical" cmp "$CLS" "$T/Main.class"
expect_exit 0 "copy mode" "$REWRITE" -q --copy "$EX" -o "$T/copy.jar"
check "copy mode keeps every entry" "$TOOLS/cmp-entries" "$EX" "$T/copy.jar"
expect_exit 0 "two inputs merged into one jar" "$REWRITE" --identity "$EX" "$T/dir" -o "$T/merged.jar"
expect_match "duplicate entry" "duplicates across inputs are reported" "$err"

echo "-- bad input"
head -c 100 "$CLS" > "$T/trunc.class"
expect_exit 1 "truncated class is bad input" "$REWRITE" --identity "$T/trunc.class" -o "$T/t.class"
expect_match "trunc.class: .*offset [0-9]+: " "message names the file and offset" "$err"
check "no output for bad input" test ! -e "$T/t.class"
mkdir -p "$T/badjar" && cp -r "$T/dir/." "$T/badjar/" && cp "$T/trunc.class" "$T/badjar/wordfreq/Broken.class"
(cd "$T/badjar" && zip -qr "$T/bad.jar" .)
expect_exit 1 "jar with a truncated class" "$REWRITE" --identity "$T/bad.jar" -o "$T/bad-out.jar"
expect_match "bad.jar: wordfreq/Broken.class: offset [0-9]+: " "message names jar, entry and offset" "$err"
check "no output jar after an error" test ! -e "$T/bad-out.jar"
expect_exit 0 "--lenient copies the broken class" "$REWRITE" --lenient --identity "$T/bad.jar" -o "$T/bad-out.jar"
expect_match "warning: .*Broken.class" "--lenient warns" "$err"
check "--lenient output is complete" "$TOOLS/cmp-entries" "$T/bad.jar" "$T/bad-out.jar"
head -c 3000 "$EX" > "$T/trunc.jar"
expect_exit 1 "truncated jar is bad input" "$REWRITE" --identity "$T/trunc.jar" -o "$T/tj.jar"
expect_match "trunc.jar" "message names the jar" "$err"
expect_exit 1 "missing input" "$REWRITE" --identity "$T/nope.jar" -o "$T/n.jar"
expect_match "nope.jar" "message names the missing file" "$err"
printf 'garbage' > "$T/g.class"
expect_exit 1 "garbage is bad input" "$REWRITE" --identity "$T/g.class" -o "$T/g2.class"
expect_exit 1 "--max-entry-size is enforced" "$REWRITE" --identity --max-entry-size 100 "$EX" -o "$T/m.jar"
check "no output after limit error" test ! -e "$T/m.jar"

echo "-- output safety"
cp "$EX" "$T/in.jar"
expect_exit 2 "-o equal to the input is refused" "$REWRITE" --identity "$T/in.jar" -o "$T/in.jar"
check "input untouched" cmp "$EX" "$T/in.jar"
mkdir -p "$T/ro" && chmod 555 "$T/ro"
if [ "$(id -u)" -ne 0 ]; then
  expect_exit 3 "read-only output folder" "$REWRITE" --identity "$EX" -o "$T/ro/x.jar"
else
  echo "  skip read-only folder test: running as root"
fi
expect_exit 3 "output folder that does not exist" "$REWRITE" --identity "$EX" -o "$T/none/x.jar"
check "nothing written there" test ! -e "$T/none"

# every option --help lists is in the man page
undoc=$("$REWRITE" --help | grep -o -- '--[a-z][a-z0-9-]*' | sort -u |
  while read -r opt; do
    grep -qF -- "$(printf '%s' "$opt" | sed 's/-/\\-/g')" "$ROOT/man/cccp-rewrite.1" || printf '%s ' "$opt"
  done)
check "every option of --help is in man/cccp-rewrite.1${undoc:+ (missing: $undoc)}" test -z "$undoc"

finish
