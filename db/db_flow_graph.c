/*
 * db_flow_graph.c: the packed call graphs of stored refs' commits
 * (db_flow_graph.h, migration 022).
 */
#include <stdlib.h>

#include "db_flow_graph.h"
#include "db_kept.h"
#include "db_stmt.h"
#include "pd_buf.h"
#include "pd_error.h"

int db_flow_graph_read(sqlite3 *db, int64_t commit_id, const char *rules_hash, pd_flow **out)
{
    sqlite3_stmt *st = NULL;
    int rc;

    *out = NULL;
    if ((rc = db_kept_prepare(db, &st, "SELECT g.data FROM flow_graph_commits c "
                                       "JOIN flow_graphs g ON g.id = c.graph_id "
                                       "WHERE c.commit_id = ?1 AND c.rules_hash = ?2")) < 0)
        return rc;
    sqlite3_bind_int64(st, 1, commit_id);
    sqlite3_bind_text(st, 2, rules_hash, -1, SQLITE_STATIC);
    if ((rc = db_step(st)) > 0) {
        rc = pd_flow_unpack(out, sqlite3_column_blob(st, 0),
                            (size_t)sqlite3_column_bytes(st, 0));
        /* A row that does not read back costs a read of the facts, not
         * the run: damaged, or packed in another build's format. */
        if (rc == PD_EINVAL) {
            pd_error_clear();
            rc = PD_ENOTFOUND;
        }
    } else if (rc == 0) {
        rc = PD_ENOTFOUND;
    }
    db_kept_done(st);
    return rc;
}

/* Run one kept statement with up to three integer or text parameters
 * (text: `t` names which, 1-based; 0 none).  0 or PD_EDB. */
static int db_flow_graph_exec(sqlite3 *db, const char *sql, int64_t a, int64_t b,
                              const char *text, int t)
{
    sqlite3_stmt *st = NULL;
    int rc;

    if ((rc = db_kept_prepare(db, &st, sql)) < 0)
        return rc;
    if (t != 1)
        sqlite3_bind_int64(st, 1, a);
    if (t != 2)
        sqlite3_bind_int64(st, 2, b);
    if (t)
        sqlite3_bind_text(st, t, text, -1, SQLITE_STATIC);
    rc = db_step(st);
    db_kept_done(st);
    return rc < 0 ? rc : 0;
}

int db_flow_graph_put(sqlite3 *db, int64_t commit_id, const char *rules_hash,
                      const pd_flow *g)
{
    sqlite3_stmt *st = NULL;
    pd_buf b;
    int rc;

    pd_buf_init(&b, 0);
    if ((rc = pd_flow_pack(g, &b)) < 0 ||
        (rc = db_kept_prepare(db, &st, "INSERT INTO flow_graphs(data) VALUES (?1)")) < 0)
        goto done;
    sqlite3_bind_blob(st, 1, b.data, (int)b.len, SQLITE_STATIC);
    rc = db_step(st);
    db_kept_done(st);
    if (rc >= 0)
        rc = db_flow_graph_exec(db, "INSERT OR REPLACE INTO flow_graph_commits"
                                    "(commit_id, rules_hash, graph_id) VALUES (?1, ?3, ?2)",
                                commit_id, sqlite3_last_insert_rowid(db), rules_hash, 3);
done:
    pd_buf_free(&b);
    return rc < 0 ? rc : 0;
}

int db_flow_graph_copy(sqlite3 *db, int64_t from, int64_t to, const char *rules_hash)
{
    return db_flow_graph_exec(db, "INSERT OR REPLACE INTO flow_graph_commits"
                                  "(commit_id, rules_hash, graph_id) "
                                  "SELECT ?2, rules_hash, graph_id FROM flow_graph_commits "
                                  "WHERE commit_id = ?1 AND rules_hash = ?3",
                              from, to, rules_hash, 3);
}

int db_flow_graph_prune(sqlite3 *db)
{
    int rc = db_flow_graph_exec(db, "DELETE FROM flow_graph_commits WHERE commit_id NOT IN "
                                    "(SELECT commit_id FROM refs)", 0, 0, NULL, 0);

    /* Debian's SQLite zeroes what is deleted (secure_delete): here that is
     * every page of a graph that the facts can make again, written once
     * more at each push.  FAST zeroes only the pages written anyway. */
    if (rc == 0 && (rc = db_exec(db, "PRAGMA secure_delete = FAST")) == 0) {
        rc = db_flow_graph_exec(db, "DELETE FROM flow_graphs WHERE id NOT IN "
                                    "(SELECT graph_id FROM flow_graph_commits)",
                                0, 0, NULL, 0);
        if (db_exec(db, "PRAGMA secure_delete = ON") < 0 && rc == 0)
            rc = PD_EDB;
    }
    return rc;
}
