/*
 * ingest_flow.c: the call graph of the commit being ingested (see
 * ingest_flow.h).  Files are keyed by path; each change replaces one
 * file's functions, and the graph is resolved once per commit, after all
 * of its changes, when one of them touched it.  The resolved figures are
 * the local sums plus pd_flow_delta(): analyses stay per blob (shared by
 * every commit and repository), what a commit's call graph adds is
 * counted in its summary.
 */
#include <stdlib.h>
#include <string.h>

#include "db.h"
#include "db_analysis.h"
#include "db_flow.h"
#include "ingest_flow.h"
#include "pd_error.h"
#include "pd_flow.h"
#include "pd_hash.h"
#include "pd_map.h"

struct ingest_flow {
    sqlite3 *db;
    const char *rules_hash;
    pd_flow *g;
    int64_t delta[PD_OBJ_COUNT];
    int64_t base;                /* the commit the walk started from */
    int loaded;                  /* the graph holds base's files */
    pd_map *seen;                /* path -> hash of its facts (lines left out) */
    char **paths;                /* the map's keys (owned) */
    size_t npaths, cappaths;
};

/*
 * The facts of a file without the functions' first lines: an edit that
 * moves functions but changes no item site and no call leaves the graph
 * as it was (only the chain's line numbers, which no summary counts), so
 * most commits need no new resolve.  FNV-1a 64.
 */
static uint64_t ingest_flow_hash(const char *text)
{
    uint64_t h = 0xcbf29ce484222325ULL;
    const char *p = text;

    while (p && *p) {                 /* one line: NAME \t LINE \t rest */
        const char *t1 = strchr(p, '\t'), *nl = strchr(p, '\n');
        const char *t2 = t1 && (!nl || t1 < nl) ? strchr(t1 + 1, '\t') : NULL;
        const char *end = nl ? nl + 1 : p + strlen(p);

        if (t2 && t2 < end) {         /* the name, then all after LINE */
            h = pd_fnv1a64(h, p, (size_t)(t1 - p));
            h = pd_fnv1a64(h, t2, (size_t)(end - t2));
        } else {
            h = pd_fnv1a64(h, p, (size_t)(end - p));
        }
        p = end;
    }
    return h;
}

/* 1 when `path`'s facts are those it had (and remember them). */
static int ingest_flow_same(ingest_flow *f, const char *path, const char *text)
{
    uint64_t h = ingest_flow_hash(text) | 1;   /* 0 is "none" */
    uint64_t *old = pd_map_get(f->seen, path, strlen(path));
    char *key;

    if (old) {
        if (*old == h)
            return 1;
        *old = h;
        return 0;
    }
    if (f->npaths == f->cappaths) {
        size_t cap = f->cappaths ? f->cappaths * 2 : 256;
        char **p = realloc(f->paths, cap * sizeof(*p));

        if (!p)
            return 0;
        f->paths = p;
        f->cappaths = cap;
    }
    if (!(key = malloc(strlen(path) + 1 + sizeof(uint64_t))))
        return 0;
    memcpy(key, &h, sizeof(h));                 /* the value, then the key */
    memcpy(key + sizeof(h), path, strlen(path) + 1);
    if (pd_map_put(f->seen, key + sizeof(h), strlen(path), key) < 0) {
        free(key);
        return 0;
    }
    f->paths[f->npaths++] = key;
    return 0;
}

int ingest_flow_open(ingest_flow **out, sqlite3 *db, const char *rules_hash)
{
    ingest_flow *f = calloc(1, sizeof(*f));
    int rc;

    *out = NULL;
    if (!f)
        return pd_error_nomem(NULL);
    f->db = db;
    f->rules_hash = rules_hash;
    if ((rc = pd_flow_new(&f->g)) < 0 || !(f->seen = pd_map_new(PD_MAP_SEEDED))) {
        ingest_flow_close(f);
        return rc < 0 ? rc : pd_error_nomem(NULL);
    }
    *out = f;
    return 0;
}

void ingest_flow_close(ingest_flow *f)
{
    if (!f)
        return;
    pd_flow_free(f->g);
    pd_map_free(f->seen);
    for (size_t i = 0; i < f->npaths; i++)
        free(f->paths[i]);
    free(f->paths);
    free(f);
}

/* db_commit_flow callback: one file of the base commit. */
static int ingest_flow_base_file(void *arg, const char *path, int64_t analysis_id,
                                 char *text)
{
    ingest_flow *f = arg;
    int rc;

    (void)analysis_id;
    ingest_flow_same(f, path, text);
    rc = pd_flow_set_file_text(f->g, pd_flow_path_key(path), path, text,
                               text ? strlen(text) : 0);
    free(text);
    return rc;
}

static int ingest_flow_resolve(ingest_flow *f)
{
    int rc;

    if (!pd_flow_dirty(f->g))
        return 0;
    if ((rc = pd_flow_resolve(f->g)) < 0)
        return rc;
    pd_flow_delta(f->g, f->delta);
    return 0;
}

/* Reset the graph and the paths seen. */
static int ingest_flow_reset(ingest_flow *f)
{
    int rc;

    pd_flow_free(f->g);
    f->g = NULL;
    memset(f->delta, 0, sizeof(f->delta));
    pd_map_free(f->seen);
    for (size_t i = 0; i < f->npaths; i++)
        free(f->paths[i]);
    f->npaths = 0;
    if (!(f->seen = pd_map_new(PD_MAP_SEEDED)))
        return pd_error_nomem(NULL);
    if ((rc = pd_flow_new(&f->g)) < 0)
        return rc;
    return 0;
}

int ingest_flow_base(ingest_flow *f, int64_t base)
{
    f->base = base;
    f->loaded = base == 0;
    return ingest_flow_reset(f);
}

/*
 * Load the base commit's graph, the first time a change touches it: a
 * push whose files keep their facts (most edits) never pays for it.
 * *totals (base's stored summary, with the changes applied so far, whose
 * facts were base's) loses base's delta and becomes the local sums.
 */
static int ingest_flow_load(ingest_flow *f, pd_counts *totals)
{
    int rc, s;

    f->loaded = 1;
    if ((rc = db_commit_flow(f->db, f->base, f->rules_hash, ingest_flow_base_file, f)) < 0 ||
        (rc = ingest_flow_resolve(f)) < 0)
        return rc;
    for (s = 0; s < PD_OBJ_COUNT; s++)
        totals->obj[s] -= f->delta[s];
    return 0;
}

/* The hash of analysis id's facts (0: none stored or no analysis). */
static int ingest_flow_hash_of(ingest_flow *f, int64_t id, uint64_t *h)
{
    char *text = NULL;
    int rc = 0;

    if (id && (rc = db_analysis_flow(f->db, id, &text)) < 0)
        return rc;
    *h = ingest_flow_hash(text);
    free(text);
    return 0;
}

int ingest_flow_file(ingest_flow *f, const char *path, int64_t old_id, int64_t analysis_id,
                     pd_counts *totals)
{
    char *text = NULL;
    int rc;

    if (!f->loaded) {
        uint64_t a, b;

        if ((rc = ingest_flow_hash_of(f, old_id, &a)) < 0 ||
            (rc = ingest_flow_hash_of(f, analysis_id, &b)) < 0)
            return rc;
        if (a == b)
            return 0;             /* the graph stays base's: no load */
        if ((rc = ingest_flow_load(f, totals)) < 0)
            return rc;
    }
    if (analysis_id && (rc = db_analysis_flow(f->db, analysis_id, &text)) < 0)
        return rc;
    if (ingest_flow_same(f, path, text)) {
        free(text);
        return 0;
    }
    rc = pd_flow_set_file_text(f->g, pd_flow_path_key(path), path, text,
                               text ? strlen(text) : 0);
    free(text);
    return rc;
}

int ingest_flow_totals(ingest_flow *f, const pd_counts *local, pd_counts *out)
{
    int rc, s;

    if (!f->loaded) {             /* base's delta is still in *local */
        *out = *local;
        return 0;
    }
    if ((rc = ingest_flow_resolve(f)) < 0)
        return rc;
    *out = *local;
    for (s = 0; s < PD_OBJ_COUNT; s++)
        out->obj[s] += f->delta[s];
    return 0;
}
