#!/usr/bin/env python3
"""dump_db.py DB [OUT]: every table of a portdash database as text, rows
sorted, for comparing the databases two builds made of the same input
(doc/benchmarks.md, "Ingest builds side by side").

Compressed columns (zlib streams: analyses.findings, calls, flow;
flow_sets.data) are written inflated, since two encoders may write
different valid streams of the same text; the columns that hold the time
of the run (repos.created_at, refs.updated_at, ref_forks.computed_at,
rewrites.detected_at) are left out.  Reads the database only (opened
read-only, so a WAL beside it is read, not checkpointed).
"""
import sqlite3
import sys
import zlib

RUN_TIME = {("repos", "created_at"), ("refs", "updated_at"),
            ("ref_forks", "computed_at"), ("rewrites", "detected_at")}


def cell(v):
    if isinstance(v, bytes):
        try:
            return "z:" + zlib.decompress(v).decode("utf-8", "backslashreplace")
        except zlib.error:
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
