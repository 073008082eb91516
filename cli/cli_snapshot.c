/*
 * cli_snapshot.c: `portdash snapshot`: record this week's snapshot of each
 * ref (for a weekly timer or CI job), or reconstruct past weeks.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "db.h"
#include "db_snapshot.h"
#include "pd_error.h"
#include "pd_time.h"

static void cli_snapshot_usage(FILE *out)
{
    fprintf(out,
        "usage: portdash snapshot --db FILE --name NAME [--ref REF]...\n"
        "       portdash snapshot --db FILE --name NAME [--ref REF]... --backfill\n"
        "                         --since DATE [--until DATE] [--date author|committer]\n\n"
        "Records an immutable snapshot of each REF (default: every ingested ref of\n"
        "NAME) for the current ISO week: its commit, totals and per-file status.\n"
        "A ref that already has a snapshot for a week keeps it.  Run it weekly,\n"
        "after 'portdash ingest'.\n\n"
        "  --backfill       reconstruct one snapshot per ISO week from DATE to\n"
        "                   --until (default: now) from the stored history: the\n"
        "                   newest commit of the ref's first-parent chain dated\n"
        "                   before the end of each week\n"
        "  --date KIND      which commit date places a commit in a week: author\n"
        "                   (default; right for rebased branches) or committer\n"
        "  --name NAME      the repository name given to ingest (--repo NAME is a\n"
        "                   deprecated alias)\n");
}

typedef struct {
    sqlite3 *db;
    int64_t repo_id;
    char rules_hash[64];
    int by_author;
    int64_t since, until;
    int taken, kept;
} cli_snap;

/* Snapshot one ref for one week at the given commit; counts the outcome. */
static int cli_snapshot_one(cli_snap *s, const char *ref, int64_t commit,
                            const char *week, const char *method)
{
    int rc = db_snapshot_take(s->db, s->repo_id, ref, commit, week,
                              (int64_t)time(NULL), method, s->rules_hash);

    if (rc == 1)
        s->kept++;
    else if (rc == 0)
        s->taken++;
    return rc < 0 ? rc : 0;
}

/* Every week from since to until. */
static int cli_backfill_ref(cli_snap *s, const char *ref, int64_t tip)
{
    int taken = 0, kept = 0;
    int rc = db_snapshot_backfill(s->db, s->repo_id, ref, tip, s->since, s->until,
                                  s->by_author, s->rules_hash, &taken, &kept);

    s->taken += taken;
    s->kept += kept;
    return rc;
}

/* Snapshot (or backfill) the refs named, or all refs of the repository. */
static int cli_snapshot_refs(cli_snap *s, const char **refs, size_t nrefs, int backfill)
{
    sqlite3_stmt *st = NULL;
    char week[16];
    size_t i;
    int rc;

    db_iso_week(week, sizeof(week), (int64_t)time(NULL));
    if ((rc = db_prepare(s->db, &st, "SELECT name, commit_id FROM refs WHERE "
                         "repo_id = ?1 ORDER BY name")) < 0)
        return rc;
    sqlite3_bind_int64(st, 1, s->repo_id);
    for (i = 0; i < nrefs; i++) {
        int found = 0;

        sqlite3_reset(st);
        while (!found && sqlite3_step(st) == SQLITE_ROW)
            found = strcmp((const char *)sqlite3_column_text(st, 0), refs[i]) == 0;
        if (!found) {
            sqlite3_finalize(st);
            return pd_error_set(PD_ENOTFOUND, "ref '%s' has not been ingested", refs[i]);
        }
    }
    sqlite3_reset(st);
    rc = 0;
    while (rc == 0 && sqlite3_step(st) == SQLITE_ROW) {
        const char *ref = (const char *)sqlite3_column_text(st, 0);
        int64_t tip = sqlite3_column_int64(st, 1);
        int wanted = nrefs == 0;

        for (i = 0; i < nrefs && !wanted; i++)
            wanted = strcmp(refs[i], ref) == 0;
        if (wanted)
            rc = backfill ? cli_backfill_ref(s, ref, tip)
                          : cli_snapshot_one(s, ref, tip, week, "live");
    }
    sqlite3_finalize(st);
    return rc;
}

int cli_snapshot(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"db", required_argument, 0, 'd'}, {"name", required_argument, 0, 'n'},
        {"repo", required_argument, 0, 'r'},
        {"ref", required_argument, 0, 'f'}, {"backfill", no_argument, 0, 'b'},
        {"since", required_argument, 0, 's'}, {"until", required_argument, 0, 'u'},
        {"date", required_argument, 0, 'D'}, {"help", no_argument, 0, 'h'},
        {0, 0, 0, 0}};
    const char **refs = calloc(argc, sizeof(char *)), *db_path = NULL, *name = NULL;
    const char *since = NULL, *until = NULL;
    cli_snap s;
    size_t nrefs = 0;
    int c, backfill = 0, rc = CLI_USAGE;

    memset(&s, 0, sizeof(s));
    s.by_author = 1;
    s.until = (int64_t)time(NULL);
    optind = 1;
    while (refs && (c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
        switch (c) {
        case 'd': db_path = optarg; break;
        case 'r': cli_deprecated("snapshot", "--repo", "--name"); /* fall through */
        case 'n': name = optarg; break;
        case 'f': refs[nrefs++] = optarg; break;
        case 'b': backfill = 1; break;
        case 's': since = optarg; break;
        case 'u': until = optarg; break;
        case 'D':
            if (strcmp(optarg, "author") && strcmp(optarg, "committer")) {
                fprintf(stderr, "portdash snapshot: --date is author or committer\n");
                goto done;
            }
            s.by_author = strcmp(optarg, "author") == 0;
            break;
        case 'h': cli_snapshot_usage(stdout); rc = CLI_OK; goto done;
        default: cli_snapshot_usage(stderr); goto done;
        }
    }
    if (!db_path || !name || optind < argc || (backfill && !since) ||
        (!backfill && (since || until))) {
        fprintf(stderr, "portdash snapshot: %s\n\n", !db_path || !name
                ? "--db and --name are required" : backfill && !since
                ? "--backfill needs --since" : optind < argc ? "unexpected argument"
                : "--since and --until go with --backfill");
        cli_snapshot_usage(stderr);
        goto done;
    }
    if ((since && pd_parse_date(since, &s.since) < 0) ||
        (until && pd_parse_date(until, &s.until) < 0)) {
        fprintf(stderr, "portdash snapshot: %s\n", pd_error_last());
        goto done;
    }
    rc = CLI_FAIL;
    if (db_open(&s.db, db_path, 0) < 0 ||
        db_repo_find(s.db, name, &s.repo_id, NULL, 0) < 0 ||
        db_meta_get(s.db, "rules_hash", s.rules_hash, sizeof(s.rules_hash)) < 0 ||
        cli_snapshot_refs(&s, refs, nrefs, backfill) < 0) {
        fprintf(stderr, "portdash snapshot: %s\n", pd_error_last());
        goto done;
    }
    printf("%s: %d snapshot(s) recorded, %d week(s) already had one\n", name,
           s.taken, s.kept);
    rc = CLI_OK;
done:
    db_close(s.db);
    free(refs);
    return rc;
}
