#!/bin/sh
# Builds a bare repository with a long history for the ingest tests that
# need many commits (threads, batches, interrupted runs), with git
# fast-import so it takes a moment.  Usage: make_long_repo.sh N DEST_GITDIR
#
# Branch main has N commits; branch side leaves main at commit N/2 and adds
# 40.  Each commit rewrites one of 7 C files (src/fK.c) with one of 13
# contents, so blobs recur; every 9th commit rewrites a numpy template
# (src/t.c.src); every 50th renames a file, every 37th deletes one (and a
# later commit brings it back; a rename of a file deleted just before
# writes it instead); every 3rd rewrites src/m.c, where only
# function v changes (the chunk memo reuses the others).  Dates are fixed:
# the same N always gives the same ids.
set -eu
n=$1
dest=$2
git init -q --bare "$dest"
awk -v n="$n" '
function body(v,   s, j) {
  s = "#include <Python.h>\n#include \"hpy.h\"\n"
  for (j = 0; j < v % 5 + 1; j++) {
    s = s sprintf("static PyObject *\nf%d_%d(PyObject *self)\n{\n", v, j)
    if ((v + j) % 3 == 0)
      s = s "    return HPy_Dup(ctx, h);\n}\n"
    else
      s = s sprintf("    return PyLong_FromLong(%d);\n}\n", j)
  }
  return s
}
function tmpl(v) {
  return sprintf("/**begin repeat\n * #name = BOOL, OBJECT, INT%d#\n */\n" \
                 "static PyObject *\n@name@_get(void *ip)\n{\n    return PyArray_GETITEM(ip, %d);\n}\n" \
                 "/**end repeat**/\n", v, v)
}
function mod(v,   s, j) {
  s = "#include \"hpy.h\"\n"
  for (j = 0; j < 4; j++) {
    if (j == 2)
      s = s sprintf("static int\nv(void)\n{\n    int x = %d;\n    (void)x;\n    return 0;\n}\n", v)
    s = s sprintf("static HPy\na%d(HPyContext *ctx, HPy h)\n{\n", j)
    s = s (j % 2 ? "    return PyLong_FromLong(1);\n}\n" : "    return HPy_Dup(ctx, h);\n}\n")
  }
  return s
}
function put(path, text) {
  printf "M 100644 inline %s\ndata %d\n%s\n", path, length(text), text
  have[path] = 1
}
function commit(ref, i, mark, msg) {
  printf "commit refs/heads/%s\nmark :%d\n", ref, mark
  printf "committer fixture <fixture@example.org> %d +0000\n", 1600000000 + mark * 60
  msg = ref " commit " i
  printf "data %d\n%s\n", length(msg), msg
}
BEGIN {
  for (i = 1; i <= n; i++) {
    commit("main", i, i)
    if (i == 1)
      for (k = 0; k < 7; k++) put(sprintf("src/f%d.c", k), body(k))
    k = i % 7
    f = sprintf("src/f%d.c", k)
    if (i % 50 == 0 && have[f]) {        # fast-import cannot rename what is gone
      printf "R %s src/moved%d.c\n", f, i
      have[f] = 0
    } else if (i % 37 == 0) {
      printf "D %s\n", f
      have[f] = 0
    } else {
      put(sprintf("src/f%d.c", k), body(i % 97))
      put("README", "text " i "\n")
    }
    if (i % 9 == 0) put("src/t.c.src", tmpl(i % 4))
    if (i % 3 == 0) put("src/m.c", mod(i))
  }
  print "reset refs/heads/side"
  printf "from :%d\n\n", int(n / 2)
  for (i = 1; i <= 40; i++) {
    commit("side", i, n + i)
    put(sprintf("src/side%d.c", i % 3), body(i % 17 + 3))
  }
}' | git --git-dir="$dest" fast-import --quiet
git --git-dir="$dest" symbolic-ref HEAD refs/heads/main
