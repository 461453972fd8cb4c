#!/usr/bin/env bash
# build.sh OUTDIR [JAVA_HOME] -- builds OUTDIR/libcccporacle.so, the JVMTI
# CCT oracle (tests/oracle/oracle.c). JAVA_HOME defaults to JDK 17.
set -eu
out=${1:?usage: build.sh OUTDIR [JAVA_HOME]}
jh=${2:-${JAVA_HOME:-/usr/lib/jvm/java-17-openjdk-amd64}}
here=$(cd "$(dirname "$0")" && pwd)
src=$here/oracle.c
xml=$here/../../src/util/xml.c     # the profile writer's XML text, shared
mkdir -p "$out"
if [ "$out/libcccporacle.so" -nt "$src" ] && [ "$out/libcccporacle.so" -nt "$xml" ]; then
  exit 0
fi
${CC:-cc} -std=gnu11 -O2 -g -Wall -Wextra -Werror -shared -fPIC \
  -I"$jh/include" -I"$jh/include/linux" -I"$here/../../include" \
  -o "$out/libcccporacle.so" "$src" "$xml" -lpthread
