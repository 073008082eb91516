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
#include "db_compress.h"
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

/* Store analysis `a`, its findings columns filled, as the analysis of blob
 * `blob`; its row id. */
static int64_t put_analysis(fx *f, const char *blob, db_analysis_row *a)
{
    int64_t id = 0;

    a->status = "legacy";
    a->counts.files = 1;
    assert_int_equal(db_ingest_analysis_put(f->s, &id, blob, "h", a), 0);
    return id;
}

/* Store `n` findings through the writer as an analysis of blob `blob`; its
 * row id. */
static int64_t put_findings(fx *f, const char *blob, const db_finding *rows, size_t n)
{
    db_analysis_row a = {0};
    unsigned char *z = NULL;
    int64_t id;

    assert_int_equal(db_findings_encode(rows, n, &z, &a.findings_zlen, &a.findings_len), 0);
    a.findings_z = z;
    id = put_analysis(f, blob, &a);
    free(z);
    return id;
}

/* Store `text` itself as the findings of an analysis of blob `blob`,
 * deflated with its true length, so that only the text can be wrong; its
 * row id. */
static int64_t put_text(fx *f, const char *blob, const char *text)
{
    db_analysis_row a = {0};
    unsigned char *z = NULL;
    int64_t id;

    assert_int_equal(db_compress(&z, &a.findings_zlen, text, strlen(text)), 0);
    a.findings_z = z;
    a.findings_len = strlen(text);
    id = put_analysis(f, blob, &a);
    free(z);
    return id;
}

/* The stored findings text of analysis `id`, inflated (free()); its
 * findings_len is its length. */
static char *stored_text(fx *f, int64_t id)
{
    sqlite3_stmt *st = NULL;
    char *text = NULL;

    assert_int_equal(db_prepare(f->db, &st, "SELECT findings, findings_len FROM analyses "
                                "WHERE id = ?1"), 0);
    sqlite3_bind_int64(st, 1, id);
    assert_int_equal(sqlite3_step(st), SQLITE_ROW);
    assert_int_equal(db_column_decompress(st, 0, 0, &text), 0);
    assert_int_equal(strlen(text), sqlite3_column_int64(st, 1));
    sqlite3_finalize(st);
    return text;
}

/* What the writer stores, the reader hands back: every field, a reason, ""
 * or none, file scope (-1) and back, quotes, backslashes, TAB, LF and
 * other control bytes; a byte above 0x7f becomes U+FFFD (the column is
 * always valid UTF-8); an entry used again, the same strings guarded or
 * not, lines going back and the extremes of int64_t. */
static void test_findings_written_are_read_back_whole(void **state)
{
    fx *f = *state;
    const db_finding in[8] = {
        {7, 3, "capi", "rule \"x\"", "a\"b\\c\001\377", -1, 0, NULL},
        {12, 1, "npy-legacy", "item", "PyArray_GETITEM", 4, 1, "object \"dtype\""},
        {4000000000LL, 99, "hpy", NULL, NULL, 1234567, 0, NULL},
        {5, 2, "capi", "t\tab", "new\nline\\n\\t\r", 1234567, 2, ""},
        {5, 9, "capi", "rule \"x\"", "a\"b\\c\001\377", -1, 0, NULL},
        {5, 9, "capi", "rule \"x\"", "a\"b\\c\001\377", -1, 1, NULL},
        {INT64_MIN, INT64_MAX, "x", "y", "z", INT64_MIN, 0, "\xc3\xa9"},
        {INT64_MAX, INT64_MIN, "x", "y", "z", INT64_MAX, 0, "\xc3\xa9"},
    };
    got_findings g;
    int64_t id;
    int i;

    memset(&g, 0, sizeof(g));
    id = put_findings(f, "ab", in, 8);
    assert_int_equal(db_findings_each(f->db, id, collect, &g), 0);
    assert_int_equal(g.n, 8);
    for (i = 0; i < 8; i++) {
        assert_int_equal(g.row[i].line, in[i].line);
        assert_int_equal(g.row[i].column, in[i].column);
        assert_int_equal(g.row[i].function, in[i].function);
        assert_int_equal(g.row[i].guarded, in[i].guarded != 0);
        assert_int_equal(g.has_reason[i], in[i].reason != NULL);
    }
    assert_string_equal(g.str[0][0], "capi");
    assert_string_equal(g.str[0][1], "rule \"x\"");
    assert_string_equal(g.str[0][2], "a\"b\\c\001\xef\xbf\xbd");
    assert_string_equal(g.str[1][3], "object \"dtype\"");
    assert_string_equal(g.str[2][1], "");
    assert_string_equal(g.str[2][2], "");
    assert_string_equal(g.str[3][1], "t\tab");
    assert_string_equal(g.str[3][2], "new\nline\\n\\t\r");
    assert_string_equal(g.str[3][3], "");
    assert_string_equal(g.str[4][2], "a\"b\\c\001\xef\xbf\xbd");
    assert_string_equal(g.str[5][2], "a\"b\\c\001\xef\xbf\xbd");
    assert_string_equal(g.str[6][3], "\xef\xbf\xbd\xef\xbf\xbd");
    assert_string_equal(g.str[7][2], "z");
}

/* The stored text, byte for byte (two builds' databases are compared by
 * it; db_findings.h, format F1): the table in order of first use, an entry
 * once however often used (the same strings guarded are another), TAB, LF
 * and backslash escaped, U+FFFD for a byte above 0x7f, a reason only when
 * there is one; lines as differences, a function only when it changes.
 * Entries are told apart by their bytes: the same strings at other
 * addresses (row 4) are the same entry.  A
 * text of nothing but LFs (the longest escape of all but U+FFFD) must fit
 * the room the writer reserves. */
static void test_findings_text_is_exactly_this(void **state)
{
    fx *f = *state;
    char ctl[301], *text, *want, rule[] = "rule \"x\"", again[] = "a\"b\\c\001\377/";
    const db_finding in[5] = {
        {7, 3, "capi", "rule \"x\"", "a\"b\\c\001\377/", -1, 0, NULL},
        {-2, 0, "npy-legacy", "item", ctl, 4, 1, "r\x1f\t"},
        {4000000000LL, 99, "hpy", NULL, NULL, -9223372036854775807LL, 0, NULL},
        {4000000000LL, 100, "capi", rule, again, -9223372036854775807LL, 0, NULL},
        {4000000001LL, 1, "capi", "rule \"x\"", "a\"b\\c\001\377/", 4, 7, NULL},
    };
    size_t i, off;

    memset(ctl, '\n', 300);
    ctl[300] = '\0';
    text = stored_text(f, put_findings(f, "ef", in, 5));
    want = malloc(4096);
    off = (size_t)snprintf(want, 4096, "F1 4 5\n"
                           "0\tcapi\trule \"x\"\ta\"b\\\\c\001\xef\xbf\xbd/\n"
                           "1\tnpy-legacy\titem\t");
    for (i = 0; i < 300; i++)
        off += (size_t)snprintf(want + off, 4096 - off, "\\n");
    snprintf(want + off, 4096 - off, "\tr\x1f\\t\n"
             "0\thpy\t\t\n"
             "1\tcapi\trule \"x\"\ta\"b\\\\c\001\xef\xbf\xbd/\n"
             "7 3 0\n"
             "-9 0 1 4\n"
             "4000000002 99 2 -9223372036854775807\n"
             "0 100 0\n"
             "1 1 3 4\n");
    assert_string_equal(text, want);
    free(want);
    free(text);
}

/* No findings is an empty list, not an error: a header and nothing else. */
static void test_no_findings_is_an_empty_list(void **state)
{
    fx *f = *state;
    got_findings g;
    int64_t id;
    char *text;

    memset(&g, 0, sizeof(g));
    id = put_findings(f, "cd", NULL, 0);
    assert_int_equal(db_findings_each(f->db, id, collect, &g), 0);
    assert_int_equal(g.n, 0);
    text = stored_text(f, id);
    assert_string_equal(text, "F1 0 0\n");
    free(text);
}

/* The same findings read from the JSON the writer wrote before format F1
 * (databases in the field hold it; the text below is that writer's, byte
 * for byte) and from what it writes now are the same rows, string for
 * string: a control byte, TAB and LF (\u escapes in the JSON), a byte
 * above 0x7f (U+FFFD in both), "" and no reason, guarded written as 1. */
static void test_findings_read_as_from_the_json(void **state)
{
    fx *f = *state;
    const db_finding in[4] = {
        {7, 3, "capi", "rule \"x\"", "a\"b\\c\001\377/", -1, 0, NULL},
        {-2, 0, "npy-legacy", "item", "t\tab\nnl\\n", 4, 1, "r\x1f\xc3\xa9"},
        {4000000000LL, 99, "hpy", NULL, NULL, -9223372036854775807LL, 0, NULL},
        {4000000000LL, 100, "capi", "rule \"x\"", "a\"b\\c\001\377/", -9223372036854775807LL,
         5, ""},
    };
    const char *json =
        "[[7,3,\"capi\",\"rule \\\"x\\\"\",\"a\\\"b\\\\c\\u0001\xef\xbf\xbd/\",-1,false],"
        "[-2,0,\"npy-legacy\",\"item\",\"t\\u0009ab\\u000anl\\\\n\",4,true,"
        "\"r\\u001f\xef\xbf\xbd\xef\xbf\xbd\"],"
        "[4000000000,99,\"hpy\",\"\",\"\",-9223372036854775807,false],"
        "[4000000000,100,\"capi\",\"rule \\\"x\\\"\",\"a\\\"b\\\\c\\u0001\xef\xbf\xbd/\","
        "-9223372036854775807,true,\"\"]]";
    got_findings old, now;
    int i, k;

    memset(&old, 0, sizeof(old));
    memset(&now, 0, sizeof(now));
    assert_int_equal(db_findings_each(f->db, put_text(f, "j1", json), collect, &old), 0);
    assert_int_equal(db_findings_each(f->db, put_findings(f, "j2", in, 4), collect, &now), 0);
    assert_int_equal(old.n, 4);
    assert_int_equal(now.n, 4);
    for (i = 0; i < 4; i++) {
        assert_int_equal(now.row[i].line, old.row[i].line);
        assert_int_equal(now.row[i].column, old.row[i].column);
        assert_int_equal(now.row[i].function, old.row[i].function);
        assert_int_equal(now.row[i].guarded, old.row[i].guarded);
        assert_int_equal(now.has_reason[i], old.has_reason[i]);
        for (k = 0; k < 4; k++)
            assert_string_equal(now.str[i][k], old.str[i][k]);
    }
    assert_string_equal(now.str[1][2], "t\tab\nnl\\n");
    assert_string_equal(now.str[1][3], "r\x1f\xef\xbf\xbd\xef\xbf\xbd");
    assert_int_equal(now.row[3].guarded, 1);
}

/* A sound F1 text, written by hand: two entries (the second guarded, with
 * escapes and a reason), three rows (a function carried, then changed). */
#define F1_TABLE "0\tcapi\tr\tPy_X\n1\thpy\tr2\tHPy_\\tY\\\\\twhy\\n\n"
#define F1_ROWS "7 3 0\n0 5 1 2\n-3 1 0 -1\n"
#define F1_GOOD "F1 2 3\n" F1_TABLE F1_ROWS
/* F1_GOOD with its first row `r` (without its LF). */
#define F1_ROW1(r) "F1 2 3\n" F1_TABLE r "\n0 5 1 2\n-3 1 0 -1\n"

/* Findings text in format F1 reads as documented; any text of another
 * shape is damage (PD_EDB), never a shorter list: cut anywhere, counts
 * that do not match, an entry past the table, numbers the writer does not
 * write, escapes it does not write, fields too few or too many. */
static void test_findings_f1_damage_is_an_error(void **state)
{
    static const char *bad[] = {
        "F2 2 3\n" F1_TABLE F1_ROWS,                        /* another version */
        "F1 2 3", "F1 2 3\n", "F1 2 3\n0\tcapi\tr\tPy",      /* cut short */
        "F1 2 3\n" F1_TABLE "7 3 0\n0 5 1 2\n-3 1",
        "F1 2 3\n" F1_TABLE "7 3 0\n0 5 1 2\n-3 1 0 -1",
        "F1 2 4\n" F1_TABLE F1_ROWS, "F1 2 2\n" F1_TABLE F1_ROWS,   /* counts */
        "F1 3 3\n" F1_TABLE F1_ROWS, "F1 1 3\n" F1_TABLE F1_ROWS,
        "F1 -1 3\n" F1_TABLE F1_ROWS, "F1 2 -3\n" F1_TABLE F1_ROWS,
        "F1 999999999 3\n" F1_TABLE F1_ROWS, "F1 2 999999999\n" F1_TABLE F1_ROWS,
        "F1 02 3\n" F1_TABLE F1_ROWS, "F1  2 3\n" F1_TABLE F1_ROWS,
        "F1 2 3 \n" F1_TABLE F1_ROWS, "F1 2 3\r\n" F1_TABLE F1_ROWS,
        F1_GOOD "x", F1_GOOD "\n",                          /* after the rows */
        F1_ROW1("7 3 2"), F1_ROW1("7 3 -1"),                 /* entry past the table */
        F1_ROW1("07 3 0"), F1_ROW1("+7 3 0"), F1_ROW1("-0 3 0"), F1_ROW1("7 3 0x"),
        F1_ROW1("7  3 0"), F1_ROW1("7 3"), F1_ROW1("7 3 0 1 2"), F1_ROW1("7 3 0 "),
        F1_ROW1("7\t3 0"), F1_ROW1(" 7 3 0"), F1_ROW1("7 3 00"), F1_ROW1("7 3 0 -"),
        F1_ROW1("9223372036854775808 3 0"), F1_ROW1("-9223372036854775809 3 0"),
        F1_ROW1("99999999999999999999 3 0"), F1_ROW1(""),
        "F1 2 3\n2\tcapi\tr\tPy_X\n1\thpy\tr2\tY\n" F1_ROWS,  /* guarded not 0 or 1 */
        "F1 2 3\n0capi\tr\tPy_X\n1\thpy\tr2\tY\n" F1_ROWS,
        "F1 2 3\n0\tcapi\tr\n1\thpy\tr2\tY\n" F1_ROWS,       /* fields */
        "F1 2 3\n0\tcapi\n1\thpy\tr2\tY\n" F1_ROWS,
        "F1 2 3\n0\tcapi\tr\tPy_X\twhy\tmore\n1\thpy\tr2\tY\n" F1_ROWS,
        "F1 2 3\n0\tcapi\tr\tPy\\qX\n1\thpy\tr2\tY\n" F1_ROWS,   /* escapes */
        "F1 2 3\n0\tcapi\tr\tPy_X\\\n1\thpy\tr2\tY\n" F1_ROWS,
        "F1 1 0\n0\tcapi\tr\tPy_X\\",
    };
    fx *f = *state;
    got_findings g;
    int64_t id;
    size_t i;

    memset(&g, 0, sizeof(g));
    id = put_text(f, "f1", F1_GOOD);
    assert_int_equal(db_findings_each(f->db, id, collect, &g), 0);
    assert_int_equal(g.n, 3);
    assert_int_equal(g.row[0].line, 7);
    assert_int_equal(g.row[0].column, 3);
    assert_string_equal(g.str[0][0], "capi");
    assert_string_equal(g.str[0][1], "r");
    assert_string_equal(g.str[0][2], "Py_X");
    assert_int_equal(g.row[0].function, -1);
    assert_int_equal(g.row[0].guarded, 0);
    assert_false(g.has_reason[0]);
    assert_int_equal(g.row[1].line, 7);
    assert_int_equal(g.row[1].column, 5);
    assert_string_equal(g.str[1][0], "hpy");
    assert_string_equal(g.str[1][2], "HPy_\tY\\");
    assert_string_equal(g.str[1][3], "why\n");
    assert_int_equal(g.row[1].function, 2);
    assert_int_equal(g.row[1].guarded, 1);
    assert_int_equal(g.row[2].line, 4);
    assert_string_equal(g.str[2][2], "Py_X");
    assert_int_equal(g.row[2].function, -1);
    for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        sqlite3_stmt *st = NULL;
        unsigned char *z = NULL;
        size_t zlen = 0;

        assert_int_equal(db_compress(&z, &zlen, bad[i], strlen(bad[i])), 0);
        assert_int_equal(db_prepare(f->db, &st, "UPDATE analyses SET findings = ?1, "
                                    "findings_len = ?2 WHERE id = ?3"), 0);
        sqlite3_bind_blob(st, 1, z, (int)zlen, SQLITE_STATIC);
        sqlite3_bind_int64(st, 2, (sqlite3_int64)strlen(bad[i]));
        sqlite3_bind_int64(st, 3, id);
        assert_int_equal(db_step(st), 0);
        sqlite3_finalize(st);
        free(z);
        memset(&g, 0, sizeof(g));
        if (db_findings_each(f->db, id, collect, &g) != PD_EDB)
            fail_msg("findings %zu (%s): not PD_EDB", i, bad[i]);
        assert_non_null(strstr(pd_error_last(), "the database is damaged: the findings of "
                               "analysis"));
    }
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
        assert_int_equal(db_compress(&fz, &a.fns_zlen, b.data, b.len), 0);
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

/* Stored bytes that do not decompress: the reader's error names damage. */
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
        cmocka_unit_test_setup_teardown(test_findings_read_as_from_the_json,
                                        fx_setup, fx_teardown),
        cmocka_unit_test_setup_teardown(test_findings_f1_damage_is_an_error,
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
