/*
 * cli_triage.c: `portdash triage dismiss|list|undo`: dismiss a finding or
 * an object-item site without a server, the same as POST, GET and DELETE
 * /api/v1/repos/{repo}/dismissals (server/api_triage.h).
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api_triage.h"
#include "cli.h"
#include "db.h"
#include "db_triage.h"
#include "pd_error.h"

static void cli_triage_usage(FILE *out)
{
    fprintf(out,
        "usage: portdash triage dismiss --db FILE --name NAME --rev REV --path PATH\n"
        "                               --fingerprint FP --reason REASON\n"
        "                               [--comment TEXT] [--by NAME]\n"
        "       portdash triage list    --db FILE --name NAME\n"
        "       portdash triage undo    --db FILE --name NAME --id N\n\n"
        "Dismisses the finding with fingerprint FP (the file API's \"fingerprint\")\n"
        "of PATH at REV as one of: %s.  The dismissal follows\n"
        "the finding to other commits; the file page counts it as dismissed.\n"
        "--by names who dismissed it (default: $USER).\n", DB_TRIAGE_REASONS);
}

typedef struct {
    const char *db_path, *repo, *rev, *path, *fp, *reason, *comment, *by, *id;
} cli_triage_args;

/* One dismissal as a line: id, when, who, reason, where, comment. */
static void cli_triage_print(json_t *d)
{
    json_t *line = json_object_get(d, "line");

    printf("%lld\t%s\t%s\t%s\t%s:%lld\t%s\t%s\t%s\n",
           (long long)json_integer_value(json_object_get(d, "id")),
           json_string_value(json_object_get(d, "at")),
           json_string_value(json_object_get(d, "by")),
           json_string_value(json_object_get(d, "reason")),
           json_string_value(json_object_get(d, "path")),
           json_is_integer(line) ? (long long)json_integer_value(line) : 0LL,
           json_string_value(json_object_get(d, "fingerprint")),
           json_string_value(json_object_get(d, "text")) ?
               json_string_value(json_object_get(d, "text")) : "",
           json_string_value(json_object_get(d, "comment")));
}

static int cli_triage_run(sqlite3 *db, const char *verb, const cli_triage_args *a)
{
    json_t *out = NULL, *d;
    int64_t repo_id;
    size_t i;
    int rc;

    if ((rc = db_repo_find(db, a->repo, &repo_id, NULL, 0)) < 0)
        return rc;
    if (strcmp(verb, "dismiss") == 0) {
        const char *user = getenv("USER");

        if ((rc = api_triage_dismiss(db, a->repo, a->rev, a->path, a->fp, a->reason,
                                     a->comment ? a->comment : "",
                                     a->by ? a->by : user ? user : "cli", &out)) == 0) {
            printf("dismissed: ");
            cli_triage_print(out);
        }
    } else if (strcmp(verb, "undo") == 0) {
        if ((rc = db_triage_undo(db, repo_id, strtoll(a->id, NULL, 10))) == 0)
            printf("dismissal %s undone\n", a->id);
    } else if ((rc = db_triage_list(db, repo_id, &out)) == 0) {
        json_array_foreach(out, i, d)
            cli_triage_print(d);
    }
    json_decref(out);
    return rc;
}

int cli_triage(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"db", required_argument, 0, 'd'}, {"name", required_argument, 0, 'n'},
        {"repo", required_argument, 0, 'r'},
        {"rev", required_argument, 0, 'v'}, {"path", required_argument, 0, 'p'},
        {"fingerprint", required_argument, 0, 'f'}, {"reason", required_argument, 0, 'R'},
        {"comment", required_argument, 0, 'c'}, {"by", required_argument, 0, 'b'},
        {"id", required_argument, 0, 'i'}, {"help", no_argument, 0, 'h'}, {0, 0, 0, 0}};
    const char *verb = argc > 1 ? argv[1] : "";
    cli_triage_args a = {0};
    sqlite3 *db = NULL;
    int c, rc, ok;

    if (strcmp(verb, "--help") == 0 || strcmp(verb, "-h") == 0) {
        cli_triage_usage(stdout);
        return CLI_OK;
    }
    optind = 2;
    while ((c = cli_getopt(argc, argv, longopts)) != -1) {
        switch (c) {
        case 'd': a.db_path = optarg; break;
        case 'r': cli_deprecated("triage", "--repo", "--name"); /* fall through */
        case 'n': a.repo = optarg; break;
        case 'v': a.rev = optarg; break;
        case 'p': a.path = optarg; break;
        case 'f': a.fp = optarg; break;
        case 'R': a.reason = optarg; break;
        case 'c': a.comment = optarg; break;
        case 'b': a.by = optarg; break;
        case 'i': a.id = optarg; break;
        case 'h': cli_triage_usage(stdout); return CLI_OK;
        default: cli_triage_usage(stderr); return CLI_USAGE;
        }
    }
    ok = a.db_path && a.repo && optind == argc &&
         (strcmp(verb, "list") == 0 ||
          (strcmp(verb, "undo") == 0 && a.id) ||
          (strcmp(verb, "dismiss") == 0 && a.rev && a.path && a.fp && a.reason));
    if (!ok) {
        fprintf(stderr, "portdash triage: wants dismiss|list|undo with --db and --name; "
                "dismiss also --rev, --path, --fingerprint, --reason; undo --id\n\n");
        cli_triage_usage(stderr);
        return CLI_USAGE;
    }
    if (a.id && a.id[strspn(a.id, "0123456789")] != '\0') {
        fprintf(stderr, "portdash triage: --id is a dismissal's number (triage list "
                "shows them), not '%s'\n", a.id);
        return CLI_USAGE;
    }
    if ((rc = db_open(&db, a.db_path, 0)) == 0)
        rc = cli_triage_run(db, verb, &a);
    if (rc < 0)
        fprintf(stderr, "portdash triage: %s\n", pd_error_last());
    db_close(db);
    /* a bad value (an unknown reason) is the caller's, as the API's 400 */
    return rc == PD_EINVAL ? CLI_USAGE : rc < 0 ? CLI_FAIL : CLI_OK;
}
