#!/usr/bin/env bash
# The oracle's JOP bytecode trace (jop=, counts=) on a tiny program whose
# cycles are worked out by hand here from the JOP tables (timing.tsv at
# r=1, w=2 and r=3, w=5) and the code lengths javap shows: per-context
# cycles, bytecode and allocation counts, the costs of invokes and
# returns with the callee's or caller's size, 'wide iinc' as one iinc, a
# second thread kept apart, the profile's JOP settings,
# bad options refused. JDK 17, and JDK 25 when present.
set -euo pipefail
source "$(dirname "$0")/../lib.sh"
use_jdks
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

mkdir -p "$T/src/jt" "$T/cls"
cat >"$T/src/jt/T.java" <<'EOF'
package jt;

public class T {
  static int sq(int x) {
    return x * x;
  }

  static int wd(int x) {
    x += 1000;
    return x;
  }

  static void big(int x) {
    int a = x, b = x, c = x, d = x;
    a = a + b; b = b + c; c = c + d; d = d + a;
    a = a + b; b = b + c; c = c + d; d = d + a;
    a = a + b; b = b + c; c = c + d; d = d + a;
    a = a + b; b = b + c; c = c + d; d = d + a;
    a = a + b; b = b + c; c = c + d; d = d + a;
  }

  static void callBig() {
    big(3);
  }

  static class W extends Thread {
    int r;

    W() {
      super("worker");
    }

    public void run() {
      for (int i = 0; i < 5; i++)
        r += sq(i);
    }
  }

  public static void main(String[] args) throws Exception {
    int s = 0;
    for (int i = 0; i < 10; i++)
      s += sq(i);
    s = wd(s);
    callBig();
    W w = new W();
    w.start();
    w.join();
    System.out.println(s + w.r);
  }
}
EOF
"$JDK17/bin/javac" --release 8 -d "$T/cls" "$T/src/jt/T.java"
"$JDK17/bin/javap" -c -p -cp "$T/cls" jt.T 'jt.T$W' >"$T/javap"

# The listing of method NAME (javap's line for its declaration matches
# REGEX): "offset mnemonic" per instruction.
listing() {
  awk -v re="$1" '$0 ~ re { on = 1; next }
                  on && /^$/ { exit }
                  on && /^ *[0-9]+: / { sub(":", "", $1); print $1, $2 }' "$T/javap"
}
# Code length: every method here ends in a one-byte return.
code_len() {
  local last
  last=$(listing "$1" | tail -1)
  case ${last#* } in
    return|ireturn) echo $(( ${last%% *} + 1 )) ;;
    *) echo "unexpected last instruction '$last'" >&2; echo 0 ;;
  esac
}
words() { echo $(( ($1 + 3) / 4 )); }
# b on a method-cache miss: 6 + (n+1)*(2+c), c = max(0, r-1)
miss() { local c=$(( $1 > 1 ? $1 - 1 : 0 )); echo $(( 6 + ($2 + 1) * (2 + c) )); }
pos() { echo $(( $1 > 0 ? $1 : 0 )); }

n_main=$(words "$(code_len ' main\(')")
n_big=$(words "$(code_len ' big\(')")
n_run=$(words "$(code_len ' run\(')")
n_cb=$(words "$(code_len ' callBig\(')")
len_sq=$(code_len ' sq\(')
[ "$(listing ' sq\(' | awk '{printf "%s ", $2}')" = "iload_0 iload_0 imul ireturn " ] &&
  pass "javap: sq is iload_0 iload_0 imul ireturn" || fail "javap: sq is $(listing ' sq\(')"
[ "$(listing ' wd\(' | awk '{printf "%s ", $2}')" = "iinc_w iload_0 ireturn " ] &&
  pass "javap: wd is wide iinc, iload_0, ireturn" || fail "javap: wd is $(listing ' wd\(')"
# big: only these, at these costs (timing.tsv, the same at r=1 and r=3)
big_sum=$(listing ' big\(' | awk '
  $2 ~ /^(iload|istore)_[0-3]$/ || $2 == "iadd" { s += 1; next }
  $2 == "iload" || $2 == "istore" { s += 2; next }
  $2 == "return" { next }
  { print "unexpected " $2; exit 1 }
  END { print s }')
big_insns=$(listing ' big\(' | wc -l)
[ "$n_big" -gt 14 ] && pass "big has $n_big words: its invoke misses show (n > 14)" ||
  fail "big too small ($n_big words)"
# main: 4 before the loop, the test 11 times (iload_2 bipush if_icmpge),
# the body 10 times (iload_1 iload_2 invokestatic iadd istore_1 iinc
# goto), then 3 for wd and 16 to the end; one allocation, new jt/T$W
main_bc=$(( 4 + 11 * 3 + 10 * 7 + 3 + 16 ))
[ "$(listing ' main\(' | wc -l)" -eq $(( 4 + 3 + 7 + 3 + 16 )) ] &&
  pass "javap: main has the instructions counted by hand" ||
  fail "javap: main is not what the hand count assumes"

# q FILE THREAD PATH ATTR: attribute ATTR of the node at PATH
# ("jt/T.main>jt/T.sq") in the tree of THREAD, 0 when absent, - when
# there is no such node.
q() {
  python3 - "$@" <<'EOF'
import sys, xml.etree.ElementTree as ET
f, thread, path, attr = sys.argv[1:]
root = ET.parse(f).getroot()
name = {m.get("id"): m.get("class") + "." + m.get("name")
        for m in root.iter("method")}
def find(el, parts):
    if not parts: return el
    for c in el.findall("node"):
        if name[c.get("method")] == parts[0]:
            r = find(c, parts[1:])
            if r is not None: return r
    return None
if attr.startswith("@"):
    print(root.get(attr[1:], "-")); sys.exit()
if attr.startswith("size:"):
    print(next((m.get("size") for m in root.iter("method")
                if m.get("class") + "." + m.get("name") == path), "-")); sys.exit()
for t in root.findall("tree"):
    if t.get("thread") == thread:
        n = find(t, path.split(">"))
        print("-" if n is None else n.get(attr, "0")); sys.exit()
print("-")
EOF
}
# elsewhere FILE METRIC: the sum of METRIC outside the trees of main and
# worker, and in the worker tree outside jt/ methods
elsewhere() {
  python3 - "$@" <<'EOF'
import sys, xml.etree.ElementTree as ET
f, metric = sys.argv[1:]
root = ET.parse(f).getroot()
cls = {m.get("id"): m.get("class") for m in root.iter("method")}
s = 0
for t in root.findall("tree"):
    for n in t.iter("node"):
        if t.get("thread") not in ("main", "worker") or \
           not cls[n.get("method")].startswith("jt/"):
            s += int(n.get(metric, "0"))
print(s)
EOF
}
# eq WHAT GOT WANT
eq() {
  if [ "$2" = "$3" ]; then pass "$1 = $3"; else fail "$1: got $2, want $3"; fi
}

M=jt/T.main
for J in "${JDKS[@]}"; do
  v=$(jdk_version "$J")
  echo "-- JDK $v"
  oracle_for "$J"

  # r = 1, w = 2
  F="$T/r1-$v.xml"
  expect_exit 0 "run under jop=2014,counts=1 (JDK $v)" "$J/bin/java" \
    -agentpath:"$A=out=$F,jop=2014,costed=jt/,counts=1,threads=app" \
    -cp "$T/cls" jt.T
  eq "output" "$out" 1315
  eq "root jop-model" "$(q "$F" - - @jop-model)" 2014
  eq "root jop-rws/wws/software/split/completed" \
    "$(for a in rws wws software split completed; do q "$F" - - @jop-$a; done | paste -sd' ')" \
    "1 2 200 0 1"
  eq "size of sq" "$(q "$F" - jt/T.sq size:)" "$len_sq"
  eq "size of a JDK method" "$(q "$F" - java/lang/Thread.start size:)" 0
  b_main=$(miss 1 "$n_main")
  eq "sq calls" "$(q "$F" main "$M>jt/T.sq" calls)" 10
  eq "sq bytecodes" "$(q "$F" main "$M>jt/T.sq" bytecodes)" 40
  # iload_0 1, imul 19, ireturn 23 + max(0, b(main) - 10)
  eq "sq cycles, returns to main ($n_main words)" \
    "$(q "$F" main "$M>jt/T.sq" cycles)" \
    $(( 10 * (1 + 1 + 19 + 23 + $(pos $((b_main - 10)))) ))
  # wide iinc: one instruction, costed as iinc (8), iload_0 1, ireturn
  eq "wd bytecodes (wide iinc is one)" "$(q "$F" main "$M>jt/T.wd" bytecodes)" 3
  eq "wd cycles" "$(q "$F" main "$M>jt/T.wd" cycles)" \
    $(( 8 + 1 + 23 + $(pos $((b_main - 10))) ))
  # callBig: iconst_3 1, invokestatic 74 + max(0, b(big) - 37),
  # return 21 + max(0, b(main) - 9)
  eq "callBig cycles, invoke of big ($n_big words)" \
    "$(q "$F" main "$M>jt/T.callBig" cycles)" \
    $(( 1 + 74 + $(pos $(( $(miss 1 "$n_big") - 37 ))) + 21 + $(pos $((b_main - 9))) ))
  eq "big bytecodes" "$(q "$F" main "$M>jt/T.callBig>jt/T.big" bytecodes)" "$big_insns"
  eq "big cycles, returns to callBig ($n_cb words)" \
    "$(q "$F" main "$M>jt/T.callBig>jt/T.big" cycles)" \
    $(( big_sum + 21 + $(pos $(( $(miss 1 "$n_cb") - 9 ))) ))
  eq "main bytecodes" "$(q "$F" main "$M" bytecodes)" "$main_bc"
  eq "main allocations" "$(q "$F" main "$M" allocations)" 1
  eq "sq allocations" "$(q "$F" main "$M>jt/T.sq" allocations)" 0
  eq "worker: sq calls" "$(q "$F" worker "jt/T\$W.run>jt/T.sq" calls)" 5
  eq "worker: sq bytecodes" "$(q "$F" worker "jt/T\$W.run>jt/T.sq" bytecodes)" 20
  eq "worker: sq cycles, returns to run ($n_run words)" \
    "$(q "$F" worker "jt/T\$W.run>jt/T.sq" cycles)" \
    $(( 5 * (1 + 1 + 19 + 23 + $(pos $(( $(miss 1 "$n_run") - 10 )))) ))
  # run: 2 before the loop, the test 6 times, the body (aload_0 dup
  # getfield iload_1 invokestatic iadd putfield iinc goto) 5 times, return
  eq "worker: run bytecodes" "$(q "$F" worker "jt/T\$W.run" bytecodes)" \
    $(( 2 + 6 * 3 + 5 * 9 + 1 ))
  eq "cycles outside jt/ and the two threads" "$(elsewhere "$F" cycles)" 0
  eq "bytecodes outside jt/ and the two threads" "$(elsewhere "$F" bytecodes)" 0

  # r = 3, w = 5: imul and iload_0 the same, ireturn and return C the
  # same (23 + max(0, r-3), 21 + max(0, r-3)), invokestatic C 77
  F="$T/r3-$v.xml"
  expect_exit 0 "run under jop=2014,rws=3,wws=5 (JDK $v)" "$J/bin/java" \
    -agentpath:"$A=out=$F,jop=2014,rws=3,wws=5,costed=jt/,threads=app" \
    -cp "$T/cls" jt.T
  eq "root jop-rws/wws" "$(q "$F" - - @jop-rws) $(q "$F" - - @jop-wws)" "3 5"
  b_main=$(miss 3 "$n_main")
  eq "r=3: sq cycles" "$(q "$F" main "$M>jt/T.sq" cycles)" \
    $(( 10 * (1 + 1 + 19 + 23 + $(pos $((b_main - 10)))) ))
  eq "r=3: callBig cycles" "$(q "$F" main "$M>jt/T.callBig" cycles)" \
    $(( 1 + 77 + $(pos $(( $(miss 3 "$n_big") - 37 ))) + 21 + $(pos $((b_main - 9))) ))
  eq "r=3: no counts without counts=1" "$(q "$F" main "$M>jt/T.sq" bytecodes)" 0

  # counts=1 alone: counts, no cycles, no JOP settings
  F="$T/counts-$v.xml"
  expect_exit 0 "run under counts=1 (JDK $v)" "$J/bin/java" \
    -agentpath:"$A=out=$F,counts=1,costed=jt/" -cp "$T/cls" jt.T
  eq "counts only: sq bytecodes" "$(q "$F" main "$M>jt/T.sq" bytecodes)" 40
  eq "counts only: main allocations" "$(q "$F" main "$M" allocations)" 1
  eq "counts only: no cycles" "$(q "$F" main "$M>jt/T.sq" cycles)" 0
  eq "counts only: no jop-model" "$(q "$F" - - @jop-model)" -

  # bad options
  expect_exit 1 "jop= without costed= is refused" "$J/bin/java" \
    -agentpath:"$A=out=$T/x.xml,jop=2014" -cp "$T/cls" jt.T
  expect_match "needs costed=" "the message says costed= is needed" "$err"
  expect_exit 1 "an unknown JOP table is refused" "$J/bin/java" \
    -agentpath:"$A=out=$T/x.xml,jop=2010,costed=jt/" -cp "$T/cls" jt.T
  expect_match "2010: not known" "the message names the table" "$err"
  expect_exit 1 "an empty prefix is refused" "$J/bin/java" \
    -agentpath:"$A=out=$T/x.xml,jop=2014,costed=jt/:" -cp "$T/cls" jt.T
done
finish
