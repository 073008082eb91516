#!/usr/bin/env python3
"""Write ingest/rules/fix_calls.tsv: the rewrites `portdash fix` may offer.

Reads the one-to-one rows of server/hpy_api.tsv and keeps those whose shape
can be checked from the headers: for a call, CPython's declaration (from
CPython's public headers: PyAPI_FUNC and static inline functions) and HPy's
(hpy/tools/autogen/public_api.h and hpy/devel/include/**, at a tag) must take
the same parameters once HPy's leading `HPyContext *` is dropped, a
`PyObject *` standing for an `HPy` and Py_ssize_t/Py_hash_t for HPy's own.
Names and declared types only are written, no code from either project.

usage: gen_fix_calls.py --include /usr/include/python3.11 --hpy-git GITDIR
       --tag 0.9.0 --table server/hpy_api.tsv -o ingest/rules/fix_calls.tsv
"""
import argparse
import glob
import os
import re
import subprocess
import sys

COMMENT = re.compile(r'/\*.*?\*/|//[^\n]*', re.S)
SKIP_WORDS = {'HPyAPI_FUNC', 'HPyAPI_HELPER', 'HPyAPI_INLINE_HELPER', 'HPyAPI_IMPL',
              'static', 'inline', 'HPy_INLINE', 'extern', 'Py_DEPRECATED', 'HPy_UNUSED'}


def strip(text):
    text = COMMENT.sub(' ', text)
    text = re.sub(r'\\\n', ' ', text)
    return re.sub(r'^\s*#[^\n]*', ' ', text, flags=re.M)


def norm_type(t):
    """A parameter or result type in a comparable spelling."""
    t = re.sub(r'\s+', ' ', t.replace('*', ' * ')).strip()
    words = [w for w in t.split(' ') if w and w not in SKIP_WORDS]
    # drop the parameter's name: the last identifier after a type word
    if len(words) > 1 and re.match(r'^[A-Za-z_]\w*$', words[-1]) and \
            words[-1] not in ('int', 'long', 'char', 'double', 'float', 'void', 'short',
                              'unsigned', 'signed', 'size_t'):
        words = words[:-1]
    t = ' '.join(words).replace(' *', '*').replace('* ', '*')
    t = {'PyObject*': 'o', 'HPy': 'o', 'Py_ssize_t': 'ssize', 'HPy_ssize_t': 'ssize',
         'Py_hash_t': 'hash', 'HPy_hash_t': 'hash', 'const PyObject*': 'o'}.get(t, t)
    return t


def params(text):
    text = text.strip()
    if text in ('', 'void'):
        return []
    out, depth, cur = [], 0, ''
    for ch in text:
        if ch == ',' and depth == 0:
            out.append(cur)
            cur = ''
            continue
        depth += ch == '('
        depth -= ch == ')'
        cur += ch
    out.append(cur)
    return [('...' if p.strip() == '...' else norm_type(p)) for p in out]


def cpython_decls(include):
    decls = {}
    pat_api = re.compile(r'PyAPI_FUNC\(([^()]*(?:\([^()]*\))?[^()]*)\)\s*(\w+)\s*\(([^;{}]*?)\)\s*'
                         r'(?:Py_GCC_ATTRIBUTE\(\(.*?\)\)\s*)?;', re.S)
    pat_inl = re.compile(r'static\s+inline\s+([\w\s\*]+?)\b(\w+)\s*\(([^;{}()]*)\)\s*\{', re.S)
    for path in sorted(glob.glob(os.path.join(include, '**', '*.h'), recursive=True)):
        text = strip(open(path, encoding='latin-1').read())
        for m in pat_api.finditer(text):
            decls.setdefault(m.group(2), (norm_type(m.group(1)), params(m.group(3))))
        for m in pat_inl.finditer(text):
            decls.setdefault(m.group(2), (norm_type(m.group(1)), params(m.group(3))))
    return decls


def hpy_decls(git_dir, tag, names):
    files = subprocess.run(['git', '--git-dir', git_dir, 'ls-tree', '-r', '--name-only', tag],
                           check=True, capture_output=True, text=True).stdout.split()
    files = [f for f in files if f == 'hpy/tools/autogen/public_api.h' or
             (f.startswith('hpy/devel/include/') and f.endswith('.h'))]
    text = ''
    for f in files:
        text += strip(subprocess.run(['git', '--git-dir', git_dir, 'show', tag + ':' + f],
                                     check=True, capture_output=True, text=True,
                                     errors='replace').stdout) + '\n;\n'
    decls = {}
    for name in names:
        m = re.search(r'(?:^|[;}{])\s*((?:[A-Za-z_]\w*[\s\*]+)+?)' + re.escape(name) +
                      r'\s*\(\s*HPyContext\s*\*\s*\w*\s*(,[^;{}]*?)?\)\s*[;{]', text, re.S)
        if m:
            decls[name] = (norm_type(m.group(1)), params((m.group(2) or ',')[1:]))
    return decls


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--include', required=True)
    ap.add_argument('--hpy-git', required=True)
    ap.add_argument('--tag', default='0.9.0')
    ap.add_argument('--table', default='server/hpy_api.tsv')
    ap.add_argument('-o', dest='out', required=True)
    a = ap.parse_args()
    rows = []
    for line in open(a.table):
        if line.startswith(('#', '@')) or not line.strip():
            continue
        f = line.rstrip('\n').split('\t')
        if len(f) >= 5 and f[3] == 'one-to-one':
            rows.append(f)
    cdecl = cpython_decls(a.include)
    hdecl = hpy_decls(a.hpy_git, a.tag, [f[1] for f in rows if not f[1].startswith('ctx->')])
    out, dropped = [], {}
    for cname, hname, how, _kind, since in rows:
        if hname.startswith('ctx->h_'):
            out.append((cname, hname[5:], since, 'handle', '-'))
            continue
        if how in ('abi',) or (how == 'macro' and re.match(r'^Py_(EQ|NE|LT|LE|GT|GE)$', cname)):
            out.append((cname, hname, since, 'name', '-'))
            continue
        if cname not in cdecl or hname not in hdecl:
            dropped['no declaration'] = dropped.get('no declaration', 0) + 1
            continue
        cres, cpar = cdecl[cname]
        hres, hpar = hdecl[hname]
        if cpar != hpar or any(p not in ('o', '...') and '*' in p and 'char' not in p
                               for p in cpar):
            dropped['parameters differ'] = dropped.get('parameters differ', 0) + 1
            continue
        if cres == hres:
            res = 'same' if cres != 'o' else 'handle'
        elif cres == 'void':
            res = 'void'
        elif cres == 'o' and hres == 'int':
            res = 'flag'
        else:
            dropped['result differs'] = dropped.get('result differs', 0) + 1
            continue
        kinds = ','.join('o' if p == 'o' else '...' if p == '...' else 'v' for p in cpar) or '-'
        out.append((cname, hname, since, 'call:' + res, kinds))
    with open(a.out, 'w') as fh:
        fh.write('# Generated by tools/gen_fix_calls.py from server/hpy_api.tsv, the CPython\n'
                 '# headers of %s and HPy %s (make fix-calls); do not edit.\n'
                 '# The one-to-one rows whose shape the headers confirm.  Columns: CPython\n'
                 '# name, HPy name (a context handle without its ctx->), HPy version,\n'
                 '# shape, parameters.  Shape: name (a plain rename), handle (a context\n'
                 '# handle, rewritten only as the argument of a rewritten call),\n'
                 '# call:R (a call that gains the context as first argument; R says what\n'
                 '# the result becomes: same type, void -> anything (statement only),\n'
                 '# handle (PyObject * -> HPy), flag (PyObject * -> int, a condition only)).\n'
                 '# Parameters: o an object (an HPy handle), v a value of the same C type,\n'
                 '# ... variadic.\n' % (a.include, a.tag))
        fh.write('# Left out: %s\n' % ', '.join('%s %d' % kv for kv in sorted(dropped.items())))
        for r in sorted(out):
            fh.write('\t'.join(r) + '\n')
    print('fix_calls: %d rows, left out %s' % (len(out), dropped), file=sys.stderr)


if __name__ == '__main__':
    main()
