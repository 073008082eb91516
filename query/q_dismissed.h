/*
 * q_dismissed.h: marking the dismissed findings of a list (q_dismissed.c).
 */
#ifndef Q_DISMISSED_H
#define Q_DISMISSED_H

#include <jansson.h>
#include <sqlite3.h>
#include <stdint.h>

#include "q_fingerprint.h"

/*
 * Give every object of `findings` without a "fingerprint" one: 32 hex
 * digits of SHA-256 over its file (its "path", else `path`), "rule",
 * "function", "text" and its occurrence among the earlier objects with
 * those four, so that it stays when lines move or other findings come and
 * go, and is the same on the file page and in the object-items list.
 * Uploaded SARIF findings already carry theirs (portdash/v1).  0 or
 * PD_ENOMEM.
 */
int q_dismissed_fingerprints(json_t *findings, const char *path);

/*
 * The same with the occurrences counted in `seen` (q_fingerprint.h, the
 * one implementation of the rule; the caller's, empty at the start of a
 * list), so a list can be fingerprinted in parts: the file page's typed
 * built-in findings, then its SARIF ones.  0 or PD_ENOMEM.
 */
int q_dismissed_fingerprints_seen(json_t *findings, const char *path, q_fp_seen *seen);

/*
 * Fingerprint and mark (db_triage_mark) the findings of `o` (member
 * `key`), and set o["dismissed_count"].  0 or PD_EDB.
 */
int q_dismissed_apply(sqlite3 *db, int64_t repo_id, json_t *o, const char *key,
                        const char *path);

#endif
