#!/usr/bin/env python3
"""Generate server/hpy_api.tsv: CPython C API names and the HPy API that
replaces them, read from HPy's own repository at a released tag, and
server/hpy_api_names.tsv: the HPy names of each HPy version recorded.

Usage: tools/gen_hpy_api.py --git-dir HPY_GIT_DIR [--tag 0.9.0]
           [--versions 0.0.4,0.9.0,master] [--cpython-names FILE]
           [--manual FILE] [-o FILE] [--names-out FILE]
       (make hpy-api runs it; outputs committed; never edit them)

Run by hand when HPy makes a release; the table is committed and embedded
in the binary (Makefile, like the rules file).

The mapping is the release's (--tag); a version listed after it in
--versions (master) adds the rows it has and the release lacks (HPy_GetIter
for PyObject_GetIter, since master), never changes one.

Which rows are kept (issue 21): only CPython names CPython declares (the
set --cpython-names, ingest/rules/cpython.names from CPython's headers):
the rule below that turns an HPy name into a CPython one by its prefix
makes names CPython never had (HPyTupleBuilder_New -> PyTupleBuilder_New),
and those are dropped.  The hand-kept rows of --manual
(tools/hpy_api_manual.tsv: what HPy's porting guide, documentation and
headers say in prose, such as Py_DECREF -> HPy_Close, METH_O -> HPyFunc_O,
PyTuple_GET_ITEM -> HPy_GetItem_i) come on top and win.

Columns of the table: CPython name, HPy replacement, how it is known (the
sources below, or "manual"), kind, since:
  kind  one-to-one = one HPy call does what the C API call does;
        generic    = a generic HPy call does what a type-specific C API
                     call does (PyTuple_GET_ITEM -> HPy_GetItem_i);
        pattern    = the code changes shape (Py_INCREF(x) -> y =
                     HPy_Dup(ctx, x); Py_RETURN_NONE; METH_* flags ->
                     HPyFunc_* of an HPyDef_METH).
  since the first HPy version of --versions whose headers declare every HPy
        name of the row (the names file records them per version).
HPy names of a version: every identifier of HPy's spelling (_?HPy..., HPY_...,
_HPY...) in the headers under hpy/devel/include/ and in public_api.h at
that version, comments left out, and ctx->h_NAME for each handle of the
context (public_api.h).  Only names are recorded, never header text.

Where the names come from (all read with `git show TAG:PATH`, nothing run):
  * hpy/tools/autogen/public_api.h: every context member, `HPy_ID(n)`
    followed by a function declaration (HPy name before the '(') or a
    handle `HPy h_NAME;`.
  * hpy/tools/autogen/conf.py: SPECIAL_CASES (HPy name -> CPython name, or
    None for "implemented by hand, no CPython counterpart") and
    DOC_MANUAL_API_MAPPING (CPython name -> HPy name, which wins).  The
    mapping is built exactly as HPy's doc generator builds the porting
    guide's table (autogen/doc.py, autogen_doc_api_mapping): for each
    function, convert_name() of parse.py (SPECIAL_CASES, else `^_?HPy_?`
    replaced by `Py`), then DOC_MANUAL_API_MAPPING on top.
  * hpy/devel/include/hpy/cpython/misc.h: the CPython ABI's initialisation
    of the handles (`ctx->h_None = _py2h(Py_None);`), which names the
    CPython object behind each h_NAME (PyExc_ValueError, PyLong_Type, ...).
  * HPy's hand-written C API beside the context (hpy/devel/include/hpy/):
    - helpers: every `HPyAPI_HELPER` / `HPyAPI_INLINE_HELPER` function of
      inline_helpers.h and runtime/*.h (HPyErr_Format, HPyArg_Parse,
      HPy_BuildValue, HPyTuple_Pack), CPython name with the HPy prefix
      replaced by Py (to_cpython);
    - abi: what the CPython ABI defines an HPy name as, in every header
      (`typedef Py_ssize_t HPy_ssize_t;`, `#define HPY_SSIZE_T_MAX
      PY_SSIZE_T_MAX`): exact, by HPy's own definition;
    - wrap: an `HPyAPI_FUNC` function of the CPython ABI's headers
      (include/hpy/cpython/*.h) whose body calls one CPython function and
      returns what it gives (`HPyCapsule_GetContext` is `return
      PyCapsule_GetContext(_h2py(capsule));`): that function is what the
      HPy one does on CPython, by HPy's own code;
    - macro: the `#define HPy...` macros and `HPy_...` enum constants of
      macros.h, hpytype.h, hpyfunc.h and the slots' autogen_hpyslot.h
      (HPy_TPFLAGS_DEFAULT, HPy_RETURN_RICHCOMPARE, HPy_LT, HPy_VISIT,
      HPy_tp_traverse, HPy_mod_exec), CPython name by the rule;
    - type: the types HPy's headers define (`} HPyType_Spec;`), CPython
      name by the rule, kept only where HPy's own CPython-ABI code
      (hpy/devel/src/runtime/*.c, include/hpy/cpython/*.h) uses that
      CPython type: the rule alone would pair HPyContext with CPython's
      unrelated PyContext.
    A name the table (or a handle) already maps keeps that mapping; the
    order of strength is table, handle, abi, wrap, helper, macro, type, name.
conf.py is read with ast.literal_eval of its assignments, never executed.
"""
import argparse
import ast
import re
import subprocess
import sys

PUBLIC_API = 'hpy/tools/autogen/public_api.h'
CONF = 'hpy/tools/autogen/conf.py'
MISC = 'hpy/devel/include/hpy/cpython/misc.h'
INCLUDE = 'hpy/devel/include/'
HELPER_HEADERS = ('hpy/devel/include/hpy/inline_helpers.h', 'hpy/devel/include/hpy/runtime/')
MACRO_HEADERS = ('hpy/devel/include/hpy/macros.h', 'hpy/devel/include/hpy/hpytype.h',
                 'hpy/devel/include/hpy/hpyfunc.h', 'hpy/devel/include/hpy/autogen_hpyslot.h')
CPYTHON_ABI = 'hpy/devel/include/hpy/cpython/'
# What the CPython ABI's functions call to pass handles (not the function
# they wrap): the conversions between HPy and PyObject *.
CONVERSIONS = {'_h2py', '_py2h', '_hf2py', '_py2hf', '_hp2py', '_py2hp'}
CPYTHON_IMPL = ('hpy/devel/src/runtime/', 'hpy/devel/include/hpy/cpython/')


def git_show(git_dir, tag, path):
    return subprocess.run(['git', '--git-dir', git_dir, 'show', f'{tag}:{path}'],
                          check=True, capture_output=True, text=True).stdout


def git_commit(git_dir, tag):
    return subprocess.run(['git', '--git-dir', git_dir, 'rev-parse', f'{tag}^{{commit}}'],
                          check=True, capture_output=True, text=True).stdout.strip()


def git_files(git_dir, tag, prefix):
    """The .h/.c files under prefix (a directory ending in '/' or a file) at tag."""
    out = subprocess.run(['git', '--git-dir', git_dir, 'ls-tree', '-r', '--name-only', tag, prefix],
                         check=True, capture_output=True, text=True).stdout.split()
    return sorted(f for f in out if f.endswith(('.h', '.c')))


def sources(git_dir, tag, prefixes):
    """The comment-stripped text of the files under the prefixes, by path."""
    return {f: strip_comments(git_show(git_dir, tag, f))
            for p in prefixes for f in git_files(git_dir, tag, p)}


def conf_dicts(text):
    """The module-level dict literals of conf.py, by name."""
    out = {}
    for node in ast.parse(text).body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and \
                isinstance(node.targets[0], ast.Name):
            try:
                out[node.targets[0].id] = ast.literal_eval(node.value)
            except ValueError:
                pass
    return out


def strip_comments(text):
    text = re.sub(r'/\*.*?\*/', ' ', text, flags=re.S)
    return re.sub(r'//[^\n]*', ' ', text)


def public_members(text):
    """(functions, handles) declared after HPy_ID(n) in public_api.h."""
    functions, handles = [], []
    text = strip_comments(text)
    for m in re.finditer(r'\bHPy_ID\(\s*\d+\s*\)([^;]*);', text):
        decl = m.group(1)
        f = re.search(r'(\w+)\s*\(', decl)
        if f:
            functions.append(f.group(1))
            continue
        v = re.search(r'\b(h_\w+)\s*$', decl.strip())
        if v:
            handles.append(v.group(1))
    return functions, handles


def convert_name(hpy_name, special):
    """parse.py's convert_name: the CPython name HPy's generator uses."""
    if hpy_name in special:
        return special[hpy_name]
    return re.sub(r'^_?HPy_?', 'Py', hpy_name)


def to_cpython(hpy_name):
    """The CPython name of an HPy helper, macro or type: the HPy prefix
    replaced by Py, underscore kept (HPy_BuildValue is Py_BuildValue,
    HPy_TPFLAGS_DEFAULT Py_TPFLAGS_DEFAULT, HPyErr_Format PyErr_Format).
    convert_name drops the underscore because the context's HPy_X functions
    are PyObject_X in CPython, which SPECIAL_CASES spells out one by one;
    nothing spells out helpers, macros and types."""
    return re.sub(r'^HPy', 'Py', hpy_name)


def helper_functions(texts):
    """Names of the HPyAPI_HELPER / HPyAPI_INLINE_HELPER functions."""
    out = set()
    for text in texts:
        for m in re.finditer(r'\bHPyAPI_(?:INLINE_)?HELPER\b[^;{(#]*?\b(HPy\w+)\s*\(', text):
            out.add(m.group(1))
    return sorted(out)


def abi_definitions(texts):
    """CPython name -> HPy name, where a header defines the HPy name as
    the CPython one (typedef Py_X HPy_X; #define HPY_X PY_X)."""
    out = {}
    for text in texts:
        for m in re.finditer(r'\btypedef\s+(_?Py\w+)\s+(HPy\w+)\s*;', text):
            out.setdefault(m.group(1), m.group(2))
        for m in re.finditer(r'^[ \t]*#[ \t]*define[ \t]+(HPY\w+|HPy\w+)[ \t]+(_?P[yY]\w*)[ \t]*$', text, re.M):
            out.setdefault(m.group(2), m.group(1))
    return out


def wrapped_functions(texts):
    """CPython name -> HPy name, for each HPyAPI_FUNC function of the
    CPython ABI whose body is one `return` of one CPython call (after the
    handle conversions are taken out)."""
    out = {}
    pat = r'\bHPyAPI_FUNC\b[^;{(]*?\b(_?HPy\w+)\s*\([^)]*\)\s*\{([^{}]*)\}'
    for text in texts:
        for m in re.finditer(pat, text):
            body = m.group(2).strip()
            calls = [c for c in re.findall(r'\b(\w+)\s*\(', body) if c not in CONVERSIONS]
            if body.startswith('return') and body.count(';') == 1 and len(calls) == 1 and \
                    re.match(r'_?Py[A-Z]\w*$', calls[0]):
                out.setdefault(calls[0], m.group(1))
    return out


def hpy_macros(texts):
    """The public HPy macros and enum constants (HPy_TPFLAGS_DEFAULT, HPy_LT,
    HPy_VISIT, and the slots: HPy_tp_new, HPy_nb_add, HPy_mod_exec)."""
    out = set()
    for text in texts:
        out.update(re.findall(r'^[ \t]*#[ \t]*define[ \t]+(HPy[A-Z_]\w*)', text, re.M))
        for body in re.findall(r'\benum\b[^{;]*\{([^}]*)\}', text):
            out.update(re.findall(r'\b(HPy_[A-Z]\w*)\s*(?:=|,|$)', body))
            out.update(re.findall(r'\b(HPy_(?:tp|nb|sq|mp|am|bf|mod)_\w+)\s*=', body))
    return sorted(n for n in out if re.match(r'HPy(_[A-Za-z]|[A-Z]\w*_)', n) and not n.startswith('HPyAPI_'))


def hpy_types(texts):
    """The types HPy's headers define (typedef ... HPyX; or } HPyX;)."""
    out = set()
    for text in texts:
        out.update(re.findall(r'(?:\btypedef\b[^;{}]*?|\}\s*)\b(HPy\w*)\s*;', text))
    return sorted(out)


def handle_objects(misc):
    """h_NAME -> the CPython object the CPython ABI stores in it."""
    out = {}
    pat = r'ctx->(h_\w+)\s*=\s*_py2h\(\s*(?:\(PyObject\s*\*\)\s*)?&?\s*(\w+)\s*\)'
    for m in re.finditer(pat, strip_comments(misc)):
        out[m.group(1)] = m.group(2)
    return out


def generate(git_dir, tag):
    conf = conf_dicts(git_show(git_dir, tag, CONF))
    special = conf.get('SPECIAL_CASES', {})
    manual = conf.get('DOC_MANUAL_API_MAPPING', {})
    functions, handles = public_members(git_show(git_dir, tag, PUBLIC_API))
    mapping = {}
    for name in functions:
        cpy = convert_name(name, special)
        if cpy:
            mapping[cpy] = (name, 'table')
    for cpy, name in manual.items():
        mapping[cpy] = (name, 'table')
    objects = handle_objects(git_show(git_dir, tag, MISC))
    for h in handles:
        if h in objects:
            mapping.setdefault(objects[h], ('ctx->' + h, 'handle'))
    headers = sources(git_dir, tag, [INCLUDE])
    for cpy, name in sorted(abi_definitions(headers.values()).items()):
        mapping.setdefault(cpy, (name, 'abi'))
    abi_text = [t for f, t in headers.items() if f.startswith(CPYTHON_ABI)]
    for cpy, name in sorted(wrapped_functions(abi_text).items()):
        mapping.setdefault(cpy, (name, 'wrap'))
    helper_text = [t for f, t in headers.items() if f.startswith(HELPER_HEADERS)]
    for name in helper_functions(helper_text):
        mapping.setdefault(to_cpython(name), (name, 'helper'))
    # Macros whose CPython name does not exist (HPyType_HELPERS) are inert:
    # the table is only looked up by names found in the analysed code.
    for name in hpy_macros([t for f, t in headers.items() if f in MACRO_HEADERS]):
        mapping.setdefault(to_cpython(name), (name, 'macro'))
    used = set(re.findall(r'\b_?Py\w+', ' '.join(sources(git_dir, tag, CPYTHON_IMPL).values())))
    public = [t for f, t in headers.items() if not f.startswith(('hpy/devel/include/hpy/universal/',) + CPYTHON_IMPL)]
    for name in hpy_types(public):
        cpy = to_cpython(name)
        if cpy != 'Py' and cpy in used:
            mapping.setdefault(cpy, (name, 'type'))
    # Functions HPy implements by hand (SPECIAL_CASES value None) have no
    # generated counterpart, yet most keep the CPython name under the same
    # rule (HPyErr_Occurred, HPyType_FromSpec): offered as 'name', weaker,
    # and only for grouped names (HPyGroup_X; HPy_Dup has no Py_Dup).
    for name in functions:
        if name in special and special[name] is None and re.match(r'HPy[A-Z]\w*_', name):
            mapping.setdefault(re.sub(r'^_?HPy_?', 'Py', name), (name, 'name'))
    return mapping


HPY_IDENT = re.compile(r'\b(?:_?HPy\w*|_?HPY_?\w+)')


def hpy_names(git_dir, tag):
    """The HPy names of one version (see the module doc)."""
    texts = sources(git_dir, tag, [INCLUDE]).values()
    names = set()
    for text in texts:
        names.update(HPY_IDENT.findall(text))
    api = strip_comments(git_show(git_dir, tag, PUBLIC_API))
    names.update(HPY_IDENT.findall(api))
    # handles: `HPy_ID(n) HPy h_None;` (0.9.0+) or plain `HPy h_None;` (0.0.x)
    names.update('ctx->' + h for h in re.findall(r'\bHPy\s+(h_\w+)\s*;', api))
    return names


def row_names(hpy):
    """The HPy names an HPy column uses (a name, ctx->h_X, or a pattern)."""
    return re.findall(r'ctx->h_\w+|\b_?HPy\w*|\b_?HPY_?\w+', hpy)


def read_tsv(path):
    """Rows of a tab-separated file, '#' lines and blank lines skipped."""
    with open(path, encoding='utf-8') as f:
        return [l.rstrip('\n').split('\t') for l in f if l.strip() and not l.startswith('#')]


def table(git_dir, tag, versions, cpython, manual):
    """(table text, names text)."""
    # A slot (Py_tp_new: an entry of a PyType_Slot array) becomes an
    # HPyDef_SLOT of the same name: the code changes shape.
    def kind_of(cpy):
        return 'pattern' if re.match(r'Py_(?:tp|nb|sq|mp|am|bf|mod)_', cpy) else 'one-to-one'
    mapping = {cpy: (h, how, kind_of(cpy)) for cpy, (h, how) in generate(git_dir, tag).items()}
    # versions after the release (master): what they add, never what they
    # change, so a released mapping stays the released one
    for later in versions[versions.index(tag) + 1:] if tag in versions else []:
        for cpy, (h, how) in generate(git_dir, later).items():
            mapping.setdefault(cpy, (h, how, kind_of(cpy)))
    for row in manual:
        cpy, h, kind = row[0], row[1], row[2]
        if kind not in ('one-to-one', 'generic', 'pattern'):
            sys.exit(f'gen_hpy_api: {cpy}: kind {kind!r} is not one-to-one, generic or pattern')
        mapping[cpy] = (h, 'manual', kind)
    cpy_names, cpy_version = set(), '?'
    for row in read_tsv(cpython):
        if row[0] == '@cpython':
            cpy_version = row[1]
        elif not row[0].startswith('@'):
            cpy_names.add(row[0])
    by_version = {v: hpy_names(git_dir, v) for v in versions}
    commits = {v: git_commit(git_dir, v) for v in versions}
    dropped = sorted(c for c in mapping if c not in cpy_names)
    lines = [
        f'# Generated by tools/gen_hpy_api.py from HPy {tag} '
        f'(commit {commits.get(tag) or git_commit(git_dir, tag)}); do not edit.',
        f'# Sources: {PUBLIC_API}, {CONF} (SPECIAL_CASES, DOC_MANUAL_API_MAPPING), {MISC},',
        f'#   the headers under {INCLUDE} (helpers, CPython-ABI definitions, macros, types),',
        '#   and tools/hpy_api_manual.tsv (what HPy\'s guide, docs and headers say in prose).',
        f'# Rows only for names CPython {cpy_version} declares (ingest/rules/cpython.names);',
        f'#   {len(dropped)} names made by the prefix rule are not CPython\'s and left out.',
        '# Columns: CPython C API name, the HPy API that replaces it, how it is known, kind, since:',
        '#   table  = the porting guide\'s table (convert_name + DOC_MANUAL_API_MAPPING)',
        '#   handle = the CPython object behind a context handle (misc.h)',
        '#   abi    = the CPython ABI defines the HPy name as this CPython name (typedef, #define)',
        '#   wrap   = the CPython ABI\'s HPy function returns this CPython function\'s call (cpython/*.h)',
        '#   helper = an HPy helper function (HPyAPI_HELPER), CPython name: the HPy prefix replaced by Py',
        '#   macro  = an HPy macro or enum constant (macros.h, hpytype.h, hpyfunc.h, slots), CPython name likewise',
        '#   type   = an HPy type, CPython name likewise, that HPy\'s CPython-ABI code uses',
        '#   name   = a hand-written HPy function, CPython name by the same rule',
        '#   manual = tools/hpy_api_manual.tsv',
        '#   kind: one-to-one, generic (a generic HPy call for a type-specific one), pattern',
        '#   (the code changes shape); since: first HPy version (of ' + ', '.join(versions) +
        ') declaring every HPy name of the row',
        f'@version\t{tag}',
        f'@versions\t{" ".join(versions)}',
    ]
    for cpy in sorted(mapping):
        if cpy not in cpy_names:
            continue
        h, how, kind = mapping[cpy]
        need = row_names(h)
        since = next((v for v in versions if all(n in by_version[v] for n in need)), None)
        if since is None:
            sys.exit(f'gen_hpy_api: {cpy} -> {h}: not every HPy name is in HPy ' + ', '.join(versions))
        lines.append(f'{cpy}\t{h}\t{how}\t{kind}\t{since}')
    names = [
        '# Generated by tools/gen_hpy_api.py: the HPy names of each HPy version (identifiers',
        f'# of HPy\'s spelling in {INCLUDE}** and {PUBLIC_API}; ctx->h_NAME for the',
        '# context\'s handles); names only.  Columns: name, the versions that have it.',
    ]
    names += [f'@version\t{v}\t{commits[v]}' for v in versions]
    for n in sorted(set().union(*by_version.values())):
        names.append(f'{n}\t' + ' '.join(v for v in versions if n in by_version[v]))
    return '\n'.join(lines) + '\n', '\n'.join(names) + '\n'


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--git-dir', required=True, help="HPy's git directory")
    ap.add_argument('--tag', default='0.9.0', help='a released HPy tag')
    ap.add_argument('--versions', default='0.0.4,0.9.0,master',
                    help='HPy versions whose names are recorded, oldest first')
    ap.add_argument('--cpython-names', default='ingest/rules/cpython.names',
                    help='the names CPython declares (tools/gen_capi_names.py)')
    ap.add_argument('--manual', default='tools/hpy_api_manual.tsv', help='hand-kept rows')
    ap.add_argument('-o', '--output', help='table output file (default: stdout)')
    ap.add_argument('--names-out', help='HPy names per version output file')
    a = ap.parse_args()
    versions = a.versions.split(',')
    text, names = table(a.git_dir, a.tag, versions, a.cpython_names, read_tsv(a.manual))
    if a.output:
        with open(a.output, 'w', encoding='utf-8') as f:
            f.write(text)
    else:
        sys.stdout.write(text)
    if a.names_out:
        with open(a.names_out, 'w', encoding='utf-8') as f:
            f.write(names)


if __name__ == '__main__':
    main()
