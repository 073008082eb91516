/*
 * cli_serve.c: `portdash serve`: runs until SIGINT or SIGTERM.
 */
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "pd_error.h"
#include "srv.h"

#ifndef PORTDASH_STATIC_DIR
#define PORTDASH_STATIC_DIR "static"
#endif

static void cli_serve_usage(FILE *out)
{
    fprintf(out,
        "usage: portdash serve --db FILE [--listen HOST:PORT] [--repo NAME=GITDIR]...\n"
        "                      [--static DIR] [--vendor DIR] [--threads N] [--private]\n"
        "                      [--scopes FILE] [--cache-mb N] [--no-warm]\n"
        "                      [--host-name NAME]... [--max-connections N]\n"
        "                      [--max-per-client N] [--head-timeout SECONDS]\n"
        "                      [--db-wait MS] [--request-budget SECONDS]\n"
        "                      [--body-timeout SECONDS]\n\n"
        "Serves the dashboard and the JSON API (/api/v1/...) from FILE.\n\n"
        "  --db FILE            database written by 'portdash ingest'\n"
        "  --listen HOST:PORT   address to bind (default 127.0.0.1:8080; port 0\n"
        "                       picks a free port, printed on stdout)\n"
        "  --repo NAME=GITDIR   where repository NAME's git directory is now (for\n"
        "                       file sources; default: the one stored at ingest)\n"
        "  --static DIR         dashboard files (default: %s next to the build\n"
        "                       directory, else ../share/portdash/static next to the\n"
        "                       binary (installed), else in the current directory)\n"
        "  --vendor DIR         browser libraries for the dashboard (default:\n"
        "                       node_modules, or ../share/portdash/vendor, found the\n"
        "                       same way)\n"
        "  --threads N          worker threads (default: one per CPU the process may\n"
        "                       use, its CPU limit counted)\n"
        "  --private            API reads need a token with permission 'read' too\n"
        "  --scopes FILE        named scopes for ?scope=NAME (default: the built-in\n"
        "                       ones; format in doc/guide.md, \"Scopes\")\n"
        "  --cache-mb N         bound of the answer cache in MiB (default 64; 0: no\n"
        "                       cache)\n"
        "  --no-warm            do not compute the answers everyone reads at start and\n"
        "                       after ingests and uploads\n"
        "  --host-name NAME     also answer requests whose Host is NAME (IP\n"
        "                       addresses and localhost always are; '*': any;\n"
        "                       others get 421, against DNS rebinding)\n"
        "  --max-connections N  open connections at once (default 4096; near it\n"
        "                       new requests get 503 with Retry-After)\n"
        "  --max-per-client N   connections per client address (default: none on\n"
        "                       a loopback address, 64 otherwise; 0: none)\n"
        "  --head-timeout S     seconds a client has to send a request head\n"
        "                       (default 10; then 408 and close)\n"
        "  --body-timeout S     seconds a client has to send a request body after\n"
        "                       its head (default 120; and at least 1 KiB/s after\n"
        "                       10 s; then 408 and close)\n"
        "  --db-wait MS         milliseconds a request waits for a lock another\n"
        "                       connection holds on the database (default 10000;\n"
        "                       then 503 with Retry-After)\n"
        "  --request-budget S   seconds of work one answer may take (default 30;\n"
        "                       writes ten times it; then 503 with Retry-After)\n",
        PORTDASH_STATIC_DIR);
}

/*
 * Where `serve` finds the dashboard (`probe` inside it) when no option
 * names it: `src` next to the binary's directory (a source tree, so
 * build/portdash works from any working directory), then `inst` under
 * ../share/portdash/ (the `make install` layout), then `src` relative to
 * the current directory.  Returns a static buffer (two in rotation).
 */
static const char *cli_serve_default_dir(const char *src, const char *inst, const char *probe)
{
    static char bufs[2][4096];
    static int which;
    char exe[2048], check[4200], *slash, *buf = bufs[which++ % 2];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

    if (n > 0) {
        exe[n] = '\0';
        if ((slash = strrchr(exe, '/')))
            *slash = '\0';
        snprintf(buf, sizeof(bufs[0]), "%s/../%s", exe, src);
        snprintf(check, sizeof(check), "%s/%s", buf, probe);
        if (access(check, R_OK) == 0)
            return buf;
        snprintf(buf, sizeof(bufs[0]), "%s/../share/portdash/%s", exe, inst);
        snprintf(check, sizeof(check), "%s/%s", buf, probe);
        if (access(check, R_OK) == 0)
            return buf;
    }
    snprintf(buf, sizeof(bufs[0]), "%s", src);
    return buf;
}

/* A whole number from `min` to 1,000,000 for an option, or -1 after
 * saying why. */
static long cli_serve_number(const char *arg, long min)
{
    char *end;
    long n = strtol(arg, &end, 10);

    if (end == arg || *end || n < min || n > 1000000) {
        fprintf(stderr, "portdash serve: '%s' is not a number from %ld to 1000000\n",
                arg, min);
        return -1;
    }
    return n;
}

/*
 * Says on stderr which browser libraries the dashboard will not find under
 * `dir`: the server runs without them, and the browser alone would notice
 * (charts, reports, diffs and colours quietly missing).
 */
static void cli_serve_vendor_warn(const char *dir, int named)
{
    const char *missing[16];
    char cwd[2048] = "", exe[2048], *slash;
    size_t i, n = srv_vendor_missing(dir, missing, sizeof(missing) / sizeof(missing[0]));
    ssize_t len;

    if (!n)
        return;
    if (dir[0] != '/' && !getcwd(cwd, sizeof(cwd)))
        cwd[0] = '\0';
    fprintf(stderr, "portdash serve: warning: the dashboard's browser libraries are not in "
            "%s%s%s", cwd, cwd[0] ? "/" : "", dir);
    /* Not named: the last of the places cli_serve_default_dir tries, which
     * alone would send a newcomer to run serve from the source tree. */
    if (!named && (len = readlink("/proc/self/exe", exe, sizeof(exe) - 1)) > 0) {
        exe[len] = '\0';
        if ((slash = strrchr(exe, '/')))
            *slash = '\0';
        fprintf(stderr, ", nor in %s/../node_modules (the source tree of this binary) or "
                "%s/../share/portdash/vendor", exe, exe);
    }
    fprintf(stderr, " (missing:");
    for (i = 0; i < n; i++)
        fprintf(stderr, " %s", missing[i]);
    fprintf(stderr, "): its charts, reports, code diffs and syntax colours will not load.\n"
            "portdash serve: run 'make deps' (npm ci) in the source tree, or name the "
            "libraries' directory with --vendor DIR; serving without them\n");
}

static volatile sig_atomic_t cli_serve_stop;

static void cli_serve_signal(int sig)
{
    cli_serve_stop = sig;
}

/* One of the numeric limits (option letter c) into *opt; -1: bad value
 * (reported). */
static int cli_serve_limit(srv_options *opt, int c, const char *arg)
{
    long num = cli_serve_number(arg, c == 'C' || c == 'B' || c == 'U' || c == 'O');

    if (num < 0)
        return -1;
    if (c == 'O')
        opt->body_timeout = (double)num;
    else if (c == 'U')
        opt->request_budget = (double)num;
    else if (c == 'B')
        opt->db_wait_ms = (int)num;
    else if (c == 'C')
        opt->max_connections = (size_t)num;
    else if (c == 'P')
        opt->max_per_client = num ? (int)num : -1;
    else
        opt->head_timeout = (double)num;
    return 0;
}

/* --repo NAME=GITDIR (arg, split in place) into *opt; -1: malformed
 * (reported). */
static int cli_serve_repo(srv_options *opt, char *arg)
{
    char *eq = strchr(arg, '=');

    if (!eq || eq == arg || !eq[1]) {
        fprintf(stderr, "portdash serve: --repo wants NAME=GITDIR, got '%s'\n", arg);
        return -1;
    }
    *eq = '\0';
    opt->repo_names[opt->nrepos] = arg;
    opt->repo_paths[opt->nrepos++] = eq + 1;
    return 0;
}

/* Parse the options into *opt (its repository and host arrays have room
 * for argc entries); *vendor_named when --vendor was given.  -1: go on;
 * otherwise the exit code (help printed, or bad usage reported). */
static int cli_serve_args(int argc, char **argv, srv_options *opt, int *vendor_named)
{
    static const struct option longopts[] = {
        {"db", required_argument, 0, 'd'}, {"listen", required_argument, 0, 'l'},
        {"repo", required_argument, 0, 'r'}, {"static", required_argument, 0, 's'},
        {"vendor", required_argument, 0, 'v'}, {"private", no_argument, 0, 'p'},
        {"threads", required_argument, 0, 't'}, {"help", no_argument, 0, 'h'},
        {"scopes", required_argument, 0, 'S'}, {"cache-mb", required_argument, 0, 'M'},
        {"no-warm", no_argument, 0, 'W'}, {"host-name", required_argument, 0, 'H'},
        {"max-connections", required_argument, 0, 'C'},
        {"max-per-client", required_argument, 0, 'P'},
        {"head-timeout", required_argument, 0, 'T'},
        {"db-wait", required_argument, 0, 'B'},
        {"request-budget", required_argument, 0, 'U'},
        {"body-timeout", required_argument, 0, 'O'},
        {0, 0, 0, 0}};
    char *end;
    int c;

    optind = 1;
    while ((c = cli_getopt(argc, argv, longopts)) != -1) {
        switch (c) {
        case 'd': opt->db_path = optarg; break;
        case 'l': opt->listen = optarg; break;
        case 's': opt->static_dir = optarg; break;
        case 'v': opt->vendor_dir = optarg; *vendor_named = 1; break;
        case 'p': opt->private_reads = 1; break;
        case 'S': opt->scopes_path = optarg; break;
        case 't': opt->threads = (unsigned)atoi(optarg); break;
        case 'W': opt->no_warm = 1; break;
        case 'M':
            if ((opt->cache_mb = strtol(optarg, &end, 10)) < 0 || *end || end == optarg) {
                fprintf(stderr, "portdash serve: --cache-mb wants a number of MiB, "
                        "got '%s'\n", optarg);
                return CLI_USAGE;
            }
            opt->cache_mb = opt->cache_mb ? opt->cache_mb : -1;
            break;
        case 'H': opt->host_names[opt->nhost_names++] = optarg; break;
        case 'C': case 'P': case 'T': case 'B': case 'U': case 'O':
            if (cli_serve_limit(opt, c, optarg) < 0)
                return CLI_USAGE;
            break;
        case 'r':
            if (cli_serve_repo(opt, optarg) < 0)
                return CLI_USAGE;
            break;
        case 'h': cli_serve_usage(stdout); return CLI_OK;
        default: cli_serve_usage(stderr); return CLI_USAGE;
        }
    }
    if (!opt->db_path || optind < argc) {
        fprintf(stderr, "portdash serve: %s\n\n", optind < argc
                ? "unexpected argument" : "--db is required");
        cli_serve_usage(stderr);
        return CLI_USAGE;
    }
    return -1;
}

int cli_serve(int argc, char **argv)
{
    const char **names = calloc(argc, sizeof(char *));
    const char **paths = calloc(argc, sizeof(char *));
    const char **hosts = calloc(argc, sizeof(char *));
    srv_options opt = {0};
    srv *s = NULL;
    char host[256];
    int rc, err, vendor_named = 0;

    opt.static_dir = cli_serve_default_dir(PORTDASH_STATIC_DIR, "static", "index.html");
    opt.vendor_dir = cli_serve_default_dir("node_modules", "vendor", "chart.js");
    opt.repo_names = names;
    opt.repo_paths = paths;
    opt.host_names = hosts;
    if (!names || !paths || !hosts) {
        fprintf(stderr, "portdash serve: out of memory\n");
        rc = CLI_FAIL;
        goto done;
    }
    if ((rc = cli_serve_args(argc, argv, &opt, &vendor_named)) >= 0)
        goto done;
    if ((err = srv_start(&s, &opt)) < 0) {
        fprintf(stderr, "portdash serve: %s\n", pd_error_last());
        /* a bad --listen (or another value) is the caller's: bad usage */
        rc = err == PD_EINVAL ? CLI_USAGE : CLI_FAIL;
        goto done;
    }
    cli_serve_vendor_warn(opt.vendor_dir, vendor_named);
    signal(SIGINT, cli_serve_signal);
    signal(SIGTERM, cli_serve_signal);
    signal(SIGPIPE, SIG_IGN);
    snprintf(host, sizeof(host), "%s", opt.listen ? opt.listen : "127.0.0.1:");
    if (strrchr(host, ':'))
        *strrchr(host, ':') = '\0';
    printf("portdash: serving %s on http://%s:%u/\n", opt.db_path, host,
           (unsigned)srv_port(s));
    fflush(stdout);
    while (!cli_serve_stop)
        pause();
    /* Stopping cuts the work in handlers at its next statement (srv_budget.h)
     * and answers every admitted request, within 10 s (srv_stop); a second
     * signal, or 15 s, ends the process anyway; every write is a
     * transaction, so nothing half-written stays. */
    signal(SIGINT, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
    alarm(15);
    srv_stop(s);
    rc = CLI_OK;
done:
    free(names);
    free(paths);
    free(hosts);
    return rc;
}
