/*
 * srv_listen.c: the listen address and the connection limit (srv_listen.h).
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "pd_error.h"
#include "srv_listen.h"

/* Parse "HOST:PORT" (IPv4 or [IPv6]) into a socket address. */
int srv_parse_listen(struct sockaddr_storage *ss, socklen_t *len, const char *listen)
{
    char host[128];
    const char *colon = strrchr(listen, ':');
    char *end;
    long port;

    if (!colon || (size_t)(colon - listen) >= sizeof(host))
        return pd_error_set(PD_EINVAL, "listen address '%s' is not HOST:PORT", listen);
    port = strtol(colon + 1, &end, 10);
    if (*end || end == colon + 1 || port < 0 || port > 65535)
        return pd_error_set(PD_EINVAL, "listen address '%s' has a bad port", listen);
    memcpy(host, listen, colon - listen);
    host[colon - listen] = '\0';
    memset(ss, 0, sizeof(*ss));
    if (host[0] == '[' && host[strlen(host) - 1] == ']') {
        struct sockaddr_in6 *a = (struct sockaddr_in6 *)ss;

        host[strlen(host) - 1] = '\0';
        a->sin6_family = AF_INET6;
        a->sin6_port = htons((uint16_t)port);
        if (inet_pton(AF_INET6, host + 1, &a->sin6_addr) != 1)
            return pd_error_set(PD_EINVAL, "bad IPv6 address in '%s'", listen);
        *len = sizeof(*a);
        return 0;
    }
    struct sockaddr_in *a4 = (struct sockaddr_in *)ss;

    a4->sin_family = AF_INET;
    a4->sin_port = htons((uint16_t)port);
    if (strcmp(host, "localhost") == 0)
        snprintf(host, sizeof(host), "127.0.0.1");
    if (inet_pton(AF_INET, host, &a4->sin_addr) != 1)
        return pd_error_set(PD_EINVAL, "bad IPv4 address in '%s'", listen);
    *len = sizeof(*a4);
    return 0;
}

/* 1 if the listen address is a loopback one (127/8, ::1). */
int srv_is_loopback(const struct sockaddr_storage *ss)
{
    if (ss->ss_family == AF_INET)
        return (ntohl(((const struct sockaddr_in *)ss)->sin_addr.s_addr) >> 24) == 127;
    return IN6_IS_ADDR_LOOPBACK(&((const struct sockaddr_in6 *)ss)->sin6_addr);
}

/*
 * The connection limit: `want` (0: 4096), lowered to what the process may
 * open.  The soft RLIMIT_NOFILE is raised to the hard one first, as the
 * default 1024 would be the real limit otherwise.
 */
size_t srv_connection_limit(size_t want)
{
    struct rlimit rl;
    size_t room;

    if (!want)
        want = 4096;
    if (getrlimit(RLIMIT_NOFILE, &rl) != 0)
        return want < 900 ? want : 900;
    if (rl.rlim_cur < rl.rlim_max) {
        rl.rlim_cur = rl.rlim_max;
        setrlimit(RLIMIT_NOFILE, &rl);
        getrlimit(RLIMIT_NOFILE, &rl);
    }
    /* Room for the database, git packs, static files and the listener. */
    room = rl.rlim_cur == RLIM_INFINITY || rl.rlim_cur > (rlim_t)1 << 20
           ? (size_t)1 << 20 : (size_t)rl.rlim_cur;
    room = room > 256 ? room - 128 : room / 2;
    return want < room ? want : room;
}
