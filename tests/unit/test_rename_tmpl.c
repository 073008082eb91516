/*
 * test_rename_tmpl.c: a numpy template's values are read only for
 * equality too (test_rename.c says why and does plain files).
 *
 * The words of a template's repeat headers (3 bytes or more, not a list's
 * `#name`) are atoms; each is renamed, to one of the same length and
 * shape, wherever it is in a name of the code (outside `@...@`) and in the
 * headers, longest first.  The two expansions are then read side by side:
 * every name that changed must be free to rename before and after
 * (an_rn_kept), and the renaming one to one; an atom that breaks this is
 * left as it is and the file renamed again.  The result of an_analyze()
 * on the renamed template, new names turned back, must equal the
 * original's field by field: the instances' names, their types, the
 * replay of the template's tokens and its verdicts kept by template token
 * all see other bytes and must give the same answer.
 *
 * Cases: every template of tests/fixtures/analyze/cases, a template whose
 * four names must be renamed, and the templates of the list
 * PORTDASH_RENAME_LIST names (PORTDASH_RENAME_OUT=FILE keeps the renamed
 * template, or the renamed expansion when the two expansions differ).
 */
#include "rename_tu.h"

#include "analyzer/tmpl.h"

/* A template renamed: the values of its repeat headers (words of 3 bytes
 * or more) are atoms, each renamed wherever it is in a name (outside
 * `@...@`) and in the headers; then both expansions are read side by side
 * and every name that changed must be free to rename, before and after,
 * and the renaming one to one.  An atom that breaks this is left as it
 * is and the file renamed again. */
struct an_rn_tmpl {
    pd_map *atoms;      /* atom -> new atom (malloc, in x->owned) */
    pd_map *bad;        /* atoms left as they are (keys in badkeys) */
    char **badkeys;
    size_t nbad;
    size_t maxlen;
    char *out;          /* the renamed template */
    tmpl_out *ea, *eb;  /* the two expansions */
};

static int an_rn_ident_byte(char c)
{
    return isalnum((unsigned char)c) || c == '_';
}

/* Each word of the repeat headers of src that may be an atom, to fn. */
static void an_rn_header_words(const char *src, size_t len,
                               void (*fn)(an_rn_tmpl *, const char *, size_t, char *),
                               an_rn_tmpl *t, char *out)
{
    const char *p = src, *end = src + len, *h, *e, *q;

    while ((h = memmem(p, (size_t)(end - p), "/**begin repeat", 15)) != NULL) {
        e = memmem(h, (size_t)(end - h), "*/", 2);
        if (!e)
            e = end;
        for (q = h + 15; q < e;) {
            const char *w = q, *b;

            if (!isalpha((unsigned char)*q) && *q != '_') {
                q++;
                continue;
            }
            while (q < e && an_rn_ident_byte(*q))
                q++;
            for (b = q; b < e && (*b == ' ' || *b == '\t'); b++)
                ;
            if (q - w >= 3 && *b != '=')        /* `#name =` names the list */
                fn(t, w, (size_t)(q - w), out ? out + (w - src) : NULL);
        }
        p = e;
    }
}

static void an_rn_atom_add(an_rn_tmpl *t, const char *w, size_t n, char *out)
{
    (void)out;
    if (!pd_map_get(t->bad, w, n))
        assert_int_equal(pd_map_put(t->atoms, w, n, (void *)1), 0);
}

static void an_rn_atom_scan(an_rn_tmpl *t, const char *s, size_t n, char *out, pd_map *bad);

/* A header's words renamed as names are: atom by atom, longest first
 * (`clongdouble` holds `longdouble`, which `c@name@` may make). */
static void an_rn_atom_put_word(an_rn_tmpl *t, const char *w, size_t n, char *out)
{
    an_rn_atom_scan(t, w, n, out, NULL);
}

/* The atoms in name s[0..n) renamed into out, longest first, left to
 * right, `@...@` skipped; with bad set, the atoms found go there instead. */
static void an_rn_atom_scan(an_rn_tmpl *t, const char *s, size_t n, char *out, pd_map *bad)
{
    size_t i = 0, k;

    while (i < n) {
        if (s[i] == '@') {
            const char *at = memchr(s + i + 1, '@', n - i - 1);

            i = at ? (size_t)(at - s) + 1 : n;
            continue;
        }
        for (k = n - i < t->maxlen ? n - i : t->maxlen; k >= 3; k--) {
            const char *a = pd_map_get(t->atoms, s + i, k);

            if (a && a != (const char *)1) {
                if (bad && !pd_map_get(bad, s + i, k)) {
                    char *c = malloc(k);            /* s dies with its round */

                    assert_non_null(c);
                    memcpy(c, s + i, k);
                    assert_non_null(t->badkeys = realloc(t->badkeys,
                                                         (t->nbad + 1) * sizeof(char *)));
                    t->badkeys[t->nbad++] = c;
                    assert_int_equal(pd_map_put(bad, c, k, (void *)1), 0);
                } else if (!bad) {
                    memcpy(out + i, a, k);
                }
                break;
            }
        }
        i += k >= 3 ? k : 1;
    }
}

static void an_rn_tmpl_token(an_rn *x, const lex_token *tok, void *arg)
{
    an_rn_job *j = arg;

    (void)x;
    if (tok->kind == LEX_IDENT)
        an_rn_atom_scan(j->tmpl, tok->start, tok->len, j->out + (tok->start - j->src), NULL);
}
/* A new atom for every atom of t (same length and shape, in no name of
 * the source nor word of avoid); those without one are left out. */
static void an_rn_atoms_draw(an_rn *x, an_rn_tmpl *t, const char *src, size_t len,
                             const pd_map *avoid)
{
    size_t pos = 0, n = 0, i, klen;
    const void *key;
    void *v;
    struct an_rn_piece *keys = calloc(pd_map_count(t->atoms) + 1, sizeof(*keys));

    assert_non_null(keys);
    while (pd_map_next(t->atoms, &pos, &key, &klen, &v)) {
        keys[n].s = key;
        keys[n++].len = klen;
    }
    t->maxlen = 0;
    for (i = 0; i < n; i++) {
        char *a = an_rn_kept(x, keys[i].s, keys[i].len) ? NULL
                : an_rn_draw(x, keys[i].s, keys[i].len, avoid, 0);

        if (a && memmem(src, len, a, keys[i].len)) {
            free(a);
            a = NULL;
        }
        if (!a) {
            pd_map_del(t->atoms, keys[i].s, keys[i].len);
            continue;
        }
        an_rn_own(x, a);
        assert_int_equal(pd_map_put(t->atoms, keys[i].s, keys[i].len, a), 0);
        if (keys[i].len > t->maxlen)
            t->maxlen = keys[i].len;
    }
    free(keys);
}

/* The two expansions read side by side into x's maps (names that stay
 * map to themselves): 1 when every name that changed may be renamed and
 * the renaming is one to one; else the atoms of the names that broke it
 * are put in t->bad and 0 returned.  *renamed gets the names changed. */
static int an_rn_tmpl_verify(an_rn *x, an_rn_tmpl *t, int cpp, const pd_map *avoid,
                             size_t *renamed)
{
    lex_state la, lb;
    lex_token ta, tb;
    int ok = 1;

    *renamed = 0;
    lex_init(&la, t->ea->text, t->ea->len, cpp ? LEX_F_CPP : 0);
    lex_init(&lb, t->eb->text, t->eb->len, cpp ? LEX_F_CPP : 0);
    for (;;) {
        const char *o, *nn;
        int same;

        lex_next(&la, &ta);
        lex_next(&lb, &tb);
        if (ta.kind != tb.kind || ta.len != tb.len) {
            an_rn_keep(t->eb->text, t->eb->len);
            fail_msg("the expansions differ at line %u: %.*s | %.*s", ta.line,
                     (int)ta.len, ta.start, (int)tb.len, tb.start);
        }
        assert_int_equal(ta.kind, tb.kind);
        assert_int_equal(ta.len, tb.len);
        if (ta.kind == LEX_EOF)
            break;
        if (ta.kind != LEX_IDENT)
            continue;
        same = !memcmp(ta.start, tb.start, ta.len);
        o = pd_map_get(x->new2old, tb.start, tb.len);
        nn = pd_map_get(x->old2new, ta.start, ta.len);
        if ((o && memcmp(o, ta.start, ta.len)) || (nn && memcmp(nn, tb.start, tb.len)) ||
            (!same && (an_rn_kept(x, ta.start, ta.len) || an_rn_kept(x, tb.start, tb.len) ||
                       pd_map_get(avoid, tb.start, tb.len) ||
                       pd_map_get(x->seen, tb.start, tb.len)))) {
            an_rn_atom_scan(t, ta.start, ta.len, NULL, t->bad);
            if (o)
                an_rn_atom_scan(t, o, ta.len, NULL, t->bad);
            ok = 0;
            continue;
        }
        if (!nn) {
            *renamed += !same;
            assert_int_equal(pd_map_put(x->old2new, ta.start, ta.len, (void *)tb.start), 0);
            assert_int_equal(pd_map_put(x->new2old, tb.start, tb.len,
                                        an_rn_dup(x, ta.start, ta.len)), 0);
        }
    }
    return ok;
}

/* Rename template src's atoms and compare the analyses, as check() does;
 * returns how many names of the expansion were renamed (0: nothing to
 * rename, or no expansion). */
static size_t check_tmpl(const rules *r, const char *path, const char *src, size_t len)
{
    an_rn x;
    an_rn_tmpl t;
    an_rn_job j;
    an_result *a = NULL, *b = NULL;
    pd_buf da, db;
    size_t n = 0, round;
    char why[2048];

    memset(&t, 0, sizeof(t));
    assert_non_null(t.bad = pd_map_new(0));
    assert_int_equal(an_analyze(&a, r, path, src, len), 0);
    pd_buf_init(&da, 0);
    an_rn_dump(NULL, &da, a);
    memset(&j, 0, sizeof(j));
    assert_non_null(j.avoid = pd_map_new(0));
    an_rn_words_of(j.avoid, da.data);
    j.src = src;
    j.tmpl = &t;
    assert_non_null(j.out = malloc(len + 1));
    for (round = 0; round < 50; round++) {
        an_rn_init(&x, r);
        assert_int_equal(tmpl_expand(&t.ea, NULL, src, len), 0);
        if (!t.ea) {                /* no loop, or too large: nothing to do */
            an_rn_free(&x);
            break;
        }
        an_rn_survey(&x, t.ea->text, t.ea->len, a->cpp);
        assert_non_null(t.atoms = pd_map_new(0));
        an_rn_header_words(src, len, an_rn_atom_add, &t, NULL);
        an_rn_atoms_draw(&x, &t, src, len, j.avoid);
        memcpy(j.out, src, len);
        an_rn_header_words(src, len, an_rn_atom_put_word, &t, j.out);
        an_rn_each(src, len, a->cpp, an_rn_tmpl_token, &x, &j);
        assert_int_equal(tmpl_expand(&t.eb, NULL, j.out, len), 0);
        assert_non_null(t.eb);
        if (pd_map_count(t.atoms) == 0 || an_rn_tmpl_verify(&x, &t, a->cpp, j.avoid, &n))
            break;
        pd_map_free(t.atoms);
        tmpl_free(t.ea);
        tmpl_free(t.eb);
        t.ea = t.eb = NULL;
        an_rn_free(&x);
    }
    assert_true(round < 50);
    if (t.ea) {
        assert_int_equal(an_analyze(&b, r, path, j.out, len), 0);
        pd_buf_init(&db, 0);
        an_rn_dump(&x, &db, b);
        assert_int_equal(db.err, 0);
        if (strcmp(da.data, db.data)) {
            an_rn_keep(j.out, len);
            an_rn_first_diff(da.data, db.data, why, sizeof(why));
            fail_msg("%s: renaming a template's values changes the analysis:%s", path, why);
        }
        pd_buf_free(&db);
        an_result_free(b);
        pd_map_free(t.atoms);
        tmpl_free(t.ea);
        tmpl_free(t.eb);
        an_rn_free(&x);
    }
    pd_map_free(t.bad);
    while (t.nbad)
        free(t.badkeys[--t.nbad]);
    free(t.badkeys);
    pd_map_free(j.avoid);
    free(j.out);
    pd_buf_free(&da);
    an_result_free(a);
    return n;
}
static void run_case(void **state)
{
    an_rn_case(state, check_tmpl, 1);
}

/* A template's values are renamed: its functions' names, the types. */
static void test_tmpl_renames(void **state)
{
    static const char src[] =
        "/**begin repeat\n"
        " * #name = byte, ubyte#\n"
        " * # type = npy_byte, npy_ubyte#\n"
        " */\n"
        "static void @name@_copy(@type@ *dst, PyObject *o)\n"
        "{\n"
        "    @type@ v = (@type@)PyLong_AsLong(o);\n"
        "    *dst = v;\n"
        "}\n"
        "/**end repeat**/\n";
    rules *r = NULL;

    (void)state;
    assert_int_equal(rules_load_default(&r), 0);
    /* byte_copy, ubyte_copy, npy_byte, npy_ubyte */
    assert_int_equal(check_tmpl(r, "copy.c.src", src, sizeof(src) - 1), 4);
    rules_free(r);
}
/* Every template of the list in PORTDASH_RENAME_LIST. */
static void test_list(void **state)
{
    (void)state;
    an_rn_list(check_tmpl, 1);
}

int main(void)
{
    const struct CMUnitTest fixed[] = {
        cmocka_unit_test(test_tmpl_renames),
        cmocka_unit_test(test_list),
    };

    return tc_run_cases("rename_tmpl", CASES, ".src.expect", run_case, fixed,
                        sizeof(fixed) / sizeof(*fixed));
}
