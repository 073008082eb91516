#!/bin/sh
# Style checks that `make check` runs (STYLE.md point 9): line length,
# banned unsafe functions, file length.  Prints offending lines; exits 1 on any.
set -u
cd "$(dirname "$0")/.."
bad=0
files=$(git ls-files '*.c' '*.h')
for f in $files; do
  awk -v f="$f" 'length($0) > 100 { printf "%s:%d: line longer than 100 columns\n", f, NR; b=1 }
                 END { exit b }' "$f" || bad=1
  n=$(wc -l < "$f")
  if [ "$n" -gt 900 ]; then echo "$f: $n lines (split it: about 800 at most)"; bad=1; fi
done
if grep -nE '\b(strcpy|strcat|sprintf|gets|strtok|vsprintf)\s*\(' $files | grep -v 'checksrc: ok'; then
  echo "banned unsafe function above (use snprintf / explicit lengths)"; bad=1
fi
exit $bad
