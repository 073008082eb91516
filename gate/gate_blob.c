/*
 * gate_blob.c: a blob the gate reads (see gate_blob.h).
 */
#include "gate_blob.h"
#include "pd_error.h"

int gate_blob_lookup(git_blob **out, git_repository *repo, const git_oid *oid,
                     const char *path)
{
    char hex[GIT_OID_HEXSZ + 1];
    const git_error *e;

    if (git_blob_lookup(out, repo, oid) == 0)
        return 0;
    e = git_error_last();
    git_oid_tostr(hex, sizeof(hex), oid);
    return pd_error_set(PD_EGIT, "cannot read blob %s (%s): %s (git fsck says what is "
                        "damaged or missing)", hex, path, e ? e->message : "?");
}
