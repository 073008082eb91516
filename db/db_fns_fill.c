/*
 * db_fns_fill.c: migration 019, the table functions moved into the
 * analyses rows' fns column (see db_fns.h).
 */
#include <stdlib.h>
#include <string.h>

#include "db_fns.h"
#include "db_stmt.h"
#include "db_compress.h"
#include "pd_error.h"

/* 1 when `sql` (a count) gives a non-zero first column, 0, or PD_EDB. */
static int db_fns_any(sqlite3 *db, const char *sql)
{
    sqlite3_stmt *st = NULL;
    int rc;

    if ((rc = db_prepare(db, &st, sql)) < 0)
        return rc;
    if ((rc = db_step(st)) > 0)
        rc = sqlite3_column_int64(st, 0) != 0;
    sqlite3_finalize(st);
    return rc;
}

/* Store text b (the functions of analysis id) compressed; 0 or < 0. */
static int db_fns_store(sqlite3_stmt *up, int64_t id, const pd_buf *b)
{
    unsigned char *z = NULL;
    size_t zlen = 0;
    int rc;

    if (b->err)
        return pd_error_nomem("moving the function rows");
    if ((rc = db_compress(&z, &zlen, b->data, b->len)) < 0)
        return rc;
    sqlite3_reset(up);
    sqlite3_bind_blob(up, 1, z, (int)zlen, SQLITE_STATIC);
    sqlite3_bind_int64(up, 2, (int64_t)b->len);
    sqlite3_bind_int64(up, 3, id);
    rc = db_step(up);
    free(z);
    return rc < 0 ? rc : 0;
}

/* The row `sel` is on as a db_function_row borrowing its columns. */
static void db_fns_row_of(sqlite3_stmt *sel, db_function_row *r)
{
    int k;

    memset(r, 0, sizeof(*r));
    r->name = (const char *)sqlite3_column_text(sel, 2);
    r->start_line = (uint32_t)sqlite3_column_int64(sel, 3);
    r->end_line = (uint32_t)sqlite3_column_int64(sel, 4);
    r->status = (const char *)sqlite3_column_text(sel, 5);
    r->object_state = (const char *)sqlite3_column_text(sel, 6);
    for (k = 0; k < PD_CLASS_COUNT; k++) {
        r->tokens[k] = (uint32_t)sqlite3_column_int64(sel, 7 + k);
        r->ung[k] = (uint32_t)sqlite3_column_int64(sel, 13 + k);  /* NULL: 0 */
    }
    r->name_from_macro = (const char *)sqlite3_column_text(sel, 11);
    r->why = (const char *)sqlite3_column_text(sel, 12);
}

/* Every row of table functions into its analysis's text, in idx order. */
static int db_fns_move(sqlite3 *db)
{
    sqlite3_stmt *sel = NULL, *up = NULL;
    int64_t cur = -1, next_idx = 0;
    db_function_row r;
    pd_buf b;
    int rc;

    pd_buf_init(&b, 0);
    if ((rc = db_prepare(db, &sel, "SELECT analysis_id, idx, name, start_line, end_line, "
                         "status, object_state, tok_hpy, tok_capi, tok_npy_legacy, "
                         "tok_bridge, name_from_macro, why, ung_hpy, ung_capi, "
                         "ung_npy_legacy, ung_bridge FROM functions "
                         "ORDER BY analysis_id, idx")) < 0 ||
        (rc = db_prepare(db, &up, "UPDATE analyses SET fns = ?1, fns_len = ?2 "
                         "WHERE id = ?3")) < 0)
        goto done;
    while ((rc = db_step(sel)) > 0) {
        int64_t id = sqlite3_column_int64(sel, 0);

        if (id != cur) {
            if (cur >= 0 && (rc = db_fns_store(up, cur, &b)) < 0)
                goto done;
            pd_buf_reset(&b);
            cur = id;
            next_idx = 0;
        }
        /* Findings name their function by idx: a gap would shift them. */
        if (sqlite3_column_int64(sel, 1) != next_idx++ ||
            !sqlite3_column_text(sel, 2) || !sqlite3_column_text(sel, 5)) {
            rc = pd_error_set(PD_EDB, "analysis %lld: its function rows are not "
                              "numbered 0, 1, ...: the database is damaged",
                              (long long)id);
            goto done;
        }
        db_fns_row_of(sel, &r);
        db_fns_text(&b, &r, 1);
    }
    if (rc == 0 && cur >= 0)
        rc = db_fns_store(up, cur, &b);
done:
    sqlite3_finalize(sel);
    sqlite3_finalize(up);
    pd_buf_free(&b);
    return rc;
}

int db_fns_fill(sqlite3 *db)
{
    int rc;

    /* A database given schema 18 again (a test of the migrations) has the
     * columns already. */
    if ((rc = db_fns_any(db, "SELECT count(*) FROM pragma_table_info('analyses') "
                         "WHERE name = 'fns'")) < 0)
        return rc;
    if (!rc && (rc = db_exec(db, "ALTER TABLE analyses ADD COLUMN fns BLOB; "
                             "ALTER TABLE analyses ADD COLUMN fns_len INTEGER")) < 0)
        return rc;
    if ((rc = db_fns_any(db, "SELECT count(*) FROM sqlite_master WHERE type = 'table' "
                         "AND name = 'functions'")) <= 0)
        return rc;
    if ((rc = db_fns_move(db)) < 0)
        return rc;
    return db_exec(db, "DROP TABLE functions");
}
