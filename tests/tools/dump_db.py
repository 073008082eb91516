#!/usr/bin/env python3
"""dump_db.py DB [OUT]: every table of a portdash database as text, rows
sorted, for comparing the databases two builds made of the same input
(doc/benchmarks.md, "Ingest builds side by side").

Compressed columns (analyses.findings, calls, flow, fns; flow_sets.data:
Zstandard frames, or zlib streams in rows from before schema version 20)
are written decompressed, since two encoders may write different valid
streams of the same text (Zstandard through libzstd's own library, which
Python's standard library does not wrap); the columns that hold the time
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

RUN_TIME = {("repos", "created_at"), ("refs", "updated_at"),
            ("ref_forks", "computed_at"), ("rewrites", "detected_at")}


def cell(v):
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
