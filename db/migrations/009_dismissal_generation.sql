-- 009_dismissal_generation.sql: a counter per repository that every change
-- to its dismissals (007_triage.sql) raises.  A dismissal follows its
-- finding to every commit of the repository, so the answer cache
-- (server/srv_cache_key.c) keys every commit answer on this counter as it
-- does on the commit's SARIF generation (006); triggers catch every writer,
-- the API and `portdash triage` alike.

CREATE TABLE dismissal_generation (
    repo_id INTEGER PRIMARY KEY,
    gen     INTEGER NOT NULL
);

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
