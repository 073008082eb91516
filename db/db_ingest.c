/*
 * db_ingest.c: the statements of an ingest (see db_ingest.h), prepared
 * once per run and reset between uses: an ingest of numpy's history runs
 * them hundreds of thousands of times.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "db_ingest.h"
#include "db_measures.h"
#include "db_scope.h"
#include "db_tree.h"
#include "pathfilter_value.h"
#include "pd_error.h"

enum {
    ST_REPO_FIND, ST_REPO_INS, ST_REPO_PATH, ST_COMMIT_FIND, ST_COMMIT_INS,
    ST_PATH_FIND, ST_PATH_INS, ST_CHANGE_INS, ST_CHANGES_OF, ST_ANALYSIS_FIND,
    ST_ANALYSIS_INS, ST_STATS_INS, ST_REF_UPSERT, ST_PATCH_ID,
    ST_REF_GET, ST_ON_CHAIN, ST_REWRITE, ST_COMMIT_OID, ST_ANALYSED,
    ST_NOOBJECT_INS, ST_BEGIN, ST_COMMIT, ST_COUNT
};

static const char *const db_ingest_sql[ST_COUNT] = {
    [ST_REPO_FIND] = "SELECT id, scope FROM repos WHERE name = ?1",
    [ST_REPO_INS] = "INSERT INTO repos(name, path, scope, created_at) "
                    "VALUES(?1, ?2, ?3, ?4)",
    [ST_REPO_PATH] = "UPDATE repos SET path = ?2 WHERE id = ?1",
    [ST_COMMIT_FIND] = "SELECT c.id, EXISTS(SELECT 1 FROM commit_stats s "
                       "WHERE s.commit_id = c.id AND s.rules_hash = ?3) "
                       "FROM commits c WHERE c.repo_id = ?1 AND c.oid = ?2",
    [ST_COMMIT_INS] = "INSERT INTO commits(repo_id, oid, parents, first_parent_id, "
                      "author_name, author_email, author_time, author_offset, "
                      "committer_time, committer_offset, summary) "
                      "VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)",
    [ST_PATH_FIND] = "SELECT id FROM paths WHERE path = ?1",
    [ST_PATH_INS] = "INSERT INTO paths(path) VALUES(?1)",
    [ST_CHANGE_INS] = "INSERT OR REPLACE INTO changes(commit_id, path_id, blob_oid, "
                      "old_path_id) VALUES(?1, ?2, ?3, ?4)",
    [ST_CHANGES_OF] = "SELECT ch.path_id, ch.blob_oid, p.path FROM changes ch "
                      "JOIN paths p ON p.id = ch.path_id WHERE ch.commit_id = ?1",
    [ST_ANALYSIS_FIND] = "SELECT id FROM analyses WHERE blob_oid = ?1 "
                         "AND rules_hash = ?2",
    /* ST_ANALYSIS_INS and ST_STATS_INS name the measures: built from the
     * measures table by db_ingest_open. */
    [ST_REF_UPSERT] = "INSERT INTO refs(repo_id, name, commit_id, updated_at) "
                      "VALUES(?1, ?2, ?3, ?4) ON CONFLICT(repo_id, name) DO UPDATE "
                      "SET commit_id = ?3, updated_at = ?4",
    [ST_PATCH_ID] = "UPDATE commits SET patch_id = ?2 WHERE id = ?1",
    [ST_REF_GET] = "SELECT commit_id FROM refs WHERE repo_id = ?1 AND name = ?2",
    [ST_ON_CHAIN] = "WITH RECURSIVE chain(cid) AS (SELECT ?1 UNION ALL "
                    "SELECT c.first_parent_id FROM commits c JOIN chain "
                    "ON c.id = chain.cid WHERE c.first_parent_id < c.id "
                    "AND chain.cid != ?2) SELECT 1 FROM chain WHERE cid = ?2",
    [ST_REWRITE] = "INSERT INTO rewrites(repo_id, ref, old_commit_id, new_commit_id, "
                   "detected_at) VALUES(?1, ?2, ?3, ?4, ?5)",
    [ST_COMMIT_OID] = "SELECT oid FROM commits WHERE id = ?1",
    [ST_ANALYSED] = "SELECT blob_oid FROM analyses WHERE rules_hash = ?1",
    [ST_NOOBJECT_INS] = "INSERT OR REPLACE INTO analysis_noobject(analysis_id, status, "
                        "counts) VALUES(?1, ?2, ?3)",
    [ST_BEGIN] = "BEGIN IMMEDIATE",
    [ST_COMMIT] = "COMMIT",
};

struct db_ingest {
    sqlite3 *db;
    sqlite3_stmt *st[ST_COUNT];
};

/* The fixed columns of an analyses row before its measures, ?1 to ?18. */
#define DB_INGEST_ANALYSIS_COLS "blob_oid, rules_hash, size, lines, status, notes, " \
    "findings, findings_len, hpy_types, calls, calls_len, ung_hpy, ung_capi, " \
    "ung_npy_legacy, ung_bridge, flow, flow_len, flow_fns, fns, fns_len"
#define DB_INGEST_ANALYSIS_NCOLS 20

int db_ingest_open(db_ingest **out, sqlite3 *db)
{
    db_ingest *s = calloc(1, sizeof(*s));
    char analysis[2048], stats[1024];
    const char *sql[ST_COUNT];
    int i, rc;

    *out = NULL;
    if (!s)
        return pd_error_nomem(NULL);
    s->db = db;
    memcpy(sql, db_ingest_sql, sizeof(sql));
    if ((rc = db_measure_insert_sql(analysis, sizeof(analysis), "INTO analyses",
                                    DB_INGEST_ANALYSIS_COLS, DB_INGEST_ANALYSIS_NCOLS,
                                    DB_M_ANALYSES, NULL)) < 0 ||
        (rc = db_measure_insert_sql(stats, sizeof(stats), "OR REPLACE INTO commit_stats",
                                    "commit_id, rules_hash", 2, DB_M_TOTALS, NULL)) < 0) {
        free(s);
        return rc;
    }
    sql[ST_ANALYSIS_INS] = analysis;
    sql[ST_STATS_INS] = stats;
    for (i = 0; i < ST_COUNT; i++) {
        if ((rc = db_prepare(db, &s->st[i], sql[i])) < 0) {
            db_ingest_free(s);
            return rc;
        }
    }
    *out = s;
    return 0;
}

void db_ingest_free(db_ingest *s)
{
    int i;

    if (!s)
        return;
    for (i = 0; i < ST_COUNT; i++)
        sqlite3_finalize(s->st[i]);
    free(s);
}

/* Reset a statement for reuse and return it. */
static sqlite3_stmt *db_ingest_stmt(db_ingest *s, int which)
{
    sqlite3_stmt *st = s->st[which];

    sqlite3_reset(st);
    sqlite3_clear_bindings(st);
    return st;
}

/* Run a statement that returns no row; 0 or PD_EDB. */
static int db_ingest_done(sqlite3_stmt *st)
{
    int rc = db_step(st);

    sqlite3_reset(st);
    if (rc > 0)
        return pd_error_set(PD_EDB, "database: a write returned a row");
    return rc;
}

/* Run a one-integer query; *out is 0 when there is no row. */
static int db_ingest_int(sqlite3_stmt *st, int64_t *out)
{
    int rc = db_step(st);

    *out = rc > 0 ? sqlite3_column_int64(st, 0) : 0;
    sqlite3_reset(st);
    return rc < 0 ? rc : 0;
}

int db_ingest_begin(db_ingest *s)
{
    return db_ingest_done(db_ingest_stmt(s, ST_BEGIN));
}

int db_ingest_commit(db_ingest *s)
{
    int rc;

    /* The new commits' checkpoints go in with them (db_tree.h). */
    if ((rc = db_tree_fill(s->db)) < 0)
        return rc;
    return db_ingest_done(db_ingest_stmt(s, ST_COMMIT));
}

void db_ingest_rollback(db_ingest *s)
{
    if (s)
        sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
}

/* The repository row is there: check the path filter (by value:
 * pathfilter_equal), update the path. */
static int db_ingest_repo_found(db_ingest *s, sqlite3_stmt *st, int64_t *id_out,
                                pathfilter_owned *stored_out, const char *name,
                                const char *path, const pathfilter *want)
{
    const char *text = (const char *)sqlite3_column_text(st, 1);
    pathfilter_owned stored;
    char *asked = NULL;
    int rc;

    *id_out = sqlite3_column_int64(st, 0);
    if ((rc = pathfilter_from_json(&stored, text)) == PD_EINVAL)
        rc = pd_error_set(PD_EINVAL, "repository '%s' has a corrupt stored path filter: %s",
                          name, text ? text : "NULL");
    else if (rc == 0 && want && !pathfilter_equal(want, &stored.f))
        rc = (asked = pathfilter_to_json(want)) == NULL ? pd_error_nomem(NULL)
             : pd_error_set(PD_EINVAL, "repository '%s' was ingested with path filter "
                            "%s; this run asks for %s. Use the same --include/"
                            "--exclude, or a new --name", name, text, asked);
    sqlite3_reset(st);
    free(asked);
    if (rc == 0 && stored_out) {
        *stored_out = stored;
        memset(&stored, 0, sizeof(stored));
    }
    pathfilter_owned_free(&stored);
    if (rc < 0)
        return rc;
    st = db_ingest_stmt(s, ST_REPO_PATH);
    sqlite3_bind_int64(st, 1, *id_out);
    sqlite3_bind_text(st, 2, path, -1, SQLITE_STATIC);
    return db_ingest_done(st);
}

int db_ingest_repo(db_ingest *s, int64_t *id_out, pathfilter_owned *stored_out,
                   const char *name, const char *path, const pathfilter *want)
{
    sqlite3_stmt *st = db_ingest_stmt(s, ST_REPO_FIND);
    char *text;
    int rc;

    if (stored_out)
        memset(stored_out, 0, sizeof(*stored_out));
    sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
    if ((rc = db_step(st)) > 0)
        return db_ingest_repo_found(s, st, id_out, stored_out, name, path, want);
    sqlite3_reset(st);
    if (rc < 0)
        return rc;
    /* The JSON form is made here, where it is stored. */
    if (!(text = pathfilter_to_json(want)))
        return pd_error_nomem(NULL);
    st = db_ingest_stmt(s, ST_REPO_INS);
    sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 2, path, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 3, text, -1, SQLITE_STATIC);
    sqlite3_bind_int64(st, 4, (int64_t)time(NULL));
    rc = db_ingest_done(st);
    free(text);
    if (rc < 0)
        return rc;
    *id_out = sqlite3_last_insert_rowid(s->db);
    return stored_out ? pathfilter_copy(stored_out, want) : 0;
}

int db_ingest_commit_find(db_ingest *s, int64_t *id_out, int *has_stats,
                          int64_t repo_id, const char *oid, const char *rules_hash)
{
    sqlite3_stmt *st = db_ingest_stmt(s, ST_COMMIT_FIND);
    int rc;

    sqlite3_bind_int64(st, 1, repo_id);
    sqlite3_bind_text(st, 2, oid, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 3, rules_hash, -1, SQLITE_STATIC);
    *id_out = 0;
    *has_stats = 0;
    if ((rc = db_step(st)) > 0) {
        *id_out = sqlite3_column_int64(st, 0);
        *has_stats = sqlite3_column_int(st, 1);
    }
    sqlite3_reset(st);
    return rc < 0 ? rc : 0;
}

int db_ingest_commit_insert(db_ingest *s, int64_t *id_out, int64_t repo_id,
                            const db_commit_row *c)
{
    sqlite3_stmt *st = db_ingest_stmt(s, ST_COMMIT_INS);
    int rc;

    sqlite3_bind_int64(st, 1, repo_id);
    sqlite3_bind_text(st, 2, c->oid, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 3, c->parents, -1, SQLITE_STATIC);
    if (c->first_parent_id)
        sqlite3_bind_int64(st, 4, c->first_parent_id);
    sqlite3_bind_text(st, 5, c->author_name, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 6, c->author_email, -1, SQLITE_STATIC);
    sqlite3_bind_int64(st, 7, c->author_time);
    sqlite3_bind_int(st, 8, c->author_offset);
    sqlite3_bind_int64(st, 9, c->committer_time);
    sqlite3_bind_int(st, 10, c->committer_offset);
    sqlite3_bind_text(st, 11, c->summary, -1, SQLITE_STATIC);
    if ((rc = db_ingest_done(st)) < 0)
        return rc;
    *id_out = sqlite3_last_insert_rowid(s->db);
    return 0;
}

int db_ingest_path_id(db_ingest *s, int64_t *id_out, const char *path)
{
    sqlite3_stmt *st = db_ingest_stmt(s, ST_PATH_FIND);
    int rc;

    sqlite3_bind_text(st, 1, path, -1, SQLITE_STATIC);
    rc = db_step(st);
    if (rc > 0)
        *id_out = sqlite3_column_int64(st, 0);
    sqlite3_reset(st);
    if (rc != 0)
        return rc < 0 ? rc : 0;
    st = db_ingest_stmt(s, ST_PATH_INS);
    sqlite3_bind_text(st, 1, path, -1, SQLITE_STATIC);
    if ((rc = db_ingest_done(st)) < 0)
        return rc;
    *id_out = sqlite3_last_insert_rowid(s->db);
    return 0;
}

int db_ingest_change(db_ingest *s, int64_t commit_id, int64_t path_id,
                     const char *blob_oid, int64_t old_path_id)
{
    sqlite3_stmt *st = db_ingest_stmt(s, ST_CHANGE_INS);

    sqlite3_bind_int64(st, 1, commit_id);
    sqlite3_bind_int64(st, 2, path_id);
    if (blob_oid)
        sqlite3_bind_text(st, 3, blob_oid, -1, SQLITE_STATIC);
    if (old_path_id)
        sqlite3_bind_int64(st, 4, old_path_id);
    return db_ingest_done(st);
}

int db_ingest_changes_of(db_ingest *s, int64_t commit_id,
                         int (*fn)(void *arg, int64_t path_id,
                                   const char *blob_oid, const char *path),
                         void *arg)
{
    sqlite3_stmt *st = db_ingest_stmt(s, ST_CHANGES_OF);
    int rc;

    sqlite3_bind_int64(st, 1, commit_id);
    while ((rc = db_step(st)) > 0) {
        rc = fn(arg, sqlite3_column_int64(st, 0),
                (const char *)sqlite3_column_text(st, 1),
                (const char *)sqlite3_column_text(st, 2));
        if (rc != 0)
            break;
    }
    sqlite3_reset(st);
    return rc;
}

int db_ingest_analysis_find(db_ingest *s, int64_t *id_out,
                            const char *blob_oid, const char *rules_hash)
{
    sqlite3_stmt *st = db_ingest_stmt(s, ST_ANALYSIS_FIND);

    sqlite3_bind_text(st, 1, blob_oid, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 2, rules_hash, -1, SQLITE_STATIC);
    return db_ingest_int(st, id_out);
}

int db_ingest_analysed_each(db_ingest *s, const char *rules_hash,
                            int (*fn)(void *arg, const char *blob_oid), void *arg)
{
    sqlite3_stmt *st = db_ingest_stmt(s, ST_ANALYSED);
    int rc;

    sqlite3_bind_text(st, 1, rules_hash, -1, SQLITE_STATIC);
    while ((rc = db_step(st)) > 0) {
        if ((rc = fn(arg, (const char *)sqlite3_column_text(st, 0))) != 0)
            break;
    }
    sqlite3_reset(st);
    return rc;
}

int db_ingest_analysis_put(db_ingest *s, int64_t *id_out, const char *blob_oid,
                           const char *rules_hash, const db_analysis_row *a)
{
    sqlite3_stmt *st = db_ingest_stmt(s, ST_ANALYSIS_INS);
    int rc, k;

    sqlite3_bind_text(st, 1, blob_oid, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 2, rules_hash, -1, SQLITE_STATIC);
    sqlite3_bind_int64(st, 3, (int64_t)a->size);
    sqlite3_bind_int64(st, 4, a->lines);
    sqlite3_bind_text(st, 5, a->status, -1, SQLITE_STATIC);
    if (a->notes)
        sqlite3_bind_text(st, 6, a->notes, -1, SQLITE_STATIC);
    sqlite3_bind_blob(st, 7, a->findings_z, (int)a->findings_zlen, SQLITE_STATIC);
    sqlite3_bind_int64(st, 8, (int64_t)a->findings_len);
    if (a->hpy_types)
        sqlite3_bind_text(st, 9, a->hpy_types, -1, SQLITE_STATIC);
    if (a->calls_z) {
        sqlite3_bind_blob(st, 10, a->calls_z, (int)a->calls_zlen, SQLITE_STATIC);
        sqlite3_bind_int64(st, 11, (int64_t)a->calls_len);
    }
    for (k = 0; k < PD_CLASS_COUNT; k++)
        sqlite3_bind_int64(st, 12 + k, a->ung[k]);
    if (a->flow_z) {
        sqlite3_bind_blob(st, 16, a->flow_z, (int)a->flow_zlen, SQLITE_STATIC);
        sqlite3_bind_int64(st, 17, (int64_t)a->flow_len);
        if (a->flow_fns)
            sqlite3_bind_text(st, 18, a->flow_fns, -1, SQLITE_STATIC);
    }
    if (a->fns_z) {
        sqlite3_bind_blob(st, 19, a->fns_z, (int)a->fns_zlen, SQLITE_STATIC);
        sqlite3_bind_int64(st, 20, (int64_t)a->fns_len);
    }
    db_measure_bind(st, DB_INGEST_ANALYSIS_NCOLS + 1, DB_M_ANALYSES, &a->counts);
    if ((rc = db_ingest_done(st)) < 0)
        return rc;
    *id_out = sqlite3_last_insert_rowid(s->db);
    return 0;
}

int db_ingest_noobject(db_ingest *s, int64_t analysis_id, const pd_counts *c, int status)
{
    sqlite3_stmt *st = db_ingest_stmt(s, ST_NOOBJECT_INS);
    char text[DB_SCOPE_CACHE_TEXT];

    db_scope_cache_text(text, c);
    sqlite3_bind_int64(st, 1, analysis_id);
    sqlite3_bind_int(st, 2, status);
    sqlite3_bind_text(st, 3, text, -1, SQLITE_STATIC);
    return db_ingest_done(st);
}

int db_ingest_stats(db_ingest *s, int64_t commit_id, const char *rules_hash,
                    const pd_counts *c)
{
    sqlite3_stmt *st = db_ingest_stmt(s, ST_STATS_INS);

    sqlite3_bind_int64(st, 1, commit_id);
    sqlite3_bind_text(st, 2, rules_hash, -1, SQLITE_STATIC);
    db_measure_bind(st, 3, DB_M_TOTALS, c);
    return db_ingest_done(st);
}

int db_ingest_ref(db_ingest *s, int64_t repo_id, const char *name, int64_t commit_id)
{
    sqlite3_stmt *st = db_ingest_stmt(s, ST_REF_UPSERT);

    sqlite3_bind_int64(st, 1, repo_id);
    sqlite3_bind_text(st, 2, name, -1, SQLITE_STATIC);
    sqlite3_bind_int64(st, 3, commit_id);
    sqlite3_bind_int64(st, 4, (int64_t)time(NULL));
    return db_ingest_done(st);
}

int db_ingest_patch_id(db_ingest *s, int64_t commit_id, const char *patch_id)
{
    sqlite3_stmt *st = db_ingest_stmt(s, ST_PATCH_ID);

    sqlite3_bind_int64(st, 1, commit_id);
    sqlite3_bind_text(st, 2, patch_id, -1, SQLITE_STATIC);
    return db_ingest_done(st);
}

int db_ingest_ref_get(db_ingest *s, int64_t *commit_out, int64_t repo_id,
                      const char *name)
{
    sqlite3_stmt *st = db_ingest_stmt(s, ST_REF_GET);

    sqlite3_bind_int64(st, 1, repo_id);
    sqlite3_bind_text(st, 2, name, -1, SQLITE_STATIC);
    return db_ingest_int(st, commit_out);
}

int db_ingest_on_chain(db_ingest *s, int64_t tip, int64_t ancestor)
{
    sqlite3_stmt *st = db_ingest_stmt(s, ST_ON_CHAIN);
    int64_t found;
    int rc;

    sqlite3_bind_int64(st, 1, tip);
    sqlite3_bind_int64(st, 2, ancestor);
    if ((rc = db_ingest_int(st, &found)) < 0)
        return rc;
    return found ? 1 : 0;
}

int db_ingest_rewrite(db_ingest *s, int64_t repo_id, const char *name,
                      int64_t old_id, int64_t new_id)
{
    sqlite3_stmt *st = db_ingest_stmt(s, ST_REWRITE);

    sqlite3_bind_int64(st, 1, repo_id);
    sqlite3_bind_text(st, 2, name, -1, SQLITE_STATIC);
    sqlite3_bind_int64(st, 3, old_id);
    sqlite3_bind_int64(st, 4, new_id);
    sqlite3_bind_int64(st, 5, (int64_t)time(NULL));
    return db_ingest_done(st);
}

int db_ingest_commit_oid(db_ingest *s, char *oid_out, int64_t commit_id)
{
    sqlite3_stmt *st = db_ingest_stmt(s, ST_COMMIT_OID);
    int rc;

    sqlite3_bind_int64(st, 1, commit_id);
    rc = db_step(st);
    if (rc > 0)
        snprintf(oid_out, 41, "%s", (const char *)sqlite3_column_text(st, 0));
    sqlite3_reset(st);
    if (rc < 0)
        return rc;
    if (rc == 0)
        return pd_error_set(PD_EDB, "commit row %lld is missing", (long long)commit_id);
    return 0;
}
