/*
 * test_query.c: the query layer (query/q_*.h) on the toyport fixture: the
 * typed file page, commit, compare and symbols, checked against what the
 * fixture's commits do (tests/fixtures/toyport: 02-bridge ports
 * toyarray_new to toyarray_new_impl and bridges toyarray_len, ...), and
 * the API's JSON of each, rendered from the same struct, against the bytes
 * a real server answers for the same question.
 */
#include "api_commit.h"
#include "api_compare.h"
#include "api_file.h"
#include "api_file_write.h"
#include "api_symbols.h"
#include "db.h"
#include "q_commit.h"
#include "q_compare.h"
#include "q_file.h"
#include "q_symbols.h"
#include "testutil.h"

static tu_site g_site;
static sqlite3 *g_db;

/* The commits of the fixture's hpy branch (tests/fixtures/toyport). */
#define C_INITIAL "5a1092dee8f1ef1a7e68ca379d12c302914fb469"
#define C_BRIDGE "d9fcc7afb11788287d2371b1caa6c1c108d5a683"

static int q_setup(void **state)
{
    tu_site_init(&g_site, "query.db");
    if (tu_site_ingest(&g_site, "toyport", "demo", "hpy hpy-convert-object-dtype") < 0 ||
        tu_site_serve(&g_site, NULL) < 0)
        return -1;
    return db_open(&g_db, g_site.db, 0) < 0 ? -1 : 0;
}

static int q_teardown(void **state)
{
    db_close(g_db);
    tu_site_free(&g_site);
    return 0;
}

static void at(const char *rev, q_at *out)
{
    if (q_at_resolve(g_db, "demo", rev, out) < 0)
        fail_msg("resolve %s: %s", rev, pd_error_last());
}

/* `doc` (stolen) dumped as the server dumps it equals the body of GET
 * `path`. */
static void same_as_api(json_t *doc, const char *path)
{
    char url[2048], *mine = json_dumps(doc, JSON_COMPACT);
    tu_http h;

    snprintf(url, sizeof(url), "%s%s", g_site.base, path);
    h = tu_request("GET", url);
    assert_int_equal(h.status, 200);
    if (strcmp(mine, h.body) != 0)
        fail_msg("%s:\n api %s\nmine %s", path, h.body, mine);
    free(mine);
    json_decref(doc);
    tu_http_free(&h);
}

static const q_function *fn_named(const q_file *f, const char *name)
{
    size_t i;

    for (i = 0; i < f->nfunctions; i++)
        if (strcmp(f->functions[i].name, name) == 0)
            return &f->functions[i];
    return NULL;
}

static void test_file_page(void **state)
{
    q_at a;
    q_file *f = NULL;
    size_t i;

    at("hpy", &a);
    assert_int_equal(q_file_get(g_db, &a, "src/toyarray.c", NULL, NULL, &f), 0);
    assert_true(f->analysed);
    assert_false(f->missing);
    assert_string_equal(f->status, "ported");
    assert_true(f->universal_ready);
    assert_string_equal(f->commit, a.oid);
    assert_int_equal(strlen(f->blob), 40);
    assert_non_null(fn_named(f, "toyarray_new_impl"));
    assert_string_equal(fn_named(f, "toyarray_new_impl")->status, "ported");
    assert_null(fn_named(f, "toyarray_new"));       /* gone since 02-bridge */
    /* one page holds everything: the totals are the lists */
    assert_int_equal(f->functions_total, f->nfunctions);
    assert_int_equal(f->findings_total, json_array_size(f->findings));
    assert_true(f->findings_total > 0);
    for (i = 0; i < json_array_size(f->findings); i++) {
        json_t *x = json_array_get(f->findings, i);

        assert_int_equal(strlen(json_string_value(json_object_get(x, "fingerprint"))), 32);
        assert_true(json_is_null(json_object_get(x, "dismissed")));
    }
    assert_int_equal(f->dismissed_count, 0);
    q_file_free(f);
}

static void test_file_paging(void **state)
{
    q_file_params p = {2, 1, NULL, NULL, 0};
    q_file *all = NULL, *pg = NULL;
    q_at a;

    at("hpy", &a);
    assert_int_equal(q_file_get(g_db, &a, "src/toyarray.c", NULL, NULL, &all), 0);
    assert_true(all->nfunctions >= 2);
    assert_int_equal(q_file_get(g_db, &a, "src/toyarray.c", NULL, &p, &pg), 0);
    assert_int_equal(pg->nfunctions, 1);
    assert_string_equal(pg->functions[0].name, all->functions[1].name);
    assert_int_equal(pg->functions_total, all->functions_total);
    assert_int_equal(pg->findings_total, all->findings_total);
    assert_true(json_array_size(pg->findings) <= 1);
    assert_true(api_file_paged(pg));
    assert_false(api_file_paged(all));
    q_file_free(all);
    q_file_free(pg);
}

static void test_file_errors(void **state)
{
    q_file_params bad = {1, 10, NULL, "warning,loud", 0};
    q_file *f = (q_file *)1;
    q_at a;

    at("hpy", &a);
    assert_int_equal(q_file_get(g_db, &a, "src/no-such-file.c", NULL, NULL, &f),
                     PD_ENOTFOUND);
    assert_null(f);
    f = (q_file *)1;
    assert_int_equal(q_file_get(g_db, &a, "src/toyarray.c", NULL, &bad, &f), PD_EINVAL);
    assert_null(f);
}

/* The move of function `name` in l, or NULL. */
static const q_move *move_named(const q_moves *l, const char *name)
{
    size_t i;

    for (i = 0; i < l->n; i++)
        if (strcmp(l->v[i].name, name) == 0)
            return &l->v[i];
    return NULL;
}

static void test_commit(void **state)
{
    q_commit *c = NULL, *parent = NULL;
    const q_move *m;
    q_at a, b;
    int i;

    at(C_BRIDGE, &a);
    at(C_INITIAL, &b);
    assert_int_equal(q_commit_get(g_db, &a, NULL, &c), 0);
    assert_int_equal(q_commit_get(g_db, &b, NULL, &parent), 0);
    assert_string_equal(c->oid, C_BRIDGE);
    assert_string_equal(c->meta.author_name, "Ben Bridger");
    assert_int_equal(c->meta.nparents, 1);
    assert_string_equal(c->meta.parents[0], C_INITIAL);
    assert_int_equal(c->nfiles, 1);
    assert_int_equal(c->files_total, 1);
    assert_string_equal(c->files[0].path, "src/toyarray.c");
    assert_string_equal(c->files[0].change, "modified");
    assert_int_equal(strlen(c->files[0].from_blob), 40);
    assert_string_not_equal(c->files[0].from_blob, c->files[0].to_blob);
    assert_non_null(m = move_named(&c->functions, "toyarray_new_impl"));
    assert_false(m->from.present);
    assert_string_equal(m->to.status, "bridged");
    assert_string_equal(m->changes[0], "added");
    assert_non_null(m = move_named(&c->functions, "toyarray_len"));
    assert_string_equal(m->from.status, "legacy");
    assert_string_equal(m->changes[0], "progressed");
    assert_false(m->regressed);
    assert_non_null(m = move_named(&c->functions, "toyarray_new"));
    assert_false(m->to.present);
    assert_string_equal(m->changes[0], "removed");
    for (i = 0; i < PD_NMEASURES; i++)       /* the move is against the parent */
        assert_int_equal(c->delta.v[i], c->stats.v[i] - parent->stats.v[i]);
    /* the root commit moves against nothing */
    assert_int_equal(parent->meta.nparents, 0);
    for (i = 0; i < PD_NMEASURES; i++)
        assert_int_equal(parent->delta.v[i], parent->stats.v[i]);
    q_commit_free(c);
    q_commit_free(parent);
}

static void test_compare(void **state)
{
    q_compare_params cap = {2};
    q_compare *fw = NULL, *bw = NULL, *capped = NULL;
    q_at a, b;
    size_t i;

    at(C_INITIAL, &a);
    at("hpy", &b);
    assert_int_equal(q_compare_get(g_db, &a, &b, NULL, &fw), 0);
    assert_int_equal(q_compare_get(g_db, &b, &a, NULL, &bw), 0);
    assert_int_equal(q_compare_get(g_db, &a, &b, &cap, &capped), 0);
    /* forwards the port only progressed; backwards each progress regresses */
    assert_true(fw->functions.n > 2);
    assert_int_equal(fw->regressions.n, 0);
    assert_false(q_compare_truncated(fw));
    assert_non_null(move_named(&fw->functions, "toy_check_size"));
    assert_string_equal(move_named(&fw->functions, "toy_check_size")->changes[0],
                        "progressed");
    assert_true(bw->regressions.n > 0);
    for (i = 0; i < bw->regressions.n; i++)
        assert_true(bw->regressions.v[i].regressed);
    assert_int_equal(bw->functions.n, fw->functions.n);
    for (i = 0; i < PD_NMEASURES; i++)
        assert_int_equal(fw->delta.v[i], -bw->delta.v[i]);
    /* a cap keeps the first entries and counts them all */
    assert_int_equal(capped->functions.n, 2);
    assert_int_equal(capped->functions.total, fw->functions.n);
    assert_string_equal(capped->functions.v[1].name, fw->functions.v[1].name);
    assert_true(q_compare_truncated(capped));
    q_compare_free(fw);
    q_compare_free(bw);
    q_compare_free(capped);
}

static void test_symbols(void **state)
{
    db_scopes *scopes = NULL;
    const db_scope *sc;
    q_symbols *s = NULL;
    q_symbol *one = NULL;
    int64_t sum = 0;
    size_t i;
    q_at a;

    at(C_INITIAL, &a);
    assert_int_equal(db_scopes_load(&scopes, NULL), 0);
    assert_non_null(sc = db_scopes_find(scopes, "no-object-dtype"));
    assert_int_equal(q_symbols_get(g_db, &a, sc, &s), 0);
    assert_string_equal(s->scope, "no-object-dtype");
    assert_true(s->n > 1);
    for (i = 0; i < s->n; i++) {
        sum += s->v[i].uses;
        assert_true(s->v[i].files >= 1 && s->v[i].functions <= s->v[i].uses);
        if (i)
            assert_true(s->v[i - 1].uses > s->v[i].uses ||
                        (s->v[i - 1].uses == s->v[i].uses &&
                         strcmp(s->v[i - 1].symbol, s->v[i].symbol) < 0));
    }
    assert_int_equal(sum, s->uses_total);
    /* one symbol's sites count what its row counts */
    assert_int_equal(q_symbol_get(g_db, &a, sc, s->v[0].symbol, &one), 0);
    assert_int_equal(one->nsites, s->v[0].uses);
    assert_int_equal(one->files, s->v[0].files);
    assert_int_equal(one->functions, s->v[0].functions);
    assert_string_equal(one->cls, s->v[0].cls);
    q_symbol_free(one);
    /* no use: a name the rules class is an answer with its class, any
     * other is not found */
    assert_int_equal(q_symbol_get(g_db, &a, sc, "HPy_AsPyObject", &one), 0);
    assert_int_equal(one->nsites, 0);
    assert_string_equal(one->cls, "bridge");
    q_symbol_free(one);
    assert_int_equal(q_symbol_get(g_db, &a, sc, "NoSuchName", &one), PD_ENOTFOUND);
    assert_null(one);
    q_symbols_free(s);
    /* a scope without the files has none (toyport has no umath) */
    assert_int_equal(q_symbols_get(g_db, &a, db_scopes_find(scopes, "umath"), &s), 0);
    assert_int_equal(s->n, 0);
    assert_int_equal(s->uses_total, 0);
    q_symbols_free(s);
    db_scopes_free(scopes);
}

/* The server renders the same structs: its bytes are the struct's JSON. */
static void test_json_is_the_apis(void **state)
{
    db_scopes *scopes = NULL;
    const db_scope *sc;
    q_file *f = NULL;
    q_commit *c = NULL;
    q_compare_params cap = {Q_COMPARE_CAP};
    q_compare *cmp = NULL;
    q_symbols *s = NULL;
    q_symbol *one = NULL;
    q_file_params p = {1, Q_FILE_PER_PAGE, NULL, NULL, 0};
    q_commit_params cp = {1, Q_COMMIT_PER_PAGE};
    q_at a, b;

    at("hpy", &a);
    at(C_INITIAL, &b);
    assert_int_equal(db_scopes_load(&scopes, NULL), 0);
    sc = db_scopes_find(scopes, "no-object-dtype");
    assert_int_equal(q_file_get(g_db, &a, "src/toyarray.c", NULL, &p, &f), 0);
    same_as_api(api_file_json(f, 1), "/api/v1/repos/demo/commits/hpy/files/src/toyarray.c");
    assert_int_equal(q_commit_get(g_db, &b, &cp, &c), 0);
    same_as_api(api_commit_json(c), "/api/v1/repos/demo/commits/" C_INITIAL);
    assert_int_equal(q_compare_get(g_db, &b, &a, &cap, &cmp), 0);
    same_as_api(api_compare_json(cmp), "/api/v1/repos/demo/compare/" C_INITIAL "...hpy");
    assert_int_equal(q_symbols_get(g_db, &a, sc, &s), 0);
    same_as_api(api_symbols_json(s), "/api/v1/repos/demo/commits/hpy/symbols");
    assert_int_equal(q_symbol_get(g_db, &a, sc, "PyObject", &one), 0);
    same_as_api(api_symbol_json(one), "/api/v1/repos/demo/commits/hpy/symbols/PyObject");
    q_file_free(f);
    q_commit_free(c);
    q_compare_free(cmp);
    q_symbols_free(s);
    q_symbol_free(one);
    db_scopes_free(scopes);
}

/* The typed page (q_file_params.typed) written by api_file_write equals
 * the untyped one dumped, with dismissals marked from one read of the
 * repository's fingerprints (fewer than the findings) and by look-ups
 * (more), SARIF-free and filtered (which reads untyped). */
static void typed_same(const q_at *a, const q_file_params *p, size_t ndismissed)
{
    q_file_params tp = *p;
    q_file *f = NULL, *t = NULL;
    char *want;
    json_t *j;
    pd_buf b;

    tp.typed = 1;
    assert_int_equal(q_file_get(g_db, a, "src/toyarray.c", NULL, p, &f), 0);
    assert_int_equal(q_file_get(g_db, a, "src/toyarray.c", NULL, &tp, &t), 0);
    assert_int_equal(t->typed, !p->tools && !p->levels);
    assert_int_equal(f->dismissed_count, ndismissed);
    assert_int_equal(t->dismissed_count, ndismissed);
    want = json_dumps(j = api_file_json(f, 1), JSON_COMPACT);
    json_decref(j);
    pd_buf_init(&b, 0);
    assert_int_equal(api_file_write(t, &b), 0);
    if (strcmp(want, b.data) != 0)
        fail_msg("typed page differs:\nuntyped %s\n  typed %s", want, b.data);
    free(want);
    pd_buf_free(&b);
    q_file_free(f);
    q_file_free(t);
}

static void test_typed_page_is_the_same(void **state)
{
    q_file_params p = {1, Q_FILE_PER_PAGE, NULL, NULL, 0};
    q_file_params warn = {1, Q_FILE_PER_PAGE, NULL, "warning", 0};
    q_file_params pg = {2, 3, NULL, NULL, 0};
    q_file *f = NULL;
    char sql[512];
    size_t n, i;
    q_at a;

    at("hpy", &a);
    typed_same(&a, &p, 0);
    assert_int_equal(q_file_get(g_db, &a, "src/toyarray.c", NULL, NULL, &f), 0);
    n = json_array_size(f->findings);
    assert_true(n > 2);
    /* One finding dismissed, with a few other fingerprints around it. */
    snprintf(sql, sizeof(sql), "INSERT INTO dismissals (repo_id, fingerprint, reason, "
             "comment, tool, path, commit_oid, by_name, created_at) VALUES (%lld, '%s', "
             "'won''t fix', 'c', 'portdash', 'src/toyarray.c', 'x', 'ana', 1), "
             "(%lld, '0', 'won''t fix', 'c', 'portdash', 'p', 'x', 'ana', 1), "
             "(%lld, 'ffff', 'won''t fix', 'c', 'portdash', 'p', 'x', 'ana', 1)",
             (long long)a.repo_id, json_string_value(json_object_get(
                 json_array_get(f->findings, 1), "fingerprint")),
             (long long)a.repo_id, (long long)a.repo_id);
    assert_int_equal(db_exec(g_db, sql), 0);
    typed_same(&a, &p, 1);
    typed_same(&a, &warn, 1);
    typed_same(&a, &pg, 0);         /* the dismissed one is on page 1 */
    /* More dismissals than findings: each finding is looked up. */
    for (i = 0; i <= n; i++) {
        snprintf(sql, sizeof(sql), "INSERT INTO dismissals (repo_id, fingerprint, reason, "
                 "comment, tool, path, commit_oid, by_name, created_at) VALUES (%lld, "
                 "'other%zu', 'won''t fix', 'c', 'portdash', 'p', 'x', 'ana', 1)",
                 (long long)a.repo_id, i);
        assert_int_equal(db_exec(g_db, sql), 0);
    }
    typed_same(&a, &p, 1);
    assert_int_equal(db_exec(g_db, "DELETE FROM dismissals"), 0);
    typed_same(&a, &p, 0);
    q_file_free(f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_file_page),
        cmocka_unit_test(test_file_paging),
        cmocka_unit_test(test_file_errors),
        cmocka_unit_test(test_commit),
        cmocka_unit_test(test_compare),
        cmocka_unit_test(test_symbols),
        cmocka_unit_test(test_json_is_the_apis),
        cmocka_unit_test(test_typed_page_is_the_same),
    };

    return cmocka_run_group_tests(tests, q_setup, q_teardown);
}
