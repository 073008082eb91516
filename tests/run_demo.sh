#!/bin/sh
# `make run`: ingest a repository and serve it on 127.0.0.1:PORT.
# Usage: run_demo.sh PORTDASH DB PORT [GITDIR [REFS [NAME [INCLUDE]]]]
# Without GITDIR, builds the demo repository from tests/fixtures/demo (a
# small extension, gridlib, ported over seven commits; the hostile toyport
# fixture is for the tests only).
set -euf  # -f: globs such as numpy/core/** are passed on, never expanded
bin=$1; db=$2; port=$3; repo=${4:-}; refs=${5:-}; name=${6:-}; include=${7:-}
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
mkdir -p build
if [ -z "$repo" ]; then
  sh tests/repo/make_repo.sh tests/fixtures/demo build/demo.git
  rm -f "$db" "$db-wal" "$db-shm"
  "$bin" ingest --db "$db" --git-dir build/demo.git --name gridlib \
    --ref hpy --ref hpy-object-items
  echo "Open http://127.0.0.1:$port/ (the demo port gridlib, refs hpy and hpy-object-items)"
else
  [ "$db" = build/demo.db ] && db=build/portdash.db
  set --
  for r in $refs; do set -- "$@" --ref "$r"; done
  [ -n "$name" ] && set -- "$@" --name "$name"
  for g in $include; do set -- "$@" --include "$g"; done
  "$bin" ingest --db "$db" --git-dir "$repo" "$@"
  echo "Open http://127.0.0.1:$port/"
fi
exec "$bin" serve --db "$db" --listen "127.0.0.1:$port" --static static
