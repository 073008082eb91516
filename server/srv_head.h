/*
 * srv_head.h: the request head's framing, checked before anything else
 * reads it.  libmicrohttpd, served directly, accepts heads that nginx with
 * the shipped configuration (deploy/) refuses, and two readers of one
 * ambiguous head (a proxy and this server) may see two different requests
 * (request smuggling).  Refused with 400, as nginx does (issue 27):
 *
 *   - a header name with a space (before the colon) or another character a
 *     token cannot have (RFC 9110 section 5.1, RFC 9112 section 5.1);
 *   - more than one Content-Length (RFC 9112 section 6.3);
 *   - Content-Length together with Transfer-Encoding (section 6.1);
 *   - more than one Host (section 3.2).
 *
 * A Transfer-Encoding other than one "chunked" is 501, as in nginx.
 */
#ifndef SRV_HEAD_H
#define SRV_HEAD_H

#include <stddef.h>

#include "srv_mhd.h"    /* <microhttpd.h>, loaded at first use */

/*
 * 0 when the head of the request on `conn` has none of the faults above;
 * else the status to answer (400 or 501), with `detail` (n bytes) saying
 * which rule it breaks.
 */
unsigned srv_head_check(struct MHD_Connection *conn, char *detail, size_t n);

#endif
