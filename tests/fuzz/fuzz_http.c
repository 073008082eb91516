/*
 * fuzz_http.c: libFuzzer target over the server's request path before any
 * handler runs: the request target's form (srv_url_target), the query's
 * percent-decoding (srv_percent_decode), the Host check (srv_host_allowed),
 * route matching with its captures (srv_routes_find) and the Bearer scheme
 * (srv_bearer_token) with permission lookup (db_token_has_perm).  The input is
 * up to four lines: method, target, Host value, Authorization value.
 * libmicrohttpd's own parsing is not in it (the stress and API tests send
 * raw requests to it).  Build and run with `make fuzz-http`.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "db_token.h"
#include "srv.h"
#include "srv_routes.h"
#include "srv_url.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *buf = malloc(size + 1), *line[4] = {"", "", "", ""}, *p, *auth, *dec, *q;
    const char *path, *tok, *names[] = {"dash.example.org"};
    char authority[256];
    size_t plen, i, n = 0;
    srv_route_hold hold;
    srv_req r;
    int k, route;

    if (!buf)
        return 0;
    memcpy(buf, data, size);
    buf[size] = '\0';
    for (p = buf, k = 0; k < 4 && p; k++) {
        line[k] = p;
        if ((p = strchr(p, '\n')))
            *p++ = '\0';
    }
    if (srv_url_target(line[1], &path, &plen, authority, sizeof(authority)) == 0) {
        /* libmicrohttpd hands the path without its query. */
        char *just = strndup(path, plen);

        q = strchr(path, '?');
        if (q && (dec = srv_percent_decode(q + 1, strlen(q + 1)))) {
            n += strlen(dec);
            free(dec);
        }
        memset(&r, 0, sizeof(r));
        route = just ? srv_routes_find(&r, line[0], just, &hold) : SRV_ROUTE_NONE;
        if (route >= 0) {
            const char *perm = srv_route_perm(route);

            for (i = 0; i < SRV_MAX_PARAMS && r.param[i]; i++)
                n += strlen(r.param[i]);
            n += r.tail ? strlen(r.tail) : 0;
            n += perm ? strlen(perm) : 0;
        }
        srv_routes_release(&hold);
        free(just);
    }
    n += (size_t)srv_host_allowed(authority[0] ? authority : line[2], names, 1);
    auth = line[3];
    if ((tok = srv_bearer_token(auth)))
        n += (size_t)db_token_has_perm(tok, "read");
    free(buf);
    return n == (size_t)-1;
}
