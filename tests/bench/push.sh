#!/bin/sh
# One new commit on top of an ingested ref (part of `make bench`): the
# time of `portdash ingest` when a push brings one commit that changes one
# file, against a database holding the whole history.
# Usage: push.sh PORTDASH DB REPO REF SCOPE_FILE RUNS [REF...]
#   DB          a database with REF (and the other REFs) ingested
#   SCOPE_FILE  an in-scope C file of REF to change
#   PUSH_EDIT   what the commit appends to it: "comment" (the default; no
#               function's flow facts change, so the base's call graph
#               stays unread) or "function" (a new function that calls
#               PyArray_NDIM: the facts change, and the push loads the
#               base commit's call graph, kept since migration 022, from
#               every file's facts before it)
# The new commit lives in a scratch repository that borrows REPO's objects
# (objects/info/alternates), so REPO is never written.  Prints
# "push_wall S push_cpu S" (medians of RUNS runs on a fresh copy of DB, in
# seconds to the microsecond).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
bin=$1 db=$2 repo=$3 ref=$4 file=$5 runs=$6
shift 6
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

git init -q --bare "$tmp/push.git"
echo "$(cd "$repo" && pwd)/objects" > "$tmp/push.git/objects/info/alternates"
export GIT_DIR="$tmp/push.git" GIT_INDEX_FILE="$tmp/index"
export GIT_AUTHOR_NAME=bench GIT_AUTHOR_EMAIL=bench@example.org
export GIT_COMMITTER_NAME=bench GIT_COMMITTER_EMAIL=bench@example.org
for r in "$@"; do
  git update-ref "refs/heads/$r" "$(git --git-dir="$repo" rev-parse "$r^{commit}")"
done
tip=$(git rev-parse "$ref^{commit}")
git read-tree "$tip"
case ${PUSH_EDIT:-comment} in
  comment) line='/* pushed */' ;;
  function) line='static int pushed_ndim(PyArrayObject *a) { return PyArray_NDIM(a); }' ;;
  *) echo "push.sh: PUSH_EDIT is comment or function" >&2; exit 2 ;;
esac
blob=$({ git cat-file blob "$tip:$file"; echo "$line"; } | git hash-object -w --stdin)
git update-index --cacheinfo "100644,$blob,$file"
new=$(git commit-tree "$(git write-tree)" -p "$tip" -m "one pushed commit")
git update-ref "refs/heads/$ref" "$new"
unset GIT_DIR GIT_INDEX_FILE

set --
for r in $(git --git-dir="$tmp/push.git" for-each-ref --format='%(refname:short)'); do
  set -- "$@" --ref "$r"
done
sqlite3 "$db" "PRAGMA wal_checkpoint(TRUNCATE)" > /dev/null
i=0
while [ "$i" -lt "$runs" ]; do
  cp "$db" "$tmp/p.db"
  # Written back before the clock starts: else the ingest's first fsync
  # writes the whole copy out and is counted (tens of ms of kernel time).
  sync "$tmp/p.db"
  # to the microsecond: a push is tens of milliseconds (rusage.py)
  python3 "$here/rusage.py" "$bin" ingest --quiet --db "$tmp/p.db" --git-dir "$tmp/push.git" \
    --name numpy-hpy "$@" > "$tmp/time"
  awk '{print $3}' "$tmp/time" >> "$tmp/wall"
  awk '{print $1}' "$tmp/time" >> "$tmp/cpu"
  [ "$(sqlite3 "$tmp/p.db" "SELECT count(*) FROM commits WHERE oid = '$new'")" = 1 ] ||
    { echo "push: the pushed commit was not stored" >&2; exit 1; }
  i=$((i + 1))
done
echo "push_wall $(median < "$tmp/wall") push_cpu $(median < "$tmp/cpu")"
