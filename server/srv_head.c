/*
 * srv_head.c: framing and single headers of a request head (srv_head.h).
 */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "srv_head.h"

typedef struct {
    int host, clen, te, te_chunked, bad_name, bad_value;
} srv_head_seen;

/* 1 when `value` holds a control character other than HTAB: RFC 9110
 * section 5.5 says a recipient of CR, LF or NUL in a field value MUST
 * reject the message or replace them; libmicrohttpd passes a bare CR
 * through, which a proxy in front may read as the end of the line. */
static int srv_head_bad_value(const char *value)
{
    const unsigned char *p = (const unsigned char *)value;

    for (; p && *p; p++)
        if ((*p < 0x20 && *p != '\t') || *p == 0x7f)
            return 1;
    return 0;
}

/* 1 when `key` is a token (RFC 9110 section 5.6.2). */
static int srv_head_token(const char *key)
{
    const unsigned char *p = (const unsigned char *)key;

    if (!*p)
        return 0;
    for (; *p; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
              (*p >= '0' && *p <= '9') || strchr("!#$%&'*+-.^_`|~", *p)))
            return 0;
    return 1;
}

static enum MHD_Result srv_head_each(void *cls, enum MHD_ValueKind kind, const char *key,
                                     const char *value)
{
    srv_head_seen *h = cls;

    if (!key || !srv_head_token(key))
        h->bad_name = 1;
    else if (srv_head_bad_value(value))
        h->bad_value = 1;
    else if (strcasecmp(key, "Host") == 0)
        h->host++;
    else if (strcasecmp(key, "Content-Length") == 0)
        h->clen++;
    else if (strcasecmp(key, "Transfer-Encoding") == 0) {
        h->te++;
        h->te_chunked = value && strcasecmp(value, "chunked") == 0;
    }
    return MHD_YES;
}

unsigned srv_head_check(struct MHD_Connection *conn, char *detail, size_t n)
{
    srv_head_seen h = {0};

    MHD_get_connection_values(conn, MHD_HEADER_KIND, srv_head_each, &h);
    if (h.bad_name)
        snprintf(detail, n, "a header name has a space before the colon or a character "
                 "a name cannot have (RFC 9112 section 5.1)");
    else if (h.bad_value)
        snprintf(detail, n, "a header value has a control character (CR, LF or another "
                 "than TAB; RFC 9110 section 5.5)");
    else if (h.clen > 1)
        snprintf(detail, n, "more than one Content-Length (RFC 9112 section 6.3)");
    else if (h.clen && h.te)
        snprintf(detail, n, "Content-Length together with Transfer-Encoding (RFC 9112 "
                 "section 6.1)");
    else if (h.host > 1)
        snprintf(detail, n, "more than one Host (RFC 9112 section 3.2)");
    else if (h.te && (h.te > 1 || !h.te_chunked)) {
        snprintf(detail, n, "only Transfer-Encoding: chunked is supported");
        return 501;
    } else
        return 0;
    return 400;
}
