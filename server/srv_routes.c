/*
 * srv_routes.c: the one route table and its matcher (see srv_routes.h).
 */
#include <stdlib.h>
#include <string.h>

#include "api_badge.h"
#include "api_commit.h"
#include "api_compare.h"
#include "api_file.h"
#include "api_filefns.h"
#include "api_fixes.h"
#include "api_forecast.h"
#include "api_frontier.h"
#include "api_gate.h"
#include "api_history.h"
#include "api_hpyneeds.h"
#include "api_items.h"
#include "api_jobs.h"
#include "api_ops.h"
#include "api_owners.h"
#include "api_plan.h"
#include "api_repo.h"
#include "api_report.h"
#include "api_sarif.h"
#include "api_scope.h"
#include "api_search.h"
#include "api_snapshot.h"
#include "api_symbols.h"
#include "api_traverse.h"
#include "api_triage.h"
#include "pd_error.h"
#include "pd_rev.h"
#include "srv_reply.h"
#include "srv_routes.h"
#include "srv_static.h"
#include "srv_url.h"

static enum MHD_Result srv_routes_list(srv_req *r);

/*
 * The table: one record per route (srv_routes.h), from specific to general
 * (the dashboard's catch-all last).  Columns: method, pattern, handler,
 * token permission, cache policy, request body, OpenAPI operationId, schema of
 * the success answer, summary.
 */
const srv_route srv_routes[] = {
    {"GET", "/api/v1/repos", api_repos, NULL, SRV_CACHE_DB, SRV_BODY_NONE,
     "listRepos", "Repos", "repositories and their refs"},
    {"GET", "/api/v1/repos/{repo}", api_repo_get, NULL, SRV_CACHE_DB, SRV_BODY_NONE,
     "getRepo", "RepoDetail", "what is stored for a repository"},
    {"DELETE", "/api/v1/repos/{repo}", api_repo_delete, "admin", SRV_CACHE_NO, SRV_BODY_NONE,
     "deleteRepo", "RepoDeleted", "remove a repository and its data"},
    {"POST", "/api/v1/repos/{repo}/rename", api_repo_rename, "admin", SRV_CACHE_NO,
     SRV_BODY_SMALL, "renameRepo", "RepoRenamed", "rename a repository"},
    {"GET", "/api/v1/repos/{repo}/missing", api_repo_missing, NULL, SRV_CACHE_DB,
     SRV_BODY_NONE, "listMissingBlobs", "MissingBlobs",
     "objects the clone lacked, per commit and file"},
    {"GET", "/api/v1/repos/{repo}/commits/{rev}",
     api_commit, NULL, SRV_CACHE_COMMIT, SRV_BODY_NONE,
     "getCommit", "Commit", "one commit"},
    {"GET", "/api/v1/repos/{repo}/commits/{rev}/summary",
     api_summary, NULL, SRV_CACHE_COMMIT_LIVE, SRV_BODY_NONE,
     "getCommitSummary", "Summary", "porting totals at a commit"},
    {"GET", "/api/v1/repos/{repo}/commits/{rev}/files",
     api_files, NULL, SRV_CACHE_COMMIT, SRV_BODY_NONE,
     "listCommitFiles", "CommitFiles", "per-file status at a commit"},
    {"GET", "/api/v1/repos/{repo}/commits/{rev}/files/{path...}",
     api_file, NULL, SRV_CACHE_COMMIT_LIVE, SRV_BODY_NONE,
     "getFile", "FileDetail", "functions and findings of one file"},
    {"GET", "/api/v1/repos/{repo}/commits/{rev}/raw/{path...}",
     api_raw, NULL, SRV_CACHE_COMMIT, SRV_BODY_NONE,
     "getFileRaw", NULL, "the file's source at a commit"},
    {"GET", "/api/v1/repos/{repo}/commits/{rev}/file-functions/{path...}",
     api_file_functions, NULL, SRV_CACHE_COMMIT_LIVE, SRV_BODY_NONE,
     "getFileFunctions", "FileFunctions", "one file's functions with their findings counted"},
    {"GET", "/api/v1/repos/{repo}/commits/{rev}/fixes",
     api_fixes, NULL, SRV_CACHE_COMMIT, SRV_BODY_NONE,
     "getFixes", "Fixes",
     "checked HPy rewrites of the commit's files (?path, ?rule, ?function; paged)"},
    {"POST", "/api/v1/repos/{repo}/commits/{rev}/sarif",
     api_sarif_post, "sarif", SRV_CACHE_NO, SRV_BODY_LARGE,
     "uploadSarif", "SarifUpload", "upload a SARIF 2.1.0 log for a commit"},
    {"GET", "/api/v1/repos/{repo}/commits/{rev}/sarif",
     api_sarif_list, NULL, SRV_CACHE_COMMIT_LIVE, SRV_BODY_NONE,
     "listSarifRuns", "SarifRuns", "the SARIF runs stored for a commit"},
    {"GET", "/api/v1/repos/{repo}/compare/{range}",
     api_compare, NULL, SRV_CACHE_DB, SRV_BODY_NONE,
     "compareRevs", "Compare", "what moved between BASE...HEAD"},
    {"GET", "/api/v1/repos/{repo}/commits/{rev}/files.csv",
     api_files_csv, NULL, SRV_CACHE_COMMIT, SRV_BODY_NONE,
     "listCommitFilesCsv", NULL, "per-file status at a commit, as CSV"},
    {"GET", "/api/v1/repos/{repo}/snapshots.csv",
     api_snapshots_csv, NULL, SRV_CACHE_DB, SRV_BODY_NONE,
     "listSnapshotsCsv", NULL, "all weekly snapshots, as CSV"},
    {"GET", "/api/v1/repos/{repo}/snapshots",
     api_snapshots, NULL, SRV_CACHE_DB, SRV_BODY_NONE,
     "listSnapshots", "Snapshots", "weekly snapshots"},
    {"GET", "/api/v1/repos/{repo}/snapshots/{week}",
     api_snapshot_week, NULL, SRV_CACHE_DB, SRV_BODY_NONE,
     "getSnapshot", "SnapshotWeek", "one week's snapshots with per-file status"},
    {"GET", "/api/v1/repos/{repo}/snapshots/{week}/report.md",
     api_report, NULL, SRV_CACHE_DB, SRV_BODY_NONE,
     "getSnapshotReport", NULL, "the dev-call report for a week"},
    {"GET", "/api/v1/measures", api_measures_list, NULL, SRV_CACHE_DB, SRV_BODY_NONE,
     "listMeasures", "Measures",
     "the summary measures: key, label, direction of progress, badge label"},
    {"GET", "/api/v1/repos/{repo}/commits/{rev}/object-items",
     api_object_items, NULL, SRV_CACHE_COMMIT_LIVE, SRV_BODY_NONE,
     "listObjectItems", "ObjectItems",
     "object-array item accesses: PyObject * sites left, HPyField sites"},
    {"GET", "/api/v1/scopes", api_scopes, NULL, SRV_CACHE_DB, SRV_BODY_NONE,
     "listScopes", "Scopes", "the named scopes for ?scope=NAME"},
    {"GET", "/api/v1/repos/{repo}/commits/{rev}/blockers",
     api_blockers, NULL, SRV_CACHE_COMMIT, SRV_BODY_NONE,
     "listBlockers", "Blockers",
     "universal blockers under a scope (default no-object-dtype)"},
    {"GET", "/api/v1/repos/{repo}/commits/{rev}/symbols",
     api_symbols, NULL, SRV_CACHE_COMMIT, SRV_BODY_NONE,
     "listBlockingSymbols", "BlockingSymbols",
     "universal blockers by C API symbol with the HPy replacement"},
    {"GET", "/api/v1/repos/{repo}/commits/{rev}/symbols/{symbol}",
     api_symbol, NULL, SRV_CACHE_COMMIT, SRV_BODY_NONE,
     "getBlockingSymbol", "BlockingSymbol", "the blocking uses of one C API symbol"},
    {"GET", "/api/v1/repos/{repo}/commits/{rev}/search",
     api_search, NULL, SRV_CACHE_COMMIT, SRV_BODY_NONE,
     "searchNames", "SearchResults", "functions and C API names by name"},
    {"GET", "/api/v1/repos/{repo}/commits/{rev}/traverse",
     api_traverse, NULL, SRV_CACHE_COMMIT, SRV_BODY_NONE,
     "getTraverse", "Traverse",
     "traverse coverage: HPy types, their HPyField members and visits"},
    {"GET", "/api/v1/repos/{repo}/commits/{rev}/frontier",
     api_frontier, NULL, SRV_CACHE_COMMIT, SRV_BODY_NONE,
     "getFrontier", "Frontier",
     "what to port next: functions whose in-repository callees are ported"},
    {"GET", "/api/v1/repos/{repo}/commits/{rev}/plan",
     api_plan, NULL, SRV_CACHE_COMMIT, SRV_BODY_NONE, "getPlan", "Plan",
     "a porting order from the call graph: steps callees first, batches, what each unblocks"},
    {"GET", "/api/v1/repos/{repo}/commits/{rev}/owners/{path...}",
     api_owners, NULL, SRV_CACHE_COMMIT, SRV_BODY_NONE, "getOwners", "Owners",
     "who ported each function of a file and who changed it lately"},
    {"GET", "/api/v1/hpy-needs", api_hpy_needs, NULL, SRV_CACHE_DB, SRV_BODY_NONE,
     "getHpyNeeds", "HpyNeeds",
     "C API without an HPy replacement across every port, by functions kept from universal"},
    {"GET", "/api/v1/repos/{repo}/forecast",
     api_forecast, NULL, SRV_CACHE_NO, SRV_BODY_NONE,
     "getForecast", "Forecast",
     "pace of remaining work over weekly snapshots and projected date for zero"},
    {"GET", "/api/v1/repos/{repo}/gate", api_gate, NULL, SRV_CACHE_DB, SRV_BODY_NONE,
     "gateRevs", "Gate", "the ratchet gate between ?base=REV and ?head=REV"},
    {"GET", "/api/v1/repos/{repo}/dismissals",
     api_dismissals, NULL, SRV_CACHE_DB, SRV_BODY_NONE,
     "listDismissals", "Dismissals", "dismissed findings, newest first"},
    {"POST", "/api/v1/repos/{repo}/dismissals",
     api_dismiss, "triage", SRV_CACHE_NO, SRV_BODY_SMALL,
     "dismissFinding", "Dismissal", "dismiss a finding"},
    {"DELETE", "/api/v1/repos/{repo}/dismissals/{id}",
     api_undismiss, "triage", SRV_CACHE_NO, SRV_BODY_NONE,
     "undoDismissal", "DismissalUndone", "undo a dismissal"},
    {"POST", "/api/v1/repos/{repo}/ingest",
     api_ingest_trigger, "ingest", SRV_CACHE_NO, SRV_BODY_SMALL,
     "startIngest", "JobStarted", "ingest new commits in the background"},
    {"GET", "/api/v1/jobs/{id}", api_job, NULL, SRV_CACHE_NO, SRV_BODY_NONE,
     "getJob", "Job", "state and progress of an ingest job"},
    {"GET", "/api/v1/openapi.json", api_openapi, SRV_PUBLIC, SRV_CACHE_DB, SRV_BODY_NONE,
     "getOpenApi", "OpenApiDocument", "this API as OpenAPI 3.1"},
    {"GET", "/api/v1/routes", srv_routes_list, SRV_PUBLIC, SRV_CACHE_NO, SRV_BODY_NONE,
     "listRoutes", "Routes", "this table: every route's method, pattern, token scope and cache"},
    {"GET", "/badge/{repo}/{ref}/{measure}.svg",
     api_badge, NULL, SRV_CACHE_DB, SRV_BODY_NONE,
     "getBadge", NULL, "an SVG badge for READMEs"},
    {"GET", "/healthz", api_healthz, SRV_PUBLIC, SRV_CACHE_NO, SRV_BODY_NONE,
     "getHealth", "Health", "liveness and database check"},
    {"GET", "/metrics", api_metrics, NULL, SRV_CACHE_NO, SRV_BODY_NONE,
     "getMetrics", NULL, "Prometheus metrics"},
    {"GET", "/api/v1/repos/{repo}/refs/{ref}/history",
     api_history, NULL, SRV_CACHE_REF, SRV_BODY_NONE,
     "getRefHistory", "History", "a measure over the ref's first-parent history"},
    {"GET", "/api/v1/repos/{repo}/refs/{ref}/file-history/{path...}",
     api_file_history, NULL, SRV_CACHE_REF, SRV_BODY_NONE,
     "getFileHistory", "History", "a measure over one file's history, following renames"},
    {"GET", "/api/v1/repos/{repo}/refs/{ref}/rewrites",
     api_rewrites, NULL, SRV_CACHE_DB, SRV_BODY_NONE,
     "listRefRewrites", "Rewrites", "rebases and force-pushes recorded for the ref"},
    {"GET", "/vendor/chart.js/{file...}",
     srv_static_chartjs, SRV_PUBLIC, SRV_CACHE_NO, SRV_BODY_NONE,
     NULL, NULL, "the charting library"},
    {"GET", "/vendor/{lib}/{file...}",
     srv_static_vendor, SRV_PUBLIC, SRV_CACHE_NO, SRV_BODY_NONE,
     NULL, NULL, "the report's Markdown renderer and sanitiser, the diff library"},
    {"GET", "/", srv_static_serve, SRV_PUBLIC, SRV_CACHE_NO, SRV_BODY_NONE,
     NULL, NULL, "the dashboard"},
    {"GET", "/{file...}", srv_static_serve, SRV_PUBLIC, SRV_CACHE_NO, SRV_BODY_NONE,
     NULL, NULL, "dashboard files"},
};
const size_t srv_routes_count = sizeof(srv_routes) / sizeof(srv_routes[0]);

/*
 * GET /api/v1/routes: the table itself, for bots and the API reference:
 * what each route needs (token permission, body) and how its answers are cached,
 * joined to the OpenAPI document by operation id.  Not cached: a few KB
 * made from a constant table.
 */
static enum MHD_Result srv_routes_list(srv_req *r)
{
    static const char *const cache[] = {"no", "db", "ref", "commit", "commit-live"};
    static const char *const body[] = {"none", "small", "large"};
    json_t *arr = json_array();
    size_t i;

    for (i = 0; arr && i < srv_routes_count; i++) {
        const srv_route *rt = &srv_routes[i];
        const char *perm = !rt->perm ? "read" : *rt->perm ? rt->perm : "public";

        if (json_array_append_new(arr, json_pack("{s:s, s:s, s:s?, s:s, s:s, s:s, s:s?, s:s}",
                "method", rt->method, "pattern", rt->pattern, "operation", rt->operation,
                "scope", perm, "cache", cache[rt->cache], "body", body[rt->body],
                "schema", rt->schema, "summary", rt->summary)) < 0) {
            json_decref(arr);
            arr = NULL;
        }
    }
    if (!arr)
        return srv_reply_problem(r, 500, "Internal Server Error", "out of memory");
    return srv_reply_json(r, 200, arr);
}

size_t srv_route_max_body(int i, size_t max_body)
{
    switch (srv_routes[i].body) {
    case SRV_BODY_LARGE:
        return max_body;
    case SRV_BODY_SMALL:
        return SRV_SMALL_BODY < max_body ? SRV_SMALL_BODY : max_body;
    default:
        return 0;
    }
}

const char *srv_route_perm(int i)
{
    return srv_routes[i].perm;
}

#define SRV_MAX_SEGMENTS 256

/* Split a raw path into segments (pointers into `path`, not decoded). */
static size_t srv_split(const char *path, const char **seg, size_t *len, size_t max)
{
    size_t n = 0;
    const char *p = path;

    if (*p == '/')
        p++;
    if (!*p)
        return 0;
    while (n < max) {
        const char *slash = strchr(p, '/');

        seg[n] = p;
        len[n] = slash ? (size_t)(slash - p) : strlen(p);
        n++;
        if (!slash)
            break;
        p = slash + 1;
    }
    return n;
}

/*
 * Match one pattern against the split path.  On a match fills r->param and
 * r->tail with decoded copies, listed in `owned` for freeing.  Returns 1 on
 * match, 0 on no match, -1 on a malformed escape, -2 on an empty segment
 * in the rest ({path...}).
 */
static int srv_match(srv_req *r, const char *pattern, const char **seg,
                     const size_t *len, size_t nseg, char **owned, size_t *nowned)
{
    const char *pseg[SRV_MAX_SEGMENTS];
    size_t plen[SRV_MAX_SEGMENTS], np, i, k = 0;

    np = srv_split(pattern, pseg, plen, SRV_MAX_SEGMENTS);
    for (i = 0; i < np; i++) {
        int capture = pseg[i][0] == '{';
        int rest = capture && plen[i] > 5 && memcmp(pseg[i] + plen[i] - 4, "...}", 4) == 0;

        if (i >= nseg)
            return 0;
        if (rest) {
            /* The rest is decoded segment by segment and joined with '/'. */
            size_t j, total = 0, off = 0;
            char *joined;

            for (j = i; j < nseg; j++)
                total += len[j] + 1;
            if (!(joined = malloc(total + 1)))
                return -1;
            owned[(*nowned)++] = joined;
            for (j = i; j < nseg; j++) {
                char *d = srv_percent_decode(seg[j], len[j]);

                /* A decoded '/' (%2F) just joins the path; '..' is the
                 * static handler's to refuse. */
                if (!d)
                    return -1;
                if (!*d) {      /* "files/", "a//b": not a percent-encoding fault */
                    free(d);
                    return -2;
                }
                off += (size_t)snprintf(joined + off, total + 1 - off, "%s%s",
                                        j > i ? "/" : "", d);
                free(d);
            }
            r->tail = joined;
            return 1;
        }
        if (capture) {
            /* "{name}.svg": the segment must end with the literal text after
             * '}', which is not part of the parameter. */
            const char *close = memchr(pseg[i], '}', plen[i]);
            size_t slen = close ? plen[i] - (size_t)(close + 1 - pseg[i]) : 0;
            char *d;

            if (slen && (len[i] <= slen || memcmp(seg[i] + len[i] - slen, close + 1, slen)))
                return 0;
            if (!(d = srv_percent_decode(seg[i], len[i] - slen)))
                return -1;

            owned[(*nowned)++] = d;
            if (!*d || k >= SRV_MAX_PARAMS)
                return 0;
            r->param[k++] = d;
        } else if (plen[i] != len[i] || memcmp(pseg[i], seg[i], len[i]) != 0) {
            return 0;
        }
    }
    return np == nseg;
}

/*
 * pd_rev_check on every {rev} and {ref} capture of route `i` (in order of
 * the captures in r->param): a revision outside the documented grammar is
 * refused before any handler, cache key or body (pd_rev.h).  0 or
 * PD_EINVAL with the rule in the message.
 */
static int srv_routes_check_revs(const srv_req *r, int i)
{
    const char *p = srv_routes[i].pattern;
    int k = 0, rc;

    while ((p = strchr(p, '{')) && k < SRV_MAX_PARAMS) {
        const char *close = strchr(p, '}');

        if (!close || (close - p > 3 && memcmp(close - 3, "...", 3) == 0))
            break;              /* {path...}: the tail, always last */
        if ((strncmp(p, "{rev}", 5) == 0 || strncmp(p, "{ref}", 5) == 0) &&
            r->param[k] && (rc = pd_rev_check(r->param[k])) < 0)
            return rc;
        k++;
        p = close;
    }
    return 0;
}

int srv_routes_find(srv_req *r, const char *method, const char *path, srv_route_hold *h)
{
    const char *seg[SRV_MAX_SEGMENTS];
    size_t len[SRV_MAX_SEGMENTS], nseg, i;
    const char *allow_pattern = NULL;
    int is_get = strcmp(method, "GET") == 0 || strcmp(method, "HEAD") == 0;
    int m = 0;

    memset(h, 0, sizeof(*h));
    nseg = srv_split(path, seg, len, SRV_MAX_SEGMENTS);
    /* More segments than any pattern has: srv_split stopped early, so
     * the rest must not be taken for a shorter path. */
    if (nseg == SRV_MAX_SEGMENTS)
        return SRV_ROUTE_NONE;
    for (i = 0; i < srv_routes_count; i++) {
        const srv_route *rt = &srv_routes[i];
        int same = strcmp(rt->method, method) == 0 ||
                   (is_get && strcmp(rt->method, "GET") == 0);

        r->tail = NULL;
        memset(r->param, 0, sizeof(r->param));
        srv_routes_release(h);
        m = srv_match(r, rt->pattern, seg, len, nseg, h->owned, &h->nowned);
        if (m < 0)
            return m == -2 ? SRV_ROUTE_EMPTY : SRV_ROUTE_BAD;
        /* Routes go from specific to general: once a path matched under
         * another method, a later, more general pattern (the dashboard's
         * catch-all) does not turn the 405 into something else. */
        if (m == 1 && same && allow_pattern && strcmp(rt->pattern, allow_pattern) != 0)
            break;
        if (m == 1 && same) {
            r->route = (int)i;
            return srv_routes_check_revs(r, (int)i) < 0 ? SRV_ROUTE_BADREV : (int)i;
        }
        if (m == 1 && !allow_pattern)
            allow_pattern = rt->pattern;
        /* a GET route answers HEAD too (RFC 9110 9.3.2), so Allow says so */
        if (m == 1 && !strstr(h->allow, rt->method))
            snprintf(h->allow + strlen(h->allow), sizeof(h->allow) - strlen(h->allow),
                     "%s%s%s", h->allow[0] ? ", " : "", rt->method,
                     strcmp(rt->method, "GET") == 0 ? ", HEAD" : "");
    }
    srv_routes_release(h);
    r->tail = NULL;
    memset(r->param, 0, sizeof(r->param));
    return h->allow[0] ? SRV_ROUTE_METHOD : SRV_ROUTE_NONE;
}

void srv_routes_release(srv_route_hold *h)
{
    while (h->nowned)
        free(h->owned[--h->nowned]);
}

enum MHD_Result srv_routes_refuse(srv_req *r, const char *method, int code,
                                  srv_route_hold *h)
{
    if (code == SRV_ROUTE_BAD)
        return srv_reply_problem(r, 400, "Bad Request", "malformed percent-encoding "
                                 "in the request path");
    if (code == SRV_ROUTE_BADREV)
        return srv_reply_problem(r, 400, "Bad Request", "%s", pd_error_last());
    if (code == SRV_ROUTE_EMPTY)
        return srv_reply_problem(r, 400, "Bad Request", SRV_ROUTE_EMPTY_TEXT);
    if (code == SRV_ROUTE_METHOD) {
        r->allow = h->allow;
        return srv_reply_problem(r, 405, "Method Not Allowed", "%s is not allowed "
                                 "here; allowed: %s", method, h->allow);
    }
    return srv_reply_problem(r, 404, "Not Found", "no such resource");
}
