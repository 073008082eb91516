#!/bin/sh
# The analyzer against Universal Ctags on the same files (part of `make
# bench`; issue 26): a checkout of BENCH_CTAGS_REF, every C/C++ file and
# numpy template under BENCH_CTAGS_SCOPE and then under the whole tree, read
# by `portdash analyze --format functions FILE...` (templates expanded, every
# function with its findings) and by `ctags -f TAGS -L LIST` (C and
# C++, `.src` mapped to C: ctags reads a template's source as C).  They run
# alternately, BENCH_RUNS times each, and the medians are compared, two
# ways:
# - CPU: the analyzer on one thread (`--threads 1`), as ctags runs: their
#   CPU times (user + system, process start included, to the microsecond:
#   the child's rusage, which sums what the scheduler counted, as `perf
#   stat -e task-clock` does).  "speed" is ctags' time over the analyzer's
#   (≥ 2 is the goal).
# - wall: what a user waits, the analyzer with its default threads (one
#   per CPU) against ctags, which has one.
# Usage: ctags.sh PORTDASH
#   BENCH_REPO          git directory of numpy-hpy (required)
#   BENCH_CTAGS_REF     the revision checked out (default: hpy)
#   BENCH_CTAGS_SCOPE   the first directory measured (default: numpy/core)
#   BENCH_RUNS          repetitions (default 3)
#   BENCH_CTAGS_BEFORE  another build of portdash, run in turn with the two
#                       (before/after tables); adds two columns at the end
# Prints one table row per file set: the scope, its templates (.src) and
# its other files apart, and the whole repository; beside the speed, the
# system CPU within each tool's time (page faults, reads, writes: on a
# virtual machine a fresh page's fault costs from 3 to 40 µs with the
# host's state, and ctags faults in about 1,400 pages on numpy/core where
# the analyzer's heap takes a few huge pages, so ctags' time and the ratio
# move with the host while the analyzer's does not).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
repo=${BENCH_REPO:?set BENCH_REPO to a bare clone of numpy-hpy (see doc/benchmarks.md)}
ref=${BENCH_CTAGS_REF:-hpy}
scope=${BENCH_CTAGS_SCOPE:-numpy/core}
runs=${BENCH_RUNS:-3}
before=${BENCH_CTAGS_BEFORE:-}
[ -z "$before" ] || before=$(cd "$(dirname "$before")" && pwd)/$(basename "$before")
command -v ctags >/dev/null || { echo "ctags.sh: universal-ctags missing (make deps)" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
mkdir -p "$tmp/co"
git --git-dir="$repo" archive --format=tar "$ref" | tar -x -C "$tmp/co"
cd "$tmp/co"

# cpu CMD...: "CPU SYSTEM WALL" of one run, output discarded (rusage.py).
cpu() { python3 "$here/rusage.py" -q "$@" || true; }
# A build from before --threads (BENCH_CTAGS_BEFORE) analyses on one.
one() { "$1" analyze --help | grep -q -- --threads && echo "--threads 1" || true; }
one_now=$(one "$bin"); one_before=${before:+$(one "$before")}
cpus=$(nproc); [ "$cpus" -gt 8 ] && cpus=8    # analyze's default (doc/portdash.1)
if [ -z "$before" ]; then
  echo "| files (\`$ref\`) | files, MB | ctags CPU | analyzer CPU, 1 thread | CPU: ctags / analyzer |" \
       "system CPU: ctags, analyzer | ctags wall | analyzer wall, $cpus threads | wall: ctags / analyzer |"
  echo "|---|---|---|---|---|---|---|---|---|"
else
  echo "| files (\`$ref\`) | files, MB | ctags CPU | analyzer CPU, 1 thread | CPU: ctags / analyzer |" \
       "system CPU: ctags, analyzer | ctags wall | analyzer wall, $cpus threads | wall: ctags / analyzer |" \
       "analyzer before CPU | speed before |"
  echo "|---|---|---|---|---|---|---|---|---|---|---|"
fi
# The scope, its numpy templates (.src, expanded by the analyzer, read once
# by ctags) and its other files apart, then the whole tree.
for set in scope templates plain whole; do
  dir=$scope; [ "$set" = whole ] && dir=.
  find "$dir" -type f \( -name '*.c' -o -name '*.h' -o -name '*.inc' -o -name '*.c.src' \
    -o -name '*.h.src' -o -name '*.inc.src' -o -name '*.cpp' -o -name '*.hpp' -o -name '*.cc' \
    -o -name '*.cxx' -o -name '*.hh' -o -name '*.hxx' \) | sed 's|^\./||' | sort |
    case $set in
      templates) grep '\.src$' ;;
      plain) grep -v '\.src$' ;;
      *) cat ;;
    esac > "$tmp/list" || true
  [ -s "$tmp/list" ] || continue
  n=$(wc -l < "$tmp/list")
  mb=$(tr '\n' '\0' < "$tmp/list" | du -cb --files0-from=- | tail -n1 | awk '{printf "%.1f", $1 / 1e6}')
  : > "$tmp/ct"; : > "$tmp/an"; : > "$tmp/an0"; : > "$tmp/anw"
  i=0
  while [ $i -lt "$runs" ]; do
    cpu ctags --languages=C,C++ --langmap=C:+.src.inc -f "$tmp/tags" -L "$tmp/list" >> "$tmp/ct"
    # xargs would split a long list into several processes: one is wanted.
    cpu sh -c 'exec "$0" analyze $2 --format functions $(cat "$1")' "$bin" "$tmp/list" \
      "$one_now" >> "$tmp/an"
    cpu sh -c 'exec "$0" analyze --format functions $(cat "$1")' "$bin" "$tmp/list" >> "$tmp/anw"
    [ -z "$before" ] ||
      cpu sh -c 'exec "$0" analyze $2 --format functions $(cat "$1")' "$before" "$tmp/list" \
        "$one_before" >> "$tmp/an0"
    i=$((i + 1))
  done
  ct=$(cut -d' ' -f1 "$tmp/ct" | median); an=$(cut -d' ' -f1 "$tmp/an" | median)
  an0=$(cut -d' ' -f1 "$tmp/an0" | median)
  cs=$(cut -d' ' -f2 "$tmp/ct" | median); as=$(cut -d' ' -f2 "$tmp/an" | median)
  cw=$(cut -d' ' -f3 "$tmp/ct" | median); aw=$(cut -d' ' -f3 "$tmp/anw" | median)
  case $set in
    scope) label=$scope ;;
    templates) label="$scope, templates only" ;;
    plain) label="$scope, without templates" ;;
    *) label="whole repository" ;;
  esac
  echo "$n $mb $ct $an ${an0:-0} $cs $as $cw $aw" | awk -v l="$label" -v two="${before:+1}" '{
    printf "| %s | %d, %s MB | %.1f ms | %.1f ms | %.2f × | %.1f, %.1f ms | %.1f ms | %.1f ms | %.2f × |",
           l, $1, $2, 1000 * $3, 1000 * $4, $3 / $4, 1000 * $6, 1000 * $7, 1000 * $8, 1000 * $9,
           $8 / $9
    if (two) printf " %.1f ms | %.2f × |", 1000 * $5, $3 / $5
    printf "\n" }'
done
# The host's speed moves both tools' times (doc/benchmarks.md): the load
# average says how busy it was; 3 runs are a smoke test, 9 to 21 a measure.
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg); $runs runs each (medians)"
