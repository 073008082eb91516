/*
 * db_flow_set.c: stored call-graph results per commit (db_flow_set.h).
 */
#include <stdlib.h>
#include <string.h>

#include "db.h"
#include "db_flow_set.h"
#include "db_compress.h"
#include "db_kept.h"
#include "pd_flow.h"
#include "pd_error.h"
#include "pd_sha1.h"

enum { FS_FIND, FS_INS, FS_COMMIT, FS_OF, FS_COUNT };

static const char *const db_flow_sets_sql[FS_COUNT] = {
    [FS_FIND] = "SELECT id FROM flow_sets WHERE sha1 = ?1",
    [FS_INS] = "INSERT INTO flow_sets(sha1, data, data_len) VALUES(?1, ?2, ?3)",
    [FS_COMMIT] = "INSERT OR REPLACE INTO flow_commits(commit_id, rules_hash, set_id) "
                  "VALUES(?1, ?2, ?3)",
    [FS_OF] = "SELECT set_id FROM flow_commits WHERE commit_id = ?1 AND rules_hash = ?2",
};

struct db_flow_sets {
    sqlite3 *db;
    sqlite3_stmt *st[FS_COUNT];
};

int db_flow_sets_open(sqlite3 *db, db_flow_sets **out)
{
    db_flow_sets *w = calloc(1, sizeof(*w));
    int k, rc;

    *out = NULL;
    if (!w)
        return pd_error_nomem(NULL);
    w->db = db;
    for (k = 0; k < FS_COUNT; k++)
        if ((rc = db_prepare(db, &w->st[k], db_flow_sets_sql[k])) < 0) {
            db_flow_sets_close(w);
            return rc;
        }
    *out = w;
    return 0;
}

void db_flow_sets_close(db_flow_sets *w)
{
    if (!w)
        return;
    for (int k = 0; k < FS_COUNT; k++)
        sqlite3_finalize(w->st[k]);
    free(w);
}

/* Step a statement to its end (or first row: 1); reset it. */
static int db_flow_sets_step(sqlite3_stmt *st, int64_t *col0)
{
    int rc = db_step(st);

    if (rc > 0 && col0)
        *col0 = sqlite3_column_int64(st, 0);
    sqlite3_reset(st);
    sqlite3_clear_bindings(st);
    return rc;
}

int db_flow_sets_put(db_flow_sets *w, const char *text, size_t len, int64_t *id)
{
    char hex[41];
    unsigned char *z = NULL;
    size_t zlen = 0;
    int rc;

    pd_sha1_blob_hex(hex, text, len, NULL, 0);
    sqlite3_bind_text(w->st[FS_FIND], 1, hex, -1, SQLITE_STATIC);
    if ((rc = db_flow_sets_step(w->st[FS_FIND], id)) != 0)
        return rc < 0 ? rc : 0;
    if ((rc = db_compress(&z, &zlen, text, len)) < 0)
        return rc;
    sqlite3_bind_text(w->st[FS_INS], 1, hex, -1, SQLITE_STATIC);
    sqlite3_bind_blob(w->st[FS_INS], 2, z ? (const void *)z : "", (int)zlen, SQLITE_STATIC);
    sqlite3_bind_int64(w->st[FS_INS], 3, (int64_t)len);
    rc = db_flow_sets_step(w->st[FS_INS], NULL);
    free(z);
    if (rc < 0)
        return rc;
    *id = sqlite3_last_insert_rowid(w->db);
    return 0;
}

int db_flow_sets_commit(db_flow_sets *w, int64_t commit_id, const char *rules_hash,
                        int64_t set_id)
{
    int rc;

    sqlite3_bind_int64(w->st[FS_COMMIT], 1, commit_id);
    sqlite3_bind_text(w->st[FS_COMMIT], 2, rules_hash, -1, SQLITE_STATIC);
    sqlite3_bind_int64(w->st[FS_COMMIT], 3, set_id);
    rc = db_flow_sets_step(w->st[FS_COMMIT], NULL);
    return rc < 0 ? rc : 0;
}

int db_flow_sets_of(db_flow_sets *w, int64_t commit_id, const char *rules_hash,
                    int64_t *set_id)
{
    int rc;

    *set_id = 0;
    sqlite3_bind_int64(w->st[FS_OF], 1, commit_id);
    sqlite3_bind_text(w->st[FS_OF], 2, rules_hash, -1, SQLITE_STATIC);
    rc = db_flow_sets_step(w->st[FS_OF], set_id);
    return rc < 0 ? rc : 0;
}

int db_flow_set_read(sqlite3 *db, int64_t commit_id, const char *rules_hash, char **text,
                     size_t *len)
{
    sqlite3_stmt *st = NULL;
    int rc;

    *text = NULL;
    *len = 0;
    if ((rc = db_kept_prepare(db, &st, "SELECT s.data, s.data_len FROM flow_commits c "
                         "JOIN flow_sets s ON s.id = c.set_id "
                         "WHERE c.commit_id = ?1 AND c.rules_hash = ?2")) < 0)
        return rc;
    sqlite3_bind_int64(st, 1, commit_id);
    sqlite3_bind_text(st, 2, rules_hash, -1, SQLITE_STATIC);
    if ((rc = db_step(st)) > 0) {
        size_t n = (size_t)sqlite3_column_int64(st, 1);

        if (n == 0)
            rc = (*text = strdup("")) ? 0 : pd_error_nomem(NULL);
        else if ((rc = db_decompress(text, sqlite3_column_blob(st, 0),
                                  (size_t)sqlite3_column_bytes(st, 0), n)) == 0)
            *len = n;
    } else if (rc == 0) {
        rc = PD_ENOTFOUND;       /* not an error to report: no message */
    }
    db_kept_done(st);
    return rc;
}

int db_flow_fns_row(sqlite3_stmt *st, int col, pd_buf *fns)
{
    char *text = NULL;
    int rc = 0;

    fns->len = 0;
    if (sqlite3_column_type(st, col) != SQLITE_NULL)
        pd_buf_put(fns, sqlite3_column_blob(st, col), (size_t)sqlite3_column_bytes(st, col));
    else if ((rc = db_column_decompress(st, col + 1, 1, &text)) == 0 && text)
        pd_flow_fns_encode(text, strlen(text), fns);
    free(text);
    if (rc == 0 && fns->err)
        rc = pd_error_nomem(NULL);
    return rc;
}

int db_flow_fns_read(sqlite3 *db, int64_t id, pd_buf *fns)
{
    sqlite3_stmt *st = NULL;
    int rc;

    fns->len = 0;
    if ((rc = db_prepare(db, &st, "SELECT " DB_FLOW_FNS_COLS " FROM analyses "
                         "WHERE id = ?1")) < 0)
        return rc;
    sqlite3_bind_int64(st, 1, id);
    if ((rc = db_step(st)) > 0)
        rc = db_flow_fns_row(st, 0, fns);
    sqlite3_finalize(st);
    return rc;
}
