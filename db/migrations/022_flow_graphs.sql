-- 022_flow_graphs.sql: the call graph of each stored ref's commit, kept
-- packed (issue 26, goal 1: one pushed commit within 50 ms).
--
-- The ingest resolves each commit's call graph from the flow facts of
-- every file (014_flow.sql) and keeps it from commit to commit; but a new
-- run (a push) had to make its base commit's graph again from the stored
-- facts of every file: 45 % of the instructions of a push whose facts
-- change.
--
-- flow_graphs holds a graph's input as pd_flow_pack writes it
-- (common/pd_flow_pack.c: about 750 KB for numpy/core, read back in a
-- third of the time the facts take), uncompressed (Zstandard's level 1
-- took as long as the read it saves) and ended by its own checksum.
-- flow_graph_commits names the graph of the commit each stored ref names:
-- a block, and the files whose version differs from the block's.  A push
-- names its base's block with the files it changed (while their facts are
-- at most 128 KiB: ingest.h) instead of writing a new block; one that
-- changes no function's facts names its base's block and files as they
-- are.
--
-- Rows of commits no ref names any more, and blocks no row names, are
-- dropped.  A commit without a row (every commit of a database from
-- before this migration) or with one that does not read back is read from
-- the facts, as before.  Whatever rewrites stored flow facts drops the
-- rows of the commits it touches (ingest_missing.c, db_repo.c).  IF NOT
-- EXISTS: a database whose schema version was set back (the migration
-- tests) keeps its tables.
CREATE TABLE IF NOT EXISTS flow_graphs (
    id   INTEGER PRIMARY KEY,
    data BLOB NOT NULL                  -- pd_flow_pack
);

CREATE TABLE IF NOT EXISTS flow_graph_commits (
    commit_id  INTEGER NOT NULL REFERENCES commits(id),
    rules_hash TEXT NOT NULL,
    graph_id   INTEGER NOT NULL REFERENCES flow_graphs(id),
    files      TEXT,                    -- "ANALYSIS_ID\tBYTES\tPATH\n" by
                                        -- path: the files read over the
                                        -- block (0: gone; BYTES: of their
                                        -- facts); NULL: none
    PRIMARY KEY (commit_id, rules_hash)
) WITHOUT ROWID;
