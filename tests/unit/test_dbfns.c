/*
 * test_dbfns.c: the stored functions of an analysis (db/db_fns.h, migration
 * 019): what the writer stores the reader hands back field by field, the
 * text is exactly the documented format, damage is an error and not a
 * shorter list, and a database with the old table functions gets its rows
 * moved (and a gap in their numbering refused).
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
