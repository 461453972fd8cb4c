#!/usr/bin/env bash
# The JOP example programs (examples/jop: control, packet) and test
# programs (tests/data/jop: jopcalls.Calls, jopthrow.Throwing) as
# 'make jop-examples' builds them. Each prints the same single line on two
# runs, and its bytecode stays within what JOP runs: no invokedynamic, no
# float or double, no monitors, no jsr/ret, no wide instructions, no
# method near JOP's 2 KB limit. The examples throw nothing and use no
# java.util; Calls has a method of more than 300 bytes of code.
# Builds nothing: run 'make jop-examples' first.
set -euo pipefail
source "$(dirname "$0")/../lib.sh"

EX="$ROOT/$BUILD/examples/jop"
FX="$ROOT/$BUILD/fixtures-jop"
PROGS=(control packet jopcalls jopthrow)
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

# run NAME: runs the program with java, stdout only.
run() {
  case $1 in
    control | packet) java -jar "$EX/$1.jar" ;;
    jopcalls) java -cp "$FX" jopcalls.Calls ;;
    jopthrow) java -cp "$FX" jopthrow.Throwing ;;
  esac
}

# dump NAME: javap -c -p of every class of the program.
dump() {
  case $1 in
    control | packet)
      local classes
      classes=$(jar tf "$EX/$1.jar" | sed -n 's/\.class$//p' | tr / .)
      # shellcheck disable=SC2086
      javap -c -p -cp "$EX/$1.jar" $classes ;;
    *) find "$FX/$1" -name '*.class' -print0 | sort -z | xargs -0 javap -c -p ;;
  esac
}

# Instruction lines are "  OFFSET: mnemonic ..."; switch tables have
# "KEY: TARGET" lines, which these patterns do not match.
INSN='^ *[0-9]+: '
FLOAT_OPS='[fd](const_[0-9]|load(_[0-3])?|store(_[0-3])?|aload|astore|add|sub|mul|div|rem|neg|cmpl|cmpg|return)|[ilfd]2[fd]|[fd]2[il]'
WIDE_OPS='[a-z]+_w'

# has_op FILE REGEX: FILE has an instruction whose mnemonic matches REGEX
# (ldc_w and ldc2_w are not wide instructions).
has_op() {
  local hits
  hits=$(grep -E "$INSN($2)( |\$)" "$1" | grep -Ev "$INSN(ldc_w|ldc2_w) ") || true
  [ -n "$hits" ]
}

# lacks_op FILE REGEX: no instruction of FILE matches REGEX.
lacks_op() { ! has_op "$@"; }

# lacks FILE REGEX: no line of FILE matches the extended REGEX.
lacks() { ! grep -Eq -- "$2" "$1"; }

# method_sizes FILE: "LAST_OFFSET METHOD" per method of a javap -c dump.
method_sizes() {
  awk '/^  [^ ].*\)( throws .*)?;$|^  static \{\};$/ { m = $0; next }
       /^ *[0-9]+: [a-z]/ { sub(":", "", $1); if ($1 + 0 > last[m]) last[m] = $1 + 0 }
       END { for (k in last) print last[k], k }' "$1"
}

for p in "${PROGS[@]}"; do
  case $p in
    control | packet) f="$EX/$p.jar" ;;
    *) f="$FX/.stamp" ;;
  esac
  if [ ! -e "$f" ]; then
    fail "$p is built (no $f: run 'make jop-examples')"
    finish; exit 1
  fi
done

echo "-- the checks find what they look for"
mkdir -p "$T/neg"
cat >"$T/neg/Neg.java" <<'EOF'
class Neg {
  static synchronized int f(int x, Object o) {
    x += 1000;
    float y = 1.5f;
    double z = x * 0.5;
    synchronized (o) { x++; }
    return x + (int) y + (int) z;
  }
}
EOF
javac --release 8 -Xlint:-options -nowarn -d "$T/neg" "$T/neg/Neg.java"
javap -c -p "$T/neg/Neg.class" >"$T/neg.txt"
check "float and double opcodes are found" has_op "$T/neg.txt" "$FLOAT_OPS"
check "monitorenter is found" has_op "$T/neg.txt" "monitorenter"
check "wide instructions are found" has_op "$T/neg.txt" "$WIDE_OPS"
check "a synchronized method is found" grep -Eq '\<synchronized\>' "$T/neg.txt"
check "ldc of a float constant is found" grep -Eq '\<(float|double)\>' "$T/neg.txt"

for p in "${PROGS[@]}"; do
  echo "-- $p"
  if run "$p" >"$T/$p.1" && run "$p" >"$T/$p.2"; then pass "$p exits 0 twice"
  else fail "$p exits 0 twice"; fi
  check "$p runs and prints one line" \
    bash -c "[ -s '$T/$p.1' ] && [ \$(wc -l <'$T/$p.1') -eq 1 ]"
  check "$p prints the same on a second run" cmp "$T/$p.1" "$T/$p.2"
  echo "       $(cat "$T/$p.1")"

  dump "$p" >"$T/$p.javap"
  check "$p: javap shows its code" grep -q 'Code:' "$T/$p.javap"
  check "$p: no invokedynamic" lacks_op "$T/$p.javap" invokedynamic
  check "$p: no float or double opcode" lacks_op "$T/$p.javap" "$FLOAT_OPS"
  check "$p: no float or double type or constant" lacks "$T/$p.javap" '\<(float|double)\>'
  check "$p: no monitorenter/monitorexit" lacks_op "$T/$p.javap" 'monitorenter|monitorexit'
  check "$p: no synchronized method" lacks "$T/$p.javap" '\<synchronized\>'
  check "$p: no jsr, jsr_w or ret" lacks_op "$T/$p.javap" 'jsr|jsr_w|ret'
  check "$p: no wide instruction, no goto_w" lacks_op "$T/$p.javap" "$WIDE_OPS"
  method_sizes "$T/$p.javap" | sort -n >"$T/$p.sizes"
  check "$p: every method's code is under 2000 bytes" \
    bash -c "[ -s '$T/$p.sizes' ] && [ \$(tail -1 '$T/$p.sizes' | cut -d' ' -f1) -lt 2000 ]"
  check "$p: no java.util" lacks "$T/$p.javap" 'java/util/'
  case $p in
    control | packet)
      check "$p: no athrow" lacks_op "$T/$p.javap" athrow
      check "$p: no exception handler" lacks "$T/$p.javap" 'Exception table' ;;
  esac
done

echo "-- Calls: method sizes"
check "Calls has a method with more than 300 bytes of code" \
  bash -c "awk '\$1 > 300' '$T/jopcalls.sizes' | grep -q 'large('"
check "Calls has a tiny method" \
  bash -c "awk '\$1 < 4' '$T/jopcalls.sizes' | grep -q 'tiny('"
check "Throwing throws" has_op "$T/jopthrow.javap" athrow
check "Throwing has exception tables" grep -q 'Exception table' "$T/jopthrow.javap"

finish
