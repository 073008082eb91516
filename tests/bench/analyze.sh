#!/bin/sh
# Analyzer-only benchmark (part of `make bench`): analyse every distinct C
# blob under BENCH_ANALYZE_SCOPE in the history of BENCH_ANALYZE_REF, and in
# the same run time `git cat-file --batch` reading the same blobs (the floor
# for reading the data).  Usage: analyze.sh PORTDASH
#   BENCH_REPO           git directory of numpy-hpy (required; see doc/benchmarks.md)
#   BENCH_ANALYZE_REF    ref whose whole history is read (default: hpy)
#   BENCH_ANALYZE_SCOPE  path (default: numpy/core)
#   BENCH_RUNS           repetitions (default 3); medians reported
# The analyzer time is CPU time of `portdash analyze --blobs` for analysis
# alone (blobs are read into memory first, not timed); cat-file is wall time
# with its output discarded.  Both are single-threaded.  Blobs come in the
# order the history brings them (oldest first), as an ingest meets them,
# since the chunk memo (analyze.h, an_memo) reuses what earlier versions
# had; each run also times the analyzer without it (PORTDASH_MEMO_MB=0).
set -eu
bin=$1
repo=${BENCH_REPO:?set BENCH_REPO to a bare clone of numpy-hpy (see doc/benchmarks.md)}
ref=${BENCH_ANALYZE_REF:-hpy}
scope=${BENCH_ANALYZE_SCOPE:-numpy/core}
runs=${BENCH_RUNS:-3}
[ -d "$repo" ] || { echo "bench: no repository at $repo (set BENCH_REPO)"; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

# Every blob any commit of the history introduced, with one of its paths
# (the suffix picks C, C++ or template handling), at its first appearance.
git --git-dir="$repo" log --reverse --format= --raw --no-renames --no-abbrev "$ref" -- "$scope" |
  awk -F'\t' '{split($1,a," "); if (a[4] !~ /^0+$/) print a[4], $2}' |
  grep -E '\.(c|h|inc|c\.src|h\.src|inc\.src|cpp|hpp|cc|cxx|hh|hxx)$' | awk '!seen[$1]++' > "$tmp/blobs"
cut -d' ' -f1 "$tmp/blobs" > "$tmp/ids"
i=0
while [ $i -lt "$runs" ]; do
  "$bin" analyze --git-dir "$repo" --blobs "$tmp/blobs" > "$tmp/out"
  sed -n 's/.* analyze_s \([0-9.]*\) .*/\1/p' "$tmp/out" >> "$tmp/an"
  PORTDASH_MEMO_MB=0 "$bin" analyze --git-dir "$repo" --blobs "$tmp/blobs" > "$tmp/out0"
  sed -n 's/.* analyze_s \([0-9.]*\) .*/\1/p' "$tmp/out0" >> "$tmp/an0"
  s=$(date +%s.%N)
  git --git-dir="$repo" cat-file --batch < "$tmp/ids" > /dev/null
  e=$(date +%s.%N)
  echo "$s $e" | awk '{print $2 - $1}' >> "$tmp/cat"
  i=$((i + 1))
done
n=$(sed -n 's/^blobs \([0-9]*\) .*/\1/p' "$tmp/out")
bytes=$(sed -n 's/.* bytes \([0-9]*\) .*/\1/p' "$tmp/out")
exp=$(sed -n 's/.* analysed_bytes \([0-9]*\) .*/\1/p' "$tmp/out")
t_an=$(median < "$tmp/an")
t_an0=$(median < "$tmp/an0")
t_cat=$(median < "$tmp/cat")
hit=$(sed -n 's/.* memo_hit_bytes \([0-9]*\) .*/\1/p' "$tmp/out")
echo "analyzer alone: $repo, every C blob under $scope in the history of $ref, runs: $runs (medians)"
echo "| measure | value |"
echo "|---|---|"
echo "| distinct blobs | $n ($(echo "$bytes" | awk '{printf "%.0f MB", $1/1e6}')) |"
echo "$bytes $t_an $t_cat $exp $t_an0 $hit" | awk '{
  printf "| analyzer, one core | %.2f s, %.0f MB/s of blobs (%.0f MB/s of the %.0f MB it reads, templates expanded; %.0f %% of that reused from the chunk memo) |\n", \
         $2, $1 / 1e6 / $2, $4 / 1e6 / $2, $4 / 1e6, 100 * $6 / $4
  printf "| ... without the memo | %.2f s, %.0f MB/s of blobs (%.0f MB/s of what it reads) |\n", \
         $5, $1 / 1e6 / $5, $4 / 1e6 / $5
  printf "| git cat-file --batch of the same blobs | %.2f s, %.0f MB/s |\n", $3, $1 / 1e6 / $3
  printf "| ratio analyzer / cat-file time | %.2f |\n", $2 / $3 }'
