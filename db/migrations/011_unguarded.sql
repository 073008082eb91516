-- 011_unguarded.sql: the unguarded findings per token class of every
-- function and of every whole file (issue 10), so that figures which
-- depend on what is guarded (status and readiness outside object-dtype
-- paths, measures such as functions whose C API use is all guarded) are
-- computed from columns, never by reading the findings again.
--
-- functions.ung_*: unguarded findings inside the function; analyses.ung_*:
-- unguarded findings of the whole file (functions and file scope).  NULL
-- only until db_measures.c fills them for analyses stored before this
-- migration, from their findings, in the migration's own transaction.
ALTER TABLE functions ADD COLUMN ung_hpy INTEGER;
ALTER TABLE functions ADD COLUMN ung_capi INTEGER;
ALTER TABLE functions ADD COLUMN ung_npy_legacy INTEGER;
ALTER TABLE functions ADD COLUMN ung_bridge INTEGER;
ALTER TABLE analyses ADD COLUMN ung_hpy INTEGER;
ALTER TABLE analyses ADD COLUMN ung_capi INTEGER;
ALTER TABLE analyses ADD COLUMN ung_npy_legacy INTEGER;
ALTER TABLE analyses ADD COLUMN ung_bridge INTEGER;

-- The no-object-dtype figures of an analysis (db/db_scope.c), now every
-- measure: counts holds the PD_NMEASURES figures in pd_measures.def order,
-- space-separated, so a measure added later needs no column here (a row
-- with another number of figures is stale and computed again).  Derived
-- data: rows may be deleted at any time, and these are.
DROP TABLE IF EXISTS analysis_noobject;
CREATE TABLE analysis_noobject (
    analysis_id INTEGER PRIMARY KEY REFERENCES analyses(id),
    status      INTEGER NOT NULL,      -- pd_status index
    counts      TEXT NOT NULL
);
