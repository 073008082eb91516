#!/usr/bin/env python3
"""How much of numpy's template expansion a "derive the instance" design
could leave out (issue 26, goal 2; doc/benchmarks.md, "What is left for
goal 2").

The design: analyse one instance of a `/**begin repeat` loop and derive
each later instance whose substitutions change nothing the analysis
reads, by renaming the names in its results.  This script counts the
expanded bytes such instances make, per file, without building anything.

An instance of a loop is derivable from an earlier instance of the same
loop (any instance of the loops around it) when, for every `@name@` its
body uses (its own loop's and the enclosing loops'):
- on a preprocessor line or inside a string literal, the value is the
  same text (a directive reads it; a string is shown as written);
- elsewhere, the token it forms (`@TYPE@_getitem` -> `BOOL_getitem`) is
  either the same text, or in both instances an identifier that is no C
  keyword and that no rule of ingest/rules/default.rules reads (prefix,
  suffix, exact names, the builtin:cpython set), renamed consistently.
With --clean (the default), a loop counts only where it starts outside
any function or initializer (brace depth 0 at its marker): the scanner
state at such an instance's start is the file scope, which a derived
instance can take; inside a function its state carries the function's
counts, which a derivation would have to take apart.

The expansion is numpy's own: numpy/distutils/conv_template.py of the
checkout is imported from its path (nothing of it is copied here).

Usage: tmpl_repeats.py [--anywhere] CHECKOUT FILE.src...
  CHECKOUT  a checkout of numpy-hpy (git archive REF | tar -x)
  FILE.src  templates, relative to CHECKOUT
Prints per file its expanded bytes and those derivable, largest first,
and the total.
"""
import importlib.util
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
RULES = os.path.join(HERE, "..", "..", "ingest", "rules")
KEYWORDS = set("""auto break case char const continue default do double else
enum extern float for goto if inline int long register restrict return short
signed sizeof static struct switch typedef union unsigned void volatile while
_Bool _Complex bool NULL""".split())
IDENT = re.compile(r"[A-Za-z_][A-Za-z_0-9]*$")
VAR = re.compile(r"@(\w+)@")


def load_rules():
    """The names, prefixes and suffixes the default rules read."""
    names, prefixes, suffixes = set(), ["OBJECT_"], ["_DATA"]
    with open(os.path.join(RULES, "cpython.names")) as f:
        for line in f:
            if line.strip() and not line.startswith("#"):
                names.add(line.split()[0])
    with open(os.path.join(RULES, "default.rules")) as f:
        for line in f:
            w = line.split("#")[0].split()
            if len(w) < 2 or w[0] == "names":
                continue
            if w[0] == "prefix":
                prefixes.append(w[1])
            elif w[0] == "suffix":
                suffixes.append(w[1])
            elif w[0] not in ("itemcast", "itemlocal", "itemdata", "objfunc"):
                names.add(w[1])
    return names, tuple(prefixes), tuple(suffixes)


NAMES, PREFIXES, SUFFIXES = load_rules()


def read_by_rules(tok):
    return (tok in KEYWORDS or tok in NAMES or tok.startswith(PREFIXES)
            or tok.endswith(SUFFIXES) or "_to_OBJECT" in tok)


def uses(body):
    """Each @name@ of body: (name, on a directive or in a string, the
    token it is part of)."""
    out = []
    for line in body.split("\n"):
        directive = line.lstrip().startswith("#")
        for m in VAR.finditer(line):
            literal = directive or line[:m.start()].count('"') % 2 == 1
            a, b = m.start(), m.end()
            while a > 0 and (line[a - 1].isalnum() or line[a - 1] in "_@"):
                a -= 1
            while b < len(line) and (line[b].isalnum() or line[b] in "_@"):
                b += 1
            out.append((m.group(1), literal, line[a:b]))
    return out


def signature(env, body_uses):
    """What the analysis of an instance reads of its substitutions."""
    sig, renamed = [], {}
    for name, literal, tok in body_uses:
        if name not in env:
            continue
        formed = VAR.sub(lambda m: env.get(m.group(1), m.group(0)), tok)
        val = env[name].strip()
        if (not literal and val and IDENT.match(val) and IDENT.match(formed)
                and not read_by_rules(formed)):
            sig.append(("name", tok, renamed.setdefault(formed, len(renamed))))
        else:
            sig.append(("text", tok, formed))
    return tuple(sig)


def blank(src):
    """src with comments and literals blanked (the loop markers kept)."""
    out, i, n = list(src), 0, len(src)
    while i < n:
        if src.startswith("/*", i):
            j = src.find("*/", i + 2)
            j = n if j < 0 else j + 2
            if not src.startswith(("/**begin repeat", "/**end repeat"), i):
                for k in range(i, j):
                    if out[k] != "\n":
                        out[k] = " "
            i = j
        elif src.startswith("//", i):
            j = src.find("\n", i)
            j = n if j < 0 else j
            out[i:j] = " " * (j - i)
            i = j
        elif src[i] in "\"'":
            q, j = src[i], i + 1
            while j < n and src[j] not in (q, "\n"):
                j += 2 if src[j] == "\\" else 1
            for k in range(i + 1, min(j, n)):
                out[k] = " "
            i = j + 1
        else:
            i += 1
    return "".join(out)


def derivable(ct, src, blanked, base, env, level, seen, key, clean_only):
    saved = 0
    for (s, s2, f1, _f2, _line) in ct.parse_structure(src, level):
        head, body = src[s:s2], src[s2:f1]
        try:
            envs = ct.parse_loop_header(head)
        except ValueError:
            continue
        body_uses = uses(body)
        depth = blanked[:base + s].count("{") - blanked[:base + s].count("}")
        clean = depth == 0 or not clean_only
        for e in envs:
            env2 = dict(env)
            env2.update(e)
            sig = (key, s, signature(env2, body_uses))
            if clean and sig in seen:
                saved += len(ct.parse_string(body, dict(env2), level + 1, 0))
            else:
                seen[sig] = True
                saved += derivable(ct, body, blanked, base + s2, env2, level + 1,
                                   seen, (key, s), clean_only)
    return saved


def main(argv):
    clean_only = True
    if argv and argv[0] == "--anywhere":
        clean_only, argv = False, argv[1:]
    if len(argv) < 2:
        sys.exit(__doc__.split("Usage: ")[1])
    checkout, files = argv[0], argv[1:]
    path = os.path.join(checkout, "numpy", "distutils", "conv_template.py")
    spec = importlib.util.spec_from_file_location("conv_template", path)
    ct = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(ct)
    rows, total, saved = [], 0, 0
    for f in files:
        with open(os.path.join(checkout, f)) as fh:
            src = fh.read()
        size = len(ct.process_str(src))
        s = derivable(ct, src, blank(src), 0, {}, 0, {}, (), clean_only)
        rows.append((size, s, f))
        total += size
        saved += s
    print("| template | expanded bytes | derivable | share |")
    print("|---|---:|---:|---:|")
    for size, s, f in sorted(rows, reverse=True):
        print(f"| {f} | {size} | {s} | {100 * s / max(size, 1):.1f} % |")
    print(f"| all ({len(rows)}) | {total} | {saved} | {100 * saved / max(total, 1):.1f} % |")


if __name__ == "__main__":
    main(sys.argv[1:])
