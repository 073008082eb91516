#!/bin/sh
# Style checks that `make check` runs (STYLE.md point 9): line length,
# banned unsafe functions, file length.  Prints offending lines; exits 1 on any.
# Fixtures are test data written to look like foreign code: not checked.
set -u
cd "$(dirname "$0")/.."
list=$(mktemp)
trap 'rm -f "$list"' EXIT
git ls-files -- '*.c' '*.h' | grep -v '^tests/fixtures/' > "$list"
bad=0
while IFS= read -r f; do
  awk -v f="$f" 'length($0) > 100 { printf "%s:%d: line longer than 100 columns\n", f, NR; b=1 }
                 END { exit b }' "$f" || bad=1
  n=$(wc -l < "$f")
  if [ "$n" -gt 900 ]; then echo "$f: $n lines (split it: about 800 at most)"; bad=1; fi
  if grep -nE '\b(strcpy|strcat|sprintf|gets|strtok|vsprintf)\s*\(' "$f" | grep -v 'checksrc: ok' |
     sed "s|^|$f:|" | grep .; then
    echo "$f: banned unsafe function above (use snprintf / explicit lengths)"; bad=1
  fi
done < "$list"
# The analyzer's door (ingest/analyzer/analyzer.h): product code outside the
# folder includes nothing else of it; tests and fuzz targets may look inside.
if git ls-files -- '*.c' '*.h' | grep -v '^ingest/analyzer/\|^tests/' |
   xargs grep -n '#include "analyzer/' | grep -v '"analyzer/analyzer.h"'; then
  echo "above: include ingest/analyzer/analyzer.h, the analyzer's one public header"; bad=1
fi
# The query layer (query/) is a floor below server/ and cli/: it includes
# no header of theirs (doc/hacking.md, layout).
above=$(git ls-files -- 'server/*.h' 'cli/*.h' | sed 's|.*/||' | tr '\n' '|' | sed 's/|$//; s/\./\\./g')
if [ -n "$above" ] && git ls-files -- 'query/*.c' 'query/*.h' |
   xargs grep -nE "#include \"($above)\"" ; then
  echo "above: query/ includes a header of server/ or cli/, the floors above it"; bad=1
fi
exit $bad
