/*
 * pd_rev.h: the one gate between a revision string from outside (a URL, a
 * query argument, a request body, a command-line option a bot fills in)
 * and anything that resolves it (the database's refs, libgit2's revparse).
 *
 * git's revision syntax is a small language: `^{/regex}` runs a regular
 * expression over every commit message of the history, `@{...}` reads
 * reflogs, `:path` and `:/text` search trees and messages, `A..B` is a
 * range.  One request naming such a revision cost minutes of CPU (issue
 * 27), so only what the product documents is accepted (doc/hardening.md):
 *
 *   rev    = name *suffix
 *   name   = a ref name as `git check-ref-format --allow-onelevel` accepts
 *            it (a full or abbreviated commit id, 4-40 hex digits, is one)
 *            that does not start with '-', at most PD_REV_MAX bytes
 *   suffix = "~" [N] | "^" [N]     (N decimal; "~" and "^" alone are 1)
 *
 * with every N at most PD_REV_MAX_STEPS and the steps of all suffixes
 * together (~N counts N, ^N counts 1) at most PD_REV_MAX_STEPS.
 */
#ifndef PD_REV_H
#define PD_REV_H

#include <git2.h>

#define PD_REV_MAX 255           /* bytes of a revision string */
#define PD_REV_MAX_STEPS 10000   /* ancestors a revision may walk */

/*
 * 0 when `rev` is a revision of the grammar above; PD_EINVAL otherwise,
 * with a message (pd_error_set) quoting the revision (cut to 80 bytes) and
 * naming the rule it breaks.
 */
int pd_rev_check(const char *rev);

/*
 * 0 when `name` is a ref name alone (the grammar's `name`, no suffix): what
 * may be stored as a branch or tag to follow.  PD_EINVAL as pd_rev_check.
 */
int pd_ref_name_check(const char *name);

/*
 * pd_rev_check, then git_revparse_single: the only way portdash resolves a
 * revision with libgit2.  *out (freed with git_object_free) on 0; PD_EINVAL
 * for a revision outside the grammar, PD_ENOTFOUND when the repository
 * does not know it (message: "unknown revision 'X'").
 */
int pd_rev_parse(git_object **out, git_repository *repo, const char *rev);

/* At most this many names (branches, refs) are listed in the message of
 * an unknown revision; the rest are counted. */
#define PD_REV_NAMED 8

/* The names an unknown-revision message lists: the first PD_REV_NAMED,
 * each cut at 60 bytes, ", "-separated in `text`; `n` counts them all. */
typedef struct {
    char text[PD_REV_NAMED * 64 + 1];
    size_t len, n;
} pd_rev_names;

/* Count `name` into l, and list it while fewer than PD_REV_NAMED are. */
void pd_rev_names_add(pd_rev_names *l, const char *name);

/* The names listed in l, then " and N more" when l counted more: into
 * buf (n bytes, cut to fit); returns buf. */
const char *pd_rev_names_str(const pd_rev_names *l, char *buf, size_t n);

/*
 * Set the message of revision `rev` that repository `repo` (at `gitdir`,
 * named in the message) does not know, and return `code`: it names the
 * revision and the repository's branches, local and remote-tracking (the
 * first few and how many more; first the one that differs by a remote's
 * name in front: 'hpy' for 'origin/hpy'), or says it has none (a CI clone
 * that did not fetch the base branch).  For the command that read it from
 * the command line (gate).
 */
int pd_rev_unknown(git_repository *repo, const char *gitdir, const char *rev, int code);

#endif
