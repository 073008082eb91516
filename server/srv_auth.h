/*
 * srv_auth.h: refusals and the token check (srv_auth.c).  The daemon
 * (srv.c) refuses a request from its head with these; a handler checks a
 * token with srv_authorize.  A leaf below both, so that no handler calls
 * back into the daemon.
 */
#ifndef SRV_AUTH_H
#define SRV_AUTH_H

#include "srv_mhd.h"    /* <microhttpd.h>, loaded at first use */

#include "srv_req.h"

/* A refusal decided before a handler runs (srv.c's admission). */
typedef struct {
    unsigned status;            /* 0: admitted */
    const char *title;
    char detail[384];
    char allow[64];             /* Allow header of a 405 */
} srv_refusal;

/* Set f to a refusal: status, title (static) and a formatted detail,
 * cut to f->detail's size. */
void srv_refuse(srv_refusal *f, unsigned status, const char *title,
                const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/* The database could not be read (this thread's connection opened, a token
 * checked): 503 (Retry-After) when another connection holds it locked,
 * else 500, with pd_error_last() as the detail. */
void srv_refuse_db(srv_refusal *f);

/* Answer the refusal as a problem document (with its Allow header). */
enum MHD_Result srv_refusal_reply(srv_req *r, srv_refusal *f);

/*
 * 0 if the request's `Authorization: Bearer TOKEN` holds permission `perm`, else
 * the refusal's status with f set: 401 (no or unknown token), 403 (token
 * without it), 503/500 when the database cannot be read to check it.
 * r->db must be open.
 */
unsigned srv_token_status(srv_req *r, const char *perm, srv_refusal *f);

/*
 * Check the request's `Authorization: Bearer TOKEN` for permission `perm`.  Returns 0
 * when allowed; otherwise replies 401 (no or unknown token, with
 * WWW-Authenticate) or 403 (token without it; the detail says "lacks scope", the word of
 * token create --scope) and returns -1 with the
 * reply's result in *ret.
 */
int srv_authorize(srv_req *r, const char *perm, enum MHD_Result *ret);

#endif
