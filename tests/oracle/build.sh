#!/usr/bin/env bash
# build.sh OUTDIR [JAVA_HOME] -- builds OUTDIR/libcccporacle.so, the JVMTI
# CCT oracle (tests/oracle/oracle.c) with the JOP timing model it shares
# with cccp. JAVA_HOME defaults to JDK 17.
set -eu
out=${1:?usage: build.sh OUTDIR [JAVA_HOME]}
jh=${2:-${JAVA_HOME:-/usr/lib/jvm/java-17-openjdk-amd64}}
here=$(cd "$(dirname "$0")" && pwd)
root=$here/../..
# the profile writer's XML text, diagnostics and the JOP model, shared
srcs=("$here/oracle.c" "$root/src/util/xml.c" "$root/src/util/diag.c"
      "$root/src/jop/model.c" "$root/src/jop/tables.c")
deps=("${srcs[@]}" "$root/src/jop/jop_int.h" "$root/include/cccp/jop.h"
      "$root/include/cccp/util.h" "$root/include/cccp/profile.h")
mkdir -p "$out"
fresh=1
for f in "${deps[@]}"; do
  [ "$out/libcccporacle.so" -nt "$f" ] || fresh=0
done
[ $fresh = 1 ] && exit 0
# built beside and renamed: suites that run side by side may build it at
# once, and one may load it while another writes it
tmp="$out/libcccporacle.so.$$"
trap 'rm -f "$tmp"' EXIT
${CC:-cc} -std=gnu11 -O2 -g -Wall -Wextra -Werror -shared -fPIC \
  -I"$jh/include" -I"$jh/include/linux" -I"$root/include" -I"$root/src/jop" \
  -o "$tmp" "${srcs[@]}" -lpthread
mv -f "$tmp" "$out/libcccporacle.so"
