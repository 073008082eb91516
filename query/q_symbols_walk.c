/*
 * q_symbols_walk.c: the walk over the blocking uses of C API symbols at a
 * commit under a scope (q_symbols.h), which the symbol lists, the
 * cross-port view and search share.
 */
#include <stdlib.h>
#include <string.h>

#include "db.h"
#include "db_analysis.h"
#include "db_findings.h"
#include "pd_error.h"
#include "q_symbols.h"

/* A function of the file being walked: what a use inside it reports. */
typedef struct {
    char *name;                  /* NULL when not stored */
    int64_t start_line;
    int object;                  /* on an object path */
} q_sym_fn;

/* One file's walk: its functions, and where its uses go. */
typedef struct {
    const db_scope *sc;
    int guarded_too;             /* guarded uses count too (search) */
    const char *path;
    int64_t seq;
    q_sym_fn *fns;
    size_t nfns, cap;
    q_sym_cb cb;
    void *arg;
    const pd_flow *g;            /* the commit's call graph: object states */
    int64_t key;                 /* the path's key in it */
} q_sym_walk_file;

/* db_analysis_functions callback: one function kept. */
static int q_sym_function(void *arg, const db_fn_brief *f)
{
    q_sym_walk_file *w = arg;
    q_sym_fn *fn;

    if (w->nfns == w->cap) {
        q_sym_fn *p = realloc(w->fns, (w->cap = w->cap ? w->cap * 2 : 32) * sizeof(*p));

        if (!p)
            return pd_error_nomem(NULL);
        w->fns = p;
    }
    fn = &w->fns[w->nfns];
    if (f->name && !(fn->name = strdup(f->name)))
        return pd_error_nomem(NULL);
    if (!f->name)
        fn->name = NULL;
    fn->start_line = f->start_line;
    /* As the scoped summary counts object paths: by the call graph. */
    fn->object = w->g && pd_flow_known(w->g, w->key, w->nfns)
                     ? pd_flow_state(w->g, w->key, w->nfns) != PD_OBJ_NONE
                     : f->object_state != NULL;
    w->nfns++;
    return 0;
}

/* db_findings_each callback: a blocking use (unguarded capi or bridge, not
 * in a function the scope leaves out) reported to the walk's cb. */
static int q_sym_finding(void *arg, const db_finding *f)
{
    q_sym_walk_file *w = arg;
    q_sym_use u = {w->path, f->cls, f->text, f->line, f->column, -1, NULL, 0, w->seq};

    if ((f->guarded && !w->guarded_too) ||
        (strcmp(f->cls, "capi") != 0 && strcmp(f->cls, "bridge") != 0))
        return 0;
    if (f->function >= 0 && (size_t)f->function < w->nfns) {
        const q_sym_fn *fn = &w->fns[f->function];

        if (w->sc->exclude_object_paths && fn->object)
            return 0;
        u.fn = f->function;
        u.fn_name = fn->name;
        u.fn_line = fn->start_line;
    }
    return w->cb(w->arg, &u);
}

/* Report the blocking uses of one file to cb.  An analysis gone meanwhile
 * has no uses. */
static int q_sym_file(sqlite3 *db, const db_scope *sc, int guarded_too, int64_t aid,
                      const char *path, int64_t seq, const pd_flow *g, q_sym_cb cb, void *arg)
{
    q_sym_walk_file w = {sc, guarded_too, path, seq, NULL, 0, 0, cb, arg, g,
                         pd_flow_path_key(path)};
    int rc;

    if ((rc = db_analysis_functions(db, aid, q_sym_function, &w)) == 0 &&
        (rc = db_findings_each(db, aid, q_sym_finding, &w)) == PD_ENOTFOUND)
        rc = 0;
    while (w.nfns)
        free(w.fns[--w.nfns].name);
    free(w.fns);
    return rc;
}

int q_symbols_walk(sqlite3 *db, const q_at *at, const db_scope *sc, int guarded_too,
                   q_sym_cb cb, void *arg)
{
    db_files *files = NULL;
    db_file_row row;
    int64_t seq = 0;
    int rc;

    if ((rc = db_files_open(db, &files, at->commit_id, at->rules_hash)) < 0)
        return rc;
    while ((rc = db_files_next(files, &row)) > 0) {
        if (!row.status || !db_scope_has_path(sc, row.path))
            continue;
        if (pd_universal_ready_rule(pd_classes_present(row.counts.tok)))
            continue;           /* no capi or bridge use at all */
        if ((rc = q_sym_file(db, sc, guarded_too, row.analysis_id, row.path, seq++,
                             db_files_graph(files), cb, arg)))
            break;
    }
    db_files_close(files);
    return rc;
}
