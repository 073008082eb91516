/*
 * q_dismissed.h: marking the dismissed findings of a list (q_dismissed.c).
 */
#ifndef Q_DISMISSED_H
#define Q_DISMISSED_H

#include <jansson.h>
#include <sqlite3.h>
#include <stdint.h>

/*
 * Give every object of `findings` without a "fingerprint" one: 32 hex
 * digits of SHA-256 over its file (its "path", else `path`), "rule",
 * "function", "text" and its occurrence among the earlier objects with
 * those four, so that it stays when lines move or other findings come and
 * go, and is the same on the file page and in the object-items list.
 * Uploaded SARIF findings already carry theirs (portdash/v1).
 */
void q_dismissed_fingerprints(json_t *findings, const char *path);

/*
 * Fingerprint and mark (db_triage_mark) the findings of `o` (member
 * `key`), and set o["dismissed_count"].  0 or PD_EDB.
 */
int q_dismissed_apply(sqlite3 *db, int64_t repo_id, json_t *o, const char *key,
                        const char *path);

#endif
