#!/bin/sh
# cold.sh: cold answers (issue 26.3), the first request of an answer for a
# commit nobody asked for before, side by side for two builds in one run.
# Usage: cold.sh PORTDASH_BIN [BEFORE_BIN]   (make bench-cold)
#
#   BENCH_REPO     git directory of numpy-hpy (required)
#   BENCH_NAME     repository name (numpy-hpy)
#   BENCH_REFS     refs ingested, commits are picked from each
#                  ("hpy hpy-convert-object-dtype")
#   BENCH_INCLUDE  ingest --include glob ("numpy/core/**")
#   BENCH_FILE     the file page (numpy/core/src/multiarray/arraytypes.c.src,
#                  4,823 lines at hpy)
#   BENCH_DB       a database ingested before with the same options (else a
#                  fresh ingest, a few minutes); each build serves a copy
#                  (a newer build migrates its copy, the older one could
#                  not open it then)
#   BENCH_DB_BEFORE  the database the before build serves (a copy), when
#                  the two builds store differently (else BENCH_DB); the
#                  answers must still be equal
#   BENCH_COMMITS  commits picked per ref (20): spread evenly over the
#                  ref's first-parent chain, each holding BENCH_FILE
#
# Each server runs with --no-warm and --threads 2; every (commit, answer)
# URL is asked once of each server, the two one after the other, so both
# see the same machine load.  The answers must be byte for byte equal.
# Prints median and p90 of curl's time_total per answer and build, and the
# load average before and after.
set -eu
after=${1:?usage: cold.sh PORTDASH_BIN [BEFORE_BIN]}
before=${2:-}
: "${BENCH_REPO:?set BENCH_REPO to a git directory of numpy-hpy (see doc/benchmarks.md)}"
name=${BENCH_NAME:-numpy-hpy}
refs=${BENCH_REFS:-hpy hpy-convert-object-dtype}
include=${BENCH_INCLUDE:-numpy/core/**}
file=${BENCH_FILE:-numpy/core/src/multiarray/arraytypes.c.src}
ncommits=${BENCH_COMMITS:-20}
command -v curl >/dev/null || { echo "cold.sh: curl missing" >&2; exit 2; }

dir=$(mktemp -d)
pids=""
cleanup() {
  for p in $pids; do kill "$p" 2>/dev/null || :; done
  rm -rf "$dir"
}
trap cleanup EXIT INT TERM

db=${BENCH_DB:-$dir/bench.db}
if [ ! -s "$db" ]; then
  set -- ingest --db "$db" --git-dir "$BENCH_REPO" --name "$name" --include "$include"
  for r in $refs; do set -- "$@" --ref "$r"; done
  "$after" "$@" >&2
fi

# serve KEY BIN: a server on a copy of the database; its base URL in $dir/KEY.url.
serve() {
  src=$db
  [ "$1" = before ] && [ -n "${BENCH_DB_BEFORE:-}" ] && src=$BENCH_DB_BEFORE
  cp "$src" "$dir/$1.db"
  "$2" serve --db "$dir/$1.db" --listen 127.0.0.1:0 --threads 2 --no-warm \
    > "$dir/$1.out" 2>&1 &
  pids="$pids $!"
  echo $! > "$dir/$1.pid"
  for _ in $(seq 600); do grep -q 'http://' "$dir/$1.out" && break; sleep 0.1; done
  port=$(sed -n 's|.*http://[^:]*:\([0-9]*\)/.*|\1|p' "$dir/$1.out" | head -n1)
  [ -n "$port" ] || { cat "$dir/$1.out" >&2; exit 1; }
  echo "http://127.0.0.1:$port" > "$dir/$1.url"
}
builds=after
[ -n "$before" ] && builds="before after"
for b in $builds; do
  if [ "$b" = before ]; then serve before "$before"; else serve after "$after"; fi
done

# The commits: spread evenly over the commits of each ref's first-parent
# chain that hold the file.
api="/api/v1/repos/$name"
for r in $refs; do
  git --git-dir="$BENCH_REPO" rev-list --first-parent "$r" |
    while read -r c; do echo "$c:$file $c"; done |
    git --git-dir="$BENCH_REPO" cat-file --batch-check='%(objecttype) %(rest)' |
    awk '$1 == "blob" { print $2 }' |
    awk -v n="$ncommits" '{ l[NR] = $0 } END { k = NR / (n + 1)
      for (i = 1; i <= n; i++) print l[int(i * k)] }'
done > "$dir/commits"
# The first-parent chains share upstream's commits: each commit once.
sort -u "$dir/commits" -o "$dir/commits"
echo "cold.sh: $(wc -l < "$dir/commits") commits, load average before:" \
  "$(cut -d' ' -f1-3 /proc/loadavg)"

# CPU time of a server so far, in ns: the sum over its threads of the
# first field of /proc/PID/task/TID/schedstat (time on a CPU).  The machine
# may be shared: wall times grow with its load, the CPU time much less.
cpu() { cat /proc/"$(cat "$dir/$1.pid")"/task/*/schedstat 2>/dev/null |
  awk '{ s += $1 } END { printf "%.0f", s }'; }
# One request: records time_total and the server's CPU time in ms, keeps
# the body for the comparison.
ask() { # KEY ANSWER COMMIT PATH
  c0=$(cpu "$1")
  code=$(curl -s -o "$dir/body.$1" -w '%{http_code} %{time_total}' "$(cat "$dir/$1.url")$4")
  c1=$(cpu "$1")
  case $code in 200\ *) ;; *) echo "cold.sh: $1 $2 $3: HTTP $code" >&2; exit 1 ;; esac
  echo "$1|$2|$(echo "$code $c0 $c1" |
    awk '{ printf "%.1f|%.1f", $2 * 1000, ($4 - $3) / 1e6 }')" >> "$dir/times"
}
: > "$dir/times"
while read -r c; do
  for a in files page history; do
    case $a in
      files) p="$api/commits/$c/files" ;;
      page) p="$api/commits/$c/files/$file" ;;
      history) p="$api/refs/$c/history?measure=object_paths.object-legacy&points=1000" ;;
    esac
    for b in $builds; do ask "$b" "$a" "$c" "$p"; done
    if [ -n "$before" ] && ! cmp -s "$dir/body.before" "$dir/body.after"; then
      echo "cold.sh: $a at $c differs between the builds" >&2; exit 1
    fi
  done
done < "$dir/commits"
echo "cold.sh: load average after: $(cut -d' ' -f1-3 /proc/loadavg)"

# stats BUILD ANSWER FIELD: median, p90 (nearest rank) and max of one
# column of the times (3: wall time, curl's time_total; 4: server CPU).
stats() {
  awk -F'|' -v b="$1" -v a="$2" -v f="$3" '$1 == b && $2 == a { print $f }' "$dir/times" |
    sort -n | awk '{ v[NR] = $1 } END {
      m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
      p = int(NR * 0.9 + 0.999); if (p < 1) p = 1
      printf "%d|%.1f|%.1f|%.1f", NR, m, v[p], v[NR] }'
}
printf '| answer | build | n | median | p90 | max | CPU median | CPU p90 |\n'
printf '|---|---|---|---|---|---|---|---|\n'
for a in files page history; do
  for b in $builds; do
    echo "$a|$b|$(stats "$b" "$a" 3)|$(stats "$b" "$a" 4)" | awk -F'|' '{
      printf "| %s | %s | %d | %s ms | %s ms | %s ms | %s ms | %s ms |\n",
        $1, $2, $3, $4, $5, $6, $8, $9 }'
  done
done
