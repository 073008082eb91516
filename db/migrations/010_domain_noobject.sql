-- 010_domain_noobject.sql: the no-object-dtype figures of one analysis
-- (db/db_scope.c): the analysis with its object-dtype functions left out,
-- as status (pd_status index), universal_ready and the token and function
-- counts.  Derived data, filled on first use or by db_scope_warm(), and
-- rows may be deleted at any time; it was created at run time before this
-- migration, hence IF NOT EXISTS (same columns).

CREATE TABLE IF NOT EXISTS analysis_noobject (
    analysis_id INTEGER PRIMARY KEY REFERENCES analyses(id),
    status INTEGER NOT NULL, universal_ready INTEGER NOT NULL,
    tok_hpy INTEGER NOT NULL, tok_capi INTEGER NOT NULL,
    tok_npy_legacy INTEGER NOT NULL, tok_bridge INTEGER NOT NULL,
    fn_ported INTEGER NOT NULL, fn_bridged INTEGER NOT NULL,
    fn_legacy INTEGER NOT NULL, fn_neutral INTEGER NOT NULL
);
