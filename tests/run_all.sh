#!/bin/sh
# The one test runner behind `make test`.  Usage: run_all.sh BUILD_DIR
# Runs every unit/ingest/API test binary (cmocka), the HTTP cases of
# tests/http/, then the browser tests (node --test with playwright-core and
# Debian's chromium), and ends with one line "N passed, M failed".
set -u
B=${1:-build-san}
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
out=$(mktemp -d)
trap 'rm -rf "$out"; [ -n "${srv_pid:-}" ] && kill "$srv_pid" 2>/dev/null' EXIT
passed=0; failed=0; broken=""

# Fixture repositories, built fresh from tests/fixtures by git.
mkdir -p "$B/fixtures"
for fx in tests/fixtures/*/; do
  [ -f "$fx/COMMIT" ] && continue
  ls "$fx"/*/COMMIT >/dev/null 2>&1 || continue
  sh tests/repo/make_repo.sh "$fx" "$B/fixtures/$(basename "$fx").git" || exit 1
done
export PORTDASH_FIXTURES="$root/$B/fixtures"
export PORTDASH_ROOT="$root"
# Leaks are findings too; libgit2/MHD keep a few process-lifetime caches.
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0
export LSAN_OPTIONS=suppressions=$root/tests/lsan.supp:print_suppressions=0
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1

for t in "$B"/tests/test_*; do
  [ -x "$t" ] || continue
  name=$(basename "$t")
  "$t" >"$out/$name.log" 2>&1
  rc=$?
  cat "$out/$name.log"
  p=$(sed -n 's/^\[  PASSED  \] \([0-9]*\) test.*/\1/p' "$out/$name.log" | tail -n1)
  f=$(sed -n 's/^\[  FAILED  \] \([0-9]*\) test.*/\1/p' "$out/$name.log" | tail -n1)
  passed=$((passed + ${p:-0})); failed=$((failed + ${f:-0}))
  if [ "$rc" -ne 0 ] && [ -z "$f" ]; then
    failed=$((failed + 1)); broken="$broken $name"   # crashed before its summary
  fi
done

# Function boundaries against Universal Ctags on tests/fixtures/ctags (C,
# C++, numpy shapes): one test, every definition must agree.
if command -v ctags >/dev/null; then
  if sh tests/ctags_compare.sh --min 100 --show 5 "$B/portdash" tests/fixtures/ctags \
       >"$out/ctags.log" 2>&1; then passed=$((passed + 1)); else failed=$((failed + 1)); fi
  cat "$out/ctags.log"
else
  echo "ctags comparison: universal-ctags missing (run make deps)"; failed=$((failed + 1))
fi

# The release build (build/portdash, its analyzer compiled with the
# profile of a training run: Makefile, "Profile-guided optimisation") must
# give what the sanitizer build gives: the analysis of every fixture in
# every format (standard output and exit status; the training's own
# inputs), and the ingests of two fixture repositories, which analyse
# through the chunk memo (every table by tests/tools/dump_db.py, the run's
# times left out).  One test; make test builds the release binary.
rel_run() {   # BIN TAG: what the check compares, into $out/TAG.*
  for f in json text functions sarif; do
    "$1" analyze --format "$f" tests/fixtures >"$out/$2.$f" 2>/dev/null
    echo "exit $?" >>"$out/$2.$f"
  done
  "$1" ingest --quiet --db "$out/$2.db" --git-dir "$B/fixtures/toyport.git" --name toy \
      --ref hpy --ref hpy-convert-object-dtype >/dev/null 2>&1 &&
    "$1" ingest --quiet --db "$out/$2.db" --git-dir "$B/fixtures/callgraph.git" --name cg \
      --ref hpy --ref convert >/dev/null 2>&1 &&
    python3 tests/tools/dump_db.py "$out/$2.db" >"$out/$2.ingest" 2>&1
}
if [ "$B" = build ]; then
  echo "the release build against $B: skipped, $B is the release build"
elif [ -x build/portdash ]; then
  differs=""; what="json text functions sarif ingest"
  # A failed ingest is a failure, even when both builds fail alike.
  rel_run build/portdash release || differs=" ingest (it failed with the release build)"
  rel_run "$B/portdash" san || differs="$differs ingest (it failed with $B)"
  [ -n "$differs" ] && what="json text functions sarif"
  for f in $what; do
    if ! cmp -s "$out/san.$f" "$out/release.$f"; then
      differs="$differs $f"
      diff "$out/san.$f" "$out/release.$f" | head -n 6
    fi
  done
  if [ -z "$differs" ]; then
    echo "ok - the release build analyses and ingests the fixtures as $B does"
    passed=$((passed + 1))
  else
    echo "not ok - the release build against $B:$differs (a diff of $B's and the release" \
         "build's above; make PGO=0 all builds it without the profile)"
    failed=$((failed + 1))
  fi
else
  echo "not ok - build/portdash missing (make test builds it)"; failed=$((failed + 1))
fi

# Connection exhaustion (tests/stress/): slowloris and a burst against a real
# server, about 15 s; two results.
if [ -x "$B/stress_conn" ]; then
  sh tests/stress/run.sh "$B/portdash" "$B/stress_conn" >"$out/stress.log" 2>&1
  cat "$out/stress.log"
  p=$(sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed$/\1/p' "$out/stress.log" | tail -n1)
  f=$(sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed$/\2/p' "$out/stress.log" | tail -n1)
  passed=$((passed + ${p:-0})); failed=$((failed + ${f:-1}))
else
  echo "stress: $B/stress_conn missing (make test builds it)"; failed=$((failed + 1))
fi

# Node tests (tests/node/): portdash analyze --format sarif against the
# published SARIF 2.1.0 schema.
if [ -d tests/node ] && [ -d node_modules/ajv ]; then
  PORTDASH_BIN="$root/$B/portdash" node --test --test-reporter=tap tests/node/ >"$out/node.log" 2>&1
  cat "$out/node.log"
  p=$(sed -n 's/^# pass \([0-9]*\)/\1/p' "$out/node.log" | tail -n1)
  f=$(sed -n 's/^# fail \([0-9]*\)/\1/p' "$out/node.log" | tail -n1)
  passed=$((passed + ${p:-0})); failed=$((failed + ${f:-1}))
else
  echo "node tests: ajv missing (run make deps)"; failed=$((failed + 1))
fi

# Deployment: make install, the installed binary serving from the installed
# files, the man page, the systemd units, nginx in front (tests/deploy/).
# Each script prints "ok - NAME" / "not ok - NAME" lines.
for t in install nginx; do
  case $t in
    install) sh tests/deploy/install.sh "$B" "$B/fixtures" >"$out/deploy-$t.log" 2>&1 ;;
    nginx) sh tests/deploy/nginx.sh "$root/$B/portdash" "$root/$B/fixtures" >"$out/deploy-$t.log" 2>&1 ;;
  esac
  rc=$?
  cat "$out/deploy-$t.log"
  p=$(grep -c '^ok ' "$out/deploy-$t.log"); f=$(grep -c '^not ok ' "$out/deploy-$t.log")
  passed=$((passed + p)); failed=$((failed + f))
  if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then failed=$((failed + 1)); broken="$broken deploy-$t"; fi
done

# The measure of truth's script on its fixture (tests/bench/truth_test.sh).
sh tests/bench/truth_test.sh "$root/$B/portdash" "$root/$B/fixtures" >"$out/truth.log" 2>&1
rc=$?
cat "$out/truth.log"
p=$(grep -c '^ok ' "$out/truth.log"); f=$(grep -c '^not ok ' "$out/truth.log")
passed=$((passed + p)); failed=$((failed + f))
if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then failed=$((failed + 1)); broken="$broken truth"; fi

# HTTP cases as data (tests/http/*.case, tests/http/README.md): one request
# and its expected answer per file, run by tests/http/run.mjs against a real
# server with the toyport fixture as "demo" (weekly snapshots backfilled),
# gcport as "gc", fixport (the rewrites of portdash fix) as "fx", forked
# (a port rebased onto a newer upstream) as "fk" and toyport's src/toyarray.c
# alone as "inc" (a path filter).
if command -v node >/dev/null; then
  hdb="$out/http.db"
  { "$B/portdash" ingest --quiet --db "$hdb" --git-dir "$B/fixtures/toyport.git" --name demo \
      --ref hpy --ref hpy-convert-object-dtype &&
    "$B/portdash" ingest --quiet --db "$hdb" --git-dir "$B/fixtures/gcport.git" --name gc --ref hpy &&
    "$B/portdash" ingest --quiet --db "$hdb" --git-dir "$B/fixtures/fixport.git" --name fx \
      --ref hpy --ref pr &&
    "$B/portdash" ingest --quiet --db "$hdb" --git-dir "$B/fixtures/forked.git" --name fk --ref hpy &&
    "$B/portdash" ingest --quiet --db "$hdb" --git-dir "$B/fixtures/toyport.git" --name inc \
      --ref hpy --include src/toyarray.c &&
    "$B/portdash" snapshot --db "$hdb" --name demo --backfill --since 2020-11-30 \
      --until 2021-12-31 >/dev/null &&
    "$B/portdash" snapshot --db "$hdb" --name gc --backfill --since 2021-03-01 \
      --until 2021-03-31 >/dev/null; } || echo "http cases: setup failed"
  # The write cases (tests/http/writes/) upload, dismiss and ingest with it.
  htok=$("$B/portdash" token create --db "$hdb" --name http --scope sarif --scope triage \
      --scope ingest --scope admin 2>/dev/null)
  "$B/portdash" serve --db "$hdb" --listen 127.0.0.1:0 --static static >"$out/http-serve.log" 2>&1 &
  srv_pid=$!
  i=0; url=""
  while [ $i -lt 100 ] && [ -z "$url" ]; do
    url=$(sed -n 's/.*serving .* on \(http:[^ ]*\)\/$/\1/p' "$out/http-serve.log"); i=$((i+1)); sleep 0.1
  done
  if [ -n "$url" ]; then
    node tests/http/run.mjs --url "$url" --git demo="$B/fixtures/toyport.git" \
      --git gc="$B/fixtures/gcport.git" --git fx="$B/fixtures/fixport.git" --git fk="$B/fixtures/forked.git" \
      --token "$htok" >"$out/http.log" 2>&1
    cat "$out/http.log"
    p=$(sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed$/\1/p' "$out/http.log" | tail -n1)
    f=$(sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed$/\2/p' "$out/http.log" | tail -n1)
    passed=$((passed + ${p:-0})); failed=$((failed + ${f:-1}))
  else
    echo "http cases: server did not start"; cat "$out/http-serve.log"; failed=$((failed + 1))
  fi
  kill "$srv_pid" 2>/dev/null; wait "$srv_pid" 2>/dev/null; srv_pid=""
else
  echo "http cases: node missing (run make deps)"; failed=$((failed + 1))
fi

# Browser tests against a real server on a free port with the demo data.
if [ -d tests/browser ] && [ -x /usr/bin/chromium ] && [ -d node_modules/playwright-core ]; then
  db="$out/browser.db"
  # lifecycle.test.mjs: a blobless clone of the toyport fixture (first:
  # once demo's analyses are stored its blobs are known), and a repository
  # row without data (what a failed first run used to leave).
  { git clone -q --bare "$B/fixtures/toyport.git" "$out/src.git" &&
    git -C "$out/src.git" config uploadpack.allowFilter true &&
    git clone -q --bare --filter=blob:none "file://$out/src.git" "$out/partial.git" &&
    "$B/portdash" ingest --quiet --db "$db" --git-dir "$out/partial.git" --name partial --ref hpy &&
    sqlite3 "$db" "INSERT INTO repos (name, path, scope, created_at) VALUES ('empty', \
      '/nonexistent', '{\"include\":[],\"exclude\":[]}', 0)"; } \
    || { echo "browser: lifecycle setup failed"; failed=$((failed+1)); }
  "$B/portdash" ingest --quiet --db "$db" --git-dir "$B/fixtures/toyport.git" --name demo \
    --ref hpy --ref hpy-convert-object-dtype || { echo "browser: ingest failed"; failed=$((failed+1)); }
  # lostblob (missing.test.mjs): a port without object dtype whose clone
  # lacks one file's blob, as ultrajson-hpy's mirror lacks gay-*.cc's.
  lb="$B/fixtures/lostblob.git"
  { gone=$(git --git-dir "$lb" rev-parse hpy:tests/table-fixed.cc) &&
    git init -q --bare "$out/lostblob.git" &&
    git --git-dir "$lb" rev-list --objects --all | cut -d' ' -f1 | grep -v "^$gone\$" |
      git --git-dir "$lb" pack-objects -q "$out/lostblob.git/objects/pack/pack" >/dev/null &&
    git --git-dir "$out/lostblob.git" update-ref refs/heads/hpy "$(git --git-dir "$lb" rev-parse hpy)" &&
    "$B/portdash" ingest --quiet --db "$db" --git-dir "$out/lostblob.git" --name lostblob --ref hpy; } \
    || { echo "browser: lostblob setup failed"; failed=$((failed+1)); }
  # The gcport fixture for the traverse and frontier panels (port.test.mjs).
  "$B/portdash" ingest --quiet --db "$db" --git-dir "$B/fixtures/gcport.git" --name gcport \
    --ref hpy || { echo "browser: gcport ingest failed"; failed=$((failed+1)); }
  # The fixport fixture for the suggested changes of the file page (fixes.test.mjs).
  "$B/portdash" ingest --quiet --db "$db" --git-dir "$B/fixtures/fixport.git" --name fixport \
    --ref hpy --ref pr || { echo "browser: fixport ingest failed"; failed=$((failed+1)); }
  # A branch rebased so that commits are dated before their parents (the
  # trend by author date, truth2.test.mjs).
  "$B/portdash" ingest --quiet --db "$db" --git-dir "$B/fixtures/reordered.git" --name reordered \
    --ref main || { echo "browser: reordered ingest failed"; failed=$((failed+1)); }
  # A ref without a port: main cut back to reordered's first commit (no HPy
  # token, and a main line has no upstream) (history.test.mjs).
  { git clone -q --bare "$B/fixtures/reordered.git" "$out/noport.git" &&
    git --git-dir="$out/noport.git" update-ref refs/heads/main \
      "$(git --git-dir="$out/noport.git" rev-list --reverse main | head -n 1)" &&
    "$B/portdash" ingest --quiet --db "$db" --git-dir "$out/noport.git" --name noport \
      --ref main; } || { echo "browser: noport setup failed"; failed=$((failed+1)); }
  # Template names, the first screen and the gate table (pages.test.mjs).
  "$B/portdash" ingest --quiet --db "$db" --git-dir "$B/fixtures/pagesport.git" --name pagesport \
    --ref hpy --ref main || { echo "browser: pagesport ingest failed"; failed=$((failed+1)); }
  # A port rebased onto a newer upstream base (porttrend.test.mjs).
  "$B/portdash" ingest --quiet --db "$db" --git-dir "$B/fixtures/forked.git" --name forked \
    --ref hpy || { echo "browser: forked ingest failed"; failed=$((failed+1)); }
  # A state given through two calls in three files (truth.test.mjs).
  "$B/portdash" ingest --quiet --db "$db" --git-dir "$B/fixtures/objchain.git" --name objchain \
    --ref hpy || { echo "browser: objchain ingest failed"; failed=$((failed+1)); }
  # Weekly snapshots of the demo, so the snapshots page has rows to check.
  "$B/portdash" snapshot --db "$db" --name demo --backfill --since 2020-11-30 \
    --until 2021-12-31 >/dev/null || { echo "browser: snapshot failed"; failed=$((failed+1)); }
  # gcport: a backfill up to 2022-02-13, then a live snapshot this week (a
  # standstill of years between them, truth2.test.mjs: forecasts in calendar time).
  { "$B/portdash" snapshot --db "$db" --name gcport --backfill --since 2021-02-22 \
      --until 2022-02-13 && "$B/portdash" snapshot --db "$db" --name gcport; } >/dev/null \
    || { echo "browser: gcport snapshot failed"; failed=$((failed+1)); }
  # A token for triage.test.mjs (SARIF upload and a dismissal).
  tok=$("$B/portdash" token create --db "$db" --name browser --scope sarif --scope triage 2>/dev/null)
  "$B/portdash" serve --db "$db" --listen 127.0.0.1:0 --static static >"$out/serve.log" 2>&1 &
  srv_pid=$!
  i=0; url=""
  while [ $i -lt 100 ] && [ -z "$url" ]; do
    url=$(sed -n 's/.*serving .* on \(http:[^ ]*\)\/$/\1/p' "$out/serve.log"); i=$((i+1)); sleep 0.1
  done
  if [ -n "$url" ]; then
    PORTDASH_URL=$url PORTDASH_TOKEN=$tok node --test --test-reporter=tap tests/browser/ >"$out/browser.log" 2>&1
    cat "$out/browser.log"
    p=$(sed -n 's/^# pass \([0-9]*\)/\1/p' "$out/browser.log" | tail -n1)
    f=$(sed -n 's/^# fail \([0-9]*\)/\1/p' "$out/browser.log" | tail -n1)
    passed=$((passed + ${p:-0})); failed=$((failed + ${f:-1}))
    # A failure may be the server's (a sanitizer's report, an exit): its
    # log is the only place that says so.
    if [ "${f:-1}" != 0 ] || ! kill -0 "$srv_pid" 2>/dev/null; then
      echo "browser: the server's log (last 80 lines):"; tail -n 80 "$out/serve.log"
    fi
  else
    echo "browser: server did not start"; cat "$out/serve.log"; failed=$((failed + 1))
  fi
  kill "$srv_pid" 2>/dev/null; wait "$srv_pid" 2>/dev/null; srv_pid=""
else
  echo "browser tests: chromium or playwright-core missing (run make deps)"; failed=$((failed + 1))
fi

[ -n "$broken" ] && echo "crashed before reporting:$broken"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
