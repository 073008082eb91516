-- 013_sarif_rules.sql: a SARIF rule id is stored once per run, results
-- refer to it (issue 27: a 7.9 MiB rule id named by ruleIndex was copied
-- into every result, 8.3 KB of gzip became a 498 MB database).  Rules
-- belong to their run and go with it when an upload replaces the run.

CREATE TABLE sarif_rules (
    id       INTEGER PRIMARY KEY,
    run_id   INTEGER NOT NULL REFERENCES sarif_runs(id),
    rule_id  TEXT NOT NULL,
    UNIQUE (run_id, rule_id)
);

INSERT INTO sarif_rules (run_id, rule_id)
    SELECT DISTINCT run_id, rule_id FROM sarif_results WHERE rule_id IS NOT NULL;

CREATE TABLE sarif_results_new (
    run_id       INTEGER NOT NULL REFERENCES sarif_runs(id),
    idx          INTEGER NOT NULL,       -- position in runs[i].results
    path         TEXT,                   -- repository-relative; NULL: outside
    line         INTEGER,                -- region.startLine, 1-based
    col          INTEGER,                -- region.startColumn, 1-based
    rule         INTEGER REFERENCES sarif_rules(id),   -- NULL: no rule
    level        TEXT NOT NULL,          -- none | note | warning | error
    kind         TEXT NOT NULL,          -- fail | pass | open | ...
    message      TEXT NOT NULL,
    function     TEXT,                   -- analysed function holding the line
    fingerprints TEXT NOT NULL,          -- JSON object, with "portdash/v1"
    PRIMARY KEY (run_id, idx)
) WITHOUT ROWID;

INSERT INTO sarif_results_new (run_id, idx, path, line, col, rule, level, kind, message,
                               function, fingerprints)
    SELECT r.run_id, r.idx, r.path, r.line, r.col, u.id, r.level, r.kind, r.message,
           r.function, r.fingerprints
    FROM sarif_results r LEFT JOIN sarif_rules u
         ON u.run_id = r.run_id AND u.rule_id = r.rule_id;

DROP TABLE sarif_results;
ALTER TABLE sarif_results_new RENAME TO sarif_results;
CREATE INDEX sarif_results_path ON sarif_results(path, run_id);
