#!/bin/sh
# truth.sh: the measure of truth (issue 21).  Ingests the given
# repositories, serves the database on loopback, reads each hand-labelled
# function's status and object state from the file page
# (GET /api/v1/repos/{repo}/commits/{rev}/files/{path}) and prints how often
# portdash agrees with the labels: per field, per expected object state, per
# port, then every disagreement.
#
# Usage: truth.sh PORTDASH LABELS [NAME GITDIR REFS INCLUDES]...
#   NAME      the labels' repo column (numpy-hpy, kiwi, ultrajson-hpy, hpy)
#   GITDIR    its git directory (bare or not)
#   REFS      refs to ingest, separated by commas (branches or tags)
#   INCLUDES  --include globs separated by commas; "-" for every file
# Labels of a repository not given are skipped (and counted as skipped).
# LABELS is a TSV file (doc/truth.md): a header line, '#' comments, then
# repo, rev, path, function, status, object_state ("-": none), reason.
#
# Environment: TRUTH_DB=FILE keeps the database (default: a temporary one,
# removed at the end; an existing file is ingested incrementally);
# TRUTH_SUMMARY=FILE also writes the tables and disagreements there.
# Exit 0 whatever the agreement (it is a measure); non-zero on errors: bad
# arguments or labels, a failed ingest, a server that does not start, an
# answer that is not the file page.  A function or file the page does not
# list is a disagreement "not found".
set -u
[ $# -ge 2 ] || { echo "usage: truth.sh PORTDASH LABELS [NAME GITDIR REFS INCLUDES]..." >&2; exit 2; }
pd=$1; labels=$2; shift 2
[ -x "$pd" ] || { echo "truth: $pd is not an executable" >&2; exit 2; }
[ -r "$labels" ] || { echo "truth: cannot read $labels" >&2; exit 2; }
[ $(($# % 4)) -eq 0 ] || { echo "truth: ports come as NAME GITDIR REFS INCLUDES" >&2; exit 2; }
command -v jq >/dev/null || { echo "truth: jq is needed" >&2; exit 2; }
command -v curl >/dev/null || { echo "truth: curl is needed" >&2; exit 2; }

tmp=$(mktemp -d)
srv_pid=""
trap '[ -n "$srv_pid" ] && { kill "$srv_pid" 2>/dev/null; wait "$srv_pid" 2>/dev/null; }; rm -rf "$tmp"' EXIT
db=${TRUTH_DB:-$tmp/truth.db}

# The labels, checked: seven fields, known statuses and states.
awk -F'\t' -v f="$labels" '
  NR == 1 || /^#/ || /^[ \t]*$/ { next }
  NF != 7 { printf "truth: %s:%d: %d fields, want 7\n", f, NR, NF > "/dev/stderr"; bad = 1; next }
  $5 !~ /^(ported|bridged|legacy|neutral)$/ {
    printf "truth: %s:%d: status \"%s\"\n", f, NR, $5 > "/dev/stderr"; bad = 1; next }
  $6 !~ /^(object-legacy|object-cpython-only|object-universal|-)$/ {
    printf "truth: %s:%d: object state \"%s\"\n", f, NR, $6 > "/dev/stderr"; bad = 1; next }
  { print }
  END { exit bad }' "$labels" >"$tmp/labels" || exit 2

# Ingest each port given.
ports=" "
while [ $# -gt 0 ]; do
  name=$1; gitdir=$2; refs=$3; incs=$4; shift 4
  (
    set -- ingest --quiet --db "$db" --git-dir "$gitdir" --name "$name"
    set -f; IFS=,
    for r in $refs; do set -- "$@" --ref "$r"; done
    if [ "$incs" != "-" ]; then for g in $incs; do set -- "$@" --include "$g"; done; fi
    unset IFS
    echo "truth: ingesting $name ($gitdir, refs $refs)" >&2
    "$pd" "$@"
  ) || { echo "truth: ingest of $name failed" >&2; exit 1; }
  ports="$ports$name "
done

# Serve the database on a free loopback port.
"$pd" serve --db "$db" --listen 127.0.0.1:0 --no-warm --threads 2 >"$tmp/serve.log" 2>&1 &
srv_pid=$!
url=""; i=0
while [ $i -lt 100 ] && [ -z "$url" ]; do
  url=$(sed -n 's/.*serving .* on \(http:[^ ]*\)\/$/\1/p' "$tmp/serve.log"); i=$((i + 1)); sleep 0.1
done
[ -n "$url" ] || { echo "truth: the server did not start:" >&2; cat "$tmp/serve.log" >&2; exit 1; }

# One answer per (repo, rev, path); each label joined with its function's
# entries (a name listed twice, e.g. in #if/#else branches, gives every
# distinct value joined by '|').
: >"$tmp/results"
: >"$tmp/skipped"
n=0
cut -f1-3 "$tmp/labels" | sort -u >"$tmp/files"
while IFS="$(printf '\t')" read -r repo rev path; do
  case $ports in *" $repo "*) ;; *) continue ;; esac
  n=$((n + 1)); ans="$tmp/ans.$n"
  enc=$(printf '%s' "$path" | jq -sRr @uri | sed 's/%2F/\//g')
  code=$(curl -s -o "$ans" -w '%{http_code}' \
    "$url/api/v1/repos/$repo/commits/$rev/files/$enc?per_page=50000") \
    || { echo "truth: cannot reach $url" >&2; exit 1; }
  case $code in
    200) jq -e '.functions | type == "array"' "$ans" >/dev/null \
           || { echo "truth: $repo $rev $path: not a file page" >&2; exit 1; } ;;
    404) echo '{"functions":[]}' >"$ans" ;;           # file not in scope: not found
    *) echo "truth: $repo $rev $path: HTTP $code: $(head -c 300 "$ans")" >&2; exit 1 ;;
  esac
  awk -F'\t' -v r="$repo" -v v="$rev" -v p="$path" '$1==r && $2==v && $3==p' "$tmp/labels" |
  while IFS="$(printf '\t')" read -r _ _ _ fn st ob why; do
    got=$(jq -r --arg f "$fn" '[.functions[] | select(.name == $f)]
      | if length == 0 then "not found\tnot found"
        else ([.[].status] | unique | join("|")) + "\t"
             + ([.[].object_state // "-"] | unique | join("|")) end' "$ans") \
      || { echo "truth: cannot read the answer for $path" >&2; exit 1; }
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$repo" "$rev" "$path" "$fn" "$st" "$ob" \
      "$got" "$why" >>"$tmp/results"
  done || exit 1
done <"$tmp/files"
awk -F'\t' -v ports="$ports" 'index(ports, " " $1 " ") == 0' "$tmp/labels" >"$tmp/skipped"

# The tables.  results: repo rev path fn exp_status exp_obj got_status got_obj reason
awk -F'\t' -v skipped="$(wc -l <"$tmp/skipped")" '
  function pct(a, b) { return b ? sprintf("%5.1f %%", 100 * a / b) : "    -  " }
  function row(label, a, b, c, d, e) {
    printf "%-38s %4d  %4d/%-4d %s  %4d/%-4d %s  %4d/%-4d %s\n", label, a,
      b, a, pct(b, a), c, a, pct(c, a), d, a, pct(d, a) }
  {
    n++; s = ($5 == $7); o = ($6 == $8)
    S += s; O += o; B += s && o
    k = $6; sn[k]++; ss[k] += s; so[k] += o; sb[k] += s && o
    p = $1; pn[p]++; ps[p] += s; po[p] += o; pb[p] += s && o
    r = $1 "@" $2; rn[r]++; rs[r] += s; ro[r] += o; rb[r] += s && o
    cm[$6 "\t" $8]++
    if (!(k in seen_k)) { seen_k[k] = 1; ks[++nk] = k }
    if (!(p in seen_p)) { seen_p[p] = 1; pp[++np] = p }
    if (!(r in seen_r)) { seen_r[r] = 1; rr[++nr] = r }
    if (!s || !o) dis[++nd] = $0
    if (!($8 in seen_g)) { seen_g[$8] = 1; gs[++ng] = $8 }
  }
  END {
    printf "measure of truth: %d labelled functions compared", n
    if (skipped) printf " (%d skipped: port not given)", skipped
    printf "\n\n%-38s %4s  %-16s %-16s %s\n", "", "n", "status", "object state", "both"
    row("all", n, S, O, B)
    printf "\nby expected object state\n"
    for (i = 1; i <= nk; i++) row("  " ks[i], sn[ks[i]], ss[ks[i]], so[ks[i]], sb[ks[i]])
    printf "\nby port\n"
    for (i = 1; i <= np; i++) row("  " pp[i], pn[pp[i]], ps[pp[i]], po[pp[i]], pb[pp[i]])
    printf "\nby port and ref\n"
    for (i = 1; i <= nr; i++) row("  " rr[i], rn[rr[i]], rs[rr[i]], ro[rr[i]], rb[rr[i]])
    printf "\nobject state: expected (rows) x got (columns)\n%-22s", ""
    for (j = 1; j <= ng; j++) printf " %-20s", gs[j]
    printf "\n"
    for (i = 1; i <= nk; i++) {
      printf "%-22s", ks[i]
      for (j = 1; j <= ng; j++) printf " %-20d", cm[ks[i] "\t" gs[j]]
      printf "\n"
    }
    printf "\ndisagreements: %d functions\n", nd
    for (i = 1; i <= nd; i++) {
      split(dis[i], f, "\t")
      if (f[7] == "not found") {
        printf "%s %s %s %s: not found (expected %s, %s) -- %s\n", f[1], f[2], f[3], f[4], f[5], f[6], f[9]
        continue
      }
      if (f[5] != f[7])
        printf "%s %s %s %s: status expected %s, got %s -- %s\n", f[1], f[2], f[3], f[4], f[5], f[7], f[9]
      if (f[6] != f[8])
        printf "%s %s %s %s: object state expected %s, got %s -- %s\n", f[1], f[2], f[3], f[4], f[6], f[8], f[9]
    }
  }' "$tmp/results" >"$tmp/summary"
cat "$tmp/summary"
[ -n "${TRUTH_SUMMARY:-}" ] && cp "$tmp/summary" "$TRUTH_SUMMARY"
exit 0
