/*
 * q_file.c: one file at a commit, typed (q_file.h): its analysis, the
 * page's functions and findings (the built-in analyzer's, then those of
 * uploaded SARIF runs), dismissal marks, and a blob the clone lacked.
 */
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "db.h"
#include "db_analysis.h"
#include "db_findings.h"
#include "db_flow.h"
#include "db_missing.h"
#include "db_sarif.h"
#include "db_triage.h"
#include "pd_error.h"
#include "q_dismissed.h"
#include "q_file.h"
#include "q_file_typed.h"
#include "sarif_import.h"

static char *q_dup(const char *s, int *bad)
{
    char *d;

    if (!s)
        return NULL;
    if (!(d = strdup(s)))
        *bad = 1;
    return d;
}

static void q_function_clear(q_function *f)
{
    free(f->name);
    free(f->status);
    free(f->object_state);
    free(f->name_from_macro);
    free(f->why);
    free(f->chain);
}

void q_file_free(q_file *f)
{
    size_t i;

    if (!f)
        return;
    for (i = 0; i < f->nfunctions; i++)
        q_function_clear(&f->functions[i]);
    free(f->functions);
    free(f->path);
    free(f->status);
    free(f->notes);
    json_decref(f->findings);
    q_file_typed_free(f);
    free(f);
}

const char *q_file_missing_detail(int analysed)
{
    return analysed
        ? "the clone this was ingested from did not hold this version of the file; "
          "its analysis is known from another repository, and the next ingest "
          "counts it in the summaries, which count it as absent until then"
        : "the clone this was ingested from does not hold this version of the file "
          "(a partial clone, or a damaged pack): it is counted as absent until an "
          "ingest finds it";
}

/* The functions of an analysis as the page lists them. */
typedef struct {
    q_file *out;
    size_t first, per;
    char **names;                /* every function's name (owned), in idx order */
    size_t nnames, cap;
    const pd_flow *g;            /* the commit's call graph */
    int64_t key;                 /* the file in it */
} q_file_fns;

/* Function i's object state at this commit: what the call graph gives
 * (db_flow.h), with the chain of calls that gives it; else its own. */
static int q_file_objstate(const q_file_fns *a, size_t i, const db_function *f,
                           q_function *o)
{
    char chain[4096];
    const char *s;
    int bad = 0;

    if (!pd_flow_known(a->g, a->key, i)) {   /* no facts stored: its own */
        o->object_state = q_dup(f->object_state, &bad);
        return bad ? pd_error_nomem(NULL) : 0;
    }
    o->state_from_graph = pd_flow_state(a->g, a->key, i) != PD_OBJ_NONE;
    if (pd_flow_chain_json(a->g, a->key, i, chain, sizeof(chain)))
        o->chain = q_dup(chain, &bad);
    s = pd_objstate_name(pd_flow_state(a->g, a->key, i));
    o->object_state = q_dup(s, &bad);
    return bad ? pd_error_nomem(NULL) : 0;
}

/* Room for one more function of the page. */
static q_function *q_file_fn_slot(q_file *out, size_t per)
{
    if (out->nfunctions % 64 == 0) {
        size_t want = out->nfunctions + 64 < per ? out->nfunctions + 64 : per;
        q_function *p = realloc(out->functions, want * sizeof(*p));

        if (!p)
            return NULL;
        out->functions = p;
    }
    memset(&out->functions[out->nfunctions], 0, sizeof(q_function));
    return &out->functions[out->nfunctions++];
}

/* db_analysis_function_rows callback: one function's name kept, and the
 * function listed when it falls in the page. */
static int q_file_function(void *arg, const db_function *f)
{
    q_file_fns *a = arg;
    size_t i = a->nnames;
    q_function *o;
    int bad = 0;

    if (a->nnames == a->cap) {
        char **p = realloc(a->names, (a->cap = a->cap ? a->cap * 2 : 64) * sizeof(char *));

        if (!p)
            return pd_error_nomem(NULL);
        a->names = p;
    }
    if (!(a->names[i] = strdup(f->name ? f->name : "")))
        return pd_error_nomem(NULL);
    a->nnames++;
    if (i < a->first || i >= a->first + a->per)
        return 0;
    if (!(o = q_file_fn_slot(a->out, a->per)))
        return pd_error_nomem(NULL);
    o->name = q_dup(f->name, &bad);
    o->start_line = f->start_line;
    o->end_line = f->end_line;
    o->status = q_dup(f->status, &bad);
    memcpy(o->tok, f->tok, sizeof(o->tok));
    o->name_from_macro = q_dup(f->name_from_macro, &bad);
    o->why = q_dup(f->why, &bad);
    if (bad)
        return pd_error_nomem(NULL);
    return q_file_objstate(a, i, f, o);
}

/* The findings of an analysis as the page lists them. */
typedef struct {
    const q_file_fns *fns;       /* names[] for the function of each finding */
    size_t n;                    /* findings read so far */
    json_t *arr;                 /* the page's findings */
} q_file_finds;

/* db_findings_each callback: the finding listed when it falls in the page;
 * reason (item sites only) is null when the finding has none. */
static int q_file_finding(void *arg, const db_finding *f)
{
    q_file_finds *a = arg;
    size_t i = a->n++;

    if (i < a->fns->first || i >= a->fns->first + a->fns->per)
        return 0;
    if (a->fns->out->typed)
        return q_file_typed_add(a->fns->out, f, f->function >= 0 &&
                                (size_t)f->function < a->fns->nnames
                                ? a->fns->names[f->function] : NULL);
    json_array_append_new(a->arr, json_pack("{s:I, s:I, s:s, s:s, s:s, s:o, s:b, s:s, s:s, s:o}",
        "line", (json_int_t)f->line, "column", (json_int_t)f->column,
        "class", f->cls, "rule", f->rule, "text", f->text,
        "function", f->function >= 0 && (size_t)f->function < a->fns->nnames
                    ? json_string(a->fns->names[f->function]) : json_null(),
        "guarded", f->guarded, "tool", "portdash", "level", sarif_builtin_level(f->cls),
        "reason", f->reason ? json_string(f->reason) : json_null()));
    return 0;
}

/* The analysis of the file into *a, and whether the clone lacked its blob
 * (out->missing); a lacked blob has no analysis (a->status NULL) unless
 * another repository's ingest stored one.  0, PD_ENOTFOUND, PD_EDB. */
static int q_file_analysis_get(sqlite3 *db, const q_at *at, q_file *out,
                               db_analysis_row *a)
{
    int rc = db_analysis_get(db, out->blob, at->rules_hash, a);
    int mrc;

    if (rc < 0 && rc != PD_ENOTFOUND)
        return rc;
    mrc = db_missing_blob(db, at->repo_id, out->blob, out->missing_since);
    if (mrc < 0 && mrc != PD_ENOTFOUND)
        return mrc;
    out->missing = mrc == 0;
    return rc == PD_ENOTFOUND && mrc == 0 ? 0 : rc;
}

/* Keep the analysis row's figures in out (the strings move). */
static void q_file_take(q_file *out, db_analysis_row *a)
{
    out->analysed = 1;
    out->status = a->status;
    a->status = NULL;
    out->universal_ready = a->universal_ready;
    out->notes = a->notes;
    a->notes = NULL;
    out->lines = a->lines;
    out->size = a->size;
}

/* Fill out from the analysis: figures, then the page's functions and
 * findings (a failed read of either is an error, never a shorter list). */
static int q_file_analysis(sqlite3 *db, const q_at *at, q_file *out)
{
    db_analysis_row a;
    db_flow *flow = NULL;
    q_file_fns fns = {out, (out->page - 1) * out->per, out->per, NULL, 0, 0, NULL,
                      pd_flow_path_key(out->path)};
    q_file_finds finds = {&fns, 0, out->findings};
    int rc;

    memset(&a, 0, sizeof(a));
    if ((rc = db_flow_get(db, at->commit_id, at->rules_hash, &flow)) == 0 &&
        (fns.g = db_flow_graph(flow)) != NULL &&
        (rc = q_file_analysis_get(db, at, out, &a)) == 0 && a.status) {
        q_file_take(out, &a);
        if ((rc = db_analysis_function_rows(db, a.id, q_file_function, &fns)) == 0)
            rc = db_findings_each(db, a.id, q_file_finding, &finds);
    }
    out->functions_total = fns.nnames;
    out->findings_total = finds.n;
    while (fns.nnames)
        free(fns.names[--fns.nnames]);
    free(fns.names);
    db_analysis_row_free(&a);
    db_flow_release(flow);
    return rc;
}

/* The SARIF findings of the file that fall in the page, after the
 * built-in ones. */
static int q_file_sarif(sqlite3 *db, const q_at *at, q_file *out)
{
    size_t before = out->findings_total, total = 0, skip, room;
    size_t first = (out->page - 1) * out->per;
    int rc;

    /* Only the page is read: SARIF findings number in the hundreds of
     * thousands, and reading them all for one page once held 827 MB. */
    skip = first > before ? first - before : 0;
    room = first + out->per > before + skip ? first + out->per - before - skip : 0;
    rc = sarif_file_findings(db, at->commit_id, out->path, skip, room, out->findings, &total);
    out->findings_total += total;
    return rc;
}

/* Fingerprints and dismissal marks of the page's findings. */
static int q_file_dismissed(sqlite3 *db, const q_at *at, q_file *out)
{
    if (out->typed)
        return q_file_typed_marks(db, at->repo_id, out);
    int rc = q_dismissed_fingerprints(out->findings, out->path);

    return rc < 0 ? rc : db_triage_mark(db, at->repo_id, out->findings, &out->dismissed_count);
}

/* The tools with findings at a commit, "portdash" first, ", "-joined. */
typedef struct {
    char list[512];
    size_t len;
} q_tools;

/* 1 when the n bytes at w are one of the list's names. */
static int q_tools_has(const char *list, const char *w, size_t n)
{
    const char *p = list;

    while (*p) {
        size_t k = strcspn(p, ",");

        if (k == n && strncmp(p, w, n) == 0)
            return 1;
        p += k;
        p += strspn(p, ", ");
    }
    return 0;
}

static int q_tool_seen(void *arg, const db_sarif_run_row *r)
{
    q_tools *t = arg;

    if (!q_tools_has(t->list, r->tool, strlen(r->tool)) && t->len < sizeof(t->list))
        t->len += (size_t)snprintf(t->list + t->len, sizeof(t->list) - t->len, ", %s", r->tool);
    return 0;
}

/* Every ?tool= name is portdash or a tool with a SARIF upload at the
 * commit: a misspelt tool would read as "no findings".  0 or PD_EINVAL
 * listing the tools there. */
static int q_file_tools_check(sqlite3 *db, const q_at *at, const char *tools)
{
    q_tools t = {"portdash", 8};
    const char *p = tools;
    int rc;

    if ((rc = db_sarif_runs(db, at->commit_id, q_tool_seen, &t)) < 0)
        return rc;
    for (;;) {
        size_t n = strcspn(p, ",");

        if (!q_tools_has(t.list, p, n))
            return pd_error_set(PD_EINVAL, "tool: \"%.*s\" has no findings at this commit "
                                "(tools here: %s)", (int)(n > 40 ? 40 : n), p, t.list);
        if (!p[n])
            return 0;
        p += n + 1;
    }
}

int q_file_get(sqlite3 *db, const q_at *at, const char *path, const char *blob,
               const q_file_params *p, q_file **out)
{
    q_file *f;
    int rc;

    *out = NULL;
    if (!(f = calloc(1, sizeof(*f))) || !(f->path = strdup(path)) ||
        !(f->findings = json_array())) {
        q_file_free(f);
        return pd_error_nomem(NULL);
    }
    memcpy(f->commit, at->oid, sizeof(f->commit));
    f->page = p ? p->page : 1;
    f->per = p ? p->per : (size_t)-1 / 2;
    f->typed = p && p->typed && !p->tools && !p->levels;
    if (blob)
        snprintf(f->blob, sizeof(f->blob), "%s", blob);
    if ((!blob && (rc = db_commit_file_blob(db, at->commit_id, path, f->blob)) < 0) ||
        (rc = q_file_analysis(db, at, f)) < 0 || (rc = q_file_sarif(db, at, f)) < 0 ||
        (rc = q_file_dismissed(db, at, f)) < 0 ||
        (p && p->tools && (rc = q_file_tools_check(db, at, p->tools)) < 0) ||
        (p && (p->tools || p->levels) &&
         (rc = sarif_findings_filter(f->findings, p->tools, p->levels)) < 0)) {
        q_file_free(f);
        return rc;
    }
    *out = f;
    return 0;
}
