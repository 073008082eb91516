/*
 * ingest_tip.c: a ref's tip in the git directory against its stored tip
 * (see ingest_tip.h).
 */
#include <stdio.h>

#include "db_ingest.h"
#include "ingest_tip.h"

int ingest_tip_behind(ingest_ctx *c, int64_t old_id, const git_oid *tip)
{
    char old_hex[GIT_OID_HEXSZ + 1], hex[GIT_OID_HEXSZ + 1];
    git_odb *odb = NULL;
    git_oid old;
    int64_t id = 0;
    int rc, has_stats, lacks;

    if (!old_id)
        return 0;
    if ((rc = db_ingest_commit_oid(c->store, old_hex, old_id)) < 0)
        return rc;
    if (git_oid_fromstr(&old, old_hex) < 0 || git_repository_odb(&odb, c->repo) < 0) {
        git_error_clear();
        return 0;
    }
    lacks = !git_odb_exists(odb, &old);
    git_odb_free(odb);
    if (!lacks)
        return 0;
    git_oid_tostr(hex, sizeof(hex), tip);
    if ((rc = db_ingest_commit_find(c->store, &id, &has_stats, c->repo_id, hex,
                                    c->rules_hash)) < 0)
        return rc;
    return id && id != old_id ? db_ingest_on_chain(c->store, old_id, id) : 0;
}

int ingest_tip_rewrite(ingest_ctx *c, const char *ref, int64_t old_id, int64_t new_id,
                       const git_oid *tip)
{
    char hex[GIT_OID_HEXSZ + 1];
    git_oid old;
    int rc;

    if (!old_id || old_id == new_id)
        return 0;
    if ((rc = db_ingest_on_chain(c->store, new_id, old_id)) != 0)
        return rc < 0 ? rc : 0;
    if ((rc = db_ingest_commit_oid(c->store, hex, old_id)) < 0)
        return rc;
    if (git_oid_fromstr(&old, hex) == 0 &&
        git_graph_descendant_of(c->repo, tip, &old) == 1)
        return 0;
    git_error_clear();
    c->st.rewrites++;
    snprintf(c->st.rewrite_ref, sizeof(c->st.rewrite_ref), "%s", ref);
    snprintf(c->st.rewrite_from, sizeof(c->st.rewrite_from), "%s", hex);
    git_oid_tostr(c->st.rewrite_to, sizeof(c->st.rewrite_to), tip);
    return db_ingest_rewrite(c->store, c->repo_id, ref, old_id, new_id);
}
