#!/bin/sh
# `make fuzz`: run the libFuzzer target for FUZZ_SECONDS.  Usage:
#   run.sh FUZZER SECONDS
# The seed corpus is tests/fixtures/analyze/*, each file prefixed with the
# byte that selects its kind (0 C, 1 C++, 2 .c.src, 3 .h.src; see
# fuzz_analyze.c).  New inputs go to build/fuzz/corpus, crashes to
# build/fuzz/crash-*; the log ends with libFuzzer's "Done N runs in S
# second(s)" line when nothing was found.
set -eu
fz=$1; secs=${2:-60}
dir=$(dirname "$fz")
mkdir -p "$dir/corpus" "$dir/seed"
for f in tests/fixtures/analyze/* tests/fixtures/analyze/cases/*; do
  case $f in
    *.cpp|*.hpp|*.cc|*.cxx|*.hh|*.hxx) k='\001' ;;
    *.c.src|*.inc.src) k='\002' ;;
    *.h.src) k='\003' ;;
    *.rules|*.expect|*/cases) continue ;;
    *) k='\000' ;;
  esac
  { printf "$k"; cat "$f"; } > "$dir/seed/$(basename "$f")"
done
exec "$fz" -max_total_time="$secs" -max_len=65536 -timeout=20 -rss_limit_mb=2048 \
  -artifact_prefix="$dir/" -print_final_stats=1 "$dir/corpus" "$dir/seed"
