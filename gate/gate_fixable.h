/*
 * gate_fixable.h: the gate's `fixable` ratchet from git (gate.h,
 * GATE_FIXABLE; gate_fixable.c says what it checks).
 */
#ifndef GATE_FIXABLE_H
#define GATE_FIXABLE_H

#include <git2.h>
#include <jansson.h>

#include "analyzer/analyzer.h"

typedef struct gate_fixable gate_fixable;

/* A new collector; NULL when out of memory.  Free with gate_fixable_free. */
gate_fixable *gate_fixable_new(void);
void gate_fixable_free(gate_fixable *g);

/*
 * One file whose blob differs: base (NULL when the file is new) and head
 * (NULL when it is gone) blobs of `path` in repo.  The head's checked
 * rewrites (fix.h, rules r) on lines the diff marks as added are recorded.
 * 0, PD_EGIT (a blob cannot be read), PD_ENOMEM.
 */
int gate_fixable_file(gate_fixable *g, git_repository *repo, const rules *r, const char *path,
                      const git_oid *base, const git_oid *head);

/* Add the condition and the "fixable" list to a gate_result() verdict,
 * failing it when something was recorded.  0 or PD_ENOMEM. */
int gate_fixable_verdict(gate_fixable *g, json_t *result);

#endif
