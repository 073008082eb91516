-- 012_fn_capi_guarded.sql: the measure functions.capi-guarded
-- (common/pd_measures.def): functions that use the C API only inside
-- CPython-only blocks (#ifndef HPY_ABI_UNIVERSAL and the other guards), so
-- they keep CPython code but do not block universal mode.
--
-- Columns without a default: db_measures.c fills them for rows stored
-- before this migration, in its transaction, from the unguarded counts of
-- migration 011 (analyses), by replaying histories (commit_stats) and from
-- those (snapshots).
ALTER TABLE analyses ADD COLUMN fn_capi_guarded INTEGER;
ALTER TABLE commit_stats ADD COLUMN fn_capi_guarded INTEGER;
ALTER TABLE snapshots ADD COLUMN fn_capi_guarded INTEGER;
