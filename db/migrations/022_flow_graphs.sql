-- 022_flow_graphs.sql: the call graph of each stored ref's commit, kept
-- packed (issue 26, goal 1: one pushed commit within 50 ms).
--
-- The ingest resolves each commit's call graph from the flow facts of
-- every file (014_flow.sql) and keeps it from commit to commit; but a new
-- run (a push) had to make its base commit's graph again from the stored
-- facts of every file: 45 % of the instructions of a push whose facts
-- change.  flow_graphs keeps the graph's input as pd_flow_pack writes it
-- (common/pd_flow_pack.c: about 750 KB for numpy/core, read back in a
-- tenth of the time the facts take), uncompressed (Zstandard's level 1
-- took as long as the read it saves) and ended by its own checksum;
-- flow_graph_commits names the graph of the commit each stored ref names,
-- so that a push that changes no function's facts names its base's graph
-- again instead of writing it.  Rows of commits no ref names any more, and
-- graphs no commit names, are dropped.  A commit without a row (every
-- commit of a database from before this migration) or with one that does
-- not read back is read from the facts, as before.  Whatever rewrites
-- stored flow facts drops the rows of the commits it touches
-- (ingest_missing.c, db_repo.c).
CREATE TABLE flow_graphs (
    id   INTEGER PRIMARY KEY,
    data BLOB NOT NULL                  -- pd_flow_pack
);

CREATE TABLE flow_graph_commits (
    commit_id  INTEGER NOT NULL REFERENCES commits(id),
    rules_hash TEXT NOT NULL,
    graph_id   INTEGER NOT NULL REFERENCES flow_graphs(id),
    PRIMARY KEY (commit_id, rules_hash)
) WITHOUT ROWID;
