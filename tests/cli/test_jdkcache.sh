#!/usr/bin/env bash
# The cached JDK summary: an application rewrite against the default JDK
# (or a JDK given with --classpath) reads the JDK's classes from one entry
# in the cache folder, built on first use. The outputs are the bytes of a
# run that reads the image (--no-jdk-cache); two rewrites at once build one
# valid entry; a corrupt entry or one of another key is built again, never
# trusted; entries of an older key for the same image and rewriter are
# removed; without a usable cache folder the rewrite still works.
#
# Environment: CCCP_REWRITE, BUILD, JDK17, JDK25.
set -u
source "$(dirname "$0")/../lib.sh"

suite_tmp
example_jar
APP=/usr/share/java/antlr.jar
[ -f "$APP" ] || APP=$EX
export JAVA_HOME=$JDK17
export XDG_CACHE_HOME="$T/cache"
C="$XDG_CACHE_HOME/cccp"
entries() { ls "$C" 2>/dev/null | grep -c '\.summary$'; }
leftovers() { ls -A "$C" 2>/dev/null | grep -v '\.summary$\|\.lock$' || true; }

# the reference: the image read in full
for a in "$EX" "$APP"; do
  expect_exit 0 "$(basename "$a"): rewritten reading the JDK image (--no-jdk-cache)" \
    "$REWRITE" -q --no-jdk-cache "$a" -o "$T/ref-$(basename "$a")"
done
check "--no-jdk-cache writes no cache folder" test ! -e "$C"

expect_exit 0 "first rewrite against the default JDK builds the entry" \
  "$REWRITE" -v "$EX" -o "$T/a.jar"
expect_match "summarising the JDK's classes into $C/jdk-" "... and says so with -v" "$err"
check "one entry in \$XDG_CACHE_HOME/cccp" test "$(entries)" = 1
E=$(ls "$C"/*.summary)
build=$(sed -n 's/^JAVA_RUNTIME_VERSION="\(.*\)"$/\1/p' "$JDK17/release" | tr -c 'A-Za-z0-9.\n-' _)
check "the entry's name carries the JDK's build ($build)" \
  test "$(basename "$E" | sed 's/-[0-9a-f]*\.summary$//')" = "jdk-$build"
check "the entry's first line is its key: the image, the rewriter, the build" \
  bash -c "head -1 '$E' | grep -q '^cccp-jdk-summary 1 image=$(realpath "$JDK17/lib/modules") tool=$(realpath "$REWRITE") | .*build='"
check "the output is the one of reading the image" cmp "$T/a.jar" "$T/ref-$(basename "$EX")"
check "no temporary file is left" test -z "$(leftovers)"
stamp=$(stat -c '%i %Y' "$E")

expect_exit 0 "second rewrite" "$REWRITE" -v "$APP" -o "$T/b.jar"
expect_match "the classes of .*/lib/modules from $E" "... reads the entry" "$err"
check "... does not build it again" test "$(stat -c '%i %Y' "$E")" = "$stamp"
check "... and writes the bytes of reading the image" cmp "$T/b.jar" "$T/ref-$(basename "$APP")"

expect_exit 0 "--classpath JAVA_HOME uses the same entry" \
  "$REWRITE" -v --classpath "$JDK17" "$EX" -o "$T/c.jar"
expect_match "from $E" "... (-v names it)" "$err"
check "... same output" cmp "$T/c.jar" "$T/ref-$(basename "$EX")"

# a corrupt entry (a flipped byte in the summary) is built again
printf 'X' | dd of="$E" bs=1 seek=$(( $(stat -c %s "$E") / 2 )) conv=notrunc 2>/dev/null
expect_exit 0 "a corrupt entry: the rewrite still succeeds" "$REWRITE" "$EX" -o "$T/d.jar"
expect_match "$E: .*checksum.*: built again" "... saying the entry was built again" "$err"
check "... with the same output" cmp "$T/d.jar" "$T/ref-$(basename "$EX")"
expect_exit 0 "... and the next run finds it valid" "$REWRITE" -q "$EX" -o "$T/d.jar"
check "... (no note)" test -z "$err"

# a truncated entry, and one whose key line is not the key
head -c 100000 "$E" > "$T/trunc" && cp "$T/trunc" "$E"
expect_exit 0 "a truncated entry is built again" "$REWRITE" "$EX" -o "$T/e.jar"
expect_match "built again" "... with a note" "$err"
check "... same output" cmp "$T/e.jar" "$T/ref-$(basename "$EX")"
sed -i '1s/tool-size=/tool-size=9/' "$E"
expect_exit 0 "an entry whose first line is not its key is built again" "$REWRITE" "$EX" -o "$T/e.jar"
expect_match "key does not match: built again" "... with a note" "$err"
check "... same output" cmp "$T/e.jar" "$T/ref-$(basename "$EX")"

# an entry of an older key for the same image and rewriter is removed
# when a new one is written; another rewriter's entry stays
head -1 "$E" | sed 's/ | size=[0-9]*/ | size=1/' > "$T/old"
tail -c +$(( $(head -1 "$E" | wc -c) + 1 )) "$E" >> "$T/old"
cp "$T/old" "$C/jdk-old-0000000000000001.summary"
head -1 "$E" | sed 's/ tool=[^ ]*/ tool=\/elsewhere\/cccp-rewrite/' > "$T/other"
cp "$T/other" "$C/jdk-other-0000000000000002.summary"
rm -f "$E"
expect_exit 0 "a rewrite building the entry again" "$REWRITE" "$EX" -o "$T/f.jar"
check "... removes the older key's entry" test ! -e "$C/jdk-old-0000000000000001.summary"
check "... keeps another rewriter's entry" test -e "$C/jdk-other-0000000000000002.summary"
rm -f "$C/jdk-other-0000000000000002.summary"

# two rewrites at once on an empty cache: one valid entry, same outputs
rm -rf "$C"
"$REWRITE" -q "$APP" -o "$T/p1.jar" 2>"$T/p1.err" & p1=$!
"$REWRITE" -q "$APP" -o "$T/p2.jar" 2>"$T/p2.err" & p2=$!
r1=0; r2=0; wait $p1 || r1=$?; wait $p2 || r2=$?
check "two rewrites at once both succeed" test "$r1$r2" = 00
check "... silently" test ! -s "$T/p1.err" -a ! -s "$T/p2.err"
check "... with identical outputs, those of reading the image" \
  bash -c "cmp '$T/p1.jar' '$T/ref-$(basename "$APP")' && cmp '$T/p2.jar' '$T/ref-$(basename "$APP")'"
check "... and one entry" test "$(entries)" = 1
check "... no temporary file left" test -z "$(leftovers)"
expect_exit 0 "... which the next run reads without a note" "$REWRITE" -v "$EX" -o "$T/g.jar"
expect_match "the classes of .* from $C/jdk-" "... (-v)" "$err"

# a summary of an application leaves the JDK out, and an unchanged one
# keeps its file and time (a build tool does not redo what depends on it)
expect_exit 0 "--emit-summary of an application against the cached JDK" \
  "$REWRITE" -q "$EX" -o "$T/k.jar" --emit-summary "$T/k.summary"
check "... leaves the JDK's classes out (under 64 KB: $(stat -c %s "$T/k.summary") bytes)" \
  test "$(stat -c %s "$T/k.summary")" -lt 65536
touch -d '2001-02-03 04:05:06' "$T/k.summary"
expect_exit 0 "... rewritten again" \
  "$REWRITE" -q "$EX" -o "$T/k.jar" --emit-summary "$T/k.summary"
check "... the unchanged summary keeps its time" \
  test "$(stat -c %Y "$T/k.summary")" = "$(date -d '2001-02-03 04:05:06' +%s)"

# another JDK gets its own entry
if [ -f "$JDK25/lib/modules" ]; then
  expect_exit 0 "a JDK 25 given with --classpath" \
    "$REWRITE" -q --classpath "$JDK25" "$EX" -o "$T/h.jar"
  check "... gets its own entry" test "$(entries)" = 2
  expect_exit 0 "... the same rewrite reading the image" \
    "$REWRITE" -q --no-jdk-cache --classpath "$JDK25" "$EX" -o "$T/h-ref.jar"
  check "... gives the same bytes" cmp "$T/h.jar" "$T/h-ref.jar"
else
  echo "  skip JDK 25 entry: no JDK 25 at $JDK25"
fi

# no usable cache folder: the rewrite reads the image
: > "$T/not-a-folder"
expect_exit 0 "XDG_CACHE_HOME naming a file: the rewrite still works" \
  env XDG_CACHE_HOME="$T/not-a-folder" "$REWRITE" -v "$EX" -o "$T/i.jar"
expect_match "not cached: no cache folder" "... (-v says the JDK is not cached)" "$err"
check "... with the same output" cmp "$T/i.jar" "$T/ref-$(basename "$EX")"
mkdir -p "$T/home"
expect_exit 0 "a relative XDG_CACHE_HOME is ignored (XDG): \$HOME/.cache is used" \
  env XDG_CACHE_HOME=relative HOME="$T/home" "$REWRITE" -q "$EX" -o "$T/j.jar"
check "... ($T/home/.cache/cccp holds the entry)" \
  bash -c "ls '$T/home/.cache/cccp/'*.summary >/dev/null"
check "... and nothing named 'relative' was created" test ! -e relative

finish
