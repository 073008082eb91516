/*
 * api_ops.c: what operators and monitors ask: GET /healthz and GET /metrics.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "api_ops.h"
#include "db.h"
#include "db_analysis.h"
#include "pd_error.h"
#include "srv_cache.h"
#include "srv_db.h"
#include "srv_jobs.h"
#include "srv_metrics.h"
#include "srv_routes.h"

/* Healthy when the file at the database's path is an SQLite database now
 * (read from the file: a connection's cache would not see it overwritten)
 * and a query of it answers (this thread's connection is to that file:
 * srv_db.h opens it again when the file was replaced). */
enum MHD_Result api_healthz(srv_req *r)
{
    if (srv_dbs_check_file(srv_get_dbs(r->server), r->db) < 0 || db_check_readable(r->db) < 0)
        return srv_reply_problem(r, 503, "Service Unavailable", "the database "
                                 "cannot be read: %s", pd_error_last());
    return srv_reply_json(r, 200, json_pack("{s:s}", "status", "ok"));
}

static const char *api_route_method(int i)
{
    return srv_routes[i].method;
}

static const char *api_route_pattern(int i)
{
    return srv_routes[i].pattern;
}

/* Size of a file in bytes, 0 if absent. */
static long long api_file_size(const char *path)
{
    struct stat sb;

    return stat(path, &sb) == 0 ? (long long)sb.st_size : 0;
}

enum MHD_Result api_metrics(srv_req *r)
{
    const char *db = srv_db_path(r->server);
    char wal[4200], *buf = NULL;
    size_t len = 0;
    srv_job_counts jc;
    enum MHD_Result ret;
    FILE *f = open_memstream(&buf, &len);

    if (!f) {
        pd_error_nomem("for the metrics");
        return srv_reply_error(r, PD_ENOMEM);
    }
    snprintf(wal, sizeof(wal), "%s-wal", db);
    srv_metrics_write(srv_get_metrics(r->server), f, api_route_method,
                      api_route_pattern, (int)srv_routes_count);
    srv_jobs_count(srv_get_jobs(r->server), &jc);
    fprintf(f, "# HELP portdash_ingest_jobs Background ingest jobs by state.\n"
            "# TYPE portdash_ingest_jobs gauge\n"
            "portdash_ingest_jobs{state=\"running\"} %d\n"
            "portdash_ingest_jobs{state=\"done\"} %d\n"
            "portdash_ingest_jobs{state=\"failed\"} %d\n"
            "# HELP portdash_database_bytes Size of the database file and its WAL.\n"
            "# TYPE portdash_database_bytes gauge\n"
            "portdash_database_bytes{file=\"db\"} %lld\n"
            "portdash_database_bytes{file=\"wal\"} %lld\n",
            jc.running, jc.done, jc.failed, api_file_size(db), api_file_size(wal));
    srv_cache_metrics_write(srv_get_cache(r->server), f);
    if (fclose(f) != 0) {
        free(buf);
        pd_error_nomem("writing the metrics");
        return srv_reply_error(r, PD_ENOMEM);
    }
    ret = srv_reply_bytes(r, 200, "text/plain; version=0.0.4; charset=utf-8", buf, len);
    free(buf);
    return ret;
}

/* The document embedded from server/openapi.json (see the Makefile). */
extern const char srv_openapi_json[];
extern const unsigned long srv_openapi_json_len;

enum MHD_Result api_openapi(srv_req *r)
{
    return srv_reply_bytes(r, 200, "application/json", srv_openapi_json,
                           srv_openapi_json_len);
}
