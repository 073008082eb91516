-- 002_history.sql: what issue 4 (history the team can read) needs.
--
-- Renames: a change row of the new path names the path it came from.
-- Rewrites: a ref whose new tip does not descend from its stored tip.
-- Patch ids: git patch-id of each non-merge commit's in-scope diff, so a
-- rebased commit can be linked to the commit it was before the rebase.
-- Snapshots: immutable weekly records of a ref, with per-file status.

ALTER TABLE changes ADD COLUMN old_path_id INTEGER REFERENCES paths(id);
ALTER TABLE commits ADD COLUMN patch_id TEXT;
CREATE INDEX commits_patch_id ON commits(patch_id) WHERE patch_id IS NOT NULL;
CREATE INDEX changes_path ON changes(path_id);

CREATE TABLE rewrites (
    id            INTEGER PRIMARY KEY,
    repo_id       INTEGER NOT NULL REFERENCES repos(id),
    ref           TEXT NOT NULL,
    old_commit_id INTEGER NOT NULL REFERENCES commits(id),
    new_commit_id INTEGER NOT NULL REFERENCES commits(id),
    detected_at   INTEGER NOT NULL       -- unix seconds
);
CREATE INDEX rewrites_ref ON rewrites(repo_id, ref);

CREATE TABLE snapshots (
    id         INTEGER PRIMARY KEY,
    repo_id    INTEGER NOT NULL REFERENCES repos(id),
    ref        TEXT NOT NULL,
    week       TEXT NOT NULL,            -- ISO 8601 week, 2021-W03
    commit_id  INTEGER NOT NULL REFERENCES commits(id),
    taken_at   INTEGER NOT NULL,         -- unix seconds
    method     TEXT NOT NULL,            -- live | backfill-author-date | backfill-committer-date
    rules_hash TEXT NOT NULL,
    files INTEGER NOT NULL, universal_ready_files INTEGER NOT NULL,
    tok_hpy INTEGER NOT NULL, tok_capi INTEGER NOT NULL,
    tok_npy_legacy INTEGER NOT NULL, tok_bridge INTEGER NOT NULL,
    fn_ported INTEGER NOT NULL, fn_bridged INTEGER NOT NULL,
    fn_legacy INTEGER NOT NULL, fn_neutral INTEGER NOT NULL,
    obj_legacy INTEGER NOT NULL, obj_cpython_only INTEGER NOT NULL,
    obj_universal INTEGER NOT NULL,
    UNIQUE (repo_id, ref, week)
);

CREATE TABLE snapshot_files (
    snapshot_id     INTEGER NOT NULL REFERENCES snapshots(id),
    path            TEXT NOT NULL,
    blob_oid        TEXT NOT NULL,
    status          TEXT NOT NULL,
    universal_ready INTEGER NOT NULL,
    fn_ported INTEGER NOT NULL, fn_bridged INTEGER NOT NULL,
    fn_legacy INTEGER NOT NULL, fn_neutral INTEGER NOT NULL,
    obj_legacy INTEGER NOT NULL, obj_cpython_only INTEGER NOT NULL,
    obj_universal INTEGER NOT NULL,
    PRIMARY KEY (snapshot_id, path)
) WITHOUT ROWID;

-- Snapshots are immutable: the database itself refuses edits.
CREATE TRIGGER snapshots_immutable BEFORE UPDATE ON snapshots
BEGIN SELECT RAISE(ABORT, 'snapshots are immutable'); END;
CREATE TRIGGER snapshots_no_delete BEFORE DELETE ON snapshots
BEGIN SELECT RAISE(ABORT, 'snapshots are immutable'); END;
CREATE TRIGGER snapshot_files_immutable BEFORE UPDATE ON snapshot_files
BEGIN SELECT RAISE(ABORT, 'snapshots are immutable'); END;
