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

/* ---- the common row, read without jansson ---- */

/* Skip JSON whitespace. */
static const char *dbf_ws(const char *p)
{
    while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n')
        p++;
    return p;
}

/* An integer as jansson reads one (no leading zero, at most 18 digits:
 * anything else is left to jansson); the end, or NULL. */
static const char *dbf_int(const char *p, int64_t *v)
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
static const char *dbf_str(const char *p, char **o)
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
static const char *dbf_row(const char *p, char *buf, db_finding *f)
{
    char *o = buf;
    const char *s[4];
    int64_t v[3];
    int i;

    if (*p++ != '[')
        return NULL;
    for (i = 0; i < 2; i++)
        if (!(p = dbf_int(dbf_ws(p), &v[i])) || *(p = dbf_ws(p)) != ',')
            return NULL;
        else
            p++;
    for (i = 0; i < 3; i++) {
        s[i] = o;
        if (!(p = dbf_str(dbf_ws(p + (i ? 1 : 0)), &o)) || *(p = dbf_ws(p)) != ',')
            return NULL;
    }
    if (!(p = dbf_int(dbf_ws(p + 1), &v[2])) || *(p = dbf_ws(p)) != ',')
        return NULL;
    p = dbf_ws(p + 1);
    if (strncmp(p, "true", 4) == 0 || strncmp(p, "false", 5) == 0) {
        f->guarded = *p == 't';
        p = dbf_ws(p + (*p == 't' ? 4 : 5));
    } else {
        return NULL;
    }
    s[3] = NULL;
    if (*p == ',') {
        s[3] = o;
        if (!(p = dbf_str(dbf_ws(p + 1), &o)))
            return NULL;
        p = dbf_ws(p);
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
 * Most rows are read by dbf_row, the others by jansson (issue 26.3: jansson
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
        if ((q = dbf_row(p, buf, &f))) {
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

/* Walk the rows of the findings text `p` through fn. */
static int db_findings_walk(const char *p, int64_t analysis_id,
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

/* Write JSON string `s` (n bytes) at o, which has room for 6 * n + 2
 * bytes; returns the end.  Texts are identifiers and rule ids, but a rules
 * file or a source file may hold anything: non-ASCII bytes become U+FFFD so
 * the document is always valid UTF-8. */
static char *db_findings_string(char *o, const char *s, size_t n)
{
    const char *end = s + n;

    *o++ = '"';
    while (s < end) {
        unsigned char c;
        size_t run = 0;

        /* Copy the plain run in one go; escape what ends it. */
        while (s + run < end && (c = (unsigned char)s[run]) >= 0x20 && c < 0x80 &&
               c != '"' && c != '\\')
            run++;
        memcpy(o, s, run);
        o += run;
        s += run;
        if (s == end)
            break;
        c = (unsigned char)*s++;
        if (c == '"' || c == '\\') {
            *o++ = '\\';
            *o++ = (char)c;
        } else if (c < 0x20) {
            static const char hex[] = "0123456789abcdef";

            memcpy(o, "\\u00", 4);
            o[4] = hex[c >> 4];
            o[5] = hex[c & 15];
            o += 6;
        } else {
            memcpy(o, "\xef\xbf\xbd", 3);
            o += 3;
        }
    }
    *o++ = '"';
    return o;
}

/* Write v in decimal at p, with a '-' when negative; returns the end.
 * (snprintf was a tenth of the analysis threads' time on numpy-hpy.) */
static char *db_findings_itoa(char *p, int64_t v)
{
    uint64_t u = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
    char tmp[20];
    size_t n = 0, i;

    do
        tmp[n++] = (char)('0' + u % 10);
    while ((u /= 10) != 0);
    if (v < 0)
        *p++ = '-';
    for (i = 0; i < n; i++)
        p[i] = tmp[n - 1 - i];
    return p + n;
}

/* Append one row, with its leading comma unless first: room for the
 * longest form is reserved once and the row written straight into the
 * buffer (a numpy history has over six million findings; a pd_buf_put per
 * piece was a third of their encoding, deflate aside).  0 or b->err. */
static int db_findings_row(pd_buf *b, const db_finding *f, int first)
{
    const char *str[4] = {f->cls ? f->cls : "", f->rule ? f->rule : "",
                          f->text ? f->text : "", f->reason};
    size_t len[4], room = 3 * 21 + 24;
    char *o;
    int i;

    for (i = 0; i < 4; i++) {
        len[i] = str[i] ? strlen(str[i]) : 0;
        room += 6 * len[i] + 3;
    }
    if (pd_buf_reserve(b, room) < 0)
        return b->err;
    o = b->data + b->len;
    if (!first)
        *o++ = ',';
    *o++ = '[';
    o = db_findings_itoa(o, f->line);
    *o++ = ',';
    o = db_findings_itoa(o, f->column);
    for (i = 0; i < 3; i++) {
        *o++ = ',';
        o = db_findings_string(o, str[i], len[i]);
    }
    *o++ = ',';
    o = db_findings_itoa(o, f->function);
    memcpy(o, f->guarded ? ",true" : ",false", f->guarded ? 5 : 6);
    o += f->guarded ? 5 : 6;
    if (f->reason) {
        *o++ = ',';
        o = db_findings_string(o, str[3], len[3]);
    }
    *o++ = ']';
    b->len = (size_t)(o - b->data);
    b->data[b->len] = '\0';
    return 0;
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
    pd_buf_reserve(&b, 64 * n + 2);        /* a typical row: one growth less */
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
