-- 005_types.sql: traverse coverage and the porting frontier (issue 6).
--
-- analyses.hpy_types: what analyze_types.c found in the blob (HPyType_Spec
-- variables, structs with HPyField members, HPyDef arrays, tp_traverse
-- slots, HPy_VISIT members per function) as compact JSON; NULL when the
-- file has none.  The files of a commit are joined at query time
-- (server/api_traverse.c): a struct often lives in a header.
-- analyses.calls: the names each function's body calls, zlib-compressed
-- text with one line per function (in idx order), names separated by one
-- space; calls_len is the uncompressed size.  NULL when no function calls
-- anything.  server/api_frontier.c resolves the names to the repository's
-- functions.  (A TEXT column per function row took 55 MB on numpy/core;
-- compressed per analysis it is a few MB.)

ALTER TABLE analyses ADD COLUMN hpy_types TEXT;
ALTER TABLE analyses ADD COLUMN calls BLOB;
ALTER TABLE analyses ADD COLUMN calls_len INTEGER;
