/*
 * gate_markdown.c: the gate's verdict as a pull-request comment.  Paths,
 * function names and the policy's rule names and measures (the policy may
 * live in the repository) are repository text: they go into code spans or
 * escaped text (pd_escape.h), so they cannot break out into Markdown or
 * HTML, start a line of their own, or hide what they say.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gate.h"
#include "pd_escape.h"

static void gate_md_code(FILE *f, const char *s)
{
    pd_esc_md_code(f, s, 0);
}

static const char *gate_md_side(json_t *fn, const char *side)
{
    json_t *o = json_object_get(fn, side);
    json_t *st = json_object_get(o, "object_state");
    static __thread char buf[64];

    if (!json_is_object(o))
        return "absent";
    snprintf(buf, sizeof(buf), "%s%s%s", json_string_value(json_object_get(o, "status")),
             json_is_string(st) ? ", " : "", json_is_string(st) ? json_string_value(st) : "");
    return buf;
}

/* The conditions' table rows of verdict res's "conditions" (conds). */
static void gate_md_conditions(FILE *f, json_t *conds)
{
    json_t *c;
    size_t i;

    json_array_foreach(conds, i, c) {
        fputs("| ", f);
        pd_esc_md_text(f, json_string_value(json_object_get(c, "rule")));
        fputs(" | ", f);
        pd_esc_md_text(f, json_string_value(json_object_get(c, "tested")));
        fprintf(f, " | %lld | ", (long long)json_integer_value(json_object_get(c, "found")));
        pd_esc_md_code(f, json_string_value(json_object_get(c, "measure")), 1);
        if (json_is_string(json_object_get(c, "scope"))) {
            fputs(" (scope ", f);
            pd_esc_md_code(f, json_string_value(json_object_get(c, "scope")), 1);
            fputc(')', f);
        }
        fprintf(f, " %lld | %lld | %s |\n",
                (long long)json_integer_value(json_object_get(c, "base")),
                (long long)json_integer_value(json_object_get(c, "head")),
                json_is_true(json_object_get(c, "ok")) ? "ok" : "**failed**");
    }
}

/* The list of regressions x. */
static void gate_md_regressions(FILE *f, json_t *x)
{
    json_t *c, *why;
    char from[64];
    size_t i, k;

    fprintf(f, "\n%zu regression%s.\n", json_array_size(x),
            json_array_size(x) == 1 ? "" : "s");
    json_array_foreach(x, i, c) {
        fputs("- ", f);
        gate_md_code(f, json_string_value(json_object_get(c, "name")));
        if (json_object_get(c, "renamed_from")) {
            fputs(" (was ", f);
            gate_md_code(f, json_string_value(json_object_get(c, "renamed_from")));
            fputc(')', f);
        }
        fputs(" in ", f);
        gate_md_code(f, json_string_value(json_object_get(c, "path")));
        snprintf(from, sizeof(from), "%s", gate_md_side(c, "from"));
        fprintf(f, ": %s → %s (", from, gate_md_side(c, "to"));
        json_array_foreach(json_object_get(c, "reasons"), k, why)
            fprintf(f, "%s%s", k ? ", " : "", json_string_value(why));
        fputs(")\n", f);
    }
}

char *gate_markdown(json_t *res)
{
    int pass = strcmp(json_string_value(json_object_get(res, "result")), "pass") == 0;
    json_t *c, *x;
    char *buf = NULL;
    size_t len = 0, i;
    FILE *f = open_memstream(&buf, &len);

    if (!f)
        return NULL;
    fprintf(f, "### HPy porting gate: %s\n\n", pass ? "✅ pass" : "❌ fail");
    /* "found" is the figure the condition tests; base and head are the
     * totals of its measure, for context (issue 23.9). */
    fprintf(f, "Base `%.10s`, head `%.10s`.\n\n| condition | tested | found | total at base "
            "| at head | |\n|---|---|---:|---:|---:|---|\n",
            json_string_value(json_object_get(res, "base")),
            json_string_value(json_object_get(res, "head")));
    gate_md_conditions(f, json_object_get(res, "conditions"));
    gate_md_regressions(f, json_object_get(res, "regressions"));
    x = json_object_get(res, "files_no_longer_universal_ready");
    if (json_array_size(x)) {
        fputs("\nNo longer universal-ready:\n", f);
        json_array_foreach(x, i, c) {
            fputs("- ", f);
            gate_md_code(f, json_string_value(c));
            fputc('\n', f);
        }
    }
    x = json_object_get(res, "fixable");
    if (json_array_size(x)) {
        fputs("\nAdded legacy uses with a checked HPy rewrite (`portdash fix`):\n", f);
        json_array_foreach(x, i, c) {
            fputs("- ", f);
            gate_md_code(f, json_string_value(json_object_get(c, "path")));
            fprintf(f, " line %lld: ", (long long)json_integer_value(json_object_get(c, "line")));
            gate_md_code(f, json_string_value(json_object_get(c, "from")));
            fputs(" → ", f);
            gate_md_code(f, json_string_value(json_object_get(c, "replacement")));
            fprintf(f, " (HPy %s)\n", json_string_value(json_object_get(c, "hpy_since")));
        }
    }
    if (fclose(f) != 0) {      /* out of memory: a short comment is no comment */
        free(buf);
        return NULL;
    }
    return buf;
}
