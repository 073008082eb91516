/*
 * api_wrap.h: legacy-facing wrappers of HPy implementations (issue 24;
 * issue 23 point 8, "Next to port is led by trivial accessors").
 *
 * A port keeps the old entry points for the code not yet ported: numpy-hpy's
 * PyArray_DESCR(PyArrayObject *) converts its argument with
 * HPy_FromPyObject, calls the HPy implementation HPyArray_GetDescr and
 * converts back.  Such a function is bridged, its signature is legacy, and
 * it calls a ported function of the repository.  Its callers never wait for
 * it: once ported they call the HPy implementation.  It is never ported
 * either: it goes once nothing calls it.  So the plan and the frontier
 * leave it out (under "excluded", with the reason) and do not count it as a
 * callee anyone waits for.  The rule reads the analysis only; no names.
 */
#ifndef API_WRAP_H
#define API_WRAP_H

#include <sqlite3.h>
#include <stddef.h>
#include <stdint.h>

/* Why a wrapper is left out, for the answers' "excluded" lists. */
#define API_WRAP_REASON "a legacy-facing wrapper of an HPy implementation it calls: " \
                        "its callers call that once ported; removed once nothing calls it"

/*
 * For each function i < nfn of analysis `analysis_id`, legacy_first[i] = 1
 * when its first finding by position is C API or the project's legacy API
 * (before any HPy token: its signature is the legacy one), else 0.  0,
 * PD_EDB, PD_ENOMEM (PD_ENOTFOUND: no such analysis, all 0).
 */
int api_wrap_legacy_first(sqlite3 *db, int64_t analysis_id, unsigned char *legacy_first,
                          size_t nfn);

#endif
