/*
 * db_findings_json.c: the reader of stored findings in the JSON of
 * databases written before format F1 (db_findings.h, db_findings_int.h):
 * one array of rows [line, column, "class", "rule", "text", function,
 * guarded(, "reason")], "reason" left out when there is none.  Nothing
 * writes it any more; databases in the field hold it, and it is read as it
 * always was.  Most rows are read by hand (dbj_row); jansson reads the
 * others one row at a time (JSON_DISABLE_EOF_CHECK stops after each
 * value), so memory stays one row however long the list.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "db_findings_int.h"
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

/* ---- the common row, read without jansson ---- */

/* Skip JSON whitespace. */
static const char *dbj_ws(const char *p)
{
    while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n')
        p++;
    return p;
}

/* An integer as jansson reads one (no leading zero, at most 18 digits:
 * anything else is left to jansson); the end, or NULL. */
static const char *dbj_int(const char *p, int64_t *v)
{
    int neg = *p == '-';
    int64_t x = 0;
    size_t n = 0;

    p += neg;
    if (*p == '0' && p[1] >= '0' && p[1] <= '9')
        return NULL;
    while (*p >= '0' && *p <= '9' && n < 18) {
        x = x * 10 + (*p++ - '0');
        n++;
    }
    if (!n || (*p >= '0' && *p <= '9') || *p == '.' || *p == 'e' || *p == 'E')
        return NULL;
    *v = neg ? -x : x;
    return p;
}

/* A string of printable ASCII with the escapes \" \\ \/ \b \f \n \r \t,
 * decoded into *o (room enough: the row's length); the end, or NULL for
 * anything else (left to jansson, which also judges \u escapes, bytes
 * past ASCII and damage). */
static const char *dbj_str(const char *p, char **o)
{
    static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
    const char *k;

    if (*p++ != '"')
        return NULL;
    for (;;) {
        unsigned char c = (unsigned char)*p++;

        if (c == '"')
            break;
        if (c < 0x20 || c >= 0x80)
            return NULL;
        if (c == '\\') {
            if (!*p || !(k = strchr(from, *p)))
                return NULL;
            c = (unsigned char)to[k - from];
            p++;
        }
        *(*o)++ = (char)c;
    }
    *(*o)++ = '\0';
    return p;
}

/* Row `p` as db_findings_encode writes it, strings decoded into `buf` (at
 * least as long as the rest of the text); the end of the row, or NULL when
 * it is not read here (jansson then reads it, and judges it). */
static const char *dbj_row(const char *p, char *buf, db_finding *f)
{
    char *o = buf;
    const char *s[4];
    int64_t v[3];
    int i;

    if (*p++ != '[')
        return NULL;
    for (i = 0; i < 2; i++)
        if (!(p = dbj_int(dbj_ws(p), &v[i])) || *(p = dbj_ws(p)) != ',')
            return NULL;
        else
            p++;
    for (i = 0; i < 3; i++) {
        s[i] = o;
        if (!(p = dbj_str(dbj_ws(p + (i ? 1 : 0)), &o)) || *(p = dbj_ws(p)) != ',')
            return NULL;
    }
    if (!(p = dbj_int(dbj_ws(p + 1), &v[2])) || *(p = dbj_ws(p)) != ',')
        return NULL;
    p = dbj_ws(p + 1);
    if (strncmp(p, "true", 4) == 0 || strncmp(p, "false", 5) == 0) {
        f->guarded = *p == 't';
        p = dbj_ws(p + (*p == 't' ? 4 : 5));
    } else {
        return NULL;
    }
    s[3] = NULL;
    if (*p == ',') {
        s[3] = o;
        if (!(p = dbj_str(dbj_ws(p + 1), &o)))
            return NULL;
        p = dbj_ws(p);
    }
    if (*p != ']')
        return NULL;
    f->line = v[0];
    f->column = v[1];
    f->cls = s[0];
    f->rule = s[1];
    f->text = s[2];
    f->function = v[2];
    f->reason = s[3];
    return p + 1;
}

/* The rows of `p` (up to `end`) through fn; `buf` holds a row's strings.
 * Most rows are read by dbj_row, the others by jansson (issue 26.3: jansson
 * read them all, a seventh of a cold file page). */
static int db_findings_rows(const char *p, const char *end, char *buf, int64_t analysis_id,
                            int (*fn)(void *arg, const db_finding *f), void *arg)
{
    json_error_t err;
    db_finding f;
    json_t *row;
    const char *q;
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
        p += strspn(p, " \t\r\n");
        if ((q = dbj_row(p, buf, &f))) {
            p = q;
            if ((rc = fn(arg, &f)) != 0)
                return rc;
            continue;
        }
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

int db_findings_json_walk(const char *p, int64_t analysis_id,
                          int (*fn)(void *arg, const db_finding *f), void *arg)
{
    const char *end = p + strlen(p);
    char *buf = malloc((size_t)(end - p) + 1);
    int rc;

    if (!buf)
        return pd_error_nomem(NULL);
    rc = db_findings_rows(p, end, buf, analysis_id, fn, arg);
    free(buf);
    return rc;
}
