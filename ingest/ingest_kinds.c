/*
 * ingest_kinds.c: the source-kind generation a repository was stored
 * under (see ingest_kinds.h).
 */
#include <stdio.h>
#include <stdlib.h>

#include "db.h"
#include "db_tree.h"
#include "ingest_kinds.h"
#include "pd_domain.h"
#include "pd_error.h"

static void ingest_kinds_key(char *key, size_t n, int64_t repo_id)
{
    snprintf(key, n, "source_kinds/%lld", (long long)repo_id);
}

int ingest_kinds_stored(sqlite3 *db, int64_t repo_id, int repo_new, int *since)
{
    char key[64], v[32];
    int rc;

    *since = PD_SRC_KINDS;
    if (repo_new)
        return 0;
    ingest_kinds_key(key, sizeof(key), repo_id);
    if ((rc = db_meta_get(db, key, v, sizeof(v))) == PD_ENOTFOUND) {
        *since = 1;
        return 0;
    }
    if (rc < 0)
        return rc;
    *since = atoi(v);
    /* A newer program's record: nothing this one knows is missing. */
    if (*since < 1 || *since > PD_SRC_KINDS)
        *since = PD_SRC_KINDS;
    return 0;
}

int ingest_kinds_done(sqlite3 *db, int64_t repo_id, int since)
{
    char key[64], v[32];
    int rc;

    if (since < PD_SRC_KINDS && (rc = db_tree_refill(db)) < 0)
        return rc;
    ingest_kinds_key(key, sizeof(key), repo_id);
    snprintf(v, sizeof(v), "%d", PD_SRC_KINDS);
    return db_meta_set(db, key, v);
}
