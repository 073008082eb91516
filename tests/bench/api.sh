#!/bin/sh
# api.sh: the JSON API against nginx serving the very same bytes as static
# files (issue 12).  Usage: api.sh PORTDASH_BIN   (make bench-api)
#
#   BENCH_REPO     git directory of numpy-hpy (required; README says how to
#                  get it)
#   BENCH_NAME     repository name (numpy-hpy)
#   BENCH_REFS     refs to ingest, the first is benchmarked
#                  ("hpy hpy-convert-object-dtype")
#   BENCH_INCLUDE  ingest --include glob ("numpy/core/**")
#   BENCH_FILE     the large file page (numpy/core/src/multiarray/arraytypes.c.src)
#   BENCH_DB       a database ingested before with the same options (else a
#                  fresh ingest, about 45 s)
#   BENCH_SECONDS  wrk duration per answer and server (5)
#   BENCH_CONNS    connections (64); BENCH_THREADS: wrk threads, nginx
#                  workers and portdash threads (2)
#   BENCH_NGINX_PORT (18480)
#   BENCH_ENCODINGS  the tables to print: "identity gzip" (both, default)
#
# Cold: the first request of each answer after the server started (portdash
# with --no-warm, so it computes; nginx reads the file).  Warm: wrk on the
# answer.  The identity table sends no Accept-Encoding, so both servers send
# the plain bytes; the gzip table sends "Accept-Encoding: gzip" as browsers
# and `curl --compressed` do: portdash serves the gzip form its cache keeps,
# and nginx (gzip_static) serves those very gzip bytes, saved from portdash.
set -eu
bin=${1:?usage: api.sh PORTDASH_BIN}
: "${BENCH_REPO:?set BENCH_REPO to a git directory of numpy-hpy (see doc/benchmarks.md)}"
name=${BENCH_NAME:-numpy-hpy}
refs=${BENCH_REFS:-hpy hpy-convert-object-dtype}
include=${BENCH_INCLUDE:-numpy/core/**}
file=${BENCH_FILE:-numpy/core/src/multiarray/arraytypes.c.src}
secs=${BENCH_SECONDS:-5}
conns=${BENCH_CONNS:-64}
threads=${BENCH_THREADS:-2}
nport=${BENCH_NGINX_PORT:-18480}
encodings=${BENCH_ENCODINGS:-identity gzip}
for tool in wrk nginx curl git; do
  command -v "$tool" >/dev/null || [ -x "/usr/sbin/$tool" ] ||
    { echo "api.sh: $tool missing (make bench-api installs it)" >&2; exit 2; }
done
NGINX=$(command -v nginx || echo /usr/sbin/nginx)

dir=$(mktemp -d)
pd_pid=""
cleanup() {
  [ -n "$pd_pid" ] && kill "$pd_pid" 2>/dev/null
  [ -f "$dir/nginx.pid" ] && kill "$(cat "$dir/nginx.pid")" 2>/dev/null
  rm -rf "$dir"
}
trap cleanup EXIT INT TERM

db=${BENCH_DB:-$dir/bench.db}
if [ ! -s "$db" ]; then
  set -- ingest --db "$db" --git-dir "$BENCH_REPO" --name "$name" --include "$include"
  for r in $refs; do set -- "$@" --ref "$r"; done
  "$bin" "$@" >&2
fi
ref1=${refs%% *}
ref2=$(echo "$refs" | awk '{print $2}')
H=$(git --git-dir="$BENCH_REPO" rev-parse "$ref1")
C=$(git --git-dir="$BENCH_REPO" rev-parse "${ref2:-$ref1}")
api="/api/v1/repos/$name"

# answer key | URL path | file nginx serves
cat > "$dir/answers" <<EOF
summary|$api/commits/$H/summary
files|$api/commits/$H/files
file page|$api/commits/$H/files/$file
history (1000 points)|$api/refs/$ref1/history?measure=object_paths.object-legacy&points=1000
history (full)|$api/refs/$ref1/history?measure=object_paths.object-legacy
compare|$api/compare/$H...$C
EOF

"$bin" serve --db "$db" --listen 127.0.0.1:0 --threads "$threads" --no-warm \
  > "$dir/serve.out" 2>&1 &
pd_pid=$!
for _ in $(seq 100); do grep -q 'http://' "$dir/serve.out" && break; sleep 0.1; done
pport=$(sed -n 's|.*http://[^:]*:\([0-9]*\)/.*|\1|p' "$dir/serve.out" | head -n1)
[ -n "$pport" ] || { cat "$dir/serve.out" >&2; exit 1; }
pbase="http://127.0.0.1:$pport"

# Cold portdash (its first request of each answer), saving the bytes.
mkdir -p "$dir/www"
i=0
while IFS='|' read -r key path; do
  i=$((i + 1))
  curl -s -o "$dir/www/$i.json" -w '%{http_code} %{time_total}\n' "$pbase$path" \
    > "$dir/cold.pd.$i"
  read -r code _ < "$dir/cold.pd.$i"
  [ "$code" = 200 ] || { echo "api.sh: $key: HTTP $code from portdash" >&2; exit 1; }
  # The gzip form portdash serves, for nginx's gzip_static to serve as is
  # (portdash sends small answers as they are: then nginx does too).
  curl -s -H 'Accept-Encoding: gzip' -D "$dir/gz.head.$i" -o "$dir/www/$i.json.gz" "$pbase$path"
  if grep -qi '^content-encoding: *gzip' "$dir/gz.head.$i"; then
    gzip -dc "$dir/www/$i.json.gz" | cmp -s - "$dir/www/$i.json" ||
      { echo "api.sh: $key: gzip form differs from the identity bytes" >&2; exit 1; }
  else
    rm -f "$dir/www/$i.json.gz"
  fi
done < "$dir/answers"

cat > "$dir/nginx.conf" <<EOF
worker_processes $threads;
pid $dir/nginx.pid;
error_log $dir/nginx.err;
events { worker_connections 4096; }
http {
  access_log off;
  sendfile on;
  tcp_nopush on;
  keepalive_requests 1000000;
  types { application/json json; }
  gzip_static on;
  client_body_temp_path $dir/tmp;
  proxy_temp_path $dir/tmp;
  fastcgi_temp_path $dir/tmp;
  uwsgi_temp_path $dir/tmp;
  scgi_temp_path $dir/tmp;
  server { listen 127.0.0.1:$nport; root $dir/www; }
}
EOF
mkdir -p "$dir/tmp"
# nginx's workers run as another user when started by root.
chmod 755 "$dir" "$dir/www"
chmod 644 "$dir"/www/*
"$NGINX" -c "$dir/nginx.conf" -p "$dir" -e "$dir/nginx.err" 2>/dev/null ||
  "$NGINX" -c "$dir/nginx.conf" -p "$dir"
for _ in $(seq 50); do [ -s "$dir/nginx.pid" ] && break; sleep 0.1; done
nbase="http://127.0.0.1:$nport"
i=0
while IFS='|' read -r key path; do
  i=$((i + 1))
  curl -s -o /dev/null -w '%{http_code} %{time_total}\n' "$nbase/$i.json" > "$dir/cold.ng.$i"
  read -r code _ < "$dir/cold.ng.$i"
  [ "$code" = 200 ] || { echo "api.sh: $key: HTTP $code from nginx" >&2; exit 1; }
  curl -s -o /dev/null -D "$dir/ng.gz.head.$i" -H 'Accept-Encoding: gzip' "$nbase/$i.json"
  [ ! -f "$dir/www/$i.json.gz" ] || grep -qi '^content-encoding: *gzip' "$dir/ng.gz.head.$i" ||
    { echo "api.sh: $key: nginx sent no gzip form (gzip_static)" >&2; exit 1; }
done < "$dir/answers"

# wrk's "Requests/sec", 50% and 99% latency (in ms) and errors of one run.
run_wrk() {  # URL OUT [HEADER]
  if [ -n "${3:-}" ]; then
    wrk -t"$threads" -c"$conns" -d"${secs}s" --latency -H "$3" "$1" > "$2" 2>&1 || true
  else
    wrk -t"$threads" -c"$conns" -d"${secs}s" --latency "$1" > "$2" 2>&1 || true
  fi
}
ms() {  # a wrk latency (850.00us, 1.20ms, 1.02s) in ms
  awk -v v="$1" 'BEGIN { n = v + 0; if (v ~ /us$/) n /= 1000; else if (v ~ /[0-9]s$/ && v !~ /ms$/) n *= 1000;
                         printf "%.2f", n }'
}
field() { awk -v k="$2" '$1 == k { print $2 }' "$1"; }
rps() { awk '/^Requests\/sec:/ { printf "%.0f", $2 }' "$1"; }
errs() { awk '/Socket errors|Non-2xx/ { sub(/^ +/, ""); printf "%s; ", $0 }' "$1"; }

# One table: identity (with the cold columns) or gzip (warm only: the
# identity pass has computed every answer by then).
table() {
  enc=$1
  hdr=""; sfx=""
  [ "$enc" = gzip ] && { hdr="Accept-Encoding: gzip"; sfx=".gz"; }
  echo
  echo "$enc:"
  echo
  if [ "$enc" = identity ]; then
    printf '| answer (full commit id of %s) | bytes | cold nginx | cold portdash | nginx req/s | portdash req/s | ratio | nginx p50 / p99 | portdash p50 / p99 |\n' "$ref1"
    printf '|---|---|---|---|---|---|---|---|---|\n'
  else
    printf '| answer (full commit id of %s), gzip | bytes sent | nginx req/s | portdash req/s | ratio | nginx p50 / p99 | portdash p50 / p99 |\n' "$ref1"
    printf '|---|---|---|---|---|---|---|\n'
  fi
  i=0
  while IFS='|' read -r key path; do
    i=$((i + 1))
    w=$dir/wrk.$enc
    run_wrk "$nbase/$i.json" "$w.ng.$i" "$hdr"
    run_wrk "$pbase$path" "$w.pd.$i" "$hdr"
    n=$(rps "$w.ng.$i"); p=$(rps "$w.pd.$i")
    ratio=$(awk -v a="$p" -v b="$n" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "-" }')
    lat="$(ms "$(field "$w.ng.$i" 50%)") / $(ms "$(field "$w.ng.$i" 99%)") ms | $(ms "$(field "$w.pd.$i" 50%)") / $(ms "$(field "$w.pd.$i" 99%)") ms"
    f=$dir/www/$i.json$sfx
    [ -f "$f" ] || f=$dir/www/$i.json
    bytes=$(wc -c < "$f" | tr -d ' ')
    if [ "$enc" = identity ]; then
      cn=$(awk '{ printf "%.1f ms", $2 * 1000 }' "$dir/cold.ng.$i")
      cp=$(awk '{ printf "%.1f ms", $2 * 1000 }' "$dir/cold.pd.$i")
      printf '| %s | %s | %s | %s | %s | %s | %s | %s |\n' "$key" "$bytes" "$cn" "$cp" \
        "$n" "$p" "$ratio" "$lat"
    else
      printf '| %s | %s | %s | %s | %s | %s |\n' "$key" "$bytes" "$n" "$p" "$ratio" "$lat"
    fi
    e="$(errs "$w.ng.$i")$(errs "$w.pd.$i")"
    [ -z "$e" ] || echo "  ($key, $enc: $e)" >> "$dir/notes"
  done < "$dir/answers"
}
for enc in $encodings; do
  case $enc in identity|gzip) table "$enc" ;;
    *) echo "api.sh: BENCH_ENCODINGS: unknown encoding $enc" >&2; exit 2 ;; esac
done
rss=$(awk '/^VmRSS/ { printf "%.0f MB", $2 / 1024 }' "/proc/$pd_pid/status")
hwm=$(awk '/^VmHWM/ { printf "%.0f MB", $2 / 1024 }' "/proc/$pd_pid/status")
cache=$(curl -s "$pbase/metrics" | awk '/^portdash_cache_(hits_total|misses_total|bytes|evictions_total) / {
  sub(/^portdash_cache_/, ""); printf "%s %s, ", $1, $2 }')
echo
echo "wrk -t$threads -c$conns -d${secs}s per answer and server, nginx $threads workers," \
     "portdash --threads $threads; portdash RSS after the run $rss (peak $hwm);" \
     "cache: ${cache%, }"
[ -f "$dir/notes" ] && { echo "errors:"; cat "$dir/notes"; }
exit 0
