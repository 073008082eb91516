-- 021_dismissal_ids.sql: a dismissal's id is never given again.
--
-- The dismissals table of 007_triage.sql took the largest id plus one: once
-- the newest dismissal was undone, the next one got its id, and an undo
-- (DELETE .../dismissals/{id}) sent from a page read before that removed
-- the new, unrelated dismissal.  AUTOINCREMENT keeps ids of removed rows
-- from coming back (https://sqlite.org/autoinc.html).  SQLite cannot add it
-- to a table, so the table is made again with its rows and ids; the triggers
-- of 009_dismissal_generation.sql go with the old table and are made again.
-- The copy changes no dismissal, so the generation is left as it is.

CREATE TABLE dismissals_021 (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
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

INSERT INTO dismissals_021 (id, repo_id, fingerprint, reason, comment, tool, path,
                            rule, text, function, line, commit_oid, by_name, created_at)
    SELECT id, repo_id, fingerprint, reason, comment, tool, path, rule, text,
           function, line, commit_oid, by_name, created_at FROM dismissals;

DROP TABLE dismissals;
ALTER TABLE dismissals_021 RENAME TO dismissals;

CREATE TRIGGER dismissals_gen_insert AFTER INSERT ON dismissals BEGIN
    INSERT INTO dismissal_generation (repo_id, gen) VALUES (NEW.repo_id, 1)
        ON CONFLICT (repo_id) DO UPDATE SET gen = gen + 1;
END;

CREATE TRIGGER dismissals_gen_update AFTER UPDATE ON dismissals BEGIN
    INSERT INTO dismissal_generation (repo_id, gen) VALUES (NEW.repo_id, 1)
        ON CONFLICT (repo_id) DO UPDATE SET gen = gen + 1;
END;

CREATE TRIGGER dismissals_gen_delete AFTER DELETE ON dismissals BEGIN
    INSERT INTO dismissal_generation (repo_id, gen) VALUES (OLD.repo_id, 1)
        ON CONFLICT (repo_id) DO UPDATE SET gen = gen + 1;
END;
