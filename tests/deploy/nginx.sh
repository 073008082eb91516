#!/bin/sh
# deploy/nginx/portdash.conf in front of a test server, as a site would run
# it (only its paths and ports changed): a commit-addressed answer that
# cannot change is served from nginx's cache (HIT); an answer a SARIF upload
# may change is revalidated with If-None-Match (REVALIDATED, a 304 upstream),
# and after an upload nginx fetches the new answer (EXPIRED, new ETag).
# Usage: nginx.sh PORTDASH_BIN FIXTURES_DIR
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
. "$root/tests/deploy/lib.sh"
bin=$1 fixtures=$2
NGINX=$(command -v nginx || echo /usr/sbin/nginx)
if [ ! -x "$NGINX" ]; then echo "not ok - nginx missing (run make deps)"; exit 1; fi
tmp=$(mktemp -d)
PD_PID=""
trap '[ -f "$tmp/nginx.pid" ] && kill $(cat "$tmp/nginx.pid") 2>/dev/null; kill $PD_PID 2>/dev/null; rm -rf "$tmp"' EXIT
[ -n "${KEEP:-}" ] && trap - EXIT

"$bin" ingest --quiet --db "$tmp/d.db" --git-dir "$fixtures/toyport.git" --name demo --ref hpy \
  >"$tmp/ingest.log" 2>&1 || { echo "not ok - ingest"; cat "$tmp/ingest.log"; exit 1; }
token=$("$bin" token create --db "$tmp/d.db" --name ci --scope sarif 2>/dev/null | tail -n1)
start_portdash "$bin" "$tmp/d.db" "$tmp/serve.log"
[ -n "$PD_URL" ] || { echo "not ok - portdash did not start"; cat "$tmp/serve.log"; exit 1; }
pd_port=${PD_URL##*:}
port=$(free_port)

# The example site with test paths and ports, inside a minimal nginx.conf.
sed -e "s|/var/cache/nginx/portdash|$tmp/cache|" -e "s|listen 80;|listen 127.0.0.1:$port;|" \
    -e "s|127.0.0.1:8080|127.0.0.1:$pd_port|g" "$root/deploy/nginx/portdash.conf" > "$tmp/site.conf"
cat > "$tmp/nginx.conf" <<CONF
daemon on; pid $tmp/nginx.pid; error_log $tmp/error.log;
user $(id -un) $(id -gn);
events { worker_connections 256; }
http {
  access_log off;
  client_body_temp_path $tmp/body; proxy_temp_path $tmp/proxy; fastcgi_temp_path $tmp/fcgi;
  uwsgi_temp_path $tmp/uwsgi; scgi_temp_path $tmp/scgi;
  include $tmp/site.conf;
}
CONF
"$NGINX" -t -q -c "$tmp/nginx.conf" -p "$tmp" 2>"$tmp/t.log"
check "example configuration passes nginx -t" test $? -eq 0 || cat "$tmp/t.log"
"$NGINX" -c "$tmp/nginx.conf" -p "$tmp" 2>>"$tmp/t.log" || { echo "not ok - nginx start"; exit 1; }
ng="http://127.0.0.1:$port/api/v1/repos/demo"
c=$(git --git-dir="$fixtures/toyport.git" rev-parse hpy)

# cache_status URL: nginx's X-Cache-Status of a GET (gzip accepted).
cache_status() {
  curl -s -o /dev/null -D - -H 'Accept-Encoding: gzip' "$1" |
    sed -n 's/^X-Cache-Status: \([A-Z]*\).*/\1/p'
}
etag() { curl -s -o /dev/null -D - -H 'Accept-Encoding: gzip' "$1" | sed -n 's/^[Ee][Tt]ag: \(.*\)\r$/\1/p'; }

# nginx is up when it passes /healthz on (portdash does not cache it)
i=0; while [ $i -lt 50 ] && [ "$(status "http://127.0.0.1:$port/healthz")" != 200 ]; do
  i=$((i+1)); sleep 0.1; done
check "commit-addressed answer: first request goes to portdash" test "$(cache_status "$ng/commits/$c")" = MISS
check "commit-addressed answer: next one is a cache HIT" test "$(cache_status "$ng/commits/$c")" = HIT
check "gzip passed through from portdash" sh -c \
  "curl -s -D - -o /dev/null -H 'Accept-Encoding: gzip' '$ng/commits/$c/files' | grep -qi '^Content-Encoding: gzip'"
check "gunzip for a client without gzip" sh -c "curl -s '$ng/commits/$c/files' | head -c1 | grep -q '[[{]'"

sum="$ng/commits/$c/summary"
first=$(cache_status "$sum")
check "summary: first request goes to portdash" test "$first" = MISS
e1=$(etag "$sum")
check "summary carries an ETag" test -n "$e1"
sleep 2.1
check "summary: revalidated with If-None-Match (304 upstream)" test "$(cache_status "$sum")" = REVALIDATED

code=$(curl -s -o "$tmp/up.json" -w '%{http_code}' -H "Authorization: Bearer $token" \
  --data-binary @"$root/tests/fixtures/sarif/one.sarif" "$ng/commits/$c/sarif")
check "SARIF upload through nginx (201)" test "$code" = 201 || cat "$tmp/up.json"
sleep 2.1
check "summary after the upload: fetched anew (EXPIRED)" test "$(cache_status "$sum")" = EXPIRED
e2=$(etag "$sum")
check "summary after the upload: a new ETag" test -n "$e2" -a "$e1" != "$e2"
