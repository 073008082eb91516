#!/bin/sh
# Self-test of the measure of truth (tests/bench/truth.sh) on the fixture
# repository tests/fixtures/truth and its labels, so the script cannot rot
# while the real repositories are not at hand.  make test runs it.
# Usage: truth_test.sh PORTDASH FIXTURES_DIR   (FIXTURES_DIR holds truth.git)
# Prints "ok - NAME" / "not ok - NAME" lines.
set -u
pd=$1; fx=$2
root=$(cd "$(dirname "$0")/../.." && pwd)
labels=$root/tests/fixtures/truth/labels.tsv
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
check() { if eval "$2"; then echo "ok - $1"; else echo "not ok - $1"; fi; }

sh "$root/tests/bench/truth.sh" "$pd" "$labels" truthfx "$fx/truth.git" main 'src/**' \
  >"$out/run" 2>"$out/err"
rc=$?
check "truth: exit 0 with disagreements (a measure)" '[ "$rc" -eq 0 ]'
check "truth: 8 compared, the port not given skipped" \
  'grep -q "^measure of truth: 8 labelled functions compared (1 skipped" "$out/run"'
# Five right statuses of eight: the wrong label and the two missing ones fail.
check "truth: status agreement counted" 'grep -Eq "^all +8 +5/8 " "$out/run"'
check "truth: per port and ref" 'grep -Eq "^  truthfx@main +8 +5/8 " "$out/run"'
check "truth: a wrong label is listed with its reason" \
  'grep -q "clear_items: status expected neutral, got legacy -- wrong on purpose" "$out/run"'
check "truth: a missing function is a disagreement" \
  'grep -q "no_such_function: not found" "$out/run"'
check "truth: a missing file is a disagreement" 'grep -q "src/missing.c gone: not found" "$out/run"'
check "truth: a template instance is found by its name" \
  'grep -q "^disagreements:" "$out/run" && ! grep -q "OBJECT_copy" "$out/run"'
check "truth: three disagreeing functions" 'grep -q "^disagreements: 3 functions" "$out/run"'

# Errors are errors: a label line with six fields, an unknown state, a
# repository that cannot be ingested.
printf 'repo\trev\tpath\tfunction\tstatus\tobject_state\treason\nx\tmain\ta.c\tf\tported\t-\n' \
  >"$out/bad1.tsv"
sh "$root/tests/bench/truth.sh" "$pd" "$out/bad1.tsv" >/dev/null 2>"$out/err1"
rc=$?
check "truth: a short label line is an error" '[ "$rc" -ne 0 ] && grep -q "6 fields" "$out/err1"'
printf 'repo\trev\tpath\tfunction\tstatus\tobject_state\treason\nx\tmain\ta.c\tf\tported\tobject-mixed\tr\n' \
  >"$out/bad2.tsv"
sh "$root/tests/bench/truth.sh" "$pd" "$out/bad2.tsv" >/dev/null 2>"$out/err2"
rc=$?
check "truth: an unknown object state is an error" '[ "$rc" -ne 0 ] && grep -q "object-mixed" "$out/err2"'
sh "$root/tests/bench/truth.sh" "$pd" "$labels" truthfx "$out/none.git" main - >/dev/null 2>&1
rc=$?
check "truth: a failed ingest is an error" '[ "$rc" -ne 0 ]'
