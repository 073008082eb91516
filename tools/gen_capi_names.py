#!/usr/bin/env python3
"""Generate ingest/rules/cpython.names: every name CPython's public headers
declare to an extension module, with its kind and whether it is in the
limited API.  The analyzer's default rules classify exactly these names as
`capi` (ingest/rules/default.rules, `names builtin:cpython capi`).

Usage: tools/gen_capi_names.py [--include /usr/include/python3.11] [-o FILE]
       (make capi-names runs it; the output is committed; never edit it)

How a name is found.  Nothing is guessed from a prefix: the C preprocessor
(cc -E -dD) reads what an extension reads: `#include <Python.h>` and the
headers CPython's documentation tells extensions to include themselves
(EXTRA_HEADERS: structmember.h, datetime.h, frameobject.h, marshal.h).
internal/ is never included; the tokenizer's and compiler's headers
(token.h, opcode.h, errcode.h), osdefs.h, dynamic_annotations.h and
py_curses.h are not C API an extension calls, and their generic names
(NAME, DOT, SEP, E_ERROR, LOAD_CONST) would take the project's own.  Line markers
tell which header each line comes from; only lines of the include
directory count (pyconfig.h, the build configuration, is left out: HAVE_*
and SIZEOF_* are not API).  Of those lines:
  * `#define NAME` in force (-dD prints the definitions that took effect,
    so pyport.h's fallback `#define LLONG_MAX` behind #ifndef is not
    CPython's when <limits.h> defined it): kind macro;
  * declarations at file scope, after the preprocessor: functions
    (PyAPI_FUNC and static inline), variables (PyAPI_DATA), typedef names,
    struct/union/enum tags (type) and enumerators (constant).
Struct members are not names here (the analyzer classifies members by
`member` rules only).

Limited API.  The same preprocessing is repeated with
-DPy_LIMITED_API=0x03NN0000 for 3.2 .. the headers' version: a name that
an extension still sees is in the limited API since the first version that
shows it ("limited-3.N").  Headers decide it themselves through their
`#ifndef Py_LIMITED_API` / `Py_LIMITED_API+0 >= 0x030N0000` guards and the
cpython/ subdirectory, so this follows them exactly.  A name starting
with '_' that is visible there is only used by limited macros and inline
functions: part of the stable ABI, not of the limited API ("abi-3.N").
Anything else is "full" (the full, unstable C API).

Output: '#' comments, `@cpython VERSION` (PY_VERSION of patchlevel.h),
`@source` (the Debian package and version when dpkg knows the directory),
then one line per name, sorted: NAME TAB KIND TAB API TAB HEADER, where
HEADER is the file under the include directory that declares it.
Only names are written, no header text.
"""
import argparse
import os
import re
import subprocess
import sys

KEYWORDS = set('''auto break case char const continue default do double else enum
extern float for goto if inline int long register restrict return short signed
sizeof static struct switch typedef union unsigned void volatile while _Bool
_Complex _Noreturn _Static_assert _Thread_local _Alignas _Alignof _Atomic
__inline __inline__ __restrict __restrict__ __const __const__ __volatile__
__signed__ __extension__ __attribute__ __asm__ __asm __typeof__ __typeof
__builtin_va_list __int128 __declspec'''.split())

SKIP_HEADERS = {'pyconfig.h'}
EXTRA_HEADERS = ['structmember.h', 'datetime.h', 'frameobject.h', 'marshal.h']
GUARD = re.compile(r'_?[A-Za-z0-9_]*_H$')   # include guards: not API
TOKEN = re.compile(r'"(?:\\.|[^"\\])*"|\'(?:\\.|[^\'\\])*\'|[A-Za-z_]\w*|\d[\w.]*|\S')
MARKER = re.compile(r'^# (\d+) "([^"]*)"')
DEFINE = re.compile(r'^#\s*define\s+([A-Za-z_]\w*)')


def preprocess(include, headers, limited=None):
    """cc -E -dD of Python.h and the other headers; limited: a version hex."""
    src = ''.join(f'#include <{h}>\n' for h in headers)
    cmd = ['cc', '-E', '-dD', '-I', include, '-x', 'c', '-']
    if limited is not None:
        cmd.insert(1, f'-DPy_LIMITED_API={limited:#010x}')
    return subprocess.run(cmd, input=src, check=True, capture_output=True, text=True).stdout


def python_lines(text, include):
    """(header, line) of the lines that come from the include directory."""
    here = None
    prefix = include.rstrip('/') + '/'
    for line in text.split('\n'):
        m = MARKER.match(line)
        if m:
            path = os.path.normpath(m.group(2))
            here = path[len(prefix):] if path.startswith(prefix) else None
            if here in SKIP_HEADERS:
                here = None
            continue
        if here is not None:
            yield here, line


def skip_group(toks, i):
    """Index after the balanced group opening at toks[i]."""
    pairs = {'(': ')', '[': ']', '{': '}'}
    close, depth = pairs[toks[i][1]], 0
    opener = toks[i][1]
    while i < len(toks):
        if toks[i][1] == opener:
            depth += 1
        elif toks[i][1] == close:
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    return i


def strip_attributes(toks):
    out, i = [], 0
    while i < len(toks):
        t = toks[i][1]
        if t in ('__attribute__', '__asm__', '__asm', '__declspec', '__typeof__', '__typeof') \
                and i + 1 < len(toks) and toks[i + 1][1] == '(':
            i = skip_group(toks, i + 1)
            continue
        out.append(toks[i])
        i += 1
    return out


def ident(t):
    return re.match(r'[A-Za-z_]\w*$', t) and t not in KEYWORDS


def declarator_name(toks):
    """(name, is_function) of one declarator (tokens after the type)."""
    last = None
    i = 0
    while i < len(toks):
        t = toks[i][1]
        if t == '(':
            if i + 1 < len(toks) and toks[i + 1][1] == '*':
                # (*name)(...): a pointer to function or array
                for h, u in toks[i + 1:]:
                    if ident(u):
                        return u, False
                    if u == ')':
                        break
                return None, False
            return last, True
        if t in ('[', '=', ':'):
            return last, False
        if ident(t):
            last = t
        i += 1
    return last, False


def split_top(toks, sep):
    """Split at sep outside (), [] and {}."""
    parts, cur, depth = [], [], 0
    for tok in toks:
        t = tok[1]
        if t in '([{':
            depth += 1
        elif t in ')]}':
            depth -= 1
        if t == sep and depth == 0:
            parts.append(cur)
            cur = []
        else:
            cur.append(tok)
    parts.append(cur)
    return parts


def declaration(toks, add):
    """Record the names one file-scope declaration declares."""
    toks = strip_attributes(toks)
    if not toks:
        return
    typedef = any(t == 'typedef' for _, t in toks)
    # struct/union/enum tags and bodies; the body is dropped from the rest
    # (a tag counts where the declaration names it, not in a parameter
    # list: `struct tm *tm` in a prototype does not declare tm)
    rest, i, depth = [], 0, 0
    while i < len(toks):
        h, t = toks[i]
        depth += (t == '(') - (t == ')')
        if t in ('struct', 'union', 'enum'):
            j = i + 1
            if j < len(toks) and ident(toks[j][1]):
                if depth == 0:
                    add(toks[j][1], 'type', toks[j][0])
                j += 1
            if j < len(toks) and toks[j][1] == '{':
                end = skip_group(toks, j)
                if t == 'enum':
                    for item in split_top(toks[j + 1:end - 1], ','):
                        if item and ident(item[0][1]):
                            add(item[0][1], 'constant', item[0][0])
                rest.append((h, '__body__'))
                i = end
                continue
            rest.append((h, '__tag__'))
            i = j
            continue
        rest.append(toks[i])
        i += 1
    # declarators: the type is everything up to the first declarator; take
    # each comma-separated part's name
    for part in split_top(rest, ','):
        name, fn = declarator_name(part)
        if name and name not in ('__body__', '__tag__'):
            h = next(hh for hh, t in part if t == name)
            add(name, 'type' if typedef else 'function' if fn else 'variable', h)


def scan(text, include):
    """name -> (kind, header) of everything the preprocessed text declares."""
    names = {}

    def add(name, kind, header):
        names.setdefault(name, (kind, header))

    toks = []
    depth = 0
    for header, line in python_lines(text, include):
        if line.startswith('#'):
            m = DEFINE.match(line)
            if m and not GUARD.match(m.group(1)):
                add(m.group(1), 'macro', header)
            continue
        for t in TOKEN.findall(line):
            if t[0] in '"\'' or t[0].isdigit():
                t = '0'
            toks.append((header, t))
            if t in '({[':
                depth += 1
            elif t in ')}]':
                depth -= 1
            if depth == 0 and t == ';':
                declaration(toks[:-1], add)
                toks = []
            elif depth == 0 and t == '}' and function_body(toks):
                declaration(toks[:function_body(toks)], add)
                toks = []
    return names


def function_body(toks):
    """Where the body starts, when toks end a function definition's body
    ({ right after the parameter list's ')' at file scope), else 0."""
    depth = 0
    for i, (_, t) in enumerate(toks):
        if t in '([':
            depth += 1
        elif t in ')]':
            depth -= 1
        elif t == '{':
            if depth == 0 and i > 0 and toks[i - 1][1] == ')':
                return i
            depth += 1
        elif t == '}':
            depth -= 1
    return 0


def version(include):
    text = open(os.path.join(include, 'patchlevel.h'), encoding='utf-8').read()
    return re.search(r'#define\s+PY_VERSION\s+"([^"]+)"', text).group(1)


def debian_source(include):
    try:
        pkg = subprocess.run(['dpkg', '-S', os.path.join(include, 'Python.h')], check=True,
                             capture_output=True, text=True).stdout.split(':')[0]
        ver = subprocess.run(['dpkg-query', '-W', '-f', '${Version}', pkg], check=True,
                             capture_output=True, text=True).stdout
        return f'Debian {pkg} {ver}'
    except (OSError, subprocess.CalledProcessError):
        return 'headers not from a Debian package'


def generate(include):
    headers = ['Python.h'] + EXTRA_HEADERS
    full = scan(preprocess(include, headers), include)
    ver = version(include)
    major, minor = (int(x) for x in ver.split('.')[:2])
    since = {}
    for m in range(2, minor + 1):
        for name in scan(preprocess(include, headers, (major << 24) | (m << 16)), include):
            since.setdefault(name, f'{major}.{m}')
    lines = [
        f'# Generated by tools/gen_capi_names.py from {include} '
        f'({debian_source(include)}); do not edit.',
        '# Every name the public headers declare to an extension (cc -E -dD of Python.h and',
        '# the other public headers), pyconfig.h left out.  Columns: NAME, KIND (function,',
        '# macro, type, variable, constant), API, HEADER.  API: limited-3.N = in the limited',
        '# API since 3.N (visible under Py_LIMITED_API=0x030N0000); abi-3.N = a private name',
        '# visible there (stable ABI only); full = the full C API only.',
        f'@cpython\t{ver}',
    ]
    for name in sorted(full):
        kind, header = full[name]
        s = since.get(name)
        api = 'full' if not s else ('abi-' if name.startswith('_') else 'limited-') + s
        lines.append(f'{name}\t{kind}\t{api}\t{header}')
    return '\n'.join(lines) + '\n'


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--include', default='/usr/include/python3.11',
                    help="CPython's include directory (Debian: python3-dev)")
    ap.add_argument('-o', '--output', help='output file (default: stdout)')
    a = ap.parse_args()
    if not os.path.isfile(os.path.join(a.include, 'Python.h')):
        sys.exit(f'gen_capi_names: no Python.h in {a.include} (make deps installs python3-dev)')
    text = generate(os.path.normpath(a.include))
    if a.output:
        with open(a.output, 'w', encoding='utf-8') as f:
            f.write(text)
    else:
        sys.stdout.write(text)


if __name__ == '__main__':
    main()
