/*
 * q_file_typed.c: the file page's typed built-in findings (see
 * q_file_typed.h).
 */
#include <stdlib.h>
#include <string.h>

#include "db_triage.h"
#include "pd_error.h"
#include "pd_utf8.h"
#include "q_dismissed.h"
#include "q_file_typed.h"
#include "q_fingerprint.h"
#include "sarif_import.h"

/* The strings of the typed findings: chunks that never move, so the
 * findings point into them. */
struct q_file_store {
    q_file_store *next;
    size_t used, cap;
    char data[];
};

#define Q_STORE_CHUNK 65536

/* A copy of s in out's store; NULL for NULL, or on ENOMEM (*bad set). */
static const char *q_store_dup(q_file *out, const char *s, int *bad)
{
    size_t n;
    q_file_store *c = out->store;

    if (!s)
        return NULL;
    n = strlen(s) + 1;
    if (!c || c->cap - c->used < n) {
        size_t cap = n > Q_STORE_CHUNK ? n : Q_STORE_CHUNK;

        if (!(c = malloc(sizeof(*c) + cap))) {
            *bad = 1;
            return NULL;
        }
        c->next = out->store;
        c->used = 0;
        c->cap = cap;
        out->store = c;
    }
    memcpy(c->data + c->used, s, n);
    c->used += n;
    return c->data + c->used - n;
}

/* 1 when s is NULL or UTF-8 as jansson reads it (RFC 3629, as pd_utf8). */
static int q_utf8(const char *s)
{
    return !s || pd_utf8_valid(s, strlen(s));
}

int q_file_typed_add(q_file *out, const db_finding *f, const char *function)
{
    q_finding *o;
    int bad = 0;

    /* json_pack refuses a string that is not UTF-8 and the untyped page
     * loses the finding: the same here, so both pages are the same. */
    if (!f->cls || !f->rule || !f->text || !q_utf8(f->cls) || !q_utf8(f->rule) ||
        !q_utf8(f->text) || !q_utf8(function) || !q_utf8(f->reason))
        return 0;
    if (out->nbuiltin == out->capbuiltin) {
        size_t cap = out->capbuiltin ? out->capbuiltin * 2 : 256;
        q_finding *p = realloc(out->builtin, cap * sizeof(*p));

        if (!p)
            return pd_error_nomem(NULL);
        out->builtin = p;
        out->capbuiltin = cap;
    }
    o = &out->builtin[out->nbuiltin];
    memset(o, 0, sizeof(*o));
    o->line = f->line;
    o->column = f->column;
    o->guarded = f->guarded;
    o->cls = q_store_dup(out, f->cls, &bad);
    o->rule = q_store_dup(out, f->rule, &bad);
    o->text = q_store_dup(out, f->text, &bad);
    o->function = q_store_dup(out, function, &bad);
    o->reason = q_store_dup(out, f->reason, &bad);
    if (bad)
        return pd_error_nomem(NULL);
    out->nbuiltin++;
    return 0;
}

int q_file_typed_marks(sqlite3 *db, int64_t repo_id, q_file *out)
{
    size_t nb = out->nbuiltin, n = nb + json_array_size(out->findings), i;
    const char **fp = calloc(n + 1, sizeof(*fp));
    json_t **d = calloc(n + 1, sizeof(*d));
    q_fp_seen *seen = q_fp_seen_new();
    int rc = 0;

    if (!fp || !d || !seen) {
        rc = pd_error_nomem(NULL);
        goto done;
    }
    /* typed findings first, then the SARIF ones, occurrences counted
     * across both in one count (3,800 on arraytypes.c.src's page) */
    for (i = 0; i < nb && rc == 0; i++) {
        q_finding *f = &out->builtin[i];
        const char *parts[4] = {out->path, f->rule, f->function, f->text};

        rc = q_fp_one(seen, parts, f->fingerprint);
        fp[i] = f->fingerprint;
    }
    if (rc < 0 || (rc = q_dismissed_fingerprints_seen(out->findings, out->path, seen)) < 0)
        goto done;
    for (i = nb; i < n; i++)
        fp[i] = json_string_value(json_object_get(json_array_get(out->findings, i - nb),
                                                  "fingerprint"));
    if ((rc = db_triage_marks(db, repo_id, fp, n, d, &out->dismissed_count)) < 0)
        goto done;
    for (i = 0; i < nb; i++)
        out->builtin[i].dismissed = d[i];
    for (i = nb; i < n; i++)
        if (fp[i])
            json_object_set_new(json_array_get(out->findings, i - nb), "dismissed",
                                d[i] ? d[i] : json_null());
done:
    q_fp_seen_free(seen);
    free(fp);
    free(d);
    return rc;
}

void q_file_typed_free(q_file *out)
{
    size_t i;

    for (i = 0; i < out->nbuiltin; i++)
        json_decref(out->builtin[i].dismissed);
    free(out->builtin);
    out->builtin = NULL;
    out->nbuiltin = out->capbuiltin = 0;
    while (out->store) {
        q_file_store *next = out->store->next;

        free(out->store);
        out->store = next;
    }
}

json_t *q_finding_json(const q_finding *f)
{
    json_t *o = json_pack("{s:I, s:I, s:s, s:s, s:s, s:o, s:b, s:s, s:s, s:o, s:s}",
        "line", (json_int_t)f->line, "column", (json_int_t)f->column,
        "class", f->cls, "rule", f->rule, "text", f->text,
        "function", f->function ? json_string(f->function) : json_null(),
        "guarded", f->guarded, "tool", "portdash", "level", sarif_builtin_level(f->cls),
        "reason", f->reason ? json_string(f->reason) : json_null(),
        "fingerprint", f->fingerprint);

    if (o)
        json_object_set_new(o, "dismissed", f->dismissed ? json_incref(f->dismissed)
                                                          : json_null());
    return o;
}
