-- 016_ref_fork.sql: where a ref's own commits begin (issue 23.1).
--
-- A port branch sits on top of its upstream's history: numpy-hpy's `hpy`
-- is 54 commits on numpy `main` of 2022-02-08.  At ingest the upstream
-- (`--upstream REF`, else `main` or `master` when the git directory has
-- one) is compared with the ref by git: the ref's own commits are the
-- commits of its first-parent chain that the upstream cannot reach.  They
-- are always a tail of the chain (reachability is closed under ancestry),
-- so one commit marks the boundary: the newest chain commit the upstream
-- reaches (base), NULL when it reaches none (the whole chain is the ref's).
CREATE TABLE ref_forks (
    repo_id        INTEGER NOT NULL REFERENCES repos(id),
    ref            TEXT NOT NULL,
    upstream       TEXT NOT NULL,           -- as given or found: main, master, ...
    base_commit_id INTEGER REFERENCES commits(id),
    own_commits    INTEGER NOT NULL,        -- first-parent commits after the base
    computed_at    INTEGER NOT NULL,        -- unix seconds
    PRIMARY KEY (repo_id, ref)
);
