/*
 * db_scope.c: named scopes (parsing the scopes file) and the figures of a
 * commit, a file or a first-parent history under a scope (see db_scope.h).
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db_measures.h"
#include "db_scope.h"
#include "pd_error.h"
#include "pd_file.h"
#include "pd_hash.h"
#include "pathfilter.h"

extern const char scopes_default_text[];

/* ---------- the scopes file ---------- */

/* Append a copy of `s` to a string array; 0 or PD_ENOMEM. */
static int db_scope_push(char ***arr, size_t *n, const char *s)
{
    char **grown = realloc(*arr, (*n + 1) * sizeof(char *));

    if (!grown)
        return pd_error_nomem("reading scopes");
    *arr = grown;
    if (!(grown[*n] = strdup(s)))
        return pd_error_nomem("reading scopes");
    (*n)++;
    return 0;
}

/* 1 when `s` is a valid scope name: [A-Za-z0-9._-]+, at most 64 bytes. */
static int db_scope_name_ok(const char *s)
{
    size_t i, n = strlen(s);

    if (n == 0 || n > 64)
        return 0;
    for (i = 0; i < n; i++)
        if (!isalnum((unsigned char)s[i]) && !strchr("._-", s[i]))
            return 0;
    return 1;
}

/* Free the strings of one scope. */
static void db_scope_clear(db_scope *sc)
{
    size_t i;

    free(sc->name);
    free(sc->title);
    for (i = 0; i < sc->ninclude; i++)
        free(sc->include[i]);
    for (i = 0; i < sc->nexclude; i++)
        free(sc->exclude[i]);
    free(sc->include);
    free(sc->exclude);
}

void db_scopes_free(db_scopes *s)
{
    size_t i;

    if (!s)
        return;
    for (i = 0; i < s->n; i++)
        db_scope_clear(&s->v[i]);
    free(s->v);
    free(s);
}

/* Apply one line (trimmed, not blank, not a comment) to the scopes. */
static int db_scopes_line(db_scopes *s, char *line, const char *origin, int lineno)
{
    char *arg = line + strcspn(line, " \t");
    db_scope *sc = s->n ? &s->v[s->n - 1] : NULL, *grown;

    if (*arg)
        *arg++ = '\0';
    arg += strspn(arg, " \t");
    if (strcmp(line, "scope") == 0) {
        if (!db_scope_name_ok(arg))
            return pd_error_set(PD_EINVAL, "%s:%d: bad scope name '%s' (letters, digits, "
                                "'.', '_', '-')", origin, lineno, arg);
        if (db_scopes_find(s, arg))
            return pd_error_set(PD_EINVAL, "%s:%d: scope '%s' defined twice", origin,
                                lineno, arg);
        if (!(grown = realloc(s->v, (s->n + 1) * sizeof(*grown))))
            return pd_error_nomem("reading scopes");
        s->v = grown;
        sc = &s->v[s->n++];
        memset(sc, 0, sizeof(*sc));
        if (!(sc->name = strdup(arg)) || !(sc->title = strdup("")))
            return pd_error_nomem("reading scopes");
        return 0;
    }
    if (!sc)
        return pd_error_set(PD_EINVAL, "%s:%d: '%s' before any 'scope NAME' line",
                            origin, lineno, line);
    if (strcmp(line, "title") == 0) {
        free(sc->title);
        return (sc->title = strdup(arg)) ? 0
               : pd_error_nomem("reading scopes");
    }
    if ((strcmp(line, "include") == 0 || strcmp(line, "exclude") == 0) && !*arg)
        return pd_error_set(PD_EINVAL, "%s:%d: %s needs a glob", origin, lineno, line);
    if (strcmp(line, "include") == 0)
        return db_scope_push(&sc->include, &sc->ninclude, arg);
    if (strcmp(line, "exclude") == 0)
        return db_scope_push(&sc->exclude, &sc->nexclude, arg);
    if (strcmp(line, "exclude-object-paths") == 0 && !*arg) {
        sc->exclude_object_paths = 1;
        return 0;
    }
    return pd_error_set(PD_EINVAL, "%s:%d: unknown directive '%s' (scope, title, "
                        "include, exclude, exclude-object-paths)", origin, lineno, line);
}

int db_scopes_parse(db_scopes **out, const char *text, const char *origin)
{
    db_scopes *s = calloc(1, sizeof(*s));
    char *copy = strdup(text), *line, *next;
    uint64_t h = 1469598103934665603ULL;
    int lineno = 0, rc = 0;

    *out = NULL;
    if (!s || !copy) {
        rc = pd_error_nomem("reading scopes");
        goto done;
    }
    /* FNV-1a 64 from an offset basis of its own (kept: the hash names the
     * scopes file in answer cache keys). */
    h = pd_fnv1a64(h, text, strlen(text));
    snprintf(s->hash, sizeof(s->hash), "%016llx", (unsigned long long)h);
    for (line = copy; line && rc == 0; line = next) {
        size_t n;

        lineno++;
        if ((next = strchr(line, '\n')))
            *next++ = '\0';
        line += strspn(line, " \t");
        n = strlen(line);
        while (n && strchr(" \t\r", line[n - 1]))
            line[--n] = '\0';
        if (n && line[0] != '#')
            rc = db_scopes_line(s, line, origin, lineno);
    }
done:
    free(copy);
    if (rc < 0)
        db_scopes_free(s);
    else
        *out = s;
    return rc;
}

int db_scopes_load(db_scopes **out, const char *path)
{
    char *buf = NULL;
    int rc;

    if (!path)
        return db_scopes_parse(out, scopes_default_text, "built-in scopes");
    if ((rc = pd_file_read(path, 0, NULL, &buf, NULL)) < 0) {
        if (rc == PD_EIO)
            rc = pd_error_set(PD_EIO, "cannot read scopes file %s", path);
        return rc;
    }
    rc = db_scopes_parse(out, buf, path);
    free(buf);
    return rc;
}

const db_scope *db_scopes_find(const db_scopes *s, const char *name)
{
    size_t i;

    for (i = 0; s && i < s->n; i++)
        if (strcmp(s->v[i].name, name) == 0)
            return &s->v[i];
    return NULL;
}

int db_scope_has_path(const db_scope *sc, const char *path)
{
    /* The same globs as an ingest's path filter: one matcher (pathfilter.h). */
    const pathfilter globs = {(const char **)sc->include, sc->ninclude,
                         (const char **)sc->exclude, sc->nexclude};

    return pathfilter_globs_contain(&globs, path);
}

int db_scope_status_index(const char *status)
{
    return pd_status_parse(status);
}

/* ---------- a first-parent history ---------- */

/* Running state of a replay: per path id, whether it is in the scope
 * (0 unknown, 1 in, 2 out) and what it adds to the totals now. */
typedef struct {
    signed char *in;
    db_counts *cur;
    size_t n;
    db_counts totals;
} db_scope_run;

/* Make room for path id `id`; 0 or PD_ENOMEM. */
static int db_scope_run_grow(db_scope_run *run, int64_t id)
{
    size_t n = run->n;
    signed char *in;
    db_counts *cur;

    if ((size_t)id < n)
        return 0;
    while (n <= (size_t)id)
        n = n * 2 + 1024;
    if (!(in = realloc(run->in, n)))
        return pd_error_nomem("replaying history");
    run->in = in;
    if (!(cur = realloc(run->cur, n * sizeof(*cur))))
        return pd_error_nomem("replaying history");
    run->cur = cur;
    memset(run->in + run->n, 0, n - run->n);
    memset(run->cur + run->n, 0, (n - run->n) * sizeof(*cur));
    run->n = n;
    return 0;
}

/* Apply the change on the current row of the replay statement (columns:
 * 6 path_id, 7 path, 8 blob, 9 analysis id, 10 status (NULL: none), 12..
 * the analyses' measure columns). */
static int db_scope_run_change(sqlite3 *db, const db_scope *sc, db_scope_run *run,
                               sqlite3_stmt *st)
{
    int64_t pid = sqlite3_column_int64(st, 6);
    db_counts full, c;
    int rc, status;

    if ((rc = db_scope_run_grow(run, pid)) < 0)
        return rc;
    if (!run->in[pid])
        run->in[pid] = db_scope_has_path(sc, (const char *)sqlite3_column_text(st, 7))
                       ? 1 : 2;
    if (run->in[pid] != 1)
        return 0;
    memset(&c, 0, sizeof(c));
    if (sqlite3_column_type(st, 10) != SQLITE_NULL) {
        db_measure_read(st, 12, DB_M_ANALYSES, &full);
        status = db_scope_status_index((const char *)sqlite3_column_text(st, 10));
        if ((rc = db_scope_file_counts(db, sc, sqlite3_column_int64(st, 9), &full, status,
                                       &c, &status)) < 0)
            return rc;
    }
    db_counts_add(&run->totals, &run->cur[pid], -1);
    db_counts_add(&run->totals, &c, 1);
    run->cur[pid] = c;
    return 0;
}

static const char db_scope_history_head[] =
    "WITH RECURSIVE chain(cid, depth) AS (SELECT ?1, 0 UNION ALL "
    "SELECT c.first_parent_id, chain.depth + 1 FROM commits c "
    "JOIN chain ON c.id = chain.cid WHERE c.first_parent_id < c.id) "
    "SELECT c.oid, c.author_time, c.author_offset, c.committer_time, c.committer_offset, "
    "chain.cid, ch.path_id, p.path, ch.blob_oid, coalesce(a.id, 0), a.status, "
    "EXISTS (SELECT 1 FROM commit_stats s WHERE s.commit_id = chain.cid AND "
    "s.rules_hash = ?2), ";
static const char db_scope_history_tail[] =
    " FROM chain JOIN commits c ON c.id = chain.cid "
    "LEFT JOIN changes ch ON ch.commit_id = chain.cid "
    "LEFT JOIN paths p ON p.id = ch.path_id "
    "LEFT JOIN analyses a ON a.blob_oid = ch.blob_oid AND a.rules_hash = ?2 "
    "ORDER BY chain.depth DESC";

/* The commit columns (0..4) of the current row. */
static void db_scope_commit_of(sqlite3_stmt *st, db_scope_commit *cm)
{
    snprintf(cm->oid, sizeof(cm->oid), "%s", (const char *)sqlite3_column_text(st, 0));
    cm->author_time = sqlite3_column_int64(st, 1);
    cm->author_offset = sqlite3_column_int(st, 2);
    cm->committer_time = sqlite3_column_int64(st, 3);
    cm->committer_offset = sqlite3_column_int(st, 4);
    cm->id = sqlite3_column_int64(st, 5);
}

int db_scope_history(sqlite3 *db, const db_scope *sc, int64_t tip,
                     const char *rules_hash, db_scope_commit_fn fn, void *arg)
{
    sqlite3_stmt *st = NULL;
    db_scope_run run;
    db_scope_commit cm;
    int64_t cur = 0;
    char cols[1024], sql[2048];
    int rc, has_stats = 0, in_tx;

    memset(&run, 0, sizeof(run));
    if ((rc = db_measure_list(cols, sizeof(cols), DB_M_ANALYSES, "a.")) < 0)
        return rc;
    snprintf(sql, sizeof(sql), "%s%s%s", db_scope_history_head, cols, db_scope_history_tail);
    if ((rc = db_prepare(db, &st, sql)) < 0)
        return rc;
    sqlite3_bind_int64(st, 1, tip);
    sqlite3_bind_text(st, 2, rules_hash, -1, SQLITE_STATIC);
    in_tx = sqlite3_exec(db, "BEGIN", NULL, NULL, NULL) == SQLITE_OK;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        int64_t cid = sqlite3_column_int64(st, 5);

        if (cid != cur) {
            /* The rows of one commit are adjacent: the previous one is done. */
            if (cur && has_stats && (rc = fn(arg, &cm, &run.totals)) != 0)
                goto done;
            cur = cid;
            db_scope_commit_of(st, &cm);
            has_stats = sqlite3_column_int(st, 11);
        }
        if (sqlite3_column_type(st, 6) != SQLITE_NULL &&
            (rc = db_scope_run_change(db, sc, &run, st)) < 0)
            goto done;
    }
    if (rc != SQLITE_DONE) {
        rc = pd_error_set(PD_EDB, "database: %s", sqlite3_errmsg(db));
        goto done;
    }
    rc = cur && has_stats ? fn(arg, &cm, &run.totals) : 0;
done:
    sqlite3_finalize(st);
    if (in_tx)
        sqlite3_exec(db, "COMMIT", NULL, NULL, NULL);
    free(run.in);
    free(run.cur);
    return rc;
}
