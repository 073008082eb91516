#!/bin/sh
# Do the rewrites of `portdash fix` compile?  (issue 25, doc/fixes.md)
#
# usage: fix_compile.sh PORTDASH HPY_INCLUDE GITDIR REV [GLOB...]
#
# Reads revision REV of GITDIR (the paths matching the globs), applies the
# diff `portdash fix` prints with `git apply`, and compiles every rewritten
# file, before and after, with `cc -fsyntax-only` against HPy's headers
# (HPY_INCLUDE: hpy/devel/include of a checkout of hpyproject/hpy at a tag)
# and CPython's (PY_INCLUDE, default python3-config's), in the CPython ABI
# (-DHPY_ABI_CPYTHON) and the universal ABI (-DHPY_ABI_UNIVERSAL).  Every
# directory of the tree that holds a header is on the include path, with
# EXTRA_CFLAGS after (FIX_ARGS: more options of portdash fix, --hpy V);
# only the globs' paths and ARCHIVE_PATHS are read.  A fix "compiles" when
# the rewritten file has no diagnostic error on the lines it changed
# (FIX_SHOW=1 prints those that do); a file stopped by a fatal
# error (a missing generated header) counts apart and its fixes do not.
# One line per ABI on stdout:
#   ABI files=N fatal=F clean_before=B clean_after=A fixes=X compile=C errors_before=E errors_after=G
set -u
pd=$1; hpy=$2; gd=$3; rev=$4; shift 4
py=${PY_INCLUDE:-$(python3 -c 'import sysconfig; print(sysconfig.get_paths()["include"])')}
cc=${CC:-cc}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/a"
# the paths of the globs only (a partial clone may lack other blobs; a
# glob DIR/** is read as DIR), and ARCHIVE_PATHS (more paths: headers the
# files include)
globs=""; specs=""
for g in "$@"; do globs="$globs --path $g"; specs="$specs ${g%/\*\*}"; done
# shellcheck disable=SC2086
git --git-dir "$gd" ls-tree -r "$rev" -- ${specs:-.} ${ARCHIVE_PATHS:-} |
while read -r mode type oid p; do
  [ "$type" = blob ] || continue          # a submodule is not read
  mkdir -p "$tmp/a/$(dirname "$p")"
  git --git-dir "$gd" cat-file blob "$oid" > "$tmp/a/$p" || exit 1
done || exit 1
# shellcheck disable=SC2086
"$pd" fix --git-dir "$gd" --rev "$rev" $globs ${FIX_ARGS:-} > "$tmp/fix.diff" 2>"$tmp/fix.err"
# shellcheck disable=SC2086
"$pd" fix --git-dir "$gd" --rev "$rev" $globs ${FIX_ARGS:-} --check > "$tmp/offers" 2>>"$tmp/fix.err"
cp -R "$tmp/a" "$tmp/b"
if [ -s "$tmp/fix.diff" ]; then
  (cd "$tmp/b" && git apply "$tmp/fix.diff") || { echo "git apply failed"; exit 1; }
fi
incs=$(cd "$tmp/a" && find . -name '*.h' -exec dirname {} \; | sort -u | sed 's|^|-I|')
files=$(sed -n 's|^diff --git a/\(.*\) b/.*|\1|p' "$tmp/fix.diff")
# HPy 0.9.0 and later name the ABI with HPY_ABI_CPYTHON / HPY_ABI_UNIVERSAL;
# 0.0.x compiles for CPython by default and universal with HPY_UNIVERSAL_ABI
if grep -q HPY_ABI_UNIVERSAL "$hpy/hpy.h"; then
  def_CPYTHON=-DHPY_ABI_CPYTHON; def_UNIVERSAL=-DHPY_ABI_UNIVERSAL
else
  def_CPYTHON=-DHPY_ABI_DEFAULT_CPYTHON; def_UNIVERSAL=-DHPY_UNIVERSAL_ABI
fi
# a call without a declaration (a CPython function in universal mode) and a
# handle passed as a pointer are errors, as they would be at link or run time
werr="-Werror=implicit-function-declaration -Werror=int-conversion -Werror=incompatible-pointer-types"
for abi in CPYTHON UNIVERSAL; do
  eval "abidef=\$def_$abi"
  n=0; fatal=0; cb=0; ca=0; fixes=0; ok=0; eb=0; ea=0
  for f in $files; do
    n=$((n + 1))
    for side in a b; do
      # shellcheck disable=SC2086
      (cd "$tmp/$side" && $cc -fsyntax-only -std=gnu11 $werr $abidef -I"$hpy" -I"$py" \
         $(echo "$incs" | sed "s|-I\./|-I$tmp/$side/|; s|-I$|-I$tmp/$side|") ${EXTRA_CFLAGS:-} \
         "$f") >"$tmp/$side.log" 2>&1
      echo $? > "$tmp/$side.rc"
    done
    if grep -q "fatal error" "$tmp/a.log" "$tmp/b.log"; then
      fatal=$((fatal + 1)); grep -h "fatal error" "$tmp/a.log" | head -1 >&2; continue
    fi
    [ "$(cat "$tmp/a.rc")" = 0 ] && cb=$((cb + 1))
    [ "$(cat "$tmp/b.rc")" = 0 ] && ca=$((ca + 1))
    eb=$((eb + $(grep -c ": error:" "$tmp/a.log")))
    ea=$((ea + $(grep -c ": error:" "$tmp/b.log")))
    for line in $(grep "^$f:" "$tmp/offers" | cut -d: -f2); do
      fixes=$((fixes + 1))
      if grep -q "^$f:$line:[0-9]*: error:" "$tmp/b.log"; then
        [ -n "${FIX_SHOW:-}" ] && grep "^$f:$line:[0-9]*: error:" "$tmp/b.log" >&2
      else
        ok=$((ok + 1))
      fi
    done
  done
  echo "$abi files=$n fatal=$fatal clean_before=$cb clean_after=$ca fixes=$fixes compile=$ok" \
       "errors_before=$eb errors_after=$ea"
done
