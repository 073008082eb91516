/*
 * cli_fix.c: `portdash fix`, the HPy rewrites of one revision (fix.h,
 * doc/fixes.md) as a unified diff for `git apply`, a list (--check) or a
 * count per rule and per refusal reason (--stat).
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <git2.h>

#include "analyzer/analyzer.h"
#include "cli.h"
#include "pd_error.h"
#include "pd_rev.h"
#include "pathfilter.h"

/* Offers counted per (rule, from) for --stat. */
typedef struct {
    const char *rule, *from, *to, *since;
    size_t n;
} cf_count;

typedef struct {
    const rules *r;
    git_repository *repo;
    pathfilter pf;
    const char **want_rules;
    size_t nwant;
    const char *hpy;          /* --hpy V: only offers HPy V has; NULL: all */
    int mode;                 /* 0 diff, 1 check, 2 stat */
    size_t files, skipped, offered, refused[FIX_R_COUNT];
    size_t legacy_pb, removed_pb;   /* legacy tokens in ported+bridged functions */
    cf_count *counts;
    size_t ncounts;
    int rc;
} cli_fx;

static void cli_fix_usage(FILE *out)
{
    fprintf(out,
        "usage: portdash fix [--rules FILE] --git-dir GITDIR --rev REV [--path GLOB]...\n"
        "                    [--rule R]... [--hpy V] [--check | --stat]\n\n"
        "Prints the HPy rewrites portdash offers for revision REV as a unified diff\n"
        "that `git apply` accepts: one-to-one replacements (PyErr_SetString ->\n"
        "HPyErr_SetString(ctx, ...), Py_ssize_t -> HPy_ssize_t) in functions with an\n"
        "HPyContext * in scope, each checked by analysing the rewritten file again.\n\n"
        "  --path GLOB  only paths matching a glob (numpy/core/**); repeatable\n"
        "  --rule R     only offers of rule R (hpy-call, hpy-name) or of the C API\n"
        "               name R (PyErr_SetString); repeatable\n"
        "  --hpy V      only offers whose HPy names exist in HPy version V (0.0.4,\n"
        "               0.9.0, master: the versions of server/hpy_api_names.tsv)\n"
        "  --check      list what would change (path:line:column: rule, names, HPy\n"
        "               version) instead of the diff\n"
        "  --stat       count offers per rule and name, refusals per reason, and the\n"
        "               share of the legacy tokens of ported and bridged functions\n"
        "               the offers remove\n\n"
        "Exit status: 0 done, 1 failure (or a blob that could not be read, skipped),\n"
        "2 bad usage, a repository that cannot be opened or a revision it does\n"
        "not know.\n");
}

/* Order of HPy versions: numbers part by part, "master" after all. */
static int fix_since_cmp(const char *a, const char *b)
{
    unsigned x[3] = {0}, y[3] = {0};
    int i, ma = strcmp(a, "master") == 0, mb = strcmp(b, "master") == 0;

    if (ma || mb)
        return ma - mb;
    sscanf(a, "%u.%u.%u", &x[0], &x[1], &x[2]);
    sscanf(b, "%u.%u.%u", &y[0], &y[1], &y[2]);
    for (i = 0; i < 3; i++)
        if (x[i] != y[i])
            return x[i] < y[i] ? -1 : 1;
    return 0;
}

static int cf_wanted(const fix_offer *o, void *arg)
{
    const cli_fx *x = arg;
    size_t i;

    if (o->reason != FIX_OK || (x->hpy && fix_since_cmp(o->since, x->hpy) > 0))
        return 0;
    for (i = 0; i < x->nwant; i++)
        if (fix_rule_matches(o, x->want_rules[i]))
            return 1;
    return x->nwant == 0;
}

static int cf_count_add(cli_fx *x, const fix_offer *o)
{
    size_t i;

    for (i = 0; i < x->ncounts; i++)
        if (x->counts[i].from == o->from && x->counts[i].rule == o->rule) {
            x->counts[i].n++;
            return 0;
        }
    if (x->ncounts % 64 == 0) {
        cf_count *p = realloc(x->counts, (x->ncounts + 64) * sizeof(*p));

        if (!p)
            return PD_ENOMEM;
        x->counts = p;
    }
    x->counts[x->ncounts++] = (cf_count){o->rule, o->from, o->to, o->since, 1};
    return 0;
}

/* The legacy tokens of ported and bridged functions, and those of them
 * that the wanted offers replace. */
static void cf_share(cli_fx *x, const an_result *res, const fix_list *l)
{
    size_t k, i;
    uint32_t m;

    for (k = 0; k < res->nfindings; k++) {
        const an_finding *f = &res->findings[k];
        an_status st;

        if (f->function < 0 || (f->cls != AN_CLASS_CAPI && f->cls != AN_CLASS_NPY_LEGACY))
            continue;
        st = res->functions[f->function].status;
        if (st != AN_STATUS_PORTED && st != AN_STATUS_BRIDGED)
            continue;
        x->legacy_pb++;
        for (i = 0; i < l->n; i++)
            if (cf_wanted(&l->v[i], x))
                for (m = 0; m < l->v[i].nremoved; m++)
                    x->removed_pb += l->v[i].removed[m][0] == f->line &&
                                     l->v[i].removed[m][1] == f->column;
    }
}

static int cf_file(cli_fx *x, const char *path, const char *buf, size_t len)
{
    an_result *res = NULL;
    fix_list l;
    char *out = NULL;
    size_t i, olen;
    int rc;

    if ((rc = an_analyze(&res, x->r, path, buf, len)) < 0)
        return rc;
    if ((rc = fix_file(&l, x->r, path, buf, len, res)) < 0) {
        an_result_free(res);
        return rc;
    }
    x->files++;
    for (i = 0; i < l.n && !rc; i++) {
        const fix_offer *o = &l.v[i];

        if (o->reason != FIX_OK) {
            x->refused[o->reason]++;
            continue;
        }
        if (!cf_wanted(o, x))
            continue;
        x->offered++;
        rc = cf_count_add(x, o);
        if (x->mode == 1)
            printf("%s:%u:%u: %s %s -> %s (HPy %s)%s%s\n", path, o->line, o->column, o->rule,
                   o->from, o->to, o->since, o->function >= 0 ? " in " : "",
                   o->function >= 0 ? res->functions[o->function].name : "");
    }
    cf_share(x, res, &l);
    if (!rc && x->mode == 0 && (rc = fix_apply(buf, len, &l, cf_wanted, x, &out, &olen)) == 0)
        rc = fix_diff(stdout, path, buf, len, out, olen);
    free(out);
    fix_list_free(&l);
    an_result_free(res);
    return rc;
}

static int cf_tree_cb(const char *root, const git_tree_entry *e, void *payload)
{
    cli_fx *x = payload;
    git_blob *blob = NULL;
    char path[4096];

    if (git_tree_entry_type(e) != GIT_OBJECT_BLOB)
        return 0;
    snprintf(path, sizeof(path), "%s%s", root, git_tree_entry_name(e));
    if (!an_path_is_source(path) || !pathfilter_contains(&x->pf, path))
        return 0;
    if (git_blob_lookup(&blob, x->repo, git_tree_entry_id(e)) < 0) {
        /* a blob missing from a partial clone: said, and the rest done */
        fprintf(stderr, "portdash fix: skipped %s: %s\n", path,
                git_error_last() ? git_error_last()->message : "cannot read the blob");
        x->skipped++;
        return 0;
    }
    x->rc = cf_file(x, path, git_blob_rawcontent(blob), (size_t)git_blob_rawsize(blob));
    git_blob_free(blob);
    return x->rc < 0 ? -1 : 0;
}

static void cf_stat(const cli_fx *x)
{
    size_t i;

    for (i = 0; i < x->ncounts; i++)
        printf("offered\t%s\t%s -> %s\tHPy %s\t%zu\n", x->counts[i].rule, x->counts[i].from,
               x->counts[i].to, x->counts[i].since, x->counts[i].n);
    for (i = 1; i < FIX_R_COUNT; i++)
        if (x->refused[i])
            printf("refused\t%s\t%zu\n", fix_reason_name((fix_reason)i), x->refused[i]);
    printf("total\t%zu files, %zu offered, legacy tokens in ported and bridged functions %zu, "
           "the offers replace %zu (%.1f %%)\n", x->files, x->offered, x->legacy_pb,
           x->removed_pb,
           x->legacy_pb ? 100.0 * (double)x->removed_pb / (double)x->legacy_pb : 0.0);
}

static int cf_run(cli_fx *x, const char *git_dir, const char *rev)
{
    git_object *obj = NULL;
    git_tree *tree = NULL;
    int rc;

    if (git_repository_open_ext(&x->repo, git_dir, GIT_REPOSITORY_OPEN_NO_SEARCH, NULL) < 0)
        return pd_error_set(PD_EINVAL, "cannot open repository %s: %s", git_dir,
                            git_error_last() ? git_error_last()->message : "?");
    /* an unknown revision is bad input (exit 2), as analyze's and gate's */
    if ((rc = pd_rev_parse(&obj, x->repo, rev)) == PD_ENOTFOUND)
        rc = pd_rev_unknown(x->repo, git_dir, rev, PD_EINVAL);
    if (rc == 0 &&
        git_object_peel((git_object **)&tree, obj, GIT_OBJECT_TREE) < 0)
        rc = pd_error_set(PD_ENOTFOUND, "revision '%s' has no tree", rev);
    if (rc == 0 && git_tree_walk(tree, GIT_TREEWALK_PRE, cf_tree_cb, x) < 0)
        rc = x->rc ? x->rc : pd_error_set(PD_EGIT, "cannot walk '%s'", rev);
    git_tree_free(tree);
    git_object_free(obj);
    git_repository_free(x->repo);
    return rc;
}

/* A mistyped rule or version would read as "nothing to fix" (or, for
 * --hpy, as every offer): named and refused, as a bad --path is.  1 when
 * one of want[0..n) or hpy (NULL: none) is unknown (reported), else 0. */
static int cf_unknown(const char **want, size_t n, const char *hpy)
{
    size_t i;

    for (i = 0; i < n; i++)
        if (!fix_rule_known(want[i])) {
            fprintf(stderr, "portdash fix: --rule '%s' is no rule (hpy-call, hpy-name) and no "
                    "C API name with a rewrite (ingest/rules/fix_calls.tsv)\n", want[i]);
            return 1;
        }
    if (hpy && !fix_hpy_version_known(hpy)) {
        fprintf(stderr, "portdash fix: --hpy '%s' is not an HPy version recorded "
                "(0.0.4, 0.9.0, master: server/hpy_api_names.tsv)\n", hpy);
        return 1;
    }
    return 0;
}

int cli_fix(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"git-dir", required_argument, 0, 'D'}, {"rev", required_argument, 0, 'v'},
        {"path", required_argument, 0, 'p'}, {"rule", required_argument, 0, 'u'},
        {"rules", required_argument, 0, 'R'}, {"check", no_argument, 0, 'c'},
        {"stat", no_argument, 0, 's'}, {"hpy", required_argument, 0, 'H'},
        {"help", no_argument, 0, 'h'}, {0, 0, 0, 0}};
    const char **globs = calloc((size_t)argc + 1, sizeof(char *));
    const char **want = calloc((size_t)argc + 1, sizeof(char *));
    const char *git_dir = NULL, *rev = NULL, *rules_path = NULL;
    rules *r = NULL;
    cli_fx x;
    int c, rc = CLI_USAGE, err = 0;

    memset(&x, 0, sizeof(x));
    optind = 1;
    while (globs && want && (c = cli_getopt(argc, argv, longopts)) != -1) {
        switch (c) {
        case 'D': git_dir = optarg; break;
        case 'v': rev = optarg; break;
        case 'p': globs[x.pf.ninclude++] = optarg; break;
        case 'u': want[x.nwant++] = optarg; break;
        case 'R': rules_path = optarg; break;
        case 'H': x.hpy = optarg; break;
        case 'c': x.mode = x.mode == 2 ? 3 : 1; break;
        case 's': x.mode = x.mode == 1 ? 3 : 2; break;
        case 'h': cli_fix_usage(stdout); rc = CLI_OK; goto done;
        default: cli_fix_usage(stderr); goto done;
        }
    }
    if (!globs || !want || !git_dir || !rev || optind < argc || x.mode == 3) {
        fprintf(stderr, "portdash fix: %s\n\n", !git_dir || !rev ? "--git-dir and --rev are needed"
                : optind < argc ? "no PATH arguments (use --path GLOB)"
                : "--check and --stat exclude each other");
        cli_fix_usage(stderr);
        goto done;
    }
    if (cf_unknown(want, x.nwant, x.hpy))
        goto done;
    x.pf.include = globs;
    x.want_rules = want;
    git_libgit2_init();
    if ((rules_path ? rules_load(&r, rules_path) : rules_load_default(&r)) < 0 ||
        (x.r = r, (err = cf_run(&x, git_dir, rev))) < 0) {
        fprintf(stderr, "portdash fix: %s\n", pd_error_last());
        rc = err == PD_EINVAL ? CLI_USAGE : CLI_FAIL;   /* a revision it does not know */
    } else if (!x.files && !x.skipped) {
        /* a mistyped --path would read as a port with nothing to rewrite,
         * as analyze and gate refuse it */
        char hint[600];

        pathfilter_hint(&x.pf, hint, sizeof(hint));
        fprintf(stderr, "portdash fix: no file of '%s' is selected by the path filter "
                "(--path)%s\n", rev, hint);
        rc = CLI_USAGE;
    } else {
        if (x.mode == 2)
            cf_stat(&x);
        else
            fprintf(stderr, "portdash fix: %zu files, %zu offered\n", x.files, x.offered);
        rc = x.skipped ? CLI_FAIL : CLI_OK;
    }
    git_libgit2_shutdown();
done:
    rules_free(r);
    free(x.counts);
    free(globs);
    free(want);
    return rc;
}
