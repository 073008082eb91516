/*
 * db_flow_graph.c: the packed call graphs of stored refs' commits
 * (db_flow_graph.h, migration 022).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db_analysis.h"
#include "db_flow_graph.h"
#include "db_kept.h"
#include "db_stmt.h"
#include "pd_buf.h"
#include "pd_error.h"

int db_flow_graph_next(const char **p, db_flow_graph_line *out)
{
    const char *s = *p, *nl;
    char *t1, *t2;
    long long id;
    unsigned long long bytes;

    if (!s || !*s)
        return 0;
    id = strtoll(s, &t1, 10);
    if (t1 == s || *t1 != '\t' || id < 0)
        return PD_EINVAL;
    bytes = strtoull(t1 + 1, &t2, 10);
    if (t2 == t1 + 1 || *t2 != '\t' || !(nl = strchr(t2, '\n')) || nl == t2 + 1)
        return PD_EINVAL;
    out->id = id;
    out->bytes = (size_t)bytes;
    out->path = t2 + 1;
    out->path_len = (size_t)(nl - t2 - 1);
    *p = nl + 1;
    return 1;
}

/* Read the facts of `files` (db_flow_graph_name's lines) over g, in
 * order.  0, PD_EINVAL (a line that does not parse, an analysis that is
 * gone), PD_EDB, PD_ENOMEM. */
static int db_flow_graph_replay(sqlite3 *db, pd_flow *g, const char *files)
{
    db_flow_graph_line l;
    int rc = 0, more;

    while (rc == 0 && (more = db_flow_graph_next(&files, &l)) != 0) {
        char *path, *text = NULL;

        if (more < 0)
            return pd_error_set(PD_EINVAL, "a damaged file list of a kept call graph");
        if (!(path = strndup(l.path, l.path_len)))
            return pd_error_nomem(NULL);
        if (l.id == 0 || (rc = db_analysis_flow(db, l.id, &text)) == 0)
            rc = pd_flow_set_file_text(g, pd_flow_path_key(path), path, text,
                                       text ? strlen(text) : 0);
        else if (rc == PD_ENOTFOUND)        /* a list naming what is gone */
            rc = PD_EINVAL;
        free(text);
        free(path);
    }
    return rc;
}

int db_flow_graph_read(sqlite3 *db, int64_t commit_id, const char *rules_hash, pd_flow **out,
                       int64_t *graph_id, char **files)
{
    sqlite3_stmt *st = NULL;
    int rc;

    *out = NULL;
    *graph_id = 0;
    *files = NULL;
    if ((rc = db_kept_prepare(db, &st, "SELECT g.data, c.graph_id, c.files "
                                       "FROM flow_graph_commits c "
                                       "JOIN flow_graphs g ON g.id = c.graph_id "
                                       "WHERE c.commit_id = ?1 AND c.rules_hash = ?2")) < 0)
        return rc;
    sqlite3_bind_int64(st, 1, commit_id);
    sqlite3_bind_text(st, 2, rules_hash, -1, SQLITE_STATIC);
    if ((rc = db_step(st)) > 0) {
        const char *f = (const char *)sqlite3_column_text(st, 2);

        *graph_id = sqlite3_column_int64(st, 1);
        if (!(*files = strdup(f ? f : "")))
            rc = pd_error_nomem(NULL);
        else
            rc = pd_flow_unpack(out, sqlite3_column_blob(st, 0),
                                (size_t)sqlite3_column_bytes(st, 0));
    } else if (rc == 0) {
        rc = PD_ENOTFOUND;
    }
    db_kept_done(st);           /* before the replay's own statements */
    if (rc == 0)
        rc = db_flow_graph_replay(db, *out, *files);
    if (rc < 0) {
        pd_flow_free(*out);
        *out = NULL;
        *graph_id = 0;          /* no block: nothing to name again */
        free(*files);
        *files = NULL;
        /* A row that does not read back costs a read of the facts, not
         * the run: damaged, or packed in another build's format. */
        if (rc == PD_EINVAL) {
            pd_error_clear();
            rc = PD_ENOTFOUND;
        }
    }
    return rc;
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
        rc = db_flow_graph_name(db, commit_id, rules_hash, sqlite3_last_insert_rowid(db), NULL);
done:
    pd_buf_free(&b);
    return rc < 0 ? rc : 0;
}

int db_flow_graph_name(sqlite3 *db, int64_t commit_id, const char *rules_hash,
                       int64_t graph_id, const char *files)
{
    sqlite3_stmt *st = NULL;
    int rc;

    if ((rc = db_kept_prepare(db, &st, "INSERT OR REPLACE INTO flow_graph_commits"
                                       "(commit_id, rules_hash, graph_id, files) "
                                       "VALUES (?1, ?2, ?3, ?4)")) < 0)
        return rc;
    sqlite3_bind_int64(st, 1, commit_id);
    sqlite3_bind_text(st, 2, rules_hash, -1, SQLITE_STATIC);
    sqlite3_bind_int64(st, 3, graph_id);
    if (files && *files)
        sqlite3_bind_text(st, 4, files, -1, SQLITE_STATIC);
    rc = db_step(st);
    db_kept_done(st);
    return rc < 0 ? rc : 0;
}

int db_flow_graph_copy(sqlite3 *db, int64_t from, int64_t to, const char *rules_hash)
{
    sqlite3_stmt *st = NULL;
    int rc;

    if ((rc = db_kept_prepare(db, &st, "INSERT OR REPLACE INTO flow_graph_commits"
                                       "(commit_id, rules_hash, graph_id, files) "
                                       "SELECT ?2, rules_hash, graph_id, files "
                                       "FROM flow_graph_commits "
                                       "WHERE commit_id = ?1 AND rules_hash = ?3")) < 0)
        return rc;
    sqlite3_bind_int64(st, 1, from);
    sqlite3_bind_int64(st, 2, to);
    sqlite3_bind_text(st, 3, rules_hash, -1, SQLITE_STATIC);
    rc = db_step(st);
    db_kept_done(st);
    return rc < 0 ? rc : 0;
}

int db_flow_graph_prune(sqlite3 *db)
{
    sqlite3_stmt *st = NULL;
    char sql[64];
    int rc, was = 1;

    if ((rc = db_exec(db, "DELETE FROM flow_graph_commits WHERE commit_id NOT IN "
                          "(SELECT commit_id FROM refs)")) < 0 ||
        (rc = db_prepare(db, &st, "PRAGMA secure_delete")) < 0)
        return rc;
    if ((rc = db_step(st)) > 0)
        was = sqlite3_column_int(st, 0);
    sqlite3_finalize(st);
    /* Debian's SQLite zeroes what is deleted (secure_delete): here that is
     * every page of a block that the facts can make again, written once
     * more.  FAST zeroes only the pages written anyway. */
    if (rc < 0 || (rc = db_exec(db, "PRAGMA secure_delete = FAST")) < 0)
        return rc;
    rc = db_exec(db, "DELETE FROM flow_graphs WHERE id NOT IN "
                     "(SELECT graph_id FROM flow_graph_commits)");
    snprintf(sql, sizeof(sql), "PRAGMA secure_delete = %d", was);
    if (db_exec(db, sql) < 0 && rc == 0)
        rc = PD_EDB;
    return rc;
}
