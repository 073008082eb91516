/*
 * srv_warm.h: warming the answer cache (srv_cache.h) with the answers
 * everyone reads, so that the first reader after a start, an ingest or an
 * upload does not pay for computing them: for every ref tip of every
 * repository its summary and file list, the overview's page (whose first
 * screen's answers the server asks itself, srv_first.h), and the overview's
 * trend (the history of the dashboard's default measure, full and at the
 * point counts the dashboard asks for).
 *
 * One background thread asks the server itself over HTTP, exactly as a
 * browser would, so the answers go through the one cache layer and nothing
 * here knows how they are computed.  Under --private reads (a token needed)
 * the requests get 401 and nothing is warmed.
 */
#ifndef SRV_WARM_H
#define SRV_WARM_H

#include <sys/socket.h>

typedef struct srv_warm srv_warm;

/* The point counts the dashboard's trend chart asks for (trend.mjs rounds its
 * pixel width up to one of them); warmed for the default measure. */
#define SRV_WARM_POINTS {500, 1000, 1500, 2000}

/*
 * Start the warming thread for the server listening at `addr` (any-address
 * means loopback), TCP port `port`, and warm once now.  NULL when out of memory or no thread.
 */
srv_warm *srv_warm_start(const struct sockaddr *addr, socklen_t len, unsigned short port);

/* Ask for another round (after an ingest or upload); returns at once.  A
 * round asked for while one runs is done after it.  Accepts NULL. */
void srv_warm_soon(srv_warm *w);

/* Stop the thread (after its current request) and free; accepts NULL. */
void srv_warm_stop(srv_warm *w);

/* Rounds finished so far (for tests that wait for one). */
unsigned srv_warm_rounds(srv_warm *w);

#endif
