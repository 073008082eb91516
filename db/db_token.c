/*
 * db_token.c: API tokens (see db_token.h).
 */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <sodium.h>

#include "db.h"
#include "db_token.h"
#include "pd_error.h"

int db_token_has_perm(const char *perms, const char *perm)
{
    size_t n = strlen(perm);
    const char *p = perms;

    while ((p = strstr(p, perm)) != NULL) {
        if ((p == perms || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0'))
            return 1;
        p += n;
    }
    return 0;
}

/* Every word of `perms` must be a known permission (the --scope words). */
static int db_token_perms_ok(const char *perms)
{
    char buf[256], *w, *save = NULL;

    snprintf(buf, sizeof(buf), "%s", perms);
    for (w = strtok_r(buf, " ", &save); w; w = strtok_r(NULL, " ", &save))
        if (!db_token_has_perm(DB_TOKEN_PERMS, w))
            return pd_error_set(PD_EINVAL, "unknown scope '%s' (known: %s)", w,
                                DB_TOKEN_PERMS);
    return 0;
}

int db_token_create(sqlite3 *db, char *out, const char *name, const char *perms)
{
    unsigned char raw[32], hash[crypto_hash_sha256_BYTES];
    sqlite3_stmt *st = NULL;
    int rc;

    if (sodium_init() < 0)
        return pd_error_set(PD_ERROR, "libsodium could not start");
    if (!perms || !*perms)
        perms = DB_TOKEN_PERMS;
    if ((rc = db_token_perms_ok(perms)) < 0)
        return rc;
    randombytes_buf(raw, sizeof(raw));
    memcpy(out, "pd_", 3);
    sodium_bin2hex(out + 3, 65, raw, sizeof(raw));
    sodium_memzero(raw, sizeof(raw));
    crypto_hash_sha256(hash, (const unsigned char *)out, DB_TOKEN_LEN);
    if ((rc = db_prepare(db, &st, "INSERT INTO tokens(name, hash, scopes, created_at) "
                         "VALUES(?1, ?2, ?3, ?4)")) < 0)
        return rc;
    sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
    sqlite3_bind_blob(st, 2, hash, sizeof(hash), SQLITE_STATIC);
    sqlite3_bind_text(st, 3, perms, -1, SQLITE_STATIC);
    sqlite3_bind_int64(st, 4, (sqlite3_int64)time(NULL));
    rc = sqlite3_step(st);
    sqlite3_finalize(st);
    if (rc == SQLITE_CONSTRAINT_UNIQUE)
        return pd_error_set(PD_EINVAL, "a token named '%s' exists already", name);
    if (rc != SQLITE_DONE)
        return pd_error_set(PD_EDB, "database: %s", sqlite3_errmsg(db));
    return 0;
}

int db_token_revoke(sqlite3 *db, const char *name)
{
    sqlite3_stmt *st = NULL;
    int rc;

    if ((rc = db_prepare(db, &st, "UPDATE tokens SET revoked_at = ?2 WHERE name = ?1 "
                         "AND revoked_at IS NULL")) < 0)
        return rc;
    sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
    sqlite3_bind_int64(st, 2, (sqlite3_int64)time(NULL));
    rc = sqlite3_step(st);
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE)
        return pd_error_set(PD_EDB, "database: %s", sqlite3_errmsg(db));
    if (sqlite3_changes(db) == 0)
        return pd_error_set(PD_ENOTFOUND, "no valid token named '%s'", name);
    return 0;
}

int db_token_check(sqlite3 *db, const char *token, char *scopes_out, size_t n)
{
    unsigned char hash[crypto_hash_sha256_BYTES];
    sqlite3_stmt *st = NULL;
    int rc, found = 0;

    if (sodium_init() < 0)
        return pd_error_set(PD_ERROR, "libsodium could not start");
    crypto_hash_sha256(hash, (const unsigned char *)token, strlen(token));
    if ((rc = db_prepare(db, &st, "SELECT hash, scopes FROM tokens "
                         "WHERE revoked_at IS NULL")) < 0)
        return rc;
    /* Every stored hash is compared, so the time does not tell which matched. */
    while ((rc = db_step(st)) > 0) {
        const void *h = sqlite3_column_blob(st, 0);

        if (sqlite3_column_bytes(st, 0) == (int)sizeof(hash) &&
            sodium_memcmp(h, hash, sizeof(hash)) == 0 && !found) {
            snprintf(scopes_out, n, "%s", (const char *)sqlite3_column_text(st, 1));
            found = 1;
        }
    }
    sqlite3_finalize(st);
    if (rc < 0)
        return rc;      /* a token not checked is not "unknown" */
    return found ? 0 : PD_ENOTFOUND;
}

int db_token_name(sqlite3 *db, const char *token, char *out, size_t n)
{
    unsigned char hash[crypto_hash_sha256_BYTES];
    sqlite3_stmt *st = NULL;
    int rc;

    if (sodium_init() < 0)
        return pd_error_set(PD_ERROR, "libsodium could not start");
    crypto_hash_sha256(hash, (const unsigned char *)token, strlen(token));
    if ((rc = db_prepare(db, &st, "SELECT name FROM tokens WHERE hash = ?1 AND "
                         "revoked_at IS NULL")) < 0)
        return rc;
    sqlite3_bind_blob(st, 1, hash, sizeof(hash), SQLITE_STATIC);
    if ((rc = db_step(st)) > 0)
        snprintf(out, n, "%s", (const char *)sqlite3_column_text(st, 0));
    else if (rc == 0)
        rc = pd_error_set(PD_ENOTFOUND, "no such token");
    rc = rc > 0 ? 0 : rc;
    sqlite3_finalize(st);
    return rc;
}

int db_token_list(sqlite3 *db, int (*fn)(void *arg, const db_token_row *t), void *arg)
{
    sqlite3_stmt *st = NULL;
    db_token_row t;
    int rc;

    if ((rc = db_prepare(db, &st, "SELECT name, scopes, created_at, revoked_at FROM "
                         "tokens ORDER BY name")) < 0)
        return rc;
    while ((rc = db_step(st)) > 0) {
        t.name = (const char *)sqlite3_column_text(st, 0);
        t.perms = (const char *)sqlite3_column_text(st, 1);
        t.created_at = sqlite3_column_int64(st, 2);
        t.revoked_at = sqlite3_column_int64(st, 3);
        if ((rc = fn(arg, &t)) != 0)
            break;
    }
    sqlite3_finalize(st);
    return rc;
}
