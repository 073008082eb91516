/*
 * gate_fixable.c: the gate's `fixable` ratchet (gate.h, GATE_FIXABLE; issue
 * 25): a change may not add a line with a legacy use that a checked HPy
 * rewrite (fix.h) replaces.  Only the change's own lines count: the lines
 * git's diff of the file's two blobs marks as added.  The verdict gains a
 * condition {"measure": "fixable", "rule", "base": 0, "head": N, "ok",
 * "tested", "found": N} and
 * "fixable": [{"path", "line", "column", "function", "from", "to", "rule",
 * "hpy_since", "replacement"}], and fails when N > 0.
 */
#include <stdlib.h>
#include <string.h>

#include <git2.h>

#include "analyzer/analyzer.h"
#include "gate_blob.h"
#include "gate_fixable.h"
#include "pd_error.h"

struct gate_fixable {
    json_t *found;
};

gate_fixable *gate_fixable_new(void)
{
    gate_fixable *g = calloc(1, sizeof(*g));

    if (g && !(g->found = json_array())) {
        free(g);
        return NULL;
    }
    return g;
}

void gate_fixable_free(gate_fixable *g)
{
    if (g) {
        json_decref(g->found);
        free(g);
    }
}

typedef struct {
    unsigned char *added;       /* added[line] for lines 1..n */
    size_t n;
} gf_lines;

static int gf_line_cb(const git_diff_delta *d, const git_diff_hunk *h, const git_diff_line *l,
                      void *arg)
{
    gf_lines *a = arg;

    (void)d;
    (void)h;
    if (l->origin == GIT_DIFF_LINE_ADDITION && l->new_lineno > 0 &&
        (size_t)l->new_lineno <= a->n)
        a->added[l->new_lineno] = 1;
    return 0;
}

/* The offers of head whose line is added, onto g->found. */
static int gf_collect(gate_fixable *g, const rules *r, const char *path, git_blob *hb,
                      const gf_lines *a)
{
    const char *buf = git_blob_rawcontent(hb);
    size_t len = (size_t)git_blob_rawsize(hb), i;
    an_result *res = NULL;
    fix_list l;
    int rc;

    if ((rc = an_analyze(&res, r, path, buf, len)) < 0)
        return rc;
    if ((rc = fix_file(&l, r, path, buf, len, res)) < 0) {
        an_result_free(res);
        return rc;
    }
    for (i = 0; i < l.n && rc == 0; i++) {
        const fix_offer *o = &l.v[i];

        if (o->reason != FIX_OK || o->line > a->n || !a->added[o->line])
            continue;
        if (json_array_append_new(g->found, json_pack(
                "{s:s, s:i, s:i, s:s?, s:s, s:s, s:s, s:s, s:s}", "path", path,
                "line", (json_int_t)o->line, "column", (json_int_t)o->column,
                "function", o->function >= 0 ? res->functions[o->function].name : NULL,
                "from", o->from, "to", o->to, "rule", o->rule, "hpy_since", o->since,
                "replacement", o->text)))
            rc = pd_error_nomem(NULL);
    }
    fix_list_free(&l);
    an_result_free(res);
    return rc;
}

int gate_fixable_file(gate_fixable *g, git_repository *repo, const rules *r, const char *path,
                      const git_oid *base, const git_oid *head)
{
    git_blob *bb = NULL, *hb = NULL;
    gf_lines a = {0};
    git_diff_options opts;
    int rc = 0;

    if (!head)
        return 0;                          /* the file is gone: nothing added */
    if ((base && (rc = gate_blob_lookup(&bb, repo, base, path)) < 0) ||
        (rc = gate_blob_lookup(&hb, repo, head, path)) < 0)
        goto done;
    a.n = lex_count_lines(git_blob_rawcontent(hb), (size_t)git_blob_rawsize(hb));
    if (!(a.added = calloc(a.n + 2, 1))) {
        rc = pd_error_nomem(NULL);
        goto done;
    }
    git_diff_options_init(&opts, GIT_DIFF_OPTIONS_VERSION);
    opts.context_lines = 0;
    if (git_diff_blobs(bb, path, hb, path, &opts, NULL, NULL, NULL, gf_line_cb, &a) < 0) {
        rc = pd_error_set(PD_EGIT, "cannot diff %s", path);
        goto done;
    }
    rc = gf_collect(g, r, path, hb, &a);
done:
    free(a.added);
    git_blob_free(bb);
    git_blob_free(hb);
    return rc;
}

int gate_fixable_verdict(gate_fixable *g, json_t *result)
{
    size_t n = json_array_size(g->found);
    json_t *conds = json_object_get(result, "conditions");

    /* tested and found as every other condition has them (gate_eval.c):
     * the table of the comment and the markdown read them */
    if (!conds || json_array_append_new(conds, json_pack(
            "{s:s, s:s, s:i, s:I, s:b, s:s, s:I}", "measure", "fixable", "rule",
            "no added line with a legacy use that a checked HPy rewrite replaces",
            "base", 0, "head", (json_int_t)n, "ok", n == 0, "tested",
            "added lines with a legacy use a checked HPy rewrite replaces",
            "found", (json_int_t)n)) ||
        json_object_set(result, "fixable", g->found))
        return pd_error_nomem(NULL);
    if (n)
        json_object_set_new(result, "result", json_string("fail"));
    return 0;
}
