/*
 * db_scope_file.c: the figures under a scope (see db_scope.h) of one
 * analysed file (its functions with their unguarded uses, the
 * no-object-dtype figures and their cache) and of a commit (with the object
 * states its call graph gives); a first-parent history is
 * db_scope_history.c's.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db_compress.h"
#include "db_measures.h"
#include "db_fns.h"
#include "db_query.h"
#include "db_scope.h"
#include "db_flow.h"
#include "pd_error.h"
#include "pd_malloc.h"
#include "pd_file.h"

/* ---------- one analysis ---------- */

void db_scope_detail_free(db_scope_detail *d)
{
    size_t i;

    if (!d)
        return;
    for (i = 0; i < d->nfn; i++)
        free(d->fn[i].name);
    free(d->fn);
    memset(d, 0, sizeof(*d));
}

/* The functions read so far and the room for them. */
typedef struct {
    db_scope_detail *d;
    size_t cap;
    int names;
} db_scope_fns;

/* db_fns_parse_flags callback: one function onto d (its name when r->names). */
static int db_scope_fn_add(void *arg, const db_fn_stored *s)
{
    db_scope_fns *r = arg;
    db_scope_detail *d = r->d;
    db_scope_fn *f;
    int k;

    if (pd_grow((void **)&d->fn, &r->cap, d->nfn + 1, sizeof(*d->fn), 16,
                "reading functions") < 0)
        return PD_ENOMEM;
    f = &d->fn[d->nfn];
    memset(f, 0, sizeof(*f));
    if (r->names && !(f->name = strdup(s->name)))
        return pd_error_nomem("reading functions");
    d->nfn++;
    f->start_line = s->start_line;
    f->status = db_scope_status_index(s->status);
    f->object = s->object_state ? pd_objstate_parse(s->object_state) : PD_OBJ_NONE;
    f->is_object = s->object_state != NULL;
    for (k = 0; k < PD_CLASS_COUNT; k++) {
        f->tok[k] = s->tok[k];
        f->ung[k] = s->ung[k];
    }
    return 0;
}

int db_scope_detail_row(sqlite3_stmt *st, int col, int64_t analysis_id, int names,
                        db_scope_detail *out)
{
    db_scope_fns r = {out, 0, names};
    char *text = NULL;
    size_t i;
    int rc, k;

    memset(out, 0, sizeof(*out));
    /* the functions, in index order; the why of each is not read */
    if ((rc = db_column_decompress(st, col, 1, &text)) == 0 && text &&
        (rc = db_fns_parse_flags(text, (size_t)sqlite3_column_int64(st, col + 1),
                                 DB_FNS_NO_WHY, db_scope_fn_add, &r)) == PD_EDB)
        rc = pd_error_set(PD_EDB, "the functions of analysis %lld cannot be read: "
                          "the database is damaged", (long long)analysis_id);
    free(text);
    /* the whole file's facts, and what of its unguarded findings lies
     * outside every function */
    for (k = 0; rc == 0 && k < PD_CLASS_COUNT; k++) {
        out->file.tok[k] = sqlite3_column_int64(st, col + 2 + k);
        out->file_ung[k] = out->file.ung[k] = sqlite3_column_int64(st, col + 6 + k);
        for (i = 0; i < out->nfn; i++)
            out->file_ung[k] -= out->fn[i].ung[k];
    }
    if (rc < 0)
        db_scope_detail_free(out);
    return rc;
}

int db_scope_detail_read(sqlite3 *db, int64_t analysis_id, db_scope_detail *out)
{
    sqlite3_stmt *st = NULL;
    int rc;

    memset(out, 0, sizeof(*out));
    if ((rc = db_prepare(db, &st, "SELECT " DB_SCOPE_DETAIL_COLS " FROM analyses "
                         "WHERE id = ?1")) < 0)
        return rc;
    sqlite3_bind_int64(st, 1, analysis_id);
    if ((rc = db_step(st)) == 0)
        rc = pd_error_set(PD_ENOTFOUND, "no analysis %lld", (long long)analysis_id);
    if (rc > 0)
        rc = db_scope_detail_row(st, 0, analysis_id, 1, out);
    sqlite3_finalize(st);
    return rc;
}

int db_scope_detail_counts(const db_scope_detail *d, int exclude_object, db_counts *out,
                           int *status)
{
    pd_file_facts file = d->file;
    pd_fn_facts *fn = malloc((d->nfn ? d->nfn : 1) * sizeof(*fn));
    size_t i, n = 0;
    int k;

    if (!fn)
        return pd_error_nomem(NULL);
    for (i = 0; i < d->nfn; i++) {
        const db_scope_fn *f = &d->fn[i];

        if (exclude_object && f->is_object) {
            /* What the function brings leaves the file's facts with it. */
            for (k = 0; k < PD_CLASS_COUNT; k++) {
                file.tok[k] -= f->tok[k];
                file.ung[k] -= f->ung[k];
            }
            continue;
        }
        fn[n].status = f->status;
        fn[n].object = f->object;
        memcpy(fn[n].tok, f->tok, sizeof(fn[n].tok));
        memcpy(fn[n].ung, f->ung, sizeof(fn[n].ung));
        n++;
    }
    pd_counts_of_file(out, &file, fn, n);
    *status = pd_status_rule(pd_classes_present(file.ung));
    free(fn);
    return 0;
}

/* Look the cached no-object figures of an analysis up: 1 found, 0 not (or
 * a row of another measures table: computed again). */
static int db_scope_cache_get(sqlite3 *db, int64_t analysis_id, db_counts *out,
                              int *status)
{
    sqlite3_stmt *st = NULL;
    int found = 0, i;

    if (sqlite3_prepare_v2(db, "SELECT status, counts FROM analysis_noobject "
                           "WHERE analysis_id = ?1", -1, &st, NULL) != SQLITE_OK) {
        sqlite3_finalize(st);
        return 0;
    }
    sqlite3_bind_int64(st, 1, analysis_id);
    if (sqlite3_step(st) == SQLITE_ROW) {
        const char *p = (const char *)sqlite3_column_text(st, 1);
        char *end;

        *status = sqlite3_column_int(st, 0);
        for (i = 0; p && i < PD_NMEASURES; i++, p = end) {
            out->v[i] = strtoll(p, &end, 10);
            if (end == p)
                break;
        }
        found = p && i == PD_NMEASURES && *p == '\0';
    }
    sqlite3_finalize(st);
    return found;
}

/* Store no-object figures in the cache (migration 011).  A failed write (a
 * busy database, a read-only file) only costs a later recompute. */
void db_scope_cache_text(char text[DB_SCOPE_CACHE_TEXT], const db_counts *c)
{
    size_t len = 0;
    int i;

    text[0] = '\0';
    for (i = 0; i < PD_NMEASURES; i++)
        len += (size_t)snprintf(text + len, DB_SCOPE_CACHE_TEXT - len, "%s%lld",
                                i ? " " : "", (long long)c->v[i]);
}

static void db_scope_cache_put(sqlite3 *db, int64_t analysis_id, const db_counts *c,
                               int status)
{
    char text[DB_SCOPE_CACHE_TEXT];
    sqlite3_stmt *st = NULL;

    db_scope_cache_text(text, c);
    if (sqlite3_prepare_v2(db, "INSERT OR REPLACE INTO analysis_noobject(analysis_id, "
                           "status, counts) VALUES(?1, ?2, ?3)", -1, &st,
                           NULL) != SQLITE_OK) {
        sqlite3_finalize(st);
        return;
    }
    sqlite3_bind_int64(st, 1, analysis_id);
    sqlite3_bind_int(st, 2, status);
    sqlite3_bind_text(st, 3, text, -1, SQLITE_STATIC);
    sqlite3_step(st);
    sqlite3_finalize(st);
}

int db_scope_file_counts(sqlite3 *db, const db_scope *sc, int64_t analysis_id,
                         const db_counts *full, int status, db_counts *out,
                         int *status_out)
{
    db_scope_detail d;
    int rc;

    *out = *full;
    *status_out = status;
    if (!sc->exclude_object_paths || !analysis_id ||
        full->obj[0] + full->obj[1] + full->obj[2] == 0)
        return 0;
    if (db_scope_cache_get(db, analysis_id, out, status_out))
        return 0;
    if ((rc = db_scope_detail_read(db, analysis_id, &d)) < 0)
        return rc;
    rc = db_scope_detail_counts(&d, 1, out, status_out);
    db_scope_detail_free(&d);
    if (rc == 0)
        db_scope_cache_put(db, analysis_id, out, *status_out);
    return rc;
}

int db_scope_warm(sqlite3 *db, const char *rules_hash, int64_t *filled)
{
    static const db_scope filter = {"warm", "", NULL, 0, NULL, 0, 1};
    char cols[1024], sql[1536];
    sqlite3_stmt *st = NULL;
    db_counts full, c;
    int rc, status;

    if (filled)
        *filled = 0;
    if ((rc = db_measure_list(cols, sizeof(cols), DB_M_ANALYSES, "")) < 0)
        return rc;
    snprintf(sql, sizeof(sql), "SELECT id, status, %s FROM analyses WHERE rules_hash = ?1 "
             "AND obj_legacy + obj_cpython_only + obj_universal > 0 AND id NOT IN "
             "(SELECT analysis_id FROM analysis_noobject)", cols);
    if ((rc = db_prepare(db, &st, sql)) < 0)
        return rc;
    sqlite3_bind_text(st, 1, rules_hash, -1, SQLITE_STATIC);
    if ((rc = db_exec(db, "BEGIN")) < 0)
        goto done;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        db_measure_read(st, 2, DB_M_ANALYSES, &full);
        status = db_scope_status_index((const char *)sqlite3_column_text(st, 1));
        if ((rc = db_scope_file_counts(db, &filter, sqlite3_column_int64(st, 0), &full,
                                       status, &c, &status)) < 0)
            break;
        if (filled)
            (*filled)++;
    }
    if (rc == SQLITE_DONE)
        rc = 0;
    else if (rc > 0)
        rc = pd_error_set(PD_EDB, "database: %s", sqlite3_errmsg(db));
    sqlite3_exec(db, rc == 0 ? "COMMIT" : "ROLLBACK", NULL, NULL, NULL);
done:
    sqlite3_finalize(st);
    return rc;
}

/* ---------- a commit ---------- */

int db_scope_detail_read_at(sqlite3 *db, int64_t analysis_id, const pd_flow *g,
                            const char *path, db_scope_detail *out)
{
    int64_t key = pd_flow_path_key(path);
    size_t i;
    int rc;

    if ((rc = db_scope_detail_read(db, analysis_id, out)) < 0 || !g)
        return rc;
    for (i = 0; i < out->nfn; i++)
        if (pd_flow_known(g, key, i)) {
            out->fn[i].object = pd_flow_state(g, key, i);
            out->fn[i].is_object = out->fn[i].object != PD_OBJ_NONE;
        }
    return 0;
}

int db_scope_detail_ready(const db_scope_detail *d)
{
    unsigned present = pd_classes_present(d->file_ung);
    size_t i;

    for (i = 0; i < d->nfn; i++)
        if (!d->fn[i].is_object)
            present |= pd_classes_present(d->fn[i].ung);
    return pd_universal_ready_rule(present);
}

int db_scope_file_counts_at(sqlite3 *db, const db_scope *sc, int64_t analysis_id,
                            const db_counts *full, int status, const pd_flow *g,
                            const char *path, db_counts *out, int *status_out)
{
    int64_t delta[PD_OBJ_COUNT];
    db_scope_detail d;
    int rc, k, changed = 0;

    if (g) {
        pd_flow_file_delta(g, pd_flow_path_key(path), delta);
        for (k = 0; k < PD_OBJ_COUNT; k++)
            changed |= delta[k] != 0;
    }
    /* The blob's own states: its cached figures are right. */
    if (!changed || !sc->exclude_object_paths || !analysis_id)
        return db_scope_file_counts(db, sc, analysis_id, full, status, out, status_out);
    /* The graph's states belong to the commit, not the blob: not cached. */
    if ((rc = db_scope_detail_read_at(db, analysis_id, g, path, &d)) < 0)
        return rc;
    rc = db_scope_detail_counts(&d, 1, out, status_out);
    db_scope_detail_free(&d);
    return rc;
}

int db_scope_commit_counts(sqlite3 *db, const db_scope *sc, int64_t commit_id,
                           const char *rules_hash, db_counts *out)
{
    sqlite3_stmt *st = NULL;
    db_flow *flow = NULL;
    db_counts full, c;
    int64_t delta[PD_OBJ_COUNT];
    int rc, k, status, in_tx;

    memset(out, 0, sizeof(*out));
    if ((rc = db_flow_get(db, commit_id, rules_hash, &flow)) < 0)
        return rc;
    if ((rc = db_commit_files_stmt(db, &st, commit_id, rules_hash)) < 0) {
        db_flow_release(flow);
        return rc;
    }
    /* One transaction, so that cache rows written on the way cost one sync. */
    in_tx = sqlite3_exec(db, "BEGIN", NULL, NULL, NULL) == SQLITE_OK;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        if (sqlite3_column_type(st, 4) == SQLITE_NULL ||
            !db_scope_has_path(sc, (const char *)sqlite3_column_text(st, 1)))
            continue;
        db_counts_from_files_row(st, &full);
        pd_flow_file_delta(db_flow_graph(flow),
                           pd_flow_path_key((const char *)sqlite3_column_text(st, 1)), delta);
        for (k = 0; k < PD_OBJ_COUNT; k++)
            full.obj[k] += delta[k];
        status = db_scope_status_index((const char *)sqlite3_column_text(st, 4));
        if ((rc = db_scope_file_counts_at(db, sc, sqlite3_column_int64(st, 3), &full,
                                          status, db_flow_graph(flow),
                                          (const char *)sqlite3_column_text(st, 1), &c,
                                          &status)) < 0)
            goto done;
        db_counts_add(out, &c, 1);
    }
    rc = rc == SQLITE_DONE ? 0 : pd_error_set(PD_EDB, "database: %s", sqlite3_errmsg(db));
done:
    sqlite3_finalize(st);
    db_flow_release(flow);
    if (in_tx)
        sqlite3_exec(db, "COMMIT", NULL, NULL, NULL);
    return rc;
}
