/*
 * test_domain.c: the domain core (common/pd_domain.c): names and their
 * inverse, the status rule and the universal-ready rule on every
 * combination of classes, the measures table (keys unique, every pd_counts
 * figure reached exactly once, badge progress), a share as the percentage
 * a badge shows and the badge's SVG around it (server/api_badge.c), and the
 * one string hash (common/pd_hash.h) against FNV-1a's published vectors.
 */
#include "testutil.h"

#include "api_badge.h"
#include "pd_domain.h"
#include "pd_hash.h"

static void test_names_round_trip(void **state)
{
    int i;

    for (i = 0; i < PD_CLASS_COUNT; i++)
        assert_int_equal(pd_class_parse(pd_class_name(i)), i);
    for (i = 0; i < PD_STATUS_COUNT; i++)
        assert_int_equal(pd_status_parse(pd_status_name(i)), i);
    for (i = 0; i < PD_OBJ_COUNT; i++)
        assert_int_equal(pd_objstate_parse(pd_objstate_name(i)), i);
    assert_string_equal(pd_class_name(PD_CLASS_NPY_LEGACY), "npy-legacy");
    assert_string_equal(pd_status_name(PD_STATUS_BRIDGED), "bridged");
    assert_string_equal(pd_objstate_name(PD_OBJ_CPYTHON_ONLY), "object-cpython-only");
    assert_null(pd_status_name(PD_STATUS_COUNT));
    assert_null(pd_objstate_name(PD_OBJ_NONE));
    assert_int_equal(pd_status_parse("Ported"), -1);
    assert_int_equal(pd_status_parse(NULL), -1);
}

/* The suffix list the messages name (PD_SRC_SUFFIXES) is pd_path_kind's:
 * each one a source kind, twelve of them as pd_domain.c's table holds
 * (the table is not public: a suffix added there is added here too). */
static void test_source_suffixes_listed(void **state)
{
    char list[] = PD_SRC_SUFFIXES, path[32], *sfx, *save = NULL;
    int n = 0;

    (void)state;
    for (sfx = strtok_r(list, " ", &save); sfx; sfx = strtok_r(NULL, " ", &save), n++) {
        snprintf(path, sizeof(path), "x%s", sfx);
        assert_int_not_equal(pd_path_kind(path), PD_SRC_NONE);
        assert_int_not_equal(pd_path_kind_since(path), 0);
    }
    assert_int_equal(n, 12);
    assert_int_equal(pd_path_kind("x.c.in"), PD_SRC_NONE);
}

/* The status rule of DOMAIN.md written out as a table over the 16 sets of
 * classes (bit order hpy, capi, npy-legacy, bridge). */
static void test_status_rule_every_combination(void **state)
{
    static const pd_status want[16] = {
        /* none */ PD_STATUS_NEUTRAL,
        /* hpy */ PD_STATUS_PORTED,
        /* capi */ PD_STATUS_LEGACY,
        /* hpy capi */ PD_STATUS_BRIDGED,
        /* npy */ PD_STATUS_LEGACY,
        /* hpy npy */ PD_STATUS_PORTED,
        /* capi npy */ PD_STATUS_LEGACY,
        /* hpy capi npy */ PD_STATUS_BRIDGED,
        /* bridge */ PD_STATUS_BRIDGED,
        /* hpy bridge */ PD_STATUS_BRIDGED,
        /* capi bridge */ PD_STATUS_BRIDGED,
        /* hpy capi bridge */ PD_STATUS_BRIDGED,
        /* npy bridge */ PD_STATUS_BRIDGED,
        /* hpy npy bridge */ PD_STATUS_BRIDGED,
        /* capi npy bridge */ PD_STATUS_BRIDGED,
        /* all */ PD_STATUS_BRIDGED,
    };
    unsigned m;

    for (m = 0; m < 16; m++) {
        int64_t n[PD_CLASS_COUNT];
        uint32_t n32[PD_CLASS_COUNT];
        int c;

        for (c = 0; c < PD_CLASS_COUNT; c++)
            n32[c] = (uint32_t)(n[c] = (m >> c) & 1 ? 3 : 0);
        assert_int_equal(pd_classes_present(n), m);
        assert_int_equal(pd_classes_present32(n32), m);
        assert_int_equal(pd_status_rule(m), want[m]);
        /* Ready exactly when neither capi nor bridge is there. */
        assert_int_equal(pd_universal_ready_rule(m), !(m & 2) && !(m & 8));
    }
}

static void test_measures_table(void **state)
{
    /* The first rows keep their places: they are the snapshots CSV columns
     * that readers know by position.  A new measure is a row after them. */
    static const char *const first[] = {
        "files", "universal_ready_files", "functions.ported", "functions.bridged",
        "functions.legacy", "functions.neutral", "object_paths.object-legacy",
        "object_paths.object-cpython-only", "object_paths.object-universal", "tokens.hpy",
        "tokens.capi", "tokens.npy-legacy", "tokens.bridge"};
    pd_counts c, sum;
    int i, j;

    assert_true(PD_NMEASURES >= 13);
    for (i = 0; i < 13; i++)
        assert_string_equal(pd_measures[i].key, first[i]);
    /* Every figure of pd_counts is one measure: setting measure i to i+1
     * fills the struct without overlap, and the sum doubles it. */
    memset(&c, 0, sizeof(c));
    for (i = 0; i < PD_NMEASURES; i++) {
        assert_int_equal(pd_measure_value(&c, i), 0);
        pd_measure_set(&c, i, i + 1);
        for (j = i + 1; j < PD_NMEASURES; j++)
            assert_string_not_equal(pd_measures[i].key, pd_measures[j].key);
        assert_int_equal(pd_measure_find(pd_measures[i].key), i);
    }
    assert_int_equal(sizeof(pd_counts), PD_NMEASURES * sizeof(int64_t));
    assert_int_equal(c.fn[PD_STATUS_LEGACY], pd_measure_find("functions.legacy") + 1);
    assert_int_equal(c.obj[PD_OBJ_UNIVERSAL],
                     pd_measure_find("object_paths.object-universal") + 1);
    assert_int_equal(c.tok[PD_CLASS_CAPI], pd_measure_find("tokens.capi") + 1);
    sum = c;
    pd_counts_add(&sum, &c, 1);
    for (i = 0; i < PD_NMEASURES; i++)
        assert_int_equal(pd_measure_value(&sum, i), 2 * (i + 1));
    pd_counts_add(&sum, &c, -1);
    assert_memory_equal(&sum, &c, sizeof(c));
    assert_int_equal(pd_measure_find("tokens"), -1);
    assert_int_equal(pd_measure_find(NULL), -1);
    assert_null(pd_good_name(pd_measures[pd_measure_find("files")].good));
    assert_string_equal(pd_good_name(pd_measures[pd_measure_find("functions.legacy")].good),
                        "down");
}

/* A file's figures from its facts, each row by its rule: functions counted
 * by status and object state, tokens and readiness from the whole file. */
static void test_counts_of_file(void **state)
{
    pd_fn_facts fn[3];
    pd_file_facts file;
    pd_counts c;

    memset(fn, 0, sizeof(fn));
    memset(&file, 0, sizeof(file));
    fn[0].status = PD_STATUS_LEGACY;
    fn[0].object = PD_OBJ_LEGACY;
    fn[0].tok[PD_CLASS_CAPI] = fn[0].ung[PD_CLASS_CAPI] = 2;
    fn[1].status = PD_STATUS_PORTED;
    fn[1].object = PD_OBJ_NONE;
    fn[1].tok[PD_CLASS_HPY] = fn[1].ung[PD_CLASS_HPY] = 5;
    fn[2].status = PD_STATUS_NEUTRAL;
    fn[2].object = PD_OBJ_NONE;
    fn[2].tok[PD_CLASS_CAPI] = 1;          /* guarded */
    file.tok[PD_CLASS_HPY] = 6;
    file.tok[PD_CLASS_CAPI] = 3;
    file.ung[PD_CLASS_HPY] = 6;
    file.ung[PD_CLASS_CAPI] = 2;
    pd_counts_of_file(&c, &file, fn, 3);
    assert_int_equal(c.files, 1);
    assert_int_equal(c.universal_ready_files, 0);
    assert_int_equal(c.fn[PD_STATUS_LEGACY], 1);
    assert_int_equal(c.fn[PD_STATUS_PORTED], 1);
    assert_int_equal(c.fn[PD_STATUS_NEUTRAL], 1);
    assert_int_equal(c.fn[PD_STATUS_BRIDGED], 0);
    assert_int_equal(c.obj[PD_OBJ_LEGACY], 1);
    assert_int_equal(c.obj[PD_OBJ_UNIVERSAL], 0);
    assert_int_equal(c.tok[PD_CLASS_HPY], 6);
    assert_int_equal(c.tok[PD_CLASS_CAPI], 3);
    /* Without the capi function, what is left unguarded is hpy only. */
    file.ung[PD_CLASS_CAPI] = 0;
    pd_counts_of_file(&c, &file, fn + 1, 2);
    assert_int_equal(c.universal_ready_files, 1);
    assert_int_equal(c.fn[PD_STATUS_LEGACY], 0);
    assert_int_equal(c.obj[PD_OBJ_LEGACY], 0);
}

static void test_badge_progress(void **state)
{
    pd_counts c;

    memset(&c, 0, sizeof(c));
    c.files = 4;
    c.universal_ready_files = 1;
    c.fn[PD_STATUS_PORTED] = 1;
    c.fn[PD_STATUS_BRIDGED] = 1;
    c.fn[PD_STATUS_LEGACY] = 2;
    c.fn[PD_STATUS_NEUTRAL] = 100;      /* not in the population */
    c.obj[PD_OBJ_LEGACY] = 3;
    c.obj[PD_OBJ_UNIVERSAL] = 1;
    c.tok[PD_CLASS_CAPI] = 5;
    assert_true(pd_measure_progress(&c, pd_measure_find("universal_ready_files")) == 0.25);
    assert_true(pd_measure_progress(&c, pd_measure_find("functions.ported")) == 0.25);
    /* One definition of done per population (issue 23.10): the legacy
     * badge gives the ported share, as the ported badge does, not
     * 1 - legacy / population (0.5 here). */
    assert_true(pd_measure_progress(&c, pd_measure_find("functions.legacy")) == 0.25);
    {
        const char *def = NULL;

        assert_string_equal(pd_measure_done(pd_measure_find("functions.legacy"), &def),
                            "ported");
        assert_non_null(strstr(def, "ported functions"));
        assert_string_equal(pd_measure_done(pd_measure_find("object_paths.object-legacy"),
                                            &def), "universal");
        assert_null(pd_measure_done(pd_measure_find("tokens.capi"), &def));
        assert_null(def);
    }
    assert_true(pd_measure_progress(&c, pd_measure_find("object_paths.object-legacy")) == 0.25);
    assert_true(pd_measure_progress(&c, pd_measure_find("object_paths.object-universal")) == 0.25);
    assert_true(pd_measure_progress(&c, pd_measure_find("tokens.capi")) == -1);
    c.tok[PD_CLASS_CAPI] = 0;
    assert_true(pd_measure_progress(&c, pd_measure_find("tokens.capi")) == 1);
    memset(&c, 0, sizeof(c));
    /* No file at all (a mistyped filter or scope): nothing is known, no
     * badge says "100 % ported" or "done". */
    assert_true(pd_measure_progress(&c, pd_measure_find("universal_ready_files")) == -1);
    assert_true(pd_measure_progress(&c, pd_measure_find("functions.ported")) == -1);
    assert_true(pd_measure_progress(&c, pd_measure_find("tokens.capi")) == -1);
    assert_true(pd_measure_progress(&c, pd_measure_find("object_paths.object-legacy")) == -1);
    /* Files without an object-dtype path: nothing to port there, done. */
    c.files = 2;
    assert_true(pd_measure_progress(&c, pd_measure_find("object_paths.object-legacy")) == 1);
}

/* A share as a reader sees it (pd_percent_text, the rule of the
 * dashboard's pct()): a started port is never "0%", an unfinished one
 * never "100%"; elsewhere whole percents, halves rounded up. */
static void test_percent_text(void **state)
{
    char b[8];

    (void)state;
    assert_string_equal(pd_percent_text(0, b, sizeof(b)), "0%");
    assert_string_equal(pd_percent_text(1.0 / 4344, b, sizeof(b)), "<1%");
    assert_string_equal(pd_percent_text(0.004999, b, sizeof(b)), "<1%");
    assert_string_equal(pd_percent_text(0.005, b, sizeof(b)), "1%");
    assert_string_equal(pd_percent_text(0.25, b, sizeof(b)), "25%");
    assert_string_equal(pd_percent_text(0.125, b, sizeof(b)), "13%");
    assert_string_equal(pd_percent_text(0.994, b, sizeof(b)), "99%");
    assert_string_equal(pd_percent_text(4343.0 / 4344, b, sizeof(b)), ">99%");
    assert_string_equal(pd_percent_text(1, b, sizeof(b)), "100%");
}

/* 1 when no text of the badge broke out into markup: outside quotes
 * every '<' opens or closes one of the badge's own elements, no '<'
 * stands inside an attribute's quotes, and every '&' starts one of XML's
 * five entities. */
static int markup_only(const char *svg)
{
    static const char *const ent[] = {"&amp;", "&lt;", "&gt;", "&quot;", "&apos;"};
    static const char *const tag[] = {"svg", "title", "g", "rect", "text"};
    const char *p;
    int quoted = 0;
    size_t k;

    for (p = svg; *p; p++) {
        if (*p == '"') {
            quoted = !quoted;
        } else if (*p == '<') {
            const char *name = p + 1 + (p[1] == '/');
            size_t n = strspn(name, "abcdefghijklmnopqrstuvwxyz");

            if (quoted)
                return 0;
            for (k = 0; k < 5 && !(strlen(tag[k]) == n && strncmp(name, tag[k], n) == 0); k++)
                ;
            if (k == 5 || (name[n] != ' ' && name[n] != '>'))
                return 0;
        } else if (*p == '&') {
            for (k = 0; k < 5 && strncmp(p, ent[k], strlen(ent[k])) != 0; k++)
                ;
            if (k == 5)
                return 0;
        }
    }
    return 1;
}

/* numpy-hpy's badge at hpy, 8 of 4,372 functions ported: "<1%" in the
 * value, its accessible name and its title is escaped (it made the SVG
 * invalid XML), the layout measures the text as shown, and any text with
 * markup characters stays text. */
static void test_badge_svg_escapes_its_text(void **state)
{
    const char *title = "functions ported: 8 (<1% ported); done = ported functions";
    char *svg;
    size_t len = 0;

    (void)state;
    svg = api_badge_svg("functions ported", "8 (<1% ported)", title, 8.0 / 4372, &len);
    assert_non_null(svg);
    assert_int_equal(len, strlen(svg));
    assert_true(markup_only(svg));
    assert_non_null(strstr(svg, "aria-label=\"functions ported: 8 (&lt;1% ported)\""));
    assert_non_null(strstr(svg, "<title>functions ported: 8 (&lt;1% ported); done"));
    assert_non_null(strstr(svg, ">8 (&lt;1% ported)</text>"));
    /* 16 and 14 characters at 6.5 px and 10 px of padding each; red */
    assert_non_null(strstr(svg, "width=\"215\""));
    assert_non_null(strstr(svg, "fill=\"#e05d44\""));
    free(svg);
    svg = api_badge_svg("a<b&c\"d'", "1 (>99% x)", "t<", -1, &len);
    assert_non_null(svg);
    assert_true(markup_only(svg));
    assert_non_null(strstr(svg, ">a&lt;b&amp;c&quot;d&apos;</text>"));
    assert_non_null(strstr(svg, "fill=\"#9f9f9f\""));
    free(svg);
}

/* The published FNV-1a test vectors ("" and "a", "foobar"), and that a
 * hash continued part by part equals the hash of the whole. */
static void test_fnv1a_vectors(void **state)
{
    assert_true(pd_fnv1a32(PD_FNV32_BASIS, "", 0) == 0x811c9dc5u);
    assert_true(pd_fnv1a32(PD_FNV32_BASIS, "a", 1) == 0xe40c292cu);
    assert_true(pd_fnv1a32(PD_FNV32_BASIS, "foobar", 6) == 0xbf9cf968u);
    assert_true(pd_fnv1a64(PD_FNV64_BASIS, "a", 1) == 0xaf63dc4c8601ec8cULL);
    assert_true(pd_fnv1a64(PD_FNV64_BASIS, "foobar", 6) == 0x85944171f73967e8ULL);
    assert_true(pd_fnv1a64(pd_fnv1a64(PD_FNV64_BASIS, "foo", 3), "bar", 3) ==
                pd_fnv1a64(PD_FNV64_BASIS, "foobar", 6));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_percent_text),
        cmocka_unit_test(test_badge_svg_escapes_its_text),
        cmocka_unit_test(test_fnv1a_vectors),
        cmocka_unit_test(test_names_round_trip),
        cmocka_unit_test(test_source_suffixes_listed),
        cmocka_unit_test(test_status_rule_every_combination),
        cmocka_unit_test(test_measures_table),
        cmocka_unit_test(test_counts_of_file),
        cmocka_unit_test(test_badge_progress),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
