/*
 * db_token.h: API tokens for write endpoints (and reads under
 * `serve --private`).  Tokens are 32 random bytes from libsodium, shown once
 * as "pd_" + 64 hex digits; the database keeps their SHA-256 only, and a
 * presented token is checked against every stored hash with sodium_memcmp,
 * in constant time.
 *
 * A token carries permissions (read, ingest, sarif, triage, admin): words
 * given with `portdash token create --scope` and stored in the tokens
 * table's `scopes` column, names kept for compatibility.  "Scope" in
 * portdash's code means a named report scope (db_scope.h).
 */
#ifndef DB_TOKEN_H
#define DB_TOKEN_H

#include <stddef.h>
#include <stdint.h>
#include <sqlite3.h>

#define DB_TOKEN_LEN 67            /* "pd_" + 64 hex, without the NUL */

/* The permissions a token may carry. */
/* admin: removing and renaming repositories (api_repo.c); a token made
 * before it existed does not carry it. */
#define DB_TOKEN_PERMS "read ingest sarif triage admin"

/*
 * Create token `name` with space-separated permissions `perms` (NULL: all of
 * DB_TOKEN_PERMS).  The token text is written to out (DB_TOKEN_LEN + 1
 * bytes).  Errors: PD_EINVAL (name taken, unknown permission), PD_EDB.
 */
int db_token_create(sqlite3 *db, char *out, const char *name, const char *perms);

/* Revoke token `name`.  0, PD_ENOTFOUND, PD_EDB. */
int db_token_revoke(sqlite3 *db, const char *name);

/*
 * Check a presented token.  Returns 0 and copies its permissions into perms_out
 * (size n) when it matches a valid token, PD_ENOTFOUND when it matches none
 * (unknown or revoked), PD_EDB.
 */
int db_token_check(sqlite3 *db, const char *token, char *perms_out, size_t n);

/* The name of valid token `token` into out (size n).  0, PD_ENOTFOUND,
 * PD_EDB.  For records of who did what; authorise with db_token_check. */
int db_token_name(sqlite3 *db, const char *token, char *out, size_t n);

/* One stored token, as db_token_list gives it (strings valid during the
 * call). */
typedef struct {
    const char *name;
    const char *perms;       /* space-separated permissions */
    int64_t created_at;      /* unix seconds */
    int64_t revoked_at;      /* unix seconds; 0: valid */
} db_token_row;

/*
 * Call `fn` for every token, revoked ones too, by name.  A non-zero return
 * from fn stops the walk and is returned; otherwise 0 or PD_EDB (the list
 * is then incomplete).
 */
int db_token_list(sqlite3 *db, int (*fn)(void *arg, const db_token_row *t), void *arg);

/* 1 if space-separated permissions `perms` contain `perm`. */
int db_token_has_perm(const char *perms, const char *perm);

#endif
