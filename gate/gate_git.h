/*
 * gate_git.h: the gate straight from a git repository, without a database
 * or server (for `portdash gate` in CI): both revs' selected files (path filter) are read
 * with libgit2 and analysed, each distinct blob once.
 */
#ifndef GATE_GIT_H
#define GATE_GIT_H

#include <jansson.h>

#include "gate.h"
#include "analyzer/analyzer.h"
#include "pathfilter.h"

/*
 * Run the gate between revs `base` and `head` of the git directory `gitdir`
 * under `policy`, analysing with `r` the files in `pf` (NULL: default
 * kinds).  *out is the verdict of gate_result() (caller decrefs).  Errors:
 * PD_EGIT (repository or rev; the message names it), PD_ENOMEM.
 */
int gate_git_run(json_t **out, const char *gitdir, const char *base, const char *head,
                 const gate_policy *policy, const rules *r, const pathfilter *pf);

#endif
