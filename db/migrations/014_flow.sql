-- 014_flow.sql: the flow facts of each analysis (issue 21, truth by
-- evidence): one line per function in index order, "NAME\tLINE\tBITS\tFACTS"
-- (common/pd_flow.h says the format), zlib-compressed; flow_len is the
-- uncompressed size.  NULL for analyses stored by an analyzer before
-- version 8, which the next ingest replaces (the analysis key changed).
-- Numbered 014 to leave 013 to a migration written beside it.
ALTER TABLE analyses ADD COLUMN flow BLOB;
ALTER TABLE analyses ADD COLUMN flow_len INTEGER;
