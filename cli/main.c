/*
 * main.c: the portdash command: dispatch to subcommands.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <git2.h>

#include "analyzer/analyzer.h"
#include "cli.h"
#include "db_migrations.h"
#include "pd_near.h"
#include "report_file.h"

static const struct {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *help;
} cli_commands[] = {
    {"ingest", cli_ingest, "read a repository's history into the database"},
    {"serve", cli_serve, "serve the dashboard and the JSON API"},
    {"snapshot", cli_snapshot, "record weekly snapshots of refs (or backfill past weeks)"},
    {"gate", cli_gate, "did a change make the port worse? (CI gate, from git)"},
    {"token", cli_token, "create, list and revoke API tokens for CI bots"},
    {"import-sarif", cli_import_sarif, "store analyzer output (SARIF 2.1.0) for a commit"},
    {"analyze", cli_analyze, "print the analysis of files (text, JSON, SARIF, functions)"},
    {"fix", cli_fix, "print checked HPy rewrites of a revision as a diff (git apply)"},
    {"triage", cli_triage, "dismiss findings (false positive, won't fix, used in tests)"},
    {"repo", cli_repo, "list, remove or rename the repositories of a database"},
    {"show", cli_show, "print a file page, a commit, a compare or the symbols (text, JSON)"},
};

static void cli_usage(FILE *out)
{
    size_t i;

    fprintf(out, "usage: portdash COMMAND [OPTIONS]\n\n"
                 "The HPy porting dashboard.  Commands:\n");
    for (i = 0; i < sizeof(cli_commands) / sizeof(cli_commands[0]); i++)
        fprintf(out, "  %-8s %s\n", cli_commands[i].name, cli_commands[i].help);
    fprintf(out, "\nRun 'portdash COMMAND --help' for a command's options, "
                 "'portdash --version' for the versions.\n"
                 "Exit status: 0 ok, 1 failure, 2 bad usage.\n");
}

void cli_deprecated(const char *cmd, const char *old, const char *now)
{
    fprintf(stderr, "portdash %s: %s is deprecated, use %s (same meaning)\n", cmd, old, now);
}

int cli_wait_seconds(const char *cmd, const char *arg, int *out)
{
    char *end;
    long n = strtol(arg, &end, 10);

    if (*arg == '\0' || *end != '\0' || n < 0 || n > 86400) {
        fprintf(stderr, "portdash %s: --wait takes seconds from 0 to 86400, not '%s'\n",
                cmd, arg);
        return -1;
    }
    *out = (int)n;
    return 0;
}

int cli_threads(const char *cmd, const char *arg, unsigned *out)
{
    char *end;
    long n = strtol(arg, &end, 10);

    /* a digit first: strtol would also take " 2", "+2" and "-0" */
    if (*arg < '0' || *arg > '9' || *end != '\0' || n < 1 || n > 256) {
        fprintf(stderr, "portdash %s: --threads takes a number from 1 to 256, not '%.40s'\n",
                cmd, arg);
        return -1;
    }
    *out = (unsigned)n;
    return 0;
}

/* Say what was wrong with option argv[optind - 1] (getopt_long returned
 * c: '?' or ':' for a missing value). */
static void cli_getopt_say(char **argv, const struct option *longopts, int c)
{
    const char *arg = argv[optind - 1], *name = arg + 2, *eq, *names[64], *near;
    size_t len, i, n = 0, nprefix = 0;
    char list[256] = "";

    if (c == ':' || strncmp(arg, "--", 2) != 0) {
        if (c == ':')
            fprintf(stderr, "portdash %s: option '%s' needs a value\n", argv[0], arg);
        else
            fprintf(stderr, "portdash %s: unknown option '%s' (options are long: --NAME)\n",
                    argv[0], arg);
        return;
    }
    len = (eq = strchr(name, '=')) ? (size_t)(eq - name) : strlen(name);
    for (i = 0; longopts[i].name && n < 64; i++) {
        names[n++] = longopts[i].name;
        if (strncmp(longopts[i].name, name, len) == 0) {
            if (strlen(longopts[i].name) == len && longopts[i].has_arg == no_argument) {
                fprintf(stderr, "portdash %s: option '--%s' takes no value\n", argv[0],
                        longopts[i].name);
                return;
            }
            if (strlen(list) + strlen(longopts[i].name) + 5 < sizeof(list))
                snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s--%s",
                         nprefix ? ", " : "", longopts[i].name);
            nprefix++;
        }
    }
    if (nprefix > 1) {
        fprintf(stderr, "portdash %s: option '--%.*s' is ambiguous (%s)\n", argv[0], (int)len,
                name, list);
        return;
    }
    if ((near = pd_near_pick(name, len, names, n)))
        fprintf(stderr, "portdash %s: unknown option '--%.*s' (did you mean '--%s'?)\n",
                argv[0], (int)len, name, near);
    else
        fprintf(stderr, "portdash %s: unknown option '--%.*s'\n", argv[0], (int)len, name);
}

/* 1 when `arg` is one of longopts written as an option (`--ref`,
 * `--ref=hpy`, a unique abbreviation not counted). */
static int cli_getopt_is_option(const char *arg, const struct option *longopts)
{
    size_t i, len;

    if (strncmp(arg, "--", 2) != 0)
        return 0;
    len = strcspn(arg + 2, "=");
    for (i = 0; longopts[i].name; i++)
        if (strlen(longopts[i].name) == len && strncmp(longopts[i].name, arg + 2, len) == 0)
            return 1;
    return 0;
}

int cli_getopt(int argc, char **argv, const struct option *longopts)
{
    int c, idx = -1;

    opterr = 0;
    c = getopt_long(argc, argv, ":", longopts, &idx);
    if (c == '?' || c == ':') {
        cli_getopt_say(argv, longopts, c);
        return '?';
    }
    /* `--name --ref hpy`: --name took "--ref" as its value, and the error
     * that followed named neither */
    if (idx >= 0 && longopts[idx].has_arg == required_argument && optarg &&
        cli_getopt_is_option(optarg, longopts)) {
        fprintf(stderr, "portdash %s: option '--%s' needs a value, and got the option '%s'\n",
                argv[0], longopts[idx].name, optarg);
        return '?';
    }
    return c;
}

int main(int argc, char **argv)
{
    size_t i;

    if (argc < 2) {
        cli_usage(stderr);
        return CLI_USAGE;
    }
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 ||
        strcmp(argv[1], "help") == 0) {
        cli_usage(stdout);
        return CLI_OK;
    }
    if (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "version") == 0) {
        /* what a bug report needs: the tool, the analysis its stored
         * results depend on (a new one re-analyses), the schema it migrates to */
        printf("portdash %s (analyzer %s, database schema %d)\n", REPORT_TOOL_VERSION,
               AN_ANALYZER_VERSION, db_migrations[db_migrations_count - 1].version);
        return CLI_OK;
    }
    for (i = 0; i < sizeof(cli_commands) / sizeof(cli_commands[0]); i++) {
        if (strcmp(argv[1], cli_commands[i].name))
            continue;
        /* libgit2 stays initialised for the whole process (loading the
         * rules used to do it), except for `analyze`, which does it only
         * when it reads a repository: the initialisation loads the CA
         * certificates, a third of a file-only run's start-up (issue 26). */
        if (cli_commands[i].run != cli_analyze)
            git_libgit2_init();
        return cli_commands[i].run(argc - 1, argv + 1);
    }
    {
        const char *names[sizeof(cli_commands) / sizeof(cli_commands[0])], *near;

        for (i = 0; i < sizeof(cli_commands) / sizeof(cli_commands[0]); i++)
            names[i] = cli_commands[i].name;
        near = pd_near_pick(argv[1], strlen(argv[1]), names, i);
        fprintf(stderr, "portdash: unknown command '%s'%s%s%s\n\n", argv[1],
                near ? " (did you mean '" : "", near ? near : "", near ? "'?)" : "");
    }
    cli_usage(stderr);
    return CLI_USAGE;
}
