/*
 * cli_ingest.c: `portdash ingest`.
 */
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "db_repo.h"
#include "ingest.h"
#include "pd_malloc.h"
#include "pd_error.h"

static void cli_ingest_usage(FILE *out)
{
    fprintf(out,
        "usage: portdash ingest --db FILE --git-dir GITDIR [--name NAME] [--ref REF]...\n"
        "                       [--include GLOB]... [--exclude GLOB]... [--rules FILE]\n"
        "                       [--upstream REF] [--no-patch-ids] [--threads N] [--no-memo]\n"
        "                       [--background] [--quiet] [--wait SECONDS]\n\n"
        "Walks the first-parent history of each REF (default: HEAD) of the git\n"
        "repository GITDIR (bare or not), analyses every version of the files its\n"
        "path filter selects (source kinds, --include, --exclude) and stores the\n"
        "results in FILE (created if missing).  A second run (a push) only reads\n"
        "what is new; the path filter is stored with the repository, so a later\n"
        "run may leave out --include and --exclude (another filter is refused).\n\n"
        "  --db FILE        database file\n"
        "  --git-dir GITDIR git directory to read (--repo GITDIR: deprecated alias)\n"
        "  --name NAME      repository name in the dashboard (default: GITDIR's\n"
        "                   base name without .git)\n"
        "  --ref REF        branch, tag or commit to walk; repeatable\n"
        "  --include GLOB   only paths matching a glob (numpy/core/**); repeatable\n"
        "  --exclude GLOB   leave out matching paths; repeatable\n"
        "  --rules FILE     rules file (default: the built-in HPy/numpy rules)\n"
        "  --upstream REF   the branch the port was forked from: a ref's own\n"
        "                   commits are those REF cannot reach (default: the\n"
        "                   upstream stored for the ref, its stored fork base when\n"
        "                   the git directory lacks it; else main or master when\n"
        "                   the repository has one; else the port starts at the\n"
        "                   first HPy token)\n"
        "  --no-patch-ids   skip git patch ids (faster; no links between a\n"
        "                   rebased commit and its earlier version)\n"
        "  --threads N      analysis threads (default: one per CPU the process\n"
        "                   may use, its CPU limit counted; 1: no threads); the\n"
        "                   stored result is the same for any N\n"
        "  --no-memo        analyse every version whole instead of reusing the\n"
        "                   analysis of unchanged functions (same result;\n"
        "                   the memo's size: PORTDASH_MEMO_MB, default 12)\n"
        "  --background     give way to everything else on the machine: the\n"
        "                   planner and analysis threads run at SCHED_IDLE (only\n"
        "                   on CPU nothing else wants); the writing thread, which\n"
        "                   holds the write lock, does what they are late with\n"
        "                   itself; the shipped systemd unit uses it (same result)\n"
        "  --quiet          no progress display\n"
        "  --wait SECONDS   while another ingest or snapshot writes the database,\n"
        "                   wait up to SECONDS for it (default 0: fail at once\n"
        "                   with \"another ingest is running\", exit status 1)\n\n"
        "A ref whose new tip does not descend from the stored one (a rebase or\n"
        "force-push) is recorded as a rewrite; every old commit is kept.\n"
        "SIGINT, SIGTERM or SIGHUP rolls the open batch of commits back, keeps\n"
        "the finished ones and ends the command by that signal.  A new FILE is\n"
        "built as FILE.new and renamed to FILE at the end (doc/guide.md).\n");
}

/* Default name: the directory's base name without ".git" and "/.git". */
static void cli_default_name(char *buf, size_t n, const char *path)
{
    char tmp[4096], *base, *dot;
    size_t len;

    snprintf(tmp, sizeof(tmp), "%s", path);
    while ((len = strlen(tmp)) > 1 && tmp[len - 1] == '/')
        tmp[len - 1] = '\0';
    if ((len = strlen(tmp)) > 5 && strcmp(tmp + len - 5, "/.git") == 0)
        tmp[len - 5] = '\0';
    base = strrchr(tmp, '/') ? strrchr(tmp, '/') + 1 : tmp;
    if ((dot = strstr(base, ".git")) && dot[4] == '\0' && dot != base)
        *dot = '\0';
    snprintf(buf, n, "%s", base);
}

/* bytes as "1.5 MB", "12.0 KB" or "512 bytes": a demo's few KB read as
 * "0.0 MB" of analysis. */
static const char *cli_bytes(char *buf, size_t n, double bytes)
{
    if (bytes >= 1e6)
        snprintf(buf, n, "%.1f MB", bytes / 1e6);
    else if (bytes >= 1e3)
        snprintf(buf, n, "%.1f KB", bytes / 1e3);
    else
        snprintf(buf, n, "%.0f bytes", bytes);
    return buf;
}

/* SIGINT, SIGTERM or SIGHUP received: the run stops before its next
 * commit or within its running statement, rolls the open batch back and
 * closes as after an error, so that what it committed is kept (and a new
 * database built aside is put in place, db_aside.h); then the process
 * ends by that signal, as a shell or systemd expects (systemd counts a
 * SIGTERM end of `systemctl stop` as clean).  The first signal gives
 * every one of them back its default action: a second one ends the
 * process at once (but for the placing, which holds them). */
static volatile sig_atomic_t cli_ingest_signal;

static void cli_ingest_on_signal(int sig)
{
    cli_ingest_signal = sig;
    signal(SIGINT, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
    signal(SIGHUP, SIG_DFL);
}

/* ingest_options.interrupted */
static int cli_ingest_stopped(void *arg)
{
    (void)arg;
    return cli_ingest_signal != 0;
}

static void cli_ingest_catch(void)
{
    struct sigaction sa;

    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = cli_ingest_on_signal;
    sa.sa_flags = SA_RESTART;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL);
}

/* After a run stopped by signal `sig` (st its stats): say so, then end
 * by the signal. */
static void cli_ingest_end_by(int sig, const ingest_stats *st)
{
    const char *name = sig == SIGTERM ? "SIGTERM" : sig == SIGHUP ? "SIGHUP" : "SIGINT";

    if (!st->locked)                /* it waited for another ingest */
        fprintf(stderr, "portdash ingest: stopped by %s: %s\n", name, pd_error_last());
    else if (st->close_failed)      /* a new database not put in place */
        fprintf(stderr, "portdash ingest: stopped by %s, then: %s\n", name, pd_error_last());
    else if (st->commits_kept)
        fprintf(stderr, "portdash ingest: stopped by %s: the open batch of commits was "
                "rolled back, the %llu commits of the batches before it are kept (a ref "
                "is stored once its history is in: `repo list` may show none yet); "
                "ingest again to go on\n", name, (unsigned long long)st->commits_kept);
    else
        fprintf(stderr, "portdash ingest: stopped by %s: the open batch of commits was "
                "rolled back, and no batch had ended before it: this run kept no commit; "
                "ingest again to go on\n", name);
    fflush(stderr);
    signal(sig, SIG_DFL);
    raise(sig);
}

/* Parse the options into *opt (its refs, include and exclude arrays have
 * room for argc entries) and *quiet.  -1: go on; otherwise the exit code
 * (help printed, or bad usage reported). */
static int cli_ingest_args(int argc, char **argv, ingest_options *opt, int *quiet)
{
    static const struct option longopts[] = {
        {"db", required_argument, 0, 'd'}, {"git-dir", required_argument, 0, 'G'},
        {"repo", required_argument, 0, 'r'},
        {"name", required_argument, 0, 'n'}, {"ref", required_argument, 0, 'f'},
        {"include", required_argument, 0, 'i'}, {"exclude", required_argument, 0, 'x'},
        {"rules", required_argument, 0, 'R'}, {"quiet", no_argument, 0, 'q'},
        {"no-patch-ids", no_argument, 0, 'P'}, {"threads", required_argument, 0, 't'},
        {"no-memo", no_argument, 0, 'M'}, {"wait", required_argument, 0, 'w'},
        {"background", no_argument, 0, 'B'},
        {"upstream", required_argument, 0, 'u'}, {"help", no_argument, 0, 'h'}, {0, 0, 0, 0}};
    int c;

    optind = 1;
    while ((c = cli_getopt(argc, argv, longopts)) != -1) {
        switch (c) {
        case 'd': opt->db_path = optarg; break;
        case 'r': cli_deprecated("ingest", "--repo", "--git-dir"); /* fall through */
        case 'G': opt->repo_path = optarg; break;
        case 'n': opt->name = optarg; break;
        case 'f': opt->refs[opt->nrefs++] = optarg; break;
        case 'i': opt->include[opt->ninclude++] = optarg; break;
        case 'x': opt->exclude[opt->nexclude++] = optarg; break;
        case 'R': opt->rules_path = optarg; break;
        case 'u': opt->upstream = optarg; break;
        case 'q': *quiet = 1; break;
        case 'P': opt->no_patch_ids = 1; break;
        case 'M': opt->no_memo = 1; break;
        case 'B': opt->background = 1; break;
        case 't':
            if (cli_threads("ingest", optarg, &opt->threads) < 0)
                return CLI_USAGE;
            break;
        case 'w':
            if (cli_wait_seconds("ingest", optarg, &opt->lock_wait_s) < 0)
                return CLI_USAGE;
            break;
        case 'h': cli_ingest_usage(stdout); return CLI_OK;
        default: cli_ingest_usage(stderr); return CLI_USAGE;
        }
    }
    if (!opt->db_path || !opt->repo_path || !opt->db_path[0] || optind < argc) {
        fprintf(stderr, "portdash ingest: %s\n\n", optind < argc ? "unexpected argument"
                : !opt->db_path || !opt->db_path[0] ? "--db FILE is required (not empty)"
                : "--git-dir GITDIR is required");
        cli_ingest_usage(stderr);
        return CLI_USAGE;
    }
    return -1;
}

/* What an ingest that ended did, on stderr (the CPU line is read by
 * tests/bench/ingest_ab.sh). */
static void cli_ingest_report(const ingest_options *opt, const ingest_stats *st)
{
    char analysed[32], reused[32], rewrite[320] = "";

    if (st->rewrites)
        snprintf(rewrite, sizeof(rewrite), "; %s%s was rewritten (rebased or force-pushed) "
                 "from %.10s to %.10s: recorded, old history kept",
                 st->rewrites > 1 ? "more than one ref; the last, " : "", st->rewrite_ref,
                 st->rewrite_from, st->rewrite_to);
    fprintf(stderr, "%s: %llu new commit%s, %llu blob%s analysed (%s; %s of "
            "unchanged chunks reused%s) in %.*f s%s\n",
            opt->name, (unsigned long long)st->commits_new, st->commits_new == 1 ? "" : "s",
            (unsigned long long)st->blobs_analysed, st->blobs_analysed == 1 ? "" : "s",
            cli_bytes(analysed, sizeof(analysed), (double)st->bytes_analysed),
            cli_bytes(reused, sizeof(reused), (double)st->memo_hit_bytes),
            /* the reused bytes count a template's expansion */
            st->templates_analysed ? ", templates expanded" : "",
            st->seconds < 1 ? 3 : 1, st->seconds, rewrite);
    if (st->commits_new) {
        double cpu = st->cpu_plan_s + st->cpu_analyse_s + st->cpu_write_s;
        /* A push takes tens of milliseconds: tenths of a second said 0.0. */
        int prec = cpu < 1 ? 3 : 1;

        fprintf(stderr, "%s: CPU %.*f s: planning %.*f s, analysis %.*f s, writing %.*f s%s\n",
                opt->name, prec, cpu, prec, st->cpu_plan_s, prec, st->cpu_analyse_s, prec,
                st->cpu_write_s, st->cpu_analyse_s > 0 ? ""
                : ingest_threads(opt) < 2 ? " (all on the writing thread: one analysis thread, "
                "by --threads 1 or one CPU to use)"
                : " (all on the writing thread: under 32 new commits a ref, which threads "
                "would not speed up)");
    }
    if (st->stalled_plans || st->stalled_blobs)
        fprintf(stderr, "%s: in the background, the machine busy: the writing thread "
                "planned %llu commits and analysed %llu blobs itself\n", opt->name,
                (unsigned long long)st->stalled_plans, (unsigned long long)st->stalled_blobs);
    if (st->blobs_missing)
        fprintf(stderr, "%s: %llu blob reads found no object (a partial clone?): the files "
                "count as absent where their blob is missing; see `portdash repo "
                "list` and the file pages. Fetch the objects and ingest again to fill "
                "them in.\n", opt->name, (unsigned long long)st->blobs_missing);
    if (st->blobs_damaged)
        fprintf(stderr, "%s: %llu of them damaged in the git directory (the first: %s): "
                "`git fsck` names them; fetch or restore the objects and ingest again\n",
                opt->name, (unsigned long long)st->blobs_damaged, st->damaged_first);
    if (st->blobs_filled)
        fprintf(stderr, "%s: %zu blobs recorded as missing are there now: their "
                "commits were summarised again\n", opt->name, st->blobs_filled);
    if (st->shallow)
        fprintf(stderr, "%s: a shallow clone: the history starts at its boundary\n",
                opt->name);
    if (st->rules_changed)
        fprintf(stderr, "%s: the rules changed since its last ingest: its commits answer "
                "under %s from now on (%llu blob versions not analysed under them before "
                "were analysed now; the other rules' analyses stay stored)\n", opt->name,
                opt->rules_path ? opt->rules_path : "the built-in rules",
                (unsigned long long)st->blobs_analysed);
    if (st->git_dir_kept)
        fprintf(stderr, "%s: %s lacks refs stored for it, so its git directory stays the "
                "one stored before, from which the server reads sources and runs ingest "
                "jobs (`portdash repo list` shows it); the new commits' sources show once "
                "that one has them (fetch it)\n", opt->name, opt->repo_path);
    if (st->refs_behind)
        fprintf(stderr, "%s: %s's tip in %s is behind the stored one, which that git "
                "directory lacks (pushed from another): the stored tip stays%s; fetch the "
                "git directory\n", opt->name, st->behind_ref, opt->repo_path,
                st->refs_behind > 1 ? " (and for other refs too)" : "");
    if (st->forks_kept)
        fprintf(stderr, "%s: %s lacks the upstream stored for %llu ref(s): their own "
                "commits are counted from the fork base stored before (doc/history.md)\n",
                opt->name, opt->repo_path, (unsigned long long)st->forks_kept);
    if (st->forks_dropped)
        fprintf(stderr, "%s: %llu ref(s) no longer have their stored fork base on their "
                "chain and %s lacks their upstream: their port now starts at the first HPy "
                "token; ingest from a git directory with the upstream, or name it with "
                "--upstream REF\n", opt->name, (unsigned long long)st->forks_dropped,
                opt->repo_path);
}

int cli_ingest(int argc, char **argv)
{
    const char **refs = calloc(argc, sizeof(char *));
    const char **inc = calloc(argc, sizeof(char *));
    const char **exc = calloc(argc, sizeof(char *));
    ingest_options opt = {0};
    ingest_stats st;
    char name[256];
    int rc = CLI_USAGE, quiet = 0;

    opt.refs = refs;
    opt.include = inc;
    opt.exclude = exc;
    if (!refs || !inc || !exc) {
        fprintf(stderr, "portdash ingest: out of memory\n");
        rc = CLI_FAIL;
        goto done;
    }
    if ((rc = cli_ingest_args(argc, argv, &opt, &quiet)) >= 0)
        goto done;
    rc = CLI_USAGE;
    /* before any thread or big buffer */
    pd_malloc_ingest(ingest_threads(&opt));
    if (!opt.name) {
        cli_default_name(name, sizeof(name), opt.repo_path);
        opt.name = name;
    }
    /* A name serve --repo NAME=GITDIR or a log line cannot carry is
     * refused here, not lost there. */
    if (db_repo_name_check(opt.name) < 0) {
        fprintf(stderr, "portdash ingest: %s; give --name\n", pd_error_last());
        goto done;
    }
    opt.progress = !quiet && isatty(2);
    opt.interrupted = cli_ingest_stopped;
    cli_ingest_catch();
    rc = ingest_run(&opt, &st);
    if (!quiet && st.restarted)
        fprintf(stderr, "portdash ingest: removed %s.new, which a first ingest stopped "
                "before it ended had left, and started again\n", opt.db_path);
    if (rc < 0 && cli_ingest_signal) {
        cli_ingest_end_by(cli_ingest_signal, &st);
        rc = 128 + cli_ingest_signal;       /* where the signal is held */
        goto done;
    }
    if (rc < 0) {
        fprintf(stderr, "portdash ingest: %s\n", pd_error_last());
        /* A ref or filter that names nothing is bad usage (exit 2). */
        rc = rc == PD_EINVAL ? CLI_USAGE : CLI_FAIL;
        goto done;
    }
    if (!quiet)
        cli_ingest_report(&opt, &st);
    rc = CLI_OK;
done:
    free(refs);
    free(inc);
    free(exc);
    return rc;
}
