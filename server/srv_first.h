/*
 * srv_first.h: the overview's first-screen answers, embedded in the page
 * that asks for them (issue 26.4).
 *
 * The overview (static/index.html?repo=R&rev=REV) needs ten API answers
 * before its first screen (the measures, the repository list, the summary,
 * the frontier and six histories of the week card, whose cutoff depends on
 * the summary's date), and over HTTP/1.1 a browser asks them six at a time,
 * behind the page's modules, in two rounds.  The server asks them itself,
 * through the route table and the answer cache (the same bytes a browser
 * would get, computed once), and writes them into the page as one
 * <script type="application/json" id="pd-first"> element, which
 * static/js/prefetch.js reads before it fetches anything.
 */
#ifndef SRV_FIRST_H
#define SRV_FIRST_H

#include <stddef.h>

#include "pd_buf.h"
#include "srv_req.h"

/* The comment in index.html that the element replaces; a page without it
 * is served as it is. */
#define SRV_FIRST_MARK "<!--pd:first-screen-->"

/*
 * Append to `out` the element for request r (the page's own request, its
 * query arguments repo, rev and scope): {"now": the server's time in ms,
 * "answers": {URL: answer, ...}}, each URL as the page asks it (relative,
 * segments encoded as encodeURIComponent and arguments as URLSearchParams
 * write them), each answer a 200 answer's JSON as the API sends it.  Every
 * '<' in it is written as \u003c, so that no text of the repository (a
 * commit message with "</script>" or "<!--") can end the element or
 * change how the HTML parser reads it.  Appends nothing (and returns 0)
 * when the page names no repo and rev, names a scope, when reads need a
 * token (serve --private: the page is public, the answers are not), or
 * when the answer cache is off (serve --cache-mb 0: each page would
 * compute them one after the other), or when no answer was 200.  An
 * answer over 256 KiB is left out (the page
 * asks it).  -1 when out of memory (out holds the error).
 */
int srv_first_block(srv_req *r, pd_buf *out);

/*
 * Append the string `s` (n bytes) to out with every '<' written as \u003c
 * (valid inside and outside JSON strings of a JSON text, since '<' only
 * occurs inside strings): the escaping of the embedded element.
 */
void srv_first_escape(pd_buf *out, const char *s, size_t n);

#endif
