# bench/lib.sh -- shell helpers shared by the benchmarks (sourced, not run):
# the machine line of a header, the load check before and while measuring,
# and best/median of a list of numbers.

# "N cores (CPU model), X GiB RAM, kernel"
bench_machine() {
  local cpu mem
  cpu=$(awk -F': *' '/^model name/ {print $2; exit}' /proc/cpuinfo 2>/dev/null || true)
  [ -n "$cpu" ] || cpu=$(uname -m)
  mem=$(awk '/^MemTotal/ {printf "%.1f", $2 / 1048576}' /proc/meminfo 2>/dev/null || echo "?")
  echo "$(nproc) cores ($cpu), $mem GiB RAM, $(uname -sr)"
}

# Between two "cpu" lines of /proc/stat: "busy% steal% busy-seconds".
# Busy counts steal too: it is CPU time the benchmark did not get.
cpu_delta() {
  awk -v a="$1" -v b="$2" -v hz="$(getconf CLK_TCK 2>/dev/null || echo 100)" 'BEGIN {
    n = split(a, x); split(b, y); t = 0
    if (n > 9) n = 9   # guest time is already counted in user
    for (i = 2; i <= n; i++) { d[i] = y[i] - x[i]; t += d[i] }
    if (t <= 0) { print 0, 0, 0; exit }
    busy = t - d[5] - d[6]
    printf "%.0f %.0f %.2f\n", 100 * busy / t, 100 * d[9] / t, busy / hz }'
}

# The "load" line of a header: the machine's busy share in the second
# before the start, and the load average.
bench_load_line() {
  [ -r /proc/stat ] || return 0
  local s1 s2 busy steal note=
  s1=$(head -1 /proc/stat); sleep 1; s2=$(head -1 /proc/stat)
  read -r busy steal _ < <(cpu_delta "$s1" "$s2")
  [ "$busy" -ge 10 ] && note="  -- the machine is busy: expect noisy times"
  echo "load    : $busy% CPU busy, $steal% steal in the second before start; loadavg $(cut -d' ' -f1-3 /proc/loadavg)$note"
}

# The other load while measuring: between /proc/stat "cpu" lines $1 and
# $2, taken at $3 and $4 (date +%s%N), the machine's busy CPU time less
# $5, the seconds the measured processes used (GNU time's user+sys).
# Prints the line, flagged above 10%.
bench_other_load() {
  local steal busy_s other note=
  read -r _ steal busy_s < <(cpu_delta "$1" "$2")
  other=$(awk -v b="$busy_s" -v o="$5" -v t0="$3" -v t1="$4" -v n="$(nproc)" \
    'BEGIN { x = (b - o) / ((t1 - t0) / 1e9 * n) * 100; if (x < 0) x = 0; printf "%.0f", x }')
  [ "$other" -ge 10 ] && note="  -- UNRELIABLE: other processes competed for the CPU; rerun on an idle machine"
  echo "  other load while measuring: ${other}% of the machine's CPU time (steal ${steal}%)$note"
}

# The smallest and the median of the numbers on standard input.
bench_best() { sort -g | head -1; }
bench_median() {
  sort -g | awk '{v[NR] = $1} END {if (NR) print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'
}
