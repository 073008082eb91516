#!/usr/bin/env python3
"""dump_db.py DB [OUT]: every table of a portdash database as text, rows
sorted, for comparing the databases two builds made of the same input
(doc/benchmarks.md, "Ingest builds side by side").

Compressed columns (analyses.findings, calls, flow, fns; flow_sets.data:
Zstandard frames, or zlib streams in rows from before schema version 20)
are written decompressed, since two encoders may write different valid
streams of the same text (Zstandard through libzstd's own library, which
Python's standard library does not wrap); packed call graphs
(flow_graphs.data) as their functions in path order, since two runs may
build one graph in different orders; the columns that hold the time
of the run (repos.created_at, refs.updated_at, ref_forks.computed_at,
rewrites.detected_at) are left out.  Reads the database only (opened
read-only, so a WAL beside it is read, not checkpointed).
"""
import ctypes
import ctypes.util
import sqlite3
import sys
import zlib

ZSTD_MAGIC = b"\x28\xb5\x2f\xfd"
_zstd = None


def zstd_decompress(v):
    """The content of one Zstandard frame with its size in its header."""
    global _zstd
    if _zstd is None:
        _zstd = ctypes.CDLL(ctypes.util.find_library("zstd") or "libzstd.so.1")
        _zstd.ZSTD_getFrameContentSize.restype = ctypes.c_ulonglong
        _zstd.ZSTD_getFrameContentSize.argtypes = [ctypes.c_char_p, ctypes.c_size_t]
        _zstd.ZSTD_decompress.restype = ctypes.c_size_t
        _zstd.ZSTD_decompress.argtypes = [ctypes.c_char_p, ctypes.c_size_t,
                                          ctypes.c_char_p, ctypes.c_size_t]
        _zstd.ZSTD_isError.restype = ctypes.c_uint
        _zstd.ZSTD_isError.argtypes = [ctypes.c_size_t]
    n = _zstd.ZSTD_getFrameContentSize(v, len(v))
    if n >= 2**63:
        raise ValueError("no content size")
    out = ctypes.create_string_buffer(n + 1)
    got = _zstd.ZSTD_decompress(out, n + 1, v, len(v))
    if _zstd.ZSTD_isError(got) or got != n:
        raise ValueError("not a frame")
    return out.raw[:n]

def uleb(d, p):
    v = s = 0
    while True:
        c = d[p]
        p += 1
        v |= (c & 0x7f) << s
        s += 7
        if not c & 0x80:
            return v, p


def ulebs(d, p, n, k):
    """n records of k numbers each from d at p, and the offset after."""
    out = []
    for _ in range(n):
        r = []
        for _ in range(k):
            v, p = uleb(d, p)
            r.append(v)
        out.append(r)
    return out, p


def packed_graph(d):
    """A packed call graph (flow_graphs.data, common/pd_flow_pack.c) as its
    content: one line per function, files in path order.  The bytes follow
    the order a graph was built in, which two runs may differ in."""
    if d[:4] != b"PDG1":
        raise ValueError("not a packed graph")
    p = 4
    nname, p = uleb(d, p)
    nfile, p = uleb(d, p)
    nfn, p = uleb(d, p)
    ncall, p = uleb(d, p)
    narg, p = uleb(d, p)
    names = []
    for _ in range(nname):
        n, p = uleb(d, p)
        names.append(d[p:p + n].decode("utf-8", "backslashreplace"))
        p += n
    files = []
    for _ in range(nfile):
        fid = int.from_bytes(d[p:p + 8], "little")
        n, p = uleb(d, p + 8)
        path = d[p:p + n].decode("utf-8", "backslashreplace")
        k, p = uleb(d, p + n)
        files.append((fid, path, k))
    fns, p = ulebs(d, p, nfn, 7)
    calls, p = ulebs(d, p, ncall, 3)
    args = []
    for _ in range(narg):
        t = chr(d[p])
        p += 1
        if t == "p":
            v, p = uleb(d, p)
            args.append("p%d" % v)
        elif t == "i":
            v, p = uleb(d, p)
            args.append("i" + names[v])
        else:
            args.append(t)
    if p + 8 != len(d):
        raise ValueError("trailing bytes")
    out, fi, ci, ai = [], 0, 0, 0
    for fid, path, k in files:
        for _ in range(k):
            name, line, local, el, ef, own, nc = fns[fi]
            fi += 1
            cs = []
            for _ in range(nc):
                callee, dl, na = calls[ci]
                ci += 1
                cs.append("c%d:%s:%s" % (dl, names[callee], ",".join(args[ai:ai + na])))
                ai += na
            out.append("%016x %s|%s %d %d %d %d %d|%s" % (fid, path, names[name], line, local, el,
                                                         ef, own, " ".join(cs)))
    out.sort(key=lambda x: x.split("|")[0])
    return "\n    ".join(out)


RUN_TIME = {("repos", "created_at"), ("refs", "updated_at"),
            ("ref_forks", "computed_at"), ("rewrites", "detected_at")}


def cell(v):
    if isinstance(v, bytes) and v[:4] == b"PDG1":
        return "g:" + packed_graph(v)
    if isinstance(v, bytes):
        try:
            text = zstd_decompress(v) if v[:4] == ZSTD_MAGIC else zlib.decompress(v)
            return "z:" + text.decode("utf-8", "backslashreplace")
        except (zlib.error, ValueError):
            return "x:" + v.hex()
    return repr(v)


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit("usage: dump_db.py DB [OUT]")
    db = sqlite3.connect("file:%s?mode=ro" % sys.argv[1], uri=True)
    out = open(sys.argv[2], "w") if len(sys.argv) == 3 else sys.stdout
    tables = [r[0] for r in db.execute(
        "SELECT name FROM sqlite_master WHERE type = 'table' "
        "AND name NOT LIKE 'sqlite_%' ORDER BY name")]
    for t in tables:
        cols = [r[1] for r in db.execute("PRAGMA table_info(\"%s\")" % t)
                if (t, r[1]) not in RUN_TIME]
        sel = ", ".join('"%s"' % c for c in cols)
        rows = sorted("\t".join(cell(v) for v in r)
                      for r in db.execute('SELECT %s FROM "%s"' % (sel, t)))
        out.write("## %s (%s): %d rows\n" % (t, ", ".join(cols), len(rows)))
        for r in rows:
            out.write(r + "\n")


if __name__ == "__main__":
    main()
