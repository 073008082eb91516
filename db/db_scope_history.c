/*
 * db_scope_history.c: a scope's totals along a first-parent history
 * (db_scope_history, db_scope.h).
 *
 * The replay keeps each path's figures as ingest keeps the stored totals
 * (a change replaces the path's previous figures), and every point has the
 * figures the scoped summary gives at its commit (db_scope_commit_counts):
 * with the object states of the commit's call graph, not each function's
 * own, since a helper changed in one file moves its callers in others.
 * The graph is read as the commit's stored set (db_flow_set.h): the
 * functions whose state the graph changes, grouped by file.  A path's
 * figures are computed again where the path changes and where the set's
 * lines of its file change; as in db_scope_file_counts_at, a file whose
 * states the graph moves is counted from its functions with those states,
 * any other from its blob's cached figures.  The 14,943 commits of
 * numpy-hpy's hpy (numpy/core) hold about 420 changes of set.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db_flow.h"
#include "db_flow_set.h"
#include "db_measures.h"
#include "db_query.h"
#include "db_scope.h"
#include "pd_error.h"
#include "pd_malloc.h"
#include "pd_flow.h"

/* One path of the replay (index: its path id). */
typedef struct {
    db_counts cur;               /* what it adds to the totals now */
    db_counts full;              /* its analysis' stored figures */
    int64_t aid;                 /* that analysis */
    int64_t key;                 /* pd_flow_path_key of the path */
    int status;                  /* the analysis' status, db_counts.fn index */
    signed char in;              /* 0 not seen yet, 1 in the scope, 2 out */
    unsigned char has;           /* 1: the path has an analysis now */
    unsigned char dirty;         /* on the dirty list */
} db_sh_path;

/* The lines of one file in a set. */
typedef struct {
    int64_t key;
    size_t off, len;
} db_sh_group;

/* A commit's set of call-graph results, its lines grouped by file key. */
typedef struct {
    int64_t id;                  /* its row; -commit id when made from the
                                  * graph (no row); 0: none yet */
    char *text;
    size_t len;
    db_sh_group *g;              /* sorted by key */
    size_t n;
} db_sh_set;

typedef struct {
    sqlite3 *db;
    const db_scope *sc;
    const char *rules_hash;
    db_sh_path *p;
    size_t n;                    /* room for path ids below n */
    int64_t *dirty;              /* paths whose figures are to be computed */
    size_t ndirty, capdirty;
    db_sh_set set;               /* the set the figures were computed with */
    sqlite3_stmt *an;            /* an analysis' functions: flow, figures */
    pd_buf fns;                  /* a file's functions (db_flow_fns_row) */
    db_counts totals;
} db_sh;

/* Make room for path id `id`; 0 or PD_ENOMEM. */
static int db_sh_grow(db_sh *h, int64_t id)
{
    size_t n = h->n;
    db_sh_path *p;

    if ((size_t)id < n)
        return 0;
    while (n <= (size_t)id)
        n = n * 2 + 1024;
    if (!(p = realloc(h->p, n * sizeof(*p))))
        return pd_error_nomem("replaying history");
    memset(p + h->n, 0, (n - h->n) * sizeof(*p));
    h->p = p;
    h->n = n;
    return 0;
}

/* Put path `id` on the dirty list (once); 0 or PD_ENOMEM. */
static int db_sh_dirty(db_sh *h, int64_t id)
{
    if (h->p[id].dirty)
        return 0;
    if (pd_grow((void **)&h->dirty, &h->capdirty, h->ndirty + 1, sizeof(*h->dirty), 256,
                "replaying history") < 0)
        return PD_ENOMEM;
    h->dirty[h->ndirty++] = id;
    h->p[id].dirty = 1;
    return 0;
}

/* Record the change on the current row of the replay statement (columns:
 * 6 path_id, 7 path, 9 analysis id, 10 status (NULL: none), 13.. the
 * analyses' measure columns). */
static int db_sh_change(db_sh *h, sqlite3_stmt *st)
{
    int64_t pid = sqlite3_column_int64(st, 6);
    db_sh_path *p;
    int rc;

    if ((rc = db_sh_grow(h, pid)) < 0)
        return rc;
    p = &h->p[pid];
    if (!p->in) {
        const char *path = (const char *)sqlite3_column_text(st, 7);

        p->in = db_scope_has_path(h->sc, path) ? 1 : 2;
        p->key = pd_flow_path_key(path);
    }
    if (p->in != 1)
        return 0;
    p->has = sqlite3_column_type(st, 10) != SQLITE_NULL;
    if (p->has) {
        db_measure_read(st, 13, DB_M_ANALYSES, &p->full);
        p->status = db_scope_status_index((const char *)sqlite3_column_text(st, 10));
        p->aid = sqlite3_column_int64(st, 9);
    }
    return db_sh_dirty(h, pid);
}

/* ---------- the sets ---------- */

static int db_sh_group_cmp(const void *a, const void *b)
{
    const db_sh_group *x = a, *y = b;

    return x->key < y->key ? -1 : x->key > y->key;
}

/* The group of file `key` in s, or NULL. */
static const db_sh_group *db_sh_group_find(const db_sh_set *s, int64_t key)
{
    db_sh_group k = {key, 0, 0};

    return s->n ? bsearch(&k, s->g, s->n, sizeof(k), db_sh_group_cmp) : NULL;
}

/* Group the lines of s->text by their file key (the first field, 16 hex
 * digits; a file's lines are adjacent: the set is in path order). */
static int db_sh_group_lines(db_sh_set *s)
{
    size_t off = 0, cap = 0;

    while (off < s->len) {
        const char *p = s->text + off, *nl = memchr(p, '\n', s->len - off);
        size_t len = nl ? (size_t)(nl - p) + 1 : s->len - off;
        int64_t key = (int64_t)strtoull(p, NULL, 16);

        if (s->n && s->g[s->n - 1].key == key && s->g[s->n - 1].off + s->g[s->n - 1].len == off) {
            s->g[s->n - 1].len += len;
        } else {
            if (pd_grow((void **)&s->g, &cap, s->n + 1, sizeof(*s->g), 64,
                        "replaying history") < 0)
                return PD_ENOMEM;
            s->g[s->n++] = (db_sh_group){key, off, len};
        }
        off += len;
    }
    if (s->n)
        qsort(s->g, s->n, sizeof(*s->g), db_sh_group_cmp);
    return 0;
}

static void db_sh_set_free(db_sh_set *s)
{
    free(s->text);
    free(s->g);
    memset(s, 0, sizeof(*s));
}

/* The set of commit `commit_id` (its row `set_id`, 0: none, then made
 * from the commit's graph as db_flow_get resolves it) into *s. */
static int db_sh_set_load(db_sh *h, int64_t commit_id, int64_t set_id, db_sh_set *s)
{
    int rc;

    memset(s, 0, sizeof(*s));
    s->id = set_id ? set_id : -commit_id;
    if (set_id) {
        rc = db_flow_set_read(h->db, commit_id, h->rules_hash, &s->text, &s->len);
    } else {
        db_flow *f = NULL;
        pd_buf b;

        pd_buf_init(&b, 0);
        if ((rc = db_flow_get(h->db, commit_id, h->rules_hash, &f)) == 0)
            rc = pd_flow_results_encode(db_flow_graph(f), &b);
        db_flow_release(f);
        s->text = b.data;
        s->len = b.len;
    }
    if (rc == 0)
        rc = db_sh_group_lines(s);
    if (rc < 0)
        db_sh_set_free(s);
    return rc;
}

/* Put on the dirty list every path in the scope whose file has other
 * lines in set b than in set a. */
static int db_sh_set_moved(db_sh *h, const db_sh_set *a, const db_sh_set *b)
{
    int64_t *keys = malloc((a->n + b->n + 1) * sizeof(*keys));
    size_t i = 0, j = 0, n = 0, id;
    int rc = 0;

    if (!keys)
        return pd_error_nomem("replaying history");
    while (i < a->n || j < b->n) {
        const db_sh_group *x = i < a->n ? &a->g[i] : NULL, *y = j < b->n ? &b->g[j] : NULL;

        if (x && (!y || x->key < y->key)) {
            keys[n++] = x->key;
            i++;
        } else if (y && (!x || y->key < x->key)) {
            keys[n++] = y->key;
            j++;
        } else {
            if (x->len != y->len || memcmp(a->text + x->off, b->text + y->off, x->len))
                keys[n++] = x->key;
            i++;
            j++;
        }
    }
    for (id = 0; n && id < h->n && rc == 0; id++) {
        const db_sh_path *p = &h->p[id];
        size_t lo = 0, hi = n;

        if (p->in != 1 || !p->has || p->dirty)
            continue;
        while (lo < hi) {             /* keys are sorted: both sets were */
            size_t mid = (lo + hi) / 2;

            if (keys[mid] < p->key)
                lo = mid + 1;
            else
                hi = mid;
        }
        if (lo < n && keys[lo] == p->key)
            rc = db_sh_dirty(h, (int64_t)id);
    }
    free(keys);
    return rc;
}

/* ---------- the figures at a point ---------- */

/* Read row `aid` of the analyses with h->an: its functions' own bits
 * (into h->fns) and, from column 2, the columns of its scoped figures. */
static int db_sh_analysis(db_sh *h, int64_t aid)
{
    int rc;

    if (!h->an && (rc = db_prepare(h->db, &h->an, "SELECT " DB_FLOW_FNS_COLS ", "
                                   DB_SCOPE_DETAIL_COLS " FROM analyses WHERE id = ?1")) < 0)
        return rc;
    sqlite3_reset(h->an);
    sqlite3_bind_int64(h->an, 1, aid);
    if ((rc = db_step(h->an)) == 0)
        rc = pd_error_set(PD_ENOTFOUND, "no analysis %lld", (long long)aid);
    return rc < 0 ? rc : db_flow_fns_row(h->an, 0, &h->fns);
}

/* Path p's figures under the scope with the set's states for its file:
 * db_scope_file_counts_at's answer, from the set's lines of the file. */
static int db_sh_figures(db_sh *h, const db_sh_path *p, db_counts *out)
{
    const db_sh_group *gr;
    int64_t delta[PD_OBJ_COUNT];
    pd_objstate *states = NULL;
    db_counts full = p->full;
    db_scope_detail d;
    size_t nst = 0, i;
    int rc = 0, k, moved = 0, status = p->status;

    memset(out, 0, sizeof(*out));
    if (!p->has)
        return 0;
    if (p->aid && (gr = db_sh_group_find(&h->set, p->key))) {
        if ((rc = db_sh_analysis(h, p->aid)) < 0 ||
            (rc = pd_flow_results_file_states(h->fns.data, h->fns.len, p->key,
                                              h->set.text + gr->off, gr->len, delta,
                                              &states, &nst)) < 0)
            return rc;
        for (k = 0; k < PD_OBJ_COUNT; k++) {
            full.obj[k] += delta[k];
            moved |= delta[k] != 0;
        }
    }
    if (!moved || !h->sc->exclude_object_paths) {
        rc = db_scope_file_counts(h->db, h->sc, p->aid, &full, status, out, &status);
    } else if ((rc = db_scope_detail_row(h->an, 2, p->aid, 0, &d)) == 0) {
        /* the graph's states belong to the commit: not cached */
        for (i = 0; i < d.nfn && i < nst; i++) {
            d.fn[i].object = states[i];
            d.fn[i].is_object = states[i] != PD_OBJ_NONE;
        }
        rc = db_scope_detail_counts(&d, 1, out, &status);
        db_scope_detail_free(&d);
    }
    free(states);
    return rc;
}

/* Bring the totals to commit `commit_id` (its set row `set_id`, 0: none):
 * the figures of every dirty path and of every path the change of set
 * moved. */
static int db_sh_settle(db_sh *h, int64_t commit_id, int64_t set_id)
{
    db_counts c;
    size_t i;
    int rc;

    if ((set_id ? set_id : -commit_id) != h->set.id) {
        db_sh_set next;

        if ((rc = db_sh_set_load(h, commit_id, set_id, &next)) < 0)
            return rc;
        rc = db_sh_set_moved(h, &h->set, &next);
        db_sh_set_free(&h->set);
        h->set = next;
        if (rc < 0)
            return rc;
    }
    for (i = 0; i < h->ndirty; i++) {
        db_sh_path *p = &h->p[h->dirty[i]];

        if ((rc = db_sh_figures(h, p, &c)) < 0)
            return rc;
        db_counts_add(&h->totals, &p->cur, -1);
        db_counts_add(&h->totals, &c, 1);
        p->cur = c;
        p->dirty = 0;
    }
    h->ndirty = 0;
    return 0;
}

/* ---------- the walk ---------- */

static const char db_scope_history_head[] =
    "WITH RECURSIVE chain(cid, depth) AS (SELECT ?1, 0 UNION ALL "
    "SELECT c.first_parent_id, chain.depth + 1 FROM commits c "
    "JOIN chain ON c.id = chain.cid WHERE c.first_parent_id < c.id) "
    "SELECT c.oid, c.author_time, c.author_offset, c.committer_time, c.committer_offset, "
    "chain.cid, ch.path_id, p.path, ch.blob_oid, coalesce(a.id, 0), a.status, "
    "EXISTS (SELECT 1 FROM commit_stats s WHERE s.commit_id = chain.cid AND "
    "s.rules_hash = ?2), (SELECT f.set_id FROM flow_commits f WHERE "
    "f.commit_id = chain.cid AND f.rules_hash = ?2), ";
static const char db_scope_history_tail[] =
    " FROM chain JOIN commits c ON c.id = chain.cid "
    "LEFT JOIN changes ch ON ch.commit_id = chain.cid "
    "LEFT JOIN paths p ON p.id = ch.path_id "
    "LEFT JOIN analyses a ON a.blob_oid = ch.blob_oid AND a.rules_hash = ?2 "
    "ORDER BY chain.depth DESC";

/* The commit columns (0..4) of the current row. */
static void db_scope_commit_of(sqlite3_stmt *st, db_scope_commit *cm)
{
    snprintf(cm->oid, sizeof(cm->oid), "%s", (const char *)sqlite3_column_text(st, 0));
    cm->author_time = sqlite3_column_int64(st, 1);
    cm->author_offset = sqlite3_column_int(st, 2);
    cm->committer_time = sqlite3_column_int64(st, 3);
    cm->committer_offset = sqlite3_column_int(st, 4);
    cm->id = sqlite3_column_int64(st, 5);
}

/* The point of commit cm (set row set_id): settle, then fn. */
static int db_sh_point(db_sh *h, const db_scope_commit *cm, int64_t set_id,
                       db_scope_commit_fn fn, void *arg)
{
    int rc = db_sh_settle(h, cm->id, set_id);

    return rc < 0 ? rc : fn(arg, cm, &h->totals);
}

int db_scope_history(sqlite3 *db, const db_scope *sc, int64_t tip,
                     const char *rules_hash, db_scope_commit_fn fn, void *arg)
{
    sqlite3_stmt *st = NULL;
    db_sh h;
    db_scope_commit cm;
    int64_t cur = 0, set_id = 0;
    char cols[1024], sql[2048];
    int rc, has_stats = 0, in_tx;

    memset(&h, 0, sizeof(h));
    h.db = db;
    h.sc = sc;
    h.rules_hash = rules_hash;
    pd_buf_init(&h.fns, 0);
    if ((rc = db_measure_list(cols, sizeof(cols), DB_M_ANALYSES, "a.")) < 0)
        return rc;
    snprintf(sql, sizeof(sql), "%s%s%s", db_scope_history_head, cols, db_scope_history_tail);
    if ((rc = db_prepare(db, &st, sql)) < 0)
        return rc;
    sqlite3_bind_int64(st, 1, tip);
    sqlite3_bind_text(st, 2, rules_hash, -1, SQLITE_STATIC);
    in_tx = sqlite3_exec(db, "BEGIN", NULL, NULL, NULL) == SQLITE_OK;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        int64_t cid = sqlite3_column_int64(st, 5);

        if (cid != cur) {
            /* The rows of one commit are adjacent: the previous one is done. */
            if (cur && has_stats && (rc = db_sh_point(&h, &cm, set_id, fn, arg)) != 0)
                goto done;
            cur = cid;
            db_scope_commit_of(st, &cm);
            has_stats = sqlite3_column_int(st, 11);
            set_id = sqlite3_column_int64(st, 12);      /* NULL: 0, no set */
        }
        if (sqlite3_column_type(st, 6) != SQLITE_NULL && (rc = db_sh_change(&h, st)) < 0)
            goto done;
    }
    if (rc != SQLITE_DONE) {
        rc = pd_error_set(PD_EDB, "database: %s", sqlite3_errmsg(db));
        goto done;
    }
    rc = cur && has_stats ? db_sh_point(&h, &cm, set_id, fn, arg) : 0;
done:
    sqlite3_finalize(st);
    sqlite3_finalize(h.an);
    if (in_tx)
        sqlite3_exec(db, "COMMIT", NULL, NULL, NULL);
    free(h.p);
    free(h.dirty);
    db_sh_set_free(&h.set);
    pd_buf_free(&h.fns);
    return rc;
}
