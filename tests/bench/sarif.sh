#!/bin/sh
# `make bench-sarif` (and the SARIF row of `make bench`): import time and
# peak RSS of `portdash import-sarif` for a generated log of ~100 MB
# (400,000 results) against the toyport fixture repository, and for a
# log of ~4 times that (the same results, each with a 4-step codeFlow as
# CodeQL writes, which is read past and not stored; over the 128 MiB the
# import took before issue 13).
# Usage: sarif.sh PORTDASH [PORTDASH_BEFORE]
#   PORTDASH_BEFORE   another build (for example main's) measured on the
#                     same logs in the same run
#   BENCH_SARIF_RESULTS  results per log (default 400000)
#   BENCH_SARIF_BIG      1 (default): also the ~400 MB log, 0: skip
# Prints one markdown row per log and binary: size, wall and CPU time,
# peak RSS, what was stored.
set -eu
bin=$1
before=${2:-}
n=${BENCH_SARIF_RESULTS:-400000}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

sh "$root/tests/repo/make_repo.sh" "$root/tests/fixtures/toyport" "$tmp/toy.git" >/dev/null
"$bin" ingest --quiet --db "$tmp/base.db" --git-dir "$tmp/toy.git" --name toy --ref hpy \
  >/dev/null
git --git-dir="$tmp/toy.git" ls-tree -r --name-only hpy | grep -E '\.(c|h)$' > "$tmp/files"

# gen N FLOW: a SARIF 2.1.0 log of N results over the files, 40 rules, a
# CodeQL-like shape (%SRCROOT%, region, fingerprints); FLOW > 0
# adds a codeFlow of FLOW steps to every result.
gen() {
  awk -v n="$1" -v flow="$2" '
    BEGIN { srand(13) }
    { f[nf++] = $0 }
    END {
      printf "{\"$schema\":\"https://json.schemastore.org/sarif-2.1.0.json\",\"version\":\"2.1.0\",\"runs\":[{\"tool\":{\"driver\":{\"name\":\"benchlint\",\"version\":\"1.0\",\"rules\":["
      for (r = 0; r < 40; r++)
        printf "%s{\"id\":\"B%03d\",\"shortDescription\":{\"text\":\"bench rule %d\"},\"defaultConfiguration\":{\"level\":\"%s\"}}", r ? "," : "", r, r, r % 3 ? "warning" : "error"
      printf "]}},\"automationDetails\":{\"id\":\"bench/run\"},\"originalUriBaseIds\":{\"%%SRCROOT%%\":{\"uri\":\"file:///src/\"}},\"results\":["
      for (i = 0; i < n; i++) {
        r = i % 40; file = f[i % nf]; line = 1 + int(rand() * 60)
        printf "%s\n{\"ruleId\":\"B%03d\",\"message\":{\"text\":\"may leak reference %d\"},\"locations\":[{\"physicalLocation\":{\"artifactLocation\":{\"uri\":\"%s\",\"uriBaseId\":\"%%SRCROOT%%\"},\"region\":{\"startLine\":%d,\"startColumn\":%d}}}],\"partialFingerprints\":{\"primaryLocationLineHash\":\"%08x:1\"}", i ? "," : "", r, i, file, line, 1 + i % 30, i * 7919
        if (flow) {
          printf ",\"codeFlows\":[{\"threadFlows\":[{\"locations\":["
          for (k = 0; k < flow; k++)
            printf "%s{\"location\":{\"physicalLocation\":{\"artifactLocation\":{\"uri\":\"%s\",\"uriBaseId\":\"%%SRCROOT%%\"},\"region\":{\"startLine\":%d,\"startColumn\":5,\"endColumn\":30}},\"message\":{\"text\":\"step %d\"}}}", k ? "," : "", file, line + k, k
          printf "]}]}]"
        }
        printf "}"
      }
      printf "]}]}\n"
    }' "$tmp/files"
}

# run BIN LOG LABEL: one import on a fresh copy of the database.
run() {
  cp "$tmp/base.db" "$tmp/run.db"
  if /usr/bin/time -f '%e %U %S %M' -o "$tmp/time" "$1" import-sarif --db "$tmp/run.db" \
       --name toy --rev hpy --checkout-uri file:///src "$2" > "$tmp/out" 2> "$tmp/err"; then
    what=$(head -n1 "$tmp/out" | sed 's/^[^:]*: //')
  else
    what="refused: $(tail -n1 "$tmp/err" | sed 's/^portdash import-sarif: //' | cut -c1-60)"
  fi
  size=$(stat -c %s "$2")
  tail -n1 "$tmp/time" | awk -v l="$3" -v s="$size" -v w="$what" '{printf "| %s | %.1f MB | %.1f s wall, %.1f s CPU | %.0f MB | %s |\n", l, s / 1e6, $1, $2 + $3, $4 / 1024, w}'
  rm -f "$tmp/run.db" "$tmp/run.db-wal" "$tmp/run.db-shm"
}

gen "$n" 0 > "$tmp/log.sarif"
gzip -c "$tmp/log.sarif" > "$tmp/log.sarif.gz"
ratio=$(echo "$(stat -c %s "$tmp/log.sarif") $(stat -c %s "$tmp/log.sarif.gz")" | awk '{printf "%.0f", $1 / $2}')
echo "$n results over $(wc -l < "$tmp/files") files of the toyport fixture; gzip makes the log $ratio times smaller"
echo "| log | size | time | peak RSS | stored |"
echo "|---|---|---|---|---|"
[ -n "$before" ] && run "$before" "$tmp/log.sarif" "plain, before"
run "$bin" "$tmp/log.sarif" "plain"
run "$bin" "$tmp/log.sarif.gz" "the same, gzip"
if [ "${BENCH_SARIF_BIG:-1}" = 1 ]; then
  rm -f "$tmp/log.sarif" "$tmp/log.sarif.gz"
  gen "$n" 4 > "$tmp/big.sarif"
  [ -n "$before" ] && run "$before" "$tmp/big.sarif" "with codeFlows, before"
  run "$bin" "$tmp/big.sarif" "with codeFlows"
fi
