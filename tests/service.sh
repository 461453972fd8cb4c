# tests/service.sh -- the HTTP service that tests/cct/test_service.sh and
# bench/service run (sourced, not run): tests/data/service/Service.java on
# an embedded Jetty 9 (Debian's libjetty9-java), on 127.0.0.1 and an
# ephemeral port, driven by wrk (Debian's wrk).
#
#   SERVICE_LIBS        the jars of its class path besides its own: the
#                       fewest that start Jetty and serve every endpoint
#   service_missing     prints what is not installed (nothing: all there)
#   service_build JDK JAR   compiles the service into JAR with JDK's javac
#   service_start LOG JAVA ARGS...   starts 'JAVA ARGS... service.Service'
#                       in the background, output in LOG; waits until it
#                       listens and sets SVC_PID and SVC_PORT; returns 1
#                       (the JVM killed) if it does not within 60 s
#   service_get PATH    the body of the answer to GET PATH
#   service_counts      "W J": the /work and /json requests it served
#   service_stop        asks it to stop (/stop) and waits for the JVM to
#                       exit (60 s at most, then kills it); returns the
#                       JVM's exit status
# Safe under set -e.

SERVICE_SJ=/usr/share/java
SERVICE_LIBS=("$SERVICE_SJ/jetty9-server.jar" "$SERVICE_SJ/jetty9-http.jar"
              "$SERVICE_SJ/jetty9-io.jar" "$SERVICE_SJ/jetty9-util.jar"
              "$SERVICE_SJ/servlet-api.jar")
SERVICE_SRC="$ROOT/tests/data/service"

service_missing() {
  local j
  command -v wrk >/dev/null || echo "wrk (apt-get install wrk)"
  for j in "${SERVICE_LIBS[@]}"; do
    [ -f "$j" ] || echo "$j (apt-get install libjetty9-java)"
  done
}

service_build() {
  local jdk=$1 jar=$2 cp d
  d=$(dirname "$jar")/service-classes
  cp=$(IFS=:; echo "${SERVICE_LIBS[*]}")
  rm -rf "$d"; mkdir -p "$d"
  "$jdk/bin/javac" --release 17 -cp "$cp" -d "$d" \
    "$SERVICE_SRC/Service.java" && "$jdk/bin/jar" --create --file "$jar" -C "$d" .
}

service_start() {
  local log=$1 i
  shift
  SVC_PID="" SVC_PORT=""
  "$@" service.Service >"$log" 2>&1 &
  SVC_PID=$!
  for i in $(seq 600); do
    SVC_PORT=$(sed -n 's/^listening on 127\.0\.0\.1:\([0-9]*\)$/\1/p' "$log")
    [ -z "$SVC_PORT" ] || return 0
    kill -0 "$SVC_PID" 2>/dev/null || { wait "$SVC_PID"; return 1; }
    sleep 0.1
  done
  kill -9 "$SVC_PID" 2>/dev/null; wait "$SVC_PID"
  return 1
}

# HTTP/1.0 over bash's /dev/tcp: the service closes the connection after
# its answer; the headers are dropped
service_get() {
  local fd
  exec {fd}<>"/dev/tcp/127.0.0.1/$SVC_PORT" || return 1
  printf 'GET %s HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n' "$1" >&$fd
  sed '1,/^\r$/d' <&$fd
  exec {fd}<&-
}

service_counts() {
  service_get /count | sed -n 's/^work \([0-9]*\) json \([0-9]*\)$/\1 \2/p'
}

service_stop() {
  local i rc=0
  service_get /stop >/dev/null 2>&1
  for i in $(seq 600); do
    kill -0 "$SVC_PID" 2>/dev/null || break
    sleep 0.1
  done
  if kill -0 "$SVC_PID" 2>/dev/null; then
    echo "service_stop: the JVM did not exit within 60 s: killed" >&2
    kill -9 "$SVC_PID" 2>/dev/null
  fi
  wait "$SVC_PID" || rc=$?
  SVC_PID=""
  return $rc
}
