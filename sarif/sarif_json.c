/*
 * sarif_json.c: a SARIF log as a stream of JSON events (sarif_json.h).
 * yajl (lloyd.github.io/yajl, Debian's libyajl 2.1) reads the bytes; each
 * event goes to the part of the log it is in: the top level, the runs
 * array, a run, a run's results array, or a value being kept.  A kept value
 * is built as jansson, pruned to the properties sarif_parse.c reads (the
 * SJ_* trees below) and bounded; everything else is only walked through.
 * So memory is the size of one result or one run's rules and artifacts,
 * not of the log.  yajl itself holds one token at a time; tokens are
 * bounded here before yajl sees them, by a scan that follows strings.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <yajl_parse.h>

#include "pd_error.h"
#include "pd_utf8.h"
#include "sarif_json.h"

#define SJ_CHUNK 65536

/* How a kept value is pruned. */
typedef enum {
    SJ_LEAF,     /* a scalar kept; a container kept empty (its type is checked) */
    SJ_FULL,     /* kept whole */
    SJ_OBJ,      /* an object: the members in kids, pruned by theirs */
    SJ_MAP,      /* an object: every member pruned by kids[0] */
    SJ_EACH,     /* an array: every element pruned by kids[0] */
    SJ_FIRST     /* an array: its first element only, pruned by kids[0] */
} sj_how;

typedef struct sj_spec {
    const char *key;
    sj_how how;
    const struct sj_spec *kids;
} sj_spec;

#define LEAF(k) {k, SJ_LEAF, NULL}

/* Read by sp_resolve: an artifactLocation (3.4). */
static const sj_spec sj_loc[] = {LEAF("uri"), LEAF("uriBaseId"), LEAF("index"), {NULL}};
static const sj_spec sj_region[] = {LEAF("startLine"), LEAF("startColumn"), {NULL}};
static const sj_spec sj_phys[] = {{"artifactLocation", SJ_OBJ, sj_loc},
                                  {"region", SJ_OBJ, sj_region}, {NULL}};
static const sj_spec sj_location[] = {{"physicalLocation", SJ_OBJ, sj_phys}, {NULL}};
static const sj_spec sj_location1[] = {{NULL, SJ_OBJ, sj_location}};
static const sj_spec sj_message[] = {LEAF("text"), LEAF("id"),
                                     {"arguments", SJ_FULL, NULL}, {NULL}};
/* Read by sp_result: a result (3.27). */
static const sj_spec sj_result_kids[] = {
    LEAF("ruleId"), LEAF("ruleIndex"), LEAF("kind"), LEAF("level"),
    {"message", SJ_OBJ, sj_message}, {"partialFingerprints", SJ_FULL, NULL},
    {"locations", SJ_FIRST, sj_location1}, {NULL}};
static const sj_spec sj_result = {NULL, SJ_OBJ, sj_result_kids};

/* Read by sp_driver, sp_category, sp_resolve: a run's own parts (3.14). */
static const sj_spec sj_mstring[] = {LEAF("text"), {NULL}};
static const sj_spec sj_mstrings[] = {{NULL, SJ_OBJ, sj_mstring}};
static const sj_spec sj_conf[] = {LEAF("level"), {NULL}};
static const sj_spec sj_rule[] = {LEAF("id"), {"defaultConfiguration", SJ_OBJ, sj_conf},
                                  {"messageStrings", SJ_MAP, sj_mstrings}, {NULL}};
static const sj_spec sj_rules[] = {{NULL, SJ_OBJ, sj_rule}};
static const sj_spec sj_driver[] = {LEAF("name"), LEAF("semanticVersion"), LEAF("version"),
                                    {"rules", SJ_EACH, sj_rules}, {NULL}};
static const sj_spec sj_tool[] = {{"driver", SJ_OBJ, sj_driver}, {NULL}};
static const sj_spec sj_auto[] = {LEAF("id"), {NULL}};
static const sj_spec sj_artifact[] = {{"location", SJ_OBJ, sj_loc}, {NULL}};
static const sj_spec sj_artifacts[] = {{NULL, SJ_OBJ, sj_artifact}};
static const sj_spec sj_bases[] = {{NULL, SJ_OBJ, sj_loc}};
static const sj_spec sj_run_kids[] = {
    {"tool", SJ_OBJ, sj_tool}, {"automationDetails", SJ_OBJ, sj_auto},
    {"artifacts", SJ_EACH, sj_artifacts}, {"originalUriBaseIds", SJ_MAP, sj_bases},
    {NULL}};
static const sj_spec sj_leaf = LEAF(NULL);

/* What a frame of the stack is. */
enum { F_TOP, F_RUNS, F_RUN, F_RESULTS, F_BUILD, F_SKIP };

typedef struct {
    int role;
    json_t *v;              /* F_BUILD: the container kept; F_RUN (pass 1): the run */
    const sj_spec *spec;    /* F_BUILD: how v is pruned */
    char *key;              /* the member being read, owned */
    size_t n;               /* arrays: elements begun */
    size_t run;             /* F_RUN, F_RESULTS: index of the run */
    const char *over_key;   /* F_RUN: static name of a member past the budget */
} sj_frame;

/* Where the value being kept goes when it is complete. */
enum { B_TOP, B_RUN_VALUE, B_RUN_MEMBER, B_RESULT };

struct sj_walk {
    sj_handlers h;
    int pass;
    yajl_handle y;
    sj_frame stack[SARIF_MAX_DEPTH + 1];
    size_t depth;               /* frames in use */
    json_t *top;                /* {"version", "runs"} */
    int top_seen;               /* the top-level value began */
    int top_object;             /* and is an object */
    size_t runs_keys, runs_last;/* "runs" arrays seen; pass 2 reads the last */
    size_t *results_keys;       /* per run of the last runs array: "results" arrays */
    unsigned char *skip;        /* per run: pass 2 hands none of its results */
    size_t nruns, cap_runs;
    size_t results_seen;        /* pass 2: "results" arrays of the current run */
    /* the value being kept */
    int building, dest;
    size_t root_depth;          /* frames when it began */
    json_t *root;
    const char *root_key;       /* B_TOP, B_RUN_MEMBER: its member name */
    size_t *left;               /* budget it draws on */
    size_t meta_left, result_left;
    int over;
    int rc;                     /* a callback's error, with pd_error set */
};

static int sj_fail(sj_walk *w, int rc)
{
    w->rc = rc;
    return 0;                  /* yajl: cancel the parse */
}

static int sj_nomem(sj_walk *w)
{
    return sj_fail(w, pd_error_nomem("reading SARIF"));
}

/* Charge `cost` to the budget of the value being kept; 0 when over. */
static int sj_charge(sj_walk *w, size_t cost)
{
    if (w->over || *w->left < cost) {
        w->over = 1;
        return 0;
    }
    *w->left -= cost;
    return 1;
}

static int sj_push(sj_walk *w, int role, json_t *v, const sj_spec *spec)
{
    sj_frame *f;

    if (w->depth >= SARIF_MAX_DEPTH)
        return sj_fail(w, pd_error_set(PD_EINVAL, "the log nests arrays and objects "
                                       "deeper than %d", SARIF_MAX_DEPTH));
    f = &w->stack[w->depth++];
    memset(f, 0, sizeof(*f));
    f->role = role;
    f->v = v;
    f->spec = spec;
    return 1;
}

/* The spec of the next member or element of build frame f; NULL: drop. */
static const sj_spec *sj_child_spec(const sj_frame *f)
{
    const sj_spec *k;

    if (!f->v)
        return NULL;
    switch (f->spec->how) {
    case SJ_FULL: return f->spec;
    case SJ_MAP: case SJ_EACH: return f->spec->kids;
    case SJ_FIRST: return f->n == 1 ? f->spec->kids : NULL;
    case SJ_OBJ:
        for (k = f->spec->kids; k->key; k++)
            if (f->key && strcmp(k->key, f->key) == 0)
                return k;
        return NULL;
    default: return NULL;
    }
}

/* Hand the complete kept value to where it goes. */
static int sj_deliver(sj_walk *w)
{
    json_t *v = w->root;
    sj_frame *p = w->depth ? &w->stack[w->depth - 1] : NULL;
    int rc = 0;

    w->building = 0;
    w->root = NULL;
    switch (w->dest) {
    case B_TOP:
        if (v && json_object_set_new(w->top, w->root_key, v))
            return sj_nomem(w);
        return 1;
    case B_RUN_MEMBER:
        if (w->over && !p->over_key)
            p->over_key = w->root_key;
        if (v && json_object_set_new(p->v, w->root_key, v))
            return sj_nomem(w);
        return 1;
    case B_RUN_VALUE:
        rc = w->h.run_meta(w->h.arg, p->n - 1, v, w->over ? "" : NULL);
        break;
    case B_RESULT:
        if (w->over) {
            json_decref(v);
            v = NULL;
        }
        rc = w->h.result(w->h.arg, p->run, p->n - 1, v, SARIF_MAX_RESULT - w->result_left);
        break;
    }
    return rc < 0 ? sj_fail(w, rc) : 1;
}

/* Begin keeping a value: `dest` says where it goes, spec how to prune it. */
static void sj_keep(sj_walk *w, int dest, const char *key, size_t *left)
{
    w->building = 1;
    w->dest = dest;
    w->root_key = key;
    w->root = NULL;
    w->root_depth = w->depth;
    w->left = left;
    w->over = 0;
    if (dest == B_RESULT)
        w->result_left = SARIF_MAX_RESULT;
}

/*
 * A value begins: a scalar (v, a new reference) or a container (v NULL,
 * is_map saying which).  Decides from the enclosing frame whether it is
 * walked, routed or kept.  yajl return convention (1 go on, 0 stop).
 */
static int sj_value(sj_walk *w, json_t *v, int is_map);

/* sj_route of the value of the top-level "runs" (arr: an array). */
static int sj_route_runs(sj_walk *w, int arr, const sj_spec **spec)
{
    if (!arr) {
        sj_keep(w, B_TOP, "runs", &w->meta_left);
        *spec = &sj_leaf;
        return 1;
    }
    w->runs_keys++;
    if (w->pass == 1) {
        w->nruns = 0;
        if (json_object_set_new(w->top, "runs", json_array()))
            return sj_nomem(w);
        w->h.runs_begin(w->h.arg);
        return sj_push(w, F_RUNS, NULL, NULL);
    }
    return sj_push(w, w->runs_keys == w->runs_last ? F_RUNS : F_SKIP, NULL, NULL);
}

/* sj_route of an item of "runs" (frame p): a run when it is an object. */
static int sj_route_run(sj_walk *w, sj_frame *p, int is_map, const sj_spec **spec)
{
    size_t i = p->n++;

    if (i >= SARIF_MAX_RUNS)
        return sj_fail(w, pd_error_set(PD_EINVAL, "/runs/%zu: the log has more than "
                                       "%d runs", i, SARIF_MAX_RUNS));
    if (w->pass == 1 && i >= w->cap_runs) {
        size_t cap = w->cap_runs ? w->cap_runs * 2 : 8;
        size_t *rk = realloc(w->results_keys, cap * sizeof(*rk));
        unsigned char *sk = rk ? realloc(w->skip, cap) : NULL;

        if (rk)
            w->results_keys = rk;
        if (!sk)
            return sj_nomem(w);
        w->skip = sk;
        w->cap_runs = cap;
    }
    if (w->pass == 1) {
        w->results_keys[i] = 0;
        w->skip[i] = 0;
        w->nruns = i + 1;
    }
    if (is_map) {
        json_t *meta = w->pass == 1 ? json_object() : NULL;

        if (w->pass == 1 && !meta)
            return sj_nomem(w);
        if (!sj_push(w, F_RUN, meta, NULL))
            return json_decref(meta), 0;
        w->stack[w->depth - 1].run = i;
        w->results_seen = 0;
        return 1;
    }
    if (w->pass == 1) {
        sj_keep(w, B_RUN_VALUE, NULL, &w->meta_left);
        *spec = &sj_leaf;
    }
    return 1;
}

/* sj_route of a run's "results" (frame p, the run; arr: an array): the
 * first pass counts them, the second walks the last. */
static int sj_route_results(sj_walk *w, sj_frame *p, int arr, const sj_spec **spec)
{
    if (!arr) {
        if (w->pass == 1) {
            sj_keep(w, B_RUN_MEMBER, "results", &w->meta_left);
            *spec = &sj_leaf;
        }
    } else if (w->pass == 1) {
        w->results_keys[p->run]++;
        if (json_object_set_new(p->v, "results", json_array()))
            return sj_nomem(w);
    } else if (++w->results_seen == w->results_keys[p->run] && !w->skip[p->run]) {
        if (!sj_push(w, F_RESULTS, NULL, NULL))
            return 0;
        w->stack[w->depth - 1].run = p->run;
    }
    return 1;
}

/* The routing of a value whose enclosing frame is not a kept value. */
static int sj_route(sj_walk *w, sj_frame *p, json_t *v, int is_map, const sj_spec **spec)
{
    int arr = !v && !is_map;

    *spec = NULL;
    if (p->role == F_TOP && p->key && strcmp(p->key, "version") == 0) {
        sj_keep(w, B_TOP, "version", &w->meta_left);
        *spec = &sj_leaf;
    } else if (p->role == F_TOP && p->key && strcmp(p->key, "runs") == 0) {
        return sj_route_runs(w, arr, spec);
    } else if (p->role == F_RUNS) {
        return sj_route_run(w, p, is_map, spec);
    } else if (p->role == F_RUN && p->key && strcmp(p->key, "results") == 0) {
        return sj_route_results(w, p, arr, spec);
    } else if (p->role == F_RUN && p->key && w->pass == 1) {
        const sj_spec *k;

        for (k = sj_run_kids; k->key; k++)
            if (strcmp(k->key, p->key) == 0) {
                sj_keep(w, B_RUN_MEMBER, k->key, &w->meta_left);
                *spec = k;
            }
    } else if (p->role == F_RESULTS) {
        p->n++;
        sj_keep(w, B_RESULT, NULL, &w->result_left);
        *spec = &sj_result;
    }
    return 1;
}

static int sj_value(sj_walk *w, json_t *v, int is_map)
{
    sj_frame *p = w->depth ? &w->stack[w->depth - 1] : NULL;
    const sj_spec *spec = NULL;
    json_t *c;
    int keep_kids, scalar = v != NULL;

    if (!p) {
        if (w->top_seen++ == 0 && is_map && !v) {
            w->top_object = 1;
            return sj_push(w, F_TOP, NULL, NULL);
        }
        json_decref(v);
        return v ? 1 : sj_push(w, F_SKIP, NULL, NULL);
    }
    if (p->role == F_BUILD) {
        if (p->spec->how == SJ_EACH || p->spec->how == SJ_FIRST || p->spec->how == SJ_FULL)
            p->n += !json_is_object(p->v);
        spec = sj_child_spec(p);
    } else if (p->role != F_SKIP) {
        if (!sj_route(w, p, v, is_map, &spec))
            return json_decref(v), 0;
        if (w->depth && &w->stack[w->depth - 1] != p)
            return 1;                      /* a routing frame was pushed */
    }
    if (!spec) {                           /* not read: walked through */
        json_decref(v);
        return v ? 1 : sj_push(w, F_SKIP, NULL, NULL);
    }
    keep_kids = spec && !v && (spec->how == SJ_FULL ||
                               (is_map ? spec->how == SJ_OBJ || spec->how == SJ_MAP
                                       : spec->how == SJ_EACH || spec->how == SJ_FIRST));
    if (!(c = v ? v : is_map ? json_object() : json_array()))
        return sj_nomem(w);
    if (!sj_charge(w, (is_map ? 4 : 1) * SARIF_NODE_COST +
                           (p->key ? strlen(p->key) : 0) +
                           (json_is_string(c) ? json_string_length(c) : 0))) {
        json_decref(c);
        c = NULL;
        keep_kids = 0;
    }
    if (c && p->role == F_BUILD) {
        if (json_is_object(p->v) ? json_object_set_new(p->v, p->key, c)
                                 : json_array_append_new(p->v, c))
            return sj_nomem(w);
    } else if (c) {
        w->root = c;
    }
    if (!scalar && !sj_push(w, keep_kids ? F_BUILD : F_SKIP, keep_kids ? c : NULL, spec))
        return 0;
    if (scalar && w->building && w->depth == w->root_depth)
        return sj_deliver(w);               /* a kept scalar on its own */
    return 1;
}

/* A container ends. */
static int sj_end(void *ctx)
{
    sj_walk *w = ctx;
    sj_frame *f = &w->stack[--w->depth];
    int rc = 1;

    free(f->key);
    f->key = NULL;
    if (f->role == F_RUN && w->pass == 1) {
        int r = w->h.run_meta(w->h.arg, f->run, f->v, f->over_key);

        rc = r < 0 ? sj_fail(w, r) : 1;
    } else if (w->building && w->depth == w->root_depth) {
        rc = sj_deliver(w);
    }
    return rc;
}

/* Append "/" + `tok` (RFC 6901: '~' as ~0, '/' as ~1) to the pointer in
 * buf (size n, cut when full). */
static void sj_ptr_add(char *buf, size_t n, const char *tok)
{
    size_t k = strlen(buf);

    if (k + 1 < n)
        buf[k++] = '/';
    for (; *tok && k + 2 < n; tok++) {
        if (*tok == '~' || *tok == '/') {
            buf[k++] = '~';
            buf[k++] = *tok == '~' ? '0' : '1';
        } else {
            buf[k++] = *tok;
        }
    }
    buf[k < n ? k : n - 1] = '\0';
}

/*
 * The JSON pointer of the value about to be read (key 0) or of the member
 * name being read (key 1), from the frames: objects give their current
 * member, arrays their current element (the innermost one's count is not
 * yet raised for a value about to begin).
 */
static void sj_pointer(const sj_walk *w, char *buf, size_t n, int key)
{
    size_t i;

    buf[0] = '\0';
    for (i = 0; i < w->depth; i++) {
        const sj_frame *f = &w->stack[i];
        int inner = i + 1 == w->depth;
        int is_arr = f->role == F_RUNS || f->role == F_RESULTS ||
                     (f->role == F_BUILD && json_is_array(f->v));
        char num[24];

        if (is_arr) {
            snprintf(num, sizeof(num), "%zu", f->n - (inner ? 0 : 1));
            sj_ptr_add(buf, n, num);
        } else if (f->key && !(inner && key)) {
            sj_ptr_add(buf, n, f->key);
        }
    }
}

/* Text that is not UTF-8 or holds a NUL: *out the repaired copy (owned),
 * bad_text told.  yajl return convention. */
static int sj_bad_text(sj_walk *w, const char *s, size_t len, char **out, int key)
{
    char ptr[512];
    size_t nbad, nnul;
    int rc;

    if (!(*out = pd_utf8_repair_nul(s, len, &nbad, &nnul)))
        return sj_nomem(w);
    if (!w->h.bad_text)
        return 1;
    sj_pointer(w, ptr, sizeof(ptr), key);
    if (key)
        sj_ptr_add(ptr, sizeof(ptr), *out);
    rc = w->h.bad_text(w->h.arg, ptr, nbad, nnul);
    return rc < 0 ? sj_fail(w, rc) : 1;
}

static int sj_key(void *ctx, const unsigned char *k, size_t len)
{
    sj_walk *w = ctx;
    sj_frame *f = &w->stack[w->depth - 1];

    if (f->role == F_SKIP)
        return 1;
    free(f->key);
    f->key = NULL;
    /* Only the members of maps kept whole become stored names; any other
     * name is compared with the ASCII names portdash reads, and a name
     * that is not UTF-8 (or holds a NUL) matches none of them. */
    if (memchr(k, 0, len) ||
        (f->role == F_BUILD && (f->spec->how == SJ_MAP || f->spec->how == SJ_FULL) &&
         !pd_utf8_valid((const char *)k, len)))
        return sj_bad_text(w, (const char *)k, len, &f->key, 1);
    if (!(f->key = strndup((const char *)k, len)))
        return sj_nomem(w);
    return 1;
}

static int sj_start_map(void *ctx) { return sj_value(ctx, NULL, 1); }
static int sj_start_array(void *ctx) { return sj_value(ctx, NULL, 0); }

/* A scalar: kept as jansson only when someone reads it. */
static int sj_scalar(sj_walk *w, json_t *v)
{
    if (!v)
        return sj_nomem(w);
    return sj_value(w, v, 0);
}

static int sj_null(void *ctx) { return sj_scalar(ctx, json_null()); }
static int sj_bool(void *ctx, int b) { return sj_scalar(ctx, json_boolean(b)); }
static int sj_int(void *ctx, long long i) { return sj_scalar(ctx, json_integer(i)); }
static int sj_double(void *ctx, double d) { return sj_scalar(ctx, json_real(d)); }

static int sj_string(void *ctx, const unsigned char *s, size_t len)
{
    sj_walk *w = ctx;
    sj_frame *p = w->depth ? &w->stack[w->depth - 1] : NULL;

    if (p && p->role == F_SKIP)
        return 1;               /* the common case: not read, not copied */
    /* strings are C strings downstream: a NUL is repaired as bad bytes are */
    if (memchr(s, 0, len) || !pd_utf8_valid((const char *)s, len)) {
        char *fixed = NULL;

        json_t *v;

        if (!sj_bad_text(w, (const char *)s, len, &fixed, 0))
            return 0;
        v = json_string_nocheck(fixed);
        free(fixed);
        return sj_scalar(w, v);
    }
    return sj_scalar(w, json_stringn_nocheck((const char *)s, len));
}

static const yajl_callbacks sj_callbacks = {
    sj_null, sj_bool, sj_int, sj_double, NULL, sj_string,
    sj_start_map, sj_key, sj_end, sj_start_array, sj_end,
};

int sj_walk_new(sj_walk **out, const sj_handlers *h)
{
    sj_walk *w = calloc(1, sizeof(*w));

    *out = NULL;
    if (!w || !(w->top = json_object())) {
        free(w);
        return pd_error_nomem("reading SARIF");
    }
    w->h = *h;
    w->meta_left = SARIF_MAX_META;
    *out = w;
    return 0;
}

/* Drop what a stopped pass left: frames, the value being kept, yajl. */
static void sj_reset(sj_walk *w)
{
    while (w->depth) {
        sj_frame *f = &w->stack[--w->depth];

        free(f->key);
        if (f->role == F_RUN)
            json_decref(f->v);
    }
    json_decref(w->root);
    w->root = NULL;
    w->building = 0;
    if (w->y)
        yajl_free(w->y);
    w->y = NULL;
}

/* Where byte `at` of this chunk is, for a message. */
typedef struct {
    size_t off;        /* bytes before the chunk */
    size_t line;       /* line of the chunk's first byte, from 1 */
    size_t line_off;   /* offset where that line starts */
    int in_str, esc;   /* the token scan's state, across chunks */
    size_t tok;        /* bytes of the current token */
} sj_pos;

static int sj_bad_json(const sj_pos *p, const char *buf, size_t at, const char *what)
{
    size_t line = p->line, line_off = p->line_off, i;

    for (i = 0; i < at; i++)
        if (buf[i] == '\n') {
            line++;
            line_off = p->off + i + 1;
        }
    return pd_error_set(PD_EINVAL, "invalid JSON at line %zu, column %zu (byte %zu): %s",
                        line, p->off + at - line_off + 1, p->off + at, what);
}

/* Bound every token before yajl buffers it; returns the offset of one
 * that passes SARIF_MAX_TOKEN, or n. */
static size_t sj_scan(sj_pos *p, const char *buf, size_t n)
{
    size_t i;

    for (i = 0; i < n; i++) {
        char c = buf[i];

        if (p->in_str) {
            if (p->esc)
                p->esc = 0;
            else if (c == '\\')
                p->esc = 1;
            else if (c == '"')
                p->in_str = 0;
            p->tok++;
        } else if (c == '"') {
            p->in_str = 1;
            p->tok = 1;
        } else {
            switch (c) {
            case '{': case '}': case '[': case ']': case ',': case ':':
            case ' ': case '\t': case '\r': case '\n':
                p->tok = 0;
                break;
            default:
                p->tok++;
            }
        }
        if (p->tok > SARIF_MAX_TOKEN)
            return i;
    }
    return n;
}

/* The line count past a chunk fed whole. */
static void sj_advance(sj_pos *p, const char *buf, size_t n)
{
    const char *nl = buf;

    while ((nl = memchr(nl, '\n', n - (size_t)(nl - buf)))) {
        p->line++;
        p->line_off = p->off + (size_t)(nl - buf) + 1;
        nl++;
    }
    p->off += n;
}

/* yajl's message for a parse error, without its "parse error: " prefix. */
static int sj_yajl_error(sj_walk *w, const sj_pos *p, const char *buf, size_t at)
{
    unsigned char *e = yajl_get_error(w->y, 0, NULL, 0);
    char msg[256];
    const char *s = e ? (const char *)e : "parse error";
    size_t n;
    int rc;

    if (strncmp(s, "parse error: ", 13) == 0)
        s += 13;
    snprintf(msg, sizeof(msg), "%s", s);
    n = strlen(msg);
    while (n && (msg[n - 1] == '\n' || msg[n - 1] == ' '))
        msg[--n] = '\0';
    rc = sj_bad_json(p, buf, at, msg);
    if (e)
        yajl_free_error(w->y, e);
    return rc;
}

/* One chunk through the scan and yajl; 0 or an error. */
static int sj_feed(sj_walk *w, sj_pos *p, const char *buf, size_t n)
{
    size_t ok = sj_scan(p, buf, n);
    char what[64];

    if (ok < n) {
        snprintf(what, sizeof(what), "a string or number longer than %zu MiB",
                 SARIF_MAX_TOKEN >> 20);
        return sj_bad_json(p, buf, ok, what);
    }
    if (yajl_parse(w->y, (const unsigned char *)buf, n) != yajl_status_ok) {
        if (w->rc)
            return w->rc;
    {
        size_t at = yajl_get_bytes_consumed(w->y);

        /* yajl counts the byte it stopped at as consumed */
        return sj_yajl_error(w, p, buf, at ? at - 1 : 0);
    }
    }
    sj_advance(p, buf, n);
    return 0;
}

int sj_walk_pass(sj_walk *w, sarif_src *src, int pass)
{
    sj_pos pos = {0, 1, 0, 0, 0, 0};
    char *buf = malloc(SJ_CHUNK);
    size_t got;
    int rc;

    if (!buf || !(w->y = yajl_alloc(&sj_callbacks, NULL, w))) {
        free(buf);
        return pd_error_nomem("reading SARIF");
    }
    /* UTF-8 is checked here, one way for every form of bad bytes (yajl
     * refuses some as "invalid JSON" and lets overlong forms through):
     * kept text is repaired with a warning (sj_bad_text). */
    yajl_config(w->y, yajl_dont_validate_strings, 1);
    w->pass = pass;
    w->rc = 0;
    w->top_seen = 0;
    if (pass == 2)
        w->runs_last = w->runs_keys;
    w->runs_keys = 0;
    if ((rc = sarif_src_rewind(src)) < 0)
        goto done;
    while ((rc = sarif_src_read(src, buf, SJ_CHUNK, &got)) == 0 && got) {
        size_t skip = 0;

        /* A UTF-8 byte order mark, which some Windows tools write first:
         * RFC 8259 section 8.1 lets a parser ignore it, and yajl does not. */
        if (pos.off == 0 && got >= 3 && memcmp(buf, "\xEF\xBB\xBF", 3) == 0) {
            sj_advance(&pos, buf, 3);
            skip = 3;
        }
        if ((rc = sj_feed(w, &pos, buf + skip, got - skip)) < 0)
            goto done;
    }
    if (rc < 0)
        goto done;
    if (!w->top_seen)
        rc = sj_bad_json(&pos, buf, 0, "no JSON value");
    else if (yajl_complete_parse(w->y) != yajl_status_ok)
        rc = w->rc ? w->rc : sj_yajl_error(w, &pos, buf, 0);
done:
    /* A body past the size bound is refused as such (413 over HTTP), even
     * when its bytes stop being JSON before the bound is reached. */
    if (pass == 1 && rc == PD_EINVAL && !sarif_src_too_big(src)) {
        char msg[512];

        snprintf(msg, sizeof(msg), "%s", pd_error_last());
        while (sarif_src_read(src, buf, SJ_CHUNK, &got) == 0 && got)
            ;
        if (!sarif_src_too_big(src))
            pd_error_set(rc, "%s", msg);
    }
    sj_reset(w);
    free(buf);
    return rc;
}

json_t *sj_walk_top(const sj_walk *w)
{
    return w->top_object ? w->top : NULL;
}

void sj_walk_skip_run(sj_walk *w, size_t run)
{
    if (run < w->nruns)
        w->skip[run] = 1;
}

void sj_walk_free(sj_walk *w)
{
    if (!w)
        return;
    sj_reset(w);
    json_decref(w->top);
    free(w->results_keys);
    free(w->skip);
    free(w);
}
