/*
 * q_fingerprint.h: the fingerprints of a long list of findings, fast
 * (q_fingerprint.c, issue 26.3): the very values q_dismissed_fingerprint
 * gives (q_dismissed.h), with the occurrences counted in a hash table
 * instead of a JSON object and SHA-256 from OpenSSL.  The file page of
 * arraytypes.c.src fingerprints 3,800 findings on every cold answer.
 */
#ifndef Q_FINGERPRINT_H
#define Q_FINGERPRINT_H

#include <jansson.h>

/* The occurrences seen so far of a list, and a hash context. */
typedef struct q_fp_seen q_fp_seen;

/* A new, empty count.  NULL when out of memory (pd_error says so). */
q_fp_seen *q_fp_seen_new(void);

/* Free it; accepts NULL. */
void q_fp_seen_free(q_fp_seen *s);

/*
 * The fingerprint of one finding, as q_dismissed_fingerprint with the
 * same earlier findings in its `seen`: `parts` its file, rule, function and
 * text (NULL: ""); 32 hex digits and a NUL into hex.  0, or PD_ENOMEM (hex
 * is then "").
 */
int q_fp_one(q_fp_seen *s, const char *const parts[4], char hex[33]);

/*
 * Add the counts of `s` to the JSON count `seen` of q_dismissed.h, so
 * q_dismissed_fingerprints_seen can go on with the rest of the list.
 * 0 or PD_ENOMEM.
 */
int q_fp_seen_json(const q_fp_seen *s, json_t *seen);

#endif
