/*
 * db_repo.c: listing, removing and renaming repositories (see db_repo.h).
 */
#include <stdio.h>
#include <string.h>

#include "db.h"
#include "db_repo.h"
#include "pd_error.h"
#include "pd_utf8.h"

int db_repo_name_check(const char *name)
{
    const unsigned char *p;

    if (!name || !name[0] || strchr(name, '='))
        return pd_error_set(PD_EINVAL, "repository name '%s' is empty or has '=' "
                            "(serve --repo NAME=GITDIR splits at the first '=')",
                            name ? name : "");
    /* A name is shown in every answer, log line and error that lists the
     * repositories: a control character there could forge a line. */
    for (p = (const unsigned char *)name; *p; p++)
        if (*p < 0x20 || *p == 0x7f)
            return pd_error_set(PD_EINVAL, "repository name has a control character "
                                "(byte 0x%02X at %zu)", *p,
                                (size_t)(p - (const unsigned char *)name));
        else if (p[0] == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f)    /* C1, as UTF-8 */
            return pd_error_set(PD_EINVAL, "repository name has a control character "
                                "(U+00%02X at %zu)", p[1],
                                (size_t)(p - (const unsigned char *)name));
    if (!pd_utf8_valid(name, strlen(name)))
        return pd_error_set(PD_EINVAL, "repository name is not UTF-8");
    /* a URL segment the browser would resolve (RFC 3986 section 5.2.4) */
    if (strcmp(name, ".") == 0 || strcmp(name, "..") == 0)
        return pd_error_set(PD_EINVAL, "repository name '%s' is a dot segment, which no "
                            "URL can name", name);
    return 0;
}

int db_repo_list(sqlite3 *db, int (*fn)(void *arg, const db_repo_info *r), void *arg)
{
    static const char sql[] =
        "SELECT r.id, r.name, r.path, r.scope, r.created_at, "
        "(SELECT count(*) FROM commits c WHERE c.repo_id = r.id), "
        "(SELECT count(*) FROM refs f WHERE f.repo_id = r.id), "
        "(SELECT count(DISTINCT m.blob_oid) FROM missing_objects m "
        " JOIN commits c ON c.id = m.commit_id WHERE c.repo_id = r.id), r.profile "
        "FROM repos r ORDER BY r.name";
    sqlite3_stmt *st;
    int rc;

    if ((rc = db_prepare(db, &st, sql)) < 0)
        return rc;
    while ((rc = db_step(st)) > 0) {
        db_repo_info r;

        r.id = sqlite3_column_int64(st, 0);
        r.name = (const char *)sqlite3_column_text(st, 1);
        r.path = (const char *)sqlite3_column_text(st, 2);
        r.scope = (const char *)sqlite3_column_text(st, 3);
        r.created_at = sqlite3_column_int64(st, 4);
        r.commits = sqlite3_column_int64(st, 5);
        r.refs = sqlite3_column_int64(st, 6);
        r.missing = sqlite3_column_int64(st, 7);
        r.profile = (const char *)sqlite3_column_text(st, 8);
        if ((rc = fn(arg, &r)) != 0)
            break;
    }
    sqlite3_finalize(st);
    return rc;
}

/* Everything stored for one repository, children before parents (foreign
 * keys are on).  The generation triggers fire on the deletes of dismissals
 * and SARIF runs, so their counters go after them. */
static const char *const db_repo_rm_sql[] = {
    "DELETE FROM sarif_rules WHERE run_id IN (SELECT id FROM sarif_runs WHERE repo_id = ?1)",
    "DELETE FROM sarif_results WHERE run_id IN "
    "(SELECT id FROM sarif_runs WHERE repo_id = ?1)",
    "DELETE FROM sarif_runs WHERE repo_id = ?1",
    "DELETE FROM sarif_generation WHERE commit_id IN "
    "(SELECT id FROM commits WHERE repo_id = ?1)",
    "DELETE FROM dismissals WHERE repo_id = ?1",
    "DELETE FROM dismissal_generation WHERE repo_id = ?1",
    "DELETE FROM snapshot_files WHERE snapshot_id IN "
    "(SELECT id FROM snapshots WHERE repo_id = ?1)",
    "DELETE FROM snapshots WHERE repo_id = ?1",
    "DELETE FROM rewrites WHERE repo_id = ?1",
    "DELETE FROM refs WHERE repo_id = ?1",
    "DELETE FROM ref_forks WHERE repo_id = ?1",
    "DELETE FROM missing_objects WHERE commit_id IN "
    "(SELECT id FROM commits WHERE repo_id = ?1)",
    "DELETE FROM commit_stats WHERE commit_id IN (SELECT id FROM commits WHERE repo_id = ?1)",
    "DELETE FROM flow_commits WHERE commit_id IN (SELECT id FROM commits WHERE repo_id = ?1)",
    "DELETE FROM flow_graph_commits WHERE commit_id IN "
    "(SELECT id FROM commits WHERE repo_id = ?1)",
    "DELETE FROM flow_graphs WHERE id NOT IN (SELECT graph_id FROM flow_graph_commits)",
    "DELETE FROM tree_files WHERE commit_id IN (SELECT id FROM commits WHERE repo_id = ?1)",
    "DELETE FROM chain_pos WHERE commit_id IN (SELECT id FROM commits WHERE repo_id = ?1)",
    "DELETE FROM changes WHERE commit_id IN (SELECT id FROM commits WHERE repo_id = ?1)",
    "DELETE FROM commits WHERE repo_id = ?1",
    "DELETE FROM repos WHERE id = ?1",
};

int db_repo_rm_id(sqlite3 *db, int64_t id)
{
    size_t i;
    int rc = 0;

    for (i = 0; i < sizeof(db_repo_rm_sql) / sizeof(db_repo_rm_sql[0]) && rc == 0; i++) {
        sqlite3_stmt *st;

        if ((rc = db_prepare(db, &st, db_repo_rm_sql[i])) < 0)
            break;
        sqlite3_bind_int64(st, 1, id);
        rc = db_step(st);
        sqlite3_finalize(st);
        rc = rc < 0 ? rc : 0;
    }
    return rc;
}

int db_repo_profile(sqlite3 *db, int64_t id, char *buf, size_t n)
{
    sqlite3_stmt *st;
    int rc;

    buf[0] = '\0';
    if ((rc = db_prepare(db, &st, "SELECT profile FROM repos WHERE id = ?1")) < 0)
        return rc;
    sqlite3_bind_int64(st, 1, id);
    if ((rc = db_step(st)) > 0 && sqlite3_column_text(st, 0))
        snprintf(buf, n, "%s", (const char *)sqlite3_column_text(st, 0));
    sqlite3_finalize(st);
    return rc < 0 ? rc : 0;
}

int db_repo_set_profile(sqlite3 *db, int64_t id, const char *profile)
{
    sqlite3_stmt *st;
    int rc;

    if ((rc = db_prepare(db, &st, "UPDATE repos SET profile = ?1 WHERE id = ?2")) < 0)
        return rc;
    sqlite3_bind_text(st, 1, profile, -1, SQLITE_STATIC);
    sqlite3_bind_int64(st, 2, id);
    rc = db_step(st);
    sqlite3_finalize(st);
    return rc < 0 ? rc : 0;
}

int db_repo_filter(sqlite3 *db, int64_t id, pathfilter_owned *out)
{
    sqlite3_stmt *st = NULL;
    int rc;

    memset(out, 0, sizeof(*out));
    if ((rc = db_prepare(db, &st, "SELECT scope FROM repos WHERE id = ?1")) < 0)
        return rc;
    sqlite3_bind_int64(st, 1, id);
    if ((rc = db_step(st)) == 0)
        rc = pd_error_set(PD_ENOTFOUND, "no repository %lld", (long long)id);
    else if (rc > 0 && (rc = pathfilter_from_json(
                 out, (const char *)sqlite3_column_text(st, 0))) == PD_EINVAL)
        pd_error_set(rc, "repository %lld: its stored path filter is not readable",
                     (long long)id);
    sqlite3_finalize(st);
    return rc;
}

int db_repo_forget_empty(sqlite3 *db, int64_t id, int bare)
{
    sqlite3_stmt *st = NULL;
    int refs = 1;

    if (db_prepare(db, &st, bare ? "SELECT (SELECT count(*) FROM refs WHERE repo_id = ?1) + "
                                   "EXISTS (SELECT 1 FROM commits WHERE repo_id = ?1)"
                                 : "SELECT count(*) FROM refs WHERE repo_id = ?1") == 0) {
        sqlite3_bind_int64(st, 1, id);
        if (db_step(st) > 0)
            refs = sqlite3_column_int(st, 0);
    }
    sqlite3_finalize(st);
    if (refs != 0 || db_exec(db, "BEGIN IMMEDIATE") < 0)
        return 0;
    if (db_repo_rm_id(db, id) == 0 && db_exec(db, "COMMIT") == 0)
        return 1;
    sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
    return 0;
}

int db_repo_rm(sqlite3 *db, const char *name)
{
    int64_t id;
    int rc;

    if ((rc = db_exec(db, "BEGIN IMMEDIATE")) < 0)
        return rc;
    if ((rc = db_repo_find(db, name, &id, NULL, 0)) == 0)
        rc = db_repo_rm_id(db, id);
    if (rc == 0 && (rc = db_exec(db, "COMMIT")) == 0)
        return 0;
    sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
    return rc;
}

int db_repo_rename(sqlite3 *db, const char *from, const char *to)
{
    sqlite3_stmt *st;
    int64_t id, other;
    int rc;

    if ((rc = db_repo_name_check(to)) < 0)
        return rc;
    if ((rc = db_exec(db, "BEGIN IMMEDIATE")) < 0)
        return rc;
    if ((rc = db_repo_find(db, from, &id, NULL, 0)) < 0)
        goto fail;
    if ((rc = db_repo_find(db, to, &other, NULL, 0)) == 0) {
        rc = pd_error_set(PD_EINVAL, "a repository named '%s' exists already", to);
        goto fail;
    }
    if (rc != PD_ENOTFOUND || (rc = db_prepare(db, &st, "UPDATE repos SET name = ?1 "
                                               "WHERE id = ?2")) < 0)
        goto fail;
    sqlite3_bind_text(st, 1, to, -1, SQLITE_STATIC);
    sqlite3_bind_int64(st, 2, id);
    rc = db_step(st);
    sqlite3_finalize(st);
    if (rc >= 0 && (rc = db_exec(db, "COMMIT")) == 0)
        return 0;
fail:
    sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
    return rc;
}

/* 1 when repository `repo_id` has stored commits, else 0; PD_EDB. */
static int db_repo_has_commits(sqlite3 *db, int64_t repo_id)
{
    sqlite3_stmt *st = NULL;
    int rc;

    if ((rc = db_prepare(db, &st, "SELECT 1 FROM commits WHERE repo_id = ?1 LIMIT 1")) < 0)
        return rc;
    sqlite3_bind_int64(st, 1, repo_id);
    rc = db_step(st);
    sqlite3_finalize(st);
    return rc;
}

/* Whether meta rules_file's value `had` ("HASH NAME") names hash `h`. */
static int db_repo_rules_named(const char *had, const char *h)
{
    size_t n = strlen(h);

    return strncmp(had, h, n) == 0 && (had[n] == ' ' || !had[n]);
}

int db_repo_rules_check(sqlite3 *db, int64_t repo_id, const char *rules_file,
                        const char *rules_legacy, const char *rules_name)
{
    char had[600], others[300] = "";
    const char *sp;
    sqlite3_stmt *st = NULL;
    size_t off = 0;
    int rc;

    if ((rc = db_meta_get(db, "rules_file", had, sizeof(had))) == PD_ENOTFOUND)
        return 0;                      /* older database: nothing recorded */
    if (rc < 0)
        return rc;
    if (db_repo_rules_named(had, rules_file) ||
        (rules_legacy && db_repo_rules_named(had, rules_legacy)))
        return 0;
    if ((rc = db_prepare(db, &st, "SELECT name FROM repos r WHERE id != ?1 AND EXISTS "
                         "(SELECT 1 FROM commits c WHERE c.repo_id = r.id) "
                         "ORDER BY name LIMIT 4")) < 0)
        return rc;
    sqlite3_bind_int64(st, 1, repo_id);
    while ((rc = db_step(st)) > 0 && off < sizeof(others))
        off += (size_t)snprintf(others + off, sizeof(others) - off, "%s%s", off ? ", " : "",
                                (const char *)sqlite3_column_text(st, 0));
    sqlite3_finalize(st);
    if (rc < 0)
        return rc;
    if (!others[0])
        return db_repo_has_commits(db, repo_id);
    sp = strchr(had, ' ');
    return pd_error_set(PD_EINVAL, "this database answers under the rules %s, those of "
                        "its repositories %s; ingesting with %s would leave them without "
                        "answers (one database answers under one rules file): use "
                        "another --db for these rules, or the same rules",
                        sp ? sp + 1 : "file", others, rules_name);
}

int db_repo_rules_set(sqlite3 *db, const char *rules_file, const char *rules_name)
{
    char v[600];

    snprintf(v, sizeof(v), "%s %s", rules_file, rules_name);
    return db_meta_set(db, "rules_file", v);
}
