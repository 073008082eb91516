/*
 * srv_page.h: pages of long JSON lists with RFC 8288 Link headers
 * (srv_page.c), for handlers.
 */
#ifndef SRV_PAGE_H
#define SRV_PAGE_H

#include <stddef.h>

#include <jansson.h>

#include "srv_req.h"

/*
 * Cut a JSON array to the page the client asked for (?page=N&per_page=M,
 * 1-based; per_page defaults to `per_page_default`, at most 10 times that),
 * and set the Link header (rel first, prev, next, last, RFC 8288) keeping
 * the request's other query arguments.  Steals `arr`; returns the page, or
 * NULL with pd_error_set(PD_EINVAL) on a bad argument.
 */
json_t *srv_paginate(srv_req *r, json_t *arr, size_t per_page_default);

/*
 * The page the client asked for (?page=N&per_page=M, as srv_paginate) for
 * a handler that pages its lists itself, so that it never holds more than
 * one page: *page (1-based) and *per, per_page cut to `per_page_max` (what
 * one answer of the route may hold in memory; the answer says the per_page
 * it used).  0, or PD_EINVAL (message set).
 */
int srv_page_window(srv_req *r, size_t per_page_default, size_t per_page_max,
                    size_t *page, size_t *per);

/*
 * The items [*from, *to) of a list of `total` that the page the client
 * asked for holds (as srv_paginate cuts it), for a handler that writes
 * its list without a JSON tree; sets the Link header when the list does
 * not fit one page.  0, or PD_EINVAL (message set).
 */
int srv_page_range(srv_req *r, size_t total, size_t per_page_default, size_t *from,
                   size_t *to);

/* Set the Link header (first, prev, next, last) for page `page` of `per`
 * items out of `total`. */
void srv_page_link(srv_req *r, size_t page, size_t per, size_t total);

#endif
