#!/bin/sh
# pages.sh: the biggest pages in a real browser (issue 26.4; `make bench-pages`).
# Usage: pages.sh PORTDASH_BIN
#
#   BENCH_REPO     git directory of numpy-hpy (required unless BENCH_DB is set)
#   BENCH_DB       a database ingested before with the same options (else a
#                  fresh ingest of BENCH_REF under numpy/core, about 1-2 min)
#   BENCH_NAME     repository name (numpy-hpy)
#   BENCH_REF      the ref (hpy)
#   BENCH_FILE     the file page (numpy/core/src/multiarray/arraytypes.c.src)
#   BENCH_RESULTS  SARIF results uploaded on that file (3781)
#   BENCH_RUNS     runs per page; the median is printed (5)
#   BENCH_PAGES    `file` or `overview`: that page only (both)
#   BENCH_BEFORE   a static/ directory of another version (for example
#                  `git archive COMMIT static | tar -x -C DIR`, then DIR/static),
#                  measured in the same run beside this one
#
# The SARIF log is generated (a CodeQL-like shape, 20 rules, results spread
# over the file's lines) and imported into a copy of the database, so the
# ingested one is never changed.  Prints the machine's load average before
# and after, and one markdown row per page and version.
set -eu
bin=${1:?usage: pages.sh PORTDASH_BIN}
name=${BENCH_NAME:-numpy-hpy}
ref=${BENCH_REF:-hpy}
file=${BENCH_FILE:-numpy/core/src/multiarray/arraytypes.c.src}
results=${BENCH_RESULTS:-3781}
runs=${BENCH_RUNS:-5}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
tmp=$(mktemp -d)
pids=""
cleanup() {
  # serve() runs in a command substitution (a subshell): its servers' ids
  # come back through $tmp/pids, not the variable.
  for p in $pids $(cat "$tmp/pids" 2>/dev/null); do kill "$p" 2>/dev/null || :; done
  rm -rf "$tmp"
}
trap cleanup EXIT INT TERM

if [ -n "${BENCH_DB:-}" ] && [ -s "$BENCH_DB" ]; then
  db=$BENCH_DB
else
  : "${BENCH_REPO:?set BENCH_REPO to a git directory of numpy-hpy (or BENCH_DB; see doc/benchmarks.md)}"
  db=$tmp/ingest.db
  "$bin" ingest --quiet --db "$db" --git-dir "$BENCH_REPO" --name "$name" \
    --include 'numpy/core/**' --ref "$ref" >&2
fi
# A copy for the upload, so BENCH_DB stays as it was.
sqlite3 "$db" ".backup '$tmp/run.db'" 2>/dev/null || cp "$db" "$tmp/run.db"

# The results fall on the file's lines (4,800 when git is not at hand).
lines=4800
[ -n "${BENCH_REPO:-}" ] && lines=$(git --git-dir="$BENCH_REPO" show "$ref:$file" | wc -l)
awk -v n="$results" -v path="$file" -v lines="$lines" '
  BEGIN {
    srand(26)
    printf "{\"version\":\"2.1.0\",\"runs\":[{\"tool\":{\"driver\":{\"name\":\"benchlint\",\"version\":\"1.0\",\"rules\":["
    for (r = 0; r < 20; r++)
      printf "%s{\"id\":\"P%03d\",\"shortDescription\":{\"text\":\"page rule %d\"},\"defaultConfiguration\":{\"level\":\"%s\"}}", r ? "," : "", r, r, r % 3 ? "warning" : "error"
    printf "]}},\"automationDetails\":{\"id\":\"bench/pages\"},\"results\":["
    for (i = 0; i < n; i++)
      printf "%s\n{\"ruleId\":\"P%03d\",\"message\":{\"text\":\"finding %d\"},\"locations\":[{\"physicalLocation\":{\"artifactLocation\":{\"uri\":\"%s\"},\"region\":{\"startLine\":%d,\"startColumn\":%d}}}],\"partialFingerprints\":{\"primaryLocationLineHash\":\"%08x:1\"}}", i ? "," : "", i % 20, i, path, 1 + int(rand() * lines), 1 + i % 30, i * 7919
    printf "]}]}\n"
  }' > "$tmp/log.sarif"
"$bin" import-sarif --db "$tmp/run.db" --name "$name" --rev "$ref" "$tmp/log.sarif" >&2

# serve STATIC_DIR: a server on a free port; prints its base URL.
serve() {
  out=$tmp/serve.$$.$(date +%s%N)
  "$bin" serve --db "$tmp/run.db" --listen 127.0.0.1:0 --threads 2 --static "$1" > "$out" 2>&1 &
  echo $! >> "$tmp/pids"
  i=0
  while [ $i -lt 200 ]; do
    u=$(sed -n 's/.*serving .* on \(http:[^ ]*\)\/$/\1/p' "$out")
    [ -n "$u" ] && { echo "$u"; return; }
    i=$((i + 1)); sleep 0.1
  done
  cat "$out" >&2; exit 1
}

echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
set -- "this" "$(serve "$root/static")"
[ -n "${BENCH_BEFORE:-}" ] && set -- "before" "$(serve "$BENCH_BEFORE")" "$@"
node "$here/pages.mjs" "$name" "$ref" "$file" "$runs" "$@"
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
