-- 018_flow_sets.sql: the call graph's results stored per commit (issue 26.3:
-- cold answers).
--
-- Every reader of object-dtype states (file list, file page, summary,
-- scope counts, blockers) needs the commit's call graph, and building it
-- from the flow facts of every file (014_flow.sql) was most of a cold
-- answer.  What the graph adds to the functions' own states is small (a
-- few dozen functions on numpy/core), so each commit keeps it:
--
-- flow_sets holds each distinct set once (pd_flow_results_encode: one line
-- per function whose resolved kinds differ from its own, with the callee
-- its chain starts with), zlib-compressed, keyed by the SHA-1 of its text;
-- flow_commits names the set of each commit under a rules hash.  Most
-- commits share their parent's set.  analyses.flow_fns is each analysis's
-- functions' own bits and first lines ("LINE BITS\n" per function,
-- pd_flow_fns_encode), so a reader rebuilds the graph's answers from the
-- set and the files' flow_fns without reading facts (db/db_flow.c).
--
-- The ingest writes both; this migration fills them for what was stored
-- before it (db_flow_fill, db/db_flow_set.h).  A commit without a row (or a
-- set that does not fit its files) is read the old way, from the facts.
ALTER TABLE analyses ADD COLUMN flow_fns TEXT;

CREATE TABLE flow_sets (
    id       INTEGER PRIMARY KEY,
    sha1     TEXT NOT NULL UNIQUE,       -- of the uncompressed text
    data     BLOB NOT NULL,              -- zlib(text)
    data_len INTEGER NOT NULL            -- uncompressed bytes
);

CREATE TABLE flow_commits (
    commit_id  INTEGER NOT NULL REFERENCES commits(id),
    rules_hash TEXT NOT NULL,
    set_id     INTEGER NOT NULL REFERENCES flow_sets(id),
    PRIMARY KEY (commit_id, rules_hash)
) WITHOUT ROWID;
