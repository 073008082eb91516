/*
 * db_repo.h: the lifecycle of a stored repository: listing with what is
 * stored, removing and renaming (issue 23, point 5).  Used by
 * `portdash repo` (cli/cli_repo.c), the repository API (server/api_repo.c)
 * and ingest, which removes a repository its failed first run created.
 */
#ifndef DB_REPO_H
#define DB_REPO_H

#include <stdint.h>
#include <sqlite3.h>

#include "pathfilter_value.h"

/* One repository as db_repo_list gives it (strings valid during the call). */
typedef struct {
    int64_t id;
    const char *name;
    const char *path;         /* git directory given at ingest */
    const char *scope;        /* the path filter, JSON {"include": [...],
                               * "exclude": [...]} (column and API field
                               * `scope`, a name kept for compatibility) */
    int64_t created_at;       /* unix seconds */
    int64_t commits;          /* stored commits */
    int64_t refs;             /* stored refs: 0 means no data to show */
    int64_t missing;          /* blobs recorded as missing (db_missing.h) */
    const char *profile;      /* JSON (rules_profile_json), NULL before any */
} db_repo_info;

/*
 * Call `fn` for every repository, by name.  A non-zero return from fn stops
 * the walk and is returned; otherwise 0 or PD_EDB.
 */
int db_repo_list(sqlite3 *db, int (*fn)(void *arg, const db_repo_info *r), void *arg);

/*
 * Remove repository `name` and everything stored for it alone (commits,
 * changes, summaries, refs, rewrites, snapshots, SARIF runs, dismissals,
 * missing-object records) in one transaction of its own.  Analyses and
 * paths are shared by content between repositories and stay: a later
 * ingest of the same code reuses them.  0, PD_ENOTFOUND, PD_EDB.
 */
int db_repo_rm(sqlite3 *db, const char *name);

/*
 * Remove repository row id `id` as db_repo_rm does, inside the caller's
 * open transaction (ingest, after a failed first run).  0 or PD_EDB.
 */
int db_repo_rm_id(sqlite3 *db, int64_t id);

/* The profile stored with repository row `id` (JSON text,
 * rules_profile_json) into buf, n bytes; "" when none is stored.  0 or
 * PD_EDB. */
int db_repo_profile(sqlite3 *db, int64_t id, char *buf, size_t n);

/* Store `profile` (JSON text, rules_profile_json) with repository row `id`,
 * in the caller's transaction.  0 or PD_EDB. */
int db_repo_set_profile(sqlite3 *db, int64_t id, const char *profile);

/*
 * The path filter stored with repository `id` (the `scope` column) into
 * *out, freed with pathfilter_owned_free (also after a failure).  0,
 * PD_ENOTFOUND (no such repository), PD_EINVAL (a stored filter that is
 * not pathfilter_to_json's), PD_ENOMEM, PD_EDB.
 */
int db_repo_filter(sqlite3 *db, int64_t id, pathfilter_owned *out);

/*
 * Remove repository row `id` in a transaction of its own when it has no
 * ref: what a failed first ingest leaves (commits a checkpoint kept are
 * unreachable without a ref); with `bare`, only when it has no commit
 * either: what a first ingest stopped before its first batch leaves (one
 * stopped later keeps its batches, and the next run goes on from them).
 * Quiet: a failure leaves the row, which `portdash repo rm` removes.  1
 * when removed, else 0.
 */
int db_repo_forget_empty(sqlite3 *db, int64_t id, int bare);

/*
 * Rename repository `from` to `to`.  `to` must be a name ingest accepts
 * (db_repo_name_check) and not taken.  0; PD_ENOTFOUND (no `from`);
 * PD_EINVAL (bad or taken name); PD_EDB.
 */
int db_repo_rename(sqlite3 *db, const char *from, const char *to);

/* 0 when `name` may name a repository: non-empty, without '=' (serve
 * --repo NAME=GITDIR splits at the first '='), without control characters
 * (bytes below 0x20, 0x7F, U+0080-U+009F: names go into log lines and
 * errors), UTF-8, and not "." or "..";
 * else PD_EINVAL with a message that says why. */
int db_repo_name_check(const char *name);

/*
 * Before an ingest of repository `repo_id` under the rules file whose
 * content hash is `rules_file` (named `rules_name` in messages): a database
 * answers every repository under the rules of its last ingest (meta
 * rules_hash), so another rules file would leave every other repository
 * without answers ("no summary under the current rules", empty symbol
 * lists).  PD_EINVAL naming them when meta `rules_file` (set by
 * db_repo_rules_set) is another file and another repository has commits;
 * `rules_legacy` (may be NULL) is the same rules' hash of an older
 * portdash (rules_hash_raw), which names the same file;
 * 1 when it is another file and only `repo_id` has commits (a database of
 * one repository may change its rules: the ingest analyses it again, and
 * says so); else 0.  PD_EDB.
 */
int db_repo_rules_check(sqlite3 *db, int64_t repo_id, const char *rules_file,
                        const char *rules_legacy, const char *rules_name);

/* Record the rules file of the ingest that ends (meta rules_file: "HASH
 * NAME").  0 or PD_EDB. */
int db_repo_rules_set(sqlite3 *db, const char *rules_file, const char *rules_name);

#endif
