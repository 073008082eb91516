/*
 * q_at.h: a resolved {repo}/{rev} pair, the address every question of the
 * query layer (query/q_*.h) is asked at.  query/ sits between db/ (below)
 * and server/ and cli/ (above): it reads through db/ and returns typed
 * results; it includes nothing of server/ or cli/.
 */
#ifndef Q_AT_H
#define Q_AT_H

#include <sqlite3.h>
#include <stdint.h>

/* A resolved {repo}/{rev} pair. */
typedef struct {
    int64_t repo_id;
    int64_t commit_id;
    char oid[41];                /* the commit id, 40 hex */
    char rules_hash[64];         /* the rules the stored analyses were made with */
} q_at;

/*
 * Resolve `repo` (a repository name) and `rev` (db_rev_resolve: a ref, a
 * full or abbreviated commit id) in `db` and read the current rules hash
 * into *at.  Returns 0, or a negative code after pd_error_set:
 * PD_ENOTFOUND (no such repository or revision, or nothing ingested yet),
 * PD_EDB.
 */
int q_at_resolve(sqlite3 *db, const char *repo, const char *rev, q_at *at);

#endif
