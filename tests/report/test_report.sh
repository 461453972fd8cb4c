#!/usr/bin/env bash
# cccp-report: every command on small hand-made profiles against answers
# computed by hand (written out below, next to the arithmetic), usage and
# exit statuses, atomic output, and malformed, truncated and hostile
# profiles (one-line error naming file and line, exit 1, no output).
set -u
source "$(dirname "$0")/../lib.sh"

DATA="$ROOT/tests/report/data"
T=$(mktemp -d)
trap 'chmod -R u+w "$T"; rm -rf "$T"' EXIT
cp "$DATA"/*.xml "$DATA"/*.expect "$T/"
cd "$T"

# golden DESCRIPTION COMMAND... <<'EOF' (expected standard output) EOF
# Passes when the command exits 0, prints nothing on stderr and exactly
# the expected text on stdout.
golden() {
  local what=$1; shift
  local want got rc=0
  want=$(cat)
  got=$("$@" 2>"$T/golden.err") || rc=$?
  if [ "$rc" -eq 0 ] && [ "$got" == "$want" ] && [ ! -s "$T/golden.err" ]; then
    pass "$what"
  else
    fail "$what (exit $rc)"
    sed 's/^/       stderr: /' "$T/golden.err" | head -5
    diff <(printf '%s\n' "$want") <(printf '%s\n' "$got") | head -30 |
      sed 's/^/       /'
  fi
}

# bad_input DESCRIPTION FILE: the command fails with exit 1, one line on
# stderr starting "cccp-report: FILE:LINE: ", nothing on stdout.
bad_input() {
  local what=$1 file=$2
  expect_exit 1 "$what" "$REPORT" top "$file"
  local lines; lines=$(printf '%s\n' "$err" | wc -l)
  if [ -z "$out" ] && [ "$lines" -eq 1 ] &&
     printf '%s' "$err" | grep -Eq "^cccp-report: $file:[0-9]+: "; then
    pass "$what: one line with file:line"
  else
    fail "$what: one line with file:line, no output"
    printf '%s\n' "$err" | head -3 | sed 's/^/       /'
  fi
}

echo "-- usage"
expect_exit 2 "no command is a usage error" "$REPORT"
expect_match "Usage: cccp-report COMMAND" "and prints the usage" "$err"
expect_exit 0 "--help" "$REPORT" --help
expect_match "top +the hottest methods" "--help lists the commands" "$out"
expect_exit 0 "--version" "$REPORT" --version
expect_match "^cccp-report [0-9]+\.[0-9]+" "--version prints the version" "$out"
expect_exit 0 "top --help" "$REPORT" top --help
expect_match "--include PREFIX" "top --help lists top's options" "$out"
for c in top tree folded callgrind pprof flame stats merge diff compare; do
  expect_exit 0 "$c --help" "$REPORT" "$c" --help
  expect_match "^Usage: cccp-report $c " "$c --help prints its usage" "$out"
  expect_match "--output FILE" "$c takes --output" "$out"
done
expect_exit 0 "help top" "$REPORT" help top
expect_match "Usage: cccp-report top" "help top is top --help" "$out"
expect_exit 2 "unknown command" "$REPORT" frobnicate small.xml
expect_match "^cccp-report: unknown command \"frobnicate\"" "says so in one line" "$err"
expect_exit 2 "unknown option" "$REPORT" top --frobnicate small.xml
expect_match "^cccp-report: top: unknown option --frobnicate" "names the option" "$err"
expect_exit 2 "an option of another command" "$REPORT" top --depth 3 small.xml
expect_exit 2 "missing option value" "$REPORT" top small.xml -n
expect_match "needs a value" "says the value is missing" "$err"
expect_exit 2 "bad -n" "$REPORT" top -n x small.xml
expect_match "^cccp-report: top: --limit: bad value \"x\"$" "names the bad value" "$err"
expect_exit 2 "bad --min" "$REPORT" top --min 5%% small.xml
expect_exit 2 "bad --sort" "$REPORT" top --sort median small.xml
expect_exit 2 "no profile" "$REPORT" top
expect_exit 2 "output is an input" "$REPORT" top small.xml -o small.xml
check "the input is untouched" cmp small.xml "$DATA/small.xml"

# Generated: a chain 200,000 calls deep (recursion in the reader or the
# commands would overflow the stack) and a wide tree of 300,000 nodes.
python3 "$ROOT/tests/report/mkprofiles.py" 200000 1000 300 999

echo "-- top"
# small.xml, calls. Thread main: main 1 > {work 10 > helper 20 > length
# 40, helper 5, fib 1 > fib 2 > fib 4}; thread worker: run 1 > work 3 >
# helper 6. Totals: main 83, worker 10, all 93.
# Methods per thread, self = sum of its nodes, total = its outermost
# subtrees: [main] length 40/40; helper 20+5 = 25 / (20+40)+5 = 65; work
# 10/70; fib 1+2+4 = 7 / 7 (recursion counted once); main 1/83; [worker]
# helper 6/6, work 3/9, run 1/10. Percentages of 93: 40 -> 43.0, 25 ->
# 26.9, 65 -> 69.9, 10 -> 10.8, 70 -> 75.3, 7 -> 7.5, 6 -> 6.5, 3 -> 3.2,
# 9 -> 9.7, 1 -> 1.1, 83 -> 89.2. Ties on self sorted by total.
golden "top: methods and contexts by self calls, per thread" \
  "$REPORT" top small.xml <<'EOF'
small.xml: 93 calls in 2 threads

methods by self calls
self  self% total total%  method
  40  43.0%    40  43.0%  [main] java/lang/String.length()I
  25  26.9%    65  69.9%  [main] app/Util.helper(I)I
  10  10.8%    70  75.3%  [main] app/Main.work()V
   7   7.5%     7   7.5%  [main] app/Main.fib(I)I
   6   6.5%     6   6.5%  [worker] app/Util.helper(I)I
   3   3.2%     9   9.7%  [worker] app/Main.work()V
   1   1.1%    83  89.2%  [main] app/Main.main([Ljava/lang/String;)V
   1   1.1%    10  10.8%  [worker] app/Worker.run()V

contexts by self calls
self  self% total total%  context
  40  43.0%    40  43.0%  [main] app/Main.main([Ljava/lang/String;)V > app/Main.work()V > app/Util.helper(I)I > java/lang/String.length()I
  20  21.5%    60  64.5%  [main] app/Main.main([Ljava/lang/String;)V > app/Main.work()V > app/Util.helper(I)I
  10  10.8%    70  75.3%  [main] app/Main.main([Ljava/lang/String;)V > app/Main.work()V
   6   6.5%     6   6.5%  [worker] app/Worker.run()V > app/Main.work()V > app/Util.helper(I)I
   5   5.4%     5   5.4%  [main] app/Main.main([Ljava/lang/String;)V > app/Util.helper(I)I
   4   4.3%     4   4.3%  [main] app/Main.main([Ljava/lang/String;)V > app/Main.fib(I)I > app/Main.fib(I)I > app/Main.fib(I)I
   3   3.2%     9   9.7%  [worker] app/Worker.run()V > app/Main.work()V
   2   2.2%     6   6.5%  [main] app/Main.main([Ljava/lang/String;)V > app/Main.fib(I)I > app/Main.fib(I)I
   1   1.1%    83  89.2%  [main] app/Main.main([Ljava/lang/String;)V
   1   1.1%    10  10.8%  [worker] app/Worker.run()V
... 1 more
EOF

# Cycles, threads merged: main 5/416 (5+100+200+40+50+3+6+12); work
# 100+30 = 130 / (100+200+40)+(30+60) = 430; helper 200+50+60 = 310 /
# 240+50+60 = 350; all 507 (416 + 91). 430/507 = 84.8%, 416/507 = 82.1%,
# 350/507 = 69.0%. Contexts by total: main 416, main>work 340, main>work>
# helper 240; 11 contexts, 8 more.
golden "top -m cycles --merge-threads --sort total -n 3" \
  "$REPORT" top -m cycles --merge-threads --sort total -n 3 small.xml <<'EOF'
small.xml: 507 cycles, threads merged

methods by total cycles
self  self% total total%  method
 130  25.6%   430  84.8%  app/Main.work()V
   5   1.0%   416  82.1%  app/Main.main([Ljava/lang/String;)V
 310  61.1%   350  69.0%  app/Util.helper(I)I
... 3 more

contexts by total cycles
self  self% total total%  context
   5   1.0%   416  82.1%  app/Main.main([Ljava/lang/String;)V
 100  19.7%   340  67.1%  app/Main.main([Ljava/lang/String;)V > app/Main.work()V
 200  39.4%   240  47.3%  app/Main.main([Ljava/lang/String;)V > app/Main.work()V > app/Util.helper(I)I
... 8 more
EOF

# --min 5%: 5% of 93 is 4.65, so rows of 5 calls and more.
golden "top --min 5%" "$REPORT" top --min 5% --methods small.xml <<'EOF'
small.xml: 93 calls in 2 threads

methods by self calls
self  self% total total%  method
  40  43.0%    40  43.0%  [main] java/lang/String.length()I
  25  26.9%    65  69.9%  [main] app/Util.helper(I)I
  10  10.8%    70  75.3%  [main] app/Main.work()V
   7   7.5%     7   7.5%  [main] app/Main.fib(I)I
   6   6.5%     6   6.5%  [worker] app/Util.helper(I)I
EOF
golden "top --min 7 --sort total, absolute" \
  "$REPORT" top --min 70 --sort total --methods small.xml <<'EOF'
small.xml: 93 calls in 2 threads

methods by total calls
self  self% total total%  method
   1   1.1%    83  89.2%  [main] app/Main.main([Ljava/lang/String;)V
  10  10.8%    70  75.3%  [main] app/Main.work()V
EOF

# Only app.Main's methods (dotted prefix); the percentages stay of 93.
golden "top --include app.Main" \
  "$REPORT" top --include app.Main --methods small.xml <<'EOF'
small.xml: 93 calls in 2 threads

methods by self calls
self  self% total total%  method
  10  10.8%    70  75.3%  [main] app/Main.work()V
   7   7.5%     7   7.5%  [main] app/Main.fib(I)I
   3   3.2%     9   9.7%  [worker] app/Main.work()V
   1   1.1%    83  89.2%  [main] app/Main.main([Ljava/lang/String;)V
EOF
# Contexts not ending in java/: 10 of 11, 3 shown, 7 more.
golden "top --exclude java/ --contexts -n 3" \
  "$REPORT" top --exclude java/ --contexts -n 3 small.xml <<'EOF'
small.xml: 93 calls in 2 threads

contexts by self calls
self  self% total total%  context
  20  21.5%    60  64.5%  [main] app/Main.main([Ljava/lang/String;)V > app/Main.work()V > app/Util.helper(I)I
  10  10.8%    70  75.3%  [main] app/Main.main([Ljava/lang/String;)V > app/Main.work()V
   6   6.5%     6   6.5%  [worker] app/Worker.run()V > app/Main.work()V > app/Util.helper(I)I
... 7 more
EOF
golden "top --include matching nothing" \
  "$REPORT" top --include org/ --methods small.xml <<'EOF'
small.xml: 93 calls in 2 threads

methods by self calls
self  self% total total%  method
(none)
EOF
# Two runs: every count doubles, the shares stay.
golden "top of two profiles merges them (threads by name)" \
  "$REPORT" top --methods -n 2 small.xml small.xml <<'EOF'
small.xml small.xml: 186 calls in 2 threads

methods by self calls
self  self% total total%  method
  80  43.0%    80  43.0%  [main] java/lang/String.length()I
  50  26.9%   130  69.9%  [main] app/Util.helper(I)I
... 6 more
EOF
expect_exit 1 "a metric the profile lacks" "$REPORT" top -m bytecodes small.xml
expect_match "^cccp-report: small.xml: no metric \"bytecodes\" in the profile \(it has: calls, cycles\)$" \
  "lists the metrics there are" "$err"

echo "-- tree"
# Children by decreasing total: under main, work 70 > fib 1+2+4 = 7 >
# helper 5. Thread lines carry the thread's total and no self value.
golden "tree: the whole CCT, per thread" "$REPORT" tree small.xml <<'EOF'
small.xml: 93 calls in 2 threads
total      %  self  context
   83  89.2%        [main]
   83  89.2%     1    app/Main.main([Ljava/lang/String;)V
   70  75.3%    10      app/Main.work()V
   60  64.5%    20        app/Util.helper(I)I
   40  43.0%    40          java/lang/String.length()I
    7   7.5%     1      app/Main.fib(I)I
    6   6.5%     2        app/Main.fib(I)I
    4   4.3%     4          app/Main.fib(I)I
    5   5.4%     5      app/Util.helper(I)I
   10  10.8%        [worker]
   10  10.8%     1    app/Worker.run()V
    9   9.7%     3      app/Main.work()V
    6   6.5%     6        app/Util.helper(I)I
EOF
# Cycles, --min 10% of 507 = 50.7, so 51: under main, fib (3+6+12 = 21)
# and helper (50) make one line of 71; --depth 2 stops below work.
golden "tree -m cycles --min 10% --depth 2" \
  "$REPORT" tree -m cycles --min 10% --depth 2 small.xml <<'EOF'
small.xml: 507 cycles in 2 threads
total      %  self  context
  416  82.1%        [main]
  416  82.1%     5    app/Main.main([Ljava/lang/String;)V
  340  67.1%   100      app/Main.work()V
   71  14.0%            ... 2 more under the threshold
   91  17.9%        [worker]
   91  17.9%     1    app/Worker.run()V
   90  17.8%    30      app/Main.work()V
EOF
golden "tree --merge-threads --min 6" \
  "$REPORT" tree --merge-threads --min 6 small.xml <<'EOF'
small.xml: 93 calls, threads merged
total      %  self  context
   83  89.2%     1  app/Main.main([Ljava/lang/String;)V
   70  75.3%    10    app/Main.work()V
   60  64.5%    20      app/Util.helper(I)I
   40  43.0%    40        java/lang/String.length()I
    7   7.5%     1    app/Main.fib(I)I
    6   6.5%     2      app/Main.fib(I)I
    4   4.3%              ... 1 more under the threshold
    5   5.4%          ... 1 more under the threshold
   10  10.8%     1  app/Worker.run()V
    9   9.7%     3    app/Main.work()V
    6   6.5%     6      app/Util.helper(I)I
EOF
# No --min: 0.01% of the whole, 0.01% of 100,005 = 10.0005, so 11: rare
# (10 calls) is left out. --min 0 shows every context.
cat >skewed.xml <<'EOF'
<?xml version="1.0" encoding="UTF-8"?>
<cct version="1" mode="cccp">
  <method id="1" class="app/M" name="main" desc="()V" size="1" native="0" library="0"/>
  <method id="2" class="app/M" name="common" desc="()V" size="1" native="0" library="0"/>
  <method id="3" class="app/M" name="rare" desc="()V" size="1" native="0" library="0"/>
  <tree thread="main">
    <node method="1" calls="5">
      <node method="2" calls="99990"/>
      <node method="3" calls="10"/>
    </node>
  </tree>
</cct>
EOF
golden "tree: contexts under 0.01% left out by default" "$REPORT" tree skewed.xml <<'EOF'
skewed.xml: 100005 calls in 1 thread
 total      %   self  context
100005 100.0%         [main]
100005 100.0%      5    app/M.main()V
 99990 100.0%  99990      app/M.common()V
    10   0.0%             ... 1 more under the threshold
EOF
golden "tree --min 0: every context" "$REPORT" tree --min 0 skewed.xml <<'EOF'
skewed.xml: 100005 calls in 1 thread
 total      %   self  context
100005 100.0%         [main]
100005 100.0%      5    app/M.main()V
 99990 100.0%  99990      app/M.common()V
    10   0.0%     10      app/M.rare()V
EOF
# worker (10) is under 11; main is not.
golden "tree --depth 0 --min 11: threads only, one left out" \
  "$REPORT" tree --depth 0 --min 11 small.xml <<'EOF'
small.xml: 93 calls in 2 threads
total      %  self  context
   83  89.2%        [main]
   10  10.8%        ... 1 more thread under the threshold
EOF
expect_exit 0 "tree --color=always" "$REPORT" tree --color=always --depth 1 small.xml
expect_match $'\e\[1;31m 89.2%\e\[0m' "colours a hot share" "$out"
expect_match $'\e\[36mjava/lang/String' "colours library frames" \
  "$("$REPORT" tree --color small.xml)"
expect_exit 0 "tree --color=auto into a pipe" "$REPORT" tree small.xml
check "has no escapes" bash -c '! grep -q $'"'"'\e'"'"' <<<"$1"' _ "$out"
if command -v script >/dev/null; then
  tty_out=$(TERM=xterm script -qc "'$REPORT' tree --depth 1 small.xml" /dev/null)
  expect_match $'\e\[1m\[main\]' "tree on a terminal is coloured" "$tty_out"
  tty_out=$(TERM=xterm NO_COLOR=1 script -qc "'$REPORT' tree --depth 1 small.xml" /dev/null)
  check "but not with NO_COLOR" bash -c '! grep -q $'"'"'\e'"'"' <<<"$1"' _ "$tty_out"
fi
expect_exit 2 "bad --color" "$REPORT" tree --color=sometimes small.xml
# 200,000 levels: indentation stops at 60 levels, deeper lines say their
# depth.
expect_exit 0 "tree of a 200,000-deep chain" "$REPORT" tree --min 0 deep.xml
expect_match "\(depth 200001\) a/L.leaf\(\)V" "the deepest line says its depth" "$out"

echo "-- folded"
# One line per context with a self value: the node's own calls.
golden "folded: calls per thread" "$REPORT" folded small.xml <<'EOF'
[main];app/Main.main 1
[main];app/Main.main;app/Main.work 10
[main];app/Main.main;app/Main.work;app/Util.helper 20
[main];app/Main.main;app/Main.work;app/Util.helper;java/lang/String.length 40
[main];app/Main.main;app/Util.helper 5
[main];app/Main.main;app/Main.fib 1
[main];app/Main.main;app/Main.fib;app/Main.fib 2
[main];app/Main.main;app/Main.fib;app/Main.fib;app/Main.fib 4
[worker];app/Worker.run 1
[worker];app/Worker.run;app/Main.work 3
[worker];app/Worker.run;app/Main.work;app/Util.helper 6
EOF
golden "folded -m cycles --merge-threads" \
  "$REPORT" folded -m cycles --merge-threads small.xml <<'EOF'
app/Main.main 5
app/Main.main;app/Main.work 100
app/Main.main;app/Main.work;app/Util.helper 200
app/Main.main;app/Main.work;app/Util.helper;java/lang/String.length 40
app/Main.main;app/Util.helper 50
app/Main.main;app/Main.fib 3
app/Main.main;app/Main.fib;app/Main.fib 6
app/Main.main;app/Main.fib;app/Main.fib;app/Main.fib 12
app/Worker.run 1
app/Worker.run;app/Main.work 30
app/Worker.run;app/Main.work;app/Util.helper 60
EOF
# --min: a context under the threshold goes with its subtree (Main.fib's
# 7 calls, Util.helper's 5; the worker's helper, 6).
golden "folded --min 8" "$REPORT" folded --min 8 small.xml <<'EOF'
[main];app/Main.main 1
[main];app/Main.main;app/Main.work 10
[main];app/Main.main;app/Main.work;app/Util.helper 20
[main];app/Main.main;app/Main.work;app/Util.helper;java/lang/String.length 40
[worker];app/Worker.run 1
[worker];app/Worker.run;app/Main.work 3
EOF
# 11% of 93 calls is 10.2: the worker's whole tree (10) goes too.
golden "folded --min 11%" "$REPORT" folded --min 11% small.xml <<'EOF'
[main];app/Main.main 1
[main];app/Main.main;app/Main.work 10
[main];app/Main.main;app/Main.work;app/Util.helper 20
[main];app/Main.main;app/Main.work;app/Util.helper;java/lang/String.length 40
EOF
# No flame graph renderer is packaged for Debian 12: a strict check of
# the format (frames without ';' or line breaks, one space, a count) and
# of the sum, which must be the profile's total.
folded_ok() {
  awk -v want="$2" '
    !/^[^;]+(;[^;]+)* [0-9]+$/ { bad++ }
    { sum += $NF }
    END { if (bad || sum != want) { print bad " bad lines, sum " sum; exit 1 } }' "$1"
}
"$REPORT" folded --merge-threads wide.xml > wide.folded
# 300 top-level nodes of 1 call, each with 999 children of j % 13 calls
# (j = 0..998: 76 rounds of 0..12, 78 each, then 0..10, 55): 300 * (1 +
# 76 * 78 + 55) = 1,795,200.
wide_total=1795200
check "folded of 300,000 nodes: strict format, sum is the total ($wide_total)" \
  folded_ok wide.folded "$wide_total"
# Hostile names: ';' inside a frame, a line break, a tab (as character
# references) stay inside one frame of one line.
printf '%s' '<cct version="1"><method id="1" class="a;b" name="x&#10;y" desc="()V"/><tree thread="t&#9;1;2"><node method="1" calls="3"/></tree></cct>' > names.xml
golden "folded: ';' and control characters in names" "$REPORT" folded names.xml <<'EOF'
[t?1_2];a_b.x?y 3
EOF

echo "-- callgrind"
# Function level, threads merged. Self (calls, cycles): main 1 5, work
# 10+3 13 130, helper 20+5+6 31 310, length 40 40, fib 1+2+4 7 21, run
# 1 1. Edges (calls; inclusive calls, cycles): main>work 10; 70 340,
# main>helper 5; 5 50, main>fib 1; 7 21, work>helper 20+6 26; 60+6 66,
# 240+60 300, helper>length 40; 40 40, fib>fib 2+4 6; 6+4 10, 18+12 30,
# run>work 3; 9 90.
version=$("$REPORT" --version | cut -d' ' -f2)
golden "callgrind" "$REPORT" callgrind small.xml <<EOF
# callgrind format
version: 1
creator: cccp-report $version
cmd: small.xml
positions: line
events: calls cycles

fl=app/Main
fn=(1) app/Main.main([Ljava/lang/String;)V
0 1 5
cfl=app/Main
cfn=(2) app/Main.work()V
calls=10 0
0 70 340
cfl=app/Util
cfn=(3) app/Util.helper(I)I
calls=5 0
0 5 50
cfl=app/Main
cfn=(5) app/Main.fib(I)I
calls=1 0
0 7 21

fl=app/Main
fn=(2)
0 13 130
cfl=app/Util
cfn=(3)
calls=26 0
0 66 300

fl=app/Util
fn=(3)
0 31 310
cfl=java/lang/String
cfn=(4) java/lang/String.length()I
calls=40 0
0 40 40

fl=java/lang/String
fn=(4)
0 40 40

fl=app/Main
fn=(5)
0 7 21
cfl=app/Main
cfn=(5)
calls=6 0
0 10 30

fl=app/Worker
fn=(6) app/Worker.run()V
0 1 1
cfl=app/Main
cfn=(2)
calls=3 0
0 9 90

totals: 93 507
EOF
# The judge: valgrind's callgrind_annotate reads the file; its program
# totals are the profile's (93 calls, 507 cycles), its per-function self
# costs add up to them, and main's inclusive cost is its whole tree (83
# calls, 416 cycles).
if command -v callgrind_annotate >/dev/null; then
  "$REPORT" callgrind small.xml -o small.cg
  ann=$(callgrind_annotate --auto=no --threshold=100 small.cg 2>&1)
  expect_match '^93 \(100\.0%\) 507 \(100\.0%\)  PROGRAM TOTALS$' \
    "callgrind_annotate: program totals 93 calls, 507 cycles" "$ann"
  sums=$(printf '%s\n' "$ann" | awk '/PROGRAM TOTALS/ { on = 1; next }
    on && /^ *[0-9,]+ \(/ { gsub(",", ""); gsub(/\([^)]*\)/, ""); c += $1; y += $2; n++ }
    END { print n, c, y }')
  check "callgrind_annotate: 6 functions whose self costs add up to 93, 507 ($sums)" \
    test "$sums" = "6 93 507"
  expect_match '31 \(33\.33%\) 310 \(61\.14%\)  app/Util:app/Util.helper\(I\)I' \
    "callgrind_annotate: helper's self cost 31 calls, 310 cycles" "$ann"
  ann=$(callgrind_annotate --auto=no --threshold=100 --inclusive=yes small.cg 2>&1)
  expect_match '83 \(89\.25%\) 416 \(82\.05%\)  app/Main:app/Main.main\(\[Ljava/lang/String;\)V' \
    "callgrind_annotate --inclusive: main 83 calls, 416 cycles" "$ann"
  "$REPORT" callgrind wide.xml -o wide.cg
  ann=$(callgrind_annotate --auto=no wide.cg 2>&1)
  wide_ann=$(printf '%s\n' "$ann" | awk '/PROGRAM TOTALS/ { gsub(",", ""); print $1 }')
  check "callgrind_annotate on the 300,000-node export: total $wide_ann is the profile's" \
    test "$wide_ann" = "$wide_total"
else
  echo "  (callgrind_annotate not installed: valgrind's judge skipped)"
fi

echo "-- compare"
# small.xml (A) vs small-b.xml (B, its own method order): threads merged,
# contexts are paths. A: main 1, m>work 10, m>w>helper 20, m>w>h>length
# 40, m>helper 5, m>fib 1, m>f>f 2, m>f>f>f 4, run 1, r>work 3, r>w>h 6
# (93). B: the same but m>work 20 and no fib (96). Overlap = sum over the
# 8 common contexts of min(a/93, b/96): m>work gives 10/93, the others
# their B share, (1+20+40+5+1+3+6)/96 = 76/96: 0.791667 + 0.107527 =
# 89.9194%. Differing: m>work by 10, the fibs by 4, 2, 1.
golden "compare A B" "$REPORT" compare small.xml small-b.xml <<'EOF'
overlap: 89.9194%
calls: A 93, B 96
contexts: A 11, B 8, common 8, differing 4
  A 10  B 20  app/Main.main([Ljava/lang/String;)V > app/Main.work()V
  A 4  B 0  app/Main.main([Ljava/lang/String;)V > app/Main.fib(I)I > app/Main.fib(I)I > app/Main.fib(I)I
  A 2  B 0  app/Main.main([Ljava/lang/String;)V > app/Main.fib(I)I > app/Main.fib(I)I
  A 1  B 0  app/Main.main([Ljava/lang/String;)V > app/Main.fib(I)I
EOF
# Hiding fib drops its 7 calls from A (86): 76/96 + 10/86 = 0.791667 +
# 0.116279 = 90.7946%.
golden "compare --hide app/Main.fib -n 1" \
  "$REPORT" compare --hide app/Main.fib -n 1 small.xml small-b.xml <<'EOF'
overlap: 90.7946%
calls: A 86, B 96
contexts: A 8, B 8, common 8, differing 1
  A 10  B 20  app/Main.main([Ljava/lang/String;)V > app/Main.work()V
EOF
# Pruning work leaves out it and everything under it: A keeps main 1,
# m>helper 5, the fibs 7, run 1 (14); B main 1, m>helper 5, run 1 (7).
# The 3 common contexts have half of A and all of B: 7/14 = 50%.
golden "compare --prune app/Main.work" \
  "$REPORT" compare --prune app/Main.work small.xml small-b.xml <<'EOF'
overlap: 50.0000%
calls: A 14, B 7
contexts: A 6, B 3, common 3, differing 3
  A 4  B 0  app/Main.main([Ljava/lang/String;)V > app/Main.fib(I)I > app/Main.fib(I)I > app/Main.fib(I)I
  A 2  B 0  app/Main.main([Ljava/lang/String;)V > app/Main.fib(I)I > app/Main.fib(I)I
  A 1  B 0  app/Main.main([Ljava/lang/String;)V > app/Main.fib(I)I
EOF
# Pruning Worker.run where a thread starts with it leaves out its 10 calls
# on each side: A 83, B 86; the five common contexts give 1/86 + 10/83 +
# 20/86 + 40/86 + 5/86 = 88.7924%. Main.work is never a thread's first
# frame: pruned at the root it stays everywhere (89.9194%, as above).
golden "compare --prune-root app/Worker.run" \
  "$REPORT" compare --prune-root app/Worker.run -n 1 small.xml small-b.xml <<'EOF'
overlap: 88.7924%
calls: A 83, B 86
contexts: A 8, B 5, common 5, differing 4
  A 10  B 20  app/Main.main([Ljava/lang/String;)V > app/Main.work()V
EOF
golden "compare --prune-root app/Main.work: not at a root, kept" \
  "$REPORT" compare --prune-root app/Main.work --top 0 small.xml small-b.xml <<'EOF'
overlap: 89.9194%
calls: A 93, B 96
contexts: A 11, B 8, common 8, differing 4
EOF
golden "compare a profile with itself: 100%" "$REPORT" compare --top 0 small.xml small.xml <<'EOF'
overlap: 100.0000%
calls: A 93, B 93
contexts: A 11, B 11, common 11, differing 0
EOF
expect_exit 4 "compare --min-overlap 90 below it: exit 4" \
  "$REPORT" compare --min-overlap 90 small.xml small-b.xml
expect_exit 0 "compare --min-overlap 89.9 above it" \
  "$REPORT" compare --min-overlap 89.9 small.xml small-b.xml
expect_exit 0 "compare -o FILE with exit 4 still writes FILE" \
  "$REPORT" compare small.xml small-b.xml -o cmp.txt
check "it holds the comparison" grep -q '^overlap: 89.9194%$' cmp.txt
# The --hide-vm-upcalls and --collapse-generated rules are the library's
# (unit tests of src/profile/compare.c); here: the options reach it. A
# library <clinit> called by the JVM (hidden) and a lambda frame
# (collapsed) under main.
printf '%s' '<cct version="1">
<method id="1" class="app/Main" name="main" desc="()V"/>
<method id="2" class="java/util/Locale" name="&lt;clinit&gt;" desc="()V" library="1"/>
<method id="3" class="app/Main$$Lambda.0x1" name="run" desc="()V"/>
<method id="4" class="app/Main" name="f" desc="()V"/>
<tree thread="main"><node method="1" calls="1"><node method="2" calls="1"/>
<node method="3" calls="2"><node method="4" calls="2"/></node></node></tree></cct>' > vm.xml
printf '%s' '<cct version="1">
<method id="1" class="app/Main" name="main" desc="()V"/>
<method id="2" class="app/Main" name="f" desc="()V"/>
<tree thread="main"><node method="1" calls="1"><node method="2" calls="2"/></node></tree></cct>' > plain.xml
golden "compare --app-prefix --collapse-generated --hide-vm-upcalls" \
  "$REPORT" compare --app-prefix app/ --collapse-generated --hide-vm-upcalls vm.xml plain.xml <<'EOF'
overlap: 100.0000%
calls: A 3, B 3
contexts: A 2, B 2, common 2, differing 0
EOF
# Without hiding, A has main 1, main><clinit> 1, main>f 2 (4 calls):
# overlap min(1/4, 1/3) + min(2/4, 2/3) = 75%.
golden "compare --app-prefix --collapse-generated" \
  "$REPORT" compare --app-prefix app/ --collapse-generated vm.xml plain.xml <<'EOF'
overlap: 75.0000%
calls: A 4, B 3
contexts: A 3, B 2, common 2, differing 1
  A 1  B 0  app/Main.main()V > java/util/Locale.<clinit>()V
EOF
golden "compare --expect: all listed contexts match" \
  "$REPORT" compare --app-prefix app/ --expect small-b.expect small-b.xml <<'EOF'
ok: 7 contexts expected, 0 mismatched, 1 unlisted library contexts ignored
EOF
sed 's/^3 app/4 app/' small-b.expect > wrong.expect
expect_exit 4 "compare --expect: a wrong count is exit 4" \
  "$REPORT" compare --app-prefix app/ --expect wrong.expect small-b.xml
expect_match "^mismatch: want 4 got 3: app/Worker.run\(\)V > app/Main.work\(\)V" "and named" "$out"
expect_match "FAIL: 7 contexts expected, 1 mismatched, 1 unlisted library contexts ignored" \
  "and summed up" "$out"
golden "compare --contexts: the contexts in --expect format, by path" \
  "$REPORT" compare --contexts small-b.xml <<'EOF'
1 app/Main.main([Ljava/lang/String;)V
20 app/Main.main([Ljava/lang/String;)V > app/Main.work()V
20 app/Main.main([Ljava/lang/String;)V > app/Main.work()V > app/Util.helper(I)I
40 app/Main.main([Ljava/lang/String;)V > app/Main.work()V > app/Util.helper(I)I > java/lang/String.length()I
5 app/Main.main([Ljava/lang/String;)V > app/Util.helper(I)I
1 app/Worker.run()V
3 app/Worker.run()V > app/Main.work()V
6 app/Worker.run()V > app/Main.work()V > app/Util.helper(I)I
EOF
expect_exit 2 "compare with one profile" "$REPORT" compare small.xml
expect_exit 2 "compare with three" "$REPORT" compare small.xml small.xml small.xml
expect_exit 2 "compare --expect with --contexts" "$REPORT" compare --expect small-b.expect --contexts small.xml
expect_exit 1 "compare with a missing profile" "$REPORT" compare small.xml nope.xml
expect_exit 1 "compare with a missing expectation file" \
  "$REPORT" compare --expect nope.expect small.xml
expect_match "^cccp-report: nope.expect: cannot open: No such file" "names it" "$err"
printf '%s' '<cct version="1"><method id="2" class="a" name="b" desc="()V"/></cct>' > ids.xml
expect_exit 1 "compare with a malformed one" "$REPORT" compare small.xml ids.xml
expect_match "^cccp-report: ids.xml:1: method ids must be dense" "names file and line" "$err"
printf '1 a/B.m()V\nfoo\n' > bad.expect
expect_exit 1 "compare --expect with a bad expectation file" \
  "$REPORT" compare --expect bad.expect small.xml
expect_match "^cccp-report: bad.expect:2: expected" "names file and line" "$err"
expect_exit 2 "compare rejects top's options" "$REPORT" compare --include app/ small.xml small-b.xml

echo "-- pprof"
# The judge: protoc decodes the gunzipped output as perftools.profiles.
# Profile (tests/report/profile.proto); the samples' values add up to the
# profile's totals per sample type (93 calls, 507 cycles); a sample is
# its frames leaf first, named through the string table; each has its
# thread as a label.
# A summary of protoc's text output: sample types, totals per type, and
# each sample as "[thread] leaf < caller < ... values".
PPROF_SUMMARY=$(cat <<'PY'
import ast, sys
root, stack = {}, []
stack.append(root)
for line in open(sys.argv[1]):
    line = line.strip()
    if not line:
        continue
    if line.endswith("{"):
        d = {}
        stack[-1].setdefault(line[:-1].strip(), []).append(d)
        stack.append(d)
    elif line == "}":
        stack.pop()
    else:
        k, v = line.split(":", 1)
        v = v.strip()
        stack[-1].setdefault(k, []).append(ast.literal_eval(v) if v.startswith('"') else int(v))
st = root["string_table"]
print("types", " ".join(st[t["type"][0]] + "/" + st[t["unit"][0]] for t in root["sample_type"]),
      "default", st[root["default_sample_type"][0]] if "default_sample_type" in root else st[0])
fn = {f["id"][0]: f for f in root["function"]}
loc = {l["id"][0]: l["line"][0]["function_id"][0] for l in root["location"]}
sums = [0] * len(root["sample_type"])
for smp in root["sample"]:
    for i, v in enumerate(smp["value"]):
        sums[i] += v
print("totals", *sums)
if len(root["sample"]) > 100:
    sys.exit(0)
print("samples", len(root["sample"]))
for smp in root["sample"]:
    names = [st[fn[loc[l]]["name"][0]] for l in smp["location_id"]]
    thr = st[smp["label"][0]["str"][0]] if "label" in smp else "-"
    print("[%s] %s %s" % (thr, " < ".join(names), " ".join(map(str, smp["value"]))))
print("signature of 4:", st[fn[4]["system_name"][0]])
PY
)
if command -v protoc >/dev/null; then
  expect_exit 0 "pprof writes a profile" "$REPORT" pprof small.xml -o small.pb.gz
  pprof_text() {
    gunzip -c "$1" | protoc --proto_path="$ROOT/tests/report" \
      --decode=perftools.profiles.Profile "$ROOT/tests/report/profile.proto"
  }
  check "protoc decodes it" pprof_text small.pb.gz
  pprof_text small.pb.gz > small.pb.txt
  golden "pprof: sample types, totals, stacks and threads" \
    python3 -c "$PPROF_SUMMARY" small.pb.txt <<'EOF'
types calls/count cycles/count default calls
totals 93 507
samples 11
[main] app/Main.main 1 5
[main] app/Main.work < app/Main.main 10 100
[main] app/Util.helper < app/Main.work < app/Main.main 20 200
[main] java/lang/String.length < app/Util.helper < app/Main.work < app/Main.main 40 40
[main] app/Util.helper < app/Main.main 5 50
[main] app/Main.fib < app/Main.main 1 3
[main] app/Main.fib < app/Main.fib < app/Main.main 2 6
[main] app/Main.fib < app/Main.fib < app/Main.fib < app/Main.main 4 12
[worker] app/Worker.run 1 1
[worker] app/Main.work < app/Worker.run 3 30
[worker] app/Util.helper < app/Main.work < app/Worker.run 6 60
signature of 4: java/lang/String.length()I
EOF
  "$REPORT" pprof -m cycles small.xml -o cycles.pb.gz
  expect_match "^types calls/count cycles/count default cycles" \
    "pprof -m cycles makes cycles the default sample type" \
    "$(pprof_text cycles.pb.gz > cycles.pb.txt; python3 -c "$PPROF_SUMMARY" cycles.pb.txt)"
  "$REPORT" pprof --merge-threads wide.xml -o wide.pb.gz
  pprof_text wide.pb.gz > wide.pb.txt
  check "pprof of 300,000 contexts: protoc's totals are the profile's ($wide_total calls)" \
    bash -c 'python3 -c "$1" "$2" | grep -qx "totals $3" && python3 -c "$1" "$2" | grep -q "^types calls/count default calls"' \
    _ "$PPROF_SUMMARY" wide.pb.txt "$wide_total"
else
  echo "  (protoc not installed: pprof's judge skipped)"
fi

echo "-- flame"
expect_exit 0 "flame writes a page" "$REPORT" flame small.xml -o small.html
check "one self-contained file: nothing loaded from anywhere" \
  bash -c '! grep -Eiq "https?:|<link|<img|<iframe|src=|@import|url\(" small.html'
# The data: root 93; [main] 83 > main 83 > work 70 > helper 60 > length
# 40, main > helper 5, main > fib 7 > 6 > 4; [worker] 10 > run 10 > work
# 9 > helper 6. Pre-order, parents by index.
flame_json() {
  python3 - "$1" <<'PY'
import json, re, sys
s = open(sys.argv[1], encoding="ascii").read()
d = json.loads(re.search(r'<script id="cccp-data" type="application/json">(.*?)</script>', s, re.S).group(1))
v = d["nodes"]
rows = []
for i in range(0, len(v), 4):
    name, total, self_, parent = v[i:i + 4]
    path, p = [], i // 4
    while p >= 0:
        path.append(d["names"][v[4 * p]].encode("unicode_escape").decode())
        p = v[4 * p + 3]
    rows.append("%s %d %d" % (";".join(reversed(path)), total, self_))
print("\n".join(rows))
print("kinds", d["kinds"], "left", d["left"], "min", d["min"])
PY
}
golden "flame: the frames and values in the page" flame_json small.html <<'EOF'
all 93 0
all;[main] 83 0
all;[main];app/Main.main 83 1
all;[main];app/Main.main;app/Main.work 70 10
all;[main];app/Main.main;app/Main.work;app/Util.helper 60 20
all;[main];app/Main.main;app/Main.work;app/Util.helper;java/lang/String.length 40 40
all;[main];app/Main.main;app/Util.helper 5 5
all;[main];app/Main.main;app/Main.fib 7 1
all;[main];app/Main.main;app/Main.fib;app/Main.fib 6 2
all;[main];app/Main.main;app/Main.fib;app/Main.fib;app/Main.fib 4 4
all;[worker] 10 0
all;[worker];app/Worker.run 10 1
all;[worker];app/Worker.run;app/Main.work 9 3
all;[worker];app/Worker.run;app/Main.work;app/Util.helper 6 6
kinds [0, 2, 2, 2, 3, 2, 2, 1, 1] left 0 min 0.01%
EOF
# --min 10: fib (7), main > helper (5) and worker's work (9, with its
# helper) are left out: 3 subtrees.
"$REPORT" flame --min 10 --merge-threads -m cycles small.xml -o min.html
golden "flame --min 10 --merge-threads -m cycles" flame_json min.html <<'EOF'
all 507 0
all;app/Main.main 416 5
all;app/Main.main;app/Main.work 340 100
all;app/Main.main;app/Main.work;app/Util.helper 240 200
all;app/Main.main;app/Main.work;app/Util.helper;java/lang/String.length 40 40
all;app/Main.main;app/Util.helper 50 50
all;app/Main.main;app/Main.fib 21 3
all;app/Main.main;app/Main.fib;app/Main.fib 18 6
all;app/Main.main;app/Main.fib;app/Main.fib;app/Main.fib 12 12
all;app/Worker.run 91 1
all;app/Worker.run;app/Main.work 90 30
all;app/Worker.run;app/Main.work;app/Util.helper 60 60
kinds [0, 2, 2, 2, 3, 2, 2] left 0 min 10
EOF
"$REPORT" flame --min 10 small.xml -o min.html
check "flame --min 10 on calls leaves 3 subtrees out" \
  grep -q '"left":3,"min":"10"' min.html
# Hostile names stay inside the JSON string and the title is escaped.
printf '%s' '<cct version="1"><method id="1" class="a/&lt;/script&gt;&lt;b&gt;" name="x&amp;&#10;&#x1F600;" desc="()V"/><tree thread="&quot;t&quot;"><node method="1" calls="3"/></tree></cct>' > evil.xml
"$REPORT" flame evil.xml --title '</title><script>alert(1)</script>' -o evil.html
check "flame: names cannot end the script element" \
  bash -c '[ "$(grep -c "</script>" evil.html)" -eq 2 ] && ! grep -q "<b>" evil.html'
check "flame: the title is escaped" grep -q '&lt;/title&gt;&lt;script&gt;alert(1)&lt;/script&gt;' evil.html
golden "flame: names decode back exactly" flame_json evil.html <<'EOF'
all 3 0
all;["t"] 3 0
all;["t"];a/</script><b>.x&\n\U0001f600 3 3
kinds [0, 2, 1] left 0 min 0.01%
EOF

# The judge: a headless Chromium opens the page (file://, no network),
# its script runs to the end, the frames are in the DOM, a search
# highlights, a click zooms (the URL's #zoom= clicks the frame, as a user
# would), and a screenshot is drawn.
CHROME=""
for c in chromium-headless-shell chromium chromium-browser; do
  command -v "$c" >/dev/null && { CHROME=$c; break; }
done
if [ -n "$CHROME" ]; then
  chrome() {
    timeout 60 "$CHROME" --headless --no-sandbox --disable-gpu --no-first-run \
      --user-data-dir="$T/chrome" --window-size=1000,400 "$@" 2>/dev/null
  }
  dom=$(chrome --dump-dom "file://$T/small.html")
  expect_match 'data-ready="1"' "$CHROME: the page's script runs to the end" "$dom"
  for l in 'all' '\[main\]' '\[worker\]' 'app/Main.main' 'app/Main.work' \
           'app/Util.helper' 'java/lang/String.length' 'app/Main.fib' 'app/Worker.run'; do
    expect_match ">$l</div>" "$CHROME: frame $l is in the DOM" "$dom"
  done
  dom=$(chrome --dump-dom "file://$T/small.html#search=helper")
  expect_match 'id="matched">matched: 71 calls \(76.34%\)<' \
    "$CHROME: search 'helper' matches 60+5+6 = 71 of 93 calls" "$dom"
  check "$CHROME: and highlights the 3 helper frames, nothing else" \
    test "$(grep -o 'class="f m"[^>]*>[^<]*<' <<<"$dom" | grep -c '>app/Util.helper<')" = 3 -a \
         "$(grep -o 'class="f m"' <<<"$dom" | wc -l)" = 3
  dom=$(chrome --dump-dom "file://$T/small.html#search=%2Ffib%7CMain%5C.work%2F")
  expect_match 'matched: 86 calls \(92.47%\)' \
    "$CHROME: search /fib|Main\\.work/ matches 70 + 7 + 9 = 86 (nested fibs once)" "$dom"
  dom=$(chrome --dump-dom "file://$T/small.html#zoom=app%2FMain.work")
  # Zoomed on main > work (70): it spans the chart, its callers are
  # dimmed above it, helper is 60/70 of the width, fib is gone.
  w=$(grep -o 'data-i="3" style="left: 0px; width: [0-9.]*px' <<<"$dom" | grep -o '[0-9.]*px$')
  hw=$(grep -o 'data-i="4" style="left: 0px; width: [0-9.]*px' <<<"$dom" | grep -o '[0-9.]*px$')
  check "$CHROME: a click zooms: work spans the chart, helper 60/70 of it ($w, $hw)" \
    python3 -c "import sys; w, h = float('${w%px}' or 0), float('${hw%px}' or 0); sys.exit(not (w > 500 and abs(h - w * 60 / 70) < 0.01))"
  check "$CHROME: the callers stay above, dimmed" \
    test "$(grep -o 'class="f a"' <<<"$dom" | wc -l)" = 3
  check "$CHROME: contexts outside the zoom are gone" bash -c '! grep -q ">app/Main.fib<" <<<"$1"' _ "$dom"
  expect_match 'data-ready="1"' "$CHROME: the zoomed page's script ran to the end" "$dom"
  chrome --screenshot="$T/shot.png" "file://$T/small.html#search=helper" >/dev/null
  colors=$(python3 - "$T/shot.png" <<'PY'
import struct, sys, zlib
b = open(sys.argv[1], "rb").read()
assert b[:8] == b"\x89PNG\r\n\x1a\n"
pos, idat, w = 8, b"", 0
while pos < len(b):
    n, t = struct.unpack(">I4s", b[pos:pos + 8]); c = b[pos + 8:pos + 8 + n]; pos += 12 + n
    if t == b"IHDR": w, h, bd, ct = struct.unpack(">IIBB", c[:10])
    elif t == b"IDAT": idat += c
bpp = {2: 3, 6: 4}[ct]; raw = zlib.decompress(idat); stride = w * bpp
prev, seen, o = bytearray(stride), set(), 0
for y in range(h):
    f, row = raw[o], bytearray(raw[o + 1:o + 1 + stride]); o += 1 + stride
    for x in range(stride):
        a = row[x - bpp] if x >= bpp else 0; up = prev[x]; ul = prev[x - bpp] if x >= bpp else 0
        if f == 1: row[x] = (row[x] + a) & 255
        elif f == 2: row[x] = (row[x] + up) & 255
        elif f == 3: row[x] = (row[x] + (a + up) // 2) & 255
        elif f == 4:
            p = a + up - ul; pa, pb, pc = abs(p - a), abs(p - up), abs(p - ul)
            row[x] = (row[x] + (a if pa <= pb and pa <= pc else up if pb <= pc else ul)) & 255
    for x in range(0, stride, bpp): seen.add(bytes(row[x:x + 3]))
    prev = row
print(len(seen), (224, 80, 224) in {tuple(s) for s in seen})
PY
)
  check "$CHROME: the screenshot is drawn, with the highlight colour ($colors)" \
    bash -c '[ "${1% *}" -gt 20 ] && [ "${1#* }" = True ]' _ "$colors"
  "$REPORT" diff --flame small.xml small-b.xml -o diff.html
  dom=$(chrome --dump-dom "file://$T/diff.html")
  expect_match 'data-ready="1"' "$CHROME: the differential flame graph runs" "$dom"
  # main > work grew most (+10): the deepest red; unchanged frames grey.
  expect_match 'data-i="3" style="[^"]*background: rgb\(2[0-9][0-9], [0-9]{1,2}, [0-9]{1,2}\)' \
    "$CHROME: main > work, which grew most, is deep red" "$dom"
  expect_match 'data-i="4" style="[^"]*background: rgb\(232, 232, 232\)' \
    "$CHROME: helper under it, unchanged, is grey" "$dom"
  expect_match 'id="info">93 → 96 calls' "$CHROME: the header says before and after" "$dom"
else
  echo "  (no chromium-headless-shell or chromium: the browser checks are skipped)"
fi

echo "-- diff"
# A = small.xml, B = small-b.xml (calls): main > work 10 -> 20, the fibs
# 1, 2, 4 -> gone; all 93 -> 96 (+3.2%). Totals: main 83 -> 86, main >
# work 70 -> 80, fib 7, 6, 4 -> 0; worker unchanged.
golden "diff A B" "$REPORT" diff small.xml small-b.xml <<'EOF'
small.xml -> small-b.xml: 93 -> 96 calls (+3, +3.2%)

contexts by change of self calls
 A  B change  context
10 20    +10  [main] app/Main.main([Ljava/lang/String;)V > app/Main.work()V
 4  0     -4  [main] app/Main.main([Ljava/lang/String;)V > app/Main.fib(I)I > app/Main.fib(I)I > app/Main.fib(I)I
 2  0     -2  [main] app/Main.main([Ljava/lang/String;)V > app/Main.fib(I)I > app/Main.fib(I)I
 1  0     -1  [main] app/Main.main([Ljava/lang/String;)V > app/Main.fib(I)I
EOF
golden "diff --sort total --merge-threads -n 3" \
  "$REPORT" diff --sort total --merge-threads -n 3 small.xml small-b.xml <<'EOF'
small.xml -> small-b.xml: 93 -> 96 calls (+3, +3.2%)

contexts by change of total calls
 A  B change  context
70 80    +10  app/Main.main([Ljava/lang/String;)V > app/Main.work()V
 7  0     -7  app/Main.main([Ljava/lang/String;)V > app/Main.fib(I)I
 6  0     -6  app/Main.main([Ljava/lang/String;)V > app/Main.fib(I)I > app/Main.fib(I)I
... 2 more
EOF
golden "diff --min 5: changes of 5 and more" "$REPORT" diff --min 5 small.xml small-b.xml <<'EOF'
small.xml -> small-b.xml: 93 -> 96 calls (+3, +3.2%)

contexts by change of self calls
 A  B change  context
10 20    +10  [main] app/Main.main([Ljava/lang/String;)V > app/Main.work()V
EOF
golden "diff of a profile with itself" "$REPORT" diff small.xml small.xml <<'EOF'
small.xml -> small.xml: 93 -> 93 calls (+0, +0.0%)

contexts by change of self calls
A B change  context
(no change)
EOF
# B has no cycles: every context's cycles fall to 0.
golden "diff -m cycles -n 2 (B without the metric)" \
  "$REPORT" diff -m cycles -n 2 small.xml small-b.xml <<'EOF'
small.xml -> small-b.xml: 507 -> 0 cycles (-507, -100.0%)

contexts by change of self cycles
  A   B change  context
200   0   -200  [main] app/Main.main([Ljava/lang/String;)V > app/Main.work()V > app/Util.helper(I)I
100   0   -100  [main] app/Main.main([Ljava/lang/String;)V > app/Main.work()V
... 9 more
EOF
expect_exit 1 "diff -m on a metric neither has" "$REPORT" diff -m bytecodes small.xml small-b.xml
expect_match "^cccp-report: no metric \"bytecodes\" in small.xml or small-b.xml$" "says so" "$err"
expect_exit 2 "diff with one profile" "$REPORT" diff small.xml
expect_exit 1 "diff with a malformed profile" "$REPORT" diff small.xml ids.xml
expect_exit 0 "diff --flame" "$REPORT" diff --flame small.xml small-b.xml -o diff.html
# B's frames; 'before' holds A's totals in the same order.
golden "diff --flame: B's frames with A's totals" \
  python3 -c '
import json, re, sys
s = open("diff.html", encoding="ascii").read()
d = json.loads(re.search(r"application/json\">(.*?)</script>", s, re.S).group(1))
v = d["nodes"]
for i in range(len(v) // 4):
    print(d["names"][v[4 * i]], v[4 * i + 1], d["before"][i])
print("left", d["left"])' <<'EOF'
all 96 93
[main] 86 83
app/Main.main 86 83
app/Main.work 80 70
app/Util.helper 60 60
java/lang/String.length 40 40
app/Util.helper 5 5
[worker] 10 10
app/Worker.run 10 10
app/Main.work 9 9
app/Util.helper 6 6
left 1
EOF

echo "-- stats"
# small.xml: 11 contexts; depths 1 2 3 4 2 2 3 4 | 1 2 3 (sum 27, mean
# 2.45); calls x depth 1+20+60+160+10+2+6+16 | 1+6+18 = 300, / 93 =
# 3.23. Callers: top-level main 1 and run 1 (thread -> app 2); helper >
# length 40 (app -> JDK); the other 51 app -> app. Inner contexts: main
# (3 callees) and 6 with one: 9 / 7 = 1.29. Contexts per used method:
# 11 / 6 = 1.83, helper and fib 3 each (helper first). Per thread: main
# 8 contexts, depth 4, 83 calls, 416 cycles; worker 3, 3, 10, 91.
golden "stats" "$REPORT" stats small.xml <<'EOF'
small.xml: 11 contexts, 93 calls, 2 threads, 6 of 7 methods used
metrics: calls cycles

native methods: 0 of 11 contexts (0.0%), 0 of 93 calls (0.0%)

calls by caller -> callee (JDK: java/, javax/, jdk/, sun/, com/sun/, org/...)
  thread -> app     2   2.2%
  thread -> JDK     0   0.0%
  app -> app       51  54.8%
  app -> JDK       40  43.0%
  JDK -> app        0   0.0%
  JDK -> JDK        0   0.0%

depth: max 4, mean 2.45 per context, 3.23 per call
fan-out: max 3, mean 1.29 per calling context (7 contexts call others)
contexts per method: mean 1.83, max 3 (app/Util.helper(I)I)

threads
contexts depth     calls    cycles  thread
       8     4        83       416  [main]
       3     3        10        91  [worker]
EOF
# Both profiles, threads merged, app = app/Main only: main 2 (thread ->
# app), run 2 (thread -> JDK); app -> app: main > work 30, main > fib 1,
# fib > fib 2 + 4 = 37; app -> JDK: work > helper 40 + 12... no: main >
# work > helper 40, main > helper 10, and worker's work > helper 12 = 62;
# JDK -> app: run > work 6; JDK -> JDK: helper > length 80. Calls x depth
# 2+60+120+320+20+2+6+16+2+12+36 = 596, / 189 = 3.15.
golden "stats --app-prefix --merge-threads of two profiles" \
  "$REPORT" stats --app-prefix app/Main --merge-threads small.xml small-b.xml <<'EOF'
small.xml small-b.xml: 11 contexts, 189 calls, 1 thread, 6 of 7 methods used
metrics: calls cycles

native methods: 0 of 11 contexts (0.0%), 0 of 189 calls (0.0%)

calls by caller -> callee (JDK: classes outside --app-prefix)
  thread -> app      2   1.1%
  thread -> JDK      2   1.1%
  app -> app        37  19.6%
  app -> JDK        62  32.8%
  JDK -> app         6   3.2%
  JDK -> JDK        80  42.3%

depth: max 4, mean 2.45 per context, 3.15 per call
fan-out: max 3, mean 1.29 per calling context (7 contexts call others)
contexts per method: mean 1.83, max 3 (app/Util.helper(I)I)

threads
contexts depth     calls    cycles  thread
      11     4       189       507  [all threads]
EOF
# Natives: arraycopy 5 and hashCode 2 under main 1: 2 of 3 contexts
# (66.7%), 7 of 8 calls (87.5%); depth per call (1 + 10 + 4) / 8 = 1.875.
printf '%s' '<cct version="1">
<method id="1" class="a/A" name="main" desc="()V"/>
<method id="2" class="java/lang/System" name="arraycopy" desc="(Ljava/lang/Object;ILjava/lang/Object;II)V" native="1" library="1"/>
<method id="3" class="java/lang/Object" name="hashCode" desc="()I" native="1" library="1"/>
<tree thread="t"><node method="1" calls="1"><node method="2" calls="5"/><node method="3" calls="2"/></node></tree></cct>' > native.xml
golden "stats: native methods" "$REPORT" stats native.xml <<'EOF'
native.xml: 3 contexts, 8 calls, 1 thread, 3 of 3 methods used
metrics: calls

native methods: 2 of 3 contexts (66.7%), 7 of 8 calls (87.5%)

calls by caller -> callee (JDK: java/, javax/, jdk/, sun/, com/sun/, org/...)
  thread -> app    1  12.5%
  thread -> JDK    0   0.0%
  app -> app       0   0.0%
  app -> JDK       7  87.5%
  JDK -> app       0   0.0%
  JDK -> JDK       0   0.0%

depth: max 2, mean 1.67 per context, 1.88 per call
fan-out: max 2, mean 2.00 per calling context (1 contexts call others)
contexts per method: mean 1.00, max 1 (a/A.main()V)

threads
contexts depth     calls  thread
       3     2         8  [t]
EOF
expect_exit 2 "stats takes no -m" "$REPORT" stats -m cycles small.xml

echo "-- merge"
# small.xml + small-b.xml, threads by name: main 1+1, main > work 10+20,
# > helper 20+20, > length 40+40, main > helper 5+5, the fibs from A
# only; worker: run 1+1, work 3+3, helper 6+6. Cycles from A only. The
# methods are A's table (B's are the same methods, in another order).
golden "merge A B" "$REPORT" merge small.xml small-b.xml <<'EOF'
<?xml version="1.0" encoding="UTF-8"?>
<cct version="1" mode="cccp">
  <method id="1" class="app/Main" name="main" desc="([Ljava/lang/String;)V" size="20" native="0" library="0"/>
  <method id="2" class="app/Main" name="work" desc="()V" size="10" native="0" library="0"/>
  <method id="3" class="app/Util" name="helper" desc="(I)I" size="8" native="0" library="0"/>
  <method id="4" class="java/lang/String" name="length" desc="()I" size="0" native="0" library="1"/>
  <method id="5" class="app/Main" name="fib" desc="(I)I" size="16" native="0" library="0"/>
  <method id="6" class="app/Worker" name="run" desc="()V" size="4" native="0" library="0"/>
  <method id="7" class="app/Main" name="unused" desc="()V" size="1" native="0" library="0"/>
  <tree thread="main">
    <node method="1" calls="2" cycles="5">
      <node method="2" calls="30" cycles="100">
        <node method="3" calls="40" cycles="200">
          <node method="4" calls="80" cycles="40"/>
        </node>
      </node>
      <node method="3" calls="10" cycles="50"/>
      <node method="5" calls="1" cycles="3">
        <node method="5" calls="2" cycles="6">
          <node method="5" calls="4" cycles="12"/>
        </node>
      </node>
    </node>
  </tree>
  <tree thread="worker">
    <node method="6" calls="2" cycles="1">
      <node method="2" calls="6" cycles="30">
        <node method="3" calls="12" cycles="60"/>
      </node>
    </node>
  </tree>
</cct>
EOF
expect_exit 0 "merge -o FILE" "$REPORT" merge small.xml small-b.xml -o ab.xml
check "the merged file reads back: top of it is top of both" \
  cmp <("$REPORT" top ab.xml | tail -n +2) <("$REPORT" top small.xml small-b.xml | tail -n +2)
"$REPORT" merge small-b.xml small.xml -o ba.xml
check "merged in the other order: the same contexts and calls" \
  grep -q '^contexts: A 11, B 11, common 11, differing 0$' \
  <("$REPORT" compare ab.xml ba.xml)
# main 2+30+40+80+10+1+2+4 = 169, worker 2+6+12 = 20, of 189.
golden "the merged file, its threads merged" "$REPORT" tree --depth 1 ab.xml --merge-threads <<'EOF'
ab.xml: 189 calls, threads merged
total      %  self  context
  169  89.4%     2  app/Main.main([Ljava/lang/String;)V
   20  10.6%     2  app/Worker.run()V
EOF
"$REPORT" merge --merge-threads small.xml -o all.xml
check "merge --merge-threads writes one tree named 'all threads'" \
  test "$(grep -c '<tree thread="all threads">' all.xml)/$(grep -c '<tree' all.xml)" = 1/1
"$REPORT" merge --keep-threads small.xml small.xml -o keep.xml
check "merge --keep-threads keeps the 4 trees" test "$(grep -c '<tree ' keep.xml)" = 4
expect_exit 2 "merge --keep-threads --merge-threads" \
  "$REPORT" merge --keep-threads --merge-threads small.xml
expect_exit 1 "merge with a malformed profile writes nothing" \
  "$REPORT" merge small.xml ids.xml -o never.xml
check "nothing is left at the output path" test ! -e never.xml

echo "-- jop"
# jop.xml, completed (load time on a miss b(n) = 2n+8 at r=1; n words =
# ceil(size/4)): main (10 words, b 28) invokes a (25 words, b 58) 3
# times: 3 * (58-37) = 63, and returns to no caller: 21 (return);
# a returns 2 times (one call threw) to main: ireturn 23 + (28-10) = 41,
# 82 in all; b (2 words) is invoked for nothing more and returns twice to
# a: 21 + (58-9) = 70, 140 in all; the a under the library's sort
# returns to library code: 23; library and native nodes: none.
# main 1000+63+21 = 1084, a 500+82 = 582, b 50+140 = 190, a 100+23 = 123:
# 1979 in all, 1650 from the blocks.
golden "folded -m cycles completes a cross-profile in memory" \
  "$REPORT" folded -m cycles jop.xml <<'EOF'
[main];app/M.main 1084
[main];app/M.main;app/M.a 582
[main];app/M.main;app/M.a;app/M.b 190
[main];app/M.main;java/util/List.sort;app/M.a 123
EOF
expect_exit 0 "jop: completes and writes the profile" \
  "$REPORT" jop jop.xml -o done.xml
expect_match "1979 cycles in all \(1650 counted in basic blocks, 329 added" \
  "jop: says what it counted and added" "$err"
expect_match 'jop-completed="1"' "jop: the profile is marked completed" \
  "$(sed -n 2p done.xml)"
golden "jop: the completed cycles" "$REPORT" folded -m cycles done.xml <<'EOF'
[main];app/M.main 1084
[main];app/M.main;app/M.a 582
[main];app/M.main;app/M.a;app/M.b 190
[main];app/M.main;java/util/List.sort;app/M.a 123
EOF
expect_match "r=1, w=2, no method cache\)" "jop: ... without a method cache" "$err"
sed 's/jop-completed="0"/& jop-cache-words="1024" jop-cache-blocks="16"/' \
  jop.xml >cache.xml
expect_exit 0 "jop: a run that simulated the method cache" \
  "$REPORT" jop cache.xml -o cache-done.xml
expect_match "a method cache of 1024 words in 16 blocks\)" \
  "jop: ... says so" "$err"
expect_exit 0 "jop: a completed profile" "$REPORT" jop done.xml -o again.xml
expect_match "completed already; written unchanged" "jop: never twice" "$err"
check "jop: written unchanged" cmp done.xml again.xml
expect_exit 1 "jop: a profile without JOP settings" "$REPORT" jop small.xml
expect_match "not a JOP cross-profile" "jop: says so" "$err"
expect_exit 2 "jop: one profile only" "$REPORT" jop jop.xml done.xml
sed 's/jop-wws="2"/jop-wws="3"/' jop.xml >w3.xml
expect_exit 1 "merge: different JOP settings are refused" \
  "$REPORT" merge jop.xml w3.xml
expect_match "different JOP settings" "merge: says why" "$err"

echo "-- output"
expect_exit 0 "-o FILE" "$REPORT" top small.xml -o top.txt
check "-o writes what stdout would" cmp top.txt <("$REPORT" top small.xml)
check "-o leaves no temporary file" test "$(ls -A | grep -c cccp-)" -eq 0
expect_exit 3 "-o into a missing folder" "$REPORT" top small.xml -o nodir/top.txt
expect_match "^cccp-report: cannot create a file next to nodir/top.txt" "says why" "$err"
if [ -w /dev/full ]; then
  rc=0; "$REPORT" top small.xml >/dev/full 2>"$T/full.err" || rc=$?
  check "a full standard output is exit 3" test "$rc" -eq 3
fi
expect_exit 1 "a missing profile" "$REPORT" top nope.xml
expect_match "^cccp-report: nope.xml: No such file or directory$" "names it" "$err"

echo "-- malformed, truncated and hostile profiles"
M='<method id="1" class="a/B" name="m" desc="()V"/>'
bad() { printf '%s' "$2" > "$1"; bad_input "$3" "$1"; }
bad empty.xml '' "an empty file"
bad noroot.xml '<x/>' "another root element"
bad version.xml '<cct version="9"/>' "another version"
bad text.xml '<cct version="1">hello</cct>' "text"
bad elem.xml '<cct version="1"><foo/></cct>' "an unknown element"
bad ids.xml '<cct version="1"><method id="2" class="a" name="b" desc="()V"/></cct>' "method ids out of order"
bad undef.xml '<cct version="1"><tree><node method="1" calls="1"/></tree></cct>' "an undefined method"
bad calls.xml "<cct version=\"1\">$M<tree><node method=\"1\" calls=\"-3\"/></tree></cct>" "negative calls"
bad big.xml "<cct version=\"1\">$M<tree><node method=\"1\" calls=\"99999999999999999999\"/></tree></cct>" "calls over 64 bits"
bad nocalls.xml "<cct version=\"1\">$M<tree><node method=\"1\"/></tree></cct>" "a node without calls"
bad unclosed.xml "<cct version=\"1\">$M<tree><node method=\"1\" calls=\"1\">" "unclosed elements"
bad mismatch.xml "<cct version=\"1\">$M<tree></node></tree></cct>" "mismatched tags"
bad binary.xml $'\x01\x02\x03\xff\xfe' "binary junk"
bad xxe.xml '<?xml version="1.0"?><!DOCTYPE cct [<!ENTITY x SYSTEM "file:///etc/passwd">]><cct version="1" mode="&x;"/>' \
  "an external entity (XXE)"
check "the external entity was not read" bash -c '! grep -q root: <<<"$1"' _ "$err"
bad net.xml '<?xml version="1.0"?><!DOCTYPE cct SYSTEM "http://127.0.0.1:9/x.dtd"><cct version="1"/>' \
  "a DTD on the network"
bad entity.xml '<cct version="1" mode="&undefined;"/>' "an undefined entity"
# In UTF-16 the bytes "<!DOCTYPE" never appear: the parser's own DOCTYPE
# hook refuses it before any declaration is read.
printf '%s' '<?xml version="1.0" encoding="UTF-16"?><!DOCTYPE cct [<!ENTITY x SYSTEM "file:///etc/passwd">]><cct version="1" mode="&x;"/>' |
  iconv -f UTF-8 -t UTF-16 > utf16.xml
bad_input "a DOCTYPE in UTF-16" utf16.xml
expect_match "DTDs and entities are not allowed" "is refused as a DTD" "$err"
bad many.xml "<cct version=\"1\">$M<tree><node method=\"1\" calls=\"1\" $(for i in $(seq 1 16); do printf 'm%d="1" ' $i; done)/></tree></cct>" \
  "more than 16 metrics"
# Every proper prefix of a good profile (up to its closing tag) fails
# cleanly.
size=$(stat -c %s small.xml)
end=$((size - 1))   # the final newline
nbad=0; ncut=0
for ((n = 0; n < end; n += 7)); do
  head -c "$n" small.xml > cut.xml
  rc=0; "$REPORT" top cut.xml >cut.out 2>cut.err || rc=$?
  ncut=$((ncut + 1))
  if [ "$rc" -ne 1 ] || [ -s cut.out ] || [ "$(wc -l < cut.err)" -ne 1 ] ||
     ! grep -Eq '^cccp-report: cut.xml:[0-9]+: ' cut.err; then
    nbad=$((nbad + 1))
    [ "$nbad" -le 3 ] && { echo "       cut at $n: exit $rc"; head -2 cut.err; }
  fi
done
check "$ncut truncations of small.xml: exit 1, one line with file:line, no output" \
  test "$nbad" -eq 0

echo "-- big and deep"
# r: 200,000 contexts of 1 call, nested: self 200000, total 200007
# (99.9965% -> 100.0); the leaf's path is 200,001 frames: the first 64,
# 199,873 left out, the last 64 (63 r and the leaf).
first=$(printf 'a/R.r()V > %.0s' $(seq 64))
last=$(printf 'a/R.r()V > %.0s' $(seq 63))
golden "top of a 200,000-deep chain" "$REPORT" top -n 1 deep.xml <<EOF
deep.xml: 200007 calls in 1 thread

methods by self calls
  self  self%  total total%  method
200000 100.0% 200007 100.0%  [t] a/R.r()V
... 1 more

contexts by self calls
self  self% total total%  context
   7   0.0%     7   0.0%  [t] ${first}... 199873 frames > ${last}a/L.leaf()V
... 200000 more
EOF
expect_exit 0 "top of a 300,000-node wide tree, threads merged" \
  "$REPORT" top --merge-threads wide.xml
expect_match "^wide.xml: [0-9]+ calls, threads merged" "reads it" "$out"

finish
