/*
 * test_flowset.c: the call graph's results stored per commit (migration
 * 018, issue 26.3) give the very answers of the graph built from the flow
 * facts, after a full ingest, after pushes (incremental ingests), after
 * the migration's backfill, and when a set is missing or damaged.
 *
 * tests/fixtures/callgraph (test_flow.c says what each commit does):
 * src/user.c's finalize calls src/items.c's release_items (a cross-file
 * call) whose items change from PyObject * to HPyField with an HPy_NULL
 * owner; a third caller arrives in src/more.c; then a comment moves lines.
 */
#include "testutil.h"
#include "tu_flow.h"

#include "db.h"
#include "db_flow.h"
#include "db_flow_graph.h"
#include "db_flow_set.h"
#include "ingest.h"
#include "pd_buf.h"
#include "pd_error.h"
#include "pd_flow.h"
#include "pd_flow_int.h"
#include "pd_hash.h"

/* ingest_options.graph_files_kb of the next ingest() */
static int g_graph_files;

static int ingest(const char *dbpath, const char *ref)
{
    const char *refs[1] = {ref};
    ingest_options o = {0};

    o.graph_files_kb = g_graph_files;
    o.db_path = dbpath;
    o.repo_path = tu_fixture("callgraph");
    o.name = "cg";
    o.refs = refs;
    o.nrefs = 1;
    if (ingest_run(&o, NULL) < 0) {
        fprintf(stderr, "ingest: %s\n", pd_error_last());
        return -1;
    }
    return 0;
}

static const char *const cg_paths[] = {"src/items.c", "src/user.c", "src/more.c"};

/* db_flow_get (stored results when the commit has them) answers every
 * function of every file like db_flow_compute (the facts, resolved). */
static void same_answers(sqlite3 *db, int64_t commit, const char *hash)
{
    db_flow *f = NULL;
    pd_flow *s = NULL;

    db_flow_forget();
    assert_int_equal(db_flow_get(db, commit, hash, &f), 0);
    assert_int_equal(db_flow_compute(db, commit, hash, &s), 0);
    tu_same_flow(db_flow_graph(f), s, cg_paths, sizeof(cg_paths) / sizeof(cg_paths[0]));
    db_flow_release(f);
    pd_flow_free(s);
}

/* Every commit's set text, in commit order, "\f"-separated into b. */
static void all_sets(sqlite3 *db, const char *hash, pd_buf *b)
{
    int64_t c, n = 0;
    sqlite3_stmt *st = NULL;

    assert_int_equal(db_prepare(db, &st, "SELECT count(*) FROM commits"), 0);
    assert_int_equal(sqlite3_step(st), SQLITE_ROW);
    n = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    assert_true(n >= 4);
    for (c = 1; c <= n; c++) {
        char *text = NULL;
        size_t len;

        assert_int_equal(db_flow_set_read(db, c, hash, &text, &len), 0);
        pd_buf_put(b, text, len);
        pd_buf_puts(b, "\f");
        free(text);
    }
}

static sqlite3 *open_db(const char *path, char *hash, size_t n)
{
    sqlite3 *db = NULL;

    assert_int_equal(db_open(&db, path, 0), 0);
    assert_int_equal(db_meta_get(db, "rules_hash", hash, n), 0);
    return db;
}

/* A full ingest stores a set for each commit; the commit whose helper
 * stores HPyField items with an HPy_NULL owner has its callers in it (one
 * in another file); every commit reads the same as from the facts. */
static void test_full_ingest_stores_the_same_states(void **state)
{
    char *dir = tu_tmpdir(), path[4200], hash[64];
    sqlite3 *db;
    pd_buf b;
    int64_t c;

    (void)state;
    snprintf(path, sizeof(path), "%s/full.db", dir);
    assert_int_equal(ingest(path, "tip"), 0);
    db = open_db(path, hash, sizeof(hash));
    pd_buf_init(&b, 0);
    all_sets(db, hash, &b);
    /* src/user.c's finalize (index 0) reaches release_items in items.c */
    {
        char line[64];

        snprintf(line, sizeof(line), "%016llx\t0\t",
                 (unsigned long long)pd_flow_path_key("src/user.c"));
        assert_non_null(strstr(b.data, line));
        assert_non_null(strstr(b.data, "\trelease_items"));
    }
    for (c = 1; c <= 4; c++)
        same_answers(db, c, hash);
    pd_buf_free(&b);
    db_close(db);
    free(dir);
}

/* Pushes (one ingest per ref, each on top of the last) store the same
 * sets as the full ingest, and read the same. */
static void test_pushes_store_the_same_sets(void **state)
{
    char *dir = tu_tmpdir(), full[4200], push[4200], hash[64];
    sqlite3 *db;
    pd_buf a, b;
    int64_t c;

    (void)state;
    snprintf(full, sizeof(full), "%s/full.db", dir);
    snprintf(push, sizeof(push), "%s/push.db", dir);
    assert_int_equal(ingest(full, "tip"), 0);
    assert_int_equal(ingest(push, "hpy"), 0);
    assert_int_equal(ingest(push, "convert"), 0);
    assert_int_equal(ingest(push, "tip"), 0);
    pd_buf_init(&a, 0);
    pd_buf_init(&b, 0);
    db = open_db(full, hash, sizeof(hash));
    all_sets(db, hash, &a);
    db_close(db);
    db = open_db(push, hash, sizeof(hash));
    all_sets(db, hash, &b);
    for (c = 1; c <= 4; c++)
        same_answers(db, c, hash);
    db_close(db);
    assert_string_equal(a.data, b.data);
    pd_buf_free(&a);
    pd_buf_free(&b);
    free(dir);
}

static int64_t one_int(sqlite3 *db, const char *sql)
{
    sqlite3_stmt *st = NULL;
    int64_t v;

    assert_int_equal(db_prepare(db, &st, sql), 0);
    assert_int_equal(sqlite3_step(st), SQLITE_ROW);
    v = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    return v;
}

/* The packed graph of every ref's commit resolves to the results its
 * facts give, and nothing else keeps one.  With `only`, that ref's commit
 * alone, whose row may also not read back (a push that changed no facts
 * kept its base's row, damaged), but never read back wrong. */
static void packed_graphs_hold(sqlite3 *db, const char *hash, const char *only)
{
    sqlite3_stmt *st = NULL;
    size_t n = 0;

    assert_int_equal(db_prepare(db, &st, "SELECT DISTINCT commit_id FROM refs "
                                         "WHERE ?1 IS NULL OR name = ?1"), 0);
    sqlite3_bind_text(st, 1, only, -1, SQLITE_STATIC);
    while (sqlite3_step(st) == SQLITE_ROW) {
        int64_t c = sqlite3_column_int64(st, 0);
        pd_flow *g = NULL, *s = NULL;
        int64_t graph_id;
        char *files = NULL;

        int rc = db_flow_graph_read(db, c, hash, &g, &graph_id, &files);

        if (only && rc == PD_ENOTFOUND) {
            assert_null(g);
            assert_int_equal(graph_id, 0);
            n++;
            continue;
        }
        assert_int_equal(rc, 0);
        assert_true(graph_id > 0);
        free(files);
        assert_int_equal(pd_flow_resolve(g), 0);
        assert_int_equal(db_flow_compute(db, c, hash, &s), 0);
        tu_same_results(g, s);
        pd_flow_free(g);
        pd_flow_free(s);
        n++;
    }
    sqlite3_finalize(st);
    assert_true(n > 0);
    assert_int_equal(one_int(db, "SELECT count(*) FROM flow_graph_commits WHERE commit_id "
                                 "NOT IN (SELECT commit_id FROM refs)"), 0);
    assert_int_equal(one_int(db, "SELECT count(*) FROM flow_graphs WHERE id NOT IN "
                                 "(SELECT graph_id FROM flow_graph_commits)"), 0);
}

/* Pushes start from the graph the ingest before kept for its ref's commit
 * (db_flow_graph.h): every ref's commit has one, which reads back as its
 * facts give it; a push names its base's block with the files it changed
 * (convert: one block for both refs), one that changes no facts (tip: a
 * comment) names its base's row as it is.  Pushes that write a new block
 * each time, and pushes whose kept blocks or file lists are all damaged
 * (a line without its end), so read from the facts, store the very same
 * sets; and what a push from a damaged row keeps reads back right (it is
 * a new block: naming the damaged one again with the push's own files
 * lost the files named before). */
static void test_pushes_start_from_packed_graphs(void **state)
{
    static const char *const refs[] = {"hpy", "convert", "tip", "back", "solo", "gone"};
    static const char *const names[] = {"named", "written", "damaged"};
    char *dir = tu_tmpdir(), path[3][4200], hash[64];
    sqlite3 *db;
    pd_buf a, b;
    size_t i, k;

    (void)state;
    for (k = 0; k < 3; k++)
        snprintf(path[k], sizeof(path[k]), "%s/%s.db", dir, names[k]);
    for (i = 0; i < sizeof(refs) / sizeof(refs[0]); i++) {
        for (k = 0; k < 3; k++) {
            g_graph_files = k == 1 ? -1 : 0;
            assert_int_equal(ingest(path[k], refs[i]), 0);
        }
        g_graph_files = 0;
        db = open_db(path[2], hash, sizeof(hash));
        packed_graphs_hold(db, hash, refs[i]);
        db_close(db);
        for (k = 0; k < 2; k++) {
            db = open_db(path[k], hash, sizeof(hash));
            packed_graphs_hold(db, hash, NULL);
            if (k == 0 && strcmp(refs[i], "convert") == 0)
                assert_int_equal(one_int(db, "SELECT count(*) FROM flow_graphs"), 1);
            if (k == 0 && strcmp(refs[i], "tip") == 0)
                assert_int_equal(one_int(db, "SELECT count(DISTINCT graph_id || files) FROM "
                                             "flow_graph_commits JOIN refs USING (commit_id) "
                                             "WHERE name IN ('convert', 'tip')"), 1);
            if (k == 1)
                assert_int_equal(one_int(db, "SELECT count(files) FROM flow_graph_commits"),
                                 0);
            db_close(db);
        }
        db = open_db(path[2], hash, sizeof(hash));      /* the block, or its files */
        assert_int_equal(db_exec(db, i % 2 ? "UPDATE flow_graphs SET data = "
                                             "CAST('PDG1' AS BLOB) || zeroblob(16)"
                                           : "UPDATE flow_graph_commits SET files = "
                                             "'1' || char(9) || 'src/items.c'"), 0);
        db_close(db);
    }
    pd_buf_init(&a, 0);
    db = open_db(path[0], hash, sizeof(hash));
    all_sets(db, hash, &a);
    db_close(db);
    for (k = 1; k < 3; k++) {
        pd_buf_init(&b, 0);
        db = open_db(path[k], hash, sizeof(hash));
        all_sets(db, hash, &b);
        db_close(db);
        assert_string_equal(a.data, b.data);
        pd_buf_free(&b);
    }
    pd_buf_free(&a);
    free(dir);
}

/* A database filled before migration 018 (no flow_fns, no sets) gets the
 * very sets from the backfill; a commit without a set, or with one that
 * does not fit its files, is read from the facts: the same answers. */
static void test_backfill_and_missing_sets(void **state)
{
    char *dir = tu_tmpdir(), path[4200], hash[64];
    sqlite3 *db;
    pd_buf a, b;
    int64_t c;

    (void)state;
    snprintf(path, sizeof(path), "%s/fill.db", dir);
    assert_int_equal(ingest(path, "tip"), 0);
    db = open_db(path, hash, sizeof(hash));
    pd_buf_init(&a, 0);
    pd_buf_init(&b, 0);
    all_sets(db, hash, &a);
    assert_int_equal(db_exec(db, "DELETE FROM flow_commits; DELETE FROM flow_sets; "
                                 "UPDATE analyses SET flow_fns = NULL"), 0);
    for (c = 1; c <= 4; c++)           /* no set: from the facts */
        same_answers(db, c, hash);
    assert_int_equal(db_exec(db, "BEGIN"), 0);
    assert_int_equal(db_flow_fill(db), 0);
    assert_int_equal(db_exec(db, "COMMIT"), 0);
    all_sets(db, hash, &b);
    assert_string_equal(a.data, b.data);
    /* tip's set (naming src/more.c) for every commit: the older ones do
     * not have that file, their set does not fit, they read the facts */
    assert_int_equal(db_exec(db, "UPDATE flow_commits SET set_id = (SELECT set_id "
                                 "FROM flow_commits WHERE commit_id = 4)"), 0);
    for (c = 1; c <= 4; c++)
        same_answers(db, c, hash);
    pd_buf_free(&a);
    pd_buf_free(&b);
    db_close(db);
    free(dir);
}

/* Two helpers in two files both give a caller its legacy items: which one
 * the chain names no longer depends on the order the files were set in
 * (or replaced in, as the ingest does): path order decides. */
static void test_results_do_not_depend_on_file_order(void **state)
{
    pd_flow_fn caller = {"caller", 10, 0, "c1:h1:p0 c2:h2:p0"};
    pd_flow_fn h1 = {"h1", 20, PD_FLOW_LEGACY, "L0"};
    pd_flow_fn h2 = {"h2", 30, PD_FLOW_LEGACY, "L0"};
    pd_flow *x = NULL, *y = NULL;
    pd_buf bx, by;
    char cx[512], cy[512];
    int64_t ka = pd_flow_path_key("a.c"), kb = pd_flow_path_key("b.c"),
            kc = pd_flow_path_key("c.c");

    (void)state;
    assert_int_equal(pd_flow_new(&x), 0);
    assert_int_equal(pd_flow_new(&y), 0);
    assert_int_equal(pd_flow_set_file(x, ka, "a.c", &caller, 1), 0);
    assert_int_equal(pd_flow_set_file(x, kb, "b.c", &h1, 1), 0);
    assert_int_equal(pd_flow_set_file(x, kc, "c.c", &h2, 1), 0);
    assert_int_equal(pd_flow_set_file(y, kc, "c.c", &h2, 1), 0);
    assert_int_equal(pd_flow_set_file(y, kb, "b.c", &h1, 1), 0);
    assert_int_equal(pd_flow_set_file(y, ka, "a.c", &caller, 1), 0);
    assert_int_equal(pd_flow_resolve(y), 0);
    assert_int_equal(pd_flow_set_file(y, kb, "b.c", &h1, 1), 0);   /* replaced */
    assert_int_equal(pd_flow_resolve(x), 0);
    assert_int_equal(pd_flow_resolve(y), 0);
    assert_true(pd_flow_chain_json(x, ka, 0, cx, sizeof(cx)) > 0);
    assert_true(pd_flow_chain_json(y, ka, 0, cy, sizeof(cy)) > 0);
    assert_string_equal(cx, cy);
    pd_buf_init(&bx, 0);
    pd_buf_init(&by, 0);
    assert_int_equal(pd_flow_results_encode(x, &bx), 0);
    assert_int_equal(pd_flow_results_encode(y, &by), 0);
    assert_non_null(bx.data);
    assert_string_equal(bx.data, by.data);
    /* a graph of results cannot be resolved or set again */
    {
        pd_flow *r = NULL;

        assert_int_equal(pd_flow_new(&r), 0);
        assert_int_equal(pd_flow_results_file(r, ka, "a.c", "10-\n", 4), 0);
        assert_int_equal(pd_flow_results_file(r, kb, "b.c", "20L\n", 4), 0);
        assert_int_equal(pd_flow_results_file(r, kc, "c.c", "30L\n", 4), 0);
        assert_int_equal(pd_flow_results_apply(r, bx.data, bx.len), 0);
        assert_int_equal(pd_flow_chain_json(r, ka, 0, cy, sizeof(cy)), strlen(cx));
        assert_string_equal(cx, cy);
        assert_int_equal(pd_flow_state(r, ka, 0), pd_flow_state(x, ka, 0));
        assert_int_equal(pd_flow_resolve(r), PD_EINVAL);
        pd_flow_free(r);
    }
    pd_buf_free(&bx);
    pd_buf_free(&by);
    pd_flow_free(x);
    pd_flow_free(y);
}

/* pd_flow_encode_file gives, in one pass, what the three-step way gives:
 * pd_flow_encode per function, pd_flow_fns_encode of that text and
 * pd_flow_facts_hash of it; appended after what the buffers hold, and the
 * same with names or facts that hold a separator (the long way inside). */
static void check_one_pass(const pd_flow_fn *v, size_t n)
{
    pd_buf text, lines, want, wlines;
    uint64_t h = 0;
    size_t i;

    pd_buf_init(&text, 0);
    pd_buf_init(&lines, 0);
    pd_buf_init(&want, 0);
    pd_buf_init(&wlines, 0);
    pd_buf_puts(&text, "before\t1\t-\t\n");
    pd_buf_puts(&lines, "1-\n");
    assert_int_equal(pd_flow_encode_file(v, n, &text, &lines, &h), 0);
    for (i = 0; i < n; i++)
        pd_flow_encode(&want, &v[i]);
    pd_flow_fns_encode(want.data, want.len, &wlines);
    assert_int_equal(text.len, strlen("before\t1\t-\t\n") + want.len);
    assert_string_equal(text.data + strlen("before\t1\t-\t\n"), want.data ? want.data : "");
    assert_int_equal(lines.len, 3 + wlines.len);
    assert_memory_equal(lines.data, "1-\n", 3);
    if (wlines.len)
        assert_memory_equal(lines.data + 3, wlines.data, wlines.len);
    assert_true(h == pd_flow_facts_hash(want.data));
    pd_buf_free(&text);
    pd_buf_free(&lines);
    pd_buf_free(&want);
    pd_buf_free(&wlines);
}

static void test_one_pass_encoding_is_the_long_way(void **state)
{
    pd_flow_fn v[6] = {
        {"release_items", 12, PD_FLOW_LEGACY | PD_FLOW_MARKER, "c3:Py_DECREF:p0 L0"},
        {NULL, 0, 0, NULL},
        {"finalize", UINT32_MAX, PD_FLOW_FIELD | PD_FLOW_CPYTHON | PD_FLOW_NULLOWNER, ""},
        {"x", 7, PD_FLOW_CPYCHAIN, "c1:f:p0,\t-"},
        {"a\tb", 8, PD_FLOW_LEGACY, "c2:g:p1"},     /* a tab in a name */
        {"y", 9, PD_FLOW_FIELD, "c2:g:p1\nz\t1\t-\tc1:h:p0"},
    };
    pd_flow_fn moved[1] = {{"release_items", 40, PD_FLOW_LEGACY | PD_FLOW_MARKER,
                            "c3:Py_DECREF:p0 L0"}};
    pd_buf a, b, l;
    uint64_t h1 = 0, h2 = 0;

    (void)state;
    check_one_pass(v, 4);           /* the one pass */
    check_one_pass(v, 5);           /* the long way from the fifth */
    check_one_pass(v + 5, 1);       /* a newline in the facts */
    check_one_pass(v, 6);
    check_one_pass(v, 0);
    /* a moved function keeps the hash, other facts change it */
    pd_buf_init(&a, 0);
    pd_buf_init(&b, 0);
    pd_buf_init(&l, 0);
    assert_int_equal(pd_flow_encode_file(v, 1, &a, &l, &h1), 0);
    assert_int_equal(pd_flow_encode_file(moved, 1, &b, &l, &h2), 0);
    assert_true(h1 == h2);
    moved[0].flow = "c3:Py_DECREF:p1 L0";
    assert_int_equal(pd_flow_encode_file(moved, 1, &b, &l, &h2), 0);
    assert_true(h1 != h2);
    pd_buf_free(&a);
    pd_buf_free(&b);
    pd_buf_free(&l);
}

/* The hash gathers its bytes into a buffer (2 KiB, pd_xxh.h) before it
 * hashes them: a file
 * whose facts fill it many times over, and a function whose facts alone
 * are larger than it, hash as pd_flow_facts_hash does. */
static void test_one_pass_hash_past_its_buffer(void **state)
{
    pd_flow_fn v[300];
    char names[300][16], *big = malloc(5001), *mid = malloc(2048);
    size_t i;

    (void)state;
    assert_non_null(big);
    assert_non_null(mid);
    for (i = 0; i < 5000; i++)
        big[i] = "c1:f:p0 "[i % 8];
    big[5000] = '\0';
    memset(mid, 'L', 2047);        /* with its head, one byte past the buffer */
    mid[2047] = '\0';
    for (i = 0; i < 300; i++) {
        snprintf(names[i], sizeof(names[i]), "fn_%zu", i * 7919);
        v[i].name = names[i];
        v[i].line = (uint32_t)(i * 13 + 1);
        v[i].local = (unsigned)(i % 3 ? PD_FLOW_LEGACY : PD_FLOW_FIELD);
        v[i].flow = i == 150 ? big : i == 151 ? mid : i % 5 ? "c2:g:p1,- L0" : "";
    }
    check_one_pass(v, 300);
    check_one_pass(v + 150, 1);    /* larger than the buffer, first */
    check_one_pass(v + 151, 1);
    check_one_pass(v + 149, 3);
    free(big);
    free(mid);
}

/* Every function of file `key` (n of them): state and chain. */
static void same_functions(const pd_flow *a, const pd_flow *b, int64_t key, size_t n)
{
    size_t i;

    for (i = 0; i < n; i++) {
        char c1[1024], c2[1024];

        assert_int_equal(pd_flow_state(a, key, i), pd_flow_state(b, key, i));
        assert_int_equal(pd_flow_chain_json(a, key, i, c1, sizeof(c1)),
                         pd_flow_chain_json(b, key, i, c2, sizeof(c2)));
        assert_string_equal(c1, c2);
    }
}

/* A file replaced in the graph copies its functions whose facts are
 * unchanged (pd_flow_keep.c): the graph answers like one built from the
 * last texts alone, moved calls' lines included, through versions that
 * move, change, add, repeat and bring back functions. */
static void test_replaced_file_equals_a_fresh_one(void **state)
{
    pd_flow_fn a[1] = {{"release", 5, PD_FLOW_LEGACY, "L0"}};
    pd_flow_fn v1[4] = {
        {"user", 10, 0, "c3:release:p0"},
        {"other", 20, 0, "c2:puts:-"},
        {"dup", 30, 0, "c1:release:iobj c2:release:p0"},
        {"dup", 40, 0, "c1:release:iobj c2:release:p0"},
    };
    pd_flow_fn v2[5] = {
        {"new", 5, 0, "c1:user:p0"},
        {"user", 15, 0, "c3:release:p0"},           /* moved by 5 lines */
        {"other", 25, 0, "c2:release:p1"},          /* changed */
        {"dup", 45, 0, "c1:release:iobj c2:release:p0"},
        {"dup", 35, PD_FLOW_CPYTHON, "c1:release:iobj c2:release:p0"},
    };
    const pd_flow_fn *ver[4] = {v1, v2, v1, v2};
    size_t nver[4] = {4, 5, 4, 5}, k;
    int64_t ka = pd_flow_path_key("a.c"), kb = pd_flow_path_key("b.c");
    pd_flow *g = NULL;

    (void)state;
    assert_int_equal(pd_flow_new(&g), 0);
    assert_int_equal(pd_flow_set_file(g, ka, "a.c", a, 1), 0);
    for (k = 0; k < 4; k++) {
        pd_flow *fresh = NULL;

        assert_int_equal(pd_flow_set_file(g, kb, "b.c", ver[k], nver[k]), 0);
        assert_int_equal(pd_flow_resolve(g), 0);
        assert_int_equal(pd_flow_new(&fresh), 0);
        assert_int_equal(pd_flow_set_file(fresh, ka, "a.c", a, 1), 0);
        assert_int_equal(pd_flow_set_file(fresh, kb, "b.c", ver[k], nver[k]), 0);
        assert_int_equal(pd_flow_resolve(fresh), 0);
        same_functions(g, fresh, kb, nver[k]);
        assert_true(tu_same_results(g, fresh) > 0);
        pd_flow_free(fresh);
    }
    {   /* the moved caller's chain names the moved call's line */
        char c[1024];

        assert_true(pd_flow_chain_json(g, kb, 1, c, sizeof(c)) > 0);
        assert_non_null(strstr(c, "\"line\":18"));
    }
    pd_flow_free(g);
}

/* The keys of long facts: a function whose name and facts pass the
 * one-shot key's buffer (pd_flow_keep.c, 512 bytes) is keyed by the
 * streaming hash, one just under it by the one-shot hash.  Versions that
 * differ only past the buffer's end, or move a function across that
 * limit, must not take each other's facts: the graph answers like one
 * built from the last text alone. */
static void test_replaced_long_facts_equal_a_fresh_one(void **state)
{
    pd_flow_fn a[1] = {{"release", 5, PD_FLOW_LEGACY, "L0"}};
    /* the caller's name, the pad's length (whole calls), and whether it
     * calls release or relaxed (a name nobody defines): past the buffer,
     * under it, at it (9 + 490 + 13 = 512), one past it */
    static const struct { const char *name; size_t pad; int relaxed; } ver[] = {
        {"user", 590, 0}, {"user", 590, 1}, {"user", 590, 0}, {"user", 490, 0},
        {"user", 590, 1}, {"user_123", 490, 0}, {"user_123", 490, 1},
        {"user_1234", 490, 0}, {"user_1234", 490, 1}, {"user_123", 490, 0},
    };
    char pad[700], f[800];
    pd_flow_fn v[2];
    int64_t ka = pd_flow_path_key("a.c"), kb = pd_flow_path_key("b.c");
    size_t k, i;
    pd_flow *g = NULL;

    (void)state;
    for (i = 0; i + 10 <= 600; i += 10)  /* "c1:noop:- " calls, 10 bytes each */
        memcpy(pad + i, "c1:noop:- ", 10);
    pad[i] = '\0';
    v[1] = (pd_flow_fn){"other", 30, 0, "c1:release:p0"};
    assert_int_equal(pd_flow_new(&g), 0);
    assert_int_equal(pd_flow_set_file(g, ka, "a.c", a, 1), 0);
    for (k = 0; k < sizeof(ver) / sizeof(ver[0]); k++) {
        pd_flow *fresh = NULL;
        size_t keylen;

        /* "c9:release:p0" and "c9:relaxed:p0" are 13 bytes each */
        snprintf(f, sizeof(f), "%.*sc9:%s:p0", (int)ver[k].pad, pad,
                 ver[k].relaxed ? "relaxed" : "release");
        v[0] = (pd_flow_fn){ver[k].name, 10, 0, f};
        keylen = strlen(ver[k].name) + 1 + strlen(f);
        assert_int_equal(keylen, strlen(ver[k].name) + ver[k].pad + 14);
        if (ver[k].pad == 490 && strlen(ver[k].name) >= 8)
            assert_int_equal(keylen, strlen(ver[k].name) == 8 ? 512 : 513);
        assert_int_equal(pd_flow_set_file(g, kb, "b.c", v, 2), 0);
        assert_int_equal(pd_flow_resolve(g), 0);
        assert_int_equal(pd_flow_new(&fresh), 0);
        assert_int_equal(pd_flow_set_file(fresh, ka, "a.c", a, 1), 0);
        assert_int_equal(pd_flow_set_file(fresh, kb, "b.c", v, 2), 0);
        assert_int_equal(pd_flow_resolve(fresh), 0);
        same_functions(g, fresh, kb, 2);
        /* release's items make user legacy; relaxed is nobody's */
        assert_int_equal(pd_flow_state(g, kb, 0) == PD_OBJ_NONE, ver[k].relaxed);
        pd_flow_free(fresh);
    }
    pd_flow_free(g);
}

/* The name cache's slot of a name (pd_flow_int.h, fl_name_id). */
static unsigned name_slot(const char *s)
{
    uint64_t f = pd_fnv1a64(PD_FNV64_BASIS, s, strlen(s));

    return (unsigned)((f ^ (f >> 32)) & (FL_NAME_CACHE - 1));
}

/* Two callees whose names meet in one slot of the graph's name cache
 * stay two functions: the caller reaches the legacy items of the one that
 * has them, through that one, whichever was interned last. */
static void test_names_that_share_a_cache_slot_stay_apart(void **state)
{
    char a[24], b[24], facts[80], chain[512], want[64];
    int64_t kc = pd_flow_path_key("c.c"), kh = pd_flow_path_key("h.c");
    unsigned i, j, turn;

    (void)state;
    for (i = 0; ; i++) {                 /* the first pair that meets */
        snprintf(a, sizeof(a), "helper%u", i);
        for (j = 0; j < i; j++) {
            snprintf(b, sizeof(b), "helper%u", j);
            if (name_slot(a) == name_slot(b))
                break;
        }
        if (j < i)
            break;
    }
    for (turn = 0; turn < 2; turn++) {
        const char *items = turn ? b : a, *other = turn ? a : b;
        pd_flow_fn caller = {"caller", 10, 0, facts};
        pd_flow_fn h[2] = {{items, 20, PD_FLOW_LEGACY, "L0"}, {other, 30, 0, ""}};
        pd_flow *g = NULL;

        snprintf(facts, sizeof(facts), "c1:%s:p0 c2:%s:p0", a, b);
        assert_int_equal(pd_flow_new(&g), 0);
        assert_int_equal(pd_flow_set_file(g, kc, "c.c", &caller, 1), 0);
        assert_int_equal(pd_flow_set_file(g, kh, "h.c", h, 2), 0);
        assert_int_equal(pd_flow_resolve(g), 0);
        assert_int_equal(pd_flow_state(g, kc, 0), PD_OBJ_LEGACY);
        assert_int_equal(pd_flow_state(g, kh, 1), PD_OBJ_NONE);
        assert_true(pd_flow_chain_json(g, kc, 0, chain, sizeof(chain)) > 0);
        snprintf(want, sizeof(want), "\"function\":\"%s\"", items);
        assert_non_null(strstr(chain, want));
        pd_flow_free(g);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_one_pass_encoding_is_the_long_way),
        cmocka_unit_test(test_one_pass_hash_past_its_buffer),
        cmocka_unit_test(test_replaced_long_facts_equal_a_fresh_one),
        cmocka_unit_test(test_replaced_file_equals_a_fresh_one),
        cmocka_unit_test(test_full_ingest_stores_the_same_states),
        cmocka_unit_test(test_pushes_store_the_same_sets),
        cmocka_unit_test(test_pushes_start_from_packed_graphs),
        cmocka_unit_test(test_backfill_and_missing_sets),
        cmocka_unit_test(test_results_do_not_depend_on_file_order),
        cmocka_unit_test(test_names_that_share_a_cache_slot_stay_apart),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
