#!/bin/sh
# Linearity check of the analyzer (part of `make bench`, never a timed unit
# test): for each hostile input shape, time `portdash analyze` on 1 MB and
# on 10 MB of it and print the ratio of the times; linear time gives about
# 10, and a ratio above 15 is flagged.  Usage: linear.sh PORTDASH
set -eu
bin=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# gen KIND BYTES FILE: write BYTES bytes of input shape KIND.
gen() {
  case $1 in
    functions) yes 'static PyObject *
f(HPyContext *ctx)
{
    /* { */ return HPy_AsPyObject(ctx, "}");
}' ;;
    braces) { printf 'int deep(void)\n'; head -c $(($2 / 2)) /dev/zero | tr '\0' '{';
              head -c $(($2 / 2)) /dev/zero | tr '\0' '}'; } ;;
    parens) { printf 'int f'; head -c "$2" /dev/zero | tr '\0' '('; } ;;
    comment) { printf 'int a;\n/* never closed'; yes 'x { y } "z'; } ;;
    string) { printf 'int a = "'; yes 'never closed { ( \\'; } ;;
    binary) head -c "$2" /dev/urandom ;;
    nul_crlf) yes "$(printf 'int f(void)\r\n{\000\377 return 0; }\r')" ;;
    ifdeep) yes '#if X' ;;
    template) yes '/**begin repeat #T=A,B,C# */
int @T@_f(void){return 0;}
/**end repeat**/' ;;
  esac | head -c "$2" > "$3"
}

# cpu FILE: seconds (wall, one core) of one analysis of FILE, the mean of
# 5 runs.
cpu() {
  s=$(date +%s.%N)
  for i in 1 2 3 4 5; do "$bin" analyze --format functions "$1" > /dev/null; done
  e=$(date +%s.%N)
  echo "$s $e" | awk '{printf "%.4f", ($2 - $1) / 5}'
}

echo "| input shape | 1 MB | 10 MB | ratio |"
echo "|---|---|---|---|"
bad=0
for k in functions braces parens comment string binary nul_crlf ifdeep template; do
  ext=c; [ "$k" = template ] && ext=c.src
  gen "$k" 1000000 "$tmp/s.$ext"; gen "$k" 10000000 "$tmp/l.$ext"
  s=$(cpu "$tmp/s.$ext"); l=$(cpu "$tmp/l.$ext")
  r=$(echo "$s $l" | awk '{ printf "%.1f", $2 / $1 }')
  flag=$(echo "$r" | awk '{ print ($1 > 15) ? " NONLINEAR" : "" }')
  [ -n "$flag" ] && bad=1
  echo "| $k | ${s} s | ${l} s | ${r}${flag} |"
done
exit $bad
