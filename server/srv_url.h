/*
 * srv_url.h: what a request target and its Host are, decided in one place
 * for the router, the --private check and the Host check alike.  Pure
 * functions over strings (the HTTP fuzz target calls them directly).
 */
#ifndef SRV_URL_H
#define SRV_URL_H

#include <stddef.h>

/*
 * The path of request target `target` (RFC 9112 section 3.2): origin-form
 * ("/a/b?q") gives itself; absolute-form ("http://host:port/a/b") gives the
 * part from the first '/' after the authority ("/" when there is none) and
 * the authority in `authority` (size n, "" for origin-form).  The query is
 * not part of the path: *path_len stops before '?' (or '#').  Returns 0, or
 * -1 for anything else (no leading '/', asterisk-form, an authority longer
 * than n, a NUL or control byte), which the server answers with 400.
 */
int srv_url_target(const char *target, const char **path, size_t *path_len,
                   char *authority, size_t n);

/*
 * 1 if Host header value `host` ("name[:port]", "[v6]:port") names this
 * server: an IP literal (a rebinding attacker cannot make the browser send
 * one of them for his own name), "localhost", or one of `names` (nnames,
 * compared without case, port ignored); any name when one of `names` is
 * "*".  0 otherwise, also for an empty or malformed value.  The rule guards
 * a loopback dashboard against DNS rebinding (RFC 9110 section 7.2 makes the
 * server responsible for checking the host it is asked about).
 */
int srv_host_allowed(const char *host, const char *const *names, size_t nnames);

/*
 * The token of an Authorization header value `h` using the Bearer scheme
 * (RFC 6750 section 2.1; scheme names are case-insensitive, RFC 9110
 * section 11.1), spaces after the scheme skipped; NULL when `h` is NULL,
 * another scheme, or has no token.  Points into `h`.
 */
const char *srv_bearer_token(const char *h);

/*
 * Percent-decode `in` (length n) into a new NUL-terminated string (freed
 * with free()).  Returns NULL for a malformed escape or an encoded NUL.
 */
char *srv_percent_decode(const char *in, size_t n);

#endif
