-- 007_triage.sql: findings dismissed by a team member (issue 14.7).
--
-- A dismissal follows a finding by its fingerprint, which names the file,
-- rule, function, identifier and its occurrence in that function but no
-- line, so it outlives line moves, new commits and re-analysis.  One
-- dismissal per fingerprint and repository; dismissing again replaces it.
-- path, rule, text, function, line and tool record where the finding was
-- when dismissed, for the list.

CREATE TABLE dismissals (
    id          INTEGER PRIMARY KEY,
    repo_id     INTEGER NOT NULL REFERENCES repos(id),
    fingerprint TEXT NOT NULL,
    reason      TEXT NOT NULL CHECK (reason IN ('false positive', 'won''t fix',
                                                 'used in tests')),
    comment     TEXT NOT NULL,
    tool        TEXT NOT NULL,          -- "portdash" or an uploaded tool
    path        TEXT NOT NULL,
    rule        TEXT,
    text        TEXT,
    function    TEXT,
    line        INTEGER,
    commit_oid  TEXT NOT NULL,          -- the commit it was dismissed at
    by_name     TEXT NOT NULL,          -- token name, or the CLI's --by
    created_at  INTEGER NOT NULL,       -- unix seconds
    UNIQUE (repo_id, fingerprint)
);
