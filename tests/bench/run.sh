#!/bin/sh
# `make bench`: the figures of issue 13 in one run.  Full-history ingest of
# a real repository side by side with the floor for reading the same data
# (git cat-file --batch on the same blobs, same run), peak RSS, one pushed
# commit on top (push.sh: a comment, then a function, whose changed facts
# make the push read the base's call graph), the whole repository without
# a scope, then the
# analyzer alone (analyze.sh), against Universal Ctags on the same files
# (ctags.sh) and its linearity (linear.sh), and the SARIF
# import of generated logs (sarif.sh; BENCH_SARIF_BEFORE=BINARY measures
# another build beside it, BENCH_SARIF_BIG=0 skips the ~400 MB log).
# Usage: run.sh PORTDASH
#   BENCH_REPO        git directory of numpy-hpy (required; see doc/benchmarks.md)
#   BENCH_REFS        refs to ingest (default: "hpy hpy-convert-object-dtype")
#   BENCH_SCOPE       include glob (default: numpy/core/**)
#   BENCH_PUSH_FILE   file the pushed commit changes (default:
#                     numpy/core/src/multiarray/ctors.c)
#   BENCH_RUNS        repetitions of each measurement (default 3); medians
#   BENCH_THREADS     ingest --threads (default: one per CPU)
#   BENCH_ONE_THREAD  1 (default): also one --threads 1 ingest, 0: skip
#   BENCH_WHOLE       1 (default): also one ingest of the whole repository
#                     (no --include), 0: skip
#   BENCH_NO_MEMO     1: also one ingest with --no-memo (every chunk
#                     analysed), 0 (default): skip
# Wall times on a shared machine are noisy: ratios are taken within a run,
# and CPU time (user + system) is given next to wall time.
set -eu
bin=$1
repo=${BENCH_REPO:?set BENCH_REPO to a bare clone of numpy-hpy (see doc/benchmarks.md)}
refs=${BENCH_REFS:-hpy hpy-convert-object-dtype}
scope=${BENCH_SCOPE:-numpy/core/**}
push_file=${BENCH_PUSH_FILE:-numpy/core/src/multiarray/ctors.c}
runs=${BENCH_RUNS:-3}
threads=${BENCH_THREADS:-$(nproc)}
[ -d "$repo" ] || { echo "bench: no repository at $repo (set BENCH_REPO)"; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

# blobs SCOPE OUT: every distinct in-scope C blob on the refs' chains.
blobs() {
  for r in $refs; do
    git --git-dir="$repo" log --first-parent --format= --raw --no-renames --no-abbrev "$r" -- "$1" |
      awk -F'\t' '{split($1,a," "); if (a[4] !~ /^0+$/) print a[4], $2}' |
      grep -E '\.(c|h|inc|c\.src|h\.src|inc\.src|cpp|hpp|cc|cxx|hh|hxx)$' | cut -d' ' -f1
  done | sort -u > "$2"
}
bytes_of() {
  git --git-dir="$repo" cat-file --batch-check='%(objectsize)' < "$1" | awk '{s+=$1} END {print s}'
}
# catfile LIST: wall seconds of git cat-file --batch over LIST.
catfile() {
  s=$(date +%s.%N)
  git --git-dir="$repo" cat-file --batch < "$1" > /dev/null
  e=$(date +%s.%N)
  echo "$s $e" | awk '{print $2 - $1}'
}
# ingest DB THREADS [--include GLOB]: one fresh ingest; appends
# "wall cpu rss_kb" to $tmp/ingest.THREADS.
ingest() {
  i_db=$1 i_t=$2
  shift 2
  for r in $refs; do set -- "$@" --ref "$r"; done
  rm -f "$i_db" "$i_db-wal" "$i_db-shm"
  /usr/bin/time -f '%e %U %S %M' -o "$tmp/time" "$bin" ingest --quiet --threads "$i_t" \
    --db "$i_db" --git-dir "$repo" --name numpy-hpy "$@"
  awk '{print $1, $2 + $3, $4}' "$tmp/time" >> "$tmp/ingest.$i_t"
}

blobs "$scope" "$tmp/blobs"
nblobs=$(wc -l < "$tmp/blobs")
bytes=$(bytes_of "$tmp/blobs")
i=0
while [ $i -lt "$runs" ]; do
  ingest "$tmp/b.db" "$threads" --include "$scope"
  [ $i -eq 0 ] && cp "$tmp/b.db" "$tmp/keep.db"
  catfile "$tmp/blobs" >> "$tmp/catfile"
  i=$((i + 1))
done
t_ingest=$(cut -d' ' -f1 "$tmp/ingest.$threads" | median)
c_ingest=$(cut -d' ' -f2 "$tmp/ingest.$threads" | median)
rss=$(cut -d' ' -f3 "$tmp/ingest.$threads" | median)
t_cat=$(median < "$tmp/catfile")
dbsize=$(stat -c %s "$tmp/keep.db")
commits=$(for r in $refs; do git --git-dir="$repo" rev-list --first-parent "$r"; done | sort -u | wc -l)
one=""
if [ "${BENCH_ONE_THREAD:-1}" = 1 ] && [ "$threads" != 1 ]; then
  ingest "$tmp/one.db" 1 --include "$scope"
  t_cat1=$(catfile "$tmp/blobs")
  one=$(awk -v c="$t_cat1" '{printf "%.1f s wall, %.1f s CPU; cat-file %.2f s in the same run (%.1f ×), peak RSS %.0f MB", $1, $2, c, $1 / c, $3 / 1024}' "$tmp/ingest.1")
fi
nomemo=""
if [ "${BENCH_NO_MEMO:-0}" = 1 ]; then
  ingest "$tmp/nm.db" "$threads" --include "$scope" --no-memo
  t_catn=$(catfile "$tmp/blobs")
  nomemo=$(tail -n1 "$tmp/ingest.$threads" | awk -v c="$t_catn" '{printf "%.1f s wall, %.1f s CPU; cat-file %.2f s in the same run (%.1f ×), peak RSS %.0f MB", $1, $2, c, $1 / c, $3 / 1024}')
fi
push=$(sh "$here/push.sh" "$bin" "$tmp/keep.db" "$repo" "$(echo $refs | cut -d' ' -f1)" \
       "$push_file" "$runs" $refs)
pushf=$(PUSH_EDIT=function sh "$here/push.sh" "$bin" "$tmp/keep.db" "$repo" \
        "$(echo $refs | cut -d' ' -f1)" "$push_file" "$runs" $refs)
whole=""
if [ "${BENCH_WHOLE:-1}" = 1 ]; then
  blobs . "$tmp/wblobs"
  wn=$(wc -l < "$tmp/wblobs"); wb=$(bytes_of "$tmp/wblobs")
  ingest "$tmp/w.db" "$threads"
  wc=$(catfile "$tmp/wblobs")
  whole=$(tail -n1 "$tmp/ingest.$threads" | awk -v c="$wc" -v n="$wn" -v b="$wb" '{printf "%d blobs (%.0f MB): %.1f s wall, %.1f s CPU vs cat-file %.2f s (%.1f ×), peak RSS %.0f MB", n, b / 1e6, $1, $2, c, $1 / c, $3 / 1024}')
fi
sh "$here/analyze.sh" "$bin" > "$tmp/analyze"
an=$(sed -n 's/^| analyzer, one core | \(.*\) |$/\1/p' "$tmp/analyze")
sh "$here/ctags.sh" "$bin" > "$tmp/ctags"
ct=$(awk -F'|' '/^[|] (numpy|whole)/ {for (i = 2; i <= 11; i++) gsub(/^ +| +$/, "", $i);
       printf "%s%s: %s CPU (%s vs ctags %s), %s wall (%s vs %s)", n++ ? "; " : "", $2, $6, $5,
              $4, $10, $9, $8}' "$tmp/ctags")

echo "repository: $repo refs: $refs scope: $scope runs: $runs (medians) threads: $threads on $(nproc) CPUs"
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg) (a shared machine makes wall times noisy)"
echo "| measure | value | goal |"
echo "|---|---|---|"
echo "| commits ingested | $commits | |"
echo "| distinct blobs in scope | $nblobs ($(echo "$bytes" | awk '{printf "%.0f MB", $1/1e6}')) | |"
echo "| full ingest vs \`git cat-file --batch\` of the same blobs, same run | $(echo "$t_ingest $t_cat $c_ingest" | awk '{printf "%.1f s vs %.2f s (%.1f ×); %.1f s CPU", $1, $2, $1 / $2, $3}') | ≤ 5 × on 2 cores |"
[ -n "$one" ] && echo "| ... the same with --threads 1 | $one | |"
[ -n "$nomemo" ] && echo "| ... the same with --no-memo | $nomemo | |"
echo "| analyzer per blob byte, one core (templates included) | $an | ≥ 200 MB/s |"
echo "| analyzer speed against Universal Ctags, same files: CPU on one thread; wall with one per CPU (\`ctags.sh\`) | $ct | ≥ 2 × |"
echo "| one new commit pushed on top of an ingested ref (a comment added) | $(echo "$push" | awk '{printf "%.0f ms wall, %.0f ms CPU", $2 * 1000, $4 * 1000}') | ≤ 50 ms |"
echo "| the same with a new function (its facts change: the base's kept call graph is read) | $(echo "$pushf" | awk '{printf "%.0f ms wall, %.0f ms CPU", $2 * 1000, $4 * 1000}') | ≤ 50 ms |"
echo "| ingest peak RSS | $(echo "$rss" | awk '{printf "%.0f MB", $1/1024}') | ≤ 128 MB |"
echo "| database size | $(echo "$dbsize" | awk '{printf "%.0f MB", $1/1e6}') | |"
[ -n "$whole" ] && echo "| whole repository (no --include) | $whole | |"
sh "$here/sarif.sh" "$bin" ${BENCH_SARIF_BEFORE:-} > "$tmp/sarif"
echo "| \`import-sarif\` of a 100 MB log (400,000 results) | $(sed -n 's/^| plain | \([^|]*\) | \([^|]*\) | \([^|]*\) |.*/\2, peak RSS \3/p' "$tmp/sarif") | ≤ 128 MB |"
echo
cat "$tmp/analyze"
echo
cat "$tmp/ctags"
echo
cat "$tmp/sarif"
echo
sh "$here/linear.sh" "$bin"
