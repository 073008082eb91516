/*
 * pd_time.h: dates as the API and the command line write and read them:
 * ISO 8601 (RFC 3339 profile), with the commit's own UTC offset on output.
 */
#ifndef PD_TIME_H
#define PD_TIME_H

#include <stddef.h>
#include <stdint.h>
#include <time.h>

/* Seconds on `clock` (CLOCK_MONOTONIC for elapsed time,
 * CLOCK_THREAD_CPUTIME_ID for the calling thread's CPU); 0 when the clock
 * cannot be read. */
double pd_clock_s(clockid_t clock);

/*
 * Parse "YYYY-MM-DD" (midnight UTC) or "YYYY-MM-DDTHH:MM:SS" with "Z",
 * "+hh:mm" or "-hh:mm" (no suffix: UTC) into unix seconds.  0, or PD_EINVAL
 * with a message quoting the text.
 */
int pd_parse_date(const char *s, int64_t *out);

/* Format unix time `t` in local time of UTC offset `offset_minutes` as
 * "2021-03-01T10:00:00+01:00" into buf (40 bytes are enough). */
void pd_iso8601(char *buf, size_t n, int64_t t, int offset_minutes);

#endif
