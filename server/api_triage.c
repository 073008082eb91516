/*
 * api_triage.c: dismissing findings over the API (api_triage.h).  A
 * dismissal is checked against the finding it names (the file at the rev
 * must have a finding with that fingerprint) and records who, by the name
 * of the token that asked.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api_triage.h"
#include "db.h"
#include "db_token.h"
#include "db_triage.h"
#include "pd_error.h"
#include "q_file.h"
#include "srv_auth.h"

/* Move the dismissed findings of `findings` from their tool's results
 * and level counts in `tools` to its "dismissed" count. */
static size_t api_triage_uncount(json_t *findings, json_t *tools)
{
    json_t *f, *t;
    size_t i, n = 0;

    json_array_foreach(findings, i, f) {
        const char *tool = json_string_value(json_object_get(f, "tool"));
        const char *level = json_string_value(json_object_get(f, "level"));

        if (!json_is_object(json_object_get(f, "dismissed")) || !tool ||
            !(t = json_object_get(tools, tool)))
            continue;
        json_object_set_new(t, "results", json_integer(
            json_integer_value(json_object_get(t, "results")) - 1));
        if (level && json_is_integer(json_object_get(t, level)))
            json_object_set_new(t, level, json_integer(
                json_integer_value(json_object_get(t, level)) - 1));
        json_object_set_new(t, "dismissed", json_integer(
            json_integer_value(json_object_get(t, "dismissed")) + 1));
        n++;
    }
    return n;
}

int api_triage_summary(sqlite3 *db, const api_at *at, const db_scope *sc, json_t *tools,
                       size_t *ndismissed)
{
    json_t *paths = NULL, *p, *t;
    q_file *doc = NULL;
    const char *key;
    size_t i;
    int rc;

    *ndismissed = 0;
    json_object_foreach(tools, key, t)
        json_object_set_new(t, "dismissed", json_integer(0));
    if ((rc = db_triage_paths(db, at->repo_id, &paths)) < 0)
        return rc;
    json_array_foreach(paths, i, p) {
        const char *path = json_string_value(p);

        if (sc && !db_scope_has_path(sc, path))
            continue;
        rc = q_file_get(db, at, path, NULL, NULL, &doc);
        if (rc == PD_ENOTFOUND)
            continue;            /* not in this commit: nothing to leave out */
        if (rc < 0)
            break;
        *ndismissed += api_triage_uncount(doc->findings, tools);
        q_file_free(doc);
    }
    json_decref(paths);
    return rc == PD_ENOTFOUND ? 0 : rc < 0 ? rc : 0;
}

/* The name of the request's (already authorised) token into by ("?" when
 * it has none by now).  0, or PD_EDB: a name that could not be read is
 * not recorded as "?". */
static int api_triage_who(srv_req *r, char *by, size_t n)
{
    const char *h = MHD_lookup_connection_value(r->conn, MHD_HEADER_KIND,
                                                MHD_HTTP_HEADER_AUTHORIZATION);
    int rc = h ? db_token_name(r->db, h + 7, by, n) : PD_ENOTFOUND;

    if (rc == PD_ENOTFOUND)
        snprintf(by, n, "?");
    return rc == PD_ENOTFOUND ? 0 : rc;
}

/* A string member of the body, NULL when absent or not a string. */
static const char *api_triage_str(json_t *body, const char *key)
{
    return json_string_value(json_object_get(body, key));
}

int api_triage_dismiss(sqlite3 *db, const char *repo, const char *rev, const char *path,
                       const char *fp, const char *reason, const char *comment,
                       const char *by, json_t **out)
{
    json_t *f = NULL, *x;
    q_file *doc = NULL;
    api_at at;
    size_t i;
    int rc;

    *out = NULL;
    if (!db_triage_reason_ok(reason))
        return pd_error_set(PD_EINVAL, "reason must be one of %s", DB_TRIAGE_REASONS);
    rc = api_resolve_at(db, repo, rev, &at);
    if (rc == 0)
        rc = q_file_get(db, &at, path, NULL, NULL, &doc);
    json_array_foreach(doc ? doc->findings : NULL, i, x)
        if (!f && strcmp(json_string_value(json_object_get(x, "fingerprint")), fp) == 0)
            f = x;
    if (rc == 0 && !f)
        rc = pd_error_set(PD_ENOTFOUND, "%s at %s has no finding with fingerprint %s",
                          path, rev, fp);
    if (rc == 0) {
        json_object_set_new(f, "path", json_string(path));
        rc = db_triage_dismiss(db, at.repo_id, at.oid, f, reason, comment, by, out);
    }
    q_file_free(doc);
    return rc;
}

/* The first key of body that a dismissal does not take, NULL when none: a
 * misspelt "coment" was dropped, and the dismissal that replaced an
 * earlier one lost its comment. */
static const char *api_triage_stray_key(json_t *body)
{
    static const char *const keys[] = {"rev", "path", "fingerprint", "reason", "comment"};
    const char *k;
    json_t *v;
    size_t i;

    json_object_foreach(body, k, v) {
        for (i = 0; i < sizeof(keys) / sizeof(*keys) && strcmp(k, keys[i]) != 0; i++)
            ;
        if (i == sizeof(keys) / sizeof(*keys))
            return k;
    }
    return NULL;
}

enum MHD_Result api_dismiss(srv_req *r)
{
    json_t *body = r->body ? json_loadb(r->body, r->body_len, 0, NULL) : NULL;
    json_t *out = NULL;
    const char *rev = api_triage_str(body, "rev"), *path = api_triage_str(body, "path");
    const char *fp = api_triage_str(body, "fingerprint");
    const char *reason = api_triage_str(body, "reason");
    const char *comment = api_triage_str(body, "comment");
    char by[128];
    enum MHD_Result ret;
    int rc;

    if (srv_authorize(r, "triage", &ret) < 0) {
        json_decref(body);
        return ret;
    }
    if (!rev || !path || !fp || !reason || (json_object_get(body, "comment") && !comment) ||
        (comment && strlen(comment) > 4000)) {
        json_decref(body);
        return srv_reply_problem(r, 400, "Bad Request", "the body is {\"rev\", \"path\", "
                                 "\"fingerprint\", \"reason\": one of %s, \"comment\"} "
                                 "(comment at most 4000 bytes)", DB_TRIAGE_REASONS);
    }
    if (api_triage_stray_key(body)) {
        ret = srv_reply_problem(r, 400, "Bad Request", "unknown key \"%s\" in the body "
                                "(keys: rev, path, fingerprint, reason, comment)",
                                api_triage_stray_key(body));
        json_decref(body);
        return ret;
    }
    if ((rc = api_triage_who(r, by, sizeof(by))) == 0)
        rc = api_triage_dismiss(r->db, r->param[0], rev, path, fp, reason, comment, by,
                                &out);
    json_decref(body);
    return rc < 0 ? srv_reply_error(r, rc) : srv_reply_json(r, 201, out);
}

enum MHD_Result api_dismissals(srv_req *r)
{
    int64_t repo_id;
    json_t *list;
    int rc;

    if ((rc = db_repo_find(r->db, r->param[0], &repo_id, NULL, 0)) < 0 ||
        (rc = db_triage_list(r->db, repo_id, &list)) < 0)
        return srv_reply_error(r, rc);
    return srv_reply_json(r, 200, json_pack("{s:o}", "dismissals", list));
}

enum MHD_Result api_undismiss(srv_req *r)
{
    enum MHD_Result ret;
    int64_t repo_id;
    char *end;
    long long id = strtoll(r->param[1], &end, 10);
    int rc;

    if (srv_authorize(r, "triage", &ret) < 0)
        return ret;
    if (*end || id <= 0)
        return srv_reply_problem(r, 404, "Not Found", "no dismissal '%s'", r->param[1]);
    if ((rc = db_repo_find(r->db, r->param[0], &repo_id, NULL, 0)) < 0 ||
        (rc = db_triage_undo(r->db, repo_id, id)) < 0)
        return srv_reply_error(r, rc);
    return srv_reply_json(r, 200, json_pack("{s:I}", "deleted", (json_int_t)id));
}
