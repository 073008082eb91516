/*
 * test_dbread.c: the typed reads of db/ that the commit, file and symbols
 * pages use (db_commit.h, db_findings.h, db_analysis.h) give back what the
 * ingest stored: checked against git and against the analyzer run again on
 * each blob, never against the reader itself.  Stored findings that are not
 * what ingest_store.c writes are an error saying the database is damaged,
 * never a shorter list.
 */
#include "testutil.h"

#include "analyzer/analyzer.h"
#include "db.h"
#include "db_analysis.h"
#include "db_commit.h"
#include "db_findings.h"

static tu_site g_site;
static sqlite3 *g_db;
static rules *g_rules;
static int64_t g_repo;
static char g_hash[128];

static int setup(void **state)
{
    tu_site_init(&g_site, "dbread.db");
    if (tu_site_ingest(&g_site, "toyport", "demo", "hpy hpy-convert-object-dtype") < 0 ||
        db_open(&g_db, g_site.db, 0) < 0 || rules_load_default(&g_rules) < 0 ||
        db_repo_find(g_db, "demo", &g_repo, NULL, 0) < 0 ||
        db_meta_get(g_db, "rules_hash", g_hash, sizeof(g_hash)) < 0)
        return -1;
    return 0;
}

static int teardown(void **state)
{
    db_close(g_db);
    rules_free(g_rules);
    tu_site_free(&g_site);
    return 0;
}

/* git's answer about the fixture (caller frees; trailing newline cut). */
static char *git_out(const char *args)
{
    char *s = tu_sh_out("git --git-dir='%s' %s", tu_fixture("toyport"), args);
    size_t n = strlen(s);

    if (n && s[n - 1] == '\n')
        s[n - 1] = '\0';
    return s;
}

static int64_t commit_id(const char *rev)
{
    int64_t id;
    char oid[41];

    assert_int_equal(db_rev_resolve(g_db, g_repo, rev, &id, oid), 0);
    return id;
}

/* ---------- repositories and refs ---------- */

static int repo_seen(void *arg, const db_repo *repo)
{
    assert_string_equal(repo->name, "demo");
    assert_int_equal(repo->id, g_repo);
    (*(int *)arg)++;
    return 0;
}

static int ref_seen(void *arg, const db_ref *ref)
{
    char cmd[128], *oid;

    snprintf(cmd, sizeof(cmd), "rev-parse %s", ref->name);
    oid = git_out(cmd);
    oid[40] = '\0';
    assert_string_equal(ref->oid, oid);
    free(oid);
    snprintf((char *)arg + strlen(arg), 256 - strlen(arg), "%s ", ref->name);
    return 0;
}

static void test_repos_and_refs(void **state)
{
    char names[256] = "";
    int n = 0;

    assert_int_equal(db_repos(g_db, repo_seen, &n), 0);
    assert_int_equal(n, 1);
    assert_int_equal(db_refs(g_db, g_repo, ref_seen, names), 0);
    assert_string_equal(names, "hpy hpy-convert-object-dtype ");
    assert_int_equal(db_refs(g_db, g_repo + 1000, ref_seen, names), 0);
    assert_string_equal(names, "hpy hpy-convert-object-dtype ");
}

/* ---------- one commit ---------- */

/* Minutes east of UTC of git's "+0130" form. */
static int git_offset(const char *z)
{
    int v = atoi(z + 1);

    return (z[0] == '-' ? -1 : 1) * (v / 100 * 60 + v % 100);
}

static void check_commit(const char *oid)
{
    char cmd[256], *g, *line[9], *save = NULL, *p;
    db_commit c;
    size_t n = 0, i;
    int64_t id = commit_id(oid);

    snprintf(cmd, sizeof(cmd), "log -1 --date=format:%%z --format='%%an%%n%%ae%%n%%at%%n"
             "%%ad%%n%%ct%%n%%cd%%n%%s%%n%%P%%n' %s", oid);
    g = tu_sh_out("git --git-dir='%s' %s", tu_fixture("toyport"), cmd);
    for (p = g; n < 9 && (line[n] = p); n++) {
        if (!(p = strchr(p, '\n')))
            break;
        *p++ = '\0';
    }
    assert_true(n >= 8);
    assert_int_equal(db_commit_get(g_db, id, &c), 0);
    assert_string_equal(c.author_name, line[0]);
    assert_string_equal(c.author_email, line[1]);
    assert_int_equal(c.author_time, strtoll(line[2], NULL, 10));
    assert_int_equal(c.author_offset, git_offset(line[3]));
    assert_int_equal(c.committer_time, strtoll(line[4], NULL, 10));
    assert_int_equal(c.committer_offset, git_offset(line[5]));
    assert_string_equal(c.summary, line[6]);
    for (i = 0, p = strtok_r(line[7], " ", &save); p; p = strtok_r(NULL, " ", &save), i++) {
        assert_true(i < c.nparents);
        assert_string_equal(c.parents[i], p);
    }
    assert_int_equal(i, c.nparents);
    if (c.nparents) {
        assert_int_equal(c.first_parent_id, commit_id(c.parents[0]));
        assert_true(c.first_parent_id < id);
    } else {
        assert_int_equal(c.first_parent_id, 0);
    }
    db_commit_free(&c);
    assert_null(c.parents);
    db_commit_free(&c);             /* an emptied struct frees again */
    free(g);
}

static void test_commit_metadata_is_gits(void **state)
{
    char *all = git_out("rev-list --all"), *save = NULL, *oid;
    int n = 0;

    for (oid = strtok_r(all, "\n", &save); oid; oid = strtok_r(NULL, "\n", &save), n++)
        check_commit(oid);
    assert_int_equal(n, 6);
    free(all);
}

/* ---------- changes of a commit ---------- */

typedef struct {
    char lines[32][160];         /* "path blob-or-DELETED" */
    size_t n;
} change_list;

static int change_seen(void *arg, const db_change *ch)
{
    change_list *l = arg;

    assert_true(l->n < 32);
    assert_null(ch->old_path);      /* the fixture renames nothing */
    snprintf(l->lines[l->n++], sizeof(l->lines[0]), "%s %s", ch->path,
             ch->blob ? ch->blob : "DELETED");
    return 0;
}

/* What git says commit `oid` changed among the analyser's source kinds, as
 * change_seen writes it, by path. */
static void git_changes(const char *oid, change_list *want)
{
    char cmd[160], *raw, *save = NULL, *l;

    snprintf(cmd, sizeof(cmd), "diff-tree -r --root --no-commit-id --no-renames %s", oid);
    raw = tu_sh_out("git --git-dir='%s' %s", tu_fixture("toyport"), cmd);
    want->n = 0;
    for (l = strtok_r(raw, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
        /* :100644 100644 OLD NEW M\tpath */
        const char *path = strchr(l, '\t') + 1, *blob = l + 56;

        if (!an_path_is_source(path))
            continue;
        snprintf(want->lines[want->n++], sizeof(want->lines[0]), "%s %.40s", path,
                 l[97] == 'D' ? "DELETED" : blob);
    }
    free(raw);
}

static void test_changes_are_gits(void **state)
{
    char *all = git_out("rev-list --all"), *save = NULL, *oid;
    change_list got, want, page;
    size_t n, i;

    for (oid = strtok_r(all, "\n", &save); oid; oid = strtok_r(NULL, "\n", &save)) {
        int64_t id = commit_id(oid);

        git_changes(oid, &want);
        got.n = 0;
        assert_int_equal(db_commit_changes(g_db, id, 0, 1000, change_seen, &got), 0);
        assert_int_equal(db_commit_changes_count(g_db, id, &n), 0);
        assert_int_equal(n, want.n);
        assert_int_equal(got.n, want.n);
        for (i = 0; i < n; i++)
            assert_string_equal(got.lines[i], want.lines[i]);
        /* A page: rows 2 and 3 of the whole list. */
        page.n = 0;
        assert_int_equal(db_commit_changes(g_db, id, 1, 2, change_seen, &page), 0);
        assert_int_equal(page.n, n > 3 ? 2 : n > 1 ? n - 1 : 0);
        for (i = 0; i < page.n; i++)
            assert_string_equal(page.lines[i], want.lines[i + 1]);
    }
    free(all);
}

/* Stop after the first row. */
static int stop_at_first(void *arg, const db_change *ch)
{
    (*(int *)arg)++;
    return 7;
}

static void test_a_callbacks_return_stops_the_walk(void **state)
{
    char *root = git_out("rev-list --max-parents=0 hpy");
    int calls = 0;

    assert_int_equal(db_commit_changes(g_db, commit_id(root), 0, 1000, stop_at_first,
                                       &calls), 7);
    assert_int_equal(calls, 1);
    free(root);
}

static int same_seen(void *arg, const char *oid, const char *summary)
{
    snprintf((char *)arg + strlen(arg), 128 - strlen(arg), "%s", oid);
    return 0;
}

static void test_same_patch(void **state)
{
    char *tip = git_out("rev-parse hpy"), got[128] = "";
    int64_t id = commit_id(tip);
    db_commit c;

    assert_int_equal(db_commit_get(g_db, id, &c), 0);
    assert_int_not_equal(c.patch_id[0], '\0');
    /* Only the commit itself has its patch: none once it is left out. */
    assert_int_equal(db_same_patch(g_db, g_repo, c.patch_id, id, same_seen, got), 0);
    assert_string_equal(got, "");
    assert_int_equal(db_same_patch(g_db, g_repo, c.patch_id, 0, same_seen, got), 0);
    assert_string_equal(got, tip);
    got[0] = '\0';
    assert_int_equal(db_same_patch(g_db, g_repo, "", 0, same_seen, got), 0);
    assert_string_equal(got, "");
    db_commit_free(&c);
    free(tip);
}

/* ---------- an analysis: figures, functions, findings ---------- */

typedef struct {
    const an_result *res;
    size_t n;
} walk;

static int function_seen(void *arg, const db_function *f)
{
    walk *w = arg;
    const an_function *a = &w->res->functions[w->n++];
    int k;

    assert_true(w->n <= w->res->nfunctions);
    assert_string_equal(f->name, a->name);
    assert_int_equal(f->start_line, a->start_line);
    assert_int_equal(f->end_line, a->end_line);
    assert_string_equal(f->status, an_status_name(a->status));
    if (a->object_state == AN_OBJ_NONE)
        assert_null(f->object_state);
    else
        assert_string_equal(f->object_state, an_objstate_name(a->object_state));
    for (k = 0; k < PD_CLASS_COUNT; k++)
        assert_int_equal(f->tok[k], a->tokens[k]);
    if (a->name_from_macro)
        assert_string_equal(f->name_from_macro, a->name_from_macro);
    else
        assert_null(f->name_from_macro);
    assert_non_null(f->why);
    return 0;
}

static int finding_seen(void *arg, const db_finding *f)
{
    walk *w = arg;
    const an_finding *a = &w->res->findings[w->n++];

    assert_true(w->n <= w->res->nfindings);
    assert_int_equal(f->line, a->line);
    assert_int_equal(f->column, a->column);
    assert_string_equal(f->cls, an_class_name(a->cls));
    assert_string_equal(f->rule, a->rule);
    assert_string_equal(f->text, a->text);
    assert_int_equal(f->function, a->function);
    assert_int_equal(f->guarded, a->guarded);
    if (a->reason)
        assert_string_equal(f->reason, a->reason);
    else
        assert_null(f->reason);
    return 0;
}

/* The stored analysis of one file equals the analyzer's on its blob. */
static void check_file(const db_file_row *row, size_t *nfindings)
{
    char *src = tu_sh_out("git --git-dir='%s' cat-file blob %s", tu_fixture("toyport"),
                          row->blob);
    an_result *res = NULL;
    db_analysis_row a;
    walk w = {NULL, 0};

    assert_int_equal(an_analyze(&res, g_rules, row->path, src, strlen(src)), 0);
    w.res = res;
    assert_int_equal(db_analysis_get(g_db, row->blob, g_hash, &a), 0);
    assert_int_equal(a.id, row->analysis_id);
    assert_string_equal(a.status, an_status_name(res->status));
    assert_int_equal(a.universal_ready, res->universal_ready);
    assert_int_equal(a.lines, res->lines);
    assert_int_equal(a.size, strlen(src));
    if (res->notes)
        assert_string_equal(a.notes, res->notes);
    else
        assert_null(a.notes);
    db_analysis_row_free(&a);
    assert_int_equal(db_analysis_function_rows(g_db, row->analysis_id, function_seen, &w), 0);
    assert_int_equal(w.n, res->nfunctions);
    w.n = 0;
    assert_int_equal(db_findings_each(g_db, row->analysis_id, finding_seen, &w), 0);
    assert_int_equal(w.n, res->nfindings);
    *nfindings += w.n;
    an_result_free(res);
    free(src);
}

static void test_analysis_is_the_analyzers(void **state)
{
    const char *refs[] = {"hpy", "hpy-convert-object-dtype"};
    db_files *files = NULL;
    db_file_row row;
    size_t nfiles = 0, nfindings = 0, i;
    db_analysis_row a;
    int rc;

    for (i = 0; i < 2; i++) {
        assert_int_equal(db_files_open(g_db, &files, commit_id(refs[i]), g_hash), 0);
        while ((rc = db_files_next(files, &row)) > 0) {
            if (!row.analysis_id)
                continue;
            check_file(&row, &nfindings);
            nfiles++;
        }
        assert_int_equal(rc, 0);
        db_files_close(files);
    }
    assert_true(nfiles >= 8);
    assert_true(nfindings > 20);
    /* A blob without an analysis (under these rules) is "not found". */
    assert_int_equal(db_analysis_get(g_db, "0123456789012345678901234567890123456789", g_hash,
                                     &a), PD_ENOTFOUND);
    assert_null(a.status);
    db_analysis_row_free(&a);
    assert_int_equal(db_findings_each(g_db, 987654321, finding_seen, NULL), PD_ENOTFOUND);
}

/* ---------- stored findings that are not ingest's ---------- */

/* Replace the findings of analysis `id` with `json` (deflated, with its
 * true length, so only the text is wrong). */
static void set_findings(int64_t id, const char *json)
{
    unsigned char *z = NULL;
    size_t zlen = 0;
    sqlite3_stmt *st = NULL;

    assert_int_equal(db_compress(&z, &zlen, json, strlen(json)), 0);
    assert_int_equal(db_prepare(g_db, &st, "UPDATE analyses SET findings = ?1, "
                                "findings_len = ?2 WHERE id = ?3"), 0);
    sqlite3_bind_blob(st, 1, z, (int)zlen, SQLITE_STATIC);
    sqlite3_bind_int64(st, 2, (sqlite3_int64)strlen(json));
    sqlite3_bind_int64(st, 3, id);
    assert_int_equal(db_step(st), 0);
    sqlite3_finalize(st);
    free(z);
}

typedef struct {
    db_finding f[4];
    char text[4][64], reason[64];
    size_t n;
} kept;

static int finding_keep(void *arg, const db_finding *f)
{
    kept *k = arg;

    assert_true(k->n < 4);
    k->f[k->n] = *f;
    snprintf(k->text[k->n], sizeof(k->text[0]), "%s", f->text);
    if (f->reason)
        snprintf(k->reason, sizeof(k->reason), "%s", f->reason);
    k->n++;
    return 0;
}

/* The analysis of src/refcount.c at the tip of hpy (its findings are
 * overwritten by the tests that read damaged ones). */
static int64_t refcount_analysis(void)
{
    char *tip = git_out("rev-parse hpy");
    char blob[41];
    int64_t aid = 0;

    assert_int_equal(db_commit_file_blob(g_db, commit_id(tip), "src/refcount.c", blob), 0);
    assert_int_equal(db_analysis_find(g_db, blob, g_hash, &aid), 0);
    assert_true(aid > 0);
    free(tip);
    return aid;
}

static void test_findings_not_as_ingest_writes_them_are_damage(void **state)
{
    static const char *bad[] = {
        "",                                                   /* nothing */
        "not json",
        "[[1,2,\"capi\",\"r\",\"Py_X\",0,false],",            /* cut short */
        "[[1,2,\"capi\",\"r\",\"Py_X\",0,false]] trailing",
        "[[1,2,\"capi\",\"r\",\"Py_X\",0,false],]",
        "[[1,2,\"capi\",\"r\",\"Py_X\",0,false][3,4,\"capi\",\"r\",\"Py_Y\",0,false]]",
        "[[1,2,\"capi\"]]",                                   /* a row too short */
        "[[1,2,\"capi\",\"r\",\"Py_X\",0,false,\"why\",9]]",  /* too long */
        "[[1,2,3,\"r\",\"Py_X\",0,false]]",                   /* class not text */
        "[[1,2,\"capi\",\"r\",\"Py_X\",\"f\",false]]",        /* function not a number */
        "[[1,2,\"capi\",\"r\",\"Py_X\",0,0]]",                /* guarded not a boolean */
        "[[1,2,\"capi\",\"r\",\"Py_X\",0,false,null]]",       /* reason not text */
        "{\"line\":1}",
        /* What the reader of common rows leaves to jansson, which refuses
         * it: a leading zero, a raw control byte, a bad escape. */
        "[[07,2,\"capi\",\"r\",\"Py_X\",0,false]]",
        "[[1,2,\"capi\",\"r\",\"Py\x01X\",0,false]]",
        "[[1,2,\"capi\",\"r\",\"Py\\qX\",0,false]]",
        "[[1,2,\"capi\",\"r\",\"Py_X\",0,fals]]",
        "[[1,2,\"capi\",\"r\",\"Py_X\",0,false,\"why\"",
    };
    int64_t aid = refcount_analysis();
    kept k;
    size_t i;

    for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        memset(&k, 0, sizeof(k));
        set_findings(aid, bad[i]);
        if (db_findings_each(g_db, aid, finding_keep, &k) != PD_EDB)
            fail_msg("findings %s: not PD_EDB", bad[i]);
        assert_non_null(strstr(pd_error_last(), "the database is damaged"));
    }
}

static void test_findings_json_of_older_databases_is_read(void **state)
{
    int64_t aid = refcount_analysis();
    kept k;

    /* The JSON that ingests before format F1 wrote (db_findings.h; what
     * ingest writes now, F1, is test_dbingest's), escapes and the optional
     * reason included. */
    memset(&k, 0, sizeof(k));
    set_findings(aid, " [[7,3,\"bridge\",\"r1\",\"a\\\"b\\\\c\\u00e9\",-1,true],\n"
                 "[4294967295,1,\"hpy\",\"r2\",\"HPy_Close\",2,false,\"why \\u0001\"]] ");
    assert_int_equal(db_findings_each(g_db, aid, finding_keep, &k), 0);
    assert_int_equal(k.n, 2);
    assert_int_equal(k.f[0].line, 7);
    assert_int_equal(k.f[0].column, 3);
    assert_string_equal(k.text[0], "a\"b\\c\xc3\xa9");
    assert_int_equal(k.f[0].function, -1);
    assert_int_equal(k.f[0].guarded, 1);
    assert_int_equal(k.f[1].line, 4294967295LL);
    assert_int_equal(k.f[1].function, 2);
    assert_int_equal(k.f[1].guarded, 0);
    assert_string_equal(k.reason, "why \x01");
    /* The common rows, read without jansson (issue 26.3): simple escapes,
     * spaces between values, a row after one jansson read. */
    memset(&k, 0, sizeof(k));
    set_findings(aid, "[[1,2,\"capi\",\"r\",\"a\\\"b\\\\c\\/d\\ne\\tf\",3,false],"
                 " [ -5 , 6 , \"hpy\" , \"r2\" , \"x\" , -1 , true , \"why\\r\" ] ,"
                 "[8,9,\"npy-legacy\",\"r3\",\"\\u00e9\",0,false],"
                 "[10,11,\"bridge\",\"r4\",\"\",999999999999999999,true]]");
    assert_int_equal(db_findings_each(g_db, aid, finding_keep, &k), 0);
    assert_int_equal(k.n, 4);
    assert_string_equal(k.text[0], "a\"b\\c/d\ne\tf");
    assert_int_equal(k.f[0].function, 3);
    assert_null(k.f[0].reason);
    assert_int_equal(k.f[1].line, -5);
    assert_int_equal(k.f[1].column, 6);
    assert_string_equal(k.text[1], "x");
    assert_int_equal(k.f[1].guarded, 1);
    assert_string_equal(k.reason, "why\r");
    assert_string_equal(k.text[2], "\xc3\xa9");
    assert_string_equal(k.text[3], "");
    assert_int_equal(k.f[3].function, 999999999999999999LL);
    memset(&k, 0, sizeof(k));
    set_findings(aid, "[]");
    assert_int_equal(db_findings_each(g_db, aid, finding_keep, &k), 0);
    assert_int_equal(k.n, 0);
}

static void test_a_first_parent_after_its_child_is_damage(void **state)
{
    char *tip = git_out("rev-parse hpy");
    int64_t id = commit_id(tip);
    char sql[160];
    db_commit c;

    snprintf(sql, sizeof(sql), "UPDATE commits SET first_parent_id = %lld WHERE id = %lld",
             (long long)id, (long long)id);
    assert_int_equal(db_exec(g_db, sql), 0);
    assert_int_equal(db_commit_get(g_db, id, &c), PD_EDB);
    assert_non_null(strstr(pd_error_last(), "the database is damaged"));
    db_commit_free(&c);
    assert_int_equal(db_commit_get(g_db, 987654321, &c), PD_EDB);
    db_commit_free(&c);
    free(tip);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_repos_and_refs),
        cmocka_unit_test(test_commit_metadata_is_gits),
        cmocka_unit_test(test_changes_are_gits),
        cmocka_unit_test(test_a_callbacks_return_stops_the_walk),
        cmocka_unit_test(test_same_patch),
        cmocka_unit_test(test_analysis_is_the_analyzers),
        /* These two damage the database: last. */
        cmocka_unit_test(test_findings_not_as_ingest_writes_them_are_damage),
        cmocka_unit_test(test_findings_json_of_older_databases_is_read),
        cmocka_unit_test(test_a_first_parent_after_its_child_is_damage),
    };

    return cmocka_run_group_tests(tests, setup, teardown);
}
