/*
 * api_sarif.c: upload and list SARIF runs of a commit (api_sarif.h).  The
 * import itself, shared with `portdash import-sarif`, is sarif/.
 */
#include <stdlib.h>
#include <string.h>

#include "api.h"
#include "api_sarif.h"
#include "pd_error.h"
#include "sarif_import.h"
#include "srv_auth.h"

/* Optional query argument `key` into buf; *set 1 when given.  0, or
 * PD_EINVAL for a malformed one. */
static int api_sarif_arg(srv_req *r, const char *key, char *buf, size_t n, int *set)
{
    int rc = srv_query(r, key, buf, n);

    *set = rc == 0;
    return rc == PD_ENOTFOUND ? 0 : rc;
}

/*
 * A log of which nothing could be kept (sarif_import): 422 (RFC 9110
 * section 15.5.21: the log is well-formed, its content unusable), a problem
 * document with the import's warnings, so a bot does not take it for an
 * upload.
 */
static enum MHD_Result api_sarif_refused(srv_req *r, sarif_import_report *rep)
{
    json_t *doc = json_pack("{s:s, s:s, s:i, s:s, s:O, s:I}", "type", "about:blank",
                            "title", "Unprocessable Content", "status", 422,
                            "detail", pd_error_last(), "warnings", rep->warnings,
                            "warnings_omitted", (json_int_t)rep->warnings_omitted);
    char *text = doc ? json_dumps(doc, JSON_COMPACT) : NULL;
    enum MHD_Result ret;

    json_decref(doc);
    sarif_import_report_free(rep);
    if (!text)
        return srv_reply_problem(r, 500, "Internal Server Error", "out of memory");
    ret = srv_reply_bytes(r, 422, "application/problem+json", text, strlen(text));
    free(text);
    return ret;
}

enum MHD_Result api_sarif_post(srv_req *r)
{
    sarif_import_options opt = {r->param[0], r->param[1], NULL, NULL};
    sarif_import_report *rep = NULL;
    enum MHD_Result ret;
    char checkout[4096], category[1024];
    int rc, too_big = 0, has_checkout, has_category;

    if (srv_authorize(r, "sarif", &ret) < 0)
        return ret;
    if (!r->body || !r->body_len)
        return srv_reply_problem(r, 400, "Bad Request", "the request body is empty; "
                                 "send a SARIF 2.1.0 log");
    if ((rc = api_sarif_arg(r, "checkout_uri", checkout, sizeof(checkout),
                            &has_checkout)) < 0 ||
        (rc = api_sarif_arg(r, "category", category, sizeof(category),
                            &has_category)) < 0)
        return srv_reply_error(r, rc);
    opt.checkout_uri = has_checkout ? checkout : NULL;
    opt.category = has_category ? category : NULL;
    /* A gzip body is inflated as it is read, never whole in memory. */
    rc = sarif_import(&rep, r->db, &opt, r->body, r->body_len, &too_big);
    if (rc < 0 && too_big)
        return srv_reply_problem(r, 413, "Content Too Large", "%s", pd_error_last());
    if (rc < 0 && rep)
        return api_sarif_refused(r, rep);
    if (rc < 0)
        return srv_reply_error(r, rc);
    ret = srv_reply_json(r, 201, sarif_import_report_json(rep));
    sarif_import_report_free(rep);
    return ret;
}

enum MHD_Result api_sarif_list(srv_req *r)
{
    api_at at;
    json_t *runs;
    int rc;

    if ((rc = api_resolve(r, &at)) < 0 ||
        (rc = sarif_runs_json(&runs, r->db, at.commit_id)) < 0)
        return srv_reply_error(r, rc);
    return srv_reply_json(r, 200, json_pack("{s:s, s:o}", "commit", at.oid, "runs", runs));
}
