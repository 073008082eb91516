/*
 * cli_analyze_args.c: the options of `portdash analyze` (cli_analyze.c):
 * its usage, their parse and the combinations it refuses.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli_analyze_args.h"
#include "pd_error.h"
#include "pd_sched.h"

void cli_analyze_usage(FILE *out)
{
    fprintf(out,
        "usage: portdash analyze [--format FMT] [--rules FILE] [--fail-on CLASS]... PATH...\n"
        "       portdash analyze [options] --git-dir GITDIR --rev REV [--path GLOB]...\n"
        "       portdash analyze [--rules FILE] --git-dir GITDIR --blobs FILE\n\n"
        "Prints the porting analysis of C/C++/numpy-template files without a\n"
        "database: files and directories (searched for .c .h .inc, numpy's\n"
        "templates .c.src .h.src .inc.src, and C++ .cpp .hpp .cc .cxx .hh .hxx)\n"
        "from disk, or the files of revision REV of a git repository.\n\n"
        "  --format FMT     text (default), json, sarif (SARIF 2.1.0), or functions\n"
        "                   (tab-separated path, name, name line, first and last\n"
        "                   line, the file's language: c or c++)\n"
        "  --rules FILE     rules file (default: the built-in HPy/numpy rules)\n"
        "  --fail-on CLASS  exit 1 when an unguarded finding of CLASS (hpy, capi,\n"
        "                   npy-legacy, bridge) or a function in object state CLASS\n"
        "                   (object-legacy, object-cpython-only, object-universal)\n"
        "                   is found; repeatable, or a comma list\n"
        "  --git-dir GITDIR read from this git repository (bare or not; --repo GITDIR\n"
        "                   is a deprecated alias)\n"
        "  --rev REV        the revision to read (branch, tag, commit)\n"
        "  --path GLOB      with --git-dir, only paths matching a glob (numpy/core/**,\n"
        "                   from the root of the repository); repeatable\n"
        "  --threads N      analysis threads, 1 to 256 (default: one per CPU this\n"
        "                   process may use, at most 8; 1: none); the output is\n"
        "                   the same for any N\n"
        "  --blobs FILE     benchmark: analyse the blobs listed in FILE (one id a\n"
        "                   line, '-' for stdin) on one thread and print the time\n"
        "                   and MB/s\n\n"
        "SARIF fits GitHub code scanning (25,000 results per run, 10 MB gzip):\n"
        "one result per finding when they fit, else one per function and class\n"
        "with its counts; what was grouped or left out goes to stderr and\n"
        "run.properties[\"portdash/sarif\"].\n"
        "  --sarif-group G    auto (default), finding, or function\n"
        "  --sarif-classes L  only these classes (capi,npy-legacy,bridge)\n"
        "  --sarif-level LV   only results at LV or worse (note, warning, error)\n"
        "  --sarif-max N      at most N results, worst levels kept (default 25000)\n"
        "  --sarif-since REV  only findings new since REV (with --git-dir: a\n"
        "                     pull request's own; moved lines are not new);\n"
        "                     the results only: --fail-on counts every finding\n"
        "                     (portdash gate fails on what a change made worse)\n\n"
        "Exit status: 0 nothing forbidden found, 1 forbidden findings or failure,\n"
        "2 bad usage: a PATH that cannot be opened or is no C source, a\n"
        "directory without one, a repository that cannot be opened or a\n"
        "revision it does not know.\n");
}

/* The default of --threads: one per CPU it may use, as `portdash ingest`'s,
 * but at most 8: each thread's arena keeps what its largest file needed
 * (numpy's largest template: about 10 MB), and the main thread, which
 * prints in order, and numpy's few large templates bound the run beyond a
 * few threads anyway. */
#define CLI_AN_MAX_DEFAULT_THREADS 8

static unsigned cli_an_cpus(void)
{
    unsigned n = pd_sched_cpus();

    return n > CLI_AN_MAX_DEFAULT_THREADS ? CLI_AN_MAX_DEFAULT_THREADS : n;
}

/* One --sarif-* option (getopt code c) into *so; 0 or PD_EINVAL. */
static int cli_an_sarif_opt(sarif_write_opts *so, int c, const char *arg)
{
    char *end;
    long n;

    switch (c) {
    case 'G':
        so->group = strcmp(arg, "auto") == 0 ? SARIF_WRITE_AUTO
                  : strcmp(arg, "finding") == 0 ? SARIF_WRITE_FINDING
                  : strcmp(arg, "function") == 0 ? SARIF_WRITE_FUNCTION : -1;
        return (int)so->group < 0 ? pd_error_set(PD_EINVAL, "--sarif-group: '%.40s' is "
                                                 "not auto, finding or function", arg) : 0;
    case 'C':
        return sarif_write_classes(&so->classes, arg);
    case 'L':
        return sarif_write_level(&so->min_level, arg);
    default:
        n = strtol(arg, &end, 10);
        if (*end || n < 1 || n > SARIF_WRITE_MAX_RESULTS)
            return pd_error_set(PD_EINVAL, "--sarif-max: want 1 to %d", SARIF_WRITE_MAX_RESULTS);
        so->max_results = (size_t)n;
        return 0;
    }
}

/* What is wrong with this combination of options (`paths`: any PATH
 * given), for the usage message; NULL when nothing is. */
static const char *cli_an_misuse(const char *format, const char *repo, const char *rev,
                                 const char *blobs, const char *since, int paths, int globs,
                                 int sarif_opts)
{
    /* on disk a --path would be ignored: every PATH is read whole */
    if (!repo && globs)
        return "--path needs --git-dir and --rev: it selects files of a revision (files "
               "and directories on disk are given as PATH arguments: "
               "portdash analyze numpy/core)";
    if (!repo && !paths)
        return "no PATH given";
    if (repo && !rev && !blobs)
        return "--git-dir needs --rev (or --blobs)";
    if (!repo && (rev || blobs || since))
        return "--rev, --blobs and --sarif-since need --git-dir";
    if (strcmp(format, "text") && strcmp(format, "json") &&
        strcmp(format, "sarif") && strcmp(format, "functions"))
        return "unknown --format (text, json, sarif, functions)";
    /* the text or JSON would be printed whole, while stderr said what the
     * option had done */
    if (sarif_opts && strcmp(format, "sarif"))
        return "--sarif-group, --sarif-classes, --sarif-level, --sarif-max and --sarif-since "
               "shape --format sarif only";
    return NULL;
}


int cli_an_parse(int argc, char **argv, cli_an_args *o)
{
    static const struct option longopts[] = {
        {"format", required_argument, 0, 'F'}, {"rules", required_argument, 0, 'R'},
        {"fail-on", required_argument, 0, 'f'}, {"git-dir", required_argument, 0, 'D'},
        {"repo", required_argument, 0, 'r'},
        {"rev", required_argument, 0, 'v'}, {"path", required_argument, 0, 'p'},
        {"blobs", required_argument, 0, 'b'}, {"help", no_argument, 0, 'h'},
        {"sarif-group", required_argument, 0, 'G'},
        {"sarif-classes", required_argument, 0, 'C'},
        {"sarif-level", required_argument, 0, 'L'},
        {"sarif-max", required_argument, 0, 'M'},
        {"sarif-since", required_argument, 0, 'S'},
        {"threads", required_argument, 0, 't'}, {0, 0, 0, 0}};
    int c;

    o->format = "text";
    o->threads = cli_an_cpus();
    optind = 1;
    while ((c = cli_getopt(argc, argv, longopts)) != -1) {
        switch (c) {
        case 'F': o->format = optarg; break;
        case 'R': o->rules_path = optarg; break;
        case 'f':
            if (report_fail_parse(&o->fail, optarg) < 0) {
                fprintf(stderr, "portdash analyze: %s\n", pd_error_last());
                return CLI_USAGE;
            }
            break;
        case 'r': cli_deprecated("analyze", "--repo", "--git-dir"); /* fall through */
        case 'D': o->repo = optarg; break;
        case 'v': o->rev = optarg; break;
        case 'p': o->globs[o->nglobs++] = optarg; break;
        case 'b': o->blobs = optarg; break;
        case 't':
            if (cli_threads("analyze", optarg, &o->threads) < 0)
                return CLI_USAGE;
            o->threads_given = 1;
            break;
        case 'S': o->so.since = optarg; o->sarif_opts = 1; break;
        case 'G': case 'C': case 'L': case 'M':
            o->sarif_opts = 1;
            if (cli_an_sarif_opt(&o->so, c, optarg) < 0) {
                fprintf(stderr, "portdash analyze: %s\n", pd_error_last());
                return CLI_USAGE;
            }
            break;
        case 'h': cli_analyze_usage(stdout); return CLI_OK;
        default: cli_analyze_usage(stderr); return CLI_USAGE;
        }
    }
    return -1;
}

const char *cli_an_refused(const cli_an_args *o, int argc)
{
    /* The benchmark reads its own list on one thread and prints its own
     * line: an option that shapes the analysis' output would go unheeded. */
    if (o->blobs && (o->rev || optind < argc || o->nglobs || o->sarif_opts ||
                     o->threads_given || o->fail.classes || o->fail.objstates ||
                     strcmp(o->format, "text")))
        return "--blobs (the benchmark) takes --git-dir and --rules only";
    return cli_an_misuse(o->format, o->repo, o->rev, o->blobs, o->so.since, optind < argc,
                         o->nglobs != 0, o->sarif_opts);
}
