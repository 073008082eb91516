/*
 * db_findings.c: the typed reader of an analysis's stored findings (see
 * db_findings.h).  jansson reads one row at a time (JSON_DISABLE_EOF_CHECK
 * stops after each value), so memory stays one row however long the list.
 */
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "db.h"
#include "db_analysis.h"
#include "db_findings.h"
#include "pd_error.h"

/* Fill *f from a stored row; 0, or -1 when the row is not of the shape
 * ingest_store.c writes. */
static int db_finding_of(json_t *row, db_finding *f)
{
    size_t n = json_array_size(row);
    json_t *reason = json_array_get(row, 7);

    if (!json_is_array(row) || n < 7 || n > 8 ||
        !json_is_integer(json_array_get(row, 0)) || !json_is_integer(json_array_get(row, 1)) ||
        !json_is_string(json_array_get(row, 2)) || !json_is_string(json_array_get(row, 3)) ||
        !json_is_string(json_array_get(row, 4)) || !json_is_integer(json_array_get(row, 5)) ||
        !json_is_boolean(json_array_get(row, 6)) || (reason && !json_is_string(reason)))
        return -1;
    f->line = json_integer_value(json_array_get(row, 0));
    f->column = json_integer_value(json_array_get(row, 1));
    f->cls = json_string_value(json_array_get(row, 2));
    f->rule = json_string_value(json_array_get(row, 3));
    f->text = json_string_value(json_array_get(row, 4));
    f->function = json_integer_value(json_array_get(row, 5));
    f->guarded = json_is_true(json_array_get(row, 6));
    f->reason = reason ? json_string_value(reason) : NULL;
    return 0;
}

/* The damage message, naming the analysis and the row. */
static int db_findings_damaged(int64_t analysis_id, size_t i)
{
    return pd_error_set(PD_EDB, "the database is damaged: the findings of analysis %lld "
                        "are not rows of [line, column, class, rule, text, function, "
                        "guarded(, reason)] (at row %zu)", (long long)analysis_id, i);
}

/* Walk the rows of the findings text `p` through fn. */
static int db_findings_walk(const char *p, int64_t analysis_id,
                            int (*fn)(void *arg, const db_finding *f), void *arg)
{
    const char *end = p + strlen(p);
    json_error_t err;
    db_finding f;
    json_t *row;
    size_t i;
    int rc;

    p += strspn(p, " \t\r\n");
    if (*p++ != '[')
        return db_findings_damaged(analysis_id, 0);
    for (i = 0;; i++) {
        p += strspn(p, " \t\r\n");
        if (*p == ']')
            break;
        if (i && *p++ != ',')
            return db_findings_damaged(analysis_id, i);
        if (!(row = json_loadb(p, (size_t)(end - p), JSON_DISABLE_EOF_CHECK, &err)))
            return db_findings_damaged(analysis_id, i);
        p += err.position;
        if (db_finding_of(row, &f) < 0) {
            json_decref(row);
            return db_findings_damaged(analysis_id, i);
        }
        rc = fn(arg, &f);
        json_decref(row);
        if (rc != 0)
            return rc;
    }
    p += 1 + strspn(p + 1, " \t\r\n");
    return *p ? db_findings_damaged(analysis_id, i) : 0;
}

int db_findings_each(sqlite3 *db, int64_t analysis_id,
                     int (*fn)(void *arg, const db_finding *f), void *arg)
{
    char *text = NULL;
    int rc;

    if ((rc = db_analysis_findings_text(db, analysis_id, &text)) == 0)
        rc = db_findings_walk(text, analysis_id, fn, arg);
    free(text);
    return rc;
}
