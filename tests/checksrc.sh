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
# The daemon (server/srv.c) calls the handlers through the route table;
# handlers call only leaves (srv_req.c, srv_reply.c, srv_page.c,
# srv_auth.c), so no file of server/ but srv.c includes srv.h, and the
# server's state (srv_int.h) is read by srv.c and srv_req.c alone.
if git grep -n '#include "srv\.h"' -- 'server/*.c' 'server/*.h' ':!server/srv.c'; then
  echo "above: a handler or helper includes srv.h (use srv_req.h, srv_reply.h, srv_page.h, srv_auth.h)"; bad=1
fi
if git grep -n '#include "srv_int\.h"' -- '*.c' '*.h' ':!server/srv.c' ':!server/srv_req.c'; then
  echo "above: only server/srv.c and server/srv_req.c read the server's state (srv_int.h)"; bad=1
fi
# One SARIF home (sarif/): the reader and the writer (sarif_write*.c), which
# reads report/'s analysed files; report/ sits below and includes nothing
# of sarif/, so the two folders do not call each other in a circle.
if git grep -n '#include "sarif' -- 'report/*.c' 'report/*.h'; then
  echo "above: report/ includes sarif/ (the SARIF writer is above report/, not below)"; bad=1
fi
# One word per meaning (doc/hacking.md#words): "scope" is a named report
# scope; the ingest's globs are the path filter (pathfilter.h), what a
# token may do a permission.  The old names of the other two stay gone.
if git grep -nE '\bscope_(contains|glob_match|globs_contain|to_json)\b|"scope\.h"|_has_scope\b|\bsrv_route_scope\b|\ban_path_in_scope\b|ingest_scope_dirs' -- '*.c' '*.h' ':!tests/fixtures/'; then
  echo "above: 'scope' used for a path filter or a token permission (doc/hacking.md#words)"; bad=1
fi
# The query layer (query/) is a floor below server/ and cli/: it includes
# no header of theirs (doc/hacking.md, layout).
above=$(git ls-files -- 'server/*.h' 'cli/*.h' | sed 's|.*/||' | tr '\n' '|' | sed 's/|$//; s/\./\\./g')
if [ -n "$above" ] && git ls-files -- 'query/*.c' 'query/*.h' |
   xargs grep -nE "#include \"($above)\"" ; then
  echo "above: query/ includes a header of server/ or cli/, the floors above it"; bad=1
fi
# No function over 80 lines, from its first line to its closing brace, as
# Universal Ctags sees it (doc/hacking.md, layout): a longer one is split
# into steps that each say what they do.
if command -v ctags >/dev/null; then
  git ls-files -- '*.c' '*.h' | grep -v '^tests/fixtures/' |
    ctags -L - --languages=C --kinds-C=f --fields=+ne -f - |
    awk -F'\t' '{ l = e = ""
                  for (i = 4; i <= NF; i++) { if ($i ~ /^line:/) l = substr($i, 6)
                                              if ($i ~ /^end:/) e = substr($i, 5) }
                  if (e != "" && e - l + 1 > 80) {
                    printf "%s:%s: %s is %d lines (80 at most: split it)\n", $2, l, $1, e - l + 1; b = 1 } }
                END { exit b }' || bad=1
else
  echo "checksrc: universal-ctags missing, function lengths not checked (run make deps)"; bad=1
fi
# The same bound for the dashboard's and the tests' JavaScript, whose
# functions at file level start at the first column and end with a "}" there
# (the code's one formatting): a function longer than 80 lines is split too.
git ls-files -- 'static/*.mjs' 'static/*.js' 'tests/*.mjs' 'tests/*.js' | grep -v '^tests/fixtures/' |
  while IFS= read -r f; do
    awk -v f="$f" '/^(export )?(async )?function[ *]/ { s = NR; n = $0 }
                   /^}/ && s { if (NR - s + 1 > 80) { sub(/\(.*/, "", n)
                                 printf "%s:%d: %s is %d lines (80 at most: split it)\n", f, s, n, NR - s + 1; b = 1 }
                               s = 0 }
                   END { exit b }' "$f" || :
  done | grep . && bad=1
exit $bad
