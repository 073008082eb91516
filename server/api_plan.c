/*
 * api_plan.c: GET /api/v1/repos/{repo}/commits/{rev}/plan, a porting order
 * from the call graph (issue 24, point 2; pd_plan.h has the rule).
 *
 *   ?path=FILE   the plan that makes FILE universal-ready (its blocking
 *                functions and every blocking function they call, callees
 *                first); without it, every blocking function of the scope
 *   ?scope=NAME  which functions block (default no-object-dtype, as the
 *                blockers: object-dtype paths stay on the legacy API)
 *   ?batch=N     functions per batch (default 5, 1..100): a batch is one
 *                level of one file with one owner, at most N functions
 *   ?limit=N     steps listed (default 200); batches cover those steps
 *
 * A function blocks when it has an unguarded C API or bridge use (so a
 * file whose functions block nothing and that has no such use outside
 * them is universal-ready).  Calls resolve as for the frontier
 * (api_frontier.c): to the definition in the caller's file when there is
 * one, else to every definition of the name.  The bridge mechanism itself
 * (a name the built-in rules call a bridge exactly: numpy's
 * npy_get_context) is never a step: it goes once nothing needs it; nor is
 * a legacy-facing wrapper of an HPy implementation (api_wrap.h:
 * PyArray_DESCR around HPyArray_GetDescr), for which no caller waits.
 * Both are listed under "excluded".
 *
 * "next" lists the functions portable now (no blocking callee) ranked by
 * what porting each unblocks: files it makes universal-ready, then
 * callers it makes portable, then its bridged or ported callers.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "analyzer/analyzer.h"
#include "api.h"
#include "api_owners.h"
#include "api_calls.h"
#include "api_plan.h"
#include "api_scope.h"
#include "api_wrap.h"
#include "db.h"
#include "db_analysis.h"
#include "db_flow.h"
#include "db_scope.h"
#include "pd_error.h"
#include "pd_plan.h"

#define PLAN_OWNER_FILES 10      /* files whose history is read for owners (each
                                  * about a second on numpy/core): the first steps' */

typedef struct {
    uint32_t file;
    char *name;
    int64_t start_line;
    int status;
    int blocking;
    int mechanism;               /* the bridge mechanism: never a step */
    int wrapper;                 /* a legacy-facing wrapper (api_wrap.h) */
    uint32_t callee_names;       /* distinct in-repository callees by name,
                                  * the bridge mechanism aside */
    uint32_t ported_names;       /* those whose definitions include a ported one */
    char *calls;                 /* borrowed from the file's calls text */
    uint32_t callers;            /* bridged or ported callers */
} pl_fn;

typedef struct {
    char *path;
    int64_t aid;                 /* its analysis */
    uint32_t fn0, nfn;           /* its functions in pl_state.fn */
    char *calls;                 /* owned */
    int64_t outside;             /* blocking uses outside functions */
    api_owners_file *own;        /* NULL: not read */
} pl_file;

typedef struct {
    pl_fn *fn;
    size_t n, cap;
    pl_file *file;
    size_t nfile, fcap;
    const char **names;          /* per function: its name (borrowed) */
    uint32_t *files;             /* per function: its file */
    api_calls *calls;            /* which functions a call names */
    const db_scope *sc;
    sqlite3 *db;
    pd_plan *g;
    const pd_flow *flow;         /* the commit's call graph: object states */
} pl_state;

static void pl_free(pl_state *s)
{
    size_t i;

    for (i = 0; i < s->n; i++)
        free(s->fn[i].name);
    for (i = 0; i < s->nfile; i++) {
        free(s->file[i].path);
        free(s->file[i].calls);
        api_owners_free(s->file[i].own);
    }
    free(s->fn);
    free(s->file);
    free(s->names);
    free(s->files);
    api_calls_free(s->calls);
    pd_plan_free(s->g);
}

/* db_commit_calls callback: one file and its functions. */
static int pl_add_file(void *arg, const char *path, int64_t aid, char *calls)
{
    pl_state *s = arg;
    db_scope_detail d;
    char *line = calls;
    pl_file *pf;
    size_t i;
    int rc;

    if (s->nfile == s->fcap) {
        size_t cap = s->fcap ? s->fcap * 2 : 256;
        pl_file *v = realloc(s->file, cap * sizeof(*v));

        if (!v) {
            free(calls);
            return pd_error_nomem(NULL);
        }
        s->file = v;
        s->fcap = cap;
    }
    pf = &s->file[s->nfile];
    memset(pf, 0, sizeof(*pf));
    pf->calls = calls;
    s->nfile++;                 /* freed with the state from here on */
    if (!(pf->path = strdup(path)))
        return pd_error_nomem(NULL);
    memset(&d, 0, sizeof(d));
    if ((rc = db_scope_detail_read_at(s->db, aid, s->flow, path, &d)) == PD_ENOTFOUND)
        return 0;
    if (rc < 0)
        return rc;
    pf->outside = d.file_ung[PD_CLASS_CAPI] + d.file_ung[PD_CLASS_BRIDGE];
    pf->aid = aid;
    pf->fn0 = (uint32_t)s->n;
    pf->nfn = (uint32_t)d.nfn;
    for (i = 0; i < d.nfn; i++) {
        const db_scope_fn *x = &d.fn[i];
        pl_fn *f;

        if (s->n == s->cap) {
            size_t cap = s->cap ? s->cap * 2 : 1024;
            pl_fn *v = realloc(s->fn, cap * sizeof(*v));

            if (!v) {
                db_scope_detail_free(&d);
                return pd_error_nomem(NULL);
            }
            s->fn = v;
            s->cap = cap;
        }
        f = &s->fn[s->n];
        memset(f, 0, sizeof(*f));
        if (!(f->name = strdup(x->name ? x->name : ""))) {
            db_scope_detail_free(&d);
            return pd_error_nomem(NULL);
        }
        s->n++;
        f->file = (uint32_t)(s->nfile - 1);
        f->start_line = x->start_line;
        f->status = x->status;
        f->blocking = x->ung[PD_CLASS_CAPI] + x->ung[PD_CLASS_BRIDGE] > 0 &&
                      !(s->sc->exclude_object_paths && x->is_object);
        f->mechanism = f->blocking && api_bridge_mechanism(f->name);
        if (line) {
            char *nl = strchr(line, '\n');

            if (nl)
                *nl = '\0';
            f->calls = *line ? line : NULL;
            line = nl ? nl + 1 : NULL;
        }
    }
    db_scope_detail_free(&d);
    return 0;
}

/* Index the functions by name for their callers (api_calls.h). */
static int pl_index(pl_state *s)
{
    size_t i;

    if (!(s->names = malloc((s->n + 1) * sizeof(*s->names))) ||
        !(s->files = malloc((s->n + 1) * sizeof(*s->files))))
        return pd_error_nomem(NULL);
    for (i = 0; i < s->n; i++) {
        s->names[i] = s->fn[i].name;
        s->files[i] = s->fn[i].file;
    }
    return api_calls_new(&s->calls, s->names, s->files, s->n);
}

/* Mark the legacy-facing wrappers among the bridged functions whose one
 * callee of the repository (the bridge mechanism aside) is ported: those
 * whose signature is legacy (api_wrap.h). */
static int pl_wrappers(pl_state *s)
{
    size_t i, k;
    int rc = 0;

    for (i = 0; rc == 0 && i < s->nfile; i++) {
        const pl_file *f = &s->file[i];
        unsigned char *first;
        int any = 0;

        for (k = f->fn0; k < f->fn0 + f->nfn; k++)
            any |= s->fn[k].blocking && s->fn[k].status == PD_STATUS_BRIDGED &&
                   s->fn[k].callee_names == 1 && s->fn[k].ported_names == 1;
        if (!any)
            continue;
        if (!(first = calloc(f->nfn + 1, 1)))
            return pd_error_nomem(NULL);
        rc = api_wrap_legacy_first(s->db, f->aid, first, f->nfn);
        for (k = 0; rc == 0 && k < f->nfn; k++) {
            pl_fn *x = &s->fn[f->fn0 + k];

            x->wrapper = x->blocking && x->status == PD_STATUS_BRIDGED &&
                         x->callee_names == 1 && x->ported_names == 1 && first[k];
        }
        free(first);
    }
    return rc;
}

/* One call of function `caller` being turned into edges (pl_edge). */
typedef struct {
    pl_state *s;
    size_t caller;
    int named, ported, rc;
} pl_call;

/* api_calls_resolve callback: the edge caller -> k (a self call is none). */
static void pl_edge(void *arg, uint32_t k)
{
    pl_call *c = arg;
    pl_state *s = c->s;

    if (k == c->caller || c->rc < 0)
        return;
    c->rc = pd_plan_add_edge(s->g, c->caller, k);
    c->named |= !s->fn[k].mechanism && !api_bridge_mechanism(s->fn[k].name);
    c->ported |= s->fn[k].status == PD_STATUS_PORTED;
    if (s->fn[c->caller].status == PD_STATUS_PORTED ||
        s->fn[c->caller].status == PD_STATUS_BRIDGED)
        s->fn[k].callers++;
}

/* The edges by the frontier's resolution (api_calls.h). */
static int pl_edges(pl_state *s)
{
    size_t i;

    for (i = 0; i < s->n; i++) {
        const char *p = s->fn[i].calls;

        while (p && *p) {
            const char *e = strchr(p, ' ');
            size_t len = e ? (size_t)(e - p) : strlen(p);
            pl_call c = {s, i, 0, 0, 0};

            api_calls_resolve(s->calls, p, len, s->fn[i].file, pl_edge, &c);
            s->fn[i].callee_names += c.named;
            s->fn[i].ported_names += c.named && c.ported;
            if (c.rc < 0)
                return c.rc;
            p = e ? e + 1 : NULL;
        }
    }
    return 0;
}

/* The graph: functions, files, edges; the bridge mechanism and the
 * wrappers block nobody. */
static int pl_graph(pl_state *s)
{
    size_t i;
    int rc;

    if ((rc = pd_plan_new(&s->g, s->n, s->nfile)) < 0 || (rc = pl_edges(s)) < 0 ||
        (rc = pl_wrappers(s)) < 0)
        return rc;
    for (i = 0; i < s->n; i++)
        pd_plan_set_fn(s->g, i, s->fn[i].file,
                       s->fn[i].blocking && !s->fn[i].mechanism && !s->fn[i].wrapper);
    for (i = 0; i < s->nfile; i++)
        if (s->file[i].outside)
            pd_plan_set_file_blocked(s->g, (uint32_t)i);
    return pd_plan_finish(s->g);
}

/* The functions left out of the plan that the target's file holds (or,
 * without a path, that the scope holds): mechanism and wrappers. */
static json_t *pl_excluded(const pl_state *s, const char *path)
{
    json_t *arr = json_array();
    size_t i;

    for (i = 0; i < s->n; i++) {
        const pl_fn *f = &s->fn[i];
        const char *fp = s->file[f->file].path;

        if (!(f->mechanism || f->wrapper) ||
            (path ? strcmp(fp, path) != 0 : !db_scope_has_path(s->sc, fp)))
            continue;
        json_array_append_new(arr, json_pack("{s:o, s:o, s:I, s:s}", "path", api_text(fp),
            "name", api_text(f->name), "start_line", (json_int_t)f->start_line, "reason",
            f->mechanism ? "the bridge mechanism itself: removed once nothing needs it, "
                           "not ported" : API_WRAP_REASON));
    }
    return arr;
}

/* ---- owners and order ---------------------------------------------------- */

/* Read the owners of the files of the first `limit` steps. */
static int pl_owners(srv_req *r, const api_at *at, pl_state *s, const pd_plan_result *res,
                     size_t limit, int *cut)
{
    size_t i, nread = 0;
    int rc;

    *cut = 0;
    for (i = 0; i < res->nsteps && i < limit; i++) {
        pl_file *f = &s->file[s->fn[res->steps[i].fn].file];

        if (f->own)
            continue;
        if (nread == PLAN_OWNER_FILES) {
            *cut = 1;
            break;
        }
        if ((rc = api_owners_read(r, at, r->param[0], f->path, &f->own)) < 0)
            return rc;
        nread++;
    }
    return 0;
}

static const char *pl_owner(const pl_state *s, size_t i)
{
    const pl_file *f = &s->file[s->fn[i].file];

    return f->own ? api_owners_ask(f->own, s->fn[i].name, s->fn[i].start_line) : NULL;
}

/* Sort keys for the rank: path, owner, line. */
static const pl_state *pl_sort_state;

static int pl_rank_cmp(const void *a, const void *b)
{
    const pl_state *s = pl_sort_state;
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    const char *ox, *oy;
    int c;

    if ((c = strcmp(s->file[s->fn[x].file].path, s->file[s->fn[y].file].path)))
        return c;
    ox = pl_owner(s, x);
    ox = ox ? ox : "";
    oy = pl_owner(s, y);
    oy = oy ? oy : "";
    if ((c = strcmp(ox, oy)))
        return c;
    if (s->fn[x].start_line != s->fn[y].start_line)
        return s->fn[x].start_line < s->fn[y].start_line ? -1 : 1;
    return 0;
}

/* rank[i]: position of function i in (path, owner, line) order. */
static uint64_t *pl_rank(pl_state *s)
{
    static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
    uint32_t *idx = malloc((s->n + 1) * sizeof(*idx));
    uint64_t *rank = malloc((s->n + 1) * sizeof(*rank));
    size_t i;

    if (!idx || !rank) {
        free(idx);
        free(rank);
        return NULL;
    }
    for (i = 0; i < s->n; i++)
        idx[i] = (uint32_t)i;
    pthread_mutex_lock(&lock);     /* qsort has no context argument */
    pl_sort_state = s;
    qsort(idx, s->n, sizeof(*idx), pl_rank_cmp);
    pthread_mutex_unlock(&lock);
    for (i = 0; i < s->n; i++)
        rank[idx[i]] = i;
    free(idx);
    return rank;
}

/* ---- the answer ---------------------------------------------------------- */

static json_t *pl_fn_ref(const pl_state *s, size_t i)
{
    return json_pack("{s:o, s:o, s:I}", "path", api_text(s->file[s->fn[i].file].path),
                     "name", api_text(s->fn[i].name), "start_line",
                     (json_int_t)s->fn[i].start_line);
}

/* Steps and batches (a batch: one level, one file, one owner, at most
 * `size` functions). */
static void pl_steps(const pl_state *s, const pd_plan_result *res, size_t limit, size_t size,
                     json_t *steps, json_t *batches)
{
    json_t *b = NULL;
    size_t i, k, nb = 0;

    for (i = 0; i < res->nsteps && i < limit; i++) {
        const pd_plan_step *st = &res->steps[i];
        const char *owner = pl_owner(s, st->fn), *path = s->file[s->fn[st->fn].file].path;
        json_t *o = pl_fn_ref(s, st->fn), *u = json_array(), *fr = json_array();

        const char *bo = b ? json_string_value(json_object_get(b, "owner")) : NULL;

        if (!b || json_integer_value(json_object_get(b, "level")) != st->level ||
            strcmp(json_string_value(json_object_get(b, "path")), path) != 0 ||
            (bo ? !owner || strcmp(bo, owner) != 0 : owner != NULL) ||
            json_array_size(json_object_get(b, "functions")) >= size) {
            b = json_pack("{s:I, s:I, s:s, s:o, s:[], s:I, s:[]}", "batch", (json_int_t)++nb,
                          "level", (json_int_t)st->level, "path", path, "owner",
                          owner ? json_string(owner) : json_null(), "functions",
                          "unblocks", (json_int_t)0, "universal_ready_after");
            json_array_append_new(batches, b);
        }
        for (k = 0; k < st->nunblocks; k++)
            json_array_append_new(u, pl_fn_ref(s, st->unblocks[k]));
        for (k = 0; k < st->nfiles_ready; k++) {
            json_array_append_new(fr, api_text(s->file[st->files_ready[k]].path));
            json_array_append_new(json_object_get(b, "universal_ready_after"),
                                  api_text(s->file[st->files_ready[k]].path));
        }
        json_array_append_new(json_object_get(b, "functions"), api_text(s->fn[st->fn].name));
        json_object_set_new(b, "unblocks", json_integer(
            json_integer_value(json_object_get(b, "unblocks")) + (json_int_t)st->nunblocks));
        json_object_set_new(o, "step", json_integer((json_int_t)i + 1));
        json_object_set_new(o, "batch", json_integer((json_int_t)nb));
        json_object_set_new(o, "level", json_integer(st->level));
        json_object_set_new(o, "cycle", json_boolean(st->cycle));
        json_object_set_new(o, "status", json_string(pd_status_name(s->fn[st->fn].status)));
        json_object_set_new(o, "owner", owner ? json_string(owner) : json_null());
        json_object_set_new(o, "unblocks", u);
        json_object_set_new(o, "universal_ready_after", fr);
        json_array_append_new(steps, o);
    }
}

/* Portable functions of the plan ranked by what they unblock now. */
static const pl_state *pl_next_state;

static int pl_next_cmp(const void *a, const void *b)
{
    const pl_state *s = pl_next_state;
    size_t x = *(const size_t *)a, y = *(const size_t *)b;
    size_t fx = pd_plan_files_ready(s->g, x), fy = pd_plan_files_ready(s->g, y);
    size_t ux = pd_plan_unblocks(s->g, x), uy = pd_plan_unblocks(s->g, y);
    int c;

    if (fx != fy)
        return fx > fy ? -1 : 1;
    if (ux != uy)
        return ux > uy ? -1 : 1;
    if (s->fn[x].callers != s->fn[y].callers)
        return s->fn[x].callers > s->fn[y].callers ? -1 : 1;
    if ((c = strcmp(s->file[s->fn[x].file].path, s->file[s->fn[y].file].path)))
        return c;
    return strcmp(s->fn[x].name, s->fn[y].name);
}

static json_t *pl_next(const pl_state *s, const pd_plan_result *res, size_t limit)
{
    static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
    size_t *v = malloc((res->nsteps + 1) * sizeof(*v)), n = 0, i;
    json_t *arr = json_array();

    if (!v)
        return arr;
    for (i = 0; i < res->nsteps; i++)
        if (res->steps[i].level == 0 && !res->steps[i].cycle)
            v[n++] = res->steps[i].fn;
    pthread_mutex_lock(&lock);
    pl_next_state = s;
    qsort(v, n, sizeof(*v), pl_next_cmp);
    pthread_mutex_unlock(&lock);
    for (i = 0; i < n && i < limit; i++) {
        json_t *o = pl_fn_ref(s, v[i]);

        json_object_set_new(o, "status", json_string(pd_status_name(s->fn[v[i]].status)));
        json_object_set_new(o, "unblocks", json_integer((json_int_t)pd_plan_unblocks(s->g, v[i])));
        json_object_set_new(o, "makes_universal_ready", pd_plan_files_ready(s->g, v[i])
                            ? api_text(s->file[s->fn[v[i]].file].path) : json_null());
        json_object_set_new(o, "bridged_callers", json_integer(s->fn[v[i]].callers));
        json_array_append_new(arr, o);
    }
    free(v);
    return arr;
}

/* An integer argument in [lo, hi], or dflt when absent. */
static int pl_int_arg(srv_req *r, const char *key, long lo, long hi, long dflt, size_t *out)
{
    char buf[32], *end;
    long v;

    *out = (size_t)dflt;
    if (srv_query(r, key, buf, sizeof(buf)) != 0)
        return 0;
    v = strtol(buf, &end, 10);
    if (*end || !buf[0] || v < lo || v > hi)
        return pd_error_set(PD_EINVAL, "%s must be an integer from %ld to %ld", key, lo, hi);
    *out = (size_t)v;
    return 0;
}

/* The functions the plan is for (indexes into s->fn, *target, *nt of
 * them): those of file `path`, or of the scope's files when NULL; with a
 * path, *outside gets its uses outside functions.  0, PD_ENOTFOUND (no
 * such analysed file), PD_ENOMEM. */
static int pl_targets(const pl_state *s, const char *path, size_t **target, size_t *nt,
                      int64_t *outside)
{
    size_t i;

    if (!(*target = malloc((s->n + 1) * sizeof(**target))))
        return pd_error_nomem(NULL);
    if (path) {
        for (i = 0; i < s->nfile && strcmp(s->file[i].path, path) != 0; i++)
            ;
        if (i == s->nfile)
            return pd_error_set(PD_ENOTFOUND, "no analysed file '%s' at this commit", path);
        *outside = s->file[i].outside;
    }
    for (i = 0; i < s->n; i++)
        if (path ? strcmp(s->file[s->fn[i].file].path, path) == 0
                 : db_scope_has_path(s->sc, s->file[s->fn[i].file].path))
            (*target)[(*nt)++] = i;
    return 0;
}

enum MHD_Result api_plan(srv_req *r)
{
    pl_state s;
    db_flow *flow = NULL;
    api_at at;
    pd_plan_result res;
    char path[4096];
    size_t *target = NULL, nt = 0, batch, limit;
    uint64_t *rank = NULL;
    int rc, has_path, cut = 0;
    json_t *steps, *batches, *o;
    int64_t outside = 0;

    memset(&s, 0, sizeof(s));
    memset(&res, 0, sizeof(res));
    s.db = r->db;
    if ((rc = api_resolve(r, &at)) < 0 || (rc = api_scope_arg(r, &s.sc)) < 0 ||
        (rc = pl_int_arg(r, "batch", 1, 100, 5, &batch)) < 0 ||
        (rc = pl_int_arg(r, "limit", 1, 100000, 200, &limit)) < 0)
        return srv_reply_error(r, rc);
    if (!s.sc && !(s.sc = db_scopes_find(srv_get_scopes(r->server), "no-object-dtype")))
        return srv_reply_error(r, pd_error_set(PD_EINVAL, "name a scope with ?scope=NAME"));
    rc = srv_query(r, "path", path, sizeof(path));
    if (rc == PD_EINVAL)
        return srv_reply_error(r, rc);
    has_path = rc == 0 && path[0];
    /* Object paths as the scoped summary counts them: by the call graph. */
    if ((rc = db_flow_get(r->db, at.commit_id, at.rules_hash, &flow)) < 0)
        goto fail;
    s.flow = db_flow_graph(flow);
    if ((rc = db_commit_calls(r->db, at.commit_id, at.rules_hash, pl_add_file, &s)) < 0 ||
        (rc = pl_index(&s)) < 0 || (rc = pl_graph(&s)) < 0)
        goto fail;
    if ((rc = pl_targets(&s, has_path ? path : NULL, &target, &nt, &outside)) < 0)
        goto fail;
    /* first the order by position, for the files whose owners are read;
     * then by (path, owner, line) within each level */
    if ((rc = pd_plan_make(s.g, target, nt, NULL, &res)) < 0 ||
        (rc = pl_owners(r, &at, &s, &res, limit, &cut)) < 0)
        goto fail;
    pd_plan_result_free(&res);
    if (!(rank = pl_rank(&s))) {
        rc = pd_error_nomem(NULL);
        goto fail;
    }
    if ((rc = pd_plan_make(s.g, target, nt, rank, &res)) < 0)
        goto fail;
    steps = json_array();
    batches = json_array();
    pl_steps(&s, &res, limit, batch, steps, batches);
    o = json_pack("{s:s, s:s, s:o, s:I, s:I, s:I, s:I, s:I, s:I, s:b, s:o, s:o, s:o, s:o}",
        "commit", at.oid, "scope", s.sc->name,
        "path", has_path ? api_text(path) : json_null(),
        "batch_size", (json_int_t)batch,
        "blocking_in_target", (json_int_t)res.ntarget,
        "blocking_beyond_target", (json_int_t)res.nbeyond,
        "uses_outside_functions", (json_int_t)outside,
        "steps_total", (json_int_t)res.nsteps,
        "levels", (json_int_t)(res.nsteps ? res.steps[res.nsteps - 1].level + 1 : 0),
        "owners_cut", cut,
        "next", pl_next(&s, &res, 20), "steps", steps, "batches", batches,
        "excluded", pl_excluded(&s, has_path ? path : NULL));
    pd_plan_result_free(&res);
    free(rank);
    free(target);
    pl_free(&s);
    db_flow_release(flow);
    return srv_reply_json(r, 200, o);
fail:
    pd_plan_result_free(&res);
    free(rank);
    free(target);
    pl_free(&s);
    db_flow_release(flow);
    return srv_reply_error(r, rc);
}
