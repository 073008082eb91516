/*
 * api_items.c: GET /api/v1/repos/{repo}/commits/{rev}/object-items: where
 * object-array items are still read as PyObject * and where as HPyField.
 * Once one place treats the buffer as HPyField *, every place must
 * (DOMAIN.md, "Why object dtype is special"): the legacy sites listed here
 * are what must reach zero before the test suite can run in universal mode.
 */
#include <stdlib.h>
#include <string.h>

#include "api.h"
#include "api_items.h"
#include "q_dismissed.h"
#include "db.h"
#include "db_analysis.h"
#include "db_findings.h"
#include "pd_error.h"

/* db_analysis_function_names callback: a name onto the array. */
static int api_items_name(void *arg, const char *name)
{
    json_array_append_new(arg, api_text(name));
    return 0;
}

/* One file's item-access findings being sorted. */
typedef struct {
    const char *path;
    json_t *names;               /* the analysis's function names, idx order */
    json_t *legacy;
    int64_t *fields;
} api_items_file;

/* db_findings_each callback: an object-item-field site counted, an
 * object-item-legacy site listed. */
static int api_items_finding(void *arg, const db_finding *f)
{
    api_items_file *a = arg;

    if (strcmp(f->rule, "object-item-field") == 0)
        (*a->fields)++;
    if (strcmp(f->rule, "object-item-legacy") != 0)
        return 0;
    json_array_append_new(a->legacy, json_pack("{s:o, s:s, s:O, s:I, s:I, s:s, s:o}",
        "path", api_text(a->path), "rule", f->rule,
        "function", f->function >= 0 && (size_t)f->function < json_array_size(a->names)
            ? json_array_get(a->names, (size_t)f->function) : json_null(),
        "line", (json_int_t)f->line, "column", (json_int_t)f->column, "text", f->text,
        "reason", f->reason ? json_string(f->reason) : json_null()));
    return 0;
}

/* The item-access findings of one analysis, sorted into the two lists. */
static int api_items_of(srv_req *r, int64_t analysis_id, const char *path,
                        json_t *legacy, int64_t *fields)
{
    api_items_file a = {path, json_array(), legacy, fields};
    int rc;

    if ((rc = db_analysis_function_names(r->db, analysis_id, api_items_name, a.names)) == 0)
        rc = db_findings_each(r->db, analysis_id, api_items_finding, &a);
    /* No analysis row (deleted meanwhile) is no sites, as before. */
    if (rc == PD_ENOTFOUND)
        rc = 0;
    json_decref(a.names);
    return rc;
}

enum MHD_Result api_object_items(srv_req *r)
{
    db_files *files = NULL;
    db_file_row row;
    api_at at;
    json_t *legacy;
    int64_t fields = 0;
    int rc;

    if ((rc = api_resolve(r, &at)) < 0 ||
        (rc = db_files_open(r->db, &files, at.commit_id, at.rules_hash)) < 0)
        return srv_reply_error(r, rc);
    legacy = json_array();
    while (rc >= 0 && (rc = db_files_next(files, &row)) > 0) {
        const int64_t *obj = row.counts.obj;

        /* Only files with object-dtype paths can hold item accesses. */
        if (!row.analysis_id ||
            obj[PD_OBJ_LEGACY] + obj[PD_OBJ_CPYTHON_ONLY] + obj[PD_OBJ_UNIVERSAL] == 0)
            continue;
        rc = api_items_of(r, row.analysis_id, row.path, legacy, &fields);
    }
    db_files_close(files);
    if (rc < 0) {
        json_decref(legacy);
        return srv_reply_error(r, rc);
    }
    {
        json_t *o = json_pack("{s:s, s:b, s:I, s:I, s:o}", "commit", at.oid,
            "mixed", json_array_size(legacy) > 0 && fields > 0,
            "legacy_site_count", (json_int_t)json_array_size(legacy),
            "field_site_count", (json_int_t)fields, "legacy_sites", legacy);

        /* the sites carry the fingerprints of the file page's findings, so a
         * site dismissed there shows dismissed here ("dismissed_count") */
        if ((rc = q_dismissed_apply(r->db, at.repo_id, o, "legacy_sites", NULL)) < 0) {
            json_decref(o);
            return srv_reply_error(r, rc);
        }
        return srv_reply_json(r, 200, o);
    }
}
