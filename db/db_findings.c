/*
 * db_findings.c: the writer and the typed reader of an analysis's stored
 * findings (see db_findings.h).  The writer prints the JSON itself; jansson
 * reads one row at a time (JSON_DISABLE_EOF_CHECK stops after each value),
 * so memory stays one row however long the list.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "db.h"
#include "db_analysis.h"
#include "db_findings.h"
#include "pd_buf.h"
#include "pd_error.h"

/* Fill *f from a stored row; 0, or -1 when the row is not of the shape
 * db_findings_encode writes. */
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

/* Append a JSON string.  Texts are identifiers and rule ids, but a rules
 * file or a source file may hold anything: non-ASCII bytes become U+FFFD so
 * the document is always valid UTF-8. */
static void db_findings_string(pd_buf *b, const char *s)
{
    char esc[8];

    pd_buf_put(b, "\"", 1);
    while (*s) {
        size_t run = 0;
        unsigned char c;

        /* Copy the plain run in one go; escape what ends it. */
        while ((c = (unsigned char)s[run]) >= 0x20 && c < 0x80 && c != '"' && c != '\\')
            run++;
        pd_buf_put(b, s, run);
        s += run;
        if (!(c = (unsigned char)*s))
            break;
        if (c == '"' || c == '\\') {
            esc[0] = '\\';
            esc[1] = (char)c;
            pd_buf_put(b, esc, 2);
        } else if (c < 0x20) {
            snprintf(esc, sizeof(esc), "\\u%04x", c);
            pd_buf_put(b, esc, 6);
        } else {
            pd_buf_put(b, "\xef\xbf\xbd", 3);
        }
        s++;
    }
    pd_buf_put(b, "\"", 1);
}

/* Write v in decimal at p, with a '-' when negative; returns its length.
 * (snprintf was a tenth of the analysis threads' time on numpy-hpy.) */
static size_t db_findings_itoa(char *p, int64_t v)
{
    uint64_t u = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
    char tmp[20];
    size_t n = 0, i, o = 0;

    do
        tmp[n++] = (char)('0' + u % 10);
    while ((u /= 10) != 0);
    if (v < 0)
        p[o++] = '-';
    for (i = 0; i < n; i++)
        p[o + i] = tmp[n - 1 - i];
    return o + n;
}

/* Append one row, with its leading comma unless first.  Numbers go through
 * a local buffer: a numpy history has over a million findings, and
 * building a json_t per value dominated the ingest profile. */
static void db_findings_row(pd_buf *b, const db_finding *f, int first)
{
    char num[96];
    size_t n = 0;

    if (!first)
        num[n++] = ',';
    num[n++] = '[';
    n += db_findings_itoa(num + n, f->line);
    num[n++] = ',';
    n += db_findings_itoa(num + n, f->column);
    num[n++] = ',';
    pd_buf_put(b, num, n);
    db_findings_string(b, f->cls ? f->cls : "");
    pd_buf_put(b, ",", 1);
    db_findings_string(b, f->rule ? f->rule : "");
    pd_buf_put(b, ",", 1);
    db_findings_string(b, f->text ? f->text : "");
    n = 0;
    num[n++] = ',';
    n += db_findings_itoa(num + n, f->function);
    memcpy(num + n, f->guarded ? ",true" : ",false", f->guarded ? 5 : 6);
    n += f->guarded ? 5 : 6;
    pd_buf_put(b, num, n);
    if (f->reason) {
        pd_buf_put(b, ",", 1);
        db_findings_string(b, f->reason);
    }
    pd_buf_put(b, "]", 1);
}

int db_findings_encode(const db_finding *rows, size_t n, unsigned char **out,
                       size_t *zlen, size_t *len)
{
    pd_buf b;
    size_t i;
    int rc;

    *out = NULL;
    *zlen = *len = 0;
    pd_buf_init(&b, 0);
    pd_buf_put(&b, "[", 1);
    for (i = 0; i < n; i++)
        db_findings_row(&b, &rows[i], i == 0);
    pd_buf_put(&b, "]", 1);
    if (b.err) {
        pd_buf_free(&b);
        return pd_error_set(PD_ENOMEM, "out of memory encoding %zu findings", n);
    }
    if ((rc = db_deflate(out, zlen, b.data, b.len)) == 0)
        *len = b.len;
    pd_buf_free(&b);
    return rc;
}
