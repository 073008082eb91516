/*
 * test_rules_reingest.c: the rules file's content hash keys every stored
 * analysis (issue 3, item 5): an ingest with changed rules re-analyses
 * every blob on the next run, and only then; the same rules under another
 * file name re-analyse nothing.  Uses the toyport fixture repository.
 */
#include "testutil.h"

#include "ingest.h"
#include "pd_error.h"
#include "analyzer/analyzer.h"

typedef struct {
    char *dir;
    char db[4200], same[4200], changed[4200];
} fx;

static int fx_setup(void **state)
{
    fx *f = calloc(1, sizeof(*f));
    FILE *out;

    f->dir = tu_tmpdir();
    snprintf(f->db, sizeof(f->db), "%s/t.db", f->dir);
    snprintf(f->same, sizeof(f->same), "%s/same.rules", f->dir);
    snprintf(f->changed, sizeof(f->changed), "%s/changed.rules", f->dir);
    out = fopen(f->same, "wb");
    fwrite(rules_default_text, 1, rules_default_text_len, out);
    fclose(out);
    out = fopen(f->changed, "wb");
    fwrite(rules_default_text, 1, rules_default_text_len, out);
    fputs("exact npy_bool_conv npy-legacy   # a rule the defaults lack\n", out);
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

/* Ingest toyport's two refs with rules_path (NULL: built-in); blobs analysed. */
static uint64_t ingest(const fx *f, const char *rules_path)
{
    const char *refs[] = {"hpy", "hpy-convert-object-dtype"};
    ingest_options o = {0};
    ingest_stats st;

    o.db_path = f->db;
    o.repo_path = tu_fixture("toyport");
    o.name = "toy";
    o.refs = refs;
    o.nrefs = 2;
    o.rules_path = rules_path;
    if (ingest_run(&o, &st) != 0)
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
    assert_int_equal(ingest(f, f->changed), first); /* changed: all again */
    assert_int_equal(ingest(f, f->changed), 0);    /* ... and only once */
    assert_int_equal(ingest(f, NULL), 0);          /* back: still stored */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_changed_rules_reanalyse_once,
                                        fx_setup, fx_teardown),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
