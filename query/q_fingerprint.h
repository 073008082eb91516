/*
 * q_fingerprint.h: a finding's fingerprint, the one implementation of the
 * rule q_dismissed.h states (SHA-256 of "portdash-finding", the file,
 * rule, function, text and the occurrence of those four in the list),
 * with the occurrences counted in a hash table and SHA-256 from OpenSSL:
 * the file page of arraytypes.c.src fingerprints 3,800 findings on every
 * cold answer (issue 26.3).  Stored dismissals name these values: they
 * must never change (tests/unit/test_fingerprint.c pins them).
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
 * The fingerprint of one finding, its occurrence counted in `s` (the
 * findings fingerprinted before it in the same list): `parts` its file,
 * rule, function and text (NULL: ""); 32 hex digits and a NUL into hex.
 * The counting key is the four joined by newlines, cut at 2,047 bytes; a
 * key that is not UTF-8 is occurrence 0 every time (as the JSON count of
 * earlier versions, which jansson refused such keys).  0, or PD_ENOMEM
 * (hex is then "").
 */
int q_fp_one(q_fp_seen *s, const char *const parts[4], char hex[33]);

#endif
