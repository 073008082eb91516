/*
 * test_memo.c: the analyzer's chunk memo (analyze.h, an_memo) gives the
 * result of a full analysis, byte for byte, whether a chunk is analysed
 * (cold memo) or reused (warm memo), and wherever the reused chunk sits.
 *
 * Each case analyses a source without memo, then through a memo twice
 * (cold, then warm) and asserts the three results are equal field by
 * field (an_result_diff); the warm run must have reused chunks, so the
 * replay path is what is checked.  The tricky shapes are chunks whose
 * result depends on what is around them: the same function inside and
 * outside a guarded #if or an #if 0, after a macro is redefined, in two
 * namespaces, as two template instances of the same text, with an exact-if
 * trigger elsewhere in the file, a '}' line inside a comment or a string,
 * a variable named like a C API type next to a function using the type,
 * and the order of a function's calls, which follows the whole file.
 * A replay runs outside the memo's lock: an entry dropped for room while
 * it is replayed lives until the replay ends, and two threads through a
 * small memo, dropping each other's entries, stay exact.  A memo from 2
 * MiB on is in shards, each with its own part of the bound.
 */
#include "testutil.h"

#include <pthread.h>

#include "analyzer/analyzer.h"
#include "analyzer/analyze_memo_tab.h"

static rules *g_rules;

static int memo_setup(void **state)
{
    return rules_load_default(&g_rules) < 0 ? -1 : 0;
}

static int memo_teardown(void **state)
{
    rules_free(g_rules);
    return 0;
}

static an_result *plain(const char *path, const char *src)
{
    an_result *res = NULL;

    assert_int_equal(an_analyze(&res, g_rules, path, src, strlen(src)), 0);
    return res;
}

/* Analyse src through m; assert it equals the plain analysis; return the
 * chunks reused. */
static uint64_t through(an_memo *m, const char *path, const char *src)
{
    an_result *want = plain(path, src), *got = NULL;
    an_memo_stats before, after;
    char why[256] = "";

    an_memo_stats_get(m, &before);
    assert_int_equal(an_analyze_memo(&got, g_rules, m, path, src, strlen(src)), 0);
    an_memo_stats_get(m, &after);
    if (an_result_diff(got, want, why, sizeof(why)))
        fail_msg("%s: memo result differs: %s", path, why);
    an_result_free(got);
    an_result_free(want);
    return after.hits - before.hits;
}

/* Cold then warm: both equal to the plain analysis, the warm one reused
 * at least min_hits chunks. */
static void cold_warm(const char *path, const char *src, uint64_t min_hits)
{
    an_memo *m = NULL;

    assert_int_equal(an_memo_new(&m, g_rules, 1 << 20), 0);
    through(m, path, src);
    assert_true(through(m, path, src) >= min_hits);
    an_memo_free(m);
}

/* b through a memo warmed by a: equal to b's plain analysis, reusing at
 * least min_hits chunks. */
static void warm_by(const char *path_a, const char *a, const char *path_b,
                    const char *b, uint64_t min_hits)
{
    an_memo *m = NULL;

    assert_int_equal(an_memo_new(&m, g_rules, 1 << 20), 0);
    through(m, path_a, a);
    assert_true(through(m, path_b, b) >= min_hits);
    an_memo_free(m);
}

/* Two functions whose last eight tokens are the same, so that a chunk
 * after either has the same context. */
#define FN_F "static PyObject *\nf(PyObject *self)\n{\n    Py_INCREF(self);\n" \
             "    HPy_Dup(ctx, h);\n    (void)0;\n    return 0;\n}\n"
#define FN_G "static int\ng(HPyContext *ctx, HPy h)\n{\n    HPy_IsNull(h);\n" \
             "    (void)0;\n    return 0;\n}\n"

static void test_relocated_chunks_keep_exact_lines(void **state)
{
    /* The chunk of f (from g's last line) moves down by three lines. */
    warm_by("a.c", FN_G FN_F FN_G "int x;\n",
            "b.c", "/* new\n   header */\n#include <Python.h>\n" FN_G FN_F "int x;\n", 1);
    cold_warm("a.c", FN_F FN_G FN_F FN_G, 4);
}

static void test_guarded_and_skipped_copies_differ(void **state)
{
    /* The same text inside #ifndef HPY_UNIVERSAL_ABI (guarded), inside
     * #if 0 (skipped) and outside: three different results. */
    const char *src =
        "int a;\n}\n" FN_F
        "#ifndef HPY_UNIVERSAL_ABI\n}\n" FN_F "#endif\n"
        "#if 0\n}\n" FN_F "#else\n}\n" FN_F "#endif\n}\n" FN_F;

    cold_warm("guard.c", src, 4);
    warm_by("one.c", "int a;\n}\n" FN_F, "guard.c", src, 1);
    /* The chunk of f, after the same g, in a guarded block and in a block
     * that is not: only the open #if tells them apart. */
    cold_warm("guard2.c", "#ifndef HPY_UNIVERSAL_ABI\n" FN_G FN_F "#endif\n"
              "#ifndef SOMETHING_ELSE\n" FN_G FN_F "#endif\n", 3);
}

static void test_tokens_before_the_cut_are_context(void **state)
{
    /* C++ reads `operator }+(...)` across the cut line as an operator's
     * name: the same chunk after `other` holds no function. */
    const char *a = "int operator\n}\n+(int x)\n{\n    HPy_Close(ctx, h);\n}\n";
    const char *b = "int other\n}\n+(int x)\n{\n    HPy_Close(ctx, h);\n}\n";
    an_result *r = plain("a.cpp", a);

    assert_int_equal(r->nfunctions, 1);
    an_result_free(r);
    warm_by("a.cpp", a, "b.cpp", b, 0);
    warm_by("b.cpp", b, "a.cpp", a, 0);
}

/* A token longer than the buffer the key's context is gathered in (2 KiB,
 * pd_xxh.h) among those before the cut: what was gathered before
 * it is still part of the key.  Here that is the open #if, guarded
 * (#ifndef HPY_UNIVERSAL_ABI) or not, the tokens before the cut the same. */
static void test_long_tokens_before_the_cut_are_context(void **state)
{
    char lit[3001], a[3400], b[3400];
    const char *fmt = "#ifndef %s\nconst char *s = \"%s\";\n}\nint\nf(PyObject *o)\n{\n"
                      "    Py_INCREF(o);\n    return 0;\n}\n#endif\n";

    memset(lit, 'x', sizeof(lit) - 1);
    lit[sizeof(lit) - 1] = '\0';
    snprintf(a, sizeof(a), fmt, "HPY_UNIVERSAL_ABI", lit);
    snprintf(b, sizeof(b), fmt, "SOMETHING_ELSE___", lit);
    cold_warm("long1.c", a, 1);
    cold_warm("long0.c", b, 1);
    warm_by("long1.c", a, "long0.c", b, 0);
    warm_by("long0.c", b, "long1.c", a, 0);
}

static void test_macro_redefined_between_identical_functions(void **state)
{
    cold_warm("macro.c",
              "#define CALL Py_INCREF\n" FN_G
              "#undef CALL\n#define CALL HPy_Dup\n" FN_G
              "#define Py_INCREF(o) HPy_Dup(ctx, o)\n" FN_F FN_F, 3);
}

static void test_function_split_by_if_branches(void **state)
{
    /* A '}' line inside a function whose #if branches each open a brace:
     * not a cut, and the function stays one. */
    cold_warm("branches.c",
              "int\nh(int a)\n{\n#if A\n    if (a) {\n#else\n    if (!a) {\n#endif\n"
              "        Py_DECREF(o);\n    }\n}\n" FN_G "#ifdef X\nint\nk(void)\n{\n"
              "}\n#endif\n" FN_G, 2);
}

static void test_close_brace_lines_in_comments_and_strings(void **state)
{
    cold_warm("fake.c",
              FN_G "/* a comment\n}\n   with a brace line */\n" FN_F
              "const char *s = \"\\\n}\\\n\";\n" FN_G
              "#define M \\\n}\n" FN_F "struct S {\n    HPyField f;\n};\n" FN_F, 2);
}

static void test_template_instances_of_the_same_text(void **state)
{
    /* Instances 1 to 3 expand to the same text; the fourth differs. */
    const char *src =
        "/**begin repeat\n * #name = a, a, a, b#\n"
        " * #api = HPy_Dup, HPy_Dup, HPy_Dup, Py_INCREF#\n */\n"
        "static int\n@name@_get(HPyContext *ctx, HPy h)\n{\n    @api@(ctx, h);\n"
        "    return 0;\n}\n\n/**end repeat**/\n" FN_G;
    an_memo *m = NULL;

    cold_warm("inst.c.src", src, 4);
    /* Instance 3 reuses instance 2 (same text after the same tokens)
     * in the first analysis already. */
    assert_int_equal(an_memo_new(&m, g_rules, 1 << 20), 0);
    assert_true(through(m, "inst.c.src", src) >= 1);
    an_memo_free(m);
}

static void test_wrappers_and_namespaces_name_functions(void **state)
{
    const char *fn = "int\nm(HPy h)\n{\n    return HPy_IsNull(h);\n}\n";
    char src[2048];

    snprintf(src, sizeof(src),
             "#ifdef __cplusplus\nextern \"C\" {\n#endif\n%s#ifdef __cplusplus\n}\n#endif\n"
             "namespace one {\n%s}\nnamespace two {\n%s}\n%s", fn, fn, fn, fn);
    cold_warm("wrap.cpp", src, 3);
    cold_warm("wrap.h", src, 3);
}

static void test_exact_if_trigger_elsewhere_in_the_file(void **state)
{
    /* PyObject_HEAD is a bridge only where HPyType_Spec appears: the chunk
     * holding it is the same in both files, its class is not. */
    const char *obj = "typedef struct {\n    PyObject_HEAD\n    int v;\n} Obj;\n" FN_G;

    warm_by("one.h", obj, "two.h", "static HPyType_Spec spec;\n}\n" FN_F "int z;\n}\n" FN_G
            "typedef struct {\n    PyObject_HEAD\n    int v;\n} Obj;\n" FN_G, 0);
    cold_warm("two.h", "HPyType_Spec spec;\n}\ntypedef struct {\n    PyObject_HEAD\n"
              "} Obj;\n}\n" FN_F, 1);
}

static void test_calls_follow_the_file_order_of_names(void **state)
{
    /* h calls b then a.  Its chunk (and the eight tokens before it) is the
     * same in both files, but in the second `a` was seen first, so the
     * calls are listed "a b" there. */
    const char *h = "void\nh(void)\n{\n    b();\n    a();\n}\n";
    char one[512], two[512];
    an_result *r;

    snprintf(one, sizeof(one), "void\np(void)\n{\n    z();\n    q();\n    q();\n}\n%s", h);
    snprintf(two, sizeof(two), "void\np(void)\n{\n    a();\n    q();\n    q();\n}\n%s", h);
    warm_by("one.c", one, "two.c", two, 1);
    r = plain("one.c", one);
    assert_string_equal(r->functions[1].calls, "b a");
    an_result_free(r);
    r = plain("two.c", two);
    assert_string_equal(r->functions[1].calls, "a b");
    an_result_free(r);
}

static void test_variables_named_like_types_stay_in_their_function(void **state)
{
    /* A parameter and a local named like CPython types (digit, destructor)
     * hide them in their function only: the next function, the same text
     * in both files, uses the types, and a reused chunk must say so. */
    const char *vars = "int\nv(destructor *destructor)\n{\n    int digit = 0;\n"
                       "    return use(destructor, digit);\n}\n";
    const char *types = "int\nt(void *o)\n{\n    digit d = (digit)0;\n"
                        "    return ((destructor)o)(o), d;\n}\n";
    char src[1024];
    an_result *r;

    snprintf(src, sizeof(src), "%s%s%s", types, vars, types);
    cold_warm("vars.c", src, 1);
    warm_by("types.c", types, "vars.c", src, 1);
    r = plain("vars.c", src);
    /* t: digit twice, destructor once; v: its parameter's type only */
    assert_int_equal(r->nfindings, 3 + 1 + 3);
    an_result_free(r);
}

static void test_problems_noted_in_reused_chunks(void **state)
{
    /* Unmatched braces and #endif, stray bytes, an unterminated literal:
     * the notes name the first line, which moves with the chunk. */
    const char *bad = "int\nw(void)\n{\n    char c = 'x;\n    $;\n}\n}\n#endif\n}\n";
    char src[1024];

    snprintf(src, sizeof(src), "%s%s\n\n%s", bad, FN_G, bad);
    cold_warm("bad.c", src, 2);
    warm_by("bad.c", bad, "moved.c", src + strlen(bad), 1);
}

static void test_small_memo_evicts_and_stays_exact(void **state)
{
    an_memo *m = NULL;
    an_memo_stats s;
    char src[8192] = "";
    int i;

    for (i = 0; i < 40; i++)
        snprintf(src + strlen(src), sizeof(src) - strlen(src),
                 "int\nf%d(HPy h)\n{\n    return HPy_IsNull(h) + %d;\n}\n", i, i);
    assert_int_equal(an_memo_new(&m, g_rules, 4096), 0);
    through(m, "many.c", src);
    through(m, "many.c", src);
    an_memo_stats_get(m, &s);
    assert_true(s.evicted > 0);
    assert_true(s.bytes <= 4096);
    an_memo_free(m);
}

/* A replay holds a reference to its entry (an_lookup); the entry dropped
 * for room meanwhile is out of the table at once and freed by the last
 * release (ASan: read after free; LSan: never freed). */
static void test_entry_dropped_during_a_replay_outlives_it(void **state)
{
    an_memo *m = NULL;
    an_mentry *a = calloc(1, sizeof(*a)), *b = calloc(1, sizeof(*b));

    assert_non_null(a);
    assert_non_null(b);
    assert_int_equal(an_memo_new(&m, g_rules, 4096), 0);
    a->k_lo = a->k_hi = 1;
    b->k_lo = b->k_hi = 2;
    a->bytes = b->bytes = 3000;             /* no room for both */
    a->len = 7;
    b->len = 9;
    an_memo_insert(m, a);
    assert_ptr_equal(an_memo_find(m, 1, 1), a);
    a->refs++;                              /* a replay of a starts */
    an_memo_insert(m, b);                   /* a is dropped for b */
    assert_null(an_memo_find(m, 1, 1));
    assert_ptr_equal(an_memo_find(m, 2, 2), b);
    assert_int_equal(a->len, 7);            /* still there for the replay */
    an_memo_release(m, a);                  /* the replay ends: freed */
    b->refs++;
    an_memo_release(m, b);                  /* still in the table: kept */
    assert_ptr_equal(an_memo_find(m, 2, 2), b);
    assert_int_equal(b->len, 9);
    an_memo_free(m);
}

typedef struct {
    an_memo *m;
    char src[8192];
    int ok;
} memo_thread;

/* Analyse t->src through the shared memo, again and again; ok when every
 * result equals the plain analysis. */
static void *memo_worker(void *arg)
{
    memo_thread *t = arg;
    an_result *want = NULL;
    int i;

    t->ok = an_analyze(&want, g_rules, "t.c", t->src, strlen(t->src)) == 0;
    for (i = 0; i < 40 && t->ok; i++) {
        an_result *got = NULL;
        char why[256];

        t->ok = an_analyze_memo(&got, g_rules, t->m, "t.c", t->src, strlen(t->src)) == 0 &&
                an_result_diff(got, want, why, sizeof(why)) == 0;
        an_result_free(got);
    }
    an_result_free(want);
    return NULL;
}

/* Two threads through memo m, thread 0 with n0 functions and thread 1
 * with n1, each analysing its file again and again; both exact.  The
 * memo's counters in *s. */
static void two_threads(an_memo *m, int n0, int n1, an_memo_stats *s)
{
    memo_thread t[2];
    pthread_t th[2];
    int i, k;

    for (k = 0; k < 2; k++) {
        t[k].m = m;
        t[k].src[0] = '\0';
        for (i = 0; i < (k ? n1 : n0); i++)
            snprintf(t[k].src + strlen(t[k].src), sizeof(t[k].src) - strlen(t[k].src),
                     "int\nf%d_%d(HPy h)\n{\n    return HPy_IsNull(h) + %d;\n}\n", k, i, i);
    }
    for (k = 0; k < 2; k++)
        assert_int_equal(pthread_create(&th[k], NULL, memo_worker, &t[k]), 0);
    for (k = 0; k < 2; k++)
        pthread_join(th[k], NULL);
    assert_true(t[0].ok);
    assert_true(t[1].ok);
    an_memo_stats_get(m, s);
}

static void test_two_threads_through_a_small_memo_stay_exact(void **state)
{
    an_memo_stats s;
    an_memo *m = NULL;

    /* Room for some 16 entries: thread 0's three functions, used again
     * and again, stay; thread 1's thirty drop each other and some of
     * thread 0's. */
    assert_int_equal(an_memo_new(&m, g_rules, 16384), 0);
    two_threads(m, 3, 30, &s);
    assert_true(s.hits > 0);
    assert_true(s.evicted > 0);
    an_memo_free(m);
}

/* An entry for the table tests: key (lo, hi), `bytes` of room. */
static an_mentry *entry_of(uint64_t lo, uint64_t hi, size_t bytes)
{
    an_mentry *e = calloc(1, sizeof(*e));

    assert_non_null(e);
    e->k_lo = lo;
    e->k_hi = hi;
    e->bytes = bytes;
    return e;
}

/* A key whose high half puts it in shard k (analyze_memo_tab.h). */
#define SHARD_KEY(k) ((uint64_t)(k) << 32)

/* A memo of 4 MiB is 4 shards of 1 MiB (analyze_memo_tab.h): each keeps its
 * own part of the bound and its own order, so filling one shard drops
 * that shard's oldest entry and no other shard's, an entry larger than a
 * shard's part is not kept, and the counters add up over the shards. */
static void test_shards_keep_their_own_bound(void **state)
{
    an_memo *m = NULL;
    an_memo_stats s;
    size_t k, part = (size_t)1 << 20;

    assert_int_equal(an_memo_new(&m, g_rules, 4 * part), 0);
    assert_int_equal(m->nshards, 4);
    for (k = 0; k < 4; k++)
        an_memo_insert(m, entry_of(1, SHARD_KEY(k), part / 2 + 1));
    an_memo_stats_get(m, &s);
    assert_int_equal(s.stored, 4);
    assert_int_equal(s.bytes, 4 * (part / 2 + 1));
    for (k = 0; k < 4; k++)
        assert_non_null(an_memo_find(m, 1, SHARD_KEY(k)));
    /* Shard 2's second entry: no room beside its first, which goes. */
    an_memo_insert(m, entry_of(2, SHARD_KEY(2), part / 2 + 1));
    assert_null(an_memo_find(m, 1, SHARD_KEY(2)));
    assert_non_null(an_memo_find(m, 2, SHARD_KEY(2)));
    for (k = 0; k < 4; k++)
        if (k != 2)
            assert_non_null(an_memo_find(m, 1, SHARD_KEY(k)));
    /* More than a shard's part, though the memo has room in all. */
    an_memo_insert(m, entry_of(3, SHARD_KEY(1), part + 1));
    assert_null(an_memo_find(m, 3, SHARD_KEY(1)));
    assert_non_null(an_memo_find(m, 1, SHARD_KEY(1)));
    an_memo_stats_get(m, &s);
    assert_int_equal(s.stored, 5);
    assert_int_equal(s.evicted, 1);
    assert_true(s.bytes <= 4 * part);
    an_memo_free(m);
}

/* A memo under 2 MiB is one shard, whatever the key (the small memos of
 * the tests above keep one least recently used order); 12 MiB, the
 * default, is 8. */
static void test_small_memo_is_one_shard(void **state)
{
    an_memo *m = NULL;

    assert_int_equal(an_memo_new(&m, g_rules, ((size_t)2 << 20) - 1), 0);
    assert_int_equal(m->nshards, 1);
    an_memo_free(m);
    assert_int_equal(an_memo_new(&m, g_rules, (size_t)12 << 20), 0);
    assert_int_equal(m->nshards, 8);
    an_memo_free(m);
}

/* The threads' test above through a memo of 8 shards: lookups and
 * inserts of both threads under different shards' locks stay exact. */
static void test_two_threads_through_a_sharded_memo_stay_exact(void **state)
{
    an_memo_stats s;
    an_memo *m = NULL;

    assert_int_equal(an_memo_new(&m, g_rules, (size_t)8 << 20), 0);
    assert_int_equal(m->nshards, 8);
    two_threads(m, 30, 30, &s);
    assert_true(s.hits > 0);
    an_memo_free(m);
}

static void test_memo_of_other_rules_is_not_used(void **state)
{
    rules *other = NULL;
    an_memo *m = NULL;
    an_memo_stats s;
    an_result *res = NULL;

    assert_int_equal(rules_load_default(&other), 0);
    assert_int_equal(an_memo_new(&m, other, 1 << 20), 0);
    assert_int_equal(an_analyze_memo(&res, g_rules, m, "x.c", FN_F FN_G, strlen(FN_F FN_G)), 0);
    an_memo_stats_get(m, &s);
    assert_int_equal(s.lookups, 0);
    an_result_free(res);
    an_memo_free(m);
    rules_free(other);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_relocated_chunks_keep_exact_lines),
        cmocka_unit_test(test_guarded_and_skipped_copies_differ),
        cmocka_unit_test(test_tokens_before_the_cut_are_context),
        cmocka_unit_test(test_long_tokens_before_the_cut_are_context),
        cmocka_unit_test(test_macro_redefined_between_identical_functions),
        cmocka_unit_test(test_function_split_by_if_branches),
        cmocka_unit_test(test_close_brace_lines_in_comments_and_strings),
        cmocka_unit_test(test_template_instances_of_the_same_text),
        cmocka_unit_test(test_wrappers_and_namespaces_name_functions),
        cmocka_unit_test(test_exact_if_trigger_elsewhere_in_the_file),
        cmocka_unit_test(test_calls_follow_the_file_order_of_names),
        cmocka_unit_test(test_variables_named_like_types_stay_in_their_function),
        cmocka_unit_test(test_problems_noted_in_reused_chunks),
        cmocka_unit_test(test_small_memo_evicts_and_stays_exact),
        cmocka_unit_test(test_memo_of_other_rules_is_not_used),
        cmocka_unit_test(test_entry_dropped_during_a_replay_outlives_it),
        cmocka_unit_test(test_shards_keep_their_own_bound),
        cmocka_unit_test(test_small_memo_is_one_shard),
        cmocka_unit_test(test_two_threads_through_a_sharded_memo_stay_exact),
        cmocka_unit_test(test_two_threads_through_a_small_memo_stay_exact),
    };

    return cmocka_run_group_tests(tests, memo_setup, memo_teardown);
}
