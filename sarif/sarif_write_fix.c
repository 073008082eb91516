/*
 * sarif_write_fix.c: SARIF 2.1.0 fixes (sarif-v2.1.0-os 3.55-3.57) for the
 * checked HPy rewrites of fix.h, and the readable rule names SARIF wants
 * beside the ids (3.49.7: "name" must differ from "id").
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "analyzer/analyzer.h"
#include "sarif_write_int.h"

json_t *sw_fix(const report_file *rf, const an_finding *f, const char **rule)
{
    const fix_list *l = rf->fixes;
    const an_finding *all = rf->res->findings;
    size_t i;
    char desc[400];

    /* Template instances share a position: the fix goes with the first
     * (it changes the template text once). */
    if (f > all && f[-1].line == f->line && f[-1].column == f->column)
        return NULL;

    for (i = 0; i < l->n; i++) {
        const fix_offer *o = &l->v[i];

        if (o->reason != FIX_OK || o->line != f->line || o->column != f->column)
            continue;
        *rule = o->rule;
        snprintf(desc, sizeof(desc), "Replace %s with %s (rule %s, needs HPy %s or later; "
                 "checked by analysing the rewritten file again).", o->from, o->to, o->rule,
                 o->since);
        return json_pack("{s:{s:s}, s:[{s:{s:o}, s:[{s:{s:i, s:i, s:i, s:i, s:I, s:I}, "
                         "s:{s:s}}]}]}",
                         "description", "text", desc,
                         "artifactChanges", "artifactLocation", "uri", sw_uri(rf->path),
                         "replacements", "deletedRegion",
                         "startLine", (json_int_t)o->line, "startColumn", (json_int_t)o->column,
                         "endLine", (json_int_t)o->end_line,
                         "endColumn", (json_int_t)o->end_column,
                         "byteOffset", (json_int_t)o->off, "byteLength", (json_int_t)o->len,
                         "insertedContent", "text", o->text);
    }
    return NULL;
}

json_t *sw_fixes_of(const report_file *rf, size_t head, const size_t *next)
{
    const an_result *res = rf->res;
    json_t *all = NULL, *one;
    const char *rule;
    size_t k;

    for (k = head; rf->fixes && k != SIZE_MAX; k = next[k]) {
        if (!(one = sw_fix(rf, &res->findings[k], &rule)))
            continue;
        if (!all && !(all = json_array())) {
            json_decref(one);
            return NULL;
        }
        json_array_append_new(all, one);
    }
    return all;
}
