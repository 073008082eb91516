-- 001_init.sql: the first schema of portdash.
--
-- History model: a commit row per ingested commit, with its first parent, and
-- the in-scope files it changed relative to that parent (table changes: a
-- NULL blob means deleted).  The file list at any commit is the newest change
-- of each path along its first-parent chain, so trees are never stored whole.
-- Analyses are keyed by (blob id, rules hash): a blob is analysed once per
-- rules file, however many commits and repositories hold it.

CREATE TABLE meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
);

CREATE TABLE repos (
    id         INTEGER PRIMARY KEY,
    name       TEXT NOT NULL UNIQUE,
    path       TEXT NOT NULL,          -- git directory given at ingest
    scope      TEXT NOT NULL,          -- JSON {"include": [...], "exclude": [...]}
    created_at INTEGER NOT NULL        -- unix seconds
);

CREATE TABLE commits (
    id               INTEGER PRIMARY KEY,
    repo_id          INTEGER NOT NULL REFERENCES repos(id),
    oid              TEXT NOT NULL,    -- 40 hex
    parents          TEXT NOT NULL,    -- space-separated parent ids
    first_parent_id  INTEGER REFERENCES commits(id),
    author_name      TEXT NOT NULL,
    author_email     TEXT NOT NULL,
    author_time      INTEGER NOT NULL, -- unix seconds
    author_offset    INTEGER NOT NULL, -- minutes east of UTC
    committer_time   INTEGER NOT NULL,
    committer_offset INTEGER NOT NULL,
    summary          TEXT NOT NULL,    -- first line of the message
    UNIQUE (repo_id, oid)
);
CREATE INDEX commits_first_parent ON commits(first_parent_id);

CREATE TABLE refs (
    repo_id    INTEGER NOT NULL REFERENCES repos(id),
    name       TEXT NOT NULL,          -- as given (hpy, refs/heads/hpy, ...)
    commit_id  INTEGER NOT NULL REFERENCES commits(id),
    updated_at INTEGER NOT NULL,
    PRIMARY KEY (repo_id, name)
);

CREATE TABLE paths (
    id   INTEGER PRIMARY KEY,
    path TEXT NOT NULL UNIQUE
);

CREATE TABLE changes (
    commit_id INTEGER NOT NULL REFERENCES commits(id),
    path_id   INTEGER NOT NULL REFERENCES paths(id),
    blob_oid  TEXT,                    -- NULL: deleted in this commit
    PRIMARY KEY (commit_id, path_id)
) WITHOUT ROWID;

-- Counts are denormalised so that summaries are sums, not re-analyses.
CREATE TABLE analyses (
    id              INTEGER PRIMARY KEY,
    blob_oid        TEXT NOT NULL,
    rules_hash      TEXT NOT NULL,
    size            INTEGER NOT NULL,  -- bytes
    lines           INTEGER NOT NULL,
    status          TEXT NOT NULL,     -- ported|bridged|legacy|neutral
    universal_ready INTEGER NOT NULL,
    tok_hpy INTEGER NOT NULL, tok_capi INTEGER NOT NULL,
    tok_npy_legacy INTEGER NOT NULL, tok_bridge INTEGER NOT NULL,
    fn_ported INTEGER NOT NULL, fn_bridged INTEGER NOT NULL,
    fn_legacy INTEGER NOT NULL, fn_neutral INTEGER NOT NULL,
    obj_legacy INTEGER NOT NULL, obj_cpython_only INTEGER NOT NULL,
    obj_universal INTEGER NOT NULL,
    notes           TEXT,
    findings        BLOB NOT NULL,     -- zlib(JSON array), see db_findings.c
    findings_len    INTEGER NOT NULL,  -- uncompressed bytes
    UNIQUE (blob_oid, rules_hash)
);

CREATE TABLE functions (
    analysis_id  INTEGER NOT NULL REFERENCES analyses(id),
    idx          INTEGER NOT NULL,
    name         TEXT NOT NULL,
    start_line   INTEGER NOT NULL,
    end_line     INTEGER NOT NULL,
    status       TEXT NOT NULL,
    object_state TEXT,                 -- NULL: not an object-dtype path
    tok_hpy INTEGER NOT NULL, tok_capi INTEGER NOT NULL,
    tok_npy_legacy INTEGER NOT NULL, tok_bridge INTEGER NOT NULL,
    PRIMARY KEY (analysis_id, idx)
) WITHOUT ROWID;

-- Summary of each commit under one rules file, computed at ingest.
CREATE TABLE commit_stats (
    commit_id  INTEGER NOT NULL REFERENCES commits(id),
    rules_hash TEXT NOT NULL,
    files INTEGER NOT NULL, universal_ready_files INTEGER NOT NULL,
    tok_hpy INTEGER NOT NULL, tok_capi INTEGER NOT NULL,
    tok_npy_legacy INTEGER NOT NULL, tok_bridge INTEGER NOT NULL,
    fn_ported INTEGER NOT NULL, fn_bridged INTEGER NOT NULL,
    fn_legacy INTEGER NOT NULL, fn_neutral INTEGER NOT NULL,
    obj_legacy INTEGER NOT NULL, obj_cpython_only INTEGER NOT NULL,
    obj_universal INTEGER NOT NULL,
    PRIMARY KEY (commit_id, rules_hash)
) WITHOUT ROWID;
