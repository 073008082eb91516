/*
 * srv_auth.c: refusals and the token check (srv_auth.h).
 */
#include <stdarg.h>
#include <stdio.h>

#include "db.h"
#include "db_token.h"
#include "pd_error.h"
#include "srv_auth.h"
#include "srv_reply.h"
#include "srv_url.h"

void srv_refuse(srv_refusal *f, unsigned status, const char *title, const char *fmt, ...)
{
    va_list ap;

    f->status = status;
    f->title = title;
    va_start(ap, fmt);
    vsnprintf(f->detail, sizeof(f->detail), fmt, ap);
    va_end(ap);
}

void srv_refuse_db(srv_refusal *f)
{
    if (db_error_busy())
        srv_refuse(f, 503, "Service Unavailable", "%s; retry later", pd_error_last());
    else
        srv_refuse(f, 500, "Database unavailable", "%s", pd_error_last());
}

enum MHD_Result srv_refusal_reply(srv_req *r, srv_refusal *f)
{
    if (f->allow[0])
        r->allow = f->allow;
    return srv_reply_problem(r, f->status, f->title, "%s", f->detail);
}

unsigned srv_token_status(srv_req *r, const char *perm, srv_refusal *f)
{
    const char *tok = srv_bearer_token(MHD_lookup_connection_value(
        r->conn, MHD_HEADER_KIND, MHD_HTTP_HEADER_AUTHORIZATION));
    char perms[256];
    int rc = tok ? db_token_check(r->db, tok, perms, sizeof(perms)) : PD_ENOTFOUND;

    /* A token the database could not check is not an unknown one. */
    if (rc < 0 && rc != PD_ENOTFOUND)
        srv_refuse_db(f);
    else if (rc < 0)
        srv_refuse(f, 401, "Unauthorized", "this needs 'Authorization: Bearer TOKEN' "
                   "with a valid token (portdash token create)");
    else if (!db_token_has_perm(perms, perm))
        srv_refuse(f, 403, "Forbidden", "the token lacks scope '%s'", perm);
    else
        return 0;
    return f->status;
}

int srv_authorize(srv_req *r, const char *perm, enum MHD_Result *ret)
{
    srv_refusal f = {0};

    if (!srv_token_status(r, perm, &f))
        return 0;
    *ret = srv_refusal_reply(r, &f);
    return -1;
}
