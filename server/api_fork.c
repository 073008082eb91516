/*
 * api_fork.c: the port's own commits in a history answer (see api_fork.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api.h"
#include "api_fork.h"
#include "api_lttb.h"
#include "pd_error.h"
#include "pd_time.h"

void api_fork_begin(api_fork_walk *w, const db_fork *f)
{
    memset(w, 0, sizeof(*w));
    w->fork = *f;
    /* An upstream that reaches no commit of the chain: all of it is own. */
    w->in_own = f->basis == DB_FORK_UPSTREAM && !f->base_oid[0];
}

int api_fork_step(api_fork_walk *w, const db_hist_point *hp)
{
    int own;

    if (!w->in_own && w->fork.basis == DB_FORK_HPY_TOKEN && hp->tok_hpy > 0)
        w->in_own = 1;
    own = w->in_own;
    w->restart = own && (w->own == 0 || w->after_stop);
    if (w->restart) {
        if (!w->parts)
            w->parts = json_array();
        json_array_append_new(w->parts, json_pack("{s:o, s:I}", "after", w->own
            ? json_string(w->fork.stops[w->after_stop - 1].ref) : json_null(),
            "own_commits", (json_int_t)0));
        w->after_stop = 0;
    }
    if (own) {
        json_t *part = json_array_get(w->parts, json_array_size(w->parts) - 1);

        json_object_set_new(part, "own_commits", json_integer(
            json_integer_value(json_object_get(part, "own_commits")) + 1));
        w->after_stop = db_fork_is_stop(&w->fork, 0, hp->c.oid, NULL);
        if (!w->first)
            w->first = api_commit_point(&hp->c);
        json_decref(w->last);
        w->last = api_commit_point(&hp->c);
        if (w->own == 0 || hp->c.author_time < w->amin)
            w->amin = hp->c.author_time;
        if (w->own == 0 || hp->c.author_time > w->amax)
            w->amax = hp->c.author_time;
        w->own++;
    } else {
        /* a copy, not snprintf: this runs for each of upstream's 15,000 */
        size_t n = hp->c.oid ? strnlen(hp->c.oid, sizeof(w->base_oid) - 1) : 0;

        w->has_base = 1;
        w->base = hp->c;
        if (n)
            memcpy(w->base_oid, hp->c.oid, n);
        w->base_oid[n] = '\0';
        w->base.oid = w->base_oid;
        w->base_value = hp->value;
        w->upstream++;
    }
    /* The commit after the base is the first of the port's own. */
    if (!w->in_own && w->fork.basis == DB_FORK_UPSTREAM &&
        strcmp(hp->c.oid, w->fork.base_oid) == 0)
        w->in_own = 1;
    return own;
}

json_t *api_fork_json(api_fork_walk *w)
{
    int basis = w->fork.basis;
    json_t *dates = json_null(), *base = NULL;
    char a[40], b[40];

    if (basis == DB_FORK_HPY_TOKEN && !w->own)
        basis = DB_FORK_NONE;   /* no HPy token on the chain: no port yet */
    if (w->own) {
        pd_iso8601(a, sizeof(a), w->amin, 0);
        pd_iso8601(b, sizeof(b), w->amax, 0);
        dates = json_pack("{s:s, s:s}", "first", a, "last", b);
    }
    /* With no port, nothing is folded: there is no base either. */
    if (basis != DB_FORK_NONE && w->has_base) {
        base = api_commit_point(&w->base);
        json_object_set_new(base, "value", json_integer(w->base_value));
    }
    json_t *o = json_pack("{s:s, s:o, s:o, s:I, s:I, s:o, s:o, s:o, s:o}",
        "basis", db_fork_basis_name(basis),
        "upstream", basis == DB_FORK_UPSTREAM ? api_text(w->fork.upstream) : json_null(),
        "base", base ? base : json_null(),
        "own_commits", (json_int_t)w->own,
        "upstream_commits", (json_int_t)(basis == DB_FORK_NONE ? 0 : w->upstream),
        "first", w->first ? w->first : json_null(),
        "last", w->last ? w->last : json_null(),
        "author_dates", dates, "parts", w->parts ? w->parts : json_array());
    memset(w, 0, sizeof(*w));
    return o;
}

void api_fork_end(api_fork_walk *w)
{
    json_decref(w->parts);
    json_decref(w->first);
    json_decref(w->last);
    memset(w, 0, sizeof(*w));
}

int api_fork_points_arg(srv_req *r, size_t *n)
{
    char buf[32], *end;
    long v;
    int rc;

    if ((rc = srv_query(r, "points", buf, sizeof(buf))) == PD_ENOTFOUND)
        return 0;
    v = rc < 0 ? 0 : strtol(buf, &end, 10);
    if (rc < 0 || *end || end == buf || v < 3 || v > 100000)
        return pd_error_set(PD_EINVAL, "points must be a whole number from 3 to 100000");
    *n = (size_t)v;
    return 1;
}

/* The own part's budget of n points, nup upstream and nown own ones. */
static size_t api_fork_budget(size_t n, size_t nup, size_t nown)
{
    size_t half = n / 2, bown = n > nup ? n - nup : 0;

    /* The port's commits are few beside upstream's thousands: they keep at
     * least half the budget (what upstream leaves, when more), so a
     * 1,000-point chart still shows every one of numpy-hpy's 54.  Never
     * more than N points in all. */
    if (bown < half)
        bown = half;
    return bown > nown ? nown : bown;
}

/* Append to idx[*k...] the indices part[] (len of them, dates t, values
 * v) keeps for budget b: LTTB from 3 on, else its ends (the last alone
 * for 1: upstream's last is the base).  -1 out of memory. */
static int api_fork_pick_part(const size_t *part, const int64_t *t, const int64_t *v,
                              size_t len, size_t b, size_t *idx, size_t *k)
{
    size_t *keep, nkeep, i;

    if (len > b && b < 3) {
        if (b == 2)
            idx[(*k)++] = part[0];
        if (b >= 1)
            idx[(*k)++] = part[len - 1];
        return 0;
    }
    if (api_lttb_pick(t, v, len, b, &keep, &nkeep) < 0)
        return -1;
    for (i = 0; i < nkeep; i++)
        idx[(*k)++] = part[keep[i]];
    free(keep);
    return 0;
}

/*
 * Put index r (the port's start; SIZE_MAX: none) among the nidx ascending
 * indices idx that a sampling kept (doc/api.md: the first and last points
 * and port_start stay).  When r lies between two kept indices it takes
 * the place of the nearer of them that is neither the first nor the last,
 * so there are still nidx, still ascending; outside the kept span, kept
 * already, or with fewer than 3 kept, nothing changes.  Found by a
 * newcomer: numpy-hpy's start, its 10th own commit, was missing from a
 * 50-point history.
 */
static void api_fork_keep(size_t *idx, size_t nidx, size_t r)
{
    size_t at;

    for (at = 0; at < nidx && idx[at] < r; at++)
        ;
    /* kept, or outside the kept span (LTTB keeps a part's last point, and
     * the start is an own commit after upstream's kept ones) */
    if (r == SIZE_MAX || at == 0 || at == nidx || idx[at] == r || nidx < 3)
        return;
    /* idx[at - 1] < r < idx[at]: one of the two goes, never the first or
     * the last */
    if (at - 1 > 0 && (at == nidx - 1 || r - idx[at - 1] <= idx[at] - r))
        idx[at - 1] = r;
    else
        idx[at] = r;
}

int api_fork_pick(const unsigned char *own, const int64_t *t, const int64_t *v,
                  size_t len, size_t n, size_t start, size_t **idx, size_t *nidx)
{
    size_t *part = malloc((len ? len : 1) * sizeof(*part));
    int64_t *pt = malloc((len ? len : 1) * sizeof(*pt));
    int64_t *pv = malloc((len ? len : 1) * sizeof(*pv));
    size_t i, k = 0, m, bown = 0;
    int side, rc = PD_ENOMEM;

    *idx = malloc((len ? len : 1) * sizeof(**idx));
    *nidx = 0;
    if (!part || !pt || !pv || !*idx)
        goto done;
    /* Upstream's points first, then the port's own (after them on a chain). */
    for (side = 0; side < 2; side++) {
        for (m = 0, i = 0; i < len; i++)
            if ((own[i] != 0) == side) {
                part[m] = i;
                pt[m] = t[i];
                pv[m++] = v[i];
            }
        if (side == 0)
            bown = api_fork_budget(n, m, len - m);
        if (api_fork_pick_part(part, pt, pv, m, side ? bown : n - bown, *idx, &k) < 0)
            goto done;
    }
    /* the parts' kept indices ascend: upstream's come before the port's */
    api_fork_keep(*idx, k, start);
    *nidx = k;
    rc = 0;
done:
    free(part);
    free(pt);
    free(pv);
    if (rc < 0) {
        free(*idx);
        *idx = NULL;
        return pd_error_nomem(NULL);
    }
    return 0;
}
