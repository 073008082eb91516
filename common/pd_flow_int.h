/*
 * pd_flow_int.h: the call graph's structures, shared by pd_flow.c (building
 * and resolving) and pd_flow_read.c (results and the stored form).  Not an
 * API: see pd_flow.h.
 */
#ifndef PD_FLOW_INT_H
#define PD_FLOW_INT_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pd_error.h"
#include "pd_malloc.h"
#include "pd_flow.h"
#include "pd_map.h"

/* The depth a parameter's effect is carried through helpers (pd_flow.c
 * says why), and "no item site" in fl_fn.dL/dF. */
#define FL_LIMIT 6
#define FL_FAR 255

typedef struct {
    uint8_t type;             /* 'p' parameter, 'N' HPy_NULL, 'i' name, '-' */
    uint8_t param;
    uint32_t name;            /* 'i': name id */
} fl_arg;

typedef struct {
    uint32_t callee, line, arg0;
    uint16_t nargs;
} fl_call;

typedef struct {
    uint32_t file, name, line, call0, ncall;
    unsigned local;
    uint16_t eL, eF, own;     /* the body's own effects on parameters */
    uint16_t rL, rF, rown;    /* ... after the graph */
    uint8_t dL[16], dF[16];   /* functions between a parameter and its
                               * item site (FL_FAR: none) */
    unsigned kinds;           /* PD_FLOW_* reached */
    int32_t via[2];           /* callee (fn index) that gave legacy/field */
    uint32_t via_line[2];
    uint64_t key[2];          /* fl_fn_key of its name and facts */
    uint8_t alive, queued;
} fl_fn;

typedef struct {
    int64_t *id;              /* boxed: the files map's key */
    char *path;
    uint32_t fn0, nfn;
} fl_file;

typedef struct {
    uint32_t *v;
    size_t n, cap;
} fl_vec;

/* Slots of pd_flow.name_cache (a power of two). */
#define FL_NAME_CACHE 4096

typedef struct {
    char *s;
    size_t len;               /* strlen(s), for the name cache's compare */
    fl_vec defs;              /* fn indexes */
    fl_vec calls;             /* pairs: fn index, call index */
    fl_vec cbs;               /* pairs: fn index, call index */
    uint32_t stamp, dstamp;   /* the resolve (pd_flow.gen) that put its
                               * vectors (dstamp: its defs) in path order */
} fl_name;

struct pd_flow {
    /* fl_fn_key's seed, random per graph: the keys hash repository text,
     * and an unseeded XXH3 can be made to collide (as the names' map,
     * pd_map.h PD_MAP_SEEDED) */
    uint64_t key_seed;
    fl_fn *fn;
    size_t nfn, capfn, ndead;
    fl_call *call;
    size_t ncall, capcall;
    fl_arg *arg;
    size_t narg, caparg;
    fl_file *file;
    size_t nfile, capfile;
    fl_name *name;
    size_t nname, capname;
    pd_map *files, *names;
    /* In front of `names`: the last name id + 1 seen in each slot, by
     * FNV-1a of the name (fl_name_id).  A graph made from a commit's
     * stored facts interns every callee of every call again, most of
     * them a few common names, and the seeded map's SipHash was a seventh
     * of a push's instructions.  Direct-mapped, so names made to meet in
     * a slot only miss it and take the map's way. */
    uint32_t name_cache[FL_NAME_CACHE];
    uint32_t *work;
    size_t nwork, capwork;
    /* Path order (pd_flow_resolve): rank[fn] (UINT32_MAX: dead) and
     * order[rank] = fn, so that results do not depend on the order files
     * were given or replaced in (db_flow_set.h). */
    uint32_t *rank, *order;
    size_t norder, caprank, caporder;
    uint32_t *fileorder;      /* file indexes by path (kept: files are
                               * only ever added, never renamed) */
    size_t nfileorder, capfileorder;
    uint32_t gen;             /* resolves so far */
    int in_order;             /* order[] is increasing: no sorting ... */
    int sorted;               /* ... unless a vector was ever sorted */
    int dirty;
    int results;              /* built from stored results: not resolvable */
};

/* Room for `need` elements of `el` bytes in *p (capacity *cap, doubled
 * from 64).  0 or PD_ENOMEM.  Here, not in pd_flow.c: pd_flow_keep.c and
 * pd_flow_res.c grow the same arrays, and pd_flow.c calls them. */
static inline int fl_grow(void **p, size_t *cap, size_t need, size_t el)
{
    return pd_grow(p, cap, need, el, 64, "in the call graph");
}

/* Append a to v.  0 or PD_ENOMEM.  Inline: the graph's hottest call. */
static inline int fl_push(fl_vec *v, uint32_t a)
{
    if (v->n == v->cap && fl_grow((void **)&v->v, &v->cap, v->n + 1, sizeof(*v->v)) < 0)
        return PD_ENOMEM;
    v->v[v->n++] = a;
    return 0;
}

/* The argument at g->arg[g->narg] joins call c of function fi (c is the
 * call being added, g->call[g->ncall]): a name passed as a callback is
 * listed under that name.  0 or PD_ENOMEM. */
static inline int fl_add_arg(pd_flow *g, fl_call *c, uint32_t fi)
{
    const fl_arg *a = &g->arg[g->narg];

    if (a->type == 'i' &&
        (fl_push(&g->name[a->name].cbs, fi) < 0 ||
         fl_push(&g->name[a->name].cbs, (uint32_t)g->ncall) < 0))
        return PD_ENOMEM;
    g->narg++;
    c->nargs++;
    return 0;
}

/* The call g->call[g->ncall], its arguments added, joins function f
 * (index fi) and is listed under its callee.  0 or PD_ENOMEM. */
static inline int fl_add_call(pd_flow *g, fl_fn *f, uint32_t fi)
{
    const fl_call *c = &g->call[g->ncall];

    if (fl_push(&g->name[c->callee].calls, fi) < 0 ||
        fl_push(&g->name[c->callee].calls, (uint32_t)g->ncall) < 0)
        return PD_ENOMEM;
    g->ncall++;
    f->ncall++;
    return 0;
}

/* The id of name s[0..len), made if new; UINT32_MAX when out of memory. */
uint32_t fl_name_id(pd_flow *g, const char *s, size_t len);

/* A new file `id` (not in the graph) with path `path` (copied; NULL:
 * ""), its functions to start at g->nfn; NULL when out of memory. */
fl_file *fl_file_add(pd_flow *g, int64_t id, const char *path);

/* The file `id`, or NULL. */
static inline fl_file *fl_file_get(const pd_flow *g, int64_t id)
{
    void *v = pd_map_get(g->files, &id, sizeof(id));

    return v ? &g->file[(uintptr_t)v - 1] : NULL;
}

/* ---- resolving, shared by pd_flow.c and pd_flow_chain.c (pd_flow_walk.c) */

/* rank[] and order[] for this resolve: files in path order, each file's
 * functions in index order.  0 or PD_ENOMEM. */
int fl_rank(pd_flow *g);

/* 1 when the call of d's name in function f may reach definition d: a
 * file that defines the name calls its own definition. */
int fl_reaches(const pd_flow *g, const fl_fn *f, uint32_t d);

/* Least of the 16 parameter depths d[] (FL_FAR: none). */
unsigned fl_min_depth(const uint8_t *d);

/* f reaches kind k (0 legacy, 1 field) through callee d (fn index; -1:
 * its own item site) at line; kept when f already reaches it. */
void fl_gain(fl_fn *f, int k, uint32_t d, uint32_t line);

/* 1 when call c's callee is one of the revision's functions. */
int fl_callee_defined(const pd_flow *g, const fl_call *c);

/* Put name nm's call sites (or its definitions only: defs = 1) in path
 * order for this resolve.  0 or PD_ENOMEM. */
int fl_in_order(pd_flow *g, fl_name *nm, int defs);

/* After the worklist (pd_flow_chain.c): each helper a chain that counts
 * passes through gains its kind and each why is the shortest chain
 * (fl_close_chains), then the CPython-only chains are marked.  0 or
 * PD_ENOMEM. */
int fl_close_chains(pd_flow *g);
int fl_cpython_chains(pd_flow *g);

/* 1 when d's item access is CPython-only (its own bridge or C API use, an
 * HPy_NULL owner, or a callee of its own that is). */
static inline int fl_cpython(const fl_fn *d)
{
    return (d->local & PD_FLOW_CPYTHON) || (d->kinds & (PD_FLOW_NULLOWNER | PD_FLOW_CPYCHAIN));
}

/* Its state once calls are followed, and on its own body only. */
static inline pd_objstate fl_state(const fl_fn *x)
{
    return pd_objstate_rule(x->kinds & PD_FLOW_LEGACY, x->kinds & PD_FLOW_FIELD, fl_cpython(x));
}

static inline pd_objstate fl_local_state(const fl_fn *x)
{
    return pd_objstate_rule(x->local & PD_FLOW_LEGACY, x->local & PD_FLOW_FIELD,
                            x->local & PD_FLOW_CPYTHON);
}

/* What x adds to a (resolved - local) count of states: the one rule of
 * pd_flow_delta, pd_flow_file_delta and pd_flow_results_file_delta. */
static inline void fl_add_delta(const fl_fn *x, int64_t delta[PD_OBJ_COUNT])
{
    pd_objstate a = fl_local_state(x), b = fl_state(x);

    if (a == b)
        return;
    if (a != PD_OBJ_NONE)
        delta[a]--;
    if (b != PD_OBJ_NONE)
        delta[b]++;
}

/*
 * A file's functions as they were before pd_flow_set_file replaced them
 * (pd_flow_keep.c): copies of its live functions, their calls and
 * arguments (indexes rebased into these arrays), and a table of their
 * keys.  A new function with the key of an old one takes its facts from
 * here instead of reading them again.
 */
typedef struct {
    fl_fn *fn;
    size_t nfn;
    fl_call *call;
    fl_arg *arg;
    uint32_t *slot;           /* open addressing: old index + 1, 0 empty */
    size_t mask;
} fl_old;

/* The key of fn: XXH3-128, seeded with `seed`, of its name and its facts
 * text (what pd_flow_set_file reads into a function besides its line and
 * bits). */
void fl_fn_key(const pd_flow_fn *fn, uint64_t seed, uint64_t key[2]);

/* *o = file f's live functions (zeroed when it has none).  0 or
 * PD_ENOMEM; fl_old_free either way. */
int fl_old_take(const pd_flow *g, const fl_file *f, fl_old *o);

/* The old function with this key, or -1. */
int32_t fl_old_find(const fl_old *o, const uint64_t key[2]);

/* Function x (index fi, its line and bits set) takes old function j's
 * name and facts, its calls' lines moved with it: what reading the same
 * text would give, index entries included, in the same order.  0 or
 * PD_ENOMEM. */
int fl_old_copy(pd_flow *g, const fl_old *o, int32_t j, fl_fn *x, uint32_t fi);

void fl_old_free(fl_old *o);

#endif
