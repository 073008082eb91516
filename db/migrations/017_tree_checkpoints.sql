-- 017_tree_checkpoints.sql: stored file lists along first-parent chains
-- (issue 26.3: cold answers).
--
-- The file list of a commit is the newest change of each path along its
-- first-parent chain (001_init.sql); on numpy-hpy that chain is 15,000
-- commits long, and walking it is most of a cold answer.  Every
-- DB_TREE_EVERY-th commit of a chain (db/db_tree.h) now keeps its whole file
-- list in tree_files, so a file list is that checkpoint's files overlaid
-- with the changes of at most DB_TREE_EVERY commits after it.
--
-- chain_pos has a row per commit: its depth (first-parent commits before
-- it; 0 for a root, or where the chain is cut by a link that does not go
-- to an older row) and the nearest commit of its chain, itself included,
-- whose file list is stored (NULL: none, the list is walked to the root).
-- Both are facts of commit rows and changes that never change once
-- written; the ingest fills them for new commits before each of its
-- transactions commits, and this migration for the commits stored before
-- it (db_tree_fill).  A commit without a row is read by the full walk.
CREATE TABLE chain_pos (
    commit_id INTEGER PRIMARY KEY REFERENCES commits(id),
    depth     INTEGER NOT NULL,
    base_id   INTEGER REFERENCES commits(id)
);

CREATE TABLE tree_files (
    commit_id INTEGER NOT NULL REFERENCES commits(id),
    path_id   INTEGER NOT NULL REFERENCES paths(id),
    blob_oid  TEXT NOT NULL,             -- deleted paths have no row
    PRIMARY KEY (commit_id, path_id)
) WITHOUT ROWID;
