/*
 * pd_rev.c: revision strings from outside, checked before anything
 * resolves them (pd_rev.h).  The ref-name rules are git's
 * (git-check-ref-format(1), rules 1 and 3-10, one level allowed).
 */
#include <stdio.h>
#include <string.h>

#include "pd_error.h"
#include "pd_rev.h"

/* Refuse `rev` for `rule`; the quote is cut so a long string stays short. */
static int pd_rev_refuse(const char *rev, const char *rule)
{
    return pd_error_set(PD_EINVAL, "revision '%.80s%s' refused: %s (a revision is a "
                        "ref name or a commit id, optionally followed by ~N or ^N; "
                        "doc/hardening.md)", rev, strlen(rev) > 80 ? "..." : "", rule);
}

/* Why byte c may not be in a ref name, or NULL when it may. */
static const char *pd_rev_bad_char(unsigned char c)
{
    if (c < 0x20 || c == 0x7f)
        return "a control character is not allowed";
    switch (c) {
    case ' ': return "a space is not allowed";
    case ':': return "':' (a path in a tree, or a search of messages) is not allowed";
    case '?': case '*': case '[': return "'?', '*' and '[' (patterns) are not allowed";
    case '\\': return "'\\' is not allowed";
    default: return NULL;
    }
}

/* The ref-name rules on rev[0..n). */
static int pd_rev_name(const char *rev, size_t n)
{
    size_t i, start = 0;
    const char *why;

    if (n == 0)
        return pd_rev_refuse(rev, "the ref name is empty");
    if (rev[0] == '-')
        return pd_rev_refuse(rev, "a ref name may not start with '-' (an option)");
    if (n == 1 && rev[0] == '@')
        return pd_rev_refuse(rev, "'@' alone is not a ref name");
    for (i = 0; i < n; i++) {
        if ((why = pd_rev_bad_char((unsigned char)rev[i])))
            return pd_rev_refuse(rev, why);
        if (i + 1 < n && rev[i] == '.' && rev[i + 1] == '.')
            return pd_rev_refuse(rev, "'..' (a range) is not allowed");
        if (i + 1 < n && rev[i] == '@' && rev[i + 1] == '{')
            return pd_rev_refuse(rev, "'@{' (reflogs, upstreams) is not allowed");
        if (i + 1 < n && rev[i] == '/' && rev[i + 1] == '/')
            return pd_rev_refuse(rev, "'//' is not allowed");
        if (i == n - 1 || rev[i + 1] == '/') {
            /* The end of a component: rule 1. */
            if (rev[start] == '.')
                return pd_rev_refuse(rev, "a component may not start with '.'");
            if (i + 1 - start >= 5 && memcmp(rev + i - 4, ".lock", 5) == 0)
                return pd_rev_refuse(rev, "a component may not end with '.lock'");
            start = i + 2;
        }
    }
    if (rev[0] == '/' || rev[n - 1] == '/' || rev[n - 1] == '.')
        return pd_rev_refuse(rev, "a ref name may not begin or end with '/' or end "
                             "with '.'");
    return 0;
}

int pd_ref_name_check(const char *name)
{
    size_t n = strlen(name);

    if (n > PD_REV_MAX)
        return pd_rev_refuse(name, "longer than 255 bytes");
    if (strpbrk(name, "~^"))
        return pd_rev_refuse(name, "a ref name has no '~' or '^' (name a branch or tag)");
    return pd_rev_name(name, n);
}

int pd_rev_check(const char *rev)
{
    size_t n = strlen(rev), name = strcspn(rev, "~^"), i = name;
    long steps = 0;
    int rc;

    if (n > PD_REV_MAX)
        return pd_rev_refuse(rev, "longer than 255 bytes");
    if ((rc = pd_rev_name(rev, name)) < 0)
        return rc;
    while (i < n) {
        int tilde = rev[i++] == '~';
        long v = 1;

        if (rev[i] >= '0' && rev[i] <= '9') {
            for (v = 0; rev[i] >= '0' && rev[i] <= '9'; i++)
                if ((v = v * 10 + (rev[i] - '0')) > PD_REV_MAX_STEPS)
                    return pd_rev_refuse(rev, "N of ~N or ^N is over 10000");
        }
        if (rev[i] && rev[i] != '~' && rev[i] != '^')
            return pd_rev_refuse(rev, "only ~N and ^N may follow a ref name or commit "
                                 "id ('^{...}', ':', '@{' and ranges are git searches "
                                 "portdash does not run)");
        steps += tilde ? v : 1;
        if (steps > PD_REV_MAX_STEPS)
            return pd_rev_refuse(rev, "the ~N and ^N steps add up to over 10000");
    }
    return 0;
}

int pd_rev_parse(git_object **out, git_repository *repo, const char *rev)
{
    int rc;

    *out = NULL;
    if ((rc = pd_rev_check(rev)) < 0)
        return rc;
    if (git_revparse_single(out, repo, rev) < 0)
        return pd_error_set(PD_ENOTFOUND, "unknown revision '%s'", rev);
    return 0;
}

void pd_rev_names_add(pd_rev_names *l, const char *name)
{
    if (l->n++ < PD_REV_NAMED)
        l->len += (size_t)snprintf(l->text + l->len, sizeof(l->text) - l->len, "%s%.60s",
                                   l->n > 1 ? ", " : "", name);
}

const char *pd_rev_names_str(const pd_rev_names *l, char *buf, size_t n)
{
    if (l->n <= PD_REV_NAMED)
        snprintf(buf, n, "%s", l->text);
    else
        snprintf(buf, n, "%s and %zu more", l->text, l->n - PD_REV_NAMED);
    return buf;
}

/* 1 when branch `name` is `rev` but for a remote's name in front of one of
 * them (origin/hpy for hpy, or hpy for origin/hpy). */
static int pd_rev_near(const char *name, const char *rev)
{
    const char *a = strchr(name, '/'), *b = strchr(rev, '/');

    return (a && strcmp(a + 1, rev) == 0) || (b && strcmp(b + 1, name) == 0);
}

int pd_rev_unknown(git_repository *repo, const char *gitdir, const char *rev, int code)
{
    git_branch_iterator *it = NULL;
    git_reference *ref;
    git_branch_t type;
    pd_rev_names l = {"", 0, 0};
    char near[80] = "", names[sizeof(l.text) + 32];

    if (git_branch_iterator_new(&it, repo, GIT_BRANCH_ALL) == 0) {
        while (git_branch_next(&ref, &type, it) == 0) {
            const char *name = NULL;

            if (git_branch_name(&name, ref) == 0 && name) {
                pd_rev_names_add(&l, name);
                if (!near[0] && pd_rev_near(name, rev))
                    snprintf(near, sizeof(near), "did you mean '%.60s'? ", name);
            }
            git_reference_free(ref);
        }
        git_branch_iterator_free(it);
    }
    if (l.n == 0)
        return pd_error_set(code, "%s: unknown revision '%s' (no branch, tag or commit of "
                            "that name, and no branch at all: fetch the branch into this "
                            "clone first)", gitdir, rev);
    if (l.n <= PD_REV_NAMED)
        return pd_error_set(code, "%s: unknown revision '%s' (no branch, tag or commit of "
                            "that name; %sits branches: %s)", gitdir, rev, near,
                            pd_rev_names_str(&l, names, sizeof(names)));
    return pd_error_set(code, "%s: unknown revision '%s' (no branch, tag or commit of that "
                        "name; %sits branches: %s, `git --git-dir %s branch -a` lists them)",
                        gitdir, rev, near, pd_rev_names_str(&l, names, sizeof(names)), gitdir);
}
