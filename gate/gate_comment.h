/*
 * gate_comment.h: the pull-request comment (issue 24, point 4), in the
 * manner of Codecov's: what the pull request's own lines did to the port,
 * the people to ask, links to the dashboard at the exact commits.
 *
 * The pull request's lines are those of the diff from the merge base of
 * base and head to head (renames found by similarity).  A function is
 * on them when its span at head holds an added line or its span at the
 * merge base a removed one.  Counted there: functions ported (status
 * better: legacy < bridged < ported, neutral ranked with ported; or new
 * and ported), functions less ported (status worse), blocking uses added
 * (unguarded C API and bridge findings on added lines) and removed (on
 * removed lines), files that became or stopped being universal-ready.
 * Each function listed names whom to ask (gate_owners.h: its first
 * porter, else who changed it last, at the merge base).  When none of
 * these moved the comment is empty: nothing to post.
 */
#ifndef GATE_COMMENT_H
#define GATE_COMMENT_H

#include <jansson.h>

#include "analyzer/analyzer.h"
#include "pathfilter.h"

typedef struct {
    const char *dashboard;       /* the dashboard's base URL, or NULL: no links */
    const char *name;            /* the repository's name on the dashboard */
    json_t *verdict;             /* the gate's verdict (gate_result), or NULL */
} gate_comment_opts;

/* The marker line the CI recipes find their comment by. */
#define GATE_COMMENT_MARKER "<!-- portdash:pull-request-comment -->"

/*
 * The comment for the pull request base...head of the repository at
 * `gitdir` into *out (caller frees; "" when there is nothing to say),
 * and its figures into *facts when facts is not NULL (a new reference:
 * {"ported", "less_ported", "uses_added", "uses_removed", "ready_gained",
 * "ready_lost", "functions": [...], "ask": [...]}).  0, PD_EGIT (unknown
 * rev, unreadable repository), PD_ENOMEM.
 */
int gate_comment_run(char **out, json_t **facts, const char *gitdir, const char *base,
                     const char *head, const rules *r, const pathfilter *pf,
                     const gate_comment_opts *o);

#endif
