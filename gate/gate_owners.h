/*
 * gate_owners.h: owners of a file's functions straight from git, for the
 * pull-request comment (issue 24, point 3), by the rules of pd_owners.h:
 * the file's versions along the first-parent history from a commit,
 * renames followed (git's similarity detection), each version analysed,
 * which functions it changed taken from a diff of the two blobs; a merge
 * stands for the author of its merged tip; authors through the
 * repository's mailmap (libgit2's git_mailmap).  The same answers as the
 * server's owners (api_owners.c) without a database.
 */
#ifndef GATE_OWNERS_H
#define GATE_OWNERS_H

#include <git2.h>

#include "pd_owners.h"
#include "analyzer/analyzer.h"

typedef struct gate_owners gate_owners;

/*
 * The owners of `path` at commit `from`: at most `maxver` versions and
 * `maxwalk` commits walked.  0 (a path absent at `from` has no functions),
 * PD_EGIT, PD_ENOMEM.  Free with gate_owners_free.
 */
int gate_owners_read(gate_owners **out, git_repository *repo, git_mailmap *mm,
                     const git_oid *from, const char *path, const rules *r, size_t maxver,
                     size_t maxwalk);

void gate_owners_free(gate_owners *o);

/* The person to ask about the function `name` (the k-th of that name at
 * `from`): its first porter, else its newest changer; NULL when unknown. */
const pd_own_person *gate_owners_ask(const gate_owners *o, const char *name, size_t k);

#endif
