/*
 * api_file_write.c: the file page's JSON without a tree (see
 * api_file_write.h).  Key order, escaping and number forms are jansson's
 * (JSON_COMPACT), and so is what it leaves out: an object that json_pack
 * cannot make (a string that is not UTF-8 where api_file.c does not repair
 * it) is missing from its list there, so it is here.
 */
#include <stdint.h>
#include <string.h>

#include <jansson.h>

#include "api.h"
#include "api_file.h"
#include "api_file_write.h"
#include "api_why_text.h"
#include "pd_buf_huge.h"
#include "pd_dec.h"
#include "pd_utf8.h"
#include "sarif_import.h"

/* 1 when s is UTF-8 as jansson reads it (RFC 3629, as pd_utf8). */
static int aw_utf8(const char *s)
{
    return pd_utf8_valid(s, strlen(s));
}

static int aw_put_cb(const char *p, size_t n, void *data)
{
    return pd_buf_put(data, p, n) == 0 ? 0 : -1;
}

/* Any JSON value as json_dumps writes it inside a compact document. */
static void aw_json(pd_buf *b, const json_t *v)
{
    if (!v || json_dump_callback(v, aw_put_cb, b, JSON_COMPACT | JSON_ENCODE_ANY) < 0)
        pd_buf_put(b, "null", 4);
}

/* api_text(s): null, the string, or its display form when not UTF-8. */
static void aw_text(pd_buf *b, const char *s)
{
    json_t *j;

    if (!s) {
        pd_buf_put(b, "null", 4);
        return;
    }
    if (aw_utf8(s)) {
        pd_buf_json_str(b, s);
        return;
    }
    j = api_text(s);
    aw_json(b, j);
    json_decref(j);
}

static void aw_int(pd_buf *b, int64_t v)
{
    char tmp[PD_DEC_MAX];

    pd_buf_put(b, tmp, pd_itoa(tmp, v));
}

/* ,"key": (first: no comma) */
static void aw_key(pd_buf *b, const char *key, int first)
{
    if (!first)
        pd_buf_put(b, ",", 1);
    pd_buf_json_str(b, key);
    pd_buf_put(b, ":", 1);
}

static void aw_bool(pd_buf *b, int v)
{
    pd_buf_put(b, v ? "true" : "false", v ? 4 : 5);
}

/* One typed built-in finding, keys in q_finding_json's order. */
static void aw_finding(pd_buf *b, const q_finding *f)
{
    pd_buf_puts(b, "{\"line\":");
    aw_int(b, f->line);
    pd_buf_puts(b, ",\"column\":");
    aw_int(b, f->column);
    pd_buf_puts(b, ",\"class\":");
    pd_buf_json_str(b, f->cls);
    pd_buf_puts(b, ",\"rule\":");
    pd_buf_json_str(b, f->rule);
    pd_buf_puts(b, ",\"text\":");
    pd_buf_json_str(b, f->text);
    pd_buf_puts(b, ",\"function\":");
    if (f->function)
        pd_buf_json_str(b, f->function);
    else
        pd_buf_put(b, "null", 4);
    pd_buf_puts(b, ",\"guarded\":");
    aw_bool(b, f->guarded);
    pd_buf_puts(b, ",\"tool\":\"portdash\",\"level\":");
    pd_buf_json_str(b, sarif_builtin_level(f->cls));
    pd_buf_puts(b, ",\"reason\":");
    if (f->reason)
        pd_buf_json_str(b, f->reason);
    else
        pd_buf_put(b, "null", 4);
    pd_buf_puts(b, ",\"fingerprint\":");
    pd_buf_json_str(b, f->fingerprint);
    pd_buf_puts(b, ",\"dismissed\":");
    /* most are not: no json_dump_callback (a hashtable set up) for null */
    if (f->dismissed)
        aw_json(b, f->dismissed);
    else
        pd_buf_put(b, "null", 4);
    pd_buf_put(b, "}", 1);
}

static void aw_findings(pd_buf *b, const q_file *f)
{
    size_t i, n = 0;
    json_t *v;

    pd_buf_put(b, "[", 1);
    for (i = 0; i < f->nbuiltin; i++) {
        if (n++)
            pd_buf_put(b, ",", 1);
        aw_finding(b, &f->builtin[i]);
    }
    json_array_foreach(f->findings, i, v) {
        if (n++)
            pd_buf_put(b, ",", 1);
        aw_json(b, v);
    }
    pd_buf_put(b, "]", 1);
}

/* One function as api_file.c packs it; 0 when json_pack would fail there
 * (then nothing is written). */
static int aw_function(pd_buf *b, const q_function *fn)
{
    json_t *why;
    int i;

    if (!fn->status || !aw_utf8(fn->status) ||
        (fn->object_state && !aw_utf8(fn->object_state)))
        return 0;
    pd_buf_puts(b, "{\"name\":");
    aw_text(b, fn->name);
    pd_buf_puts(b, ",\"start_line\":");
    aw_int(b, fn->start_line);
    pd_buf_puts(b, ",\"end_line\":");
    aw_int(b, fn->end_line);
    pd_buf_puts(b, ",\"status\":");
    pd_buf_json_str(b, fn->status);
    pd_buf_puts(b, ",\"object_state\":");
    if (fn->object_state)
        pd_buf_json_str(b, fn->object_state);
    else
        pd_buf_put(b, "null", 4);
    pd_buf_puts(b, ",\"tokens\":{");
    for (i = 0; i < PD_CLASS_COUNT; i++) {
        aw_key(b, pd_class_name(i), i == 0);
        aw_int(b, fn->tok[i]);
    }
    pd_buf_puts(b, "},\"name_from_macro\":");
    aw_text(b, fn->name_from_macro);
    pd_buf_puts(b, ",\"why\":");
    if (!api_why_write(b, fn)) {
        why = api_file_why(fn);
        aw_json(b, why);
        json_decref(why);
    }
    pd_buf_put(b, "}", 1);
    return 1;
}

static void aw_functions(pd_buf *b, const q_file *f)
{
    size_t i, n = 0;

    pd_buf_put(b, "[", 1);
    for (i = 0; i < f->nfunctions; i++) {
        size_t mark = b->len;

        if (n)
            pd_buf_put(b, ",", 1);
        if (aw_function(b, &f->functions[i]))
            n++;
        else if (!b->err)
            b->len = mark;
    }
    pd_buf_put(b, "]", 1);
}

/* The analysis part, as api_file_body. */
static void aw_body(pd_buf *b, const q_file *f)
{
    if (f->missing) {
        json_t *m = json_pack("{s:s, s:s}", "since", f->missing_since,
                              "detail", q_file_missing_detail(f->analysed));

        if (m) {
            aw_key(b, "missing", 0);
            aw_json(b, m);
            json_decref(m);
        }
    }
    if (f->analysed) {
        if (f->status && aw_utf8(f->status)) {
            aw_key(b, "status", 0);
            pd_buf_json_str(b, f->status);
        }
        aw_key(b, "universal_ready", 0);
        aw_bool(b, f->universal_ready);
        aw_key(b, "notes", 0);
        aw_text(b, f->notes);
        aw_key(b, "lines", 0);
        aw_int(b, f->lines);
        aw_key(b, "size", 0);
        aw_int(b, f->size);
    } else if (f->missing) {
        aw_key(b, "status", 0);
        pd_buf_put(b, "null", 4);
    }
    aw_key(b, "findings", 0);
    aw_findings(b, f);
    aw_key(b, "functions", 0);
    aw_functions(b, f);
    aw_key(b, "dismissed_count", 0);
    aw_int(b, (int64_t)f->dismissed_count);
}

int api_file_write(const q_file *f, pd_buf *b)
{
    /* About 300 bytes a finding and a function: one allocation, mostly. */
    pd_buf_reserve_huge(b, 4096 + 320 * (f->nbuiltin + json_array_size(f->findings) +
                                         f->nfunctions));
    pd_buf_puts(b, "{\"commit\":");
    pd_buf_json_str(b, f->commit);
    pd_buf_puts(b, ",\"path\":");
    aw_text(b, f->path);
    pd_buf_puts(b, ",\"blob\":");
    pd_buf_json_str(b, f->blob);
    aw_body(b, f);
    aw_key(b, "functions_total", 0);
    aw_int(b, (int64_t)f->functions_total);
    aw_key(b, "findings_total", 0);
    aw_int(b, (int64_t)f->findings_total);
    aw_key(b, "truncated", 0);
    aw_bool(b, api_file_paged(f));
    if (api_file_paged(f)) {
        aw_key(b, "page", 0);
        aw_int(b, (int64_t)f->page);
        aw_key(b, "per_page", 0);
        aw_int(b, (int64_t)f->per);
    }
    pd_buf_put(b, "}", 1);
    return b->err;
}
