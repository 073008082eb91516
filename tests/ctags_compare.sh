#!/bin/sh
# ctags_compare.sh: compare the function definitions found by the analyzer
# with Universal Ctags (the reference), on any repository or directory.
#
#   ctags_compare.sh [--min PCT] [--show N] PORTDASH DIR
#   ctags_compare.sh [--min PCT] [--show N] PORTDASH --git-dir GITDIR --rev REV [--path GLOB]...
#
# A definition is (path, qualified name, line of the name): ctags reports
# the line of the name, the analyzer's `name_line` is the same line (its
# start_line is the first line of the declaration, above it).  Agreement is
# matched / (matched + only-ctags + only-analyzer); for matched definitions
# the last lines are compared too.  numpy templates (.c.src, .h.src) are
# expanded first with the repository's own numpy/distutils/conv_template.py
# when it and python3 are there (both tools then read the same expanded
# text); otherwise they are left out and counted.  Differences where ctags
# is known to be wrong are recognised and counted apart (see "macro" and
# "pp" below).  Prints the figures, then up to N (default 40) differences
# of each kind; exits 1 when the raw agreement is below PCT (default 0),
# 2 on bad usage.
set -eu
min=0; show=40
while [ $# -gt 0 ]; do
  case $1 in
    --min) min=$2; shift 2 ;;
    --show) show=$2; shift 2 ;;
    *) break ;;
  esac
done
[ $# -ge 2 ] || { sed -n '2,20p' "$0" >&2; exit 2; }
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1"); shift
command -v ctags >/dev/null || { echo "ctags_compare: universal-ctags missing" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/src"
if [ "$1" = --git-dir ] || [ "$1" = --repo ]; then
  repo=$2; rev=""; shift 2
  globs=""
  while [ $# -gt 0 ]; do
    case $1 in
      --rev) rev=$2; shift 2 ;;
      --path) globs="$globs $2"; shift 2 ;;
      *) echo "ctags_compare: unknown argument $1" >&2; exit 2 ;;
    esac
  done
  [ -n "$rev" ] || { echo "ctags_compare: --rev is required" >&2; exit 2; }
  git --git-dir="$repo" archive --format=tar "$rev" | tar -x -C "$tmp/src"
  label="$repo at $rev"
  # Keep only the in-scope paths the analyzer would read.
  set --
  for g in $globs; do set -- "$@" --path "$g"; done
  "$bin" analyze --git-dir "$repo" --rev "$rev" "$@" --format json |
    sed -n 's/^  "path": "\(.*\)",$/\1/p' | sort -u > "$tmp/scope"
  (cd "$tmp/src" && find . -type f | sed 's|^\./||' | sort) > "$tmp/all"
  comm -23 "$tmp/all" "$tmp/scope" | (cd "$tmp/src" && xargs -r rm -f)
  [ -f "$tmp/src/numpy/distutils/conv_template.py" ] ||
    git --git-dir="$repo" show "$rev:numpy/distutils/conv_template.py" \
      > "$tmp/conv_template.py" 2>/dev/null || rm -f "$tmp/conv_template.py"
else
  cp -R "$1/." "$tmp/src/"
  label="$1"
  find "$tmp/src" -type f ! \( -name '*.c' -o -name '*.h' -o -name '*.inc' -o -name '*.c.src' \
    -o -name '*.h.src' -o -name '*.inc.src' -o -name '*.cpp' -o -name '*.hpp' -o -name '*.cc' \
    -o -name '*.cxx' -o -name '*.hh' -o -name '*.hxx' \) -exec rm -f {} +
fi
conv=$tmp/conv_template.py
[ -f "$conv" ] || conv=""

# Templates: expand with numpy's own processor, or leave out.
ntmpl=0; skipped=0
for f in $(cd "$tmp/src" && find . -name '*.c.src' -o -name '*.h.src' -o -name '*.inc.src'); do
  ntmpl=$((ntmpl + 1))
  if [ -n "$conv" ] && command -v python3 >/dev/null &&
     python3 -c "import sys; sys.path.insert(0, '$tmp'); import conv_template as c; \
sys.stdout.write(c.process_str(open(sys.argv[1]).read()))" "$tmp/src/$f" \
       > "$tmp/src/$f.c" 2>/dev/null; then :
  else
    skipped=$((skipped + 1)); rm -f "$tmp/src/$f.c"
  fi
  rm -f "$tmp/src/$f"
done

(cd "$tmp/src" && "$bin" analyze --format functions .) > "$tmp/an_raw"
awk -F'\t' '{sub(/^\.\//, "", $1); print $1 "\t" $2 "\t" $3 "\t" $5 "\t" $4}' "$tmp/an_raw" |
  sort -u > "$tmp/an"
# Headers are C for ctags unless the analyzer read them as C++ (a namespace
# or template at file level), so both tools parse each file alike.
awk -F'\t' '$6 == "c++" && $1 ~ /\.h$/ {print $1}' "$tmp/an_raw" | sort -u > "$tmp/cxxh"
ctx() { ctags -x --kinds-C=f --kinds-C++=f --extras=-q --fields=+ne \
          --_xformat='%{input}	%{name}	%{line}	%{end}	%{scope}' -o - "$@"; }
(cd "$tmp/src" && find . -type f | grep -vxF -f "$tmp/cxxh" |
   ctx --languages=C,C++ --langmap=C:.c.h.inc,C++:.cpp.hpp.cc.cxx.hh.hxx -L - &&
 ctx --language-force=C++ -L - < "$tmp/cxxh") |
  awk -F'\t' '{sub(/^\.\//, "", $1); n = $5 != "" ? $5 "::" $2 : $2;
               print $1 "\t" n "\t" $3 "\t" $4}' | sort -u > "$tmp/ct"

cut -f1-3 "$tmp/an" | sort > "$tmp/an3"
cut -f1-3 "$tmp/ct" | sort > "$tmp/ct3"
both=$(comm -12 "$tmp/an3" "$tmp/ct3" | wc -l)
onlya=$(comm -23 "$tmp/an3" "$tmp/ct3" | wc -l)
onlyc=$(comm -13 "$tmp/an3" "$tmp/ct3" | wc -l)
awk -F'\t' '{print $1 "|" $2 "|" $3 "\t" $4}' "$tmp/an" | sort > "$tmp/an_end"
awk -F'\t' '{print $1 "|" $2 "|" $3 "\t" $4}' "$tmp/ct" | sort > "$tmp/ct_end"
ends=$(join -t "$(printf '\t')" "$tmp/an_end" "$tmp/ct_end" | awk -F'\t' '$2 == $3' | wc -l)
files=$(cd "$tmp/src" && find . -type f | wc -l)

# Differences where ctags is known to be wrong, recognised from the data:
#  macro: ctags names a macro call line (HPyDef_SLOT(...), SIMD_IMPL_...(...))
#         written without ';' above a definition, as the function, and
#         misses the definition's own name; seen as a ctags-only and an
#         analyzer-only entry in one file with the same last line, the
#         ctags line above the analyzer's; or on the same line, where the
#         name itself is made by a macro (`void FTNC(name)(...)`: ctags
#         says FTNC, the analyzer names it from the macro's argument);
#  pp:    ctags misses a definition whose declaration has a preprocessor
#         directive between its first line and its name (numpy's
#         `static int #if ... NPY_GCC_UNROLL_LOOPS #endif name(...)`);
#  define: ctags misses a definition whose name the file also #defines as
#         a macro (in another #if branch: numpy's SIMD headers);
#  dead:  ctags reports a definition under an #if that is false as written
#         (`#if 0`, `#if (1 == 0) && 0` in expanded templates), which the
#         analyzer skips like the compiler.
comm -13 "$tmp/an3" "$tmp/ct3" | awk -F'\t' 'NR == FNR {e[$1 FS $2 FS $3] = $4; next}
  {print $0 "\t" e[$0]}' "$tmp/ct" - > "$tmp/onlyc"
comm -23 "$tmp/an3" "$tmp/ct3" | awk -F'\t' 'NR == FNR {e[$1 FS $2 FS $3] = $4 FS $5; next}
  {print $0 "\t" e[$0]}' "$tmp/an" - > "$tmp/onlya"
awk -F'\t' -v src="$tmp/src" '
  # 1 when line `at` of file f lies in a branch that is false as written:
  # `#if 0`, `#if ... && 0`, `#if 0 && ...` (and #else of `#if 1`).
  function dead(f, at,   line, n, d, k, c, st) {
    n = 0; d = 0
    while ((getline line < f) > 0 && ++n < at) {
      if (line ~ /^[ \t]*#[ \t]*if/) {
        c = line; sub(/^[ \t]*#[ \t]*if(n?def)?[ \t]*/, "", c); sub(/[ \t]*(\/[*\/].*)?$/, "", c)
        st[++d] = (c ~ /^\(?0\)?$/ || c ~ /&&[ \t]*\(?0\)?$/ || c ~ /^\(?0\)?[ \t]*&&/) ? 1 : \
                  (c ~ /^\(?1\)?$/) ? 2 : 0
      } else if (line ~ /^[ \t]*#[ \t]*(else|elif)/ && d > 0) {
        st[d] = st[d] == 2 ? 1 : 0
      } else if (line ~ /^[ \t]*#[ \t]*endif/ && d > 0) {
        d--
      }
    }
    close(f)
    for (k = 1; k <= d; k++) if (st[k] == 1) return 1
    return 0
  }
  FILENAME == ARGV[1] {c[++nc] = $0; cp[nc] = $1; cl[nc] = $3; ce[nc] = $4; next}
  {a[++na] = $0; ap[na] = $1; al[na] = $3; ae[na] = $4; as[na] = $5}
  END {
    for (i = 1; i <= nc; i++)
      for (j = 1; j <= na; j++)
        if (!ua[j] && ap[j] == cp[i] && ae[j] == ce[i] && al[j] >= cl[i]) {
          uc[i] = ua[j] = "macro"; break
        }
    for (i = 1; i <= nc; i++)
      if (!uc[i] && dead(src "/" cp[i], cl[i])) uc[i] = "dead"
    for (j = 1; j <= na; j++) {
      if (ua[j]) continue
      f = src "/" ap[j]; n = 0
      split(a[j], w, "\t"); nm = w[2]; sub(/.*::/, "", nm)
      while ((getline line < f) > 0) {
        n++
        if (n >= as[j] && n < al[j] && line ~ /^[ \t]*#/) { ua[j] = "pp"; break }
        if (line ~ "^[ \t]*#[ \t]*define[ \t]+" nm "([ \t(]|$)") { ua[j] = "define"; break }
      }
      close(f)
    }
    for (i = 1; i <= nc; i++) print "C\t" (uc[i] ? uc[i] : "-") "\t" c[i]
    for (j = 1; j <= na; j++) print "A\t" (ua[j] ? ua[j] : "-") "\t" a[j]
  }' "$tmp/onlyc" "$tmp/onlya" > "$tmp/diffs"
expl=$(awk -F'\t' '$2 != "-"' "$tmp/diffs" | wc -l)
nmacro=$(awk -F'\t' '$2 == "macro"' "$tmp/diffs" | wc -l)
npp=$(awk -F'\t' '$2 == "pp"' "$tmp/diffs" | wc -l)
ndef=$(awk -F'\t' '$2 == "define"' "$tmp/diffs" | wc -l)
ndead=$(awk -F'\t' '$2 == "dead"' "$tmp/diffs" | wc -l)
awk -v both="$both" -v a="$onlya" -v c="$onlyc" -v ends="$ends" -v files="$files" \
    -v label="$label" -v nt="$ntmpl" -v sk="$skipped" -v ex="$expl" \
    -v nm="$nmacro" -v np="$npp" -v nd="$ndef" -v ndd="$ndead" 'BEGIN {
  tot = both + a + c; agr = tot ? 100 * both / tot : 100
  printf "ctags comparison: %s\n", label
  printf "files %d (templates %d, %d expanded by numpy'"'"'s conv_template.py, %d left out)\n", \
         files, nt, nt - sk, sk
  printf "ctags %d, analyzer %d, matched %d, only ctags %d, only analyzer %d\n", \
         both + c, both + a, both, c, a
  printf "agreement %.2f%% (name + line); same last line %d of %d matched (%.2f%%)\n", \
         agr, ends, both, both ? 100 * ends / both : 100
  printf "differences where ctags is wrong: %d (macro call named as the function: %d entries; " \
         "missed by ctags: %d with a directive inside the declaration, %d whose name is " \
         "also a #define; dead code under a false #if, reported by ctags: %d)\n", ex, nm, np, nd, ndd
  printf "agreement counting those as agreeing %.2f%%; unexplained differences %d\n", \
         tot ? 100 * (both + ex) / tot : 100, a + c - ex
}'
if [ "$show" -gt 0 ]; then
  echo "-- unexplained, only ctags (path, name, line, last line):"
  awk -F'\t' '$1 == "C" && $2 == "-" {print $3 "\t" $4 "\t" $5 "\t" $6}' "$tmp/diffs" | head -n "$show"
  echo "-- unexplained, only analyzer (path, name, name line, last line, first line):"
  awk -F'\t' '$1 == "A" && $2 == "-" {print $3 "\t" $4 "\t" $5 "\t" $6 "\t" $7}' "$tmp/diffs" | head -n "$show"
  echo "-- explained (kind, path, name, line):"
  awk -F'\t' '$2 != "-" {print $2 "\t" ($1 == "C" ? "ctags" : "analyzer") "\t" $3 "\t" $4 "\t" $5}' \
    "$tmp/diffs" | head -n "$show"
fi
awk -v both="$both" -v a="$onlya" -v c="$onlyc" -v min="$min" 'BEGIN {
  tot = both + a + c; exit (tot && 100 * both / tot < min) ? 1 : 0 }'
