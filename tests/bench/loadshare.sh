#!/bin/sh
# The CPU a background ingest takes from the server's reads (issue 26,
# goal 5), builds side by side.  Goal 5's ratios (writeload.sh) divide by an
# idle phase's p99 that moves from 2.5 to 6 ms between runs; this measures
# the cause directly: while wrk keeps a warm answer busy on every core, a
# `nice -n 10 portdash ingest --background` (as portdash-ingest.service
# runs it) writes numpy/core's history into the served database, and the
# ingest's CPU time (utime + stime of /proc/PID/stat) over a fixed window
# is what the readers lost.
# Usage: loadshare.sh PORTDASH [PORTDASH...]
#   BENCH_REPO   git directory of numpy-hpy (required)
#   BENCH_DB     a database with numpy-hpy's numpy/core of hpy and
#                hpy-convert-object-dtype (required; copied, never written)
#   BENCH_RUNS   turns, the builds taking turns (3)
#   BENCH_SECONDS  the measured window (10); wrk runs 4 s longer
#   BENCH_CONNS  connections (64); server and wrk threads: 2
# Prints per build the median (range) of the ingest's CPU seconds in the
# window, that as a share of the machine's CPU seconds in it, and wrk's
# median requests a second, with the load average before and after.
set -eu
: "${BENCH_REPO:?set BENCH_REPO to a git directory of numpy-hpy}"
: "${BENCH_DB:?set BENCH_DB to a database of numpy-hpy numpy/core (as writeload.sh)}"
[ $# -ge 1 ] || { echo "usage: loadshare.sh PORTDASH [PORTDASH...]" >&2; exit 2; }
command -v wrk >/dev/null || { echo "loadshare.sh: wrk missing (make bench-load installs it)" >&2; exit 2; }
runs=${BENCH_RUNS:-3}
secs=${BENCH_SECONDS:-10}
conns=${BENCH_CONNS:-64}
hz=$(getconf CLK_TCK)
ncpu=$(nproc)
dir=$(mktemp -d)
sp=""; ip=""
cleanup() {
  [ -n "$ip" ] && kill "$ip" 2>/dev/null
  [ -n "$sp" ] && kill "$sp" 2>/dev/null
  rm -rf "$dir"
}
trap cleanup EXIT INT TERM
sqlite3 "$BENCH_DB" "PRAGMA wal_checkpoint(TRUNCATE)" > /dev/null
H=$(git --git-dir="$BENCH_REPO" rev-parse hpy)
# CPU ticks of the ingest loop $1: its waited-for children's (cutime and
# cstime) and the running ingest's (utime and stime).
ticks() {
  c=$(awk '{ print $16 + $17 }' "/proc/$1/stat")
  for k in $(pgrep -P "$1"); do
    c=$((c + $(awk '{ print $14 + $15 }' "/proc/$k/stat" 2>/dev/null || echo 0)))
  done
  echo "$c"
}

# one BIN K: one turn of build number K -> $dir/cpu.K, $dir/rps.K
one() {
  rm -f "$dir"/r.db*
  cp "$BENCH_DB" "$dir/r.db"
  "$1" serve --db "$dir/r.db" --listen 127.0.0.1:0 --threads 2 > "$dir/serve.out" 2>&1 &
  sp=$!
  for _ in $(seq 100); do grep -q 'http://' "$dir/serve.out" && break; sleep 0.1; done
  port=$(sed -n 's|.*http://[^:]*:\([0-9]*\)/.*|\1|p' "$dir/serve.out" | head -n1)
  [ -n "$port" ] || { cat "$dir/serve.out" >&2; exit 1; }
  url=http://127.0.0.1:$port/api/v1/repos/numpy-hpy/commits/$H/files
  code=$(curl -s -o /dev/null -w '%{http_code}' -H 'Accept-Encoding: gzip' "$url")
  [ "$code" = 200 ] || { echo "loadshare.sh: HTTP $code" >&2; exit 1; }
  wrk -t2 -c"$conns" -d"$((secs + 4))s" -H 'Accept-Encoding: gzip' "$url" > "$dir/wrk.out" 2>&1 &
  wp=$!
  sleep 1
  # The analyses are stored already, so one ingest under a new name can
  # end within the window: ingest again under another name until stopped.
  (
    trap 'kill "$c" 2>/dev/null; exit 0' TERM
    n=0
    while :; do
      n=$((n + 1))
      nice -n 10 "$1" ingest --quiet --background --db "$dir/r.db" --git-dir "$BENCH_REPO" \
        --name "share$n" --include 'numpy/core/**' --ref hpy --ref hpy-convert-object-dtype &
      c=$!
      wait "$c" || exit 1
    done
  ) > "$dir/ingest.out" 2>&1 &
  ip=$!
  sleep 2
  t0=$(ticks "$ip")
  sleep "$secs"
  t1=$(ticks "$ip")
  wait "$wp" || true
  kill "$ip" "$sp" 2>/dev/null || true
  wait "$ip" "$sp" 2>/dev/null || true
  ip=""; sp=""
  echo "$t0 $t1 $hz" | awk '{ printf "%.2f\n", ($2 - $1) / $3 }' >> "$dir/cpu.$2"
  awk '/^Requests\/sec:/ { printf "%.0f\n", $2 }' "$dir/wrk.out" >> "$dir/rps.$2"
}
median() { sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
range() { sort -n | awk 'NR == 1 { lo = $1 } { hi = $1 } END { print lo "-" hi }'; }

load0=$(cut -d' ' -f1-3 /proc/loadavg)
i=0
while [ "$i" -lt "$runs" ]; do
  i=$((i + 1)); k=0
  for bin in "$@"; do
    k=$((k + 1))
    one "$bin" "$k"
  done
done
echo "a background ingest under read load: wrk -t2 -c$conns on the file list, serve --threads 2, $ncpu CPUs, ${secs} s window, $runs turns"
echo "load average: before $load0; after $(cut -d' ' -f1-3 /proc/loadavg)"
echo "| build | ingest CPU s, median (range) | share of the machine | wrk req/s, median |"
echo "|---|---|---|---|"
k=0
for bin in "$@"; do
  k=$((k + 1))
  c=$(median < "$dir/cpu.$k")
  echo "| $bin | $c ($(range < "$dir/cpu.$k")) | $(echo "$c $secs $ncpu" |
    awk '{ printf "%.1f %%", 100 * $1 / ($2 * $3) }') | $(median < "$dir/rps.$k") |"
done
