/*
 * test_escape.c: repository text in the documents others open (issue 27):
 * a path holding CR added a heading and a link to the weekly report, and
 * U+202E stayed live.  The escaping of each output kind (pd_escape.h) on
 * cases, then the weekly report, the gate's PR comment and the CSV export
 * of a repository built here whose paths hold CR, LF, U+202E and a
 * formula.
 */
#include "testutil.h"

#include "db.h"
#include "db_snapshot.h"
#include "gate.h"
#include "ingest.h"
#include "pd_escape.h"

static tu_site g_site;

/* What `fn` writes for s (and in_table where it takes one); caller frees. */
static char *esc(int kind, const char *s)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);

    assert_non_null(f);
    switch (kind) {
    case 0: pd_esc_visible(f, s); break;
    case 1: pd_esc_md_text(f, s); break;
    case 2: pd_esc_md_code(f, s, 0); break;
    case 3: pd_esc_md_code(f, s, 1); break;
    case 4: pd_esc_csv(f, s); break;
    default: pd_esc_xml(f, s); break;
    }
    fclose(f);
    return buf;
}

static void test_each_kind_on_cases(void **state)
{
    static const struct {
        int kind;
        const char *in, *out;
    } cases[] = {
        {0, "a\rb\nc\td", "a<U+000D>b<U+000A>c<U+0009>d"},
        {0, "abc\u202Efed.c", "abc<U+202E>fed.c"},
        {0, "\u2066x\u2069\u200Fy\uFEFF", "<U+2066>x<U+2069><U+200F>y<U+FEFF>"},
        {0, "\u2028\u2029\x7F\xC2\x85", "<U+2028><U+2029><U+007F><U+0085>"},
        {0, "bad\xFF\xC0\xAF.c", "bad\\xFF\\xC0\\xAF.c"},
        {0, "ünïcode ok", "ünïcode ok"},
        {1, "x\r# Heading", "x<U+000D>\\# Heading"},
        {1, "<a href=\"https://evil.example\">Session expired</a>",
         "\\<a href\\=\\\"https\\:\\/\\/evil\\.example\\\"\\>Session expired\\<\\/a\\>"},
        {1, "*b* _i_ [l](u) `c` | &amp; ![i](x)",
         "\\*b\\* \\_i\\_ \\[l\\]\\(u\\) \\`c\\` \\| \\&amp\\; \\!\\[i\\]\\(x\\)"},
        {2, "src/a.c", "`src/a.c`"},
        {2, "a`b``c", "```a`b``c```"},
        {2, "`x", "`` `x ``"},
        {2, "x\r\n# h<b>", "`x<U+000D><U+000A># h<b>`"},
        {2, "", "`  `"},
        {3, "a|b", "`a\\|b`"},
        {4, "src/a.c", "\"src/a.c\""},
        {4, "say \"hi\"", "\"say \"\"hi\"\"\""},
        {4, "=HYPERLINK(\"x\")", "\"'=HYPERLINK(\"\"x\"\")\""},
        {4, "+1", "\"'+1\""}, {4, "-2", "\"'-2\""}, {4, "@SUM(A1)", "\"'@SUM(A1)\""},
        {4, "\t=1", "\"<U+0009>=1\""},
        {4, "a\r\nb", "\"a<U+000D><U+000A>b\""},
        /* XML: a scope name or a percentage "<1%" in an SVG badge */
        {5, "<1% ported", "&lt;1% ported"},
        {5, "a&b \"q\" 'a' <x/>", "a&amp;b &quot;q&quot; &apos;a&apos; &lt;x/&gt;"},
        {5, "x\r\u202Ey", "x&lt;U+000D&gt;&lt;U+202E&gt;y"},
        {5, "bad\xFF", "bad\\xFF"},
    };
    size_t i;

    for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        char *got = esc(cases[i].kind, cases[i].in);

        if (strcmp(got, cases[i].out) != 0)
            fail_msg("case %zu: got '%s', want '%s'", i, got, cases[i].out);
        free(got);
    }
}

/* The gate's comment on a verdict naming hostile paths and a policy rule. */
static void test_gate_comment_escapes_repository_text(void **state)
{
    json_t *res = json_pack("{s:s, s:s, s:s, s:[{s:s, s:s, s:i, s:i, s:b}], "
                            "s:[{s:s, s:s, s:{s:s}, s:{s:s}, s:[s]}], s:[s]}",
        "result", "fail", "base", "0123456789abcdef", "head", "fedcba9876543210",
        "conditions", "measure", "fn|x", "rule", "no <b>new</b>\r# legacy", "base", 1,
        "head", 2, "ok", 0,
        "regressions", "path", "src/x\r# Session expired\r<a href=\"https://evil.example\">"
        "log in</a>.c", "name", "f\u202Eoof", "from", "status", "ported", "to", "status",
        "legacy", "reasons", "now calls the C API",
        "files_no_longer_universal_ready", "src/\u2066y.c\n- [z](https://evil.example)");
    char *md = gate_markdown(res), *line;
    int lines = 0;

    assert_non_null(md);
    assert_null(strstr(md, "\r"));
    assert_null(strstr(md, "\u202E"));
    assert_null(strstr(md, "\u2066"));
    assert_non_null(strstr(md, "`src/x<U+000D># Session expired<U+000D><a href="));
    assert_non_null(strstr(md, "`f<U+202E>oof`"));
    /* the rule in its own cell, the measure as code beside its totals */
    assert_non_null(strstr(md, "| no \\<b\\>new\\<\\/b\\><U+000D>\\# legacy | "));
    assert_non_null(strstr(md, "`fn\\|x` 1 | 2 |"));
    assert_non_null(strstr(md, "`src/<U+2066>y.c<U+000A>- [z](https://evil.example)`"));
    /* no line of the comment starts with repository text */
    for (line = md; line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
        assert_false(strncmp(line, "# ", 2) == 0 || strncmp(line, "<a", 2) == 0 ||
                     strncmp(line, "- [z]", 5) == 0);
        lines++;
    }
    assert_true(lines > 5);
    free(md);
    json_decref(res);
}

/* A repository whose second commit adds files named with CR, U+202E and a
 * formula; ingested as "evil", snapshots in weeks 1 and 2 of 2021. */
static int make_site(void)
{
    ingest_options o = {0};
    sqlite3 *db = NULL;
    int64_t repo_id, c1, c2;
    char oid[41], rules[64], *first;
    int rc;

    tu_site_init(&g_site, "escape.db");
    if (tu_sh("set -e; cd '%s'; git init -q -b main w; cd w; git config user.name t; "
              "git config user.email t@example.org; git config commit.gpgsign false; "
              "mkdir src; printf 'PyObject *f(PyObject *o) { Py_INCREF(o); return o; }\\n' "
              "> src/a.c; git add -A; GIT_AUTHOR_DATE=2021-01-05T10:00:00Z "
              "GIT_COMMITTER_DATE=2021-01-05T10:00:00Z git commit -qm one; "
              "p=$(printf 'src/x\\r# Session expired\\r<a href=\"https://evil.example\">"
              "click</a>\\342\\200\\256c.c'); "
              "mkdir -p \"$(dirname \"$p\")\"; "
              "printf 'HPy g(HPyContext *ctx, HPy h) { return HPy_Dup(ctx, h); }\\n' > \"$p\"; "
              "printf 'HPy k(HPyContext *ctx, HPy h) { return HPy_Dup(ctx, h); }\\n' > "
              "'=HYPERLINK(1).c'; git add -A; GIT_AUTHOR_DATE=2021-01-12T10:00:00Z "
              "GIT_COMMITTER_DATE=2021-01-12T10:00:00Z "
              "git commit -qm \"$(printf 'two\\r# not a heading')\"; "
              "cd ..; git clone -q --bare w r.git", g_site.dir) != 0)
        return -1;
    {
        static char repo[4200];
        const char *refs[] = {"main"};

        snprintf(repo, sizeof(repo), "%s/r.git", g_site.dir);
        o.db_path = g_site.db;
        o.repo_path = repo;
        o.name = "evil";
        o.refs = refs;
        o.nrefs = 1;
        if (ingest_run(&o, NULL) < 0) {
            fprintf(stderr, "ingest: %s\n", pd_error_last());
            return -1;
        }
    }
    first = tu_sh_out("git --git-dir='%s/r.git' rev-parse main~1", g_site.dir);
    first[strcspn(first, "\n")] = '\0';
    rc = db_open(&db, g_site.db, 0) < 0 || db_repo_find(db, "evil", &repo_id, NULL, 0) < 0 ||
         db_rev_resolve(db, repo_id, first, &c1, oid) < 0 ||
         db_rev_resolve(db, repo_id, "main", &c2, oid) < 0 ||
         db_meta_get(db, "rules_hash", rules, sizeof(rules)) < 0 ||
         db_snapshot_take(db, repo_id, "main", c1, "2021-W01", 1610000000, "live", rules) < 0 ||
         db_snapshot_take(db, repo_id, "main", c2, "2021-W02", 1610600000, "live", rules) < 0;
    if (rc)
        fprintf(stderr, "snapshots: %s\n", pd_error_last());
    db_close(db);
    free(first);
    return rc || tu_site_serve(&g_site, NULL) < 0 ? -1 : 0;
}

static int setup(void **state)
{
    return make_site();
}

static int teardown(void **state)
{
    tu_site_free(&g_site);
    return 0;
}

/* GET `path` as text; caller frees. */
static char *text(const char *path, const char *type)
{
    char url[512];
    tu_http h;
    char *body;

    snprintf(url, sizeof(url), "%s%s", g_site.base, path);
    h = tu_request("GET", url);
    if (h.status != 200)
        fail_msg("GET %s: %ld %s", path, h.status, h.body);
    assert_string_equal(tu_header(&h, "Content-Type"), type);
    body = strdup(h.body);
    tu_http_free(&h);
    return body;
}

static void test_weekly_report_shows_a_cr_path_on_one_line(void **state)
{
    char *md = text("/api/v1/repos/evil/snapshots/2021-W02/report.md",
                    "text/markdown; charset=utf-8");
    const char *line;

    if (getenv("SHOW"))
        fprintf(stderr, "%s\n", md);
    assert_null(strchr(md, '\r'));
    assert_null(strstr(md, "\u202E"));
    /* git keeps no empty directory name: "https://" is "https:/" */
    assert_non_null(strstr(md, "- `src/x<U+000D># Session expired<U+000D><a href=\""
                               "https:/evil.example\">click</a><U+202E>c.c`\n"));
    assert_non_null(strstr(md, "two<U+000D>\\# not a heading"));
    for (line = md; line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL)
        if (strncmp(line, "# Session", 9) == 0 || strncmp(line, "<a ", 3) == 0 ||
            strncmp(line, "# not a heading", 15) == 0)
            fail_msg("a line of the report is repository text: %.60s", line);
    free(md);
}

static void test_csv_export_defuses_formulas_and_shows_controls(void **state)
{
    char *csv = text("/api/v1/repos/evil/commits/main/files.csv", "text/csv; charset=utf-8");

    if (getenv("SHOW"))
        fprintf(stderr, "%s\n", csv);
    assert_non_null(strstr(csv, "\"'=HYPERLINK(1).c\""));
    assert_non_null(strstr(csv, "\"src/x<U+000D># Session expired<U+000D><a href=\"\""
                                "https:/evil.example\"\">click</a><U+202E>c.c\""));
    /* rows end in CRLF (RFC 4180); a CR of a path is never raw */
    assert_null(strstr(csv, "src/x\r"));
    free(csv);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_each_kind_on_cases),
        cmocka_unit_test(test_gate_comment_escapes_repository_text),
        cmocka_unit_test(test_weekly_report_shows_a_cr_path_on_one_line),
        cmocka_unit_test(test_csv_export_defuses_formulas_and_shows_controls),
    };

    return cmocka_run_group_tests(tests, setup, teardown);
}
