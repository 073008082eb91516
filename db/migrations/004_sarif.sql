-- 004_sarif.sql: analyzer output uploaded as SARIF 2.1.0 (issue 5).
--
-- One row per SARIF run, keyed by commit, tool (tool.driver.name) and
-- category (automationDetails.id up to its last '/', "" when none); a new
-- upload with the same key replaces the rows of the old one.  Every result
-- is kept, findings (kind "fail") and the rest alike; a result whose
-- location is outside the repository has path NULL.

CREATE TABLE sarif_runs (
    id           INTEGER PRIMARY KEY,
    repo_id      INTEGER NOT NULL REFERENCES repos(id),
    commit_id    INTEGER NOT NULL REFERENCES commits(id),
    tool         TEXT NOT NULL,          -- runs[i].tool.driver.name
    tool_version TEXT,                   -- driver.semanticVersion or .version
    category     TEXT NOT NULL,
    uploaded_at  INTEGER NOT NULL,       -- unix seconds
    results      INTEGER NOT NULL,       -- every result of the run
    findings     INTEGER NOT NULL,       -- results of kind "fail"
    unmapped     INTEGER NOT NULL        -- results not at a file of the commit
);
CREATE INDEX sarif_runs_key ON sarif_runs(commit_id, tool, category);

CREATE TABLE sarif_results (
    run_id       INTEGER NOT NULL REFERENCES sarif_runs(id),
    idx          INTEGER NOT NULL,       -- position in runs[i].results
    path         TEXT,                   -- repository-relative; NULL: outside
    line         INTEGER,                -- region.startLine, 1-based
    col          INTEGER,                -- region.startColumn, 1-based
    rule_id      TEXT,
    level        TEXT NOT NULL,          -- none | note | warning | error
    kind         TEXT NOT NULL,          -- fail | pass | open | ...
    message      TEXT NOT NULL,
    function     TEXT,                   -- analysed function holding the line
    fingerprints TEXT NOT NULL,          -- JSON object, with "portdash/v1"
    PRIMARY KEY (run_id, idx)
) WITHOUT ROWID;
CREATE INDEX sarif_results_path ON sarif_results(path, run_id);
