/*
 * api_fork.h: the port's own commits in a ref's history answer (issue
 * 23.1): which points are the port's own (after the fork base, db_fork.h),
 * the "port" object that counts them, and ?points=N sampling that keeps
 * them when upstream history is shown too.
 */
#ifndef API_FORK_H
#define API_FORK_H

#include <stdint.h>

#include <jansson.h>

#include "db_fork.h"
#include "db_history.h"
#include "srv_reply.h"
#include "srv_req.h"

/* What the walk along the chain collects. */
typedef struct {
    db_fork fork;
    int in_own;              /* the walk has passed the base */
    int64_t own, upstream;   /* points of each part seen */
    int has_base;            /* an upstream point was seen: */
    db_commit_when base;     /* the newest one (base.oid: base_oid), */
    char base_oid[41];       /* JSON made once, by api_fork_json, */
    int64_t base_value;      /* not for each of upstream's thousands */
    json_t *first, *last;    /* the first and last own points */
    int64_t amin, amax;      /* author dates of the own points */
    int restart;             /* the last point stepped starts a part */
    int after_stop;          /* the last own point was another ref's tip */
    json_t *parts;           /* [{"after", "own_commits"}] */
} api_fork_walk;

/* Start a walk along a chain whose fork is `f`. */
void api_fork_begin(api_fork_walk *w, const db_fork *f);

/*
 * Step to the next point of the chain (oldest first): 1 when it is one of
 * the port's own commits, 0 when it is upstream history.  w->restart is
 * then 1 when the point starts a part of the port (its first commit, or
 * the first after another ref's tip): its dating starts afresh.
 */
int api_fork_step(api_fork_walk *w, const db_hist_point *hp);

/*
 * The "port" object of the answer: {"basis": "upstream" | "first-hpy-token"
 * | "none", "upstream": name | null, "base": {"commit", "author_date",
 * "committer_date", "value"} | null, "own_commits", "upstream_commits",
 * "first": commit | null, "last": commit | null, "author_dates": {"first",
 * "last"} | null, "parts": [{"after": ref | null, "own_commits"}]}.  Takes
 * the walk's references; the walk is spent.
 */
json_t *api_fork_json(api_fork_walk *w);

/* Free what a walk holds when no answer is made. */
void api_fork_end(api_fork_walk *w);

/*
 * ?points=N of request `r`: 0 when it does not ask (*n untouched), 1 with
 * *n, or PD_EINVAL (pd_error_set) for an N that is not a whole number from
 * 3 to 100000.
 */
int api_fork_points_arg(srv_req *r, size_t *n);

/*
 * The reduction of ?points=N on plain arrays, for a ref's and a scope's
 * history alike: of len points (own[i] non-zero for the port's own, t[i]
 * the effective date in unix seconds, v[i] the value), the upstream part
 * and the own part are reduced apart by LTTB (api_lttb_pick), the own part
 * keeping what upstream's points leave of N, at least half of N, and all
 * of it when it fits; then the point at index `start` (the port's start;
 * SIZE_MAX: none) is put among them when LTTB left it out, in the place of
 * the nearer of the kept points either side of it that is neither the
 * first nor the last (doc/api.md: the first and last points and
 * port_start stay).  The kept indices ascend, into *idx (malloc'd; the
 * caller frees it) and *nidx: at most N.  0, or PD_ENOMEM (pd_error_nomem;
 * *idx NULL).
 */
int api_fork_pick(const unsigned char *own, const int64_t *t, const int64_t *v,
                  size_t len, size_t n, size_t start, size_t **idx, size_t *nidx);

#endif
