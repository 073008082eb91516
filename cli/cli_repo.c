/*
 * cli_repo.c: `portdash repo list|rm|rename`: the repositories a database
 * holds, and removing or renaming one (issue 23, point 5).  The API twin
 * is server/api_repo.c.
 */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "db.h"
#include "db_lock.h"
#include "db_repo.h"
#include "pd_error.h"
#include "pd_time.h"

static void cli_repo_usage(FILE *out)
{
    fprintf(out,
        "usage: portdash repo list   --db FILE\n"
        "       portdash repo rm     --db FILE NAME\n"
        "       portdash repo rename --db FILE OLD NEW\n\n"
        "list: every repository with its commits, refs and missing blobs (a\n"
        "repository with no ref has no data to show: a run that stored nothing).\n"
        "rm: remove a repository and everything stored for it alone (commits,\n"
        "summaries, refs, snapshots, SARIF runs, dismissals); analyses shared by\n"
        "content stay for the next ingest.  rename: give a repository a new name\n"
        "(dashboard links with the old name stop working).  rm and rename wait\n"
        "for no ingest: they fail while one runs.\n");
}

/* db_repo_list callback: one line of the list. */
static int cli_repo_line(void *arg, const db_repo_info *i)
{
    char when[40];

    pd_iso8601(when, sizeof(when), i->created_at, 0);
    printf("%-24s %8lld %5lld %8lld  %-8s %s  %s\n", i->name, (long long)i->commits,
           (long long)i->refs, (long long)i->missing, i->refs ? "ingested" : "empty",
           when, i->path);
    return 0;
}

/* Run verb `verb` with its names (argv[0..n)) on the open database. */
static int cli_repo_run(sqlite3 *db, const char *db_path, const char *verb, char **names)
{
    db_lock *lock = NULL;
    int rc;

    if (strcmp(verb, "list") == 0) {
        printf("%-24s %8s %5s %8s  %-8s %-25s  %s\n", "NAME", "COMMITS", "REFS", "MISSING",
               "STATE", "CREATED", "GIT DIR");
        return db_repo_list(db, cli_repo_line, NULL);
    }
    if ((rc = db_lock_take(&lock, db_path, "repo", 0)) < 0)
        return rc;
    if (strcmp(verb, "rm") == 0) {
        if ((rc = db_repo_rm(db, names[0])) == 0)
            fprintf(stderr, "repository '%s' removed\n", names[0]);
    } else if ((rc = db_repo_rename(db, names[0], names[1])) == 0) {
        fprintf(stderr, "repository '%s' is now '%s'\n", names[0], names[1]);
    }
    db_lock_release(lock);
    return rc;
}

int cli_repo(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"db", required_argument, 0, 'd'}, {"help", no_argument, 0, 'h'}, {0, 0, 0, 0}};
    const char *db_path = NULL, *verb = argc > 1 ? argv[1] : "";
    sqlite3 *db = NULL;
    int c, want, rc;

    if (strcmp(verb, "--help") == 0 || strcmp(verb, "-h") == 0) {
        cli_repo_usage(stdout);
        return CLI_OK;
    }
    want = strcmp(verb, "list") == 0 ? 0 : strcmp(verb, "rm") == 0 ? 1
         : strcmp(verb, "rename") == 0 ? 2 : -1;
    optind = 2;
    while ((c = cli_getopt(argc, argv, longopts)) != -1) {
        switch (c) {
        case 'd': db_path = optarg; break;
        case 'h': cli_repo_usage(stdout); return CLI_OK;
        default: cli_repo_usage(stderr); return CLI_USAGE;
        }
    }
    if (want < 0 || !db_path || argc - optind != want) {
        fprintf(stderr, "portdash repo: wants list|rm NAME|rename OLD NEW and --db\n\n");
        cli_repo_usage(stderr);
        return CLI_USAGE;
    }
    /* An existing database only: `repo list` of a mistyped path must not
     * leave an empty database behind. */
    if ((rc = db_open(&db, db_path, 0)) < 0 ||
        (rc = cli_repo_run(db, db_path, verb, argv + optind)) < 0) {
        fprintf(stderr, "portdash repo: %s\n", pd_error_last());
        db_close(db);
        return rc == PD_EINVAL ? CLI_USAGE : CLI_FAIL;   /* a missing --db is bad input */
    }
    db_close(db);
    return CLI_OK;
}
