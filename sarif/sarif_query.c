/*
 * sarif_query.c: the stored SARIF runs as the API shows them (sarif_import.h):
 * the list of runs of a commit, the findings of one file, and per-tool
 * counts for the commit summary.
 */
#include <stdio.h>
#include <string.h>

#include "db.h"
#include "pd_error.h"
#include "pd_time.h"
#include "sarif_import.h"
#include "sarif_log.h"

/* A JSON string or null from a text column. */
static json_t *sq_text(sqlite3_stmt *st, int col)
{
    const char *s = (const char *)sqlite3_column_text(st, col);

    return s ? json_string(s) : json_null();
}

/* A JSON integer or null from an integer column. */
static json_t *sq_int(sqlite3_stmt *st, int col)
{
    if (sqlite3_column_type(st, col) == SQLITE_NULL)
        return json_null();
    return json_integer(sqlite3_column_int64(st, col));
}

int sarif_runs_json(json_t **out, sqlite3 *db, int64_t commit_id)
{
    sqlite3_stmt *st = NULL;
    json_t *arr;
    char when[40];
    int rc;

    *out = NULL;
    if ((rc = db_prepare(db, &st, "SELECT tool, category, tool_version, results, "
                         "findings, unmapped, uploaded_at FROM sarif_runs WHERE "
                         "commit_id = ?1 ORDER BY tool, category, id")) < 0)
        return rc;
    sqlite3_bind_int64(st, 1, commit_id);
    arr = json_array();
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        pd_iso8601(when, sizeof(when), sqlite3_column_int64(st, 6), 0);
        json_array_append_new(arr, json_pack("{s:o, s:o, s:o, s:I, s:I, s:I, s:s}",
            "tool", sq_text(st, 0), "category", sq_text(st, 1), "version", sq_text(st, 2),
            "results", (json_int_t)sqlite3_column_int64(st, 3),
            "findings", (json_int_t)sqlite3_column_int64(st, 4),
            "unmapped", (json_int_t)sqlite3_column_int64(st, 5), "uploaded_at", when));
    }
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE) {
        json_decref(arr);
        return pd_error_set(PD_EDB, "reading SARIF runs: %s", sqlite3_errmsg(db));
    }
    *out = arr;
    return 0;
}

int sarif_file_findings(sqlite3 *db, int64_t commit_id, const char *path,
                        json_t *findings)
{
    sqlite3_stmt *st = NULL;
    int rc;

    if ((rc = db_prepare(db, &st, "SELECT r.line, r.col, r.rule_id, r.message, "
                         "r.function, s.tool, r.level, s.category, "
                         "json_extract(r.fingerprints, '$.\"" SARIF_FINGERPRINT_KEY "\"') "
                         "FROM sarif_results r "
                         "JOIN sarif_runs s ON s.id = r.run_id WHERE r.path = ?2 AND "
                         "s.commit_id = ?1 AND " SARIF_FINDING_SQL " "
                         "ORDER BY r.line, r.col, s.tool, r.idx")) < 0)
        return rc;
    sqlite3_bind_int64(st, 1, commit_id);
    sqlite3_bind_text(st, 2, path, -1, SQLITE_STATIC);
    while ((rc = sqlite3_step(st)) == SQLITE_ROW)
        json_array_append_new(findings, json_pack(
            "{s:o, s:o, s:s, s:o, s:o, s:o, s:b, s:o, s:o, s:o, s:o}",
            "line", sq_int(st, 0), "column", sq_int(st, 1), "class", "sarif",
            "rule", sq_text(st, 2), "text", sq_text(st, 3), "function", sq_text(st, 4),
            "guarded", 0, "tool", sq_text(st, 5), "level", sq_text(st, 6),
            "category", sq_text(st, 7), "fingerprint", sq_text(st, 8)));
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE)
        return pd_error_set(PD_EDB, "reading SARIF results: %s", sqlite3_errmsg(db));
    return 0;
}

/* The member of `tools` counting uploaded `tool`, made on first use; a
 * member there before (the built-in analyzer's) is not ours to add to. */
static json_t *sq_tool(json_t *tools, const char *tool)
{
    char key[512];
    json_t *t = json_object_get(tools, tool);

    if (t && !json_object_get(t, "_sarif"))
        snprintf(key, sizeof(key), "%s (sarif)", tool);
    else
        snprintf(key, sizeof(key), "%s", tool);
    if (!(t = json_object_get(tools, key))) {
        t = json_pack("{s:i, s:i, s:i, s:i, s:i, s:b}", "results", 0, "error", 0,
                      "warning", 0, "note", 0, "none", 0, "_sarif", 1);
        json_object_set_new(tools, key, t);
    }
    return t;
}

int sarif_tools_json(sqlite3 *db, int64_t commit_id, json_t *tools)
{
    sqlite3_stmt *st = NULL;
    const char *key;
    json_t *t;
    int rc;

    if ((rc = db_prepare(db, &st, "SELECT s.tool, r.level, count(*) FROM sarif_results r "
                         "JOIN sarif_runs s ON s.id = r.run_id WHERE s.commit_id = ?1 "
                         "AND " SARIF_FINDING_SQL " GROUP BY s.tool, r.level UNION ALL "
                         "SELECT tool, NULL, 0 FROM sarif_runs WHERE commit_id = ?1 "
                         "ORDER BY 1")) < 0)
        return rc;
    sqlite3_bind_int64(st, 1, commit_id);
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        const char *level = (const char *)sqlite3_column_text(st, 1);
        json_int_t n = sqlite3_column_int64(st, 2);

        t = sq_tool(tools, (const char *)sqlite3_column_text(st, 0));
        json_object_set_new(t, "results",
                            json_integer(json_integer_value(json_object_get(t, "results")) + n));
        if (level)
            json_object_set_new(t, level, json_integer(n));
    }
    sqlite3_finalize(st);
    json_object_foreach(tools, key, t)
        json_object_del(t, "_sarif");
    if (rc != SQLITE_DONE)
        return pd_error_set(PD_EDB, "counting SARIF results: %s", sqlite3_errmsg(db));
    return 0;
}

const char *sarif_builtin_level(const char *cls)
{
    if (!cls || strcmp(cls, "hpy") == 0)
        return "none";
    return strcmp(cls, "npy-legacy") == 0 ? "note" : "warning";
}

/* 1 if `word` is one of the comma-separated `list`. */
static int sq_in_list(const char *list, const char *word)
{
    size_t n = strlen(word);

    for (const char *p = list; p; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL)
        if (strncmp(p, word, n) == 0 && (p[n] == ',' || p[n] == '\0'))
            return 1;
    return 0;
}

int sarif_findings_filter(json_t *findings, const char *tools, const char *levels)
{
    static const char *const known[] = {"none", "note", "warning", "error"};
    size_t i, k;

    for (const char *p = levels; p; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL) {
        size_t n = strcspn(p, ",");

        for (k = 0; k < 4 && !(strlen(known[k]) == n && strncmp(p, known[k], n) == 0); k++)
            ;
        if (k == 4)
            return pd_error_set(PD_EINVAL, "level: \"%.*s\" is not one of none, note, "
                                "warning, error", (int)(n > 40 ? 40 : n), p);
    }
    for (i = json_array_size(findings); i-- > 0;) {
        json_t *f = json_array_get(findings, i);
        const char *tool = json_string_value(json_object_get(f, "tool"));
        const char *level = json_string_value(json_object_get(f, "level"));

        if ((tools && !sq_in_list(tools, tool ? tool : "")) ||
            (levels && !sq_in_list(levels, level ? level : "")))
            json_array_remove(findings, i);
    }
    return 0;
}
