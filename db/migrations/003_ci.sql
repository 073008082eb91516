-- 003_ci.sql: what CI bots need (issue 5): API tokens.
--
-- Only a SHA-256 hash of each token is stored; the token itself is shown
-- once, when created.  Scopes are space-separated words (ingest, sarif, read).

CREATE TABLE tokens (
    id         INTEGER PRIMARY KEY,
    name       TEXT NOT NULL UNIQUE,
    hash       BLOB NOT NULL,          -- crypto_hash_sha256 of the token
    scopes     TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    revoked_at INTEGER                 -- NULL while valid
);
