#!/bin/sh
# Dump every GET answer of a running portdash server for one repository into
# a directory, one file per request (status line, content type, body), so two
# dumps (before and after a refactor) can be compared byte for byte:
#
#   sh tests/tools/dump_api.sh http://127.0.0.1:8080 demo /tmp/dump-before
#   ... change the code, serve the same database again ...
#   sh tests/tools/dump_api.sh http://127.0.0.1:8080 demo /tmp/dump-after
#   diff -r /tmp/dump-before /tmp/dump-after
#
# Covers every GET route of server/srv_routes.c except /metrics and
# /api/v1/jobs/{id} (counters and job ids differ run to run): for each ref
# and for the tip commit of the first ref, the commit, summary (each scope),
# files, files.csv, object items, blockers, symbols, search, traverse,
# frontier, SARIF runs; a few file pages, raw sources and file histories;
# every measure's history, badge and forecast; compare and gate both ways;
# snapshots, their CSV, the first and last weeks and their reports;
# dismissals, rewrites, measures, scopes, repos, openapi.json, healthz.
# Needs curl and jq.
set -eu
base=$1; repo=$2; out=$3
NFILES=${NFILES:-6}
mkdir -p "$out"
n=0

# get NAME URLPATH: one request into $out/NAME.
get() {
  f="$out/$(printf '%s' "$1" | tr '/?&=' '____')"
  curl -s -o "$f.body" -w '%{http_code} %{content_type}\n' "$base$2" > "$f"
  printf 'GET %s\n' "$2" >> "$f"
  cat "$f.body" >> "$f"
  rm -f "$f.body"
  n=$((n + 1))
}
body() { curl -sf "$base$1"; }
# pick N: about N lines spread evenly over stdin.
pick() { awk -v n="$1" '{ l[NR] = $0 } END { k = int(NR / n); if (k < 1) k = 1
  for (i = 1; i <= NR && c < n; i += k) { print l[i]; c++ } }'; }
enc() { jq -rn --arg s "$1" '$s|@uri'; }
encp() { jq -rn --arg s "$1" '$s | split("/") | map(@uri) | join("/")'; }

R=/api/v1/repos/$repo
get repos /api/v1/repos
get measures /api/v1/measures
get scopes /api/v1/scopes
get openapi /api/v1/openapi.json
get healthz /healthz
get snapshots "$R/snapshots"
get snapshots.csv "$R/snapshots.csv"
get dismissals "$R/dismissals"
refs=$(body /api/v1/repos | jq -r --arg r "$repo" \
  '.[] | select(.name == $r) | .refs[] | if type == "object" then .name else . end')
measures=$(body /api/v1/measures | jq -r '.[] | if type == "object" then .key else . end')
scopes=$(body /api/v1/scopes | jq -r '.[] | if type == "object" then .name else . end')
first=$(echo "$refs" | head -n 1)
tip=$(body "$R/commits/$(enc "$first")" | jq -r .commit)
revs="$refs $tip"

for rev in $revs; do
  e=$(enc "$rev")
  C=$R/commits/$e
  get "c-$rev" "$C"
  get "c-$rev-summary" "$C/summary"
  for s in $scopes; do get "c-$rev-summary-$s" "$C/summary?scope=$s"; done
  get "c-$rev-files" "$C/files"
  get "c-$rev-files-noobj" "$C/files?scope=no-object-dtype"
  get "c-$rev-files.csv" "$C/files.csv"
  get "c-$rev-object-items" "$C/object-items"
  get "c-$rev-blockers" "$C/blockers"
  get "c-$rev-symbols" "$C/symbols"
  get "c-$rev-search" "$C/search?q=Py"
  get "c-$rev-search-arr" "$C/search?q=array&limit=5"
  get "c-$rev-traverse" "$C/traverse"
  get "c-$rev-frontier" "$C/frontier"
  get "c-$rev-frontier-all" "$C/frontier?all=1&limit=20"
  get "c-$rev-sarif" "$C/sarif"
  sym=$(body "$C/symbols" | jq -r '(.symbols // .)[0].symbol // (.symbols // .)[0].name // empty' \
        2>/dev/null || true)
  [ -n "$sym" ] && get "c-$rev-symbol-$sym" "$C/symbols/$(enc "$sym")"
  files=$(body "$C/files" | jq -r '(.files // .)[].path' 2>/dev/null | sort | \
          pick "$NFILES")
  while IFS= read -r p; do
    [ -n "$p" ] || continue
    get "c-$rev-file-$p" "$C/files/$(encp "$p")"
    get "c-$rev-raw-$p" "$C/raw/$(encp "$p")"
  done <<EOF
$files
EOF
done

for ref in $refs; do
  e=$(enc "$ref")
  get "h-$ref" "$R/refs/$e/history"
  get "h-$ref-committer" "$R/refs/$e/history?date=committer"
  get "h-$ref-points" "$R/refs/$e/history?points=10"
  get "h-$ref-noobj" "$R/refs/$e/history?scope=no-object-dtype"
  for m in $measures; do
    get "h-$ref-$m" "$R/refs/$e/history?measure=$m"
    get "b-$ref-$m" "/badge/$repo/$e/$m.svg"
    get "f-$ref-$m" "$R/forecast?ref=$e&measure=$m"
  done
  get "f-$ref" "$R/forecast?ref=$e"
  get "rw-$ref" "$R/refs/$e/rewrites"
  files=$(body "$R/commits/$e/files" | jq -r '(.files // .)[].path' 2>/dev/null | sort | \
          pick 3)
  while IFS= read -r p; do
    [ -n "$p" ] || continue
    get "fh-$ref-$p" "$R/refs/$e/file-history/$(encp "$p")"
    get "fh-$ref-$p-fn" "$R/refs/$e/file-history/$(encp "$p")?measure=functions.legacy"
  done <<EOF
$files
EOF
done

for a in $refs; do
  for b in $refs; do
    [ "$a" = "$b" ] && continue
    get "cmp-$a-$b" "$R/compare/$(enc "$a")...$(enc "$b")"
    get "gate-$a-$b" "$R/gate?base=$(enc "$a")&head=$(enc "$b")"
    get "gate-$a-$b-md" "$R/gate?base=$(enc "$a")&head=$(enc "$b")&format=markdown"
  done
done

weeks=$(body "$R/snapshots" | jq -r '[(.snapshots // .)[].week] | unique | (first, last) // empty' \
        2>/dev/null || true)
for w in $weeks; do
  get "s-$w" "$R/snapshots/$w"
  get "s-$w-report" "$R/snapshots/$w/report.md"
done
echo "$(ls "$out" | wc -l) answers in $out"
