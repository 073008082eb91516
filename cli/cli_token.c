/*
 * cli_token.c: `portdash token create|list|revoke`: API tokens for CI bots.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "db.h"
#include "db_aside_probe.h"
#include "db_token.h"
#include "pd_error.h"
#include "pd_time.h"

static void cli_token_usage(FILE *out)
{
    fprintf(out,
        "usage: portdash token create --db FILE --name NAME [--scope PERMISSION]...\n"
        "       portdash token list   --db FILE\n"
        "       portdash token revoke --db FILE --name NAME\n\n"
        "Tokens authorize write endpoints (Authorization: Bearer TOKEN).  create\n"
        "prints the new token once; only its SHA-256 is stored.  Permissions\n"
        "(--scope): %s (default: all).\n"
        "'read' matters only under 'serve --private'.\n",
        DB_TOKEN_PERMS);
}

/* db_token_list callback: one line of the list. */
static int cli_token_line(void *arg, const db_token_row *t)
{
    char when[40], gone[40];

    pd_iso8601(when, sizeof(when), t->created_at, 0);
    if (!t->revoked_at)
        snprintf(gone, sizeof(gone), "-");
    else
        pd_iso8601(gone, sizeof(gone), t->revoked_at, 0);
    printf("%-20s %-20s %-26s %s\n", t->name, t->perms, when, gone);
    return 0;
}

/* Print name, permissions, creation and revocation of every token. */
static int cli_token_list(sqlite3 *db)
{
    printf("%-20s %-20s %-26s %s\n", "NAME", "SCOPES", "CREATED", "REVOKED");
    return db_token_list(db, cli_token_line, NULL);
}

int cli_token(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"db", required_argument, 0, 'd'}, {"name", required_argument, 0, 'n'},
        {"scope", required_argument, 0, 's'}, {"help", no_argument, 0, 'h'},
        {0, 0, 0, 0}};
    const char *db_path = NULL, *name = NULL, *verb = argc > 1 ? argv[1] : "";
    char perms[256] = "", token[DB_TOKEN_LEN + 1];
    sqlite3 *db = NULL;
    int c, rc = CLI_USAGE;

    if (strcmp(verb, "--help") == 0 || strcmp(verb, "-h") == 0) {
        cli_token_usage(stdout);
        return CLI_OK;
    }
    optind = 2;
    while ((c = cli_getopt(argc, argv, longopts)) != -1) {
        switch (c) {
        case 'd': db_path = optarg; break;
        case 'n': name = optarg; break;
        case 's':
            snprintf(perms + strlen(perms), sizeof(perms) - strlen(perms), "%s%s",
                     perms[0] ? " " : "", optarg);
            break;
        case 'h': cli_token_usage(stdout); return CLI_OK;
        default: cli_token_usage(stderr); return CLI_USAGE;
        }
    }
    if (!db_path || optind < argc || (strcmp(verb, "list") != 0 && !name) ||
        (strcmp(verb, "create") && strcmp(verb, "list") && strcmp(verb, "revoke"))) {
        fprintf(stderr, "portdash token: wants create|list|revoke, --db, and --name "
                "for create and revoke\n\n");
        cli_token_usage(stderr);
        return CLI_USAGE;
    }
    /* A token made at PATH now would make a database there, which the
     * first ingest could not then put in place (db_aside.h); list and
     * revoke are told by db_open, which makes nothing. */
    if ((strcmp(verb, "create") == 0 &&
         (rc = db_aside_say(db_path, "run this once it has ended")) < 0) ||
        (rc = db_open(&db, db_path, strcmp(verb, "create") == 0)) < 0)
        goto fail;
    if (strcmp(verb, "create") == 0) {
        if ((rc = db_token_create(db, token, name, perms)) < 0)
            goto fail;
        printf("%s\n", token);
        fprintf(stderr, "token '%s' created; it is shown only this once\n", name);
    } else if (strcmp(verb, "revoke") == 0) {
        if ((rc = db_token_revoke(db, name)) < 0)
            goto fail;
        fprintf(stderr, "token '%s' revoked\n", name);
    } else if ((rc = cli_token_list(db)) < 0) {
        goto fail;
    }
    db_close(db);
    return CLI_OK;
fail:
    fprintf(stderr, "portdash token: %s\n", pd_error_last());
    db_close(db);
    /* an unknown --scope is the caller's: bad usage */
    return rc == PD_EINVAL ? CLI_USAGE : CLI_FAIL;
}
