-- 006_sarif_generation.sql: a counter per commit that every change to its
-- SARIF runs raises (issue 12).  The server's answer cache (srv_cache.c)
-- keys a commit's answers on it.  Run ids are reused after a replacement
-- (sarif_runs.id has no AUTOINCREMENT), so neither their count nor their
-- maximum tells two uploads apart; triggers catch every writer, the
-- server's upload endpoint and `portdash sarif` alike.  No foreign key:
-- the counter must not stand in the way of anything that removes commits.

CREATE TABLE sarif_generation (
    commit_id INTEGER PRIMARY KEY,
    gen       INTEGER NOT NULL
);

CREATE TRIGGER sarif_runs_gen_insert AFTER INSERT ON sarif_runs BEGIN
    INSERT INTO sarif_generation (commit_id, gen) VALUES (NEW.commit_id, 1)
        ON CONFLICT (commit_id) DO UPDATE SET gen = gen + 1;
END;

CREATE TRIGGER sarif_runs_gen_update AFTER UPDATE ON sarif_runs BEGIN
    INSERT INTO sarif_generation (commit_id, gen) VALUES (NEW.commit_id, 1)
        ON CONFLICT (commit_id) DO UPDATE SET gen = gen + 1;
END;

CREATE TRIGGER sarif_runs_gen_delete AFTER DELETE ON sarif_runs BEGIN
    INSERT INTO sarif_generation (commit_id, gen) VALUES (OLD.commit_id, 1)
        ON CONFLICT (commit_id) DO UPDATE SET gen = gen + 1;
END;
