/*
 * srv_page.c: pagination of long JSON lists with RFC 8288 Link headers.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pd_error.h"
#include "srv_page.h"
#include "srv_reply.h"
#include "srv_req.h"

typedef struct {
    char *buf;
    size_t n;
} srv_page_args;

/* MHD iterator: copy every query argument but page and per_page (raw, as
 * the URL is kept unescaped). */
static enum MHD_Result srv_page_keep(void *cls, enum MHD_ValueKind kind,
                                     const char *key, const char *value)
{
    srv_page_args *a = cls;
    size_t len = strlen(a->buf);

    if (strcmp(key, "page") == 0 || strcmp(key, "per_page") == 0)
        return MHD_YES;
    snprintf(a->buf + len, a->n - len, "%s=%s&", key, value ? value : "");
    return MHD_YES;
}

/* Parse a positive integer argument; 0 when absent. */
static int srv_page_arg(srv_req *r, const char *key, size_t *out)
{
    char buf[32], *end;
    long v;
    int rc = srv_query(r, key, buf, sizeof(buf));

    *out = 0;
    if (rc == PD_ENOTFOUND)
        return 0;
    v = rc == 0 ? strtol(buf, &end, 10) : -1;
    if (rc < 0 || *end || v < 1)
        return pd_error_set(PD_EINVAL, "%s must be a positive integer", key);
    *out = (size_t)v;
    return 0;
}

int srv_page_window(srv_req *r, size_t per_page_default, size_t per_page_max,
                    size_t *page, size_t *per)
{
    if (srv_page_arg(r, "page", page) < 0 || srv_page_arg(r, "per_page", per) < 0)
        return PD_EINVAL;
    *page = *page ? *page : 1;
    *per = *per ? *per : per_page_default;
    if (*per > per_page_max)
        *per = per_page_max;
    /* Keep (page - 1) * per from overflowing. */
    if (*page > ((size_t)1 << 40) / *per)
        return pd_error_set(PD_EINVAL, "page is out of range");
    return 0;
}

void srv_page_link(srv_req *r, size_t page, size_t per, size_t total)
{
    size_t last = total ? (total + per - 1) / per : 1;
    char keep[1024] = "";
    srv_page_args a = {keep, sizeof(keep)};

    if (r->conn)                /* an internal request's Link is not sent */
        MHD_get_connection_values(r->conn, MHD_GET_ARGUMENT_KIND, srv_page_keep, &a);
    snprintf(r->link, sizeof(r->link), "<%s?%spage=1&per_page=%zu>; rel=\"first\", "
             "<%s?%spage=%zu&per_page=%zu>; rel=\"last\"", r->url, keep, per, r->url,
             keep, last, per);
    if (page > 1 && page <= last)
        snprintf(r->link + strlen(r->link), sizeof(r->link) - strlen(r->link),
                 ", <%s?%spage=%zu&per_page=%zu>; rel=\"prev\"", r->url, keep,
                 page - 1, per);
    if (page < last)
        snprintf(r->link + strlen(r->link), sizeof(r->link) - strlen(r->link),
                 ", <%s?%spage=%zu&per_page=%zu>; rel=\"next\"", r->url, keep,
                 page + 1, per);
}

int srv_page_range(srv_req *r, size_t total, size_t per_page_default, size_t *from,
                   size_t *to)
{
    size_t page, per;

    if (srv_page_window(r, per_page_default, per_page_default * 10, &page, &per) < 0)
        return PD_EINVAL;
    if (total <= per && page == 1) {
        *from = 0;
        *to = total;
        return 0;
    }
    *from = (page - 1) * per < total ? (page - 1) * per : total;
    *to = page * per < total ? page * per : total;
    srv_page_link(r, page, per, total);
    return 0;
}

json_t *srv_paginate(srv_req *r, json_t *arr, size_t per_page_default)
{
    size_t from, to, i;
    json_t *out;

    /* The list is built whole before it is cut: a larger page costs the
     * answer's bytes, not more work. */
    if (srv_page_range(r, json_array_size(arr), per_page_default, &from, &to) < 0) {
        json_decref(arr);
        return NULL;
    }
    if (from == 0 && to == json_array_size(arr))
        return arr;
    out = json_array();
    for (i = from; i < to; i++)
        json_array_append(out, json_array_get(arr, i));
    json_decref(arr);
    return out;
}
