/*
 * analyze_result.c: what an analysis hands out (analyze_result.h): names
 * of its classes and states, freeing a result, and a function's "why" as
 * JSON.  A leaf of the analyzer.
 */
#include <stdlib.h>
#include <string.h>

#include "analyze_result.h"

const char *an_class_name(an_class c)
{
    return pd_class_name(c);
}

const char *an_status_name(an_status s)
{
    return pd_status_name(s);
}

const char *an_objstate_name(an_objstate s)
{
    return pd_objstate_name(s);
}

/* 1 if path ends with suffix. */

void an_result_free(an_result *res)
{
    if (!res)
        return;
    for (size_t i = 0; i < res->nfunctions; i++)
        free(res->functions[i].object_chain);
    free(res->functions);
    free(res->findings);
    free(res->notes);
    free(res->text_pool);
    free(res->hpy_types);
    free(res->calls_pool);
    free(res->flow_pool);
    free(res);
}

/* Finding fi of res as a why site (rule NULL when fi is none). */
static pd_why_site an_why_site(const an_result *res, int32_t fi)
{
    pd_why_site w = {NULL, NULL, 0, 0};
    const an_finding *f;

    if (fi < 0 || (size_t)fi >= res->nfindings)
        return w;
    f = &res->findings[fi];
    w.rule = f->rule ? f->rule : "";
    w.text = f->text ? f->text : "";
    w.line = f->line;
    w.column = f->column;
    return w;
}

void an_why_of(const an_result *res, const an_function *fn, pd_why *w)
{
    int has_state = fn->object_state != AN_OBJ_NONE;

    memset(w, 0, sizeof(*w));
    w->status = an_why_site(res, fn->status_finding);
    if (has_state) {
        w->chain = fn->object_chain;
        w->object = an_why_site(res, fn->object_finding);
    }
    if (fn->object_marker && !has_state) {
        w->mention = fn->object_marker;
        w->mention_line = fn->object_marker_line;
    }
    w->object_also = an_why_site(res, fn->object_also);
}
