#!/usr/bin/env bash
# cccp-report and gzip-compressed profiles: every command on gzipped
# copies of the suite's profiles writes byte for byte what it writes on
# the plain files (same names, in two folders); gzip input of several
# members; -o FILE.gz writes gzip that reads back (pprof's output is
# gzip once); every truncation, corruption, trailing garbage, the bound
# on XML between two tags, and a DOCTYPE inside gzip fail with one line
# naming the file, exit 1, nothing written.
set -u
source "$(dirname "$0")/../lib.sh"

DATA="$ROOT/tests/report/data"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
mkdir "$T/plain" "$T/gz"
cp "$DATA"/*.xml "$DATA"/*.expect "$T/plain/"
cd "$T/plain"
# a deep chain and a wide tree, as the main suite makes them (smaller)
python3 "$ROOT/tests/report/mkprofiles.py" 20000 200 100 299 --cycles
cp ./*.expect "$T/gz/"
for f in ./*.xml; do gzip -n -c "$f" > "$T/gz/$f"; done
check "the copies are gzip" bash -c \
  '[ "$(head -c 2 "$1/gz/small.xml" | od -An -tx1 | tr -d " ")" = 1f8b ]' _ "$T"

echo "-- every command: the same output from gzip"
# same DESCRIPTION ARGS...: cccp-report ARGS in plain/ and in gz/ has the
# same exit status, standard output and error, and writes the same -o
# file (named out.*), byte for byte.
same() {
  local what=$1; shift
  local rc_p=0 rc_g=0
  rm -f "$T"/plain/out.* "$T"/gz/out.*
  (cd "$T/plain" && "$REPORT" "$@" >"$T/p.out" 2>"$T/p.err") || rc_p=$?
  (cd "$T/gz" && "$REPORT" "$@" >"$T/g.out" 2>"$T/g.err") || rc_g=$?
  local o bad="" wrote=0
  [ "$rc_p" = "$rc_g" ] || bad="exit $rc_p vs $rc_g"
  cmp -s "$T/p.out" "$T/g.out" || bad="$bad stdout differs"
  cmp -s "$T/p.err" "$T/g.err" || bad="$bad stderr differs"
  { [ -s "$T/p.out" ] || [ -s "$T/p.err" ]; } && wrote=1
  for o in "$T"/plain/out.*; do
    [ -e "$o" ] || continue
    wrote=1
    cmp -s "$o" "$T/gz/${o##*/}" || bad="$bad ${o##*/} differs"
  done
  if [ -z "$bad" ] && [ "$wrote" = 1 ]; then
    pass "$what (exit $rc_p)"
  elif [ -z "$bad" ]; then
    fail "$what: no output at all"
  else
    fail "$what: $bad"
    diff "$T/p.out" "$T/g.out" | head -5 | sed 's/^/       /'
    diff "$T/p.err" "$T/g.err" | head -5 | sed 's/^/       /'
  fi
}
same "top" top small.xml
same "top of two, -m cycles --sort total -n 3" \
  top -m cycles --merge-threads --sort total -n 3 small.xml small-b.xml
same "top --include --exclude --min" top --include app --exclude app/Util --min 2 small.xml
same "tree" tree small.xml
same "tree -m cycles --min 10% --depth 2" tree -m cycles --min 10% --depth 2 small.xml
same "tree --min 0 of a 20,000-deep chain" tree --min 0 deep.xml
same "folded" folded small.xml
same "folded -m cycles --merge-threads" folded -m cycles --merge-threads wide.xml
same "callgrind" callgrind small.xml small-b.xml
same "pprof -o" pprof small.xml -o out.pb.gz
same "pprof -m cycles of 30,000 nodes" pprof -m cycles wide.xml -o out.pb.gz
same "flame -o" flame small.xml -o out.html
same "flame --min 10 --merge-threads -m cycles" \
  flame --min 10 --merge-threads -m cycles small.xml -o out.html
same "stats" stats small.xml
same "stats --app-prefix, two profiles" stats --app-prefix app/Main --merge-threads small.xml small-b.xml
same "merge" merge small.xml small-b.xml
same "merge --keep-threads -o" merge --keep-threads small.xml small.xml -o out.xml
same "merge of the wide tree" merge --merge-threads wide.xml
same "jop" jop jop.xml
same "jop -o" jop jop.xml -o out.xml
same "folded -m cycles of a cross-profile" folded -m cycles jop.xml
same "diff" diff small.xml small-b.xml
same "diff --sort total --merge-threads -n 3" diff --sort total --merge-threads -n 3 small.xml small-b.xml
same "diff --flame" diff --flame small.xml small-b.xml -o out.html
same "compare" compare small.xml small-b.xml
same "compare --min-overlap 90 (exit 4)" compare --min-overlap 90 small.xml small-b.xml
same "compare --hide --prune" compare --hide app/Main.fib --prune app/Worker.run small.xml small-b.xml
same "compare --expect" compare --app-prefix app/ --expect small-b.expect small-b.xml
same "compare --contexts" compare --contexts small-b.xml
same "top of a profile lacking the metric (exit 1)" top -m bytecodes small.xml

echo "-- several members"
cd "$T/plain"
size=$(stat -c %s small.xml)
for cuts in "1" "100 101" "$((size / 3)) $((2 * size / 3))" "$((size - 1))"; do
  : > "$T/members.xml"
  from=0
  for c in $cuts "$size"; do
    tail -c +$((from + 1)) small.xml | head -c $((c - from)) | gzip -n -c >> "$T/members.xml"
    from=$c
  done
  check "members cut at byte $cuts: top as of the plain file" \
    cmp <("$REPORT" top "$T/members.xml" | tail -n +2) <("$REPORT" top small.xml | tail -n +2)
done
{ gzip -n -c </dev/null; gzip -n -c small.xml; gzip -n -c </dev/null; } > "$T/empties.xml"
check "empty members before and after" \
  cmp <("$REPORT" folded "$T/empties.xml") <("$REPORT" folded small.xml)

echo "-- writing gzip"
cd "$T/plain"
expect_exit 0 "merge -o x.xml.gz" "$REPORT" merge small.xml small-b.xml -o x.xml.gz
"$REPORT" merge small.xml small-b.xml -o x.xml
check "x.xml.gz is gzip of what merge -o x.xml writes" cmp <(gzip -dc x.xml.gz) x.xml
check "and gzip -t finds it whole" gzip -t x.xml.gz
check "it reads back: merge of it is x.xml" cmp <("$REPORT" merge x.xml.gz) x.xml
check "top of it is top of x.xml" \
  cmp <("$REPORT" top x.xml.gz | tail -n +2) <("$REPORT" top x.xml | tail -n +2)
"$REPORT" merge small.xml small-b.xml -o again.xml.gz
check "the same profile, the same bytes (no name, no time)" cmp x.xml.gz again.xml.gz
for c in "top small.xml" "tree small.xml" "folded small.xml" \
         "callgrind small.xml" "stats small.xml" "compare small.xml small-b.xml" \
         "diff small.xml small-b.xml" "flame small.xml" "jop jop.xml"; do
  # shellcheck disable=SC2086
  "$REPORT" $c -o out.gz 2>/dev/null
  # shellcheck disable=SC2086
  check "${c%% *} -o out.gz: gzip of its standard output" \
    cmp <(gzip -dc out.gz) <("$REPORT" $c 2>/dev/null)
done
"$REPORT" pprof small.xml -o p.pb.gz
"$REPORT" pprof small.xml -o p.pb
check "pprof -o p.pb.gz: the same bytes as -o p.pb (gzip once)" cmp p.pb.gz p.pb
check "which gunzip once to protobuf, not to gzip again" \
  bash -c '[ "$(gzip -dc p.pb.gz | head -c 2 | od -An -tx1 | tr -d " ")" != 1f8b ]'
expect_exit 0 "-o - is standard output" "$REPORT" top small.xml -o -
check "no file named '-'" test ! -e ./-
check "standard output is plain" test "${out%%:*}" = small.xml
check "no temporary file left" test "$(ls -A | grep -c cccp-)" -eq 0
# A file size limit (SIGXFSZ ignored): writes fail with EFBIG.
rc=0
(ulimit -f 4; trap '' XFSZ; exec "$REPORT" merge wide.xml -o big.xml.gz) 2>"$T/full.err" || rc=$?
check "a write error under gzip: exit 3" test "$rc" -eq 3
expect_match "^cccp-report: .*File too large$" "says why" "$(cat "$T/full.err")"
check "nothing left at the path, no temporary file" \
  bash -c '[ ! -e big.xml.gz ] && [ "$(ls -A | grep -c cccp-)" -eq 0 ]'
expect_exit 3 "-o FILE.gz into a missing folder" "$REPORT" top small.xml -o nodir/top.gz
expect_match "^cccp-report: cannot create a file next to nodir/top.gz" "says why" "$err"

echo "-- broken gzip"
cd "$T"
# gz_bad DESCRIPTION FILE MESSAGE: exit 1, nothing on stdout, one line
# "cccp-report: FILE: MESSAGE" (MESSAGE a regular expression).
gz_bad() {
  local what=$1 file=$2 msg=$3
  rm -f out.xml
  expect_exit 1 "$what" "$REPORT" merge "$file" -o out.xml
  local lines; lines=$(printf '%s\n' "$err" | wc -l)
  if [ -z "$out" ] && [ "$lines" -eq 1 ] && [ ! -e out.xml ] &&
     printf '%s' "$err" | grep -Eq "^cccp-report: $file: $msg\$"; then
    pass "$what: one line, \"$msg\""
  else
    fail "$what: one line \"$file: $msg\", nothing written"
    printf '%s\n' "$err" | head -3 | sed 's/^/       /'
  fi
}
gz=gz/small.xml
n=$(stat -c %s $gz)
nbad=0; ncut=0
for ((k = 2; k < n; k += 4)); do
  ncut=$((ncut + 1))
  head -c "$k" $gz > cut.gz
  rc=0; "$REPORT" top cut.gz >cut.out 2>cut.err || rc=$?
  if [ "$rc" -ne 1 ] || [ -s cut.out ] ||
     [ "$(cat cut.err)" != "cccp-report: cut.gz: truncated gzip data" ]; then
    nbad=$((nbad + 1))
    [ "$nbad" -le 3 ] && { echo "       cut at $k: exit $rc"; head -2 cut.err; }
  fi
done
check "$ncut truncations of small.xml.gz: exit 1, \"truncated gzip data\"" \
  test "$nbad" -eq 0
python3 - "$gz" <<'PY'
import sys
b = open(sys.argv[1], 'rb').read()
def put(name, data):
    open(name, 'wb').write(data)
x = bytearray(b); x[-8] ^= 1; put('crc.gz', x)       # CRC-32 of the data
x = bytearray(b); x[-1] ^= 1; put('length.gz', x)    # ISIZE
x = bytearray(b); x[2] = 7; put('method.gz', x)      # not deflate
x = bytearray(b); x[10] |= 6; put('btype.gz', x)     # block type 3
put('garbage.gz', b + b'garbage')
put('zeros.gz', b + b'\0' * 16)
PY
gz_bad "a wrong CRC" crc.gz "corrupt gzip data \(incorrect data check\)"
gz_bad "a wrong length" length.gz "corrupt gzip data \(incorrect length check\)"
gz_bad "another compression method" method.gz "corrupt gzip data \(unknown compression method\)"
gz_bad "a bad block type" btype.gz "corrupt gzip data \(invalid block type\)"
gz_bad "trailing garbage" garbage.gz "trailing garbage after gzip data"
gz_bad "trailing zeros" zeros.gz "trailing garbage after gzip data"
cat $gz $gz | head -c $((2 * n - 5)) > cut2.gz
gz_bad "a second member cut short" cut2.gz "truncated gzip data"
# Bytes changed: the same profile or one line naming the file.
mkdir flips
python3 - "$gz" <<'PY'
import sys
b = open(sys.argv[1], 'rb').read()
for i in range(0, len(b), 4):
    x = bytearray(b); x[i] ^= 0x5a
    open('flips/%04d.gz' % i, 'wb').write(x)
PY
"$REPORT" folded plain/small.xml > folded.want
nbad=0; nflip=0
for f in flips/*.gz; do
  nflip=$((nflip + 1))
  rc=0; "$REPORT" folded "$f" >flip.out 2>flip.err || rc=$?
  if { [ "$rc" -eq 0 ] && ! cmp -s flip.out folded.want; } ||
     { [ "$rc" -ne 0 ] && { [ "$rc" -ne 1 ] || [ -s flip.out ] ||
       [ "$(wc -l < flip.err)" -ne 1 ] || ! grep -q "^cccp-report: $f:" flip.err; }; }; then
    nbad=$((nbad + 1))
    [ "$nbad" -le 3 ] && { echo "       $f: exit $rc"; head -2 flip.err; }
  fi
done
check "$nflip bytes changed in turn: the same profile or one line naming the file" \
  test "$nbad" -eq 0
# DOCTYPE refused inside gzip, also in UTF-16 (the parser's own hook)
printf '%s' '<?xml version="1.0"?><!DOCTYPE cct [<!ENTITY x SYSTEM "file:///etc/passwd">]><cct version="1" mode="&x;"/>' |
  gzip -n -c > xxe.gz
expect_exit 1 "a DOCTYPE inside gzip" "$REPORT" top xxe.gz
expect_match "^cccp-report: xxe.gz:1: DOCTYPE is not allowed in a profile$" "is refused" "$err"
check "the external entity was not read" bash -c '! grep -q root: <<<"$1"' _ "$err"
printf '%s' '<?xml version="1.0" encoding="UTF-16"?><!DOCTYPE cct [<!ENTITY x SYSTEM "file:///etc/passwd">]><cct version="1" mode="&x;"/>' |
  iconv -f UTF-8 -t UTF-16 | gzip -n -c > utf16.gz
expect_exit 1 "a DOCTYPE in UTF-16 inside gzip" "$REPORT" top utf16.gz
expect_match "DTDs and entities are not allowed" "is refused as a DTD" "$err"
# A small file that inflates to more than 16 MiB of whitespace inside
# <cct> (or of a comment): stopped there, not read to the end.
python3 - <<'PY'
import gzip
for name, head, fill, tail in (("spaces.gz", b'<cct version="1">', b' ', b'</cct>'),
                               ("comment.gz", b'<cct version="1"><!--', b'x', b'--></cct>')):
    with gzip.GzipFile(name, "wb", mtime=0) as f:
        f.write(head)
        for _ in range(64):
            f.write(fill * (1 << 20))
        f.write(tail)
PY
expect_exit 1 "64 MiB of spaces in 64 KiB of gzip" "$REPORT" top spaces.gz
expect_match "^cccp-report: spaces.gz:1: more than 16 MiB of XML between two tags$" \
  "stops at 16 MiB between two tags" "$err"
expect_exit 1 "a 64 MiB comment" "$REPORT" top comment.gz
expect_match "^cccp-report: comment.gz:1: more than 16 MiB of XML between two tags$" \
  "stops there too" "$err"

finish
