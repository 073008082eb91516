/*
 * cli_show_text.c: `portdash show ... --format text` (cli_show.h): the
 * query layer's typed answers as lines; the JSON form is the API's.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <jansson.h>

#include "api_file_part.h"
#include "api_hpymap.h"
#include "cli_show.h"
#include "pd_time.h"

/* A JSON member as text: strings as they are, null as "-". */
static const char *cli_show_str(json_t *o, const char *key)
{
    const char *s = json_string_value(json_object_get(o, key));

    return s ? s : "-";
}

/* One finding of the file page: where, level, tool, rule, text, function,
 * and whether it is dismissed. */
static void cli_show_finding(FILE *out, json_t *f)
{
    json_t *d = json_object_get(f, "dismissed");

    fprintf(out, "  %" JSON_INTEGER_FORMAT ":%" JSON_INTEGER_FORMAT "\t%s\t%s\t%s\t%s\t%s%s%s\n",
            json_integer_value(json_object_get(f, "line")),
            json_integer_value(json_object_get(f, "column")), cli_show_str(f, "level"),
            cli_show_str(f, "tool"), cli_show_str(f, "rule"), cli_show_str(f, "text"),
            cli_show_str(f, "function"), json_is_object(d) ? "\tdismissed: " : "",
            json_is_object(d) ? cli_show_str(d, "reason") : "");
}

/* A finding a why points at, as the file page writes it: RULE `TEXT` at
 * line N. */
static void cli_show_site(FILE *out, json_t *w)
{
    fprintf(out, "%s `%s` at line %" JSON_INTEGER_FORMAT, cli_show_str(w, "rule"),
            cli_show_str(w, "text"), json_integer_value(json_object_get(w, "line")));
}

/* The why of function `fn` as one column, in the file page's words
 * (static/js/file.mjs whyStatus, whyObject): the finding that decides the
 * status; with an object state, the item site or the chain of calls that
 * gives it and what keeps it on CPython; without one, a mention of object
 * dtype.  "-" when the API's why says nothing. */
static void cli_show_why(FILE *out, const q_function *fn)
{
    json_t *why = api_file_why(fn), *st = json_object_get(why, "status");
    json_t *ob = json_object_get(why, "object"), *m = json_object_get(why, "mentions");
    json_t *chain = json_object_get(ob, "chain"), *hop, *also;
    int any = 0;
    size_t i;

    if (json_is_object(st)) {
        cli_show_site(out, st);
        any = 1;
    }
    if (fn->object_state && json_is_object(ob)) {
        fprintf(out, "%sobject: ", any ? "; " : "");
        if (json_is_array(chain)) {
            const char *caller = fn->name;

            /* the line is in the caller's body: the function itself, then
             * each callee before (static/js/why.mjs chainText) */
            fputs("via ", out);
            json_array_foreach(chain, i, hop) {
                fprintf(out, "%s%s in %s (called at line %" JSON_INTEGER_FORMAT " of %s)",
                        i ? " \u2192 " : "", cli_show_str(hop, "function"),
                        cli_show_str(hop, "path"),
                        json_integer_value(json_object_get(hop, "line")), caller);
                caller = cli_show_str(hop, "function");
            }
        } else {
            cli_show_site(out, ob);
        }
        if (json_is_object(also = json_object_get(why, "object_also"))) {
            fputs("; on CPython by ", out);
            cli_show_site(out, also);
        }
        any = 1;
    } else if (!fn->object_state && json_is_object(m)) {
        fprintf(out, "%smentions object dtype (%s at line %" JSON_INTEGER_FORMAT
                "), reaches no item", any ? "; " : "", cli_show_str(m, "name"),
                json_integer_value(json_object_get(m, "line")));
        any = 1;
    }
    if (!any)
        fputc('-', out);
    json_decref(why);
}

void cli_show_file_text(FILE *out, const q_file *f)
{
    size_t i;

    fprintf(out, "file: %s\ncommit: %s\nblob: %s\n", f->path, f->commit, f->blob);
    if (f->missing)
        fprintf(out, "missing since %s: %s\n", f->missing_since,
                q_file_missing_detail(f->analysed));
    if (f->analysed)
        fprintf(out, "status: %s\nuniversal-ready: %s\nlines: %" PRId64 "\nsize: %" PRId64
                "\n", f->status, f->universal_ready ? "yes" : "no", f->lines, f->size);
    if (f->notes)
        fprintf(out, "notes: %s\n", f->notes);
    fprintf(out, "functions: %zu of %zu (page %zu)\n", f->nfunctions, f->functions_total,
            f->page);
    for (i = 0; i < f->nfunctions; i++) {
        const q_function *fn = &f->functions[i];

        fprintf(out, "  %" PRId64 "-%" PRId64 "\t%s\t%s\t%s\t", fn->start_line, fn->end_line,
                fn->status, fn->object_state ? fn->object_state : "-", fn->name);
        cli_show_why(out, fn);
        fputc('\n', out);
    }
    fprintf(out, "findings: %zu of %zu (page %zu), %zu dismissed\n",
            json_array_size(f->findings), f->findings_total, f->page, f->dismissed_count);
    for (i = 0; i < json_array_size(f->findings); i++)
        cli_show_finding(out, json_array_get(f->findings, i));
}

/* Every measure: its value, and with `delta` the move. */
static void cli_show_measures(FILE *out, const db_counts *a, const db_counts *b,
                              const db_counts *delta)
{
    int i;

    for (i = 0; i < PD_NMEASURES; i++) {
        fprintf(out, "  %-36s", pd_measures[i].key);
        if (a)
            fprintf(out, " %8" PRId64 " ->", a->v[i]);
        fprintf(out, " %8" PRId64 "  (%+" PRId64 ")\n", b->v[i], delta->v[i]);
    }
}

/* One function move: where, which, the tags. */
static void cli_show_move(FILE *out, const q_move *m)
{
    size_t i;

    fprintf(out, "  %s\t%s\t%s", m->path, m->name, m->from.present ? m->from.status : "-");
    fprintf(out, " -> %s\t", m->to.present ? m->to.status : "-");
    for (i = 0; i < m->nchanges; i++)
        fprintf(out, "%s%s", i ? "," : "", m->changes[i]);
    fputc('\n', out);
}

/* A list of moves with its heading. */
static void cli_show_moves(FILE *out, const char *what, const q_moves *l)
{
    size_t i;

    fprintf(out, "%s: %zu of %zu\n", what, l->n, l->total);
    for (i = 0; i < l->n; i++)
        cli_show_move(out, &l->v[i]);
}

void cli_show_commit_text(FILE *out, const q_commit *c)
{
    char when[40];
    size_t i;

    pd_iso8601(when, sizeof(when), c->meta.author_time, c->meta.author_offset);
    fprintf(out, "commit: %s\nauthor: %s <%s>\ndate: %s\n", c->oid,
            c->meta.author_name ? c->meta.author_name : "",
            c->meta.author_email ? c->meta.author_email : "", when);
    for (i = 0; i < c->meta.nparents; i++)
        fprintf(out, "parent: %s\n", c->meta.parents[i]);
    fprintf(out, "message: %s\nmeasures (against the first parent):\n",
            c->meta.summary ? c->meta.summary : "");
    cli_show_measures(out, NULL, &c->stats, &c->delta);
    fprintf(out, "files: %zu of %zu (page %zu)\n", c->nfiles, c->files_total, c->page);
    for (i = 0; i < c->nfiles; i++)
        fprintf(out, "  %s\t%s%s%s\n", c->files[i].change, c->files[i].path,
                c->files[i].old_path ? " <- " : "",
                c->files[i].old_path ? c->files[i].old_path : "");
    cli_show_moves(out, "functions", &c->functions);
    for (i = 0; i < c->nsame; i++)
        fprintf(out, "same patch as: %s %s\n", c->same_patch[i].oid,
                c->same_patch[i].summary ? c->same_patch[i].summary : "");
}

/* One side of a file in a compare. */
static void cli_show_file_side(FILE *out, const q_file_side *s)
{
    if (!s->present)
        fprintf(out, "-");
    else
        fprintf(out, "%s%s", s->status, s->ready ? " (universal-ready)" : "");
}

void cli_show_compare_text(FILE *out, const q_compare *c)
{
    size_t i;

    fprintf(out, "base: %s\nhead: %s\nmeasures (base -> head):\n", c->base, c->head);
    cli_show_measures(out, &c->base_stats, &c->head_stats, &c->delta);
    fprintf(out, "files: %zu of %zu\n", c->nfiles, c->files_total);
    for (i = 0; i < c->nfiles; i++) {
        fprintf(out, "  %s\t", c->files[i].path);
        cli_show_file_side(out, &c->files[i].from);
        fprintf(out, " -> ");
        cli_show_file_side(out, &c->files[i].to);
        fputc('\n', out);
    }
    cli_show_moves(out, "functions", &c->functions);
    cli_show_moves(out, "regressions", &c->regressions);
}

void cli_show_symbols_text(FILE *out, const q_symbols *s, size_t first, size_t count)
{
    size_t i;

    fprintf(out, "commit: %s\nscope: %s\nsymbols: %zu\nuses: %" PRId64 "\n", s->commit,
            s->scope, s->n, s->uses_total);
    fprintf(out, "  %6s %9s %5s  %-6s  %-32s %s\n", "uses", "functions", "files", "class",
            "symbol", "hpy");
    for (i = first; i < s->n && i - first < count; i++) {
        const q_symbol_row *e = &s->v[i];
        const char *hpy = api_hpymap_lookup_row(e->symbol, NULL, NULL, NULL);

        fprintf(out, "  %6" PRId64 " %9" PRId64 " %5" PRId64 "  %-6s  %-32s %s\n", e->uses,
                e->functions, e->files, e->cls, e->symbol, hpy ? hpy : "-");
    }
}

void cli_show_symbol_text(FILE *out, const q_symbol *s, size_t first, size_t count)
{
    const char *hpy = api_hpymap_lookup_row(s->symbol, NULL, NULL, NULL);
    size_t i;

    fprintf(out, "symbol: %s\nclass: %s\nhpy: %s\ncommit: %s\nscope: %s\n"
            "uses: %zu\nfunctions: %" PRId64 "\nfiles: %" PRId64 "\n", s->symbol,
            s->cls ? s->cls : "-", hpy ? hpy : "-", s->commit, s->scope, s->nsites,
            s->functions, s->files);
    for (i = first; i < s->nsites && i - first < count; i++)
        fprintf(out, "  %s:%" PRId64 ":%" PRId64 "\t%s\n", s->sites[i].path,
                s->sites[i].line, s->sites[i].column,
                s->sites[i].function ? s->sites[i].function : "-");
}
