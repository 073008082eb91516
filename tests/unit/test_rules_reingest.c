/*
 * test_rules_reingest.c: the rules file's content hash keys every stored
 * analysis (issue 3, item 5): an ingest with changed rules re-analyses
 * every blob on the next run, and only then; the same rules under another
 * file name, or with other comments, blank lines and spacing, re-analyse
 * nothing; another id= is a change.  A database answers under one rules file,
 * so a second repository under other rules is refused, naming the first,
 * and loses nothing (newcomer's report, round 3).  Uses the toyport and
 * gcport fixture repositories.
 */
#include "testutil.h"

#include "ingest.h"
#include "pd_error.h"
#include "analyzer/analyzer.h"

typedef struct {
    char *dir;
    char db[4200], same[4200], changed[4200], relaid[4200], other_id[4200];
} fx;

/* The default rules with comments between and after the lines, tabs and
 * runs of blanks between words, blank lines and CRLF ends. */
static void write_relaid(const char *path)
{
    const char *p = (const char *)rules_default_text;
    const char *end = p + rules_default_text_len, *nl;
    FILE *out = fopen(path, "wb");

    assert_non_null(out);
    fputs("# a new first comment\n\n", out);
    for (; p < end; p = nl + 1) {
        if (!(nl = memchr(p, '\n', (size_t)(end - p))))
            nl = end;
        for (const char *q = p; q < nl; q++)
            fputs(*q == ' ' ? " \t  " : (char[]){*q, 0}, out);
        fputs(nl > p && *p != '#' && !memchr(p, '#', (size_t)(nl - p)) ? "   # note\r\n" : "\n",
              out);
        fputs("\n", out);
    }
    fclose(out);
}

static int fx_setup(void **state)
{
    fx *f = calloc(1, sizeof(*f));
    FILE *out;

    f->dir = tu_tmpdir();
    snprintf(f->db, sizeof(f->db), "%s/t.db", f->dir);
    snprintf(f->same, sizeof(f->same), "%s/same.rules", f->dir);
    snprintf(f->changed, sizeof(f->changed), "%s/changed.rules", f->dir);
    snprintf(f->relaid, sizeof(f->relaid), "%s/relaid.rules", f->dir);
    snprintf(f->other_id, sizeof(f->other_id), "%s/other_id.rules", f->dir);
    write_relaid(f->relaid);
    out = fopen(f->same, "wb");
    fwrite(rules_default_text, 1, rules_default_text_len, out);
    fclose(out);
    out = fopen(f->changed, "wb");
    fwrite(rules_default_text, 1, rules_default_text_len, out);
    fputs("exact npy_bool_conv npy-legacy   # a rule the defaults lack\n", out);
    fclose(out);
    out = fopen(f->other_id, "wb");
    fwrite(rules_default_text, 1, rules_default_text_len, out);
    fputs("exact npy_bool_conv npy-legacy id=bool-conv\n", out);
    fclose(out);
    *state = f;
    return 0;
}

static int fx_teardown(void **state)
{
    fx *f = *state;

    tu_sh("rm -rf '%s'", f->dir);
    free(f->dir);
    free(f);
    return 0;
}

/* Ingest ref(s) of fixture `fixture` as `name` with rules_path (NULL:
 * built-in); 0 or the error. */
static int ingest_as(const fx *f, const char *fixture, const char *name, const char *rules_path,
                     ingest_stats *st)
{
    const char *refs[] = {"hpy", "hpy-convert-object-dtype"};
    ingest_options o = {0};

    o.db_path = f->db;
    o.repo_path = tu_fixture(fixture);
    o.name = name;
    o.refs = refs;
    o.nrefs = strcmp(fixture, "toyport") == 0 ? 2 : 1;
    o.rules_path = rules_path;
    return ingest_run(&o, st);
}

/* Ingest toyport's two refs with rules_path (NULL: built-in); blobs analysed. */
static uint64_t ingest(const fx *f, const char *rules_path)
{
    ingest_stats st;

    if (ingest_as(f, "toyport", "toy", rules_path, &st) != 0)
        fail_msg("ingest: %s", pd_error_last());
    return st.blobs_analysed;
}

static void test_changed_rules_reanalyse_once(void **state)
{
    fx *f = *state;
    uint64_t first = ingest(f, NULL);

    assert_true(first > 0);
    assert_int_equal(ingest(f, NULL), 0);          /* nothing new */
    assert_int_equal(ingest(f, f->same), 0);       /* same text, other file */
    assert_int_equal(ingest(f, f->relaid), 0);     /* other comments and layout */
    assert_int_equal(ingest(f, f->changed), first); /* changed: all again */
    assert_int_equal(ingest(f, f->changed), 0);    /* ... and only once */
    assert_int_equal(ingest(f, f->other_id), first); /* the findings' rule id */
    assert_int_equal(ingest(f, NULL), 0);          /* back: still stored */
}

static void test_other_rules_for_a_second_repository_are_refused(void **state)
{
    fx *f = *state;
    ingest_stats st;
    sqlite3 *db;
    sqlite3_stmt *q;

    ingest(f, NULL);
    assert_int_equal(ingest_as(f, "gcport", "gc", f->changed, &st), PD_EINVAL);
    assert_non_null(strstr(pd_error_last(), "its repositories toy;"));
    assert_non_null(strstr(pd_error_last(), "changed.rules"));
    /* refused before anything was written: no repository "gc", and toy
     * still answers under its rules */
    assert_int_equal(sqlite3_open(f->db, &db), SQLITE_OK);
    assert_int_equal(sqlite3_prepare_v2(db, "SELECT count(*) FROM repos WHERE name = 'gc'",
                                        -1, &q, NULL), SQLITE_OK);
    assert_int_equal(sqlite3_step(q), SQLITE_ROW);
    assert_int_equal(sqlite3_column_int(q, 0), 0);
    sqlite3_finalize(q);
    sqlite3_close(db);
    /* the same rules under another name are the same rules */
    assert_int_equal(ingest_as(f, "gcport", "gc", f->same, &st), 0);
    /* and now neither repository may move to other rules alone */
    assert_int_equal(ingest_as(f, "toyport", "toy", f->changed, &st), PD_EINVAL);
    assert_non_null(strstr(pd_error_last(), "its repositories gc;"));
}

/* A database an older portdash wrote recorded the rules by the hash of
 * their text as read (rules_hash_raw): the same rules still, so a second
 * repository is no reason to refuse them, and no "rules changed". */
static void test_rules_recorded_by_an_older_hash_are_the_same(void **state)
{
    fx *f = *state;
    ingest_stats st;
    rules *r = NULL;
    char raw[41];

    ingest(f, NULL);
    assert_int_equal(ingest_as(f, "gcport", "gc", NULL, &st), 0);
    assert_int_equal(rules_load_default(&r), 0);
    rules_hash_raw(r, raw);
    assert_string_not_equal(raw, rules_hash(r));
    assert_int_equal(tu_sh("sqlite3 '%s' \"UPDATE meta SET value = '%s default.rules (built in)' "
                           "WHERE key = 'rules_file'\"", f->db, raw), 0);
    rules_free(r);
    assert_int_equal(ingest_as(f, "toyport", "toy", NULL, &st), 0);
    assert_int_equal(st.rules_changed, 0);
    /* another rules file is still refused */
    assert_int_equal(ingest_as(f, "toyport", "toy", f->changed, &st), PD_EINVAL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_changed_rules_reanalyse_once,
                                        fx_setup, fx_teardown),
        cmocka_unit_test_setup_teardown(test_other_rules_for_a_second_repository_are_refused,
                                        fx_setup, fx_teardown),
        cmocka_unit_test_setup_teardown(test_rules_recorded_by_an_older_hash_are_the_same,
                                        fx_setup, fx_teardown),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
