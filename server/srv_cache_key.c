/*
 * srv_cache_key.c: the keys of the answer cache (see srv_cache_key.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db.h"
#include "db_cache.h"
#include "pd_buf.h"
#include "pd_error.h"
#include "srv_cache_key.h"

typedef struct {
    char **v;
    size_t n, cap;
    int failed;              /* out of memory: the key would be incomplete */
} srv_cache_args;

static enum MHD_Result srv_cache_arg(void *cls, enum MHD_ValueKind kind, const char *key,
                                     const char *value)
{
    srv_cache_args *a = cls;
    char **v;

    if (a->n == a->cap) {
        if (!(v = realloc(a->v, (a->cap ? a->cap * 2 : 8) * sizeof(*v)))) {
            a->failed = 1;
            return MHD_NO;
        }
        a->v = v;
        a->cap = a->cap ? a->cap * 2 : 8;
    }
    /* Length-prefixed, so that no two argument lists join the same way. */
    if (asprintf(&a->v[a->n], "%zu:%s=%zu:%s", strlen(key), key,
                 value ? strlen(value) : 0, value ? value : "") < 0) {
        a->failed = 1;
        return MHD_NO;
    }
    a->n++;
    return MHD_YES;
}

/* The arguments of an internal request (no connection): its raw query
 * string r->args, split as libmicrohttpd splits a sent one (raw values,
 * srv_no_unescape). */
static int srv_cache_args_of(const char *args, srv_cache_args *a)
{
    const char *p = args;

    while (p && *p) {
        const char *end = strchr(p, '&'), *eq;
        size_t n = end ? (size_t)(end - p) : strlen(p);
        char *pair = strndup(p, n);

        if (!pair)
            return -1;
        if ((eq = strchr(pair, '=')))
            pair[eq - pair] = '\0';
        if (n && srv_cache_arg(a, MHD_GET_ARGUMENT_KIND, pair, eq ? pair + (eq - pair) + 1 : NULL)
                 != MHD_YES) {
            free(pair);
            return -1;
        }
        free(pair);
        p = end ? end + 1 : NULL;
    }
    return 0;
}

static int srv_cache_strcmp(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * The request key: route, captures (param[1] replaced by `rev` when not
 * NULL), tail and the sorted query arguments.  malloc'd, or NULL (out of
 * memory: the request is then answered uncached).
 */
char *srv_cache_key(srv_req *r, const char *rev, size_t *len)
{
    srv_cache_args a = {0};
    pd_buf b;
    size_t i;

    pd_buf_init(&b, 0);
    pd_buf_printf(&b, "%d", r->route);
    for (i = 0; i < SRV_MAX_PARAMS && r->param[i]; i++) {
        const char *p = i == 1 && rev ? rev : r->param[i];

        pd_buf_printf(&b, "|%zu:%s", strlen(p), p);
    }
    if (r->tail)
        pd_buf_printf(&b, "|t%zu:%s", strlen(r->tail), r->tail);
    if ((r->conn ? MHD_get_connection_values(r->conn, MHD_GET_ARGUMENT_KIND, srv_cache_arg, &a)
         : srv_cache_args_of(r->args, &a)) < 0 || a.failed)
        b.err = PD_ENOMEM;
    if (a.n)
        qsort(a.v, a.n, sizeof(*a.v), srv_cache_strcmp);
    for (i = 0; i < a.n; i++) {
        pd_buf_printf(&b, "&%s", a.v[i]);
        free(a.v[i]);
    }
    free(a.v);
    return pd_buf_take(&b, len);
}

/* The data key of a request (see srv_cache_key.h). */
int srv_cache_data_key(srv_req *r, srv_cache_policy cls, uint64_t epoch,
                              char *oid, char *dkey, size_t n)
{
    char rules[96], fill[24] = "0";
    int64_t repo_id, commit_id;
    db_commit_gen g;
    int rc;

    if (cls == SRV_CACHE_DB) {
        snprintf(dkey, n, "g:%llu", (unsigned long long)epoch);
        return 0;
    }
    if ((rc = db_meta_get(r->db, "rules_hash", rules, sizeof(rules))) < 0 ||
        ((rc = db_meta_get(r->db, "fill_generation", fill, sizeof(fill))) < 0 &&
         rc != PD_ENOTFOUND) ||
        (rc = db_repo_find(r->db, r->param[0], &repo_id, NULL, 0)) < 0 ||
        (rc = db_rev_resolve(r->db, repo_id, r->param[1], &commit_id, oid)) < 0)
        return rc;
    /* Summaries of a commit change when blobs a clone lacked arrive
     * (ingest_missing.h): each refill raises the fill generation. */
    snprintf(rules + strlen(rules), sizeof(rules) - strlen(rules), "+%s", fill);
    if (cls == SRV_CACHE_REF) {
        snprintf(dkey, n, "r:%s:%s", oid, rules);
        return 0;
    }
    /* SARIF runs and dismissals mark findings in every answer about the
     * commit: their generations are part of its key. */
    if ((rc = db_commit_generation(r->db, repo_id, commit_id, &g)) < 0)
        return rc;
    snprintf(dkey, n, "c:%s:%s:%lld:%lld:%lld:%lld", oid, rules, (long long)g.sarif_gen,
             (long long)g.sarif_runs, (long long)g.sarif_last, (long long)g.dismissal_gen);
    return 0;
}

/* 1 when `s` is a full commit id as the database stores them. */
int srv_cache_is_oid(const char *s)
{
    size_t i;

    for (i = 0; i < 40; i++)
        if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f')))
            return 0;
    return s[40] == '\0';
}

/* The raw URL with its segment number `seg` (0: the one after the first
 * '/') replaced by `oid`; malloc'd, or NULL. */
char *srv_cache_url_with(const char *url, int seg, const char *oid)
{
    const char *start = url + (*url == '/'), *end;
    char *out = NULL;

    for (; seg > 0; seg--) {
        if (!(start = strchr(start, '/')))
            return NULL;
        start++;
    }
    end = start + strcspn(start, "/");
    if (asprintf(&out, "%.*s%s%s", (int)(start - url), url, oid, end) < 0)
        return NULL;
    return out;
}

/* The segment number of {rev} in a route pattern. */
int srv_cache_rev_segment(const char *pattern)
{
    const char *at = strstr(pattern, "/{rev}"), *p;
    int n = 0;

    for (p = pattern + 1; p < at; p++)
        n += *p == '/';
    return n + 1;
}
