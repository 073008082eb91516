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
#include "ingest_flow.h"
#include "pd_error.h"
#include "pd_flow.h"

struct ingest_flow {
    sqlite3 *db;
    const char *rules_hash;
    pd_flow *g;
    int64_t delta[PD_OBJ_COUNT];
};

int ingest_flow_open(ingest_flow **out, sqlite3 *db, const char *rules_hash)
{
    ingest_flow *f = calloc(1, sizeof(*f));
    int rc;

    *out = NULL;
    if (!f)
        return pd_error_set(PD_ENOMEM, "out of memory");
    f->db = db;
    f->rules_hash = rules_hash;
    if ((rc = pd_flow_new(&f->g)) < 0) {
        free(f);
        return rc;
    }
    *out = f;
    return 0;
}

void ingest_flow_close(ingest_flow *f)
{
    if (!f)
        return;
    pd_flow_free(f->g);
    free(f);
}

/* db_commit_flow callback: one file of the base commit. */
static int ingest_flow_base_file(void *arg, const char *path, int64_t analysis_id,
                                 char *text)
{
    ingest_flow *f = arg;
    int rc;

    (void)analysis_id;
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

int ingest_flow_base(ingest_flow *f, int64_t base, pd_counts *totals)
{
    int rc, s;

    pd_flow_free(f->g);
    f->g = NULL;
    memset(f->delta, 0, sizeof(f->delta));
    if ((rc = pd_flow_new(&f->g)) < 0)
        return rc;
    if (!base)
        return 0;
    if ((rc = db_commit_flow(f->db, base, f->rules_hash, ingest_flow_base_file, f)) < 0 ||
        (rc = ingest_flow_resolve(f)) < 0)
        return rc;
    for (s = 0; s < PD_OBJ_COUNT; s++)
        totals->obj[s] -= f->delta[s];
    return 0;
}

int ingest_flow_file(ingest_flow *f, const char *path, int64_t analysis_id)
{
    char *text = NULL;
    int rc;

    if (analysis_id && (rc = db_analysis_flow(f->db, analysis_id, &text)) < 0)
        return rc;
    rc = pd_flow_set_file_text(f->g, pd_flow_path_key(path), path, text,
                               text ? strlen(text) : 0);
    free(text);
    return rc;
}

int ingest_flow_totals(ingest_flow *f, const pd_counts *local, pd_counts *out)
{
    int rc, s;

    if ((rc = ingest_flow_resolve(f)) < 0)
        return rc;
    *out = *local;
    for (s = 0; s < PD_OBJ_COUNT; s++)
        out->obj[s] += f->delta[s];
    return 0;
}
