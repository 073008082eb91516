/*
 * api_order.h: the order of a first-parent chain against its dates, for
 * the history answers (issue 11.11; a ref's history, api_history.c, and a
 * scope's, api_scope.c): on a rebased branch a commit can be dated before
 * its parent, so a chart with x = date runs back in time.  Each point gets
 * its position on the chain (0 = oldest), its effective date (the latest
 * date so far along its part of the chain: monotone, what the chart's x
 * is) and out_of_order when its own date is before that (dated before an
 * earlier commit of the branch).  doc/api.md, "Rebased branches".
 */
#ifndef API_ORDER_H
#define API_ORDER_H

#include <stdint.h>

typedef struct {
    int64_t n;        /* commits seen */
    int64_t pos;      /* chain position of the last commit seen */
    int64_t tmax;     /* its effective date: latest date so far in its part */
    int64_t late;     /* commits dated before an earlier one */
    int out;          /* the last commit seen is one of them */
} api_order;

/*
 * Step to the next commit of the chain (oldest first; `o` zeroed before
 * the first), dated t (unix seconds, by the date the answer asks for).
 * `restart` is non-zero when the commit starts a part of the port
 * (api_fork_walk.restart): its dating starts afresh, so a rebase does not
 * carry the port's own commits to the base's date.
 */
void api_order_step(api_order *o, int64_t t, int restart);

#endif
