/*
 * api_file_write.c: the file page's JSON without a tree (see
 * api_file_write.h), written with api_jw.h.  Key order, escaping and
 * number forms are jansson's (JSON_COMPACT), and so is what it leaves
 * out: an object that json_pack cannot make (a string that is not UTF-8
 * where api_file.c does not repair it) is missing from its list there,
 * so it is here.
 */
#include <stdint.h>
#include <string.h>

#include <jansson.h>

#include "api.h"
#include "api_file.h"
#include "api_file_write.h"
#include "api_jw.h"
#include "api_why_text.h"
#include "pd_buf_huge.h"
#include "sarif_import.h"

/* One typed built-in finding, keys in q_finding_json's order. */
static void aw_finding(pd_buf *b, const q_finding *f)
{
    pd_buf_puts(b, "{\"line\":");
    api_jw_int(b, f->line);
    pd_buf_puts(b, ",\"column\":");
    api_jw_int(b, f->column);
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
    api_jw_bool(b, f->guarded);
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
        api_jw_json(b, f->dismissed);
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
        api_jw_json(b, v);
    }
    pd_buf_put(b, "]", 1);
}

/* One function as api_file.c packs it; 0 when json_pack would fail there
 * (then nothing is written). */
static int aw_function(pd_buf *b, const q_function *fn)
{
    json_t *why;
    int i;

    if (!fn->status || !api_jw_utf8(fn->status) ||
        (fn->object_state && !api_jw_utf8(fn->object_state)))
        return 0;
    pd_buf_puts(b, "{\"name\":");
    api_jw_text(b, fn->name);
    pd_buf_puts(b, ",\"start_line\":");
    api_jw_int(b, fn->start_line);
    pd_buf_puts(b, ",\"end_line\":");
    api_jw_int(b, fn->end_line);
    pd_buf_puts(b, ",\"status\":");
    pd_buf_json_str(b, fn->status);
    pd_buf_puts(b, ",\"object_state\":");
    if (fn->object_state)
        pd_buf_json_str(b, fn->object_state);
    else
        pd_buf_put(b, "null", 4);
    pd_buf_puts(b, ",\"tokens\":{");
    for (i = 0; i < PD_CLASS_COUNT; i++) {
        api_jw_key(b, pd_class_name(i), i == 0);
        api_jw_int(b, fn->tok[i]);
    }
    pd_buf_puts(b, "},\"name_from_macro\":");
    api_jw_text(b, fn->name_from_macro);
    pd_buf_puts(b, ",\"why\":");
    if (!api_why_write(b, fn)) {
        why = api_file_why(fn);
        api_jw_json(b, why);
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
            api_jw_key(b, "missing", 0);
            api_jw_json(b, m);
            json_decref(m);
        }
    }
    if (f->analysed) {
        if (f->status && api_jw_utf8(f->status)) {
            api_jw_key(b, "status", 0);
            pd_buf_json_str(b, f->status);
        }
        api_jw_key(b, "universal_ready", 0);
        api_jw_bool(b, f->universal_ready);
        api_jw_key(b, "notes", 0);
        api_jw_text(b, f->notes);
        api_jw_key(b, "lines", 0);
        api_jw_int(b, f->lines);
        api_jw_key(b, "size", 0);
        api_jw_int(b, f->size);
    } else if (f->missing) {
        api_jw_key(b, "status", 0);
        pd_buf_put(b, "null", 4);
    }
    api_jw_key(b, "findings", 0);
    aw_findings(b, f);
    api_jw_key(b, "functions", 0);
    aw_functions(b, f);
    api_jw_key(b, "dismissed_count", 0);
    api_jw_int(b, (int64_t)f->dismissed_count);
}

int api_file_write(const q_file *f, pd_buf *b)
{
    /* About 300 bytes a finding and a function: one allocation, mostly. */
    pd_buf_reserve_huge(b, 4096 + 320 * (f->nbuiltin + json_array_size(f->findings) +
                                         f->nfunctions));
    pd_buf_puts(b, "{\"commit\":");
    pd_buf_json_str(b, f->commit);
    pd_buf_puts(b, ",\"path\":");
    api_jw_text(b, f->path);
    pd_buf_puts(b, ",\"blob\":");
    pd_buf_json_str(b, f->blob);
    aw_body(b, f);
    api_jw_key(b, "functions_total", 0);
    api_jw_int(b, (int64_t)f->functions_total);
    api_jw_key(b, "findings_total", 0);
    api_jw_int(b, (int64_t)f->findings_total);
    api_jw_key(b, "truncated", 0);
    api_jw_bool(b, api_file_paged(f));
    if (api_file_paged(f)) {
        api_jw_key(b, "page", 0);
        api_jw_int(b, (int64_t)f->page);
        api_jw_key(b, "per_page", 0);
        api_jw_int(b, (int64_t)f->per);
    }
    pd_buf_put(b, "}", 1);
    return b->err;
}
