/*
 * test_gate_any.c: the API gate of revisions the database does not hold
 * (issue 14.1).  Only `hpy` of the toyport fixture is ingested; its branch
 * hpy-convert-object-dtype and any commit id are gated through the API all
 * the same, ingested once without a ref, with the verdict `portdash gate`
 * gives from git.  POST .../ingest with {"refs": [...]} adds a branch.
 */
#include "testutil.h"

#include "db.h"
#include "db_token.h"
#include "gate.h"
#include "gate_git.h"
#include "pd_error.h"
#include "analyzer/analyzer.h"

#define OTHER "hpy-convert-object-dtype"

static tu_site g_site;
static char g_tok[DB_TOKEN_LEN + 1];

static int setup(void **state)
{
    sqlite3 *db = NULL;
    int rc;

    tu_site_init(&g_site, "gate.db");
    if (tu_site_ingest(&g_site, "toyport", "demo", "hpy") < 0)
        return -1;
    rc = db_open(&db, g_site.db, 0) < 0 || db_token_create(db, g_tok, "bot", "ingest") < 0;
    db_close(db);
    return rc || tu_site_serve(&g_site, NULL) < 0 ? -1 : 0;
}

static int teardown(void **state)
{
    tu_site_free(&g_site);
    return 0;
}

static json_t *gate_api(const char *base, const char *head, long status)
{
    char url[512];

    snprintf(url, sizeof(url), "%s/api/v1/repos/demo/gate?base=%s&head=%s", g_site.base,
             base, head);
    return tu_get_json(url, status);
}

/* The stored refs of demo, joined by spaces. */
static char *stored_refs(void)
{
    return tu_sh_out("sqlite3 '%s' \"SELECT group_concat(name, ' ') FROM (SELECT name "
                     "FROM refs ORDER BY name)\"", g_site.db);
}

/* The verdict `portdash gate` gives from git, for comparison. */
static json_t *gate_from_git(const char *base, const char *head)
{
    gate_policy pol;
    rules *r = NULL;
    json_t *res = NULL;

    gate_policy_default(&pol);
    assert_int_equal(rules_load_default(&r), 0);
    assert_int_equal(gate_git_run(&res, tu_fixture("toyport"), base, head, &pol, r, NULL), 0);
    rules_free(r);
    return res;
}

static void test_an_unstored_branch_is_gated_and_ingested_once(void **state)
{
    json_t *back = gate_api(OTHER, "hpy", 200), *git = gate_from_git(OTHER, "hpy"), *again, *fw;
    char *refs;

    assert_string_equal(json_string_value(json_object_get(back, "result")), "fail");
    assert_string_equal(json_string_value(json_array_get(json_object_get(back, "ingested"),
                                                         0)), "base");
    assert_true(json_equal(json_object_get(back, "conditions"),
                           json_object_get(git, "conditions")));
    assert_true(json_equal(json_object_get(back, "regressions"),
                           json_object_get(git, "regressions")));
    assert_string_equal(json_string_value(json_object_get(back, "base")),
                        json_string_value(json_object_get(git, "base")));
    /* stored now: the next gate ingests nothing; no ref was added */
    fw = gate_api("hpy", OTHER, 200);
    assert_string_equal(json_string_value(json_object_get(fw, "result")), "pass");
    assert_int_equal(json_array_size(json_object_get(fw, "ingested")), 0);
    again = gate_api(OTHER, "hpy", 200);
    assert_int_equal(json_array_size(json_object_get(again, "ingested")), 0);
    refs = stored_refs();
    assert_string_equal(refs, "hpy\n");
    free(refs);
    json_decref(back);
    json_decref(git);
    json_decref(again);
    json_decref(fw);
}

static void test_any_commit_id_is_gated(void **state)
{
    char *id = tu_sh_out("git --git-dir='%s' rev-parse " OTHER "~1", tu_fixture("toyport"));
    char *abbrev = tu_sh_out("git --git-dir='%s' rev-parse --short=7 " OTHER "~1",
                             tu_fixture("toyport"));
    json_t *a, *b, *git;

    id[strcspn(id, "\n")] = '\0';
    abbrev[strcspn(abbrev, "\n")] = '\0';
    a = gate_api("hpy", abbrev, 200);
    git = gate_from_git("hpy", id);
    assert_string_equal(json_string_value(json_object_get(a, "head")), id);
    assert_true(json_equal(json_object_get(a, "conditions"),
                           json_object_get(git, "conditions")));
    b = gate_api("hpy", id, 200);
    assert_int_equal(json_array_size(json_object_get(b, "ingested")), 0);
    json_decref(a);
    json_decref(b);
    json_decref(git);
    free(id);
    free(abbrev);
}

static void test_unknown_revisions_are_404(void **state)
{
    json_t *p = gate_api("hpy", "no-such-branch", 404);

    assert_non_null(strstr(json_string_value(json_object_get(p, "detail")),
                           "unknown revision 'no-such-branch'"));
    json_decref(p);
    /* An option, or revision syntax that searches history (":/text",
     * "@{...}"), is not a revision at all: 400 naming the rule (pd_rev.h;
     * the cases are in tests/fixtures/revisions/cases.txt). */
    p = gate_api("hpy", "--output=x", 400);
    json_decref(p);
    p = gate_api("hpy", ":/Port", 400);
    json_decref(p);
    p = gate_api("hpy", "hpy@%7B1%7D", 400);
    assert_non_null(strstr(json_string_value(json_object_get(p, "detail")), "'@{'"));
    json_decref(p);
    p = gate_api("hpy", "0000000000000000000000000000000000000000", 404);
    json_decref(p);
}

/* POST .../ingest {"refs": [...]}: 202 with Location to the job. */
static tu_http ingest(const char *body)
{
    char url[256], auth[128];
    const char *hdrs[] = {auth, "Content-Type: application/json", NULL};

    snprintf(url, sizeof(url), "%s/api/v1/repos/demo/ingest", g_site.base);
    snprintf(auth, sizeof(auth), "Authorization: Bearer %s", g_tok);
    return tu_post(url, hdrs, body, body ? strlen(body) : 0);
}

static void test_ingest_adds_a_new_ref_with_a_job_location(void **state)
{
    char url[512], *refs;
    tu_http h = ingest("{\"refs\": [\"" OTHER "\"]}");
    const char *loc = tu_header(&h, "Location");
    json_t *doc = json_loads(h.body, 0, NULL), *job = NULL;
    int i;

    assert_int_equal(h.status, 202);
    assert_non_null(loc);
    assert_string_equal(loc, json_string_value(json_object_get(doc, "url")));
    snprintf(url, sizeof(url), "%s%s", g_site.base, loc);
    for (i = 0; i < 600; i++) {            /* the job is quick; poll, no timing asserted */
        json_decref(job);
        job = tu_get_json(url, 200);
        if (strcmp(json_string_value(json_object_get(job, "state")), "running") != 0)
            break;
        usleep(50000);
    }
    assert_string_equal(json_string_value(json_object_get(job, "state")), "done");
    assert_non_null(json_array_get(json_object_get(job, "refs"), 0));
    refs = stored_refs();
    assert_string_equal(refs, "hpy " OTHER "\n");
    free(refs);
    json_decref(job);
    json_decref(doc);
    tu_http_free(&h);
}

static void test_ingest_refuses_bad_refs(void **state)
{
    static const struct { const char *body; long status; const char *detail; } cases[] = {
        {"{\"refs\": [\"nope\"]}", 404, "no ref 'nope'"},
        {"{\"refs\": \"hpy\"}", 400, "at most 16 refs"},
        {"[1]", 400, "at most 16 refs"},
        {"{\"refs\": [5]}", 400, "refs[0] is not a ref name"},
        {"{\"refs\": [\"--all\"]}", 400, "refs[0] is not a ref name"},
        {"{\"refs\": [\"" OTHER "~1\"]}", 400, "refs[0] is not a ref name: revision '"},
        {"{\"refs\": [\"hpy^{/x}\"]}", 400, "has no '~' or '^'"},
    };

    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        tu_http h = ingest(cases[i].body);

        if (h.status != cases[i].status || !strstr(h.body, cases[i].detail))
            fail_msg("%s: %ld %s; want %ld %s", cases[i].body, h.status, h.body,
                     cases[i].status, cases[i].detail);
        tu_http_free(&h);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_an_unstored_branch_is_gated_and_ingested_once),
        cmocka_unit_test(test_any_commit_id_is_gated),
        cmocka_unit_test(test_unknown_revisions_are_404),
        cmocka_unit_test(test_ingest_adds_a_new_ref_with_a_job_location),
        cmocka_unit_test(test_ingest_refuses_bad_refs),
    };

    return cmocka_run_group_tests(tests, setup, teardown);
}
