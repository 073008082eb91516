/*
 * sarif_query.c: the stored SARIF runs as the API shows them (sarif_import.h):
 * the list of runs of a commit, the findings of one file, and per-tool
 * counts for the commit summary, built from the rows db_sarif.h reads.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db.h"
#include "db_sarif.h"
#include "pd_error.h"
#include "pd_time.h"
#include "pd_utf8.h"
#include "sarif_import.h"

/* A JSON string or null.  Rows stored before uploads were checked for
 * UTF-8 may hold other bytes: shown with U+FFFD as the import now stores
 * them (pd_utf8.h), never dropped (issue 27: such a finding was counted in
 * the summary and missing from its file page). */
static json_t *sq_text(const char *s)
{
    json_t *j;
    char *fixed;

    if (!s)
        return json_null();
    if ((j = json_string(s)) || !(fixed = pd_utf8_repair(s, strlen(s), NULL)))
        return j;
    j = json_string(fixed);
    free(fixed);
    return j;
}

/* The text of a finding in a list: at most SARIF_SHOWN_TEXT bytes, cut at a
 * character boundary, so one page of a file is bounded however long the
 * stored messages (issue 27: one file page answered 248 MB). */
static json_t *sq_shown(const char *s, int *cut)
{
    size_t n = s ? strlen(s) : 0;
    char *part;
    json_t *j;

    *cut = n > SARIF_SHOWN_TEXT;
    if (!*cut)
        return sq_text(s);
    n = SARIF_SHOWN_TEXT;
    while (n && ((unsigned char)s[n] & 0xC0) == 0x80)
        n--;
    if (!(part = strndup(s, n)))
        return NULL;
    j = sq_text(part);
    free(part);
    return j;
}

/* A JSON integer, null for 0 (absent). */
static json_t *sq_pos(int64_t v)
{
    return v ? json_integer(v) : json_null();
}

/* One run into array `arg`. */
static int sq_run(void *arg, const db_sarif_run_row *r)
{
    char when[40];

    pd_iso8601(when, sizeof(when), r->uploaded_at, 0);
    json_array_append_new(arg, json_pack("{s:o, s:o, s:o, s:I, s:I, s:I, s:s}",
        "tool", sq_text(r->tool), "category", sq_text(r->category),
        "version", sq_text(r->version), "results", (json_int_t)r->results,
        "findings", (json_int_t)r->findings, "unmapped", (json_int_t)r->unmapped,
        "uploaded_at", when));
    return 0;
}

int sarif_runs_json(json_t **out, sqlite3 *db, int64_t commit_id)
{
    json_t *arr = json_array();
    int rc;

    *out = NULL;
    if (!arr)
        return pd_error_nomem(NULL);
    if ((rc = db_sarif_runs(db, commit_id, sq_run, arr)) < 0) {
        json_decref(arr);
        return rc;
    }
    *out = arr;
    return 0;
}

/* One finding into array `arg`; PD_ENOMEM when it cannot be made (a
 * list shorter than its count is an error, not an answer). */
static int sq_finding(void *arg, const db_sarif_finding_row *f)
{
    int cut = 0;
    json_t *o = json_pack(
        "{s:o, s:o, s:s, s:o, s:o, s:o, s:b, s:o, s:o, s:o, s:o}",
        "line", sq_pos(f->line), "column", sq_pos(f->column), "class", "sarif",
        "rule", sq_text(f->rule_id), "text", sq_shown(f->message, &cut),
        "function", sq_text(f->function), "guarded", 0, "tool", sq_text(f->tool),
        "level", sq_text(f->level), "category", sq_text(f->category),
        "fingerprint", sq_text(f->fingerprint));

    if (o && cut)
        json_object_set_new(o, "text_truncated", json_true());
    if (!o || json_array_append_new(arg, o))
        return pd_error_nomem("listing SARIF findings");
    return 0;
}

int sarif_file_findings(sqlite3 *db, int64_t commit_id, const char *path,
                        size_t offset, size_t limit, json_t *findings, size_t *total)
{
    int64_t n = 0;
    int rc;

    if (total && (rc = db_sarif_file_count(db, commit_id, path, &n)) < 0)
        return rc;
    if (total)
        *total = (size_t)n;
    if (!limit)
        return 0;
    return db_sarif_file_findings(db, commit_id, path, SARIF_FINGERPRINT_KEY, offset,
                                  limit, sq_finding, findings);
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

/* One count into object `arg`. */
static int sq_level(void *arg, const db_sarif_level_row *r)
{
    json_t *t = sq_tool(arg, r->tool);

    json_object_set_new(t, "results", json_integer(
        json_integer_value(json_object_get(t, "results")) + r->count));
    if (r->level)
        json_object_set_new(t, r->level, json_integer(r->count));
    return 0;
}

int sarif_tools_json(sqlite3 *db, int64_t commit_id, json_t *tools)
{
    const char *key;
    json_t *t;
    int rc = db_sarif_tool_levels(db, commit_id, sq_level, tools);

    json_object_foreach(tools, key, t)
        json_object_del(t, "_sarif");
    return rc;
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
