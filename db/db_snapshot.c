/*
 * db_snapshot.c: weekly snapshots (see db_snapshot.h).
 */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "db.h"
#include "db_measures.h"
#include "db_fork.h"
#include "db_snapshot.h"
#include "pd_error.h"

void db_iso_week(char *buf, size_t n, int64_t t)
{
    time_t tt = (time_t)t, thu;
    struct tm tm;
    int wday;

    gmtime_r(&tt, &tm);
    wday = (tm.tm_wday + 6) % 7;                 /* Monday = 0 */
    /* ISO 8601: a week belongs to the year of its Thursday. */
    thu = tt + (time_t)(3 - wday) * 86400;
    gmtime_r(&thu, &tm);
    snprintf(buf, n, "%04d-W%02d", tm.tm_year + 1900, tm.tm_yday / 7 + 1);
}

int db_iso_week_end(const char *week, int64_t *out)
{
    int y, w, n = 0, wday;
    struct tm tm;
    time_t jan4;
    char canon[16];

    if (sscanf(week, "%4d-W%2d%n", &y, &w, &n) != 2 || week[n] || w < 1 || w > 53)
        return pd_error_set(PD_EINVAL, "'%s' is not an ISO week (YYYY-Www)", week);
    memset(&tm, 0, sizeof(tm));
    tm.tm_year = y - 1900;
    tm.tm_mday = 4;                              /* January 4 is in week 1 */
    jan4 = timegm(&tm);
    gmtime_r(&jan4, &tm);
    wday = (tm.tm_wday + 6) % 7;
    *out = (int64_t)jan4 - (int64_t)wday * 86400 + (int64_t)w * 7 * 86400;
    /* One spelling of a week that exists: W53 of a year of 52 weeks, or
     * W1 for W01, names no week a snapshot could have. */
    db_iso_week(canon, sizeof(canon), *out - 1);
    if (strcmp(canon, week) != 0)
        return w == 53 && week[n - 3] == 'W'
            ? pd_error_set(PD_EINVAL, "'%s' is not an ISO week: %d has 52 weeks", week, y)
            : pd_error_set(PD_EINVAL, "'%s' is not an ISO week (YYYY-Www, as %s)", week, canon);
    return 0;
}

int db_chain_commit_before(sqlite3 *db, int64_t *commit_out, int64_t tip_id,
                           int64_t before, int by_author)
{
    sqlite3_stmt *st = NULL;
    int rc;

    *commit_out = 0;
    rc = db_prepare(db, &st, by_author
        ? "WITH RECURSIVE chain(cid, depth) AS (SELECT ?1, 0 UNION ALL SELECT "
          "c.first_parent_id, chain.depth + 1 FROM commits c JOIN chain ON "
          "c.id = chain.cid WHERE c.first_parent_id < c.id) SELECT cid FROM "
          "chain JOIN commits c ON c.id = chain.cid WHERE c.author_time < ?2 "
          "ORDER BY chain.depth LIMIT 1"
        : "WITH RECURSIVE chain(cid, depth) AS (SELECT ?1, 0 UNION ALL SELECT "
          "c.first_parent_id, chain.depth + 1 FROM commits c JOIN chain ON "
          "c.id = chain.cid WHERE c.first_parent_id < c.id) SELECT cid FROM "
          "chain JOIN commits c ON c.id = chain.cid WHERE c.committer_time < ?2 "
          "ORDER BY chain.depth LIMIT 1");
    if (rc < 0)
        return rc;
    sqlite3_bind_int64(st, 1, tip_id);
    sqlite3_bind_int64(st, 2, before);
    rc = sqlite3_step(st);
    if (rc == SQLITE_ROW)
        *commit_out = sqlite3_column_int64(st, 0);
    rc = rc == SQLITE_ROW || rc == SQLITE_DONE ? 0
         : pd_error_set(PD_EDB, "database: %s", sqlite3_errmsg(db));
    sqlite3_finalize(st);
    return rc;
}

/* Copy the commit's per-file rows into the snapshot, with the object
 * states the commit's call graph gives (db_files_next, as the file list
 * and the snapshot's totals count them: a file's own counts put a caller of
 * an item helper on no object path, and the rows did not add up to the
 * totals). */
static int db_snapshot_files(sqlite3 *db, int64_t snap_id, int64_t commit_id,
                             const char *rules_hash)
{
    db_files *files = NULL;
    sqlite3_stmt *ins = NULL;
    db_file_row row;
    char sql[2048];
    int rc;

    if ((rc = db_files_open(db, &files, commit_id, rules_hash)) < 0 ||
        (rc = db_measure_insert_sql(sql, sizeof(sql), "INTO snapshot_files", "snapshot_id, "
                                    "path, blob_oid, status", 4, DB_M_SNAPFILE, NULL)) < 0 ||
        (rc = db_prepare(db, &ins, sql)) < 0)
        goto done;
    while ((rc = db_files_next(files, &row)) > 0) {
        sqlite3_reset(ins);
        sqlite3_bind_int64(ins, 1, snap_id);
        sqlite3_bind_text(ins, 2, row.path, -1, SQLITE_TRANSIENT);
        sqlite3_bind_text(ins, 3, row.blob, -1, SQLITE_TRANSIENT);
        sqlite3_bind_text(ins, 4, row.status ? row.status : "unanalysed", -1,
                          SQLITE_TRANSIENT);
        db_measure_bind(ins, 5, DB_M_SNAPFILE, &row.counts);
        if (sqlite3_step(ins) != SQLITE_DONE) {
            rc = pd_error_set(PD_EDB, "database: %s", sqlite3_errmsg(db));
            goto done;
        }
    }
done:
    db_files_close(files);
    sqlite3_finalize(ins);
    return rc;
}

/* Insert the snapshot row; 1 if the week is already taken. */
static int db_snapshot_row(sqlite3 *db, int64_t *id_out, int64_t repo_id,
                           const char *ref, int64_t commit_id, const char *week,
                           int64_t taken_at, const char *method,
                           const char *rules_hash, const db_counts *c)
{
    sqlite3_stmt *st = NULL;
    char sql[2048];
    int rc;

    if ((rc = db_measure_insert_sql(sql, sizeof(sql), "INTO snapshots", "repo_id, ref, "
                                    "week, commit_id, taken_at, method, rules_hash", 7,
                                    DB_M_TOTALS, " ON CONFLICT(repo_id, ref, week) "
                                    "DO NOTHING")) < 0 ||
        (rc = db_prepare(db, &st, sql)) < 0)
        return rc;
    sqlite3_bind_int64(st, 1, repo_id);
    sqlite3_bind_text(st, 2, ref, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 3, week, -1, SQLITE_STATIC);
    sqlite3_bind_int64(st, 4, commit_id);
    sqlite3_bind_int64(st, 5, taken_at);
    sqlite3_bind_text(st, 6, method, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 7, rules_hash, -1, SQLITE_STATIC);
    db_measure_bind(st, 8, DB_M_TOTALS, c);
    rc = sqlite3_step(st);
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE)
        return pd_error_set(PD_EDB, "database: %s", sqlite3_errmsg(db));
    if (sqlite3_changes(db) == 0)
        return 1;
    *id_out = sqlite3_last_insert_rowid(db);
    return 0;
}

int db_snapshot_take(sqlite3 *db, int64_t repo_id, const char *ref, int64_t commit_id,
                     const char *week, int64_t taken_at, const char *method,
                     const char *rules_hash)
{
    db_counts c;
    int64_t id = 0;
    int rc;

    if ((rc = db_commit_stats(db, commit_id, rules_hash, &c)) < 0)
        return rc;
    if ((rc = db_exec(db, "BEGIN IMMEDIATE")) < 0)
        return rc;
    rc = db_snapshot_row(db, &id, repo_id, ref, commit_id, week, taken_at, method,
                         rules_hash, &c);
    if (rc == 0)
        rc = db_snapshot_files(db, id, commit_id, rules_hash);
    if (rc < 0) {
        sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
        return rc;
    }
    return db_exec(db, "COMMIT") < 0 ? PD_EDB : rc;
}

int db_snapshot_backfill(sqlite3 *db, int64_t repo_id, const char *ref, int64_t tip,
                         int64_t since, int64_t until, int by_author,
                         const char *rules_hash, int *taken, int *kept)
{
    const char *method = by_author ? "backfill-author-date" : "backfill-committer-date";
    char week[16], prev[16] = "";
    db_port_chain chain;
    int64_t t, end, commit;
    int rc = 0;

    *taken = *kept = 0;
    /* The trend's dates (db_fork.h), so that a backfilled week shows the
     * commit the trend draws in that week (issue 23.3): on a rebased port
     * its own commits by their own dates, not the upstream base's. */
    if ((rc = db_port_chain_load(db, repo_id, ref, tip, rules_hash, by_author, NULL, 0,
                                 &chain)) < 0)
        return rc;
    /* Day by day, so no week is skipped whatever the start weekday. */
    for (t = since; t <= until; t += 86400) {
        db_iso_week(week, sizeof(week), t);
        if (strcmp(week, prev) == 0)
            continue;
        snprintf(prev, sizeof(prev), "%s", week);
        if ((rc = db_iso_week_end(week, &end)) < 0)
            break;
        if (!(commit = db_port_chain_at(&chain, end)))
            continue;
        /* A week before the port's first own commit shows its fork base
         * (db_port_chain_at).  When that base is newer than the week (a
         * port rebased onto a later upstream), the week is skipped: the
         * port did not exist yet, nor did its base, and snapshots cannot
         * be taken back.  The week just before the port's first keeps it,
         * as the first week's baseline. */
        if (chain.first_own < chain.n && chain.first_own > 0 &&
            end <= chain.eff[chain.first_own - 1] &&
            end + 7 * 86400 <= chain.eff[chain.first_own])
            continue;
        rc = db_snapshot_take(db, repo_id, ref, commit, week, (int64_t)time(NULL),
                              method, rules_hash);
        if (rc < 0)
            break;
        if (rc == 1)
            (*kept)++;
        else
            (*taken)++;
        rc = 0;
    }
    db_port_chain_free(&chain);
    return rc;
}
