/*
 * test_tmpl_replay.c: the replay of a template's tokens for its expansion
 * (ingest/analyzer/tmpl_replay.c) gives what lexing the expansion gives:
 *   - token by token, with the lexer's state where it is read
 *     (tmpl_replay_check), on the analyzer's template fixtures, on values
 *     that glue onto the template's text around them (`a -@v@` with v
 *     `>b` is `a ->b`), and on pseudo-random templates of C-ish pieces
 *     and awkward values, in C and in C++;
 *   - analysis by analysis: every template fixture analysed with the
 *     replay (PORTDASH_TMPL_REPLAY=all: its directives applied from
 *     their first instance's reading too) and with
 *     PORTDASH_TMPL_REPLAY=0 gives the same JSON;
 *   - the tokens the replay hands out name their template token
 *     (lex_token.tmpl_tok, by which the analyzer keeps a name's verdict),
 *     whose bytes they have, and the check compares those bytes too;
 *   - and the check itself sees a replay that hands out a wrong token;
 * and tmpl_map_near, which maps the findings back from where the last one
 * was found, maps as a plain scan does.
 */
#include "testutil.h"
#include "testcases.h"

#include "analyzer/analyzer.h"
#include "analyzer/tmpl_replay.h"
#include "report.h"

/* Expand src and check its replay in C and C++ (flags); returns how many
 * tokens were replayed, and fails on the first that differs. */
static size_t check_src(const char *what, const char *src, size_t len)
{
    tmpl_out *t = NULL;
    size_t bad, rep = 0, rep2 = 0;
    int big = 0;

    assert_int_equal(tmpl_expand(&t, &big, src, len), 0);
    if (!t)
        return 0;
    bad = tmpl_replay_check(t, src, len, 0, &rep);
    if (bad)
        fail_msg("%s: the replay differs from the lexer at token %zu", what, bad);
    bad = tmpl_replay_check(t, src, len, LEX_F_CPP, &rep2);
    if (bad)
        fail_msg("%s (C++): the replay differs from the lexer at token %zu", what, bad);
    tmpl_free(t);
    return rep;
}

/* The analyzer's template fixtures, token by token. */
static void test_fixtures_tokens(void **state)
{
    const char *files[] = {
        "tests/fixtures/analyze/template.c.src",
        "tests/fixtures/analyze/nested.c.src",
        "tests/fixtures/analyze/fuzz_end_above_start.c.src",
        "tests/fixtures/analyze/cases/tmpl_constructs.c.src",
        "tests/fixtures/analyze/cases/tmpl_derive.c.src",
        "tests/fixtures/analyze/cases/tmpl_inner_header.c.src",
        "tests/fixtures/analyze/cases/tmpl_replay.c.src",
        "tests/fixtures/analyze/cases/tmpl_directives.c.src",
    };
    size_t i, len, rep = 0;

    (void)state;
    for (i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
        char *src = tc_slurp(files[i], &len);

        if (!src)
            fail_msg("cannot read %s", files[i]);
        rep += check_src(files[i], src, len);
        free(src);
    }
    assert_true(rep > 100);           /* the replay did replay */
}

/* Replayed tokens name the template token they are, with its bytes;
 * lexed ones (values, glued identifiers) name none. */
static void test_template_token_named(void **state)
{
    static const char src[] =
        "/**begin repeat\n * #v = int, long, double#\n */\n"
        "static @v@ f_@v@(PyObject *o) { return PyLong_AsLong(o) + g_@v@; }\n"
        "/**end repeat**/\n";
    tmpl_out *t = NULL;
    tmpl_replay r;
    lex_state lx;
    lex_token k;
    size_t named = 0, lexed = 0;
    int big = 0;

    (void)state;
    assert_int_equal(tmpl_expand(&t, &big, src, sizeof(src) - 1), 0);
    assert_non_null(t);
    assert_int_equal(tmpl_replay_init(&r, t, src, sizeof(src) - 1, 0), 0);
    lex_init(&lx, t->text, t->len, 0);
    r.next_p = NULL;
    do {
        tmpl_replay_next(&r, &lx, &k);
        if (k.kind != LEX_IDENT)
            continue;
        if (!k.tmpl_tok) {
            lexed++;
            continue;
        }
        named++;
        assert_true(k.tmpl_tok <= r.ntok);
        assert_int_equal(r.tok[k.tmpl_tok - 1].t.len, k.len);
        assert_memory_equal(src + r.tok[k.tmpl_tok - 1].start, k.start, k.len);
    } while (k.kind != LEX_EOF);
    /* static, PyObject, o, return, PyLong_AsLong, o: 6 an instance, the
     * first one's lexed until the replay syncs */
    assert_true(named >= 12);
    assert_true(lexed >= 6);          /* @v@, f_@v@, g_@v@ */
    tmpl_replay_free(&r);
    tmpl_free(t);
}

/* Values that make one token of the expansion out of the template's text
 * and the value, or split one: what the replay reads past a token. */
static void test_glue(void **state)
{
    static const char *const bodies[] = {
        "x = a -@v@ b;\n", "x = a @v@- b;\n", "x = a @v@= b;\n",
        "x = a <@v@ b;\n", "x = a %@v@ b;\n", "x = a :@v@ b;\n",
        "x = a ?@v@ b;\n", "x = a /@v@ b;\n", "x = a .@v@ b;\n",
        "x = a #@v@ b;\n", "x = 1@v@ + 2;\n", "x = 0x1@v@;\n",
        "x = id@v@ + 2;\n", "x = @v@id + 2;\n", "x = (@v@) + 2;\n",
        "x = \"s@v@\" \"@v@t\";\n", "x = 'c@v@';\n", "x = @v@@v@;\n",
        "x = a\\@v@\nb;\n", "/* @v@ */ x /* a\n@v@ */ = 1; // @v@\n",
        "#define M(a) \\\n  ((a) @v@ 1)\nint y;\n", "#if @v@\nint z;\n#endif\n",
        "  #  @v@ line\n", "x = R@v@;\n", "x = u8@v@;\n", "x = a @v@\n",
        /* a body that ends in a backslash: the newline after an instance
         * makes it a continuation into the next one */
        "x = @v@ + a\\", "x = @v@ + 1\\", "x = @v@ -\\",
    };
    static const char *const vals[] = {
        ">b", "-", "=", ":", "%", ">", "?", "*", "/", "/c", "*/", "5", ".5",
        "e+3", "'", "\"", "\\", "x y", "unsigned char", "int *", "1",
        "(\"raw\")", "%:", "<:", "\"str\"", "@w@", "a@b", "_9", "9_",
    };
    char src[512];
    size_t i, j;
    int n;

    (void)state;
    for (i = 0; i < sizeof(bodies) / sizeof(bodies[0]); i++)
        for (j = 0; j < sizeof(vals) / sizeof(vals[0]); j++) {
            n = snprintf(src, sizeof(src),
                         "int before;\n/**begin repeat\n * #v = %s, plain#\n */\n"
                         "%s/**end repeat**/\nint after;\n", vals[j], bodies[i]);
            assert_true(n > 0 && (size_t)n < sizeof(src));
            check_src(src, src, (size_t)n);
        }
}

/* A small deterministic generator (xorshift). */
static uint32_t rnd_next(uint32_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 17;
    *s ^= *s << 5;
    return *s;
}

/* Pseudo-random templates: two nested loops over C-ish pieces and
 * placeholders, their values picked from awkward ones. */
static void test_random(void **state)
{
    static const char *const pieces[] = {
        "a", "b1", "npy_", "_x", " ", "  ", "\n", "\t", "->", "-", "+", "=",
        "==", ".", "...", "5", "0x1f", "1e", "+3", "'c'", "\"s\"", "\"u\n",
        "/*c*/", "/* a\n b */", "//c\n", "/*", "*/", "\\\n", "\\", "#", "##",
        "\n#define M(x) ", "\n#if 1\n", "\n#endif\n", "\n#", "<:", ":>", "<%",
        "%:", "?\?=", "??", "$", "@", "{", "}", "(", ")", ";", ",", "<", "<<",
        ">", "%", ":", "::", "?", "R\"(", ")\"", "@a@", "@b@", "@c@", "@a@@b@",
        "x@c@y", "@zz@",
    };
    static const char *const vals[] = {
        "int", "npy_float", "unsigned char", "1", "2.5", "-", ">", "*", "(",
        ")", "/", "\\", "'", "\"", "x y", "_", "9", ".", "e", "/*", "*/", "//",
        ":", "%", "?", "<", "@",
    };
    uint32_t seed = 2026;
    char src[4096];
    size_t it, i, n, rep = 0;

    (void)state;
    for (it = 0; it < 400; it++) {
        size_t pos = 0;

#define PUT(s) do { const char *s_ = (s); size_t l_ = strlen(s_); \
                    assert_true(pos + l_ < sizeof(src)); \
                    memcpy(src + pos, s_, l_); pos += l_; } while (0)
        PUT("int head;\n/**begin repeat\n * #a = ");
        for (i = 0; i < 3; i++) {
            if (i)
                PUT(", ");
            PUT(vals[rnd_next(&seed) % (sizeof(vals) / sizeof(vals[0]))]);
        }
        PUT("#\n * #b = ");
        for (i = 0; i < 3; i++) {
            if (i)
                PUT(", ");
            PUT(vals[rnd_next(&seed) % (sizeof(vals) / sizeof(vals[0]))]);
        }
        PUT("#\n */\n");
        for (n = rnd_next(&seed) % 40; n > 0; n--)
            PUT(pieces[rnd_next(&seed) % (sizeof(pieces) / sizeof(pieces[0]))]);
        PUT("\n/**begin repeat1\n * #c = x, ");
        PUT(vals[rnd_next(&seed) % (sizeof(vals) / sizeof(vals[0]))]);
        PUT("#\n */\n");
        for (n = rnd_next(&seed) % 40; n > 0; n--)
            PUT(pieces[rnd_next(&seed) % (sizeof(pieces) / sizeof(pieces[0]))]);
        PUT("\n/**end repeat1**/\n");
        for (n = rnd_next(&seed) % 20; n > 0; n--)
            PUT(pieces[rnd_next(&seed) % (sizeof(pieces) / sizeof(pieces[0]))]);
        PUT("\n/**end repeat**/\nint tail;\n");
#undef PUT
        rep += check_src("random template", src, pos);
    }
    assert_true(rep > 1000);
}

/* The check sees a wrong replay: with every token allowed to read past
 * its segment, `a -@v@` with v `>b` hands out '-' where the lexer reads
 * `->`. */
static void test_check_sees_wrong(void **state)
{
    static const char src[] =
        "/**begin repeat\n * #v = >b, c#\n */\nx = a -@v@;\n/**end repeat**/\n";
    tmpl_out *t = NULL;
    tmpl_replay r;
    lex_state lx, plain;
    lex_token a, b;
    size_t i;
    int big = 0, differs = 0;

    (void)state;
    assert_int_equal(tmpl_expand(&t, &big, src, sizeof(src) - 1), 0);
    assert_non_null(t);
    assert_int_equal(tmpl_replay_check(t, src, sizeof(src) - 1, 0, NULL), 0);
    assert_int_equal(tmpl_replay_init(&r, t, src, sizeof(src) - 1, 0), 0);
    for (i = 0; i < r.ntok; i++)
        if (r.tok[i].lim != UINT32_MAX)
            r.tok[i].lim = r.tok[i].start + (uint32_t)r.tok[i].t.len;
    lex_init(&lx, t->text, t->len, 0);
    lex_init(&plain, t->text, t->len, 0);
    do {
        tmpl_replay_next(&r, &lx, &b);
        lex_next(&plain, &a);
        differs |= a.len != b.len || a.start != b.start;
    } while (a.kind != LEX_EOF && !differs);
    assert_true(differs);
    tmpl_replay_free(&r);
    tmpl_free(t);
}

/* tmpl_map_near, its hint carried from any position to any other, maps
 * as a linear scan of the segments and lines does. */
static void test_map_near(void **state)
{
    size_t len, i, k, n = 0;
    char *src = tc_slurp("tests/fixtures/analyze/cases/tmpl_replay.c.src", &len);
    tmpl_out *t = NULL;
    tmpl_near near = {0, 0};
    uint32_t seed = 7;
    int big = 0;

    (void)state;
    assert_non_null(src);
    assert_int_equal(tmpl_expand(&t, &big, src, len), 0);
    assert_non_null(t);
    for (i = 0; i < 3000; i++) {
        uint32_t line = 1 + rnd_next(&seed) % (uint32_t)t->nexp_lines;
        uint32_t col = 1 + rnd_next(&seed) % 9, ol, oc;
        size_t off, src_off, l = 0;

        if (i % 3)                      /* runs of near positions too */
            line = 1 + (uint32_t)(n++ % t->nexp_lines);
        off = t->exp_lines[line - 1] + col - 1;
        for (k = 0; k + 1 < t->nsegs && t->segs[k + 1].exp_off <= off; k++)
            ;
        src_off = t->segs[k].src_off;
        if (!t->segs[k].subst)
            src_off += off - t->segs[k].exp_off < t->segs[k].len
                       ? off - t->segs[k].exp_off : t->segs[k].len - 1;
        while (l + 1 < t->nsrc_lines && t->src_lines[l + 1] <= src_off)
            l++;
        tmpl_map_near(t, &near, line, col, &ol, &oc);
        assert_int_equal(ol, l + 1);
        assert_int_equal(oc, src_off - t->src_lines[l] + 1);
    }
    tmpl_free(t);
    free(src);
}

/* The replay is used where a template's bodies are in its expansion six
 * times or more on average: lexing them once for it costs about four. */
static void test_pays(void **state)
{
    static const char two[] =
        "int a;\n/**begin repeat\n * #t = x, y#\n */\nint f_@t@(void) { return 0; }\n"
        "/**end repeat**/\n";
    static const char ten[] =
        "int a;\n/**begin repeat\n * #t = a, b, c, d, e, f, g, h, i, j#\n */\n"
        "int f_@t@(void) { return 0; }\n/**end repeat**/\n";
    tmpl_out *t = NULL;
    int big = 0;

    (void)state;
    assert_int_equal(tmpl_expand(&t, &big, two, sizeof(two) - 1), 0);
    assert_non_null(t);
    assert_int_equal(t->nbodies, 1);
    assert_false(tmpl_replay_pays(t, sizeof(two) - 1));
    tmpl_free(t);
    assert_int_equal(tmpl_expand(&t, &big, ten, sizeof(ten) - 1), 0);
    assert_non_null(t);
    assert_true(tmpl_replay_pays(t, sizeof(ten) - 1));
    tmpl_free(t);
}

/* JSON of one analysis. */
static char *analyse_json(const char *name, const char *src, size_t len, const rules *r)
{
    an_result *res = NULL;
    report_file rf = {0};
    report_fail none = {0, 0};
    char *out = NULL;
    size_t olen = 0;
    FILE *f;

    assert_int_equal(an_analyze(&res, r, name, src, len), 0);
    f = open_memstream(&out, &olen);
    assert_non_null(f);
    rf.path = name;
    rf.res = res;
    assert_int_equal(report_write(f, "json", &rf, 1, &none), 0);
    fclose(f);
    an_result_free(res);
    return out;
}

/* Every template fixture analysed with the replay and without. */
static void test_analysis_same(void **state)
{
    const char *files[] = {
        "tests/fixtures/analyze/template.c.src",
        "tests/fixtures/analyze/nested.c.src",
        "tests/fixtures/analyze/fuzz_end_above_start.c.src",
        "tests/fixtures/analyze/cases/tmpl_constructs.c.src",
        "tests/fixtures/analyze/cases/tmpl_derive.c.src",
        "tests/fixtures/analyze/cases/tmpl_inner_header.c.src",
        "tests/fixtures/analyze/cases/tmpl_replay.c.src",
        "tests/fixtures/analyze/cases/tmpl_directives.c.src",
    };
    rules *r = NULL;
    size_t i, len;

    (void)state;
    assert_int_equal(rules_load_default(&r), 0);
    for (i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
        char *src = tc_slurp(files[i], &len), *on, *off;

        if (!src)
            fail_msg("cannot read %s", files[i]);
        setenv("PORTDASH_TMPL_REPLAY", "all", 1);   /* few instances too */
        on = analyse_json(files[i], src, len, r);
        setenv("PORTDASH_TMPL_REPLAY", "0", 1);
        off = analyse_json(files[i], src, len, r);
        unsetenv("PORTDASH_TMPL_REPLAY");
        if (strcmp(on, off) != 0)
            fail_msg("%s: the analysis differs with PORTDASH_TMPL_REPLAY=0", files[i]);
        free(on);
        free(off);
        free(src);
    }
    rules_free(r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fixtures_tokens),
        cmocka_unit_test(test_glue),
        cmocka_unit_test(test_template_token_named),
        cmocka_unit_test(test_random),
        cmocka_unit_test(test_check_sees_wrong),
        cmocka_unit_test(test_map_near),
        cmocka_unit_test(test_pays),
        cmocka_unit_test(test_analysis_same),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
