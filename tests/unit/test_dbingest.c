/*
 * test_dbingest.c: the ingest's data layer (db/db_ingest.h) and the one
 * writer of stored findings (db_findings_encode), read back through the one
 * reader (db_findings_each), on a fresh database with the real migrations;
 * the stored functions of an analysis (db/db_fns.h, migration 019): what
 * the writer stores the reader hands back field by field, the text is
 * exactly the documented format, damage is an error and not a shorter
 * list, and a database with the old table functions gets its rows moved
 * (a gap in their numbering refused).
 */
#include "testutil.h"

#include "db.h"
#include "db_findings.h"
#include "db_fns.h"
#include "db_ingest.h"
#include "db_zlib.h"
#include "pd_error.h"

typedef struct {
    char *dir;
    char path[4200];
    sqlite3 *db;
    db_ingest *s;
} fx;

static int fx_setup(void **state)
{
    fx *f = calloc(1, sizeof(*f));

    f->dir = tu_tmpdir();
    snprintf(f->path, sizeof(f->path), "%s/t.db", f->dir);
    assert_int_equal(db_open_wait(&f->db, f->path, 1, 50), 0);
    assert_int_equal(db_ingest_open(&f->s, f->db), 0);
    *state = f;
    return 0;
}

static int fx_teardown(void **state)
{
    fx *f = *state;

    db_ingest_free(f->s);
    db_close(f->db);
    tu_sh("rm -rf '%s'", f->dir);
    free(f->dir);
    free(f);
    return 0;
}

/* The rows a db_findings_each walk handed out, strings copied. */
typedef struct {
    db_finding row[8];
    char str[8][4][64];
    int has_reason[8];
    size_t n;
} got_findings;

static int collect(void *arg, const db_finding *f)
{
    got_findings *g = arg;
    const char *s[4] = {f->cls, f->rule, f->text, f->reason ? f->reason : ""};
    int k;

    assert_true(g->n < 8);
    g->row[g->n] = *f;
    for (k = 0; k < 4; k++)
        snprintf(g->str[g->n][k], sizeof(g->str[g->n][k]), "%s", s[k]);
    g->has_reason[g->n] = f->reason != NULL;
    g->n++;
    return 0;
}

/* Store `n` findings as an analysis of blob `blob`; its row id. */
static int64_t put_findings(fx *f, const char *blob, const db_finding *rows, size_t n)
{
    db_analysis_row a = {0};
    unsigned char *z = NULL;
    int64_t id = 0;

    assert_int_equal(db_findings_encode(rows, n, &z, &a.findings_zlen, &a.findings_len), 0);
    a.findings_z = z;
    a.status = "legacy";
    a.counts.files = 1;
    assert_int_equal(db_ingest_analysis_put(f->s, &id, blob, "h", &a), 0);
    free(z);
    return id;
}

/* What the writer stores, the reader hands back: every field, a reason or
 * none, file scope (-1), quotes, backslashes and control bytes; a byte
 * above 0x7f becomes U+FFFD (the column is always valid UTF-8 JSON). */
static void test_findings_written_are_read_back_whole(void **state)
{
    fx *f = *state;
    const db_finding in[3] = {
        {7, 3, "capi", "rule \"x\"", "a\"b\\c\001\377", -1, 0, NULL},
        {12, 1, "npy-legacy", "item", "PyArray_GETITEM", 4, 1, "object \"dtype\""},
        {4000000000LL, 99, "hpy", NULL, NULL, 1234567, 0, NULL},
    };
    got_findings g;
    int64_t id;

    memset(&g, 0, sizeof(g));
    id = put_findings(f, "ab", in, 3);
    assert_int_equal(db_findings_each(f->db, id, collect, &g), 0);
    assert_int_equal(g.n, 3);
    assert_int_equal(g.row[0].line, 7);
    assert_int_equal(g.row[0].column, 3);
    assert_string_equal(g.str[0][0], "capi");
    assert_string_equal(g.str[0][1], "rule \"x\"");
    assert_string_equal(g.str[0][2], "a\"b\\c\001\xef\xbf\xbd");
    assert_int_equal(g.row[0].function, -1);
    assert_int_equal(g.row[0].guarded, 0);
    assert_false(g.has_reason[0]);
    assert_int_equal(g.row[1].function, 4);
    assert_int_equal(g.row[1].guarded, 1);
    assert_true(g.has_reason[1]);
    assert_string_equal(g.str[1][3], "object \"dtype\"");
    assert_int_equal(g.row[2].line, 4000000000LL);
    assert_int_equal(g.row[2].function, 1234567);
    assert_string_equal(g.str[2][1], "");
    assert_string_equal(g.str[2][2], "");
}

/* The stored text, byte for byte (cold pages and the call graph read it,
 * and two builds' databases are compared by it): compact JSON, lower-case
 * \u escapes, U+FFFD for a byte above 0x7f, a reason only when there is
 * one; a text of nothing but control bytes (six bytes each, the longest
 * escape) must fit the room the writer reserves. */
static void test_findings_text_is_exactly_this(void **state)
{
    fx *f = *state;
    char ctl[301], *text = NULL, *want;
    const db_finding in[3] = {
        {7, 3, "capi", "rule \"x\"", "a\"b\\c\001\377/", -1, 0, NULL},
        {-2, 0, "npy-legacy", "item", ctl, 4, 1, "r\x1f"},
        {4000000000LL, 99, "hpy", NULL, NULL, -9223372036854775807LL, 0, NULL},
    };
    sqlite3_stmt *st = NULL;
    size_t i, off;
    int64_t id;

    memset(ctl, '\n', 300);
    ctl[300] = '\0';
    id = put_findings(f, "ef", in, 3);
    assert_int_equal(db_prepare(f->db, &st, "SELECT findings, findings_len FROM analyses "
                                "WHERE id = ?1"), 0);
    sqlite3_bind_int64(st, 1, id);
    assert_int_equal(sqlite3_step(st), SQLITE_ROW);
    assert_int_equal(db_column_inflate(st, 0, 0, &text), 0);
    sqlite3_finalize(st);
    want = malloc(4096);
    off = (size_t)snprintf(want, 4096, "[[7,3,\"capi\",\"rule \\\"x\\\"\","
                           "\"a\\\"b\\\\c\\u0001\xef\xbf\xbd/\",-1,false],"
                           "[-2,0,\"npy-legacy\",\"item\",\"");
    for (i = 0; i < 300; i++)
        off += (size_t)snprintf(want + off, 4096 - off, "\\u000a");
    snprintf(want + off, 4096 - off, "\",4,true,\"r\\u001f\"],"
             "[4000000000,99,\"hpy\",\"\",\"\",-9223372036854775807,false]]");
    assert_string_equal(text, want);
    free(want);
    free(text);
}

/* No findings is an empty list, not an error. */
static void test_no_findings_is_an_empty_list(void **state)
{
    fx *f = *state;
    got_findings g;
    int64_t id;

    memset(&g, 0, sizeof(g));
    id = put_findings(f, "cd", NULL, 0);
    assert_int_equal(db_findings_each(f->db, id, collect, &g), 0);
    assert_int_equal(g.n, 0);
}

static int count_change(void *arg, int64_t path_id, const char *blob, const char *path)
{
    int *n = arg;

    if (strcmp(path, "gone.c") == 0)
        assert_null(blob);
    else
        assert_string_equal(blob, "1111111111111111111111111111111111111111");
    return ++*n == 2 ? 42 : 0;
}

/* Paths are found again, not duplicated; a walk of changes hands deleted
 * files as NULL blobs and stops on (and returns) the callback's value. */
static void test_paths_and_changes(void **state)
{
    fx *f = *state;
    db_commit_row c = {"2222222222222222222222222222222222222222", "", 0, "A", "a@x",
                       1, 60, 2, -120, "first"};
    int64_t repo, commit, p1, p2, again;
    pathfilter_owned filter;
    char oid[41];
    int n = 0;

    assert_int_equal(db_ingest_begin(f->s), 0);
    assert_int_equal(db_ingest_repo(f->s, &repo, &filter, "r", "/r", NULL), 0);
    assert_int_equal(filter.f.ninclude + filter.f.nexclude, 0);
    pathfilter_owned_free(&filter);
    assert_int_equal(db_ingest_commit_insert(f->s, &commit, repo, &c), 0);
    assert_int_equal(db_ingest_path_id(f->s, &p1, "a.c"), 0);
    assert_int_equal(db_ingest_path_id(f->s, &p2, "gone.c"), 0);
    assert_int_equal(db_ingest_path_id(f->s, &again, "a.c"), 0);
    assert_int_equal(again, p1);
    assert_true(p2 != p1);
    assert_int_equal(db_ingest_change(f->s, commit, p1,
                                      "1111111111111111111111111111111111111111", 0), 0);
    assert_int_equal(db_ingest_change(f->s, commit, p2, NULL, 0), 0);
    assert_int_equal(db_ingest_commit(f->s), 0);
    assert_int_equal(db_ingest_changes_of(f->s, commit, count_change, &n), 42);
    assert_int_equal(db_ingest_commit_oid(f->s, oid, commit), 0);
    assert_string_equal(oid, c.oid);
    assert_int_equal(db_ingest_commit_oid(f->s, oid, commit + 100), PD_EDB);
}

/* A repository keeps its path filter: asking for another fails and names both;
 * asking for none hands back the stored one. */
static void test_repo_path_filter_is_kept(void **state)
{
    fx *f = *state;
    const char *inc[] = {"a/**", "b/*.c"}, *exc[] = {"**/test_*"};
    const pathfilter want = {inc, 2, exc, 1};
    const pathfilter none = {NULL, 0, NULL, 0};
    int64_t id, id2;
    pathfilter_owned stored;
    sqlite3_stmt *st;

    assert_int_equal(db_ingest_repo(f->s, &id, NULL, "r", "/r", &want), 0);
    assert_int_equal(db_ingest_repo(f->s, &id2, NULL, "r", "/r2", &none), PD_EINVAL);
    assert_non_null(strstr(pd_error_last(), "was ingested with path filter"));
    assert_non_null(strstr(pd_error_last(), "a/**"));
    assert_int_equal(db_ingest_repo(f->s, &id2, &stored, "r", "/r2", NULL), 0);
    assert_int_equal(id2, id);
    assert_true(pathfilter_equal(&stored.f, &want));
    assert_string_equal(stored.f.include[1], "b/*.c");
    pathfilter_owned_free(&stored);
    /* Stored as JSON, in the order first given (the column the API serves). */
    assert_int_equal(sqlite3_prepare_v2(f->db, "SELECT scope FROM repos WHERE id = ?1", -1,
                                        &st, NULL), SQLITE_OK);
    sqlite3_bind_int64(st, 1, id);
    assert_int_equal(sqlite3_step(st), SQLITE_ROW);
    assert_string_equal((const char *)sqlite3_column_text(st, 0),
                        "{\"include\":[\"a/**\",\"b/*.c\"],\"exclude\":[\"**/test_*\"]}");
    sqlite3_finalize(st);
}

/* Point 5 of issue 22: the filter is compared by value, not as JSON text.
 * The same globs in another order, or repeated, are the same filter (a path
 * is selected by any include and dropped by any exclude); a glob more,
 * less or moved from include to exclude is another one and is refused. */
static void test_repo_path_filter_is_compared_by_value(void **state)
{
    fx *f = *state;
    const char *inc[] = {"a/**", "b/*.c"}, *exc[] = {"**/test_*"};
    const char *inc2[] = {"b/*.c", "a/**", "b/*.c"}, *exc2[] = {"**/test_*", "**/test_*"};
    const char *inc3[] = {"a/**"}, *inc4[] = {"a/**", "b/*.c", "**/test_*"};
    const pathfilter want = {inc, 2, exc, 1}, same = {inc2, 3, exc2, 2};
    const pathfilter fewer = {inc3, 1, exc, 1}, moved = {inc4, 3, NULL, 0};
    const pathfilter noexc = {inc, 2, NULL, 0};
    int64_t id, id2;

    assert_int_equal(db_ingest_repo(f->s, &id, NULL, "r", "/r", &want), 0);
    assert_int_equal(db_ingest_repo(f->s, &id2, NULL, "r", "/r", &same), 0);
    assert_int_equal(id2, id);
    assert_int_equal(db_ingest_repo(f->s, &id2, NULL, "r", "/r", &fewer), PD_EINVAL);
    assert_non_null(strstr(pd_error_last(), "this run asks for {\"include\":[\"a/**\"]"));
    assert_int_equal(db_ingest_repo(f->s, &id2, NULL, "r", "/r", &moved), PD_EINVAL);
    assert_int_equal(db_ingest_repo(f->s, &id2, NULL, "r", "/r", &noexc), PD_EINVAL);
    assert_non_null(strstr(pd_error_last(), "Use the same --include/--exclude"));
}

/* A stored filter that is not the JSON of one is refused with what was
 * read, not taken for the empty filter (which would analyse every path). */
static void test_a_corrupt_stored_path_filter_is_an_error(void **state)
{
    fx *f = *state;
    int64_t id;

    assert_int_equal(sqlite3_exec(f->db, "INSERT INTO repos(name, path, scope, created_at) "
                                  "VALUES ('bad', '/b', '{\"include\":[1]}', 0)",
                                  NULL, NULL, NULL), SQLITE_OK);
    assert_int_equal(db_ingest_repo(f->s, &id, NULL, "bad", "/b", NULL), PD_EINVAL);
    assert_non_null(strstr(pd_error_last(), "corrupt stored path filter"));
}

/* Another writer holding the database: the transaction does not start,
 * the error says busy (so a caller can tell it from damage), and what was
 * committed before is all there once the other writer is gone. */
static void test_a_busy_database_stops_the_transaction(void **state)
{
    fx *f = *state;
    sqlite3 *other = NULL;
    int64_t p, again;

    assert_int_equal(db_ingest_begin(f->s), 0);
    assert_int_equal(db_ingest_path_id(f->s, &p, "kept.c"), 0);
    assert_int_equal(db_ingest_commit(f->s), 0);
    assert_int_equal(sqlite3_open(f->path, &other), SQLITE_OK);
    assert_int_equal(sqlite3_exec(other, "BEGIN IMMEDIATE", NULL, NULL, NULL), SQLITE_OK);
    assert_int_equal(db_ingest_begin(f->s), PD_EDB);
    assert_true(db_error_busy());
    assert_int_equal(sqlite3_exec(other, "COMMIT", NULL, NULL, NULL), SQLITE_OK);
    sqlite3_close(other);
    assert_int_equal(db_ingest_begin(f->s), 0);
    assert_int_equal(db_ingest_path_id(f->s, &again, "kept.c"), 0);
    assert_int_equal(again, p);
    db_ingest_rollback(f->s);
}

/* ---------- the stored functions (db_fns.h, migration 019) ---------- */

/* Three functions: escapes in every text field, NULLs, big numbers. */
static const db_function_row k_rows[3] = {
    {"plain", 1, 9, "ported", NULL, {1, 0, 0, 0}, {1, 0, 0, 0}, NULL,
     "{\"status\":null}", 0, 0},
    {"odd\tname\\x", 10, 4000000000u, "legacy", "object-legacy", {0, 7, 2, 0},
     {0, 5, 2, 0}, "MACRO\nNL", "{\"status\":{\"text\":\"a\\\"b\"}}", 0, 0},
    {"last", 12, 12, "neutral", NULL, {0, 0, 0, 0}, {0, 0, 0, 0}, NULL, NULL, 0, 0},
};

/* Store k_rows (or none) as an analysis of blob `blob`; its row id. */
static int64_t put(fx *f, const char *blob, size_t n)
{
    db_analysis_row a = {0};
    unsigned char *z = NULL, *fz = NULL;
    int64_t id = 0;
    pd_buf b;

    assert_int_equal(db_findings_encode(NULL, 0, &z, &a.findings_zlen, &a.findings_len), 0);
    a.findings_z = z;
    a.status = "legacy";
    a.counts.files = 1;
    if (n) {
        pd_buf_init(&b, 0);
        db_fns_text(&b, k_rows, n);
        assert_int_equal(b.err, 0);
        assert_int_equal(db_deflate(&fz, &a.fns_zlen, b.data, b.len), 0);
        a.fns_z = fz;
        a.fns_len = b.len;
        pd_buf_free(&b);
    }
    assert_int_equal(db_ingest_analysis_put(f->s, &id, blob, "h", &a), 0);
    free(z);
    free(fz);
    return id;
}

/* The rows a walk handed out, as one line of text each. */
static int dump_row(void *arg, const db_fn_stored *s)
{
    pd_buf *b = arg;

    pd_buf_printf(b, "%lld|%s|%lld|%lld|%s|%s|%lld,%lld,%lld,%lld|%s|%s|%lld,%lld,%lld,%lld\n",
                  (long long)s->idx, s->name, (long long)s->start_line,
                  (long long)s->end_line, s->status,
                  s->object_state ? s->object_state : "(null)",
                  (long long)s->tok[0], (long long)s->tok[1], (long long)s->tok[2],
                  (long long)s->tok[3], s->name_from_macro ? s->name_from_macro : "(null)",
                  s->why ? s->why : "(null)", (long long)s->ung[0], (long long)s->ung[1],
                  (long long)s->ung[2], (long long)s->ung[3]);
    return 0;
}

static const char k_dump[] =
    "0|plain|1|9|ported|(null)|1,0,0,0|(null)|{\"status\":null}|1,0,0,0\n"
    "1|odd\tname\\x|10|4000000000|legacy|object-legacy|0,7,2,0|MACRO\nNL|"
    "{\"status\":{\"text\":\"a\\\"b\"}}|0,5,2,0\n"
    "2|last|12|12|neutral|(null)|0,0,0,0|(null)|(null)|0,0,0,0\n";

static void test_functions_written_are_read_back_whole(void **state)
{
    fx *f = *state;
    int64_t id = put(f, "ab", 3), none = put(f, "cd", 0);
    pd_buf b;

    pd_buf_init(&b, 0);
    assert_int_equal(db_fns_each(f->db, id, dump_row, &b), 0);
    assert_string_equal(b.data ? b.data : "", k_dump);
    pd_buf_reset(&b);
    /* no function: no column, no row handed out, not an error */
    assert_int_equal(db_fns_each(f->db, none, dump_row, &b), 0);
    assert_int_equal(b.len, 0);
    pd_buf_free(&b);
}

/* The format of db_fns.h, byte for byte. */
static void test_text_is_exactly_this(void **state)
{
    pd_buf b;

    (void)state;
    pd_buf_init(&b, 0);
    db_fns_text(&b, k_rows, 3);
    assert_string_equal(b.data,
        "plain\t1\t9\tported\t\t1\t0\t0\t0\t\t{\"status\":null}\t1\t0\t0\t0\n"
        "odd\\tname\\\\x\t10\t4000000000\tlegacy\tobject-legacy\t0\t7\t2\t0\tMACRO\\nNL\t"
        "{\"status\":{\"text\":\"a\\\\\"b\"}}\t0\t5\t2\t0\n"
        "last\t12\t12\tneutral\t\t0\t0\t0\t0\t\t\t0\t0\t0\t0\n");
    pd_buf_free(&b);
}

/* Text that is not of the format is damage: PD_EDB, and nothing after the
 * bad line handed out. */
static void test_damaged_text_is_an_error(void **state)
{
    static const char *const bad[] = {
        "a\t1\t2\tported\t\t0\t0\t0\t0\t\t\t0\t0\t0\n",          /* 14 fields */
        "a\t1\t2\tported\t\t0\t0\t0\t0\t\t\t0\t0\t0\t0\t9\n",    /* 16 */
        "a\tx\t2\tported\t\t0\t0\t0\t0\t\t\t0\t0\t0\t0\n",       /* not a number */
        "a\t1\t2\tported\t\t0\t0\t0\t0\t\t\\q\t0\t0\t0\t0\n",    /* bad escape */
        "\t1\t2\tported\t\t0\t0\t0\t0\t\t\t0\t0\t0\t0\n",        /* no name */
        "a\t1\t2\tported\t\t0\t0\t0\t0\t\t\t0\t0\t0\t0",         /* no newline */
    };
    pd_buf b;
    size_t i;

    (void)state;
    pd_buf_init(&b, 0);
    for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        char *t = strdup(bad[i]);

        pd_buf_reset(&b);
        assert_int_equal(db_fns_parse(t, strlen(t), dump_row, &b), PD_EDB);
        assert_int_equal(b.len, 0);
        free(t);
    }
    pd_buf_free(&b);
}

/* Stored bytes that do not inflate: the reader's error names damage. */
static void test_damaged_column_is_an_error(void **state)
{
    fx *f = *state;
    int64_t id = put(f, "ab", 3);
    pd_buf b;

    assert_int_equal(db_exec(f->db, "UPDATE analyses SET fns = x'00010203'"), 0);
    pd_buf_init(&b, 0);
    assert_int_equal(db_fns_each(f->db, id, dump_row, &b), PD_EDB);
    assert_non_null(strstr(pd_error_last(), "damaged"));
    pd_buf_free(&b);
}

/* Migration 019 on a database with the old table: the rows move into the
 * column (NULL unguarded counts, from before 011, read as 0) and the table
 * goes; a gap in an analysis's numbering (findings name functions by
 * index) fails the migration and leaves the database at 18. */
static void test_migration_moves_rows(void **state)
{
    fx *f = *state;
    int64_t id = put(f, "ab", 0), v = 0;
    sqlite3_stmt *st;
    char sql[2048];
    pd_buf b;
    int gap;

    for (gap = 0; gap < 2; gap++) {
        db_ingest_free(f->s);
        f->s = NULL;
        db_close(f->db);
        snprintf(sql, sizeof(sql),
                 "CREATE TABLE functions (analysis_id INTEGER NOT NULL, idx INTEGER NOT "
                 "NULL, name TEXT NOT NULL, start_line INTEGER NOT NULL, end_line INTEGER "
                 "NOT NULL, status TEXT NOT NULL, object_state TEXT, tok_hpy INTEGER NOT "
                 "NULL, tok_capi INTEGER NOT NULL, tok_npy_legacy INTEGER NOT NULL, "
                 "tok_bridge INTEGER NOT NULL, name_from_macro TEXT, why TEXT, ung_hpy "
                 "INTEGER, ung_capi INTEGER, ung_npy_legacy INTEGER, ung_bridge INTEGER, "
                 "PRIMARY KEY (analysis_id, idx)) WITHOUT ROWID; "
                 "INSERT INTO functions VALUES (%lld, 0, 'f', 1, 2, 'legacy', NULL, 0, 3, "
                 "0, 0, NULL, '{}', 0, 3, 0, 0), (%lld, %d, 'g', 3, 4, 'ported', "
                 "'object-universal', 1, 0, 0, 0, 'M', NULL, NULL, NULL, NULL, NULL); "
                 "PRAGMA user_version = 18;", (long long)id, (long long)id, gap ? 2 : 1);
        assert_int_equal(tu_sh("sqlite3 '%s' \"%s\"", f->path, sql), 0);
        if (gap) {
            assert_int_equal(db_open_wait(&f->db, f->path, 0, 50), PD_EDB);
            assert_non_null(strstr(pd_error_last(), "not numbered"));
            f->db = NULL;
            assert_int_equal(tu_sh("test \"$(sqlite3 '%s' 'PRAGMA user_version')\" = 18",
                                   f->path), 0);
            return;
        }
        assert_int_equal(db_open_wait(&f->db, f->path, 0, 50), 0);
        assert_int_equal(db_ingest_open(&f->s, f->db), 0);
        pd_buf_init(&b, 0);
        assert_int_equal(db_fns_each(f->db, id, dump_row, &b), 0);
        assert_string_equal(b.data,
                            "0|f|1|2|legacy|(null)|0,3,0,0|(null)|{}|0,3,0,0\n"
                            "1|g|3|4|ported|object-universal|1,0,0,0|M|(null)|0,0,0,0\n");
        pd_buf_free(&b);
        assert_int_equal(sqlite3_prepare_v2(f->db, "SELECT count(*) FROM sqlite_master "
                                            "WHERE name = 'functions'", -1, &st, NULL),
                         SQLITE_OK);
        assert_int_equal(sqlite3_step(st), SQLITE_ROW);
        v = sqlite3_column_int64(st, 0);
        sqlite3_finalize(st);
        assert_int_equal(v, 0);
        /* the next pass: the same database, the old table made again */
        assert_int_equal(db_exec(f->db, "UPDATE analyses SET fns = NULL, fns_len = NULL"), 0);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_findings_written_are_read_back_whole,
                                        fx_setup, fx_teardown),
        cmocka_unit_test_setup_teardown(test_findings_text_is_exactly_this, fx_setup,
                                        fx_teardown),
        cmocka_unit_test_setup_teardown(test_no_findings_is_an_empty_list,
                                        fx_setup, fx_teardown),
        cmocka_unit_test_setup_teardown(test_paths_and_changes, fx_setup, fx_teardown),
        cmocka_unit_test_setup_teardown(test_repo_path_filter_is_kept, fx_setup, fx_teardown),
        cmocka_unit_test_setup_teardown(test_repo_path_filter_is_compared_by_value, fx_setup,
                                        fx_teardown),
        cmocka_unit_test_setup_teardown(test_a_corrupt_stored_path_filter_is_an_error, fx_setup,
                                        fx_teardown),
        cmocka_unit_test_setup_teardown(test_a_busy_database_stops_the_transaction,
                                        fx_setup, fx_teardown),
        cmocka_unit_test_setup_teardown(test_functions_written_are_read_back_whole,
                                        fx_setup, fx_teardown),
        cmocka_unit_test(test_text_is_exactly_this),
        cmocka_unit_test(test_damaged_text_is_an_error),
        cmocka_unit_test_setup_teardown(test_damaged_column_is_an_error, fx_setup,
                                        fx_teardown),
        cmocka_unit_test_setup_teardown(test_migration_moves_rows, fx_setup, fx_teardown),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
