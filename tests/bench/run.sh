#!/bin/sh
# `make bench`: full-history ingest of a real repository, side by side with
# the floor for reading the same data (git cat-file --batch on the same
# blobs).  Usage: run.sh PORTDASH
#   BENCH_REPO   git directory of numpy-hpy (required; see README)
#   BENCH_REFS   refs to ingest (default: "hpy hpy-convert-object-dtype")
#   BENCH_SCOPE  include glob (default: numpy/core/**)
#   BENCH_RUNS   repetitions of each measurement (default 3); medians reported
set -eu
bin=$1
repo=${BENCH_REPO:?set BENCH_REPO to a bare clone of numpy-hpy (see README, Benchmarks)}
refs=${BENCH_REFS:-hpy hpy-convert-object-dtype}
scope=${BENCH_SCOPE:-numpy/core/**}
runs=${BENCH_RUNS:-3}
[ -d "$repo" ] || { echo "bench: no repository at $repo (set BENCH_REPO)"; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

# The blobs an ingest must read: every distinct in-scope blob on the chains.
for r in $refs; do
  git --git-dir="$repo" log --first-parent --format= --raw --no-renames --no-abbrev "$r" -- "$scope" |
    awk -F'\t' '{split($1,a," "); if (a[4] !~ /^0+$/) print a[4], $2}' |
    grep -E '\.(c|h|c\.src|h\.src|cpp|hpp|cc)$' | cut -d' ' -f1
done | sort -u > "$tmp/blobs"
nblobs=$(wc -l < "$tmp/blobs")
bytes=$(git --git-dir="$repo" cat-file --batch-check='%(objectsize)' < "$tmp/blobs" |
        awk '{s+=$1} END {print s}')

set --
for r in $refs; do set -- "$@" --ref "$r"; done
i=0
while [ $i -lt "$runs" ]; do
  rm -f "$tmp/b.db"*
  /usr/bin/time -f '%e %M' -o "$tmp/time" \
    "$bin" ingest --quiet --db "$tmp/b.db" --git-dir "$repo" --name numpy-hpy \
    --include "$scope" "$@"
  cat "$tmp/time" >> "$tmp/ingest"
  stat -c %s "$tmp/b.db" >> "$tmp/dbsize"
  s=$(date +%s.%N)
  git --git-dir="$repo" cat-file --batch < "$tmp/blobs" > /dev/null
  e=$(date +%s.%N)
  echo "$s $e" | awk '{print $2 - $1}' >> "$tmp/catfile"
  i=$((i + 1))
done
t_ingest=$(cut -d' ' -f1 "$tmp/ingest" | median)
rss=$(cut -d' ' -f2 "$tmp/ingest" | median)
t_cat=$(median < "$tmp/catfile")
db=$(median < "$tmp/dbsize")
commits=$(for r in $refs; do git --git-dir="$repo" rev-list --first-parent "$r"; done | sort -u | wc -l)
echo "repository: $repo refs: $refs scope: $scope runs: $runs (medians)"
echo "| measure | value |"
echo "|---|---|"
echo "| commits ingested | $commits |"
echo "| distinct blobs in scope | $nblobs ($(echo "$bytes" | awk '{printf "%.0f MB", $1/1e6}')) |"
echo "| full ingest, wall time | ${t_ingest} s |"
echo "| git cat-file --batch of the same blobs | ${t_cat} s |"
echo "| ratio ingest / cat-file | $(echo "$t_ingest $t_cat" | awk '{printf "%.1f", $1/$2}') |"
echo "| ingest peak RSS | $(echo "$rss" | awk '{printf "%.0f MB", $1/1024}') |"
echo "| database size | $(echo "$db" | awk '{printf "%.0f MB", $1/1e6}') |"
echo
sh "$(dirname "$0")/analyze.sh" "$bin"
echo
sh "$(dirname "$0")/linear.sh" "$bin"
