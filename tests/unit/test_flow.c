/*
 * test_flow.c: object-dtype states through the repository's call graph,
 * stored and read (issue 21).
 *
 * tests/fixtures/callgraph: on `hpy`, src/items.c's release_items reads
 * PyObject * items and src/user.c's finalize calls it (another file);
 * from_iter only refuses object dtype.  On `convert`, only items.c changes
 * (HPyField items, HPy_NULL owner): finalize, unchanged, must follow it in
 * the same commit.  Then src/more.c adds a third caller; on `tip`, a
 * longer comment moves release_items down without changing its facts.
 * Branch `back` (from `tip`) brings items.c back to stored blobs, byte for
 * byte: the first version (PyObject * items again), the comment's, then
 * convert's (the comment's facts, other lines).  Branch `gone` (from `hpy`)
 * removes release_items: finalize, unchanged, leaves the object paths.
 */
#include "testutil.h"

#include "db.h"
#include "db_flow.h"
#include "db_history.h"
#include "ingest.h"
#include "pd_error.h"
#include "pd_flow.h"
#include "q_compare.h"

/* The id of the commit whose summary starts with `summary`. */
static int64_t commit_id(sqlite3 *db, const char *summary)
{
    sqlite3_stmt *st = NULL;
    int64_t id;

    assert_int_equal(db_prepare(db, &st, "SELECT id FROM commits WHERE summary LIKE ?1"), 0);
    sqlite3_bind_text(st, 1, summary, -1, SQLITE_STATIC);
    assert_int_equal(sqlite3_step(st), SQLITE_ROW);
    id = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    return id;
}

/* Object-state counts of a commit's stored summary. */
static void stats(sqlite3 *db, const char *hash, int64_t id, int64_t want_legacy,
                  int64_t want_cpython, int64_t want_universal)
{
    db_counts c;

    assert_int_equal(db_commit_stats(db, id, hash, &c), 0);
    assert_int_equal(c.obj[PD_OBJ_LEGACY], want_legacy);
    assert_int_equal(c.obj[PD_OBJ_CPYTHON_ONLY], want_cpython);
    assert_int_equal(c.obj[PD_OBJ_UNIVERSAL], want_universal);
}

static int ingest(const char *dbpath, const char *ref)
{
    const char *refs[1] = {ref};
    ingest_options o = {0};

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

static sqlite3 *open_db(const char *path, char *hash, size_t n)
{
    sqlite3 *db = NULL;

    assert_int_equal(db_open(&db, path, 0), 0);
    assert_int_equal(db_meta_get(db, "rules_hash", hash, n), 0);
    return db;
}

/* Summaries count what the call graph gives, commit by commit; a helper
 * that changes changes its callers' states in the same commit. */
static void check_summaries(const char *path)
{
    char hash[64];
    sqlite3 *db = open_db(path, hash, sizeof(hash));

    stats(db, hash, commit_id(db, "Items released%"), 2, 0, 0);
    stats(db, hash, commit_id(db, "The helper stores%"), 0, 2, 0);
    stats(db, hash, commit_id(db, "A new caller%"), 0, 3, 0);
    stats(db, hash, commit_id(db, "A longer comment%"), 0, 3, 0);
    db_close(db);
}

static void test_summaries_follow_the_helper_across_files(void **state)
{
    char *dir = tu_tmpdir(), path[4200];

    (void)state;
    snprintf(path, sizeof(path), "%s/full.db", dir);
    assert_int_equal(ingest(path, "tip"), 0);
    check_summaries(path);
    free(dir);
}

/* A push onto a stored commit starts from its stored summary, and loads
 * the stored graph only when a file's facts change (convert's helper);
 * a push that keeps them (tip's comment) needs none: the same figures as
 * a full ingest either way. */
static void test_incremental_ingest_gives_the_same_summaries(void **state)
{
    char *dir = tu_tmpdir(), path[4200];

    (void)state;
    snprintf(path, sizeof(path), "%s/push.db", dir);
    assert_int_equal(ingest(path, "hpy"), 0);
    assert_int_equal(ingest(path, "convert"), 0);
    assert_int_equal(ingest(path, "tip"), 0);
    check_summaries(path);
    free(dir);
}

/* Blobs analysed earlier in the run, or in an earlier run, come back:
 * their facts are read back from the database (or known by their hash)
 * and the callers follow them, in one run and pushed one by one alike. */
static void check_back(const char *path)
{
    char hash[64];
    sqlite3 *db = open_db(path, hash, sizeof(hash));

    stats(db, hash, commit_id(db, "A longer comment%"), 0, 3, 0);
    stats(db, hash, commit_id(db, "The helper goes back%"), 3, 0, 0);
    stats(db, hash, commit_id(db, "The helper again%"), 0, 3, 0);
    stats(db, hash, commit_id(db, "The helper as convert%"), 0, 3, 0);
    db_close(db);
}

static void test_stored_blobs_that_come_back_move_their_callers(void **state)
{
    char *dir = tu_tmpdir(), path[4200];

    (void)state;
    snprintf(path, sizeof(path), "%s/back.db", dir);
    assert_int_equal(ingest(path, "back"), 0);
    check_back(path);
    snprintf(path, sizeof(path), "%s/back-pushed.db", dir);
    assert_int_equal(ingest(path, "tip"), 0);
    assert_int_equal(ingest(path, "back~2"), 0);
    assert_int_equal(ingest(path, "back~1"), 0);
    assert_int_equal(ingest(path, "back"), 0);
    check_back(path);
    free(dir);
}

/* The per-file rows of every reader (db_files) and each function's state
 * come from the commit's graph; the chain names the helper; a function
 * that only refuses object dtype has no state at either revision. */
static void test_files_and_functions_read_the_graph(void **state)
{
    char *dir = tu_tmpdir(), path[4200], hash[64], chain[1024];
    int64_t c1, c2, key = pd_flow_path_key("src/user.c");
    sqlite3 *db;
    db_files *files = NULL;
    db_file_row row;
    db_flow *f = NULL;
    int seen = 0;

    (void)state;
    snprintf(path, sizeof(path), "%s/read.db", dir);
    assert_int_equal(ingest(path, "tip"), 0);
    db = open_db(path, hash, sizeof(hash));
    c1 = commit_id(db, "Items released%");
    c2 = commit_id(db, "The helper stores%");
    assert_int_equal(db_files_open(db, &files, c2, hash), 0);
    while (db_files_next(files, &row) > 0)
        if (strcmp(row.path, "src/user.c") == 0) {
            assert_int_equal(row.counts.obj[PD_OBJ_LEGACY], 0);
            assert_int_equal(row.counts.obj[PD_OBJ_CPYTHON_ONLY], 1);
            seen = 1;
        }
    db_files_close(files);
    assert_true(seen);

    assert_int_equal(db_flow_get(db, c1, hash, &f), 0);
    assert_int_equal(pd_flow_state(db_flow_graph(f), key, 0), PD_OBJ_LEGACY);
    assert_int_equal(pd_flow_local_state(db_flow_graph(f), key, 0), PD_OBJ_NONE);
    assert_int_equal(pd_flow_state(db_flow_graph(f), key, 1), PD_OBJ_NONE);
    db_flow_release(f);
    assert_int_equal(db_flow_get(db, c2, hash, &f), 0);
    assert_int_equal(pd_flow_state(db_flow_graph(f), key, 0), PD_OBJ_CPYTHON_ONLY);
    assert_true(pd_flow_chain_json(db_flow_graph(f), key, 0, chain, sizeof(chain)) > 0);
    assert_non_null(strstr(chain, "\"function\":\"release_items\""));
    assert_non_null(strstr(chain, "\"path\":\"src/items.c\""));
    assert_int_equal(pd_flow_state(db_flow_graph(f), key, 1), PD_OBJ_NONE);
    db_flow_release(f);
    db_close(db);
    free(dir);
}


/* db_file_history callback: the points, newest first, as "VALUE[g]" words
 * (g: a point of the call graph alone). */
static int history_point(void *arg, const db_file_point *p)
{
    char *out = arg;
    size_t n = strlen(out);

    snprintf(out + n, 256 - n, "%s%lld%s", n ? " " : "", (long long)p->value,
             p->call_graph ? "g" : "");
    return 0;
}

static void file_history(sqlite3 *db, const char *hash, int64_t tip, const char *path,
                         const char *measure, char out[256])
{
    int64_t path_id, from, depth;

    out[0] = '\0';
    assert_int_equal(db_path_id(db, path, &path_id), 0);
    assert_int_equal(db_file_history(db, tip, hash, pd_measure_find(measure), path_id, 0,
                                     history_point, out, &from, &depth), 0);
}

/* A file's history counts the object paths its file table row and file
 * page count, the call graph's: user.c, written once on hpy, has a
 * legacy path there (finalize, through release_items) and a CPython-only
 * one from convert's commit on, which changed only items.c.  The history
 * had counted the blob's own states (0 legacy, no point at convert): its
 * sparkline ended at 0 under a file page saying 1. */
static void test_file_history_counts_the_graphs_states(void **state)
{
    char *dir = tu_tmpdir(), path[4200], hash[64], pts[256];
    int64_t tip;
    sqlite3 *db;
    db_files *files = NULL;
    db_file_row row;

    (void)state;
    snprintf(path, sizeof(path), "%s/hist.db", dir);
    assert_int_equal(ingest(path, "tip"), 0);
    db = open_db(path, hash, sizeof(hash));
    tip = commit_id(db, "A longer comment%");
    /* Newest first: convert's commit (the graph alone), then hpy's. */
    file_history(db, hash, tip, "src/user.c", "object_paths.object-legacy", pts);
    assert_string_equal(pts, "0g 1");
    file_history(db, hash, tip, "src/user.c", "object_paths.object-cpython-only", pts);
    assert_string_equal(pts, "1g 0");
    /* Measures of the blob alone keep a point per change of the file. */
    file_history(db, hash, tip, "src/user.c", "functions.legacy", pts);
    assert_int_equal(strchr(pts, ' ') == NULL, 1);
    /* The last point of every file is its file table row at the tip. */
    assert_int_equal(db_files_open(db, &files, tip, hash), 0);
    while (db_files_next(files, &row) > 0) {
        int s;

        for (s = 0; s < PD_OBJ_COUNT; s++) {
            char key[64];

            snprintf(key, sizeof(key), "object_paths.%s", pd_objstate_name(s));
            file_history(db, hash, tip, row.path, key, pts);
            assert_int_equal(strtoll(pts, NULL, 10), row.counts.obj[s]);
        }
    }
    db_files_close(files);
    db_close(db);
    free(dir);
}

/* The move of `name` in a compare's functions, or NULL. */
static const q_move *move_of(const q_compare *c, const char *name)
{
    size_t i;

    for (i = 0; i < c->functions.n; i++)
        if (strcmp(c->functions.v[i].name, name) == 0)
            return &c->functions.v[i];
    return NULL;
}

/* The tags of a move joined by spaces. */
static const char *tags(const q_move *m, char *buf, size_t n)
{
    size_t i, k = 0;

    buf[0] = '\0';
    for (i = 0; i < m->nchanges; i++)
        k += (size_t)snprintf(buf + k, n - k, "%s%s", i ? " " : "", m->changes[i]);
    return buf;
}

/* The object-dtype moves of a compare add up to its delta of object
 * paths, for each state. */
static void moves_add_up(const q_compare *c)
{
    int64_t sum[PD_OBJ_COUNT] = {0};
    size_t i;
    int s;

    for (i = 0; i < c->functions.n; i++) {
        int a = pd_objstate_parse(c->functions.v[i].from.objstate);
        int b = pd_objstate_parse(c->functions.v[i].to.objstate);

        if (a != PD_OBJ_NONE)
            sum[a]--;
        if (b != PD_OBJ_NONE)
            sum[b]++;
    }
    for (s = 0; s < PD_OBJ_COUNT; s++)
        assert_int_equal(sum[s], c->delta.obj[s]);
}

/* Compare tells every object-dtype move: a removed object path is
 * removed and object-dropped (it was only "removed", outside the
 * object-dtype list), and a function of an unchanged file whose callee
 * moved it is listed, marked call_graph (it was not listed at all while
 * the delta counted it). */
static void test_compare_lists_every_object_move(void **state)
{
    char *dir = tu_tmpdir(), path[4200], buf[128];
    q_at hpy, gone, convert;
    q_compare *c = NULL;
    const q_move *m;
    sqlite3 *db;

    (void)state;
    snprintf(path, sizeof(path), "%s/cmp.db", dir);
    assert_int_equal(ingest(path, "hpy"), 0);
    assert_int_equal(ingest(path, "gone"), 0);
    assert_int_equal(ingest(path, "convert"), 0);
    assert_int_equal(db_open(&db, path, 0), 0);
    assert_int_equal(q_at_resolve(db, "cg", "hpy", &hpy), 0);
    assert_int_equal(q_at_resolve(db, "cg", "gone", &gone), 0);
    assert_int_equal(q_at_resolve(db, "cg", "convert", &convert), 0);

    assert_int_equal(q_compare_get(db, &hpy, &gone, NULL, &c), 0);
    assert_non_null(m = move_of(c, "release_items"));
    assert_string_equal(tags(m, buf, sizeof(buf)), "removed object-dropped");
    assert_int_equal(m->call_graph, 0);
    assert_non_null(m = move_of(c, "finalize"));
    assert_string_equal(tags(m, buf, sizeof(buf)), "object-dropped");
    assert_string_equal(m->path, "src/user.c");
    assert_int_equal(m->call_graph, 1);
    moves_add_up(c);
    q_compare_free(c);

    assert_int_equal(q_compare_get(db, &hpy, &convert, NULL, &c), 0);
    assert_non_null(m = move_of(c, "finalize"));
    assert_string_equal(tags(m, buf, sizeof(buf)), "converted");
    assert_int_equal(m->call_graph, 1);
    assert_null(move_of(c, "from_iter"));
    moves_add_up(c);
    q_compare_free(c);
    db_close(db);
    free(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_summaries_follow_the_helper_across_files),
        cmocka_unit_test(test_incremental_ingest_gives_the_same_summaries),
        cmocka_unit_test(test_files_and_functions_read_the_graph),
        cmocka_unit_test(test_stored_blobs_that_come_back_move_their_callers),
        cmocka_unit_test(test_file_history_counts_the_graphs_states),
        cmocka_unit_test(test_compare_lists_every_object_move),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
