#!/bin/sh
# Builds side by side: the full-history ingest of each PORTDASH binary given
# and `git cat-file --batch` of the same blobs, taken in turn within one run
# (cat-file, binary 1, binary 2, ..., repeated BENCH_RUNS times), so that a
# shared machine's load weighs on all of them alike.  For a change to the
# ingest, give the build before it and the build after it.
# Usage: ingest_ab.sh PORTDASH [PORTDASH...]
#   BENCH_REPO, BENCH_REFS, BENCH_SCOPE, BENCH_THREADS as for run.sh;
#   BENCH_RUNS (default 1): medians of that many turns.
# Prints one table row per binary: wall, CPU (user + system), peak RSS
# (median and the largest of the turns: the peak moves with the threads'
# timing), the CPU of each stage's threads (planning, analysis, writing:
# the line `portdash ingest` prints; "-" for a build that does not), and
# wall over cat-file's median, with the load average before and after.
set -eu
repo=${BENCH_REPO:?set BENCH_REPO to a bare clone of numpy-hpy (see doc/benchmarks.md)}
refs=${BENCH_REFS:-hpy hpy-convert-object-dtype}
scope=${BENCH_SCOPE:-numpy/core/**}
runs=${BENCH_RUNS:-1}
threads=${BENCH_THREADS:-$(nproc)}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
for r in $refs; do
  git --git-dir="$repo" log --first-parent --format= --raw --no-renames --no-abbrev "$r" -- "$scope" |
    awk -F'\t' '{split($1,a," "); if (a[4] !~ /^0+$/) print a[4], $2}' |
    grep -E '\.(c|h|inc|c\.src|h\.src|inc\.src|cpp|hpp|cc|cxx|hh|hxx)$' | cut -d' ' -f1
done | sort -u > "$tmp/blobs"
load0=$(cut -d' ' -f1-3 /proc/loadavg)
i=0
while [ $i -lt "$runs" ]; do
  s=$(date +%s.%N)
  git --git-dir="$repo" cat-file --batch < "$tmp/blobs" > /dev/null
  e=$(date +%s.%N)
  echo "$s $e" | awk '{print $2 - $1}' >> "$tmp/cat"
  k=0
  for bin in "$@"; do
    k=$((k + 1))
    rm -f "$tmp/db" "$tmp/db-wal" "$tmp/db-shm"
    a=""
    for r in $refs; do a="$a --ref $r"; done
    # shellcheck disable=SC2086
    /usr/bin/time -f '%e %U %S %M' -o "$tmp/time" "$bin" ingest --threads "$threads" \
      --db "$tmp/db" --git-dir "$repo" --name bench --include "$scope" $a 2> "$tmp/err"
    stages=$(sed -n 's/.*: CPU [0-9.]* s: planning \([0-9.]*\) s, analysis \([0-9.]*\) s, writing \([0-9.]*\) s.*/\1 \2 \3/p' "$tmp/err")
    awk -v st="${stages:-- - -}" '{print $1, $2 + $3, $4, st}' "$tmp/time" >> "$tmp/ingest.$k"
  done
  i=$((i + 1))
done
cat=$(median < "$tmp/cat")
echo "ingest side by side: $repo refs: $refs scope: $scope threads: $threads runs: $runs;" \
     "load average before $load0, after $(cut -d' ' -f1-3 /proc/loadavg)"
echo "| binary | wall | CPU | peak RSS | CPU planning / analysis / writing | wall / cat-file ($(printf %.2f "$cat") s) |"
echo "|---|---|---|---|---|---|"
k=0
for bin in "$@"; do
  k=$((k + 1))
  w=$(cut -d' ' -f1 "$tmp/ingest.$k" | median)
  c=$(cut -d' ' -f2 "$tmp/ingest.$k" | median)
  m=$(cut -d' ' -f3 "$tmp/ingest.$k" | median)
  mx=$(cut -d' ' -f3 "$tmp/ingest.$k" | sort -n | tail -1)
  st=""
  for f in 4 5 6; do st="$st $(cut -d' ' -f$f "$tmp/ingest.$k" | median)"; done
  echo "$w $c $m $cat$st" | awk -v b="$bin" -v mx="$mx" '{
    s = $5 == "-" ? "-" : sprintf("%.1f / %.1f / %.1f s", $5, $6, $7)
    printf "| %s | %.1f s | %.1f s | %.0f MB (max %.0f) | %s | %.1f × |\n", b, $1, $2, $3 / 1024, mx / 1024, s, $1 / $4 }'
done
