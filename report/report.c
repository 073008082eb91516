/*
 * report.c: text, JSON and function-list output of analyses, and the
 * --fail-on policy (report.h).  SARIF is written by sarif/sarif_write.c,
 * which reads report's types: report/ does not call it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "pd_buf.h"
#include "pd_dec.h"
#include "pd_error.h"
#include "report.h"

/* " via A -> B" when a call gives fn its object state (an_flow_apply). */
static void report_chain_text(FILE *out, const an_function *fn)
{
    json_t *chain = fn->object_chain ? json_loads(fn->object_chain, 0, NULL) : NULL;
    size_t i;

    for (i = 0; chain && i < json_array_size(chain); i++)
        fprintf(out, "%s%s", i ? " -> " : " via ",
                json_string_value(json_object_get(json_array_get(chain, i), "function")));
    json_decref(chain);
}

/* The text format of one file. */
static void report_text_file(FILE *out, const report_file *rf)
{
    const an_result *res = rf->res;
    size_t i;

    fprintf(out, "%s: %s, %s, %zu function%s\n", rf->path,
            an_status_name(res->status),
            res->universal_ready ? "universal-ready" : "not universal-ready",
            res->nfunctions, res->nfunctions == 1 ? "" : "s");
    for (i = 0; i < res->nfunctions; i++) {
        const an_function *fn = &res->functions[i];
        const char *os = an_objstate_name(fn->object_state);

        fprintf(out, "%s:%u: function %s (lines %u-%u) %s%s%s", rf->path,
                (unsigned)fn->name_line, fn->name, (unsigned)fn->start_line,
                (unsigned)fn->end_line, an_status_name(fn->status),
                os ? ", " : "", os ? os : "");
        if (fn->name_from_macro)
            fprintf(out, " (name from macro %s)", fn->name_from_macro);
        report_chain_text(out, fn);
        if (!os && fn->mentions)
            fputs(" (mentions object dtype)", out);
        fputc('\n', out);
    }
    for (i = 0; i < res->nfindings; i++) {
        const an_finding *f = &res->findings[i];

        fprintf(out, "%s:%u:%u: %s %s `%s`", rf->path, (unsigned)f->line,
                (unsigned)f->column, an_class_name(f->cls), f->rule, f->text);
        if (f->function >= 0)
            fprintf(out, " in %s", res->functions[f->function].name);
        fprintf(out, "%s", f->guarded ? " (guarded)" : "");
        if (f->reason)
            fprintf(out, " (why: %s)", f->reason);
        fputc('\n', out);
    }
    if (res->notes)
        fprintf(out, "%s: note: %s\n", rf->path, res->notes);
}

/* Why fn has its status and object state (pd_why.h). */
static json_t *report_why(const an_result *res, const an_function *fn)
{
    pd_why w;
    json_t *j;

    an_why_of(res, fn, &w);
    j = pd_why_obj(&w);
    return j ? j : json_null();
}

/* {"hpy": n, "capi": n, ...} */
static json_t *report_tokens(const uint32_t *t)
{
    json_t *o = json_object();
    int i;

    for (i = 0; o && i < AN_CLASS_COUNT; i++)
        json_object_set_new(o, an_class_name((an_class)i), json_integer(t[i]));
    return o;
}

/* The JSON object of one file (report.h), or NULL when out of memory. */
static json_t *report_json_file(const report_file *rf)
{
    const an_result *res = rf->res;
    json_t *o = json_object(), *fns = json_array(), *fds = json_array();
    size_t i;

    if (!o || !fns || !fds) {
        json_decref(o), json_decref(fns), json_decref(fds);
        return NULL;
    }
    json_object_set_new(o, "path", json_string(rf->path));
    json_object_set_new(o, "status", json_string(an_status_name(res->status)));
    json_object_set_new(o, "universal_ready", json_boolean(res->universal_ready));
    json_object_set_new(o, "lines", json_integer(res->lines));
    json_object_set_new(o, "notes", res->notes ? json_string(res->notes) : json_null());
    for (i = 0; i < res->nfunctions; i++) {
        const an_function *fn = &res->functions[i];
        const char *os = an_objstate_name(fn->object_state);

        json_array_append_new(fns, json_pack(
            "{s:s, s:s?, s:i, s:i, s:i, s:s, s:o, s:o, s:o}", "name", fn->name,
            "name_from_macro", fn->name_from_macro,
            "start_line", (json_int_t)fn->start_line,
            "name_line", (json_int_t)fn->name_line,
            "end_line", (json_int_t)fn->end_line,
            "status", an_status_name(fn->status),
            "object_state", os ? json_string(os) : json_null(),
            "tokens", report_tokens(fn->tokens),
            "why", report_why(res, fn)));
        if (fn->object_chain) {
            json_t *chain = json_loads(fn->object_chain, 0, NULL);

            if (chain)
                json_object_set_new(json_array_get(fns, i), "object_chain", chain);
        }
        if (getenv("PORTDASH_FLOW_FACTS") && fn->flow)
            json_object_set_new(json_array_get(fns, i), "flow", json_string(fn->flow));
    }
    for (i = 0; i < res->nfindings; i++) {
        const an_finding *f = &res->findings[i];

        json_array_append_new(fds, json_pack(
            "{s:i, s:i, s:s, s:s, s:s, s:o, s:b, s:s?}",
            "line", (json_int_t)f->line, "column", (json_int_t)f->column,
            "class", an_class_name(f->cls), "rule", f->rule, "text", f->text,
            "function", f->function >= 0
                ? json_string(res->functions[f->function].name) : json_null(),
            "guarded", f->guarded, "reason", f->reason));
    }
    json_object_set_new(o, "functions", fns);
    json_object_set_new(o, "findings", fds);
    return o;
}

/* json_dump_callback's sink: appends to a pd_buf. */
static int report_put_cb(const char *p, size_t n, void *b)
{
    return pd_buf_put(b, p, n);
}

/* The JSON format: an array of files, written as jansson writes the array
 * with JSON_INDENT(1), file by file: each file's object is dumped as the
 * one element of an array, "[\n" and "\n]" cut off, so that it has the
 * indentation of an element.  The whole array built first and dumped by
 * json_dumpf (one fwrite, and its lock, per token) was three times the
 * analysis' own instructions on numpy/core (issue 26). */
static int report_json(FILE *out, const report_file *files, size_t n)
{
    pd_buf b;
    size_t i;
    int rc = 0;

    pd_buf_init(&b, 0);
    if (n == 0 && fputs("[]\n", out) == EOF)
        rc = pd_error_set(PD_EIO, "cannot write the JSON report");
    for (i = 0; i < n && !rc; i++) {
        json_t *one = json_array();

        if (!one || json_array_append_new(one, report_json_file(&files[i])) ||
            json_dump_callback(one, report_put_cb, &b, JSON_INDENT(1) | JSON_ENSURE_ASCII) ||
            b.err || b.len < 4)
            rc = b.err ? b.err : pd_error_nomem("writing JSON");
        else if (fputs(i ? ",\n" : "[\n", out) == EOF ||
                 fwrite(b.data + 2, 1, b.len - 4, out) != b.len - 4 ||
                 (i + 1 == n && fputs("\n]\n", out) == EOF))
            rc = pd_error_set(PD_EIO, "cannot write the JSON report");
        json_decref(one);
        pd_buf_reset(&b);
    }
    pd_buf_free(&b);
    return rc;
}

/* Put ":%u" (the separator c, then v in decimal) at p; returns the end. */
static char *report_put_u(char *p, char c, uint32_t v)
{
    *p++ = c;
    return p + pd_utoa(p, v);
}

/* The lines of one file in the functions format: path, name, name line,
 * first and last line, language, tab-separated, one line a function.
 * Built by hand into blocks of up to 8 KiB, each written at once: with
 * fprintf the output took 20 M instructions of the 1,540 M of `analyze
 * --format functions` on numpy/core, and with a stdio call per field
 * (each taking the stream's lock and measuring its string) 8 M of 659 M
 * (issue 26). */
static void report_function_lines(FILE *out, const report_file *f)
{
    const char *lang = f->res->cpp ? "c++\n" : "c\n";
    size_t plen = strlen(f->path), llen = strlen(lang), k;
    char block[8192], *p = block;

    for (k = 0; k < f->res->nfunctions; k++) {
        const an_function *fn = &f->res->functions[k];
        size_t nlen = strlen(fn->name);
        size_t need = plen + nlen + 3 * 11 + 1 + llen;  /* 3 numbers, a tab */

        if ((size_t)(block + sizeof(block) - p) < need) {
            fwrite(block, 1, (size_t)(p - block), out);
            p = block;
        }
        if (need > sizeof(block)) {   /* a path or name longer than a block */
            fwrite(f->path, 1, plen, out);
            putc('\t', out);
            fwrite(fn->name, 1, nlen, out);
        } else {
            memcpy(p, f->path, plen);
            p += plen;
            *p++ = '\t';
            memcpy(p, fn->name, nlen);
            p += nlen;
        }
        p = report_put_u(p, '\t', fn->name_line);
        p = report_put_u(p, '\t', fn->start_line);
        p = report_put_u(p, '\t', fn->end_line);
        *p++ = '\t';
        memcpy(p, lang, llen);
        p += llen;
    }
    fwrite(block, 1, (size_t)(p - block), out);
}

int report_write(FILE *out, const char *format, const report_file *files,
                 size_t n, const report_fail *f)
{
    size_t i;

    if (strcmp(format, "json") == 0)
        return report_json(out, files, n);
    if (strcmp(format, "text") == 0) {
        for (i = 0; i < n; i++)
            report_text_file(out, &files[i]);
    } else if (strcmp(format, "functions") == 0) {
        for (i = 0; i < n; i++)
            report_function_lines(out, &files[i]);
    } else {
        return pd_error_set(PD_EINVAL, "unknown format '%s' (text, json, "
                            "sarif, functions)", format);
    }
    return ferror(out) ? pd_error_set(PD_EIO, "cannot write the report") : 0;
}
