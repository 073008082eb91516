/*
 * pd_error.h: the one error convention shared by every module of portdash.
 *
 * A function that can fail returns int: 0 on success or one of the negative
 * PD_E* codes below, and records a human-readable message with pd_error_set().
 * The message lives in thread-local storage, so server worker threads do not
 * see each other's errors.  Callers read it with pd_error_last() right after
 * the failing call.
 */
#ifndef PD_ERROR_H
#define PD_ERROR_H

enum pd_err {
    PD_OK = 0,
    PD_ERROR = -1,     /* generic failure */
    PD_ENOMEM = -2,    /* allocation failed */
    PD_ENOTFOUND = -3, /* named thing (repo, ref, path, object) unknown */
    PD_EINVAL = -4,    /* malformed input or bad argument */
    PD_EIO = -5,       /* file or repository could not be read/written */
    PD_EDB = -6,       /* SQLite reported an error, or the database is from
                        * a newer portdash (db_open) */
    PD_EGIT = -7,      /* libgit2 reported an error */
    PD_EBUSY = -8      /* another ingest or snapshot holds the work lock (db_lock.h) */
};

/*
 * Record the message for the current thread's last error (printf format).
 * Returns `code` unchanged, so callers can write `return pd_error_set(...)`.
 */
int pd_error_set(int code, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/*
 * Record "out of memory" (or "out of memory DOING" when `doing` is not
 * NULL, e.g. "analysing") and return PD_ENOMEM: the one spelling of an
 * allocation failure, so `return pd_error_nomem(NULL);` replaces the
 * pd_error_set() call written out at each site.
 */
int pd_error_nomem(const char *doing);

/*
 * The current thread's last message; never NULL ("" when none).  The
 * returned string is owned by the thread and valid until the next
 * pd_error_set() on that thread.
 */
const char *pd_error_last(void);

/* Forget the current thread's message. */
void pd_error_clear(void);

#endif
