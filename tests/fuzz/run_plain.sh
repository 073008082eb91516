#!/bin/sh
# `make fuzz-sarif`, `make fuzz-http`: run a libFuzzer target for SECONDS
# from a seed directory.  Usage: run_plain.sh FUZZER SECONDS SEED_DIR
# New inputs go to DIR/corpus-NAME, crashes to DIR/NAME-crash-* (DIR is the
# fuzzer's directory); the log ends with libFuzzer's "Done N runs in S
# second(s)" line when nothing was found.
set -eu
fz=$1; secs=${2:-60}; seeds=$3
dir=$(dirname "$fz"); name=$(basename "$fz")
mkdir -p "$dir/corpus-$name"
exec "$fz" -max_total_time="$secs" -max_len=65536 -timeout=20 -rss_limit_mb=2048 \
  -artifact_prefix="$dir/$name-" -print_final_stats=1 "$dir/corpus-$name" "$seeds"
