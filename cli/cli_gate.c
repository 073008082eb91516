/*
 * cli_gate.c: `portdash gate`: the ratchet gate for CI, straight from git.
 * Exit 0 when the gate passes, 1 when it fails, 2 when it could not run
 * (bad usage, unknown revision, unreadable repository, bad policy or rules
 * file), so a CI job can tell a port that got worse from a broken setup.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "gate.h"
#include "gate_comment.h"
#include "gate_git.h"
#include "pd_error.h"
#include "pd_file.h"
#include "analyzer/analyzer.h"
#include "pathfilter.h"

/* Exit status when the gate could not be judged (issue 14). */
#define CLI_GATE_CANNOT_RUN 2

static void cli_gate_usage(FILE *out)
{
    fprintf(out,
        "usage: portdash gate --git-dir GITDIR --base REV --head REV\n"
        "                     [--format json|markdown|comment] [--policy FILE] [--rules FILE]\n"
        "                     [--include GLOB]... [--exclude GLOB]... [--fixable]\n"
        "                     [--dashboard URL --name NAME]\n\n"
        "Did HEAD make the port worse than BASE?  Analyses both revisions of the git\n"
        "repository (no database or server) and applies the ratchet: no function less\n"
        "ported, no new object-legacy path, no file that stops being universal-ready,\n"
        "no new C API use in a function that had none.  --policy FILE replaces these\n"
        "with its own lines: 'ratchet status|object-legacy|universal-ready|new-capi|\n"
        "fixable', 'max MEASURE N', 'min MEASURE N'.  --fixable adds the fixable\n"
        "ratchet: no added line with a legacy use that a checked HPy rewrite of\n"
        "`portdash fix` replaces (the change's own lines only).\n"
        "--format markdown prints a pull-request comment of the verdict.  --format\n"
        "comment prints the pull request's comment: what its own lines (the diff from\n"
        "the merge base) did to the port, whom to ask (who ported or last changed each\n"
        "function, from history), links to the dashboard at --dashboard URL for\n"
        "repository --name NAME; nothing at all when its lines moved nothing and the\n"
        "gate passes.  Exit status: 0 the gate passes, 1 the gate fails, 2 the gate\n"
        "could not run (bad usage, unknown revision, unreadable repository, bad policy).\n"
        "--repo GITDIR is a deprecated alias of --git-dir.\n");
}

/* 1 after naming on stderr what is wrong with the arguments, else 0: a CI
 * log shows this line to whoever broke the job, so it says which. */
static int cli_gate_args_bad(const char *repo, const char *base, const char *head,
                             const char *extra, int dashboard_unnamed, const char *fmt)
{
    if (!repo || !base || !head)
        fprintf(stderr, "portdash gate: %s is required\n",
                !repo ? "--git-dir GITDIR" : !base ? "--base REV" : "--head REV");
    else if (extra)
        fprintf(stderr, "portdash gate: unexpected argument '%s' (the revisions "
                "go after --base and --head)\n", extra);
    else if (dashboard_unnamed)
        fprintf(stderr, "portdash gate: --dashboard needs --name (the repository's "
                "name on the dashboard)\n");
    else if (strcmp(fmt, "json") && strcmp(fmt, "markdown") && strcmp(fmt, "comment"))
        fprintf(stderr, "portdash gate: --format is json, markdown or comment, "
                "not '%s'\n", fmt);
    else
        return 0;
    fputc('\n', stderr);
    return 1;
}

/* The verdict res on stdout in format fmt ("comment" runs the comment's
 * own steps from repo, base, head, r and pf, linking to dashboard as
 * repository name); -1 when it cannot be written (reported). */
static int cli_gate_print(const char *fmt, json_t *res, const char *repo, const char *base,
                          const char *head, const rules *r, const pathfilter *pf,
                          const char *dashboard, const char *name)
{
    char *md = NULL;

    if (strcmp(fmt, "comment") == 0) {
        gate_comment_opts co = {dashboard, name, res};

        if (gate_comment_run(&md, NULL, repo, base, head, r, pf, &co) < 0) {
            fprintf(stderr, "portdash gate: %s\n", pd_error_last());
            return -1;
        }
    } else if (strcmp(fmt, "markdown") == 0) {
        if (!(md = gate_markdown(res))) {
            fprintf(stderr, "portdash gate: out of memory writing the Markdown verdict\n");
            return -1;
        }
    } else {
        json_dumpf(res, stdout, JSON_INDENT(2));
        fputc('\n', stdout);
        return 0;
    }
    fputs(md, stdout);
    free(md);
    return 0;
}

int cli_gate(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"git-dir", required_argument, 0, 'G'}, {"repo", required_argument, 0, 'r'},
        {"base", required_argument, 0, 'b'},
        {"head", required_argument, 0, 'H'}, {"format", required_argument, 0, 'f'},
        {"policy", required_argument, 0, 'p'}, {"rules", required_argument, 0, 'R'},
        {"include", required_argument, 0, 'i'}, {"exclude", required_argument, 0, 'x'},
        {"fixable", no_argument, 0, 'F'},
        {"dashboard", required_argument, 0, 'D'}, {"name", required_argument, 0, 'N'},
        {"help", no_argument, 0, 'h'}, {0, 0, 0, 0}};
    const char *repo = NULL, *base = NULL, *head = NULL, *fmt = "json", *policy = NULL;
    int fixable = 0;
    const char *rules_path = NULL, *dashboard = NULL, *name = NULL;
    const char **inc = calloc(argc, sizeof(char *)), **exc = calloc(argc, sizeof(char *));
    pathfilter pf = {inc, 0, exc, 0};
    gate_policy pol;
    rules *r = NULL;
    json_t *res = NULL;
    char *text = NULL;
    int c, rc = CLI_USAGE;

    optind = 1;
    while (inc && exc && (c = cli_getopt(argc, argv, longopts)) != -1) {
        switch (c) {
        case 'r': cli_deprecated("gate", "--repo", "--git-dir"); /* fall through */
        case 'G': repo = optarg; break;
        case 'b': base = optarg; break;
        case 'H': head = optarg; break;
        case 'f': fmt = optarg; break;
        case 'p': policy = optarg; break;
        case 'R': rules_path = optarg; break;
        case 'i': inc[pf.ninclude++] = optarg; break;
        case 'x': exc[pf.nexclude++] = optarg; break;
        case 'F': fixable = 1; break;
        case 'D': dashboard = optarg; break;
        case 'N': name = optarg; break;
        case 'h': cli_gate_usage(stdout); rc = CLI_OK; goto done;
        default: cli_gate_usage(stderr); goto done;
        }
    }
    if (cli_gate_args_bad(repo, base, head, optind < argc ? argv[optind] : NULL,
                          dashboard && !name, fmt)) {
        cli_gate_usage(stderr);
        goto done;
    }
    rc = CLI_GATE_CANNOT_RUN;
    gate_policy_default(&pol);
    if (policy && pd_file_read(policy, 0, NULL, &text, NULL) < 0) {
        fprintf(stderr, "portdash gate: cannot read policy file %s\n", policy);
        goto done;
    }
    if ((text && gate_policy_parse(&pol, policy, text) < 0) ||
        (pol.ratchets |= fixable ? GATE_FIXABLE : 0, 0) ||
        (rules_path ? rules_load(&r, rules_path) : rules_load_default(&r)) < 0 ||
        gate_git_run(&res, repo, base, head, &pol, r, &pf) < 0) {
        fprintf(stderr, "portdash gate: %s\n", pd_error_last());
        goto done;
    }
    if (cli_gate_print(fmt, res, repo, base, head, r, &pf, dashboard, name) < 0)
        goto done;
    rc = strcmp(json_string_value(json_object_get(res, "result")), "pass") == 0
         ? CLI_OK : CLI_FAIL;
done:
    json_decref(res);
    rules_free(r);
    free(text);
    free(inc);
    free(exc);
    return rc;
}
