#!/bin/sh
# `make stress`: connection exhaustion against a real server on loopback
# (tests/stress/stress_conn.c), bounded: about 30 s; make test runs it too.
# Usage:
#   run.sh PORTDASH STRESS_CONN
# Ends with "N passed, M failed" like tests/run_all.sh.
set -u
bin=$1; stress=$2
dir=$(mktemp -d)
trap '[ -n "${pid:-}" ] && kill "$pid" 2>/dev/null; rm -rf "$dir"' EXIT
sh tests/repo/make_repo.sh tests/fixtures/toyport "$dir/toy.git" >/dev/null || exit 1
"$bin" ingest --quiet --db "$dir/s.db" --git-dir "$dir/toy.git" --name demo --ref hpy || exit 1
# The slow-body phase's authorized uploads (stress_conn.c, phase 4).
STRESS_TOKEN=$("$bin" token create --db "$dir/s.db" --name stress 2>/dev/null | tail -n1) || exit 1
export STRESS_TOKEN
# A short head deadline so the half-open connections end within the run.
"$bin" serve --db "$dir/s.db" --listen 127.0.0.1:0 --head-timeout 5 --static static \
  >"$dir/serve.log" 2>"$dir/serve.err" &
pid=$!
i=0; port=""
while [ $i -lt 100 ] && [ -z "$port" ]; do
  port=$(sed -n 's/.*serving .* on http:[^ ]*:\([0-9]*\)\/$/\1/p' "$dir/serve.log" 2>/dev/null)
  i=$((i+1)); sleep 0.1
done
[ -n "$port" ] || { echo "stress: server did not start"; cat "$dir/serve.err"; echo "0 passed, 1 failed"; exit 1; }
if "$stress" "$port" 1100 2000 300; then ok=1; else ok=0; fi
# The server must still answer afterwards.
if "$stress" "$port" 0 1 0 >/dev/null; then alive=1; else alive=0; fi
echo "server RSS peak: $(sed -n 's/VmHWM:[[:space:]]*//p' /proc/$pid/status)"
kill "$pid"; wait "$pid" 2>/dev/null; pid=""
passed=$((ok + alive)); echo "$passed passed, $((2 - passed)) failed"
[ "$passed" -eq 2 ]
