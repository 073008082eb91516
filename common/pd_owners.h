/*
 * pd_owners.h: who ported a function and who changed it lately, from the
 * versions of its file (issue 24, point 3).
 *
 * The caller gives the file's versions oldest first (its history with
 * renames followed: the server from the database, the gate from git), each
 * with the commit's author (already through the mailmap) and the
 * functions of that version: name, HPy tokens, and a fingerprint of what
 * the analysis saw (tokens per class, status, length).  A function is
 * followed from one version to the next by name and occurrence (the k-th
 * function of a name is the k-th of the next version), as the gate pairs
 * them.
 *
 *   - ported by: the authors of the versions where the function's HPy
 *     tokens went up (or it appeared with some), most commits first;
 *   - changed lately: the authors of the newest versions where its
 *     fingerprint changed (or it appeared), newest first, one entry per
 *     person.
 *
 * Whether a function changed is what the caller says (`changed`, from a
 * diff of the two versions' lines) or else whether its fingerprint did:
 * an edit the fingerprint does not see (a constant, a comment) then goes
 * unnoticed.  The oldest version given is a baseline when the
 * history was cut (`baseline` set): its functions are not attributed to
 * its author.  Pure; strings are borrowed from the input.
 */
#ifndef PD_OWNERS_H
#define PD_OWNERS_H

#include <stddef.h>
#include <stdint.h>

typedef struct {
    const char *name;
    int64_t hpy;             /* HPy tokens in it */
    uint64_t print;          /* fingerprint: equal when nothing seen changed */
    int changed;             /* -1: compare prints; 0 or 1: a diff of the
                              * version with the one before says so */
} pd_own_fn;

typedef struct {
    const char *who;         /* the author's name (mailmap applied) */
    const char *email;       /* the author's e-mail (mailmap applied), may be "" */
    const char *oid;         /* the commit */
    int64_t time;            /* its author time, unix seconds */
    const pd_own_fn *fns;
    size_t nfns;
} pd_own_ver;

typedef struct {
    const char *who, *email;
    const char *oid;         /* the newest such commit */
    int64_t time;
    uint32_t commits;        /* how many such commits */
} pd_own_person;

typedef struct {
    pd_own_person *porters;
    size_t nporters;
    pd_own_person *changers;
    size_t nchangers;
} pd_own_result;

/*
 * Owners of each function of the newest version v[n-1]: (*out)[i] for its
 * function i, at most `max` people in each list.  `baseline`: v[0] is
 * where the walk stopped, not the file's first version.  0 or PD_ENOMEM;
 * free with pd_owners_free(*out, v[n-1].nfns).
 */
int pd_owners_compute(const pd_own_ver *v, size_t n, int baseline, size_t max,
                      pd_own_result **out);

void pd_owners_free(pd_own_result *r, size_t n);

/* A print from the parts the fingerprint covers (FNV-1a over them). */
uint64_t pd_owners_print(const int64_t *tok, size_t ntok, const char *status,
                         int64_t lines);

/*
 * The handle to name a person by in a pull request: "@login" for a
 * GitHub no-reply address (12345+login@users.noreply.github.com,
 * login@users.noreply.github.com), else NULL.  Into buf (cap bytes).
 */
const char *pd_owners_handle(const char *email, char *buf, size_t cap);

#endif
