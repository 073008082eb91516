/*
 * q_at.c: resolving {repo}/{rev} for the query layer (q_at.h).
 */
#include <string.h>

#include "db.h"
#include "pd_error.h"
#include "q_at.h"

int q_at_resolve(sqlite3 *db, const char *repo, const char *rev, q_at *at)
{
    int rc;

    memset(at, 0, sizeof(*at));
    if ((rc = db_repo_find(db, repo, &at->repo_id, NULL, 0)) < 0)
        return rc;
    if ((rc = db_rev_resolve(db, at->repo_id, rev, &at->commit_id, at->oid)) < 0)
        return rc;
    rc = db_meta_get(db, "rules_hash", at->rules_hash, sizeof(at->rules_hash));
    if (rc == PD_ENOTFOUND)
        rc = pd_error_set(PD_ENOTFOUND, "nothing has been ingested yet");
    return rc;
}
