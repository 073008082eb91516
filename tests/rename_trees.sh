#!/bin/sh
# rename_trees.sh: the renaming tests (tests/unit/test_rename.c,
# test_rename_tmpl.c) on real trees: every C/C++ source and numpy template
# of each GITDIR at REV (git archive into a temporary directory), through
# PORTDASH_RENAME_LIST.  Prints each binary's summary line; exit status 1
# when one fails (its message says the file and the first difference).
# Run from the repository root, after
#   make SAN=1 build-san/tests/test_rename build-san/tests/test_rename_tmpl
# Usage: tests/rename_trees.sh GITDIR:REV [GITDIR:REV...]
#   e.g. tests/rename_trees.sh /srv/numpy-hpy.git:hpy /srv/kiwi.git:HEAD
# BUILD_DIR (default build-san) names the build whose tests run.
set -eu
[ $# -gt 0 ] || { sed -n 's/^# Usage: /usage: /p' "$0" >&2; exit 2; }
b=${BUILD_DIR:-build-san}
for t in test_rename test_rename_tmpl; do
  [ -x "$b/tests/$t" ] || { echo "rename_trees.sh: $b/tests/$t missing (make SAN=1 $b/tests/$t)" >&2; exit 2; }
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
i=0
for spec in "$@"; do
  gitdir=${spec%:*}
  rev=${spec##*:}
  [ "$gitdir" != "$spec" ] || { echo "rename_trees.sh: $spec: want GITDIR:REV" >&2; exit 2; }
  i=$((i + 1))
  mkdir "$tmp/$i"
  # A blob the clone lacks (a partial mirror) leaves that file out, not the tree.
  git --git-dir="$gitdir" archive "$rev" | tar -x -C "$tmp/$i" 2>/dev/null || \
    echo "rename_trees.sh: $spec: the archive stopped early; its files so far are checked" >&2
done
find "$tmp" -type f \( -name '*.c' -o -name '*.h' -o -name '*.inc' -o -name '*.cpp' \
  -o -name '*.hpp' -o -name '*.cc' -o -name '*.cxx' -o -name '*.hh' -o -name '*.hxx' \
  -o -name '*.c.src' -o -name '*.h.src' -o -name '*.inc.src' \) | sort > "$tmp/list"
echo "rename_trees.sh: $(wc -l < "$tmp/list") files of $#" "tree(s)"
rc=0
for t in test_rename test_rename_tmpl; do
  if PORTDASH_RENAME_LIST="$tmp/list" "$b/tests/$t" > "$tmp/out" 2>&1; then
    grep '^rename:' "$tmp/out"
  else
    grep -E '^rename:|ERROR|original:|renamed:' "$tmp/out" | head -20
    echo "rename_trees.sh: $t failed"
    rc=1
  fi
done
exit $rc
