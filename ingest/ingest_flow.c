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
#include "db_flow_graph.h"
#include "db_flow_set.h"
#include "ingest_flow.h"
#include "pd_buf.h"
#include "pd_error.h"
#include "pd_flow.h"
#include "pd_map.h"

/* What the walk knows of a path: the hash of its facts as the graph holds
 * them (pd_flow_facts_hash | 1, lines left out; 0: not known), and when
 * it was read over a kept block (`since`), the analysis it holds (0: the
 * file is gone) and its facts' length, which ingest_flow_keep names. */
typedef struct {
    uint64_t hash;
    int since;
    int64_t id;
    size_t bytes;
    char path[];
} ingest_flow_path;

struct ingest_flow {
    sqlite3 *db;
    const char *rules_hash;
    pd_flow *g;
    int64_t delta[PD_OBJ_COUNT];
    int64_t base;                /* the commit the walk started from */
    int loaded;                  /* the graph holds base's files */
    int packed;                  /* ... kept (db_flow_graph.h): the paths not
                                  * touched since have no hash yet */
    int64_t graph_id;            /* the kept block it was read from */
    pd_map *paths;               /* path -> its ingest_flow_path */
    ingest_flow_path **path;     /* every one (owned) */
    size_t npath, cappath;
    size_t nsince, since_bytes;  /* those read over the kept block, and the
                                  * sum of their facts' bytes */
    long files_max;              /* the most since_bytes may be (ingest.h) */
    db_flow_sets *sets;          /* the stored results (db_flow_set.h) */
    int64_t set_id;              /* the current commit's set; 0: unknown */
    char *set;                   /* its text when the graph made it */
    size_t setlen;
    int fresh;                   /* resolved since the last commit stored */
    uint64_t *hash_of;           /* by analysis id: its facts hash, */
    unsigned char *hash_known;   /* when known (read or handed in once) */
    size_t nhash;
};

/* Remember analysis id's facts hash (best effort: without memory the
 * hash is computed again from the stored text). */
static void ingest_flow_hash_put(ingest_flow *f, int64_t id, uint64_t h)
{
    size_t i = (size_t)id, want = f->nhash ? f->nhash : 1024;

    if (id < 0)
        return;
    if (i >= f->nhash) {
        uint64_t *a;
        unsigned char *k;

        while (want <= i)
            want *= 2;
        if (!(a = realloc(f->hash_of, want * sizeof(*a))))
            return;
        f->hash_of = a;
        if (!(k = realloc(f->hash_known, want)))
            return;
        memset(k + f->nhash, 0, want - f->nhash);
        f->hash_known = k;
        f->nhash = want;
    }
    f->hash_of[i] = h;
    f->hash_known[i] = 1;
}

/* 1 and *h when analysis id's facts hash is known. */
static int ingest_flow_hash_get(const ingest_flow *f, int64_t id, uint64_t *h)
{
    if (id < 0 || (size_t)id >= f->nhash || !f->hash_known[id])
        return 0;
    *h = f->hash_of[id];
    return 1;
}

void ingest_flow_hash_note(ingest_flow *f, int64_t analysis_id, uint64_t hash)
{
    ingest_flow_hash_put(f, analysis_id, hash);
}

/* The record of `path`, made if new; NULL when out of memory. */
static ingest_flow_path *ingest_flow_path_of(ingest_flow *f, const char *path)
{
    size_t len = strlen(path);
    ingest_flow_path *p = pd_map_get(f->paths, path, len);

    if (p)
        return p;
    if (f->npath == f->cappath) {
        size_t cap = f->cappath ? f->cappath * 2 : 256;
        ingest_flow_path **a = realloc(f->path, cap * sizeof(*a));

        if (!a)
            return NULL;
        f->path = a;
        f->cappath = cap;
    }
    if (!(p = calloc(1, sizeof(*p) + len + 1)))
        return NULL;
    memcpy(p->path, path, len + 1);
    if (pd_map_put(f->paths, p->path, len, p) < 0) {
        free(p);
        return NULL;
    }
    f->path[f->npath++] = p;
    return p;
}

/* Forget every path (a new base). */
static void ingest_flow_paths_clear(ingest_flow *f)
{
    size_t i;

    for (i = 0; i < f->npath; i++) {
        pd_map_del(f->paths, f->path[i]->path, strlen(f->path[i]->path));
        free(f->path[i]);
    }
    f->npath = f->nsince = f->since_bytes = 0;
}

/* 1 when `path`'s facts, of hash `facts`, are those it had (and
 * remember them; out of memory: 0, the file is set again). */
static int ingest_flow_same(ingest_flow *f, const char *path, uint64_t facts)
{
    ingest_flow_path *p = ingest_flow_path_of(f, path);
    uint64_t h = facts | 1;                      /* 0 is "not known" */

    if (!p)
        return 0;
    if (p->hash == h)
        return 1;
    p->hash = h;
    return 0;
}

/* `path` now holds analysis `id` (0: gone), of `bytes` of facts, over
 * the kept block.  0 or PD_ENOMEM. */
static int ingest_flow_since_put(ingest_flow *f, const char *path, int64_t id, size_t bytes)
{
    ingest_flow_path *p = ingest_flow_path_of(f, path);

    if (!p)
        return pd_error_nomem(NULL);
    if (p->since) {
        f->since_bytes -= p->bytes;
    } else {
        p->since = 1;
        f->nsince++;
    }
    p->id = id;
    p->bytes = bytes;
    f->since_bytes += bytes;
    return 0;
}

static int ingest_flow_cmp_path(const void *a, const void *b)
{
    return strcmp((*(ingest_flow_path *const *)a)->path, (*(ingest_flow_path *const *)b)->path);
}

/* The kept block's files text (db_flow_graph_name): *files NULL when a
 * path holds a tab or newline, which the text cannot carry (then a new
 * block is written).  0 or PD_ENOMEM. */
static int ingest_flow_since_text(ingest_flow *f, char **files)
{
    ingest_flow_path **v = malloc((f->nsince ? f->nsince : 1) * sizeof(*v));
    size_t i, n = 0;
    pd_buf b;

    *files = NULL;
    if (!v)
        return pd_error_nomem(NULL);
    for (i = 0; i < f->npath; i++)
        if (f->path[i]->since)
            v[n++] = f->path[i];
    qsort(v, n, sizeof(*v), ingest_flow_cmp_path);
    pd_buf_init(&b, 0);
    for (i = 0; i < n && !strpbrk(v[i]->path, "\t\n"); i++)
        pd_buf_printf(&b, "%lld\t%zu\t%s\n", (long long)v[i]->id, v[i]->bytes, v[i]->path);
    free(v);
    if (b.err) {
        pd_buf_free(&b);
        return pd_error_nomem(NULL);
    }
    if (i == n)
        *files = pd_buf_take(&b, NULL);
    pd_buf_free(&b);
    return *files || i < n ? 0 : pd_error_nomem(NULL);
}

/* Read the lines of a kept row's files (db_flow_graph_next) into
 * `since`.  0 or PD_ENOMEM (the list was checked when the row was
 * read). */
static int ingest_flow_since_read(ingest_flow *f, const char *files)
{
    db_flow_graph_line l;
    int rc = 0;

    while (rc == 0 && db_flow_graph_next(&files, &l) > 0) {
        char *path = strndup(l.path, l.path_len);

        if (!path)
            return pd_error_nomem(NULL);
        rc = ingest_flow_since_put(f, path, l.id, l.bytes);
        free(path);
    }
    return rc;
}

int ingest_flow_open(ingest_flow **out, sqlite3 *db, const char *rules_hash, int files_kb)
{
    ingest_flow *f = calloc(1, sizeof(*f));
    int rc;

    *out = NULL;
    if (!f)
        return pd_error_nomem(NULL);
    f->db = db;
    f->rules_hash = rules_hash;
    f->files_max = files_kb < 0 ? -1 : 1024L * (files_kb ? files_kb : INGEST_FLOW_FILES_KB);
    if ((rc = pd_flow_new(&f->g)) < 0 || (rc = db_flow_sets_open(db, &f->sets)) < 0 ||
        !(f->paths = pd_map_new(PD_MAP_SEEDED))) {
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
    ingest_flow_paths_clear(f);
    pd_map_free(f->paths);
    free(f->path);
    db_flow_sets_close(f->sets);
    free(f->set);
    free(f->hash_of);
    free(f->hash_known);
    free(f);
}

/* db_commit_flow callback: one file of the base commit. */
static int ingest_flow_base_file(void *arg, const char *path, int64_t analysis_id,
                                 char *text)
{
    ingest_flow *f = arg;
    uint64_t h = pd_flow_facts_hash(text);
    int rc;

    ingest_flow_hash_put(f, analysis_id, h);
    ingest_flow_same(f, path, h);
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
    f->fresh = 1;
    return 0;
}

/* Reset the graph and the paths seen. */
static int ingest_flow_reset(ingest_flow *f)
{
    int rc;

    pd_flow_free(f->g);
    f->g = NULL;
    f->packed = 0;
    f->graph_id = 0;
    ingest_flow_paths_clear(f);
    memset(f->delta, 0, sizeof(f->delta));
    if ((rc = pd_flow_new(&f->g)) < 0)
        return rc;
    return 0;
}

int ingest_flow_base(ingest_flow *f, int64_t base)
{
    int rc;

    f->base = base;
    f->loaded = base == 0;
    f->fresh = base == 0;        /* the empty tree's set: stored below */
    free(f->set);
    f->set = NULL;
    f->setlen = 0;
    if ((rc = db_flow_sets_of(f->sets, base, f->rules_hash, &f->set_id)) < 0)
        return rc;
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
    pd_flow *g = NULL;
    char *files = NULL;
    int64_t graph_id = 0;
    int rc, s;

    f->loaded = 1;
    /* The graph the run that stored base left, when it kept it packed;
     * else made from the facts of every file (and kept as a new block:
     * graph_id stays 0, so a block that did not read back is never named
     * again). */
    if ((rc = db_flow_graph_read(f->db, f->base, f->rules_hash, &g, &graph_id,
                                 &files)) == 0) {
        pd_flow_free(f->g);
        f->g = g;
        f->packed = 1;
        f->graph_id = graph_id;
        rc = ingest_flow_since_read(f, files);
        free(files);
        if (rc < 0)
            return rc;
    } else if (rc != PD_ENOTFOUND ||
               (rc = db_commit_flow(f->db, f->base, f->rules_hash, ingest_flow_base_file,
                                    f)) < 0) {
        return rc;
    }
    if ((rc = ingest_flow_resolve(f)) < 0)
        return rc;
    for (s = 0; s < PD_OBJ_COUNT; s++)
        totals->obj[s] -= f->delta[s];
    return 0;
}

/* The hash of analysis id's facts (0: none stored or no analysis), from
 * the walk's memory or else the stored text. */
static int ingest_flow_hash_of(ingest_flow *f, int64_t id, uint64_t *h)
{
    char *text = NULL;
    int rc = 0;

    if (ingest_flow_hash_get(f, id, h))
        return 0;
    if (id && (rc = db_analysis_flow(f->db, id, &text)) < 0)
        return rc;
    *h = pd_flow_facts_hash(text);
    ingest_flow_hash_put(f, id, *h);
    free(text);
    return 0;
}

int ingest_flow_file(ingest_flow *f, const char *path, int64_t old_id, int64_t analysis_id,
                     const char *text, int have_text, pd_counts *totals)
{
    ingest_flow_path *known;
    char *stored = NULL;
    uint64_t h = 0;
    int rc = 0;

    if (!analysis_id) {
        text = NULL;
        have_text = 1;
    }
    if (have_text && !ingest_flow_hash_get(f, analysis_id, &h)) {
        h = pd_flow_facts_hash(text);
        ingest_flow_hash_put(f, analysis_id, h);
    }
    if (!f->loaded) {
        uint64_t a;

        if ((rc = ingest_flow_hash_of(f, old_id, &a)) < 0 ||
            (!have_text && (rc = ingest_flow_hash_of(f, analysis_id, &h)) < 0))
            return rc;
        if (a == h)
            return 0;             /* the graph stays base's: no load */
        if ((rc = ingest_flow_load(f, totals)) < 0)
            return rc;
    }
    /* An unpacked graph holds base's version of a path not seen yet: the
     * facts of the analysis this change replaces. */
    known = pd_map_get(f->paths, path, strlen(path));
    if (f->packed && old_id && (!known || !known->hash)) {
        uint64_t a;

        if ((rc = ingest_flow_hash_of(f, old_id, &a)) < 0)
            return rc;
        ingest_flow_same(f, path, a);
    }
    if (!have_text) {
        known = pd_map_get(f->paths, path, strlen(path));
        /* The facts the path already has: nothing to read. */
        if (known && ingest_flow_hash_get(f, analysis_id, &h) && known->hash == (h | 1))
            return 0;
        if ((rc = db_analysis_flow(f->db, analysis_id, &stored)) < 0)
            return rc;
        text = stored;
        h = pd_flow_facts_hash(text);
        ingest_flow_hash_put(f, analysis_id, h);
    }
    if (!ingest_flow_same(f, path, h) &&
        (rc = pd_flow_set_file_text(f->g, pd_flow_path_key(path), path, text,
                                    text ? strlen(text) : 0)) == 0 && f->graph_id)
        rc = ingest_flow_since_put(f, path, analysis_id, text ? strlen(text) : 0);
    free(stored);
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

/* The set of the current graph (resolved), stored when it is not the
 * previous commit's. */
static int ingest_flow_set_of_graph(ingest_flow *f)
{
    pd_buf b;
    int rc;

    pd_buf_init(&b, 0);
    if ((rc = pd_flow_results_encode(f->g, &b)) == 0 &&
        (!f->set_id || !f->set || b.len != f->setlen ||
         memcmp(b.data ? b.data : "", f->set, b.len) != 0)) {
        free(f->set);
        f->set = pd_buf_take(&b, &f->setlen);
        rc = f->set ? db_flow_sets_put(f->sets, f->set, f->setlen, &f->set_id)
                    : pd_error_nomem(NULL);
    }
    pd_buf_free(&b);
    return rc;
}

/* The base's set when it has no row (a database filled before migration
 * 018 could not be, or a rules hash it had not): from its facts. */
static int ingest_flow_set_of_base(ingest_flow *f)
{
    pd_flow *g = NULL;
    pd_buf b;
    int rc;

    if ((rc = db_flow_compute(f->db, f->base, f->rules_hash, &g)) < 0)
        return rc;
    pd_buf_init(&b, 0);
    if ((rc = pd_flow_results_encode(g, &b)) == 0) {
        free(f->set);
        f->set = pd_buf_take(&b, &f->setlen);
        rc = f->set ? db_flow_sets_put(f->sets, f->set, f->setlen, &f->set_id)
                    : pd_error_nomem(NULL);
    }
    pd_buf_free(&b);
    pd_flow_free(g);
    return rc;
}

int ingest_flow_commit(ingest_flow *f, int64_t commit_id)
{
    int rc;

    if (f->loaded && (f->fresh || !f->set_id)) {
        if ((rc = ingest_flow_resolve(f)) < 0 || (rc = ingest_flow_set_of_graph(f)) < 0)
            return rc;
    } else if (!f->set_id && (rc = ingest_flow_set_of_base(f)) < 0) {
        return rc;
    }
    f->fresh = 0;
    return db_flow_sets_commit(f->sets, commit_id, f->rules_hash, f->set_id);
}

int ingest_flow_keep(ingest_flow *f, int64_t commit_id)
{
    char *files = NULL;
    int rc;

    if (!f->loaded) {       /* no file's facts changed: base's, if kept */
        if (commit_id != f->base &&
            db_flow_graph_copy(f->db, f->base, commit_id, f->rules_hash) < 0)
            return PD_EDB;
        return 0;
    }
    /* Read from a kept block and a few files changed since: the block
     * named again with them, not written (750 KB on numpy/core). */
    if (f->graph_id && f->files_max >= 0 && f->since_bytes <= (size_t)f->files_max) {
        if ((rc = ingest_flow_since_text(f, &files)) < 0)
            return rc;
        if (files) {
            rc = db_flow_graph_name(f->db, commit_id, f->rules_hash, f->graph_id, files);
            free(files);
            return rc;
        }
    }
    return db_flow_graph_put(f->db, commit_id, f->rules_hash, f->g);
}
