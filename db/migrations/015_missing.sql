-- 015_missing.sql: blobs an ingest needed but the clone did not hold (a
-- partial clone, --filter=blob:none, or a damaged pack; issue 23 point 6).
-- One row per commit and path whose change named the blob (or, when a
-- resumed run read a path from the base tree, the commit being stored).
-- The commit's summary counts the file as absent; the next ingest that
-- finds the blob in the clone deletes the rows and recomputes the
-- summaries from the first such commit on (ingest/ingest_missing.c).
-- And repos.profile: the port profile of the rules the repository was
-- last ingested with (ingest/rules_profile.c; issue 23, point 4).
CREATE TABLE missing_objects (
    commit_id INTEGER NOT NULL REFERENCES commits(id),
    path_id   INTEGER NOT NULL REFERENCES paths(id),
    blob_oid  TEXT NOT NULL,
    PRIMARY KEY (commit_id, path_id)
) WITHOUT ROWID;
CREATE INDEX missing_objects_blob ON missing_objects(blob_oid);
ALTER TABLE repos ADD COLUMN profile TEXT;      -- rules_profile_json of the last ingest (issue 23, point 4)
