-- 020_zstd_columns.sql: the compressed columns (analyses.findings, calls,
-- flow, fns, and the call graph's stored sets) are written as Zstandard
-- frames from this version on (issue 26: ingest speed; db/db_compress.h).
--
-- Rows written before stay in zlib's format, and this version reads both.
-- A portdash from before could not read the new rows: the version number
-- makes it refuse the database with "schema version 20 is newer than this
-- portdash" instead of calling the new rows damaged.
SELECT 1;
