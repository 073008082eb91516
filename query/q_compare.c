/*
 * q_compare.c: what moved between two commits, typed (q_compare.h): the
 * two file lists walked together, each changed path's file entry and its
 * function moves, and the moves of unchanged files through the call graph
 * (the summaries' object paths count them: the list adds up to the delta).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pd_error.h"
#include "q_compare.h"

void q_compare_free(q_compare *c)
{
    size_t i;

    if (!c)
        return;
    for (i = 0; i < c->nfiles; i++)
        free(c->files[i].path);
    free(c->files);
    q_moves_free(&c->functions);
    q_moves_free(&c->regressions);
    free(c);
}

int q_compare_truncated(const q_compare *c)
{
    return c->most && (c->files_total > c->most || c->functions.total > c->most ||
                       c->regressions.total > c->most);
}

/* Fill a side from a file row (NULL row: absent). */
static void q_side_of(q_side *x, const db_file_row *row, int64_t commit_id)
{
    memset(x, 0, sizeof(*x));
    x->commit_id = commit_id;
    if (!row)
        return;
    x->blob = row->blob;
    x->status = row->status ? row->status : "unanalysed";
    x->ready = (int)row->counts.universal_ready_files;
}

/* q_changed_files, and with `graph` also the paths of the same blob whose
 * object states the two commits' call graphs give differ. */
static int q_walk_files(sqlite3 *db, const q_at *base, const q_at *head, int graph,
                        int (*fn)(void *arg, const char *path, const q_side *a,
                                  const q_side *b), void *arg)
{
    db_files *a = NULL, *b = NULL;
    db_file_row xa, xb;
    int ra = 0, rb = 0, rc;

    if ((rc = db_files_open(db, &a, base->commit_id, base->rules_hash)) < 0 ||
        (rc = db_files_open(db, &b, head->commit_id, head->rules_hash)) < 0)
        goto done;
    ra = db_files_next(a, &xa);
    rb = db_files_next(b, &xb);
    /* Both lists are sorted by path: walk them together. */
    while (rc == 0 && ra >= 0 && rb >= 0 && (ra > 0 || rb > 0)) {
        int cmp = ra == 0 ? 1 : rb == 0 ? -1 : strcmp(xa.path, xb.path);
        q_side sa, sb;

        q_side_of(&sa, cmp <= 0 ? &xa : NULL, base->commit_id);
        q_side_of(&sb, cmp >= 0 ? &xb : NULL, head->commit_id);
        if (!sa.blob || !sb.blob || strcmp(sa.blob, sb.blob) != 0 ||
            (graph && pd_flow_file_moved(db_files_graph(a), db_files_graph(b),
                                         pd_flow_path_key(xa.path))))
            rc = fn(arg, cmp <= 0 ? xa.path : xb.path, &sa, &sb);
        if (cmp <= 0)
            ra = db_files_next(a, &xa);
        if (cmp >= 0)
            rb = db_files_next(b, &xb);
    }
    if (rc == 0 && (ra < 0 || rb < 0))
        rc = ra < 0 ? ra : rb;
done:
    db_files_close(a);
    db_files_close(b);
    return rc;
}

int q_changed_files(sqlite3 *db, const q_at *base, const q_at *head,
                    int (*fn)(void *arg, const char *path, const q_side *a,
                              const q_side *b), void *arg)
{
    return q_walk_files(db, base, head, 1, fn, arg);
}

/* A file side from a changed-file side. */
static void q_file_side_of(q_file_side *s, const q_side *x)
{
    memset(s, 0, sizeof(*s));
    if (!x->blob)
        return;
    s->present = 1;
    snprintf(s->status, sizeof(s->status), "%s", x->status);
    s->ready = x->ready != 0;
}

/* Whether two file sides differ. */
static int q_file_side_differ(const q_file_side *a, const q_file_side *b)
{
    if (a->present != b->present)
        return 1;
    return a->present && (strcmp(a->status, b->status) != 0 || a->ready != b->ready);
}

/* What q_compare_path needs. */
typedef struct {
    sqlite3 *db;
    const q_at *head;
    q_compare *c;
} q_compare_walk;

/* Keep a file entry (counted; kept under the cap). */
static int q_compare_file(q_compare *c, const char *path, const q_file_side *from,
                          const q_file_side *to)
{
    q_file_move *m;

    c->files_total++;
    if (c->most && c->nfiles >= c->most)
        return 0;
    if (c->nfiles == c->capfiles) {
        q_file_move *p = realloc(c->files, (c->capfiles = c->capfiles ? c->capfiles * 2 : 16)
                                 * sizeof(*p));

        if (!p)
            return pd_error_nomem(NULL);
        c->files = p;
    }
    m = &c->files[c->nfiles];
    if (!(m->path = strdup(path)))
        return pd_error_nomem(NULL);
    m->from = *from;
    m->to = *to;
    c->nfiles++;
    return 0;
}

/* q_changed_files callback: file entry and function moves of one path. */
static int q_compare_path(void *arg, const char *path, const q_side *a, const q_side *b)
{
    q_compare_walk *w = arg;
    q_file_side from, to;
    int rc;

    q_file_side_of(&from, a);
    q_file_side_of(&to, b);
    if (q_file_side_differ(&from, &to) && (rc = q_compare_file(w->c, path, &from, &to)) < 0)
        return rc;
    return q_diff_file(w->db, w->head->rules_hash, path, a, b, &w->c->functions,
                       &w->c->regressions);
}

int q_compare_get(sqlite3 *db, const q_at *base, const q_at *head,
                  const q_compare_params *p, q_compare **out)
{
    q_compare *c = calloc(1, sizeof(*c));
    q_compare_walk w = {db, head, c};
    int rc;

    *out = NULL;
    if (!c)
        return pd_error_nomem(NULL);
    memcpy(c->base, base->oid, sizeof(c->base));
    memcpy(c->head, head->oid, sizeof(c->head));
    c->most = c->functions.most = c->regressions.most = p ? p->most : 0;
    if ((rc = db_commit_stats(db, base->commit_id, base->rules_hash, &c->base_stats)) < 0 ||
        (rc = db_commit_stats(db, head->commit_id, head->rules_hash, &c->head_stats)) < 0 ||
        (rc = q_walk_files(db, base, head, 1, q_compare_path, &w)) < 0) {
        q_compare_free(c);
        return rc;
    }
    c->delta = c->head_stats;
    db_counts_add(&c->delta, &c->base_stats, -1);
    *out = c;
    return 0;
}
