#!/bin/sh
# Reads under write load (issue 26, goal 5): warm API answers while an
# ingest of numpy/core writes to the database the server reads, against the
# same answers with the database idle, in one run.  The ingest runs as the
# deployed unit runs it (nice 10 and --background,
# deploy/systemd/portdash-ingest.service)
# and writes another repository's history into the served database (a copy):
# WAL readers must not wait for it, and the answer cache must keep the
# answers whose data it did not change (srv_cache.c, data keys).
# Usage: writeload.sh PORTDASH
#   BENCH_REPO     git directory of numpy-hpy (required)
#   BENCH_DB       a database with numpy-hpy's numpy/core of hpy and
#                  hpy-convert-object-dtype ingested (as api.sh; copied,
#                  never written); else one is ingested first
#   BENCH_SECONDS  wrk seconds per answer and phase (5); BENCH_CONNS (64)
#   BENCH_ROUNDS   rounds of an idle phase then a loaded one (3)
#   BENCH_THREADS  wrk threads and server threads (2)
#   BENCH_INGEST_SCHED  how the ingest is started: "background" (nice 10
#                  and --background, as portdash-ingest.service runs it:
#                  its threads at SCHED_IDLE, the writer not; the default),
#                  "nice" (nice 10 alone, the unit before --background) or
#                  "idle" (the whole process at SCHED_IDLE, chrt --idle 0)
# Rounds of two phases: idle, then loaded (an ingest started, its first 3 s
# skipped, stopped after the phase).  Prints one table row per answer: the
# medians over the rounds of idle and loaded requests a second and p99,
# the ratio of the medians (goals: ≥ 0.8 and ≤ 2) and each round's ratio,
# and how many answers the cache computed and revalidated in the loaded
# phases (the served answers' data does not change: none should be
# computed).
set -eu
bin=${1:?usage: writeload.sh PORTDASH}
: "${BENCH_REPO:?set BENCH_REPO to a git directory of numpy-hpy (see doc/benchmarks.md)}"
secs=${BENCH_SECONDS:-5}
bg=""
case ${BENCH_INGEST_SCHED:-background} in
  background) sched="nice -n 10"; bg=--background ;;
  idle) sched="chrt --idle 0 nice -n 10" ;;
  nice) sched="nice -n 10" ;;
  *) echo "writeload.sh: BENCH_INGEST_SCHED is background, idle or nice" >&2; exit 2 ;;
esac
conns=${BENCH_CONNS:-64}
rounds=${BENCH_ROUNDS:-3}
threads=${BENCH_THREADS:-2}
file=numpy/core/src/multiarray/arraytypes.c.src
command -v wrk >/dev/null || { echo "writeload.sh: wrk missing (make bench-load installs it)" >&2; exit 2; }
dir=$(mktemp -d)
pd_pid=""; in_pid=""
cleanup() {
  [ -n "$in_pid" ] && kill "$in_pid" 2>/dev/null
  [ -n "$pd_pid" ] && kill "$pd_pid" 2>/dev/null
  rm -rf "$dir"
}
trap cleanup EXIT INT TERM
if [ -n "${BENCH_DB:-}" ]; then
  sqlite3 "$BENCH_DB" "PRAGMA wal_checkpoint(TRUNCATE)" > /dev/null
  cp "$BENCH_DB" "$dir/r.db"
else
  "$bin" ingest --quiet --db "$dir/r.db" --git-dir "$BENCH_REPO" --name numpy-hpy \
    --include 'numpy/core/**' --ref hpy --ref hpy-convert-object-dtype
fi
H=$(git --git-dir="$BENCH_REPO" rev-parse hpy)
api=/api/v1/repos/numpy-hpy
cat > "$dir/answers" <<EOF2
summary|$api/commits/$H/summary
files|$api/commits/$H/files
file page|$api/commits/$H/files/$file
history (1000 points)|$api/refs/hpy/history?measure=object_paths.object-legacy&points=1000
EOF2
"$bin" serve --db "$dir/r.db" --listen 127.0.0.1:0 --threads "$threads" > "$dir/serve.out" 2>&1 &
pd_pid=$!
for _ in $(seq 100); do grep -q 'http://' "$dir/serve.out" && break; sleep 0.1; done
port=$(sed -n 's|.*http://[^:]*:\([0-9]*\)/.*|\1|p' "$dir/serve.out" | head -n1)
[ -n "$port" ] || { cat "$dir/serve.out" >&2; exit 1; }
base=http://127.0.0.1:$port
# Warm every answer (identity and gzip) before measuring.
while IFS='|' read -r key path; do
  for h in identity gzip; do
    code=$(curl -s -o /dev/null -w '%{http_code}' -H "Accept-Encoding: $h" "$base$path")
    [ "$code" = 200 ] || { echo "writeload.sh: $key: HTTP $code" >&2; exit 1; }
  done
done < "$dir/answers"

ms() { awk -v v="$1" 'BEGIN { n = v + 0; if (v ~ /us$/) n /= 1000;
  else if (v ~ /[0-9]s$/ && v !~ /ms$/) n *= 1000; printf "%.2f", n }'; }
# phase NAME: wrk on every answer (gzip, as browsers ask) -> $dir/NAME.N
phase() {
  i=0
  while IFS='|' read -r key path; do
    i=$((i + 1))
    wrk -t"$threads" -c"$conns" -d"${secs}s" --latency -H 'Accept-Encoding: gzip' \
      "$base$path" > "$dir/$1.$i" 2>&1 || true
  done < "$dir/answers"
}
rps() { awk '/^Requests\/sec:/ { printf "%.0f", $2 }' "$1"; }
p99() { ms "$(awk '$1 == "99%" { print $2 }' "$1")"; }

load0=$(cut -d' ' -f1-3 /proc/loadavg)
metric() { curl -s "$base/metrics" | awk -v k="$1" '$1 == k { print $2 }'; }
# The analyses of numpy-hpy's blobs are stored already, so one ingest of
# another name can end within the phase: ingest again under a new name
# until stopped (TERM stops the running one too).
ingest_loop() {
  (
    trap 'kill "$c" 2>/dev/null; exit 0' TERM
    i=0
    while :; do
      i=$((i + 1))
      $sched "$bin" ingest --quiet $bg --db "$dir/r.db" --git-dir "$BENCH_REPO" \
        --name "load$1-$i" --include 'numpy/core/**' --ref hpy --ref hpy-convert-object-dtype &
      c=$!
      wait "$c" || exit 1
    done
  ) >> "$dir/ingest.out" 2>&1 &
  in_pid=$!
}
computed=0; revalidated=0; loads=""
r=1
while [ "$r" -le "$rounds" ]; do
  phase "idle$r"
  ingest_loop "$r"
  sleep 3
  m0="$(metric portdash_cache_misses_total) $(metric portdash_cache_revalidations_total)"
  phase "loaded$r"
  m1="$(metric portdash_cache_misses_total) $(metric portdash_cache_revalidations_total)"
  kill -0 "$in_pid" 2>/dev/null || { echo "writeload.sh: the ingest failed during the" \
    "loaded phase" >&2; cat "$dir/ingest.out" >&2; exit 1; }
  kill "$in_pid"; wait "$in_pid" 2>/dev/null || true; in_pid=""
  set -- $m0 $m1
  computed=$((computed + $3 - $1)); revalidated=$((revalidated + $4 - $2))
  loads="$loads $(cut -d' ' -f1 /proc/loadavg)"
  r=$((r + 1))
done
echo "reads under write load: $(wc -l < "$dir/answers") answers, wrk -t$threads -c$conns -d${secs}s," \
     "gzip; server --threads $threads; ingest of numpy/core ($sched${bg:+ $bg}) into the served" \
     "database; $rounds rounds of idle then loaded, medians"
echo "answer cache during the loaded phases: $computed answers computed, $revalidated" \
     "revalidated after the ingest's commits"
echo "load average: before $load0; after each round:$loads"
med() { tr ' ' '\n' | grep . | sort -g | awk '{a[NR] = $1} END { print a[int((NR + 1) / 2)] }'; }
echo "| answer | idle req/s | loaded req/s | ratio (rounds) | idle p99 | loaded p99 | ratio (rounds) |"
echo "|---|---|---|---|---|---|---|"
i=0
while IFS='|' read -r key path; do
  i=$((i + 1))
  a=""; b=""; q=""; u=""; rr=""; rq=""
  r=1
  while [ "$r" -le "$rounds" ]; do
    x=$(rps "$dir/idle$r.$i"); y=$(rps "$dir/loaded$r.$i")
    xp=$(p99 "$dir/idle$r.$i"); yp=$(p99 "$dir/loaded$r.$i")
    a="$a $x"; b="$b $y"; q="$q $xp"; u="$u $yp"
    rr="$rr$(awk -v x="$x" -v y="$y" 'BEGIN { printf " %.2f", (x > 0 ? y / x : 0) }')"
    rq="$rq$(awk -v x="$xp" -v y="$yp" 'BEGIN { printf " %.2f", (x > 0 ? y / x : 0) }')"
    r=$((r + 1))
  done
  echo "$(echo "$a" | med) $(echo "$b" | med) $(echo "$q" | med) $(echo "$u" | med)" |
    awk -v k="$key" -v rr="${rr# }" -v rq="${rq# }" '{
      printf "| %s | %d | %d | %.2f (%s) | %.2f ms | %.2f ms | %.2f (%s) |\n", k, $1, $2,
        ($1 > 0 ? $2 / $1 : 0), rr, $3, $4, ($3 > 0 ? $4 / $3 : 0), rq }'
done < "$dir/answers"
