/*
 * srv_url.c: request targets, Host values and Bearer tokens (srv_url.h).
 */
#include <arpa/inet.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "srv_url.h"

int srv_url_target(const char *target, const char **path, size_t *path_len,
                   char *authority, size_t n)
{
    const char *p = target, *q;

    if (n)
        authority[0] = '\0';
    if (!target)
        return -1;
    for (q = target; *q; q++)
        if ((unsigned char)*q <= 0x20 || *q == 0x7f)
            return -1;
    if (strncasecmp(p, "http://", 7) == 0 || strncasecmp(p, "https://", 8) == 0) {
        const char *a = p + (p[4] == ':' ? 7 : 8);
        size_t alen = strcspn(a, "/?#");

        if (alen == 0 || alen >= n)
            return -1;
        memcpy(authority, a, alen);
        authority[alen] = '\0';
        p = a + alen;
        if (*p != '/') {
            /* "http://host" or "http://host?q": the path is "/" (RFC 9110
             * section 4.2.3). */
            *path = "/";
            *path_len = 1;
            return 0;
        }
    }
    if (*p != '/')
        return -1;
    *path = p;
    *path_len = strcspn(p, "?#");
    return 0;
}

/* 1 if `name` (length len) is an IPv4 literal or a bracketed IPv6 one. */
static int srv_host_is_ip(const char *name, size_t len)
{
    char buf[64];
    unsigned char addr[16];

    if (len == 0 || len >= sizeof(buf))
        return 0;
    if (name[0] == '[') {
        if (len < 3 || name[len - 1] != ']')
            return 0;
        memcpy(buf, name + 1, len - 2);
        buf[len - 2] = '\0';
        return inet_pton(AF_INET6, buf, addr) == 1;
    }
    memcpy(buf, name, len);
    buf[len] = '\0';
    return inet_pton(AF_INET, buf, addr) == 1;
}

int srv_host_allowed(const char *host, const char *const *names, size_t nnames)
{
    size_t len, i;
    const char *colon;

    if (!host || !*host)
        return 0;
    if (host[0] == '[') {
        const char *close = strchr(host, ']');

        if (!close)
            return 0;
        len = (size_t)(close - host) + 1;
        colon = close + 1;
    } else {
        len = strcspn(host, ":");
        colon = host + len;
    }
    if (*colon && (*colon != ':' || strspn(colon + 1, "0123456789") != strlen(colon + 1)))
        return 0;
    if (srv_host_is_ip(host, len))
        return 1;
    /* A trailing dot names the same host ("localhost."). */
    if (len > 1 && host[len - 1] == '.')
        len--;
    if (len == 9 && strncasecmp(host, "localhost", 9) == 0)
        return 1;
    for (i = 0; i < nnames; i++) {
        if (strcmp(names[i], "*") == 0 ||
            (strlen(names[i]) == len && strncasecmp(names[i], host, len) == 0))
            return 1;
    }
    return 0;
}

const char *srv_bearer_token(const char *h)
{
    if (!h || strncasecmp(h, "Bearer", 6) != 0 || (h[6] != ' ' && h[6] != '\t'))
        return NULL;
    h += 6;
    while (*h == ' ' || *h == '\t')
        h++;
    return *h ? h : NULL;
}

static int srv_hex(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

char *srv_percent_decode(const char *in, size_t n)
{
    char *out = malloc(n + 1), *o = out;
    size_t i;
    int hi, lo;

    if (!out)
        return NULL;
    for (i = 0; i < n; i++) {
        if (in[i] != '%') {
            *o++ = in[i];
            continue;
        }
        if (i + 2 >= n) {
            free(out);
            return NULL;
        }
        hi = srv_hex(in[i + 1]);
        lo = srv_hex(in[i + 2]);
        if (hi < 0 || lo < 0 || (hi == 0 && lo == 0)) {
            free(out);
            return NULL;
        }
        *o++ = (char)(hi * 16 + lo);
        i += 2;
    }
    *o = '\0';
    return out;
}
