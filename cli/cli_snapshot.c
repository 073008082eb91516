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
#include "db_lock.h"
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
        "                   deprecated alias)\n"
        "  --wait SECONDS   while an ingest or another snapshot writes the\n"
        "                   database, wait up to SECONDS for it (default 0: fail\n"
        "                   at once, exit status 1)\n");
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

/* The refs asked for, and what to do with each ref of the repository. */
typedef struct {
    cli_snap *s;
    const char **refs;
    size_t nrefs;
    unsigned char *found;       /* refs[i] is stored */
    int backfill;
    char week[16];
} cli_snap_walk;

/* db_refs_list callback: note which asked-for refs exist. */
static int cli_snapshot_seen(void *arg, const char *ref, int64_t tip)
{
    cli_snap_walk *w = arg;
    size_t i;

    for (i = 0; i < w->nrefs; i++)
        w->found[i] |= strcmp(w->refs[i], ref) == 0;
    return 0;
}

/* db_refs_list callback: snapshot (or backfill) the ref when wanted. */
static int cli_snapshot_ref(void *arg, const char *ref, int64_t tip)
{
    cli_snap_walk *w = arg;
    int wanted = w->nrefs == 0;
    size_t i;

    for (i = 0; i < w->nrefs && !wanted; i++)
        wanted = strcmp(w->refs[i], ref) == 0;
    if (!wanted)
        return 0;
    return w->backfill ? cli_backfill_ref(w->s, ref, tip)
                       : cli_snapshot_one(w->s, ref, tip, w->week, "live");
}

/* Snapshot (or backfill) the refs named, or all refs of the repository. */
static int cli_snapshot_refs(cli_snap *s, const char **refs, size_t nrefs, int backfill)
{
    cli_snap_walk w = {s, refs, nrefs, NULL, backfill, ""};
    size_t i;
    int rc;

    db_iso_week(w.week, sizeof(w.week), (int64_t)time(NULL));
    if (!(w.found = calloc(nrefs + 1, 1)))
        return pd_error_nomem(NULL);
    rc = db_refs_list(s->db, s->repo_id, cli_snapshot_seen, &w);
    for (i = 0; i < nrefs && rc == 0; i++)
        if (!w.found[i])
            rc = pd_error_set(PD_ENOTFOUND, "ref '%s' has not been ingested", refs[i]);
    if (rc == 0)
        rc = db_refs_list(s->db, s->repo_id, cli_snapshot_ref, &w);
    free(w.found);
    return rc;
}

/* Whether the options go together (optind past them, argc), the dates
 * of --since and --until parsed into s.  0, or -1 (reported). */
static int cli_snapshot_check(cli_snap *s, const char *db_path, const char *name, int argc,
                              int backfill, const char *since, const char *until)
{
    if (!db_path || !name || optind < argc || (backfill && !since) ||
        (!backfill && (since || until))) {
        fprintf(stderr, "portdash snapshot: %s\n\n", !db_path || !name
                ? "--db and --name are required" : backfill && !since
                ? "--backfill needs --since" : optind < argc ? "unexpected argument"
                : "--since and --until go with --backfill");
        cli_snapshot_usage(stderr);
        return -1;
    }
    if ((since && pd_parse_date(since, &s->since) < 0) ||
        (until && pd_parse_date(until, &s->until) < 0)) {
        fprintf(stderr, "portdash snapshot: %s\n", pd_error_last());
        return -1;
    }
    if (since && until && s->since > s->until) {
        /* an empty range would record nothing and say nothing */
        fprintf(stderr, "portdash snapshot: --since %s is after --until %s\n", since, until);
        return -1;
    }
    return 0;
}

int cli_snapshot(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"db", required_argument, 0, 'd'}, {"name", required_argument, 0, 'n'},
        {"repo", required_argument, 0, 'r'},
        {"ref", required_argument, 0, 'f'}, {"backfill", no_argument, 0, 'b'},
        {"since", required_argument, 0, 's'}, {"until", required_argument, 0, 'u'},
        {"date", required_argument, 0, 'D'}, {"wait", required_argument, 0, 'w'},
        {"help", no_argument, 0, 'h'}, {0, 0, 0, 0}};
    const char **refs = calloc(argc, sizeof(char *)), *db_path = NULL, *name = NULL;
    const char *since = NULL, *until = NULL;
    cli_snap s;
    db_lock *lock = NULL;
    size_t nrefs = 0;
    int c, backfill = 0, rc = CLI_USAGE, wait_s = 0, err = 0;

    memset(&s, 0, sizeof(s));
    s.by_author = 1;
    s.until = (int64_t)time(NULL);
    optind = 1;
    while (refs && (c = cli_getopt(argc, argv, longopts)) != -1) {
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
        case 'w':
            if (cli_wait_seconds("snapshot", optarg, &wait_s) < 0)
                goto done;
            break;
        case 'h': cli_snapshot_usage(stdout); rc = CLI_OK; goto done;
        default: cli_snapshot_usage(stderr); goto done;
        }
    }
    if (cli_snapshot_check(&s, db_path, name, argc, backfill, since, until) < 0)
        goto done;
    rc = CLI_FAIL;
    /* One writer at a time: the Monday snapshot and the hourly ingest
     * queue on the same lock (db_lock.h). */
    /* The lock first: during a first ingest the database is not there yet,
     * and "another ingest is running" is what to say (test_lock); then a
     * missing database is named by db_open (its lock file stays, as every
     * lock file does). */
    if (db_lock_take(&lock, db_path, "snapshot", wait_s) < 0 ||
        (err = db_open(&s.db, db_path, 0)) < 0 ||
        db_repo_find(s.db, name, &s.repo_id, NULL, 0) < 0 ||
        db_meta_get(s.db, "rules_hash", s.rules_hash, sizeof(s.rules_hash)) < 0 ||
        cli_snapshot_refs(&s, refs, nrefs, backfill) < 0) {
        fprintf(stderr, "portdash snapshot: %s\n", pd_error_last());
        if (err == PD_EINVAL)
            rc = CLI_USAGE;             /* a missing --db is bad input */
        goto done;
    }
    printf("%s: %d snapshot(s) recorded, %d week(s) already had one\n", name,
           s.taken, s.kept);
    rc = CLI_OK;
done:
    db_close(s.db);
    db_lock_release(lock);
    free(refs);
    return rc;
}
