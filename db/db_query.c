/*
 * db_query.c: read queries shared by the server and the ingest: repository
 * and rev lookup, the file list of a commit, and stored counts.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db.h"
#include "db_flow.h"
#include "db_kept.h"
#include "db_measures.h"
#include "db_tree.h"
#include "pd_error.h"
#include "pd_rev.h"

/* Step a statement expected to give one row; maps DONE to PD_ENOTFOUND. */
static int db_step_one(sqlite3 *db, sqlite3_stmt *st)
{
    int rc = sqlite3_step(st);

    if (rc == SQLITE_ROW)
        return 0;
    if (rc == SQLITE_DONE)
        return PD_ENOTFOUND;
    return pd_error_set(PD_EDB, "database: %s", sqlite3_errmsg(db));
}

int db_refs_list(sqlite3 *db, int64_t repo_id,
                 int (*fn)(void *arg, const char *name, int64_t commit_id), void *arg)
{
    sqlite3_stmt *st = NULL;
    int rc;

    if ((rc = db_prepare(db, &st, "SELECT name, commit_id FROM refs WHERE repo_id = ?1 "
                         "ORDER BY name")) < 0)
        return rc;
    sqlite3_bind_int64(st, 1, repo_id);
    return db_each_text_int(st, fn, arg);
}

/* The names the one-column query `sql` (bound to id when id > 0) gives,
 * in its order, without a leading "refs/heads/", counted into l. */
static void db_names_of(sqlite3 *db, const char *sql, int64_t id, pd_rev_names *l)
{
    sqlite3_stmt *st = NULL;

    if (db_prepare(db, &st, sql) != 0)
        return;
    if (id > 0)
        sqlite3_bind_int64(st, 1, id);
    while (sqlite3_step(st) == SQLITE_ROW) {
        const char *name = (const char *)sqlite3_column_text(st, 0);

        if (name)
            pd_rev_names_add(l, strncmp(name, "refs/heads/", 11) ? name : name + 11);
    }
    sqlite3_finalize(st);
}

int db_repo_unknown(sqlite3 *db, const char *name)
{
    pd_rev_names l = {"", 0, 0};
    char names[sizeof(l.text) + 32];

    db_names_of(db, "SELECT name FROM repos ORDER BY name", 0, &l);
    if (l.n == 0)
        return pd_error_set(PD_ENOTFOUND, "no repository named '%s' (the database holds "
                            "none yet: `portdash ingest --name NAME` adds one)", name);
    return pd_error_set(PD_ENOTFOUND, "no repository named '%s' (its repositories: %s)",
                        name, pd_rev_names_str(&l, names, sizeof(names)));
}

int db_repo_find(sqlite3 *db, const char *name, int64_t *id_out,
                 char *path_out, size_t n)
{
    sqlite3_stmt *st = NULL;
    int rc;

    if ((rc = db_kept_prepare(db, &st, "SELECT id, path FROM repos WHERE name = ?1")) < 0)
        return rc;
    sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
    rc = db_step_one(db, st);
    if (rc == PD_ENOTFOUND)
        db_repo_unknown(db, name);
    if (rc == 0) {
        *id_out = sqlite3_column_int64(st, 0);
        if (path_out)
            snprintf(path_out, n, "%s", (const char *)sqlite3_column_text(st, 1));
    }
    db_kept_done(st);
    return rc;
}

static int db_is_hex(const char *s, size_t min, size_t max)
{
    size_t n = strlen(s), i;

    if (n < min || n > max)
        return 0;
    for (i = 0; i < n; i++)
        if (!isxdigit((unsigned char)s[i]) || isupper((unsigned char)s[i]))
            return 0;
    return 1;
}

/* Step st, a query of one commit's (id, oid), and finalize it: its row
 * into *commit_out and oid_out (41 bytes).  0, PD_ENOTFOUND, PD_EDB. */
static int db_rev_row(sqlite3 *db, sqlite3_stmt *st, int64_t *commit_out, char *oid_out)
{
    int rc = db_step_one(db, st);

    if (rc == 0) {
        *commit_out = sqlite3_column_int64(st, 0);
        snprintf(oid_out, 41, "%s", (const char *)sqlite3_column_text(st, 1));
    }
    db_kept_done(st);           /* a kept statement or a plain one */
    return rc;
}

/* PD_ENOTFOUND "unknown revision 'REV'", naming the refs the repository
 * stores, as pd_rev_unknown names a clone's branches: a branch of the
 * clone that no ingest named (`--ref`) is not one of them. */
static int db_rev_unknown(sqlite3 *db, int64_t repo_id, const char *rev)
{
    pd_rev_names l = {"", 0, 0};
    char names[sizeof(l.text) + 32];

    db_names_of(db, "SELECT name FROM refs WHERE repo_id = ?1 ORDER BY name", repo_id, &l);
    if (l.n == 0)
        return pd_error_set(PD_ENOTFOUND, "unknown revision '%s' (no ref stored yet: "
                            "`portdash ingest --ref BRANCH` stores one)", rev);
    return pd_error_set(PD_ENOTFOUND, "unknown revision '%s' (no stored ref or commit of "
                        "that name; its refs: %s)", rev, pd_rev_names_str(&l, names,
                                                                          sizeof(names)));
}

/* Commit ids starting with `prefix`: a range scan on the unique index. */
static int db_rev_by_prefix(sqlite3 *db, int64_t repo_id, const char *rev,
                            int64_t *commit_out, char *oid_out)
{
    sqlite3_stmt *st = NULL;
    char hi[48];
    int rc, found = 0;

    snprintf(hi, sizeof(hi), "%sg", rev);  /* 'g' sorts after every hex digit */
    if ((rc = db_kept_prepare(db, &st, "SELECT id, oid FROM commits WHERE repo_id = ?1 "
                         "AND oid >= ?2 AND oid < ?3 LIMIT 2")) < 0)
        return rc;
    sqlite3_bind_int64(st, 1, repo_id);
    sqlite3_bind_text(st, 2, rev, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 3, hi, -1, SQLITE_STATIC);
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        if (found++ == 0) {
            *commit_out = sqlite3_column_int64(st, 0);
            snprintf(oid_out, 41, "%s", (const char *)sqlite3_column_text(st, 1));
        }
    }
    if (rc != SQLITE_DONE)
        rc = pd_error_set(PD_EDB, "database: %s", sqlite3_errmsg(db));
    else if (found == 0)
        rc = db_rev_unknown(db, repo_id, rev);
    else if (found > 1)
        rc = pd_error_set(PD_ENOTFOUND, "ambiguous commit id prefix '%s'", rev);
    else
        rc = 0;
    db_kept_done(st);
    return rc;
}

/* Parent k (1-based; 1 the first) of commit *commit, stored in the same
 * repository, into *commit and oid_out.  0, PD_ENOTFOUND, PD_EDB. */
static int db_rev_parent(sqlite3 *db, int64_t repo_id, long k, int64_t *commit,
                         char *oid_out)
{
    sqlite3_stmt *st = NULL;
    const char *p;
    char oid[41];
    int rc;

    if ((rc = db_prepare(db, &st, "SELECT parents FROM commits WHERE id = ?1")) < 0)
        return rc;
    sqlite3_bind_int64(st, 1, *commit);
    if ((rc = db_step_one(db, st)) == 0) {
        p = (const char *)sqlite3_column_text(st, 0);
        for (; p && k > 1 && *p; k--)           /* "a b c": the k-th word */
            p = strchr(p, ' ') ? strchr(p, ' ') + 1 : "";
        if (!p || strlen(p) < 40 || (p[40] && p[40] != ' '))
            rc = PD_ENOTFOUND;
        else
            snprintf(oid, sizeof(oid), "%.40s", p);
    }
    sqlite3_finalize(st);
    /* the whole id as a prefix: the one commit, if stored */
    return rc < 0 ? rc : db_rev_by_prefix(db, repo_id, oid, commit, oid_out);
}

/* The commit n first parents back from *commit, into *commit and oid_out,
 * in one walk of the stored first-parent links (a ~10000 is one query, not
 * 10,000).  0, PD_ENOTFOUND (the chain stops before), PD_EDB. */
static int db_rev_back(sqlite3 *db, long n, int64_t *commit, char *oid_out)
{
    sqlite3_stmt *st = NULL;
    int rc;

    if ((rc = db_prepare(db, &st, "WITH RECURSIVE chain(cid, n) AS (SELECT ?1, 0 "
                         "UNION ALL SELECT c.first_parent_id, chain.n + 1 FROM commits c "
                         "JOIN chain ON c.id = chain.cid WHERE chain.n < ?2 AND "
                         "c.first_parent_id < c.id) SELECT c.id, c.oid FROM chain "
                         "JOIN commits c ON c.id = chain.cid WHERE chain.n = ?2")) < 0)
        return rc;
    sqlite3_bind_int64(st, 1, *commit);
    sqlite3_bind_int64(st, 2, n);
    return db_rev_row(db, st, commit, oid_out);
}

/* The steps s ("~2^2~", checked by pd_rev_check) from *commit, git's
 * meaning: ~N is N first parents, ^N the N-th parent (^0 the commit). */
static int db_rev_steps(sqlite3 *db, int64_t repo_id, const char *rev, const char *s,
                        int64_t *commit, char *oid_out)
{
    int rc = 0;

    while (*s && rc == 0) {
        int tilde = *s++ == '~';
        long v = 1;

        if (*s >= '0' && *s <= '9')
            for (v = 0; *s >= '0' && *s <= '9'; s++)
                v = v * 10 + (*s - '0');
        if (tilde || v == 1)
            rc = v > 0 ? db_rev_back(db, v, commit, oid_out) : 0;
        else if (v > 1)                 /* a merge's other parents */
            rc = db_rev_parent(db, repo_id, v, commit, oid_out);
    }
    if (rc == PD_ENOTFOUND)
        return pd_error_set(rc, "unknown revision '%s' (no such parent stored)", rev);
    return rc;
}

int db_rev_resolve(sqlite3 *db, int64_t repo_id, const char *rev,
                   int64_t *commit_out, char *oid_out)
{
    sqlite3_stmt *st = NULL;
    size_t name;
    int rc;

    /* Every revision from outside passes here or through pd_rev_parse. */
    if ((rc = pd_rev_check(rev)) < 0)
        return rc;
    if (rev[name = strcspn(rev, "~^")]) {   /* a name, then ~N and ^N steps */
        char base[PD_REV_MAX + 1];

        memcpy(base, rev, name);
        base[name] = '\0';
        if ((rc = db_rev_resolve(db, repo_id, base, commit_out, oid_out)) < 0)
            return rc;
        return db_rev_steps(db, repo_id, rev, rev + name, commit_out, oid_out);
    }
    if ((rc = db_kept_prepare(db, &st, "SELECT c.id, c.oid FROM refs r JOIN commits c "
                         "ON c.id = r.commit_id WHERE r.repo_id = ?1 AND "
                         "(r.name = ?2 OR r.name = 'refs/heads/' || ?2 OR "
                         "r.name = 'refs/remotes/' || ?2 OR r.name = 'refs/tags/' || ?2) "
                         "ORDER BY r.name = ?2 DESC LIMIT 1")) < 0)
        return rc;
    sqlite3_bind_int64(st, 1, repo_id);
    sqlite3_bind_text(st, 2, rev, -1, SQLITE_STATIC);
    if ((rc = db_rev_row(db, st, commit_out, oid_out)) != PD_ENOTFOUND)
        return rc;
    if (!db_is_hex(rev, 4, 40))
        return db_rev_unknown(db, repo_id, rev);
    return db_rev_by_prefix(db, repo_id, rev, commit_out, oid_out);
}

/*
 * The first-parent chain from `commit_id` as the queries here walk it stops
 * at a row whose link does not go to an older row; a link there that is
 * not NULL (a self-loop, a link forward) is damage, not the root.  PD_EDB
 * naming the row when the chain has one, else 0 (issue 27: a self-loop
 * made a file "not found", 404, instead of an error).
 */
static int db_chain_check(sqlite3 *db, int64_t commit_id)
{
    sqlite3_stmt *st = NULL;
    int rc;

    if ((rc = db_prepare(db, &st, "WITH RECURSIVE chain(cid) AS (SELECT ?1 UNION ALL"
                         " SELECT c.first_parent_id FROM commits c JOIN chain"
                         " ON c.id = chain.cid WHERE c.first_parent_id < c.id)"
                         " SELECT c.id, c.first_parent_id FROM chain JOIN commits c"
                         " ON c.id = chain.cid WHERE c.first_parent_id >= c.id"
                         " LIMIT 1")) < 0)
        return rc;
    sqlite3_bind_int64(st, 1, commit_id);
    if ((rc = db_step(st)) > 0)
        rc = pd_error_set(PD_EDB, "the database is damaged: commit row %lld names row "
                          "%lld as its first parent",
                          (long long)sqlite3_column_int64(st, 0),
                          (long long)sqlite3_column_int64(st, 1));
    sqlite3_finalize(st);
    return rc < 0 ? rc : 0;
}

int db_commit_file_blob(sqlite3 *db, int64_t commit_id, const char *path,
                        char *blob_out)
{
    sqlite3_stmt *st = NULL;
    int rc;

    /* The newest change of the path after the checkpoint, else the
     * checkpoint's row (db_tree.h); ?2 the path. */
    if ((rc = db_kept_prepare(db, &st, "WITH RECURSIVE base(id) AS (SELECT coalesce("
                         "(SELECT base_id FROM chain_pos WHERE commit_id = ?1), 0)),"
                         " pid(id) AS (SELECT id FROM paths WHERE path = ?2),"
                         " chain(cid, depth) AS (SELECT ?1, 0 UNION ALL"
                         " SELECT c.first_parent_id, chain.depth + 1 FROM commits c"
                         " JOIN chain ON c.id = chain.cid"
                         " WHERE c.first_parent_id < c.id AND chain.cid != (SELECT id FROM base))"
                         " SELECT blob_oid FROM (SELECT ch.blob_oid, chain.depth AS d"
                         " FROM chain JOIN changes ch ON ch.commit_id = chain.cid"
                         " WHERE ch.path_id = (SELECT id FROM pid)"
                         " AND chain.cid != (SELECT id FROM base) UNION ALL"
                         " SELECT t.blob_oid, 1 << 62 FROM tree_files t"
                         " WHERE t.commit_id = (SELECT id FROM base)"
                         " AND t.path_id = (SELECT id FROM pid))"
                         " ORDER BY d LIMIT 1")) < 0)
        return rc;
    sqlite3_bind_int64(st, 1, commit_id);
    sqlite3_bind_text(st, 2, path, -1, SQLITE_STATIC);
    rc = db_step_one(db, st);
    if (rc == 0 && sqlite3_column_type(st, 0) == SQLITE_NULL)
        rc = PD_ENOTFOUND;     /* deleted by then */
    if (rc == 0)
        snprintf(blob_out, 41, "%s", (const char *)sqlite3_column_text(st, 0));
    else if (rc == PD_ENOTFOUND)
        pd_error_set(rc, "no file '%s' at this commit", path);
    db_kept_done(st);
    /* Not found along a chain cut short by damage is the damage. */
    if (rc == PD_ENOTFOUND) {
        int bad = db_chain_check(db, commit_id);

        if (bad < 0)
            return bad;
        pd_error_set(rc, "no file '%s' at this commit", path);
    }
    return rc;
}

/*
 * The file list is the newest change of each path along the first-parent
 * chain, read from the nearest checkpoint on (db_tree.h); deleted paths
 * (NULL blob) drop out at the end.  Columns: 0 path id, 1 path, 2 blob, 3 analysis id
 * (0: none), 4 status (NULL: no analysis), then the measures.
 */
static const char db_files_head[] =
    DB_TREE_LATEST_CTE
    "SELECT p.id, p.path, l.blob_oid, coalesce(a.id, 0), a.status, ";
static const char db_files_tail[] =
    " FROM latest l"
    "  JOIN paths p ON p.id = l.path_id"
    "  LEFT JOIN analyses a ON a.blob_oid = l.blob_oid AND a.rules_hash = ?2"
    "  WHERE l.blob_oid IS NOT NULL ORDER BY p.path";

int db_commit_files_stmt(sqlite3 *db, sqlite3_stmt **out, int64_t commit_id,
                         const char *rules_hash)
{
    char cols[1024], sql[4096];
    int rc;

    if ((rc = db_measure_list(cols, sizeof(cols), DB_M_ANALYSES, "a.")) < 0)
        return rc;
    snprintf(sql, sizeof(sql), "%s%s%s", db_files_head, cols, db_files_tail);
    if ((rc = db_prepare(db, out, sql)) < 0)
        return rc;
    sqlite3_bind_int64(*out, 1, commit_id);
    sqlite3_bind_text(*out, 2, rules_hash, -1, SQLITE_TRANSIENT);
    return 0;
}

void db_counts_from_files_row(sqlite3_stmt *st, db_counts *c)
{
    memset(c, 0, sizeof(*c));
    if (sqlite3_column_type(st, 4) == SQLITE_NULL)
        return;
    db_measure_read(st, 5, DB_M_ANALYSES, c);
}

struct db_files {
    sqlite3_stmt *st;
    db_flow *flow;               /* the commit's call graph */
};

int db_files_open(sqlite3 *db, db_files **out, int64_t commit_id, const char *rules_hash)
{
    db_files *f = calloc(1, sizeof(*f));
    int rc;

    *out = NULL;
    if (!f)
        return pd_error_nomem(NULL);
    if ((rc = db_commit_files_stmt(db, &f->st, commit_id, rules_hash)) < 0 ||
        (rc = db_flow_get(db, commit_id, rules_hash, &f->flow)) < 0) {
        sqlite3_finalize(f->st);
        free(f);
        return rc;
    }
    *out = f;
    return 0;
}

int db_files_next(db_files *f, db_file_row *row)
{
    int rc = db_step(f->st);

    if (rc <= 0)
        return rc;
    row->path_id = sqlite3_column_int64(f->st, 0);
    row->path = (const char *)sqlite3_column_text(f->st, 1);
    row->blob = (const char *)sqlite3_column_text(f->st, 2);
    row->analysis_id = sqlite3_column_int64(f->st, 3);
    row->status = (const char *)sqlite3_column_text(f->st, 4);
    db_counts_from_files_row(f->st, &row->counts);
    if (row->analysis_id) {      /* states the commit's call graph gives */
        int64_t delta[PD_OBJ_COUNT];
        int s;

        pd_flow_file_delta(db_flow_graph(f->flow), pd_flow_path_key(row->path), delta);
        for (s = 0; s < PD_OBJ_COUNT; s++)
            row->counts.obj[s] += delta[s];
    }
    return 1;
}

const pd_flow *db_files_graph(const db_files *f)
{
    return db_flow_graph(f->flow);
}

void db_files_close(db_files *f)
{
    if (!f)
        return;
    sqlite3_finalize(f->st);
    db_flow_release(f->flow);
    free(f);
}

int db_commit_files(sqlite3 *db, int64_t commit_id, const char *rules_hash,
                    db_file_fn fn, void *arg)
{
    sqlite3_stmt *st = NULL;
    int rc;

    if ((rc = db_commit_files_stmt(db, &st, commit_id, rules_hash)) < 0)
        return rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        rc = fn(arg, sqlite3_column_int64(st, 0),
                (const char *)sqlite3_column_text(st, 1),
                (const char *)sqlite3_column_text(st, 2),
                sqlite3_column_int64(st, 3));
        if (rc != 0)
            goto done;
    }
    rc = rc == SQLITE_DONE ? 0
         : pd_error_set(PD_EDB, "database: %s", sqlite3_errmsg(db));
done:
    sqlite3_finalize(st);
    return rc;
}

int db_analysis_counts(sqlite3 *db, int64_t analysis_id, db_counts *out)
{
    sqlite3_stmt *st = NULL;
    char cols[1024], sql[1200];
    int rc;

    memset(out, 0, sizeof(*out));
    if ((rc = db_measure_list(cols, sizeof(cols), DB_M_ANALYSES, "a.")) < 0)
        return rc;
    snprintf(sql, sizeof(sql), "SELECT %s FROM analyses a WHERE a.id = ?1", cols);
    if ((rc = db_prepare(db, &st, sql)) < 0)
        return rc;
    sqlite3_bind_int64(st, 1, analysis_id);
    if ((rc = db_step_one(db, st)) == 0)
        db_measure_read(st, 0, DB_M_ANALYSES, out);
    else if (rc == PD_ENOTFOUND)
        pd_error_set(rc, "no analysis %lld", (long long)analysis_id);
    sqlite3_finalize(st);
    return rc;
}

int db_commit_stats(sqlite3 *db, int64_t commit_id, const char *rules_hash,
                    db_counts *out)
{
    sqlite3_stmt *st = NULL;
    char cols[1024], sql[1200];
    int rc;

    memset(out, 0, sizeof(*out));
    if ((rc = db_measure_list(cols, sizeof(cols), DB_M_TOTALS, "")) < 0)
        return rc;
    snprintf(sql, sizeof(sql), "SELECT %s FROM commit_stats "
             "WHERE commit_id = ?1 AND rules_hash = ?2", cols);
    if ((rc = db_prepare(db, &st, sql)) < 0)
        return rc;
    sqlite3_bind_int64(st, 1, commit_id);
    sqlite3_bind_text(st, 2, rules_hash, -1, SQLITE_STATIC);
    if ((rc = db_step_one(db, st)) == 0)
        db_measure_read(st, 0, DB_M_TOTALS, out);
    else if (rc == PD_ENOTFOUND)
        pd_error_set(rc, "commit %lld has no summary under the current rules",
                     (long long)commit_id);
    sqlite3_finalize(st);
    return rc;
}

int db_path_is_dir(sqlite3 *db, const char *dir)
{
    sqlite3_stmt *st = NULL;
    int rc;

    /* the paths from "dir/" up to, not including, "dir0" ('0' follows '/') */
    if ((rc = db_prepare(db, &st, "SELECT 1 FROM paths WHERE path > ?1 || '/' "
                         "AND path < ?1 || '0' LIMIT 1")) < 0)
        return rc;
    sqlite3_bind_text(st, 1, dir, -1, SQLITE_STATIC);
    rc = db_step(st);
    sqlite3_finalize(st);
    return rc < 0 ? rc : rc > 0;
}
