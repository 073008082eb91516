/*
 * srv_req.c: what a handler asks of its request and server (srv_req.h):
 * query arguments, a repository's git directory, the server's parts.  A
 * leaf: handlers call it, it calls no handler and not the daemon.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db.h"
#include "db_repo.h"
#include "pd_error.h"
#include "srv_int.h"
#include "srv_req.h"
#include "srv_url.h"

int srv_repo_path(srv_req *r, const char *name, char *buf, size_t n)
{
    srv *s = r->server;
    int64_t id;
    size_t i;

    for (i = 0; i < s->nrepos; i++) {
        if (strcmp(s->repo_names[i], name) == 0) {
            snprintf(buf, n, "%s", s->repo_paths[i]);
            return 0;
        }
    }
    return db_repo_find(r->db, name, &id, buf, n);
}

int srv_sink_keep(srv_req *r, const void *buf, size_t len)
{
    char *copy;

    if (!r->sink || !(copy = malloc(len + 1)))
        return -1;
    memcpy(copy, buf, len);
    copy[len] = '\0';
    free(r->sink->buf);
    r->sink->buf = copy;
    r->sink->len = len;
    return 0;
}

/* The raw value of `key` in an internal request's query string `args`
 * ("k=v&k2=v2", as sent): its start and length, or NULL. */
static const char *srv_args_find(const char *args, const char *key, size_t *vlen)
{
    size_t klen = strlen(key);
    const char *p = args;

    while (p && *p) {
        const char *end = strchr(p, '&');
        size_t n = end ? (size_t)(end - p) : strlen(p);

        if (n >= klen && strncmp(p, key, klen) == 0 && (n == klen || p[klen] == '=')) {
            *vlen = n > klen ? n - klen - 1 : 0;
            return n > klen ? p + klen + 1 : p + n;
        }
        p = end ? end + 1 : NULL;
    }
    return NULL;
}

int srv_query(srv_req *r, const char *key, char *buf, size_t n)
{
    const char *raw;
    size_t rlen = 0;
    char *dec;

    if (r->conn)
        rlen = (raw = MHD_lookup_connection_value(r->conn, MHD_GET_ARGUMENT_KIND, key))
               ? strlen(raw) : 0;
    else
        raw = srv_args_find(r->args, key, &rlen);
    if (!raw)
        return PD_ENOTFOUND;
    /* The URL is kept raw (srv_no_unescape), so arguments are too. */
    if (!(dec = srv_percent_decode(raw, rlen)))
        return pd_error_set(PD_EINVAL, "query argument '%s' is not valid "
                            "percent-encoding", key);
    if (strlen(dec) >= n) {
        free(dec);
        return pd_error_set(PD_EINVAL, "query argument '%s' is too long", key);
    }
    memcpy(buf, dec, strlen(dec) + 1);
    free(dec);
    return 0;
}

const char *srv_static_dir(const srv *s)
{
    return s->static_dir;
}

struct srv_jobs *srv_get_jobs(const srv *s)
{
    return s->jobs;
}

struct srv_cache *srv_get_cache(const srv *s)
{
    return s->cache;
}

struct srv_metrics *srv_get_metrics(const srv *s)
{
    return s->metrics;
}

struct srv_dbs *srv_get_dbs(const srv *s)
{
    return s->dbs;
}

const char *srv_db_path(const srv *s)
{
    return s->db_path;
}

struct api_scope_series *srv_get_series(const srv *s)
{
    return s->series;
}

const struct db_scopes *srv_get_scopes(const srv *s)
{
    return s->scopes;
}

const char *srv_vendor_dir(const srv *s)
{
    return s->vendor_dir;
}
