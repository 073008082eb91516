/*
 * db_fns.c: the stored functions of an analysis (see db_fns.h).
 */
#include <stdlib.h>
#include <string.h>

#include "db_fns.h"
#include "db_stmt.h"
#include "db_compress.h"
#include "pd_dec.h"
#include "pd_error.h"
#include "pd_why.h"

#define DB_FNS_FIELDS 15

/* Append text field s (n bytes, NUL-terminated) with its backslashes,
 * tabs and newlines escaped.  Names and whys hold none of them but a
 * JSON escape's backslash: strcspn (vectorised) finds the next one. */
static void db_fns_str(pd_buf *b, const char *s, size_t n)
{
    size_t from = 0, i;

    while ((i = from + strcspn(s + from, "\\\t\n")) < n && s[i]) {
        pd_buf_put(b, s + from, i - from);
        pd_buf_put(b, s[i] == '\\' ? "\\\\" : s[i] == '\t' ? "\\t" : "\\n", 2);
        from = i + 1;
    }
    pd_buf_put(b, s + from, n - from);
}

/* Append the decimal of v and the separator sep. */
static void db_fns_num(pd_buf *b, uint64_t v, char sep)
{
    char d[PD_DEC_MAX + 1];
    size_t n = pd_utoa(d, v);

    d[n] = sep;
    pd_buf_put(b, d, n + 1);
}

/* Append field s (NULL or not) and the tab after it. */
static void db_fns_field(pd_buf *b, const char *s, size_t n)
{
    if (s)
        db_fns_str(b, s, n);
    pd_buf_put(b, "\t", 1);
}

void db_fns_text(pd_buf *b, const db_function_row *fn, size_t n)
{
    size_t i, room = 0;
    int k;

    /* One allocation: the names and whys and about 64 bytes of numbers,
     * states and tabs (growing by doubling copied a third of it again). */
    for (i = 0; i < n; i++)
        room += (fn[i].name_len ? fn[i].name_len : strlen(fn[i].name)) + 80 +
                (fn[i].why ? (fn[i].why_len ? fn[i].why_len : strlen(fn[i].why)) : 0);
    pd_buf_reserve(b, room);
    for (i = 0; i < n; i++) {
        const db_function_row *f = &fn[i];

        db_fns_field(b, f->name, f->name_len ? f->name_len : strlen(f->name));
        db_fns_num(b, f->start_line, '\t');
        db_fns_num(b, f->end_line, '\t');
        db_fns_field(b, f->status, strlen(f->status));
        db_fns_field(b, f->object_state, f->object_state ? strlen(f->object_state) : 0);
        for (k = 0; k < PD_CLASS_COUNT; k++)
            db_fns_num(b, f->tokens[k], '\t');
        db_fns_field(b, f->name_from_macro,
                     f->name_from_macro ? strlen(f->name_from_macro) : 0);
        db_fns_field(b, f->why, f->why ? (f->why_len ? f->why_len : strlen(f->why)) : 0);
        for (k = 0; k < PD_CLASS_COUNT; k++)
            db_fns_num(b, f->ung[k], k + 1 < PD_CLASS_COUNT ? '\t' : '\n');
    }
}

/* Undo the escapes of field s in place; 0, or -1 for a bad escape. */
static int db_fns_unescape(char *s)
{
    char *w = s;

    for (; *s; s++) {
        if (*s != '\\') {
            *w++ = *s;
            continue;
        }
        s++;
        if (*s == '\\')
            *w++ = '\\';
        else if (*s == 't')
            *w++ = '\t';
        else if (*s == 'n')
            *w++ = '\n';
        else
            return -1;
    }
    *w = '\0';
    return 0;
}

/* Field s as a decimal number into *v; 0, or -1 when it is not one. */
static int db_fns_int(const char *s, int64_t *v)
{
    int64_t x = 0;
    int neg = *s == '-';

    s += neg;
    if (!*s)
        return -1;
    for (; *s; s++) {
        if (*s < '0' || *s > '9' || x > (INT64_MAX - 9) / 10)
            return -1;
        x = x * 10 + (*s - '0');
    }
    *v = neg ? -x : x;
    return 0;
}

/* f->why, in the compact form (pd_why.h), as its JSON in `json`, which
 * f->why then points into; 0, or -1 when it is not of the form.  Out of
 * memory is json->err. */
static int db_fns_why_json(db_fn_stored *f, pd_buf *json)
{
    pd_why w;

    if (pd_why_compact_parse((char *)f->why, &w) < 0)
        return -1;
    pd_buf_reset(json);
    if (pd_why_json_plain(json, &w) != 0)
        return -1;
    pd_buf_put(json, "", 1);
    f->why = json->err ? NULL : json->data;
    return 0;
}

/* One line [line, end) (its newline at end made a NUL) into *f, a why in
 * the compact form as its JSON in `json`; 0 or -1.  The tabs and a
 * backslash are found with memchr (vectorised): a file page reads every
 * function of its file this way, cold (issue 26). */
static int db_fns_line(char *line, char *end, db_fn_stored *f, pd_buf *json,
                       unsigned flags)
{
    char *fld[DB_FNS_FIELDS], *p = line, *tab;
    int n = 0, k;

    for (;;) {
        fld[n++] = p;
        if (!(tab = memchr(p, '\t', (size_t)(end - p))))
            break;
        if (n == DB_FNS_FIELDS)
            return -1;
        *tab = '\0';
        p = tab + 1;
    }
    if (n != DB_FNS_FIELDS)
        return -1;
    if (memchr(line, '\\', (size_t)(end - line)))
        for (k = 0; k < DB_FNS_FIELDS; k++)
            if (db_fns_unescape(fld[k]) < 0)
                return -1;
    f->name = fld[0];
    f->status = fld[3];
    f->object_state = *fld[4] ? fld[4] : NULL;
    f->name_from_macro = *fld[9] ? fld[9] : NULL;
    f->why = *fld[10] && !(flags & DB_FNS_NO_WHY) ? fld[10] : NULL;
    if (f->why && *f->why == PD_WHY_US && db_fns_why_json(f, json) < 0)
        return -1;
    if (!*f->name || !*f->status || db_fns_int(fld[1], &f->start_line) < 0 ||
        db_fns_int(fld[2], &f->end_line) < 0)
        return -1;
    for (k = 0; k < PD_CLASS_COUNT; k++)
        if (db_fns_int(fld[5 + k], &f->tok[k]) < 0 ||
            db_fns_int(fld[11 + k], &f->ung[k]) < 0)
            return -1;
    return 0;
}

int db_fns_parse(char *text, size_t len,
                 int (*fn)(void *arg, const db_fn_stored *f), void *arg)
{
    return db_fns_parse_flags(text, len, 0, fn, arg);
}

int db_fns_parse_flags(char *text, size_t len, unsigned flags,
                       int (*fn)(void *arg, const db_fn_stored *f), void *arg)
{
    char *p = text, *end = text + len, *nl;
    db_fn_stored f;
    pd_buf json;
    int rc = 0;

    pd_buf_init(&json, 0);
    for (f.idx = 0; p < end && rc == 0; f.idx++, p = nl + 1) {
        if (!(nl = memchr(p, '\n', (size_t)(end - p))))
            rc = PD_EDB;                /* every line ends with one */
        else if ((*nl = '\0', db_fns_line(p, nl, &f, &json, flags)) < 0)
            rc = PD_EDB;
        else if (json.err)
            rc = pd_error_nomem("reading functions");
        else
            rc = fn(arg, &f);
    }
    pd_buf_free(&json);
    return rc;
}

int db_fns_each(sqlite3 *db, int64_t analysis_id,
                int (*fn)(void *arg, const db_fn_stored *f), void *arg)
{
    sqlite3_stmt *st = NULL;
    char *text = NULL;
    int rc;

    if ((rc = db_prepare(db, &st, "SELECT fns, fns_len FROM analyses WHERE id = ?1")) < 0)
        return rc;
    sqlite3_bind_int64(st, 1, analysis_id);
    if ((rc = db_step(st)) > 0) {
        size_t len = (size_t)sqlite3_column_int64(st, 1);

        if ((rc = db_column_decompress(st, 0, 1, &text)) == 0 && text)
            rc = db_fns_parse(text, len, fn, arg);
    }
    sqlite3_finalize(st);
    free(text);
    if (rc == PD_EDB)
        return pd_error_set(PD_EDB, "the functions of analysis %lld cannot be read: "
                            "the database is damaged", (long long)analysis_id);
    return rc;
}
