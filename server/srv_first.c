/*
 * srv_first.c: the overview's first-screen answers in its page (see
 * srv_first.h).  Each answer is asked as an internal request (srv_req
 * without a connection, srv_req.args and .sink) through the route table
 * and the answer cache, so it is the very answer the browser would have
 * got, and a warm one costs a cache lookup.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <jansson.h>

#include "pd_error.h"
#include "pd_time.h"
#include "srv_cache.h"
#include "srv_first.h"
#include "srv_routes.h"

/* An answer above this is not embedded: the page asks it as before. */
#define SRV_FIRST_MAX_ANSWER (256 * 1024)
#define SRV_FIRST_DAY_MS 86400000LL

void srv_first_escape(pd_buf *out, const char *s, size_t n)
{
    const char *lt;

    while (n && (lt = memchr(s, '<', n))) {
        pd_buf_put(out, s, (size_t)(lt - s));
        pd_buf_puts(out, "\\u003c");
        n -= (size_t)(lt - s) + 1;
        s = lt + 1;
    }
    pd_buf_put(out, s, n);
}

/* `s` as encodeURIComponent writes it (upper-case hex) into out. */
static void srv_first_seg(pd_buf *out, const char *s)
{
    static const char hex[] = "0123456789ABCDEF";
    const unsigned char *p;

    for (p = (const unsigned char *)s; *p; p++) {
        if ((*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') ||
            strchr("-_.!~*'()", *p))
            pd_buf_put(out, p, 1);
        else
            pd_buf_printf(out, "%%%c%c", hex[*p >> 4], hex[*p & 15]);
    }
}

/* GET `url` (relative: "api/v1/...", its query as sent) as an internal
 * request of parent r: its 200 answer into *sink (the caller frees
 * sink->buf), 0; -1 for any other answer. */
static int srv_first_get(srv_req *parent, const char *url, srv_sink *sink)
{
    srv_req r;
    srv_route_hold hold;
    char *path;
    const char *q = strchr(url, '?');
    int i;

    free(sink->buf);
    sink->buf = NULL;
    sink->len = 0;
    if (asprintf(&path, "/%.*s", (int)(q ? (size_t)(q - url) : strlen(url)), url) < 0)
        return -1;
    memset(&r, 0, sizeof(r));
    r.server = parent->server;
    r.db = parent->db;
    r.method = "GET";
    r.url = path;
    r.route = -1;
    r.args = q ? q + 1 : NULL;
    r.sink = sink;
    i = srv_routes_find(&r, "GET", path, &hold);
    if (i >= 0) {
        r.never_immutable = srv_routes[i].cache == SRV_CACHE_COMMIT_LIVE;
        srv_cache_dispatch(srv_get_cache(r.server), &r, &srv_routes[i]);
    }
    srv_routes_release(&hold);
    free(path);
    return i >= 0 && r.status == 200 && sink->buf ? 0 : -1;
}

/* Ask `url` and write it into the answers object (",URL:ANSWER" after the
 * first); *n counts those written.  The answer stays in *sink. */
static void srv_first_add(srv_req *r, pd_buf *out, const char *url, srv_sink *sink,
                          int *n)
{
    if (srv_first_get(r, url, sink) < 0 || sink->len > SRV_FIRST_MAX_ANSWER)
        return;
    pd_buf_puts(out, *n ? "," : "");
    pd_buf_json_str(out, url);         /* ASCII: its segments are encoded */
    pd_buf_puts(out, ":");
    srv_first_escape(out, sink->buf, sink->len);
    (*n)++;
}

/* 1 when `rev` is a ref of repository `repo` in the repository list `list`
 * (the answer of /api/v1/repos). */
static int srv_first_is_ref(const char *list, const char *repo, const char *rev)
{
    json_t *doc = json_loads(list, 0, NULL), *x, *ref;
    size_t i, j;
    int found = 0;

    json_array_foreach(doc, i, x) {
        if (!json_is_string(json_object_get(x, "name")) ||
            strcmp(json_string_value(json_object_get(x, "name")), repo) != 0)
            continue;
        json_array_foreach(json_object_get(x, "refs"), j, ref)
            found |= json_is_string(json_object_get(ref, "name")) &&
                     strcmp(json_string_value(json_object_get(ref, "name")), rev) == 0;
    }
    json_decref(doc);
    return found;
}

/* The week card's cutoff (static/js/devcall.mjs, weekCard): the tip's
 * date less 7 days, or now's when the tip is newer than 7 days, as
 * "YYYY-MM-DDTHH:MM:SSZ"; -1 when the summary has no date. */
static int srv_first_cutoff(const char *summary, long long now_ms, char *out, size_t n)
{
    json_t *doc = json_loads(summary, 0, NULL);
    const char *d = json_string_value(json_object_get(doc, "committer_date"));
    int64_t tip;
    long long end;
    time_t t;
    struct tm tm;
    int rc = -1;

    if (!d)
        d = json_string_value(json_object_get(doc, "author_date"));
    if (d && pd_parse_date(d, &tip) == 0) {
        end = now_ms - tip * 1000LL > 7 * SRV_FIRST_DAY_MS ? tip * 1000LL : now_ms;
        /* toISOString() less its milliseconds: the second, rounded down. */
        end -= 7 * SRV_FIRST_DAY_MS;
        t = (time_t)(end >= 0 ? end / 1000 : (end - 999) / 1000);
        if (gmtime_r(&t, &tm) && strftime(out, n, "%Y-%m-%dT%H:%M:%SZ", &tm))
            rc = 0;
    }
    json_decref(doc);
    return rc;
}

/* The six week answers devcall.mjs asks (prefetch.js builds the same URLs
 * from "now"; the measures are devcall.mjs's WEEK_MEASURES, in order). */
static void srv_first_week(srv_req *r, pd_buf *out, const char *hist, const char *cutoff,
                           srv_sink *sink, int *n)
{
    static const char *const keys[] = {"universal_ready_files", "functions.ported",
                                        "functions.bridged", "functions.legacy",
                                        "object_paths.object-legacy"};
    char url[1024], cut[64];
    size_t i;

    /* URLSearchParams writes ':' as %3A. */
    snprintf(cut, sizeof(cut), "%.4s-%.2s-%.2sT%.2s%%3A%.2s%%3A%.2sZ", cutoff, cutoff + 5,
             cutoff + 8, cutoff + 11, cutoff + 14, cutoff + 17);
    for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
        snprintf(url, sizeof(url), "%smeasure=%s&date=committer&window=port&until=%s&points=3",
                 hist, keys[i], cut);
        srv_first_add(r, out, url, sink, n);
    }
    snprintf(url, sizeof(url), "%smeasure=functions.ported&date=committer&window=port&since=%s",
             hist, cut);
    srv_first_add(r, out, url, sink, n);
}

int srv_first_block(srv_req *r, pd_buf *out)
{
    char repo[256], rev[256], scope[8], cutoff[32];
    srv_sink sink = {0}, sum = {0}, list = {0};
    pd_buf base, hist;
    struct timespec ts;
    long long now_ms;
    size_t start = out->len;
    int n = 0, rc = srv_query(r, "scope", scope, sizeof(scope));

    srv_cache *cache = srv_get_cache(r->server);
    srv_cache_counts counts = {0};

    if (cache)
        srv_cache_count(cache, &counts);
    /* Under a scope (even one too long to read) the page asks other
     * answers.  Without the cache each page would compute the ten in turn,
     * where the browser asks them side by side. */
    if (r->private_reads || !counts.max_bytes || srv_query(r, "repo", repo, sizeof(repo)) < 0 ||
        srv_query(r, "rev", rev, sizeof(rev)) < 0 || !repo[0] || !rev[0] ||
        (rc != PD_ENOTFOUND && !(rc == 0 && !scope[0])))
        return 0;
    clock_gettime(CLOCK_REALTIME, &ts);
    now_ms = (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
    pd_buf_init(&base, 0);
    pd_buf_init(&hist, 0);
    pd_buf_puts(&base, "api/v1/repos/");
    srv_first_seg(&base, repo);
    pd_buf_puts(&hist, base.data ? base.data : "");
    pd_buf_puts(&base, "/commits/");
    srv_first_seg(&base, rev);
    pd_buf_puts(&hist, "/refs/");
    srv_first_seg(&hist, rev);
    pd_buf_puts(&hist, "/history?");
    pd_buf_printf(out, "<script type=\"application/json\" id=\"pd-first\">{\"now\":%lld,"
                  "\"answers\":{", now_ms);
    if (!base.err && !hist.err) {
        char url[1024];

        srv_first_add(r, out, "api/v1/measures", &sink, &n);
        if (srv_first_get(r, "api/v1/repos", &list) == 0 && list.len <= SRV_FIRST_MAX_ANSWER) {
            pd_buf_puts(out, n++ ? "," : "");
            pd_buf_puts(out, "\"api/v1/repos\":");
            srv_first_escape(out, list.buf, list.len);
        }
        snprintf(url, sizeof(url), "%s/summary", base.data);
        if (srv_first_get(r, url, &sum) == 0) {
            pd_buf_puts(out, n++ ? "," : "");
            pd_buf_json_str(out, url);
            pd_buf_puts(out, ":");
            srv_first_escape(out, sum.buf, sum.len);
            snprintf(url, sizeof(url), "%s/frontier?limit=100000", base.data);
            srv_first_add(r, out, url, &sink, &n);
            if (list.buf && srv_first_is_ref(list.buf, repo, rev) &&
                srv_first_cutoff(sum.buf, now_ms, cutoff, sizeof(cutoff)) == 0)
                srv_first_week(r, out, hist.data, cutoff, &sink, &n);
        }
    }
    pd_buf_puts(out, "}}</script>");
    free(sink.buf);
    free(sum.buf);
    free(list.buf);
    pd_buf_free(&base);
    pd_buf_free(&hist);
    if (out->err)
        return -1;
    if (!n) {
        out->len = start;       /* nothing to embed: the page as it is */
        if (out->data)
            out->data[start] = '\0';
    }
    return 0;
}
