# Shared by the deployment tests: TAP-style "ok - NAME" / "not ok - NAME"
# lines that tests/run_all.sh counts, a free loopback port, a portdash
# server started in the background and waited for.

# check NAME COMMAND...: runs COMMAND, prints ok/not ok.
check() {
  name=$1; shift
  if "$@"; then echo "ok - $name"; else echo "not ok - $name"; fi
}

# start_portdash BIN DB LOG [ARGS...]: serve on a free port; sets PD_URL
# and PD_PID (empty URL when it did not start within 10 s).
start_portdash() {
  bin=$1 db=$2 log=$3; shift 3
  "$bin" serve --db "$db" --listen 127.0.0.1:0 "$@" >"$log" 2>&1 &
  PD_PID=$!
  i=0; PD_URL=""
  while [ $i -lt 100 ] && [ -z "$PD_URL" ]; do
    PD_URL=$(sed -n 's/.*serving .* on \(http:[^ ]*\)\/$/\1/p' "$log"); i=$((i+1)); sleep 0.1
  done
}

# free_port: a TCP port nobody listens on now (the kernel's pick).
free_port() {
  python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])' 2>/dev/null ||
    echo $((20000 + $$ % 20000))
}

# status URL [CURL ARGS...]: the HTTP status code of a GET.
status() {
  u=$1; shift
  curl -s -o /dev/null -w '%{http_code}' "$@" "$u"
}
