/*
 * ingest_store.c: the SQL writes of an ingest (see ingest_store.h).
 *
 * Findings are stored as one zlib-compressed JSON array per analysis:
 * [[line, column, class, rule, text, function_index, guarded(, reason)], ...],
 * where class is the an_class name, function_index -1 means file scope and
 * reason (item sites only, an_finding.reason) is left out when NULL.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "db_measures.h"
#include "ingest_store.h"
#include "pd_error.h"

enum {
    ST_REPO_FIND, ST_REPO_INS, ST_REPO_PATH, ST_COMMIT_FIND, ST_COMMIT_INS,
    ST_PATH_FIND, ST_PATH_INS, ST_CHANGE_INS, ST_CHANGES_OF, ST_ANALYSIS_FIND,
    ST_ANALYSIS_INS, ST_FUNC_INS, ST_STATS_INS, ST_REF_UPSERT, ST_PATCH_ID,
    ST_REF_GET, ST_ON_CHAIN, ST_REWRITE, ST_COMMIT_OID, ST_COUNT
};

static const char *const ingest_store_sql[ST_COUNT] = {
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
     * measures table by ingest_store_open. */
    [ST_FUNC_INS] = "INSERT INTO functions(analysis_id, idx, name, start_line, "
                    "end_line, status, object_state, tok_hpy, tok_capi, "
                    "tok_npy_legacy, tok_bridge, name_from_macro, why, ung_hpy, "
                    "ung_capi, ung_npy_legacy, ung_bridge) VALUES(?1, ?2, "
                    "?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17)",
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
};

struct ingest_store {
    sqlite3 *db;
    sqlite3_stmt *st[ST_COUNT];
};

/* The fixed columns of an analyses row before its measures, ?1 to ?15. */
#define INGEST_ANALYSIS_COLS "blob_oid, rules_hash, size, lines, status, notes, " \
    "findings, findings_len, hpy_types, calls, calls_len, ung_hpy, ung_capi, " \
    "ung_npy_legacy, ung_bridge"
#define INGEST_ANALYSIS_NCOLS 15

int ingest_store_open(ingest_store **out, sqlite3 *db)
{
    ingest_store *s = calloc(1, sizeof(*s));
    char analysis[2048], stats[1024];
    const char *sql[ST_COUNT];
    int i, rc;

    *out = NULL;
    if (!s)
        return pd_error_set(PD_ENOMEM, "out of memory");
    s->db = db;
    memcpy(sql, ingest_store_sql, sizeof(sql));
    if ((rc = db_measure_insert_sql(analysis, sizeof(analysis), "INTO analyses",
                                    INGEST_ANALYSIS_COLS, INGEST_ANALYSIS_NCOLS,
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
            ingest_store_free(s);
            return rc;
        }
    }
    *out = s;
    return 0;
}

void ingest_store_free(ingest_store *s)
{
    int i;

    if (!s)
        return;
    for (i = 0; i < ST_COUNT; i++)
        sqlite3_finalize(s->st[i]);
    free(s);
}

/* Reset a statement for reuse and return it. */
static sqlite3_stmt *ingest_store_stmt(ingest_store *s, int which)
{
    sqlite3_stmt *st = s->st[which];

    sqlite3_reset(st);
    sqlite3_clear_bindings(st);
    return st;
}

/* Run a statement that returns no row. */
static int ingest_store_done(ingest_store *s, sqlite3_stmt *st)
{
    int rc = sqlite3_step(st);

    sqlite3_reset(st);
    if (rc != SQLITE_DONE)
        return pd_error_set(PD_EDB, "database: %s", sqlite3_errmsg(s->db));
    return 0;
}

int ingest_store_repo(ingest_store *s, int64_t *id_out, char **scope_out,
                      const char *name, const char *path, const char *scope_json)
{
    sqlite3_stmt *st = ingest_store_stmt(s, ST_REPO_FIND);
    int rc;

    if (scope_out)
        *scope_out = NULL;
    sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
    rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) {
        const char *stored = (const char *)sqlite3_column_text(st, 1);

        *id_out = sqlite3_column_int64(st, 0);
        if (scope_json && strcmp(scope_json, stored) != 0) {
            rc = pd_error_set(PD_EINVAL, "repository '%s' was ingested with scope "
                              "%s; this run asks for %s. Use the same --include/"
                              "--exclude, or a new --name", name, stored, scope_json);
            sqlite3_reset(st);
            return rc;
        }
        if (scope_out && !(*scope_out = strdup(stored)))
            rc = PD_ENOMEM;
        sqlite3_reset(st);
        if (rc == PD_ENOMEM)
            return pd_error_set(rc, "out of memory");
        st = ingest_store_stmt(s, ST_REPO_PATH);
        sqlite3_bind_int64(st, 1, *id_out);
        sqlite3_bind_text(st, 2, path, -1, SQLITE_STATIC);
        return ingest_store_done(s, st);
    }
    sqlite3_reset(st);
    if (rc != SQLITE_DONE)
        return pd_error_set(PD_EDB, "database: %s", sqlite3_errmsg(s->db));
    st = ingest_store_stmt(s, ST_REPO_INS);
    sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 2, path, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 3, scope_json ? scope_json : "{\"include\":[],\"exclude\":[]}",
                      -1, SQLITE_STATIC);
    sqlite3_bind_int64(st, 4, (int64_t)time(NULL));
    if ((rc = ingest_store_done(s, st)) < 0)
        return rc;
    *id_out = sqlite3_last_insert_rowid(s->db);
    if (scope_out && scope_json && !(*scope_out = strdup(scope_json)))
        return pd_error_set(PD_ENOMEM, "out of memory");
    return 0;
}

int ingest_store_commit_find(ingest_store *s, int64_t *id_out, int *has_stats,
                             int64_t repo_id, const git_oid *oid,
                             const char *rules_hash)
{
    sqlite3_stmt *st = ingest_store_stmt(s, ST_COMMIT_FIND);
    char hex[GIT_OID_HEXSZ + 1];
    int rc;

    git_oid_tostr(hex, sizeof(hex), oid);
    sqlite3_bind_int64(st, 1, repo_id);
    sqlite3_bind_text(st, 2, hex, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st, 3, rules_hash, -1, SQLITE_STATIC);
    *id_out = 0;
    *has_stats = 0;
    rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) {
        *id_out = sqlite3_column_int64(st, 0);
        *has_stats = sqlite3_column_int(st, 1);
    }
    sqlite3_reset(st);
    if (rc != SQLITE_ROW && rc != SQLITE_DONE)
        return pd_error_set(PD_EDB, "database: %s", sqlite3_errmsg(s->db));
    return 0;
}

/* Space-separated hex ids of a commit's parents, in a caller buffer. */
/* Every parent id, space-separated: a new string (NULL: out of memory).
 * An octopus merge may have any number of parents; all are kept. */
static char *ingest_store_parents(const git_commit *c)
{
    unsigned i, np = git_commit_parentcount(c);
    size_t off = 0, n = (size_t)np * (GIT_OID_HEXSZ + 1) + 1;
    char *buf = malloc(n);

    if (!buf)
        return NULL;
    buf[0] = '\0';
    for (i = 0; i < np; i++) {
        if (i)
            buf[off++] = ' ';
        git_oid_tostr(buf + off, n - off, git_commit_parent_id(c, i));
        off += GIT_OID_HEXSZ;
    }
    return buf;
}

int ingest_store_commit_insert(ingest_store *s, int64_t *id_out, int64_t repo_id,
                               const git_commit *c, int64_t first_parent_id)
{
    sqlite3_stmt *st = ingest_store_stmt(s, ST_COMMIT_INS);
    const git_signature *a = git_commit_author(c);
    const char *summary = git_commit_summary((git_commit *)c);
    char hex[GIT_OID_HEXSZ + 1], *parents = ingest_store_parents(c);
    int rc;

    if (!parents)
        return pd_error_set(PD_ENOMEM, "out of memory");
    git_oid_tostr(hex, sizeof(hex), git_commit_id(c));
    sqlite3_bind_int64(st, 1, repo_id);
    sqlite3_bind_text(st, 2, hex, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 3, parents, -1, SQLITE_STATIC);
    if (first_parent_id)
        sqlite3_bind_int64(st, 4, first_parent_id);
    sqlite3_bind_text(st, 5, a && a->name ? a->name : "", -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 6, a && a->email ? a->email : "", -1, SQLITE_STATIC);
    sqlite3_bind_int64(st, 7, a ? a->when.time : 0);
    sqlite3_bind_int(st, 8, a ? a->when.offset : 0);
    sqlite3_bind_int64(st, 9, git_commit_time(c));
    sqlite3_bind_int(st, 10, git_commit_time_offset(c));
    sqlite3_bind_text(st, 11, summary ? summary : "", -1, SQLITE_STATIC);
    rc = ingest_store_done(s, st);
    free(parents);
    if (rc < 0)
        return rc;
    *id_out = sqlite3_last_insert_rowid(s->db);
    return 0;
}

int ingest_store_path_id(ingest_store *s, int64_t *id_out, const char *path)
{
    sqlite3_stmt *st = ingest_store_stmt(s, ST_PATH_FIND);
    int rc;

    sqlite3_bind_text(st, 1, path, -1, SQLITE_STATIC);
    rc = sqlite3_step(st);
    if (rc == SQLITE_ROW)
        *id_out = sqlite3_column_int64(st, 0);
    sqlite3_reset(st);
    if (rc == SQLITE_ROW)
        return 0;
    if (rc != SQLITE_DONE)
        return pd_error_set(PD_EDB, "database: %s", sqlite3_errmsg(s->db));
    st = ingest_store_stmt(s, ST_PATH_INS);
    sqlite3_bind_text(st, 1, path, -1, SQLITE_STATIC);
    if ((rc = ingest_store_done(s, st)) < 0)
        return rc;
    *id_out = sqlite3_last_insert_rowid(s->db);
    return 0;
}

int ingest_store_change(ingest_store *s, int64_t commit_id, int64_t path_id,
                        const git_oid *blob, int64_t old_path_id)
{
    sqlite3_stmt *st = ingest_store_stmt(s, ST_CHANGE_INS);
    char hex[GIT_OID_HEXSZ + 1];

    sqlite3_bind_int64(st, 1, commit_id);
    sqlite3_bind_int64(st, 2, path_id);
    if (blob) {
        git_oid_tostr(hex, sizeof(hex), blob);
        sqlite3_bind_text(st, 3, hex, -1, SQLITE_TRANSIENT);
    }
    if (old_path_id)
        sqlite3_bind_int64(st, 4, old_path_id);
    return ingest_store_done(s, st);
}

int ingest_store_changes_of(ingest_store *s, int64_t commit_id,
                            int (*fn)(void *arg, int64_t path_id,
                                      const char *blob_oid, const char *path),
                            void *arg)
{
    sqlite3_stmt *st = ingest_store_stmt(s, ST_CHANGES_OF);
    int rc;

    sqlite3_bind_int64(st, 1, commit_id);
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        rc = fn(arg, sqlite3_column_int64(st, 0),
                (const char *)sqlite3_column_text(st, 1),
                (const char *)sqlite3_column_text(st, 2));
        if (rc != 0) {
            sqlite3_reset(st);
            return rc;
        }
    }
    sqlite3_reset(st);
    if (rc != SQLITE_DONE)
        return pd_error_set(PD_EDB, "database: %s", sqlite3_errmsg(s->db));
    return 0;
}

int ingest_store_analysis_find(ingest_store *s, int64_t *id_out,
                               const char *blob_oid, const char *rules_hash)
{
    sqlite3_stmt *st = ingest_store_stmt(s, ST_ANALYSIS_FIND);
    int rc;

    sqlite3_bind_text(st, 1, blob_oid, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 2, rules_hash, -1, SQLITE_STATIC);
    *id_out = 0;
    rc = sqlite3_step(st);
    if (rc == SQLITE_ROW)
        *id_out = sqlite3_column_int64(st, 0);
    sqlite3_reset(st);
    if (rc != SQLITE_ROW && rc != SQLITE_DONE)
        return pd_error_set(PD_EDB, "database: %s", sqlite3_errmsg(s->db));
    return 0;
}

/* The facts the measures are derived from (pd_domain.h): the file's and,
 * into fn (res->nfunctions of them), each function's, with the unguarded
 * findings counted where they lie. */
static void ingest_store_facts(const an_result *res, pd_file_facts *file, pd_fn_facts *fn)
{
    size_t i;
    int k;

    memset(file, 0, sizeof(*file));
    for (k = 0; k < AN_CLASS_COUNT; k++)
        file->tok[k] = res->tokens[k];
    for (i = 0; i < res->nfunctions; i++) {
        const an_function *f = &res->functions[i];

        memset(&fn[i], 0, sizeof(fn[i]));
        fn[i].status = f->status;
        fn[i].object = f->object_state;
        for (k = 0; k < AN_CLASS_COUNT; k++)
            fn[i].tok[k] = f->tokens[k];
    }
    for (i = 0; i < res->nfindings; i++) {
        const an_finding *x = &res->findings[i];

        if (x->guarded)
            continue;
        file->ung[x->cls]++;
        if (x->function >= 0 && (size_t)x->function < res->nfunctions)
            fn[x->function].ung[x->cls]++;
    }
}

typedef struct {
    char *buf;
    size_t len, cap;
    int oom;
} ingest_buf;

/* Append n bytes; records allocation failure in b->oom. */
static void ingest_buf_put(ingest_buf *b, const char *s, size_t n)
{
    if (b->oom)
        return;
    if (b->len + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 4096;
        char *p;

        while (cap < b->len + n + 1)
            cap *= 2;
        if (!(p = realloc(b->buf, cap))) {
            b->oom = 1;
            return;
        }
        b->buf = p;
        b->cap = cap;
    }
    memcpy(b->buf + b->len, s, n);
    b->len += n;
    b->buf[b->len] = '\0';
}

/* Append a JSON string.  Texts are identifiers and rule ids, but a rules
 * file or a source file may hold anything: non-ASCII bytes become U+FFFD so
 * the document is always valid UTF-8. */
static void ingest_buf_string(ingest_buf *b, const char *s)
{
    char esc[8];

    ingest_buf_put(b, "\"", 1);
    while (*s) {
        size_t run = 0;
        unsigned char c;

        /* Copy the plain run in one go; escape what ends it. */
        while ((c = (unsigned char)s[run]) >= 0x20 && c < 0x80 && c != '"' && c != '\\')
            run++;
        ingest_buf_put(b, s, run);
        s += run;
        if (!(c = (unsigned char)*s))
            break;
        if (c == '"' || c == '\\') {
            esc[0] = '\\';
            esc[1] = (char)c;
            ingest_buf_put(b, esc, 2);
        } else if (c < 0x20) {
            snprintf(esc, sizeof(esc), "\\u%04x", c);
            ingest_buf_put(b, esc, 6);
        } else {
            ingest_buf_put(b, "\xef\xbf\xbd", 3);
        }
        s++;
    }
    ingest_buf_put(b, "\"", 1);
}

/*
 * The findings of a result as compact JSON text, freed with free().  Written
 * directly rather than through jansson: a numpy history has over a million
 * findings, and building a json_t per value dominated the ingest profile.
 */
/* Write v in decimal at p; returns its length.  (snprintf was a tenth of
 * the analysis threads' time on numpy-hpy.) */
static size_t ingest_utoa(char *p, uint32_t v)
{
    char tmp[10];
    size_t n = 0, i;

    do
        tmp[n++] = (char)('0' + v % 10);
    while ((v /= 10) != 0);
    for (i = 0; i < n; i++)
        p[i] = tmp[n - 1 - i];
    return n;
}

static char *ingest_store_findings_json(const an_result *res)
{
    ingest_buf b = {0};
    char num[64];
    size_t i, n;

    ingest_buf_put(&b, "[", 1);
    for (i = 0; i < res->nfindings; i++) {
        const an_finding *f = &res->findings[i];

        n = 0;                           /* [line,column, */
        if (i)
            num[n++] = ',';
        num[n++] = '[';
        n += ingest_utoa(num + n, f->line);
        num[n++] = ',';
        n += ingest_utoa(num + n, f->column);
        num[n++] = ',';
        ingest_buf_put(&b, num, n);
        ingest_buf_string(&b, an_class_name(f->cls));
        ingest_buf_put(&b, ",", 1);
        ingest_buf_string(&b, f->rule ? f->rule : "");
        ingest_buf_put(&b, ",", 1);
        ingest_buf_string(&b, f->text ? f->text : "");
        n = 0;                           /* ,function,guarded */
        num[n++] = ',';
        if (f->function < 0)
            num[n++] = '-';
        n += ingest_utoa(num + n, f->function < 0 ? (uint32_t)-(int64_t)f->function
                                                  : (uint32_t)f->function);
        memcpy(num + n, f->guarded ? ",true" : ",false", f->guarded ? 5 : 6);
        n += f->guarded ? 5 : 6;
        ingest_buf_put(&b, num, n);
        if (f->reason) {
            ingest_buf_put(&b, ",", 1);
            ingest_buf_string(&b, f->reason);
        }
        ingest_buf_put(&b, "]", 1);
    }
    ingest_buf_put(&b, "]", 1);
    if (b.oom) {
        free(b.buf);
        return NULL;
    }
    return b.buf;
}

/* Insert the function rows of one analysis. */
static int ingest_store_functions(ingest_store *s, int64_t analysis_id,
                                  const ingest_enc *e)
{
    size_t i;
    int rc, k;

    for (i = 0; i < e->nfn; i++) {
        const ingest_enc_fn *f = &e->fn[i];
        sqlite3_stmt *st = ingest_store_stmt(s, ST_FUNC_INS);

        sqlite3_bind_int64(st, 1, analysis_id);
        sqlite3_bind_int64(st, 2, (int64_t)i);
        sqlite3_bind_text(st, 3, f->name, -1, SQLITE_STATIC);
        sqlite3_bind_int64(st, 4, f->start_line);
        sqlite3_bind_int64(st, 5, f->end_line);
        sqlite3_bind_text(st, 6, an_status_name(f->status), -1, SQLITE_STATIC);
        if (f->object_state != AN_OBJ_NONE)
            sqlite3_bind_text(st, 7, an_objstate_name(f->object_state), -1,
                              SQLITE_STATIC);
        for (k = 0; k < AN_CLASS_COUNT; k++)
            sqlite3_bind_int64(st, 8 + k, f->tokens[k]);
        if (f->name_from_macro)
            sqlite3_bind_text(st, 12, f->name_from_macro, -1, SQLITE_STATIC);
        sqlite3_bind_text(st, 13, f->why, -1, SQLITE_STATIC);
        for (k = 0; k < AN_CLASS_COUNT; k++)
            sqlite3_bind_int64(st, 14 + k, f->ung[k]);
        if ((rc = ingest_store_done(s, st)) < 0)
            return rc;
    }
    return 0;
}

/*
 * The calls of every function (an_function.calls) as one text, a line per
 * function in index order; NULL with *len 0 when no function calls
 * anything or on allocation failure (then *oom is set).  Freed with free().
 */
static char *ingest_store_calls_text(const an_result *res, size_t *len, int *oom)
{
    ingest_buf b = {0};
    size_t i;
    int any = 0;

    *len = 0;
    *oom = 0;
    for (i = 0; i < res->nfunctions; i++) {
        const char *c = res->functions[i].calls ? res->functions[i].calls : "";

        any |= c[0] != '\0';
        ingest_buf_put(&b, c, strlen(c));
        ingest_buf_put(&b, "\n", 1);
    }
    if (b.oom || !any) {
        *oom = b.oom;
        free(b.buf);
        return NULL;
    }
    *len = b.len;
    return b.buf;
}

void ingest_enc_free(ingest_enc *e)
{
    if (!e)
        return;
    free(e->notes);
    free(e->hpy_types);
    free(e->findings_z);
    free(e->calls_z);
    for (size_t i = 0; e->fn && i < e->nfn; i++)
        free(e->fn[i].why);
    free(e->fn);
    free(e->names);
    free(e);
}

/* Copy the function rows of `res` into e->fn, names into one block. */
static int ingest_enc_functions(ingest_enc *e, const an_result *res)
{
    size_t i, total = 0, off = 0;

    for (i = 0; i < res->nfunctions; i++)
        total += strlen(res->functions[i].name) + 1 +
                 (res->functions[i].name_from_macro ?
                  strlen(res->functions[i].name_from_macro) + 1 : 0);
    e->nfn = res->nfunctions;
    if (e->nfn && (!(e->fn = calloc(e->nfn, sizeof(*e->fn))) ||
                   !(e->names = malloc(total))))
        return PD_ENOMEM;
    for (i = 0; i < res->nfunctions; i++) {
        const an_function *f = &res->functions[i];
        size_t n = strlen(f->name) + 1;

        memcpy(e->names + off, f->name, n);
        e->fn[i].name = e->names + off;
        off += n;
        e->fn[i].start_line = f->start_line;
        e->fn[i].end_line = f->end_line;
        e->fn[i].status = f->status;
        e->fn[i].object_state = f->object_state;
        memcpy(e->fn[i].tokens, f->tokens, sizeof(f->tokens));
        if (f->name_from_macro) {
            n = strlen(f->name_from_macro) + 1;
            memcpy(e->names + off, f->name_from_macro, n);
            e->fn[i].name_from_macro = e->names + off;
            off += n;
        }
        {
            char why[1024];

            an_why_json(res, f, why, sizeof(why));
            if (!(e->fn[i].why = strdup(why)))
                return PD_ENOMEM;
        }
    }
    return 0;
}

int ingest_store_counts_of(db_counts *out, const an_result *res)
{
    pd_fn_facts *fn = malloc((res->nfunctions ? res->nfunctions : 1) * sizeof(*fn));
    pd_file_facts file;

    if (!fn)
        return pd_error_set(PD_ENOMEM, "out of memory");
    ingest_store_facts(res, &file, fn);
    pd_counts_of_file(out, &file, fn, res->nfunctions);
    free(fn);
    return 0;
}

/* The measures of `res` into e->counts, unguarded findings into e->ung and
 * e->fn[].ung (after ingest_enc_functions). */
static int ingest_enc_measures(ingest_enc *e, const an_result *res)
{
    pd_fn_facts *fn = malloc((res->nfunctions ? res->nfunctions : 1) * sizeof(*fn));
    pd_file_facts file;
    size_t i;
    int k;

    if (!fn)
        return PD_ENOMEM;
    ingest_store_facts(res, &file, fn);
    pd_counts_of_file(&e->counts, &file, fn, res->nfunctions);
    memcpy(e->ung, file.ung, sizeof(e->ung));
    for (i = 0; i < e->nfn; i++)
        for (k = 0; k < AN_CLASS_COUNT; k++)
            e->fn[i].ung[k] = (uint32_t)fn[i].ung[k];
    free(fn);
    return 0;
}

int ingest_enc_new(ingest_enc **out, const an_result *res, size_t size)
{
    ingest_enc *e = calloc(1, sizeof(*e));
    char *json = NULL, *calls = NULL;
    int rc = PD_ENOMEM, oom = 0;

    *out = NULL;
    if (!e || !(json = ingest_store_findings_json(res)))
        goto done;
    e->size = size;
    e->lines = res->lines;
    e->status = res->status;
    e->universal_ready = res->universal_ready ? 1 : 0;
    e->findings_len = strlen(json);
    calls = ingest_store_calls_text(res, &e->calls_len, &oom);
    if (oom || (res->notes && !(e->notes = strdup(res->notes))) ||
        (res->hpy_types && !(e->hpy_types = strdup(res->hpy_types))) ||
        ingest_enc_functions(e, res) < 0 || ingest_enc_measures(e, res) < 0)
        goto done;
    if ((rc = db_deflate(&e->findings_z, &e->findings_zlen, json, e->findings_len)) < 0 ||
        (calls && (rc = db_deflate(&e->calls_z, &e->calls_zlen, calls, e->calls_len)) < 0))
        goto done;
    *out = e;
    e = NULL;
    rc = 0;
done:
    free(json);
    free(calls);
    ingest_enc_free(e);
    if (rc == PD_ENOMEM)
        pd_error_set(rc, "out of memory encoding an analysis");
    return rc;
}

int ingest_store_analysis_put(ingest_store *s, int64_t *id_out,
                              const char *blob_oid, const char *rules_hash,
                              const ingest_enc *e)
{
    sqlite3_stmt *st = ingest_store_stmt(s, ST_ANALYSIS_INS);
    int rc, k;

    sqlite3_bind_text(st, 1, blob_oid, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 2, rules_hash, -1, SQLITE_STATIC);
    sqlite3_bind_int64(st, 3, (int64_t)e->size);
    sqlite3_bind_int64(st, 4, e->lines);
    sqlite3_bind_text(st, 5, an_status_name(e->status), -1, SQLITE_STATIC);
    if (e->notes)
        sqlite3_bind_text(st, 6, e->notes, -1, SQLITE_STATIC);
    sqlite3_bind_blob(st, 7, e->findings_z, (int)e->findings_zlen, SQLITE_STATIC);
    sqlite3_bind_int64(st, 8, (int64_t)e->findings_len);
    if (e->hpy_types)
        sqlite3_bind_text(st, 9, e->hpy_types, -1, SQLITE_STATIC);
    if (e->calls_z) {
        sqlite3_bind_blob(st, 10, e->calls_z, (int)e->calls_zlen, SQLITE_STATIC);
        sqlite3_bind_int64(st, 11, (int64_t)e->calls_len);
    }
    for (k = 0; k < AN_CLASS_COUNT; k++)
        sqlite3_bind_int64(st, 12 + k, e->ung[k]);
    db_measure_bind(st, INGEST_ANALYSIS_NCOLS + 1, DB_M_ANALYSES, &e->counts);
    if ((rc = ingest_store_done(s, st)) < 0)
        return rc;
    *id_out = sqlite3_last_insert_rowid(s->db);
    return ingest_store_functions(s, *id_out, e);
}

int ingest_store_analysis_insert(ingest_store *s, int64_t *id_out,
                                 db_counts *c, const char *blob_oid,
                                 const char *rules_hash, size_t size,
                                 const an_result *res)
{
    ingest_enc *e = NULL;
    int rc;

    if ((rc = ingest_enc_new(&e, res, size)) < 0)
        return rc;
    *c = e->counts;
    rc = ingest_store_analysis_put(s, id_out, blob_oid, rules_hash, e);
    ingest_enc_free(e);
    return rc;
}

int ingest_store_stats(ingest_store *s, int64_t commit_id,
                       const char *rules_hash, const db_counts *c)
{
    sqlite3_stmt *st = ingest_store_stmt(s, ST_STATS_INS);

    sqlite3_bind_int64(st, 1, commit_id);
    sqlite3_bind_text(st, 2, rules_hash, -1, SQLITE_STATIC);
    db_measure_bind(st, 3, DB_M_TOTALS, c);
    return ingest_store_done(s, st);
}

int ingest_store_ref(ingest_store *s, int64_t repo_id, const char *name,
                     int64_t commit_id)
{
    sqlite3_stmt *st = ingest_store_stmt(s, ST_REF_UPSERT);

    sqlite3_bind_int64(st, 1, repo_id);
    sqlite3_bind_text(st, 2, name, -1, SQLITE_STATIC);
    sqlite3_bind_int64(st, 3, commit_id);
    sqlite3_bind_int64(st, 4, (int64_t)time(NULL));
    return ingest_store_done(s, st);
}

int ingest_store_patch_id(ingest_store *s, int64_t commit_id, const git_oid *patch_id)
{
    sqlite3_stmt *st = ingest_store_stmt(s, ST_PATCH_ID);
    char hex[GIT_OID_HEXSZ + 1];

    git_oid_tostr(hex, sizeof(hex), patch_id);
    sqlite3_bind_int64(st, 1, commit_id);
    sqlite3_bind_text(st, 2, hex, -1, SQLITE_TRANSIENT);
    return ingest_store_done(s, st);
}

/* Run a one-integer query; *out is 0 when there is no row. */
static int ingest_store_int(ingest_store *s, sqlite3_stmt *st, int64_t *out)
{
    int rc = sqlite3_step(st);

    *out = rc == SQLITE_ROW ? sqlite3_column_int64(st, 0) : 0;
    sqlite3_reset(st);
    if (rc != SQLITE_ROW && rc != SQLITE_DONE)
        return pd_error_set(PD_EDB, "database: %s", sqlite3_errmsg(s->db));
    return 0;
}

int ingest_store_ref_get(ingest_store *s, int64_t *commit_out, int64_t repo_id,
                         const char *name)
{
    sqlite3_stmt *st = ingest_store_stmt(s, ST_REF_GET);

    sqlite3_bind_int64(st, 1, repo_id);
    sqlite3_bind_text(st, 2, name, -1, SQLITE_STATIC);
    return ingest_store_int(s, st, commit_out);
}

int ingest_store_on_chain(ingest_store *s, int64_t tip, int64_t ancestor)
{
    sqlite3_stmt *st = ingest_store_stmt(s, ST_ON_CHAIN);
    int64_t found;
    int rc;

    sqlite3_bind_int64(st, 1, tip);
    sqlite3_bind_int64(st, 2, ancestor);
    if ((rc = ingest_store_int(s, st, &found)) < 0)
        return rc;
    return found ? 1 : 0;
}

int ingest_store_rewrite(ingest_store *s, int64_t repo_id, const char *name,
                         int64_t old_id, int64_t new_id)
{
    sqlite3_stmt *st = ingest_store_stmt(s, ST_REWRITE);

    sqlite3_bind_int64(st, 1, repo_id);
    sqlite3_bind_text(st, 2, name, -1, SQLITE_STATIC);
    sqlite3_bind_int64(st, 3, old_id);
    sqlite3_bind_int64(st, 4, new_id);
    sqlite3_bind_int64(st, 5, (int64_t)time(NULL));
    return ingest_store_done(s, st);
}

int ingest_store_commit_oid(ingest_store *s, char *oid_out, int64_t commit_id)
{
    sqlite3_stmt *st = ingest_store_stmt(s, ST_COMMIT_OID);
    int rc;

    sqlite3_bind_int64(st, 1, commit_id);
    rc = sqlite3_step(st);
    if (rc == SQLITE_ROW)
        snprintf(oid_out, GIT_OID_HEXSZ + 1, "%s", (const char *)sqlite3_column_text(st, 0));
    sqlite3_reset(st);
    if (rc != SQLITE_ROW)
        return pd_error_set(PD_EDB, "commit row %lld is missing", (long long)commit_id);
    return 0;
}

int ingest_store_analysed_blobs(ingest_store *s, const char *rules_hash,
                                git_oid **out, size_t *n)
{
    sqlite3_stmt *st = NULL;
    git_oid *v = NULL;
    size_t cap = 0;
    int rc;

    *out = NULL;
    *n = 0;
    if ((rc = db_prepare(s->db, &st, "SELECT blob_oid FROM analyses "
                         "WHERE rules_hash = ?1")) < 0)
        return rc;
    sqlite3_bind_text(st, 1, rules_hash, -1, SQLITE_STATIC);
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        const char *hex = (const char *)sqlite3_column_text(st, 0);

        if (*n == cap) {
            git_oid *p = realloc(v, (cap = cap ? cap * 2 : 1024) * sizeof(*v));

            if (!p) {
                rc = pd_error_set(PD_ENOMEM, "out of memory");
                break;
            }
            v = p;
        }
        if (hex && git_oid_fromstr(&v[*n], hex) == 0)
            (*n)++;
    }
    if (rc == SQLITE_DONE)
        rc = 0;
    else if (rc != PD_ENOMEM)
        rc = pd_error_set(PD_EDB, "database: %s", sqlite3_errmsg(s->db));
    sqlite3_finalize(st);
    if (rc < 0) {
        free(v);
        *n = 0;
        return rc;
    }
    *out = v;
    return 0;
}
