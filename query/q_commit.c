/*
 * q_commit.c: one commit, typed (q_commit.h): metadata, figures, a page of
 * its changed files with their function moves, same patch elsewhere.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pd_error.h"
#include "q_commit.h"

void q_commit_free(q_commit *c)
{
    size_t i;

    if (!c)
        return;
    db_commit_free(&c->meta);
    for (i = 0; i < c->nfiles; i++) {
        free(c->files[i].path);
        free(c->files[i].old_path);
    }
    free(c->files);
    q_moves_free(&c->functions);
    for (i = 0; i < c->nsame; i++)
        free(c->same_patch[i].summary);
    free(c->same_patch);
    free(c);
}

/* Room for one more changed file. */
static q_change *q_commit_file_slot(q_commit *c)
{
    if (c->nfiles == c->capfiles) {
        q_change *p = realloc(c->files, (c->capfiles = c->capfiles ? c->capfiles * 2 : 16)
                              * sizeof(*p));

        if (!p)
            return NULL;
        c->files = p;
    }
    memset(&c->files[c->nfiles], 0, sizeof(q_change));
    return &c->files[c->nfiles++];
}

/* What q_commit_change needs besides the change. */
typedef struct {
    sqlite3 *db;
    const q_at *at;
    q_commit *c;
} q_commit_walk;

/* db_commit_changes callback: one changed file and its function moves. */
static int q_commit_change(void *arg, const db_change *ch)
{
    q_commit_walk *w = arg;
    int64_t parent = w->c->meta.first_parent_id;
    char from[41] = "";
    q_change *f;
    int rc;

    /* Not in the parent: added; a failed read is an error, not "added". */
    if (parent && (rc = db_commit_file_blob(w->db, parent,
                                            ch->old_path ? ch->old_path : ch->path,
                                            from)) < 0) {
        if (rc != PD_ENOTFOUND)
            return rc;
        from[0] = '\0';
    }
    if (!(f = q_commit_file_slot(w->c)))
        return pd_error_nomem(NULL);
    f->change = !ch->blob ? "deleted" : ch->old_path ? "renamed"
              : from[0] ? "modified" : "added";
    memcpy(f->from_blob, from, sizeof(from));
    snprintf(f->to_blob, sizeof(f->to_blob), "%s", ch->blob ? ch->blob : "");
    if (!(f->path = strdup(ch->path)) ||
        (ch->old_path && !(f->old_path = strdup(ch->old_path))))
        return pd_error_nomem(NULL);
    {
        q_side sa = {from[0] ? from : NULL, NULL, 0, parent};
        q_side sb = {ch->blob, NULL, 0, w->at->commit_id};

        return q_diff_file(w->db, w->at->rules_hash, ch->path, &sa, &sb,
                           &w->c->functions, NULL);
    }
}

/* db_same_patch callback: one commit kept. */
static int q_commit_same(void *arg, const char *oid, const char *summary)
{
    q_commit *c = arg;
    q_same *s;

    if (c->nsame == c->capsame) {
        q_same *p = realloc(c->same_patch, (c->capsame = c->capsame ? c->capsame * 2 : 4)
                            * sizeof(*p));

        if (!p)
            return pd_error_nomem(NULL);
        c->same_patch = p;
    }
    s = &c->same_patch[c->nsame];
    snprintf(s->oid, sizeof(s->oid), "%s", oid);
    if ((s->summary = summary ? strdup(summary) : NULL) == NULL && summary)
        return pd_error_nomem(NULL);
    c->nsame++;
    return 0;
}

/* The figures: the commit's, and the move against its first parent. */
static int q_commit_figures(sqlite3 *db, const q_at *at, q_commit *c)
{
    db_counts before;
    int rc;

    memset(&before, 0, sizeof(before));
    if ((rc = db_commit_stats(db, at->commit_id, at->rules_hash, &c->stats)) < 0 ||
        (rc = db_commit_get(db, at->commit_id, &c->meta)) < 0 ||
        (c->meta.first_parent_id &&
         (rc = db_commit_stats(db, c->meta.first_parent_id, at->rules_hash, &before)) < 0))
        return rc;
    c->delta = c->stats;
    db_counts_add(&c->delta, &before, -1);
    return 0;
}

int q_commit_get(sqlite3 *db, const q_at *at, const q_commit_params *p, q_commit **out)
{
    q_commit *c = calloc(1, sizeof(*c));
    q_commit_walk w = {db, at, c};
    int rc;

    *out = NULL;
    if (!c)
        return pd_error_nomem(NULL);
    memcpy(c->oid, at->oid, sizeof(c->oid));
    c->page = p ? p->page : 1;
    c->per = p ? p->per : Q_COMMIT_PER_PAGE;
    if ((rc = q_commit_figures(db, at, c)) < 0 ||
        (rc = db_commit_changes(db, at->commit_id, (c->page - 1) * c->per, c->per,
                                q_commit_change, &w)) < 0 ||
        (rc = db_commit_changes_count(db, at->commit_id, &c->files_total)) < 0 ||
        (rc = db_same_patch(db, at->repo_id, c->meta.patch_id, at->commit_id,
                            q_commit_same, c)) < 0) {
        q_commit_free(c);
        return rc;
    }
    *out = c;
    return 0;
}
