/*
 * api_frontier.c: GET /api/v1/repos/{repo}/commits/{rev}/frontier, what to
 * port next.
 *
 * The analyzer stores, per function, the names its body calls
 * (analyses.calls).  At a commit those names are resolved to the
 * repository's own functions (api_calls.h): a name defined in the
 * caller's file means that definition, otherwise every definition of
 * that name in the other files (static functions of the same name in
 * several files all count), and a C++ name qualified where it is defined
 * (`ns::g`, `kw::S::f`) is named by its unqualified tail when that is one
 * function; names defined nowhere (the C API, libc, macros) are left out.
 *
 * The frontier: legacy or bridged functions all of whose in-repository
 * callees are ported or neutral, so converting one needs nothing else
 * converted first.  They are ranked by what converting one unblocks
 * (issue 24): "unblocks", the legacy or bridged callers for which it is
 * the only callee they wait for (one that is not ported, needs CPython and
 * is no wrapper: fr_waited_for), then by
 * "bridged_callers": the distinct functions with status bridged or ported
 * that call them (a ported or bridged caller of a legacy function crosses
 * a bridge today; converting the callee removes those crossings).  A
 * trivial accessor that many functions call but that is never the last
 * thing they wait for unblocks nothing by itself.  A callee with several
 * definitions counts as ported only when all of them are.  Only
 * candidates with at least one such caller are listed unless ?all=1;
 * ?limit=N (default 100) caps the list, "candidates" counts them all.
 *
 * A function whose name is itself an `exact ... bridge` rule of the
 * built-in rules (numpy's npy_get_context) is the bridge mechanism: it is
 * removed once nothing needs a bridge, never ported, so it is left out of
 * the list and named under "excluded".  So is a legacy-facing wrapper of
 * an HPy implementation (api_wrap.h: numpy-hpy's PyArray_DESCR around
 * HPyArray_GetDescr), and no caller waits for one.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "analyzer/analyzer.h"
#include "api.h"
#include "api_calls.h"
#include "api_frontier.h"
#include "api_wrap.h"
#include "db.h"
#include "db_analysis.h"
#include "db_flow.h"
#include "pd_error.h"

typedef struct {
    uint32_t file;              /* index into fr_state.paths */
    const char *name;
    int status;                 /* an_status order: 0 ported .. 3 neutral */
    uint32_t start_line;
    char *calls;                /* space-separated names, or NULL */
    uint32_t callers;           /* bridged or ported callers */
    uint32_t unblocks;          /* callers whose only unported callee it is */
    int wrapper;                /* a legacy-facing wrapper (api_wrap.h) */
    int cpython;                /* needs CPython: bridged, or C API tokens (not
                                 * only the project's legacy API) */
    uint32_t callees_total, callees_ported;
} fr_fn;

typedef struct {
    fr_fn *fn;
    size_t n, cap;
    char **paths;               /* owned */
    size_t npaths;
    int64_t *aids;              /* per file: its analysis */
    uint32_t *fn0;              /* per file: its first function, and +1: the end */
    char **texts;               /* inflated calls, owned */
    size_t ntexts;
    char **names;               /* owned function names */
    uint32_t *files;            /* per function: its file (for calls) */
    api_calls *calls;           /* which functions a call names */
    sqlite3 *db;                /* borrowed, while loading */
} fr_state;

/* pd_status of a stored status name; neutral when unknown. */
static int fr_status_of(const char *s)
{
    int i = pd_status_parse(s);

    return i < 0 ? PD_STATUS_NEUTRAL : i;
}

/* Free everything; accepts a zeroed state. */
static void fr_free(fr_state *s)
{
    size_t i;

    for (i = 0; i < s->npaths; i++)
        free(s->paths[i]);
    for (i = 0; i < s->ntexts; i++)
        free(s->texts[i]);
    for (i = 0; i < s->n; i++)
        free(s->names[i]);
    free(s->paths);
    free(s->aids);
    free(s->fn0);
    free(s->texts);
    free(s->names);
    free(s->fn);
    free(s->files);
    api_calls_free(s->calls);
}

/* Grow an array of pointers by one slot; 0 or PD_ENOMEM. */
static int fr_push(void *arrp, size_t n, void *v)
{
    void ***arr = arrp;
    void **p;

    if ((n & (n - 1)) == 0) {     /* 0 or a power of 2: the array is full */
        if (!(p = realloc(*arr, (n * 2 < 16 ? 16 : n * 2) * sizeof(void *))))
            return pd_error_nomem(NULL);
        *arr = p;
    }
    (*arr)[n] = v;
    return 0;
}

/* What adding one analysis's functions needs. */
typedef struct {
    fr_state *s;
    uint32_t fi;        /* file index */
    char *line;         /* the next line of the calls text (cut in place) */
} fr_adding;

/* db_analysis_functions callback: one function with its line of calls. */
static int fr_add_fn(void *arg, const db_fn_brief *b)
{
    fr_adding *a = arg;
    fr_state *s = a->s;
    fr_fn *f;
    char *name = strdup(b->name), *nl;

    if (s->n == s->cap) {
        size_t cap = s->cap ? s->cap * 2 : 1024;
        fr_fn *p = realloc(s->fn, cap * sizeof(*p));
        char **q = realloc(s->names, cap * sizeof(*q));

        if (p)
            s->fn = p;
        if (q)
            s->names = q;
        if (!p || !q) {
            free(name);
            return pd_error_nomem(NULL);
        }
        s->cap = cap;
    }
    if (!name)
        return pd_error_nomem(NULL);
    f = &s->fn[s->n];
    memset(f, 0, sizeof(*f));
    s->names[s->n++] = name;
    f->file = a->fi;
    f->name = name;
    f->status = fr_status_of(b->status);
    f->start_line = (uint32_t)b->start_line;
    f->cpython = f->status == 1 || b->tok_capi > 0;
    if (a->line && *a->line) {
        nl = strchr(a->line, '\n');
        if (nl)
            *nl = '\0';
        f->calls = *a->line ? a->line : NULL;
        a->line = nl ? nl + 1 : NULL;
    }
    return 0;
}

/* db_commit_calls callback: one file, its calls text and its functions. */
static int fr_add_file(void *arg, const char *path, int64_t analysis_id, char *calls)
{
    fr_state *s = arg;
    char *copy = strdup(path);
    fr_adding a = {s, 0, calls};

    if (!copy || fr_push(&s->paths, s->npaths, copy) < 0) {
        free(copy);
        free(calls);
        return pd_error_nomem(NULL);
    }
    {
        int64_t *v = realloc(s->aids, (s->npaths + 1) * sizeof(*v));
        uint32_t *w = v ? realloc(s->fn0, (s->npaths + 2) * sizeof(*w)) : NULL;

        if (v)
            s->aids = v;
        if (w)
            s->fn0 = w;
        if (!v || !w) {
            free(calls);
            return pd_error_nomem(NULL);
        }
        s->aids[s->npaths] = analysis_id;
        s->fn0[s->npaths] = (uint32_t)s->n;
    }
    a.fi = (uint32_t)s->npaths++;
    if (calls) {
        if (fr_push(&s->texts, s->ntexts, calls) < 0) {
            free(calls);
            return pd_error_nomem(NULL);
        }
        s->ntexts++;
    }
    return db_analysis_functions(s->db, analysis_id, fr_add_fn, &a);
}

/* Read every function of the commit. */
static int fr_load(srv_req *r, const api_at *at, fr_state *s)
{
    s->db = r->db;
    return db_commit_calls(r->db, at->commit_id, at->rules_hash, fr_add_file, s);
}

/* Index the functions by name for their callers (api_calls.h). */
static int fr_index(fr_state *s)
{
    size_t i;

    if (!(s->files = malloc((s->n + 1) * sizeof(*s->files))))
        return pd_error_nomem(NULL);
    for (i = 0; i < s->n; i++)
        s->files[i] = s->fn[i].file;
    return api_calls_new(&s->calls, (const char *const *)s->names, s->files, s->n);
}

/* fr_resolve's callback and its argument. */
typedef struct {
    fr_state *s;
    void (*fn)(fr_state *, fr_fn *, void *);
    void *arg;
} fr_visit;

static void fr_visit_one(void *arg, uint32_t i)
{
    fr_visit *v = arg;

    v->fn(v->s, &v->s->fn[i], v->arg);
}

/*
 * Visit the definitions name[0..len) resolves to from a caller in file
 * `file` (api_calls.h).  Calls fn(s, callee, arg) for each; returns how
 * many there were.
 */
static size_t fr_resolve(fr_state *s, const char *name, size_t len, uint32_t file,
                         void (*fn)(fr_state *, fr_fn *, void *), void *arg)
{
    fr_visit v = {s, fn, arg};

    return api_calls_resolve(s->calls, name, len, file, fr_visit_one, &v);
}

/* fr_resolve callbacks. */
static void fr_count_caller(fr_state *s, fr_fn *callee, void *arg)
{
    callee->callers++;
}

static void fr_check_ported(fr_state *s, fr_fn *callee, void *arg)
{
    int *ok = arg;

    if (callee->status != 0 && callee->status != 3 && !callee->wrapper)
        *ok = 0;
}

static void fr_is_ported(fr_state *s, fr_fn *callee, void *arg)
{
    *(int *)arg |= callee->status == 0;
}

/* Mark the legacy-facing wrappers: bridged, whose one callee of the
 * repository (the bridge mechanism aside) is ported, with a legacy
 * signature (api_wrap.h). */
static int fr_wrappers(fr_state *s, sqlite3 *db)
{
    size_t fi, k;
    int rc = 0;

    for (fi = 0; rc == 0 && fi < s->npaths; fi++) {
        uint32_t a = s->fn0[fi], b = fi + 1 < s->npaths ? s->fn0[fi + 1] : (uint32_t)s->n;
        unsigned char *cand = calloc(b - a + 1, 1), *first = calloc(b - a + 1, 1);
        int any = 0;

        if (!cand || !first) {
            free(cand);
            free(first);
            return pd_error_nomem(NULL);
        }
        for (k = a; k < b; k++) {
            const char *p = s->fn[k].calls;

            int names = 0, ported = 0;

            while (s->fn[k].status == 1 && p && *p) {
                const char *e = strchr(p, ' ');
                size_t len = e ? (size_t)(e - p) : strlen(p);
                char nm[256];
                int one = 0;

                snprintf(nm, sizeof(nm), "%.*s", (int)(len < 255 ? len : 255), p);
                if (!api_bridge_mechanism(nm) &&
                    fr_resolve(s, p, len, (uint32_t)fi, fr_is_ported, &one)) {
                    names++;
                    ported += one;
                }
                p = e ? e + 1 : NULL;
            }
            cand[k - a] = names == 1 && ported == 1;
            any |= cand[k - a];
        }
        if (any && (rc = api_wrap_legacy_first(db, s->aids[fi], first, b - a)) == 0)
            for (k = a; k < b; k++)
                s->fn[k].wrapper = cand[k - a] && first[k - a];
        free(cand);
        free(first);
    }
    return rc;
}

/* Walk the calls of function f: its callers count (ported/bridged f) and
 * its own callee totals. */
static void fr_walk(fr_state *s, fr_fn *f)
{
    const char *p = f->calls;

    while (p && *p) {
        const char *e = strchr(p, ' ');
        size_t len = e ? (size_t)(e - p) : strlen(p);

        if (!(len == strlen(f->name) && memcmp(p, f->name, len) == 0)) {
            int ok = 1;

            if (f->status == 0 || f->status == 1)
                fr_resolve(s, p, len, f->file, fr_count_caller, NULL);
            if (fr_resolve(s, p, len, f->file, fr_check_ported, &ok)) {
                f->callees_total++;
                f->callees_ported += ok;
            }
        }
        p = e ? e + 1 : NULL;
    }
}

/* A callee its callers wait for before they can do without CPython: not
 * ported or neutral, not a wrapper, and needing CPython itself (a numpy
 * accessor such as PyArray_DATA, which only reads the project's own struct,
 * serves ported code as it is). */
static int fr_waited_for(const fr_fn *x)
{
    return (x->status == 1 || x->status == 2) && !x->wrapper && x->cpython;
}

static void fr_check_waited(fr_state *s, fr_fn *callee, void *arg)
{
    *(int *)arg |= fr_waited_for(callee);
}

static void fr_count_unblocked(fr_state *s, fr_fn *callee, void *arg)
{
    if (fr_waited_for(callee))
        callee->unblocks++;
}

/* A caller that waits for one callee name only: that name's definitions
 * unblock it. */
static void fr_unblocks(fr_state *s, fr_fn *f)
{
    const char *p = f->calls, *only = NULL;
    size_t only_len = 0;

    if (!(f->status == 1 || f->status == 2))
        return;
    while (p && *p) {
        const char *e = strchr(p, ' ');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        int waits = 0;

        if (!(len == strlen(f->name) && memcmp(p, f->name, len) == 0) &&
            fr_resolve(s, p, len, f->file, fr_check_waited, &waits) && waits) {
            if (only)
                return;             /* waits for two names */
            only = p;
            only_len = len;
        }
        p = e ? e + 1 : NULL;
    }
    if (only)
        fr_resolve(s, only, only_len, f->file, fr_count_unblocked, NULL);
}

/* Frontier order: most unblocked, most bridged callers, then most callees,
 * path, name. */
static fr_state *fr_sort_state;

static int fr_cmp(const void *a, const void *b)
{
    const fr_fn *x = &fr_sort_state->fn[*(const uint32_t *)a];
    const fr_fn *y = &fr_sort_state->fn[*(const uint32_t *)b];
    int c;

    if (x->unblocks != y->unblocks)
        return x->unblocks > y->unblocks ? -1 : 1;
    if (x->callers != y->callers)
        return x->callers > y->callers ? -1 : 1;
    if (x->callees_total != y->callees_total)
        return x->callees_total > y->callees_total ? -1 : 1;
    if ((c = strcmp(fr_sort_state->paths[x->file], fr_sort_state->paths[y->file])))
        return c;
    return strcmp(x->name, y->name);
}

/* The frontier as JSON, at most `limit` entries; *total gets all. */
static json_t *fr_list(fr_state *s, int all, size_t limit, size_t *total, json_t *excluded)
{
    uint32_t *idx = malloc((s->n + 1) * sizeof(*idx));
    json_t *arr = json_array();
    size_t i, n = 0;
    static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

    if (!idx) {
        json_decref(arr);
        return NULL;
    }
    for (i = 0; i < s->n; i++) {
        fr_fn *f = &s->fn[i];

        if (!(f->status == 1 || f->status == 2) ||
            f->callees_ported != f->callees_total || (!all && !f->callers))
            continue;
        if (api_bridge_mechanism(f->name) || f->wrapper)
            json_array_append_new(excluded, json_pack("{s:o, s:o, s:I, s:s}",
                "path", api_text(s->paths[f->file]), "name", api_text(f->name),
                "start_line", (json_int_t)f->start_line, "reason", f->wrapper
                ? API_WRAP_REASON
                : "the bridge mechanism itself: removed once nothing needs it, not ported"));
        else
            idx[n++] = (uint32_t)i;
    }
    pthread_mutex_lock(&lock);                 /* qsort has no context argument */
    fr_sort_state = s;
    qsort(idx, n, sizeof(*idx), fr_cmp);
    pthread_mutex_unlock(&lock);
    *total = n;
    for (i = 0; i < n && i < limit; i++) {
        fr_fn *f = &s->fn[idx[i]];

        json_array_append_new(arr, json_pack("{s:o, s:o, s:s, s:I, s:I, s:I, s:I, s:I}",
            "path", api_text(s->paths[f->file]), "name", api_text(f->name),
            "status", pd_status_name(f->status), "start_line", (json_int_t)f->start_line,
            "callees_ported", (json_int_t)f->callees_ported,
            "callees_total", (json_int_t)f->callees_total,
            "bridged_callers", (json_int_t)f->callers,
            "unblocks", (json_int_t)f->unblocks));
    }
    free(idx);
    return arr;
}

enum MHD_Result api_frontier(srv_req *r)
{
    fr_state s;
    api_at at;
    char buf[32];
    json_t *list, *excluded;
    size_t i, total = 0, limit = 100;
    int rc, all = 0;

    memset(&s, 0, sizeof(s));
    if ((rc = api_resolve(r, &at)) < 0)
        return srv_reply_error(r, rc);
    if (srv_query(r, "limit", buf, sizeof(buf)) == 0) {
        char *end;
        long v = strtol(buf, &end, 10);

        if (*end || v < 1 || v > 100000)
            return srv_reply_problem(r, 400, "Bad Request",
                                     "limit must be an integer from 1 to 100000");
        limit = (size_t)v;
    }
    if (srv_query(r, "all", buf, sizeof(buf)) == 0)
        all = strcmp(buf, "1") == 0 || strcmp(buf, "true") == 0;
    excluded = json_array();
    if ((rc = fr_load(r, &at, &s)) < 0 || (rc = fr_index(&s)) < 0 ||
        (rc = fr_wrappers(&s, r->db)) < 0) {
        fr_free(&s);
        json_decref(excluded);
        return srv_reply_error(r, rc);
    }
    for (i = 0; i < s.n; i++)
        fr_walk(&s, &s.fn[i]);
    for (i = 0; i < s.n; i++)
        fr_unblocks(&s, &s.fn[i]);
    list = fr_list(&s, all, limit, &total, excluded);
    fr_free(&s);
    if (!list) {
        json_decref(excluded);
        return srv_reply_error(r, pd_error_nomem(NULL));
    }
    return srv_reply_json(r, 200, json_pack("{s:s, s:I, s:o, s:o}", "commit", at.oid,
                          "candidates", (json_int_t)total, "functions", list,
                          "excluded", excluded));
}
