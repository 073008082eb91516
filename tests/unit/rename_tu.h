/*
 * rename_tu.h: what the renaming tests share (test_rename.c, plain files;
 * test_rename_tmpl.c, numpy templates): which names the analysis may read
 * by their bytes (an_rn_kept), new names of the same shape (an_rn_draw),
 * the survey of a file for members and pastes, and a result dumped field
 * by field with the new names, and the columns they moved, turned back
 * (an_rn_dump).
 * Included by one test file per binary.
 */
#ifndef RENAME_TU_H
#define RENAME_TU_H

#include "testutil.h"

#include <ctype.h>

#include "analyzer/analyzer.h"
#include "analyzer/lex.h"
#include "analyzer/rules_def.h"
#include "pd_buf.h"
#include "pd_map.h"
#include "testcases.h"

#define CASES "tests/fixtures/analyze/cases/"

/* C and C++ keywords, the directives' words and the compilers' own
 * spellings: words the analysis reads by their bytes by design. */
static const char *const an_rn_words[] = {
    "auto", "break", "case", "char", "const", "continue", "default", "do",
    "double", "else", "enum", "extern", "float", "for", "goto", "if",
    "inline", "int", "long", "register", "restrict", "return", "short",
    "signed", "sizeof", "static", "struct", "switch", "typedef", "union",
    "unsigned", "void", "volatile", "while", "_Bool", "_Complex",
    "_Alignas", "_Alignof", "_Atomic", "_Generic", "_Noreturn",
    "_Static_assert", "_Thread_local", "alignas", "alignof", "and",
    "and_eq", "asm", "bitand", "bitor", "bool", "catch", "char16_t",
    "char32_t", "char8_t", "class", "compl", "concept", "consteval",
    "constexpr", "constinit", "const_cast", "co_await", "co_return",
    "co_yield", "decltype", "delete", "dynamic_cast", "explicit", "export",
    "false", "friend", "mutable", "namespace", "new", "noexcept", "not",
    "not_eq", "nullptr", "operator", "or", "or_eq", "private", "protected",
    "public", "reinterpret_cast", "requires", "static_assert",
    "static_cast", "template", "this", "thread_local", "throw", "true",
    "try", "typeid", "typename", "using", "virtual", "wchar_t", "xor",
    "xor_eq", "final", "override", "define", "undef", "include", "ifdef",
    "ifndef", "elif", "endif", "line", "error", "pragma", "defined",
    "__attribute__", "__attribute", "__inline", "__inline__", "__restrict",
    "__restrict__", "__extension__", "__asm__", "__asm", "__typeof__",
    "typeof", "__declspec", "_Pragma", "__cplusplus", "NULL", "__alignof__",
    "__typeof", "__pragma",
};

typedef struct {
    const rules *r;
    pd_map *words;      /* an_rn_words */
    pd_map *old2new;    /* name -> new name (malloc) */
    pd_map *new2old;    /* new name -> name (a NUL-terminated copy) */
    pd_map *seen;       /* every identifier of the file */
    pd_map *spliced;    /* identifiers written with a backslash-newline */
    pd_map *member;     /* names written after '.' or '->' */
    pd_map *pasted;     /* names next to '##' */
    struct an_rn_piece { const char *s; size_t len; } *left, *right;
    size_t nleft, nright;   /* the pieces '##' pastes, on its left and right */
    char **owned;
    size_t nowned, capowned;
    /* Names renamed to another length (test_rename.c's second pass):
     * each renamed token's line, its column after the renaming, its
     * lengths after and before, in file order; the result's columns are
     * turned back with them (an_rn_col). */
    struct an_rn_occ { uint32_t line, col, lenb, lena; } *occ;
    size_t nocc, capocc;
} an_rn;

/* 1 when the analysis may read name s[0..len) by its bytes: a word of the
 * list, a name a rule knows (classified, an exact entry of any kind, an
 * `itemsource` suffix, an `objfunc` pattern: a function's name is read for
 * it), a member (HPy's structs are read by their fields' names: `.name`
 * of an HPyType_Spec), or a name pasted by `##` or one such a paste may
 * make (it begins with a piece pasted on its right or ends with one pasted
 * on its left: `npyv_load_till_##SFX` makes npyv_load_till_s32, which the
 * file may also write), or DEF and DEF_impl (HPyDef_SLOT's convention). */
static int an_rn_kept(const an_rn *x, const char *s, size_t len)
{
    rules_verdict v;
    const rules_name *e;
    char name[256];
    size_t i;

    if (pd_map_get(x->words, s, len) || pd_map_get(x->member, s, len) ||
        pd_map_get(x->pasted, s, len))
        return 1;
    for (i = 0; i < x->nleft; i++)     /* a name a paste may make */
        if (len >= x->left[i].len && !memcmp(s, x->left[i].s, x->left[i].len))
            return 1;
    for (i = 0; i < x->nright; i++)
        if (len >= x->right[i].len &&
            !memcmp(s + len - x->right[i].len, x->right[i].s, x->right[i].len))
            return 1;
    e = rules_classify(x->r, s, len, &v);
    if (e != NULL || v.cls != RULES_CLS_UNSET || rules_itemsource(x->r, s, len, NULL))
        return 1;
    if (len + 5 >= sizeof(name))
        return 1;
    memcpy(name, s, len);
    memcpy(name + len, "_impl", 6);
    /* HPyDef_SLOT(DEF, kind): DEF's implementation is DEF_impl, by its
     * name (analyze_types.c) */
    if ((len > 5 && !memcmp(s + len - 5, "_impl", 5)) || pd_map_get(x->seen, name, len + 5))
        return 1;
    name[len] = '\0';
    return rules_objfunc(x->r, name);
}

static void an_rn_own(an_rn *x, char *s)
{
    if (x->nowned == x->capowned) {
        x->capowned = x->capowned ? 2 * x->capowned : 64;
        assert_non_null(x->owned = realloc(x->owned, x->capowned * sizeof(char *)));
    }
    x->owned[x->nowned++] = s;
}

/* A new name for s[0..len): the same shape (each letter a letter of the
 * same case, each digit a digit, '_' kept; with stretch, 2 bytes shorter
 * to 2 longer, never the same length, the bytes added like the last),
 * itself free to rename, not a name of the file nor a word of `avoid` (the
 * original result's text, so that turning new names back touches nothing
 * else).  NUL-terminated; NULL when 200 draws find none (the name then
 * stays). */
static char *an_rn_draw(an_rn *x, const char *s, size_t len, const pd_map *avoid,
                        int stretch)
{
    uint64_t h = 0x9e3779b97f4a7c15ull;
    size_t i, k, nlen = len;
    char *n;

    for (i = 0; i < len; i++)
        h = (h ^ (unsigned char)s[i]) * 0x100000001b3ull;
    if (stretch) {
        long d = (long)(h % 5) - 2;

        nlen = d == 0 ? len + 1 : (long)len + d < 1 ? len + 1 : (size_t)((long)len + d);
    }
    assert_non_null(n = malloc(nlen + 1));
    for (k = 0; k < 200; k++) {
        for (i = 0; i < nlen; i++) {
            unsigned char c = (unsigned char)s[i < len ? i : len - 1];

            h ^= h >> 33;
            h *= 0xff51afd7ed558ccdull;
            h ^= h >> 29;
            if (i >= len && c == '_')
                c = 'a';
            n[i] = islower(c) ? (char)('a' + h % 26) : isupper(c) ? (char)('A' + h % 26)
                 : isdigit(c) ? (char)('0' + h % 10) : (char)c;
        }
        if (n[0] == 'i')     /* flow facts write an argument as 'i' NAME: */
            continue;        /* a new name never reads as one of those */
        n[nlen] = '\0';
        if ((nlen == len && !memcmp(n, s, len)) || pd_map_get(x->seen, n, nlen) ||
            pd_map_get(x->new2old, n, nlen) || pd_map_get(avoid, n, nlen) ||
            an_rn_kept(x, n, nlen))
            continue;
        return n;
    }
    free(n);
    return NULL;
}

/* A copy of s[0..len), NUL-terminated, that x frees. */
static char *an_rn_dup(an_rn *x, const char *s, size_t len)
{
    char *c = malloc(len + 1);

    assert_non_null(c);
    memcpy(c, s, len);
    c[len] = '\0';
    an_rn_own(x, c);
    return c;
}

/* Column col of line in the renamed file as it was before (names renamed
 * to another length move what follows them on their line). */
static uint32_t an_rn_col(const an_rn *x, uint32_t line, uint32_t col)
{
    size_t lo = 0, hi = x ? x->nocc : 0;
    long d = 0;

    while (lo < hi) {                   /* the first occurrence on line */
        size_t mid = (lo + hi) / 2;

        if (x->occ[mid].line < line)
            lo = mid + 1;
        else
            hi = mid;
    }
    for (; x && lo < x->nocc && x->occ[lo].line == line && x->occ[lo].col < col; lo++)
        d += (long)x->occ[lo].lenb - (long)x->occ[lo].lena;
    return (uint32_t)((long)col - d);
}

/* Every identifier token of src, in order, to fn(x, token). */
static void an_rn_each(const char *src, size_t len, int cpp,
                       void (*fn)(an_rn *, const lex_token *, void *), an_rn *x, void *arg)
{
    lex_state lx;
    lex_token t;

    lex_init(&lx, src, len, cpp ? LEX_F_CPP : 0);
    for (lex_next(&lx, &t); t.kind != LEX_EOF; lex_next(&lx, &t))
        fn(x, &t, arg);
}

static void an_rn_piece_add(struct an_rn_piece **v, size_t *n, const lex_token *t)
{
    if ((*n & (*n - 1)) == 0)      /* 0, 1, 2, 4, ...: grow to twice */
        assert_non_null(*v = realloc(*v, (*n ? 2 * *n : 1) * sizeof(**v)));
    (*v)[*n].s = t->start;
    (*v)[(*n)++].len = t->len;
}

/* Every identifier into x->seen, and the ones the analysis reads by their
 * place (after '.' or '->', next to '##') into their sets. */
static void an_rn_note(an_rn *x, const lex_token *t, void *arg)
{
    lex_token *prev = arg;

    if (t->kind == LEX_IDENT) {
        assert_int_equal(pd_map_put(x->seen, t->start, t->len, (void *)1), 0);
        if (t->spliced)
            assert_int_equal(pd_map_put(x->spliced, t->start, t->len, (void *)1), 0);
        if (prev->kind == LEX_PUNCT && (prev->punct == '.' || prev->punct == LEX_P2('-', '>')))
            assert_int_equal(pd_map_put(x->member, t->start, t->len, (void *)1), 0);
    }
    if (t->kind == LEX_PUNCT && t->punct == LEX_P2('#', '#') && prev->kind == LEX_IDENT) {
        assert_int_equal(pd_map_put(x->pasted, prev->start, prev->len, (void *)1), 0);
        an_rn_piece_add(&x->left, &x->nleft, prev);
    }
    if (prev->kind == LEX_PUNCT && prev->punct == LEX_P2('#', '#') && t->kind == LEX_IDENT) {
        assert_int_equal(pd_map_put(x->pasted, t->start, t->len, (void *)1), 0);
        an_rn_piece_add(&x->right, &x->nright, t);
    }
    *prev = *t;
}

/* The words of text (identifier characters, '@' included) into m. */
static void an_rn_words_of(pd_map *m, const char *text)
{
    const char *p = text;

    while (*p) {
        const char *q = p;

        while (isalnum((unsigned char)*q) || *q == '_' || *q == '@')
            q++;
        if (q > p) {
            assert_int_equal(pd_map_put(m, p, (size_t)(q - p), (void *)1), 0);
            p = q;
        } else {
            p++;
        }
    }
}

/* The macros whose body pastes (`##`), then the names in their calls'
 * arguments: a function a macro makes is named by pasting its argument
 * (`make_##name`), a name written nowhere (mexp.h). */
typedef struct {
    pd_map *pasters;
    int state;          /* 0; 1 after '#', 2 after `define`, 3 in a pasting
                         * macro's body; 4 after a paster's name, 5+ in its
                         * call (5 + depth) */
    const char *name;
    size_t name_len;
    int pastes;
} an_rn_macros;

static void an_rn_pasters(an_rn *x, const lex_token *t, void *arg)
{
    an_rn_macros *m = arg;

    if (t->kind == LEX_PP_BEGIN) {
        m->state = 1;
    } else if (t->kind == LEX_PP_END) {
        if (m->state == 3 && m->pastes)
            assert_int_equal(pd_map_put(m->pasters, m->name, m->name_len, (void *)1), 0);
        m->state = 0;
    } else if (m->state == 1) {
        m->state = t->kind == LEX_IDENT && t->len == 6 && !memcmp(t->start, "define", 6) ? 2 : 0;
    } else if (m->state == 2) {
        m->state = t->kind == LEX_IDENT ? 3 : 0;
        m->name = t->start;
        m->name_len = t->len;
        m->pastes = 0;
    } else if (m->state == 3) {
        m->pastes |= t->kind == LEX_PUNCT && t->punct == LEX_P2('#', '#');
    }
}

static void an_rn_paste_args(an_rn *x, const lex_token *t, void *arg)
{
    an_rn_macros *m = arg;

    if (m->state >= 5) {
        if (t->kind == LEX_PUNCT && t->punct == '(')
            m->state++;
        else if (t->kind == LEX_PUNCT && t->punct == ')')
            m->state = m->state == 5 ? 0 : m->state - 1;
        else if (t->kind == LEX_IDENT)
            assert_int_equal(pd_map_put(x->pasted, t->start, t->len, (void *)1), 0);
    } else if (m->state == 4) {
        m->state = t->kind == LEX_PUNCT && t->punct == '(' ? 5 : 0;
    }
    if (m->state == 0 && t->kind == LEX_IDENT && pd_map_get(m->pasters, t->start, t->len))
        m->state = 4;
}

typedef struct an_rn_tmpl an_rn_tmpl;

typedef struct {
    pd_map *avoid;
    char *out;          /* the renamed copy of the source (templates) */
    const char *src;
    an_rn_tmpl *tmpl;   /* renaming a template's atoms */
    int stretch;        /* plain files: new names of another length */
    pd_buf ob;          /* plain files: the renamed source, written in order */
    size_t last;        /* bytes of src copied to ob */
    uint32_t dline;     /* the line of the last renamed name, */
    long delta;         /* and how much longer the renamed line is so far */
} an_rn_job;

/* s with every new name turned back, appended to b. */
static void an_rn_back(const an_rn *x, pd_buf *b, const char *s)
{
    const char *p = s;

    if (!s) {
        pd_buf_put(b, "(null)", 6);
        return;
    }
    while (*p) {
        const char *q = p, *o;

        while (isalnum((unsigned char)*q) || *q == '_' || *q == '@')
            q++;
        if (q == p) {
            pd_buf_put(b, p++, 1);
            continue;
        }
        /* a flow fact's argument is its name after an 'i' (analyze_flow.c) */
        if ((o = pd_map_get(x->new2old, p, (size_t)(q - p))) != NULL) {
            pd_buf_put(b, o, strlen(o));
        } else if (*p == 'i' && q - p > 1 &&
                   (o = pd_map_get(x->new2old, p + 1, (size_t)(q - p - 1))) != NULL) {
            pd_buf_put(b, "i", 1);
            pd_buf_put(b, o, strlen(o));
        } else {
            pd_buf_put(b, p, (size_t)(q - p));
        }
        p = q;
    }
}

/* Every field of res as lines of text, the strings turned back by x
 * (NULL: as they are). */
static void an_rn_dump(const an_rn *x, pd_buf *b, const an_result *res)
{
    size_t i, k;

#define STR(s) do { if (x) an_rn_back(x, b, (s)); \
                    else pd_buf_printf(b, "%s", (s) ? (s) : "(null)"); } while (0)
    pd_buf_printf(b, "file status %d ready %d lines %u cpp %d notes ", (int)res->status,
                  res->universal_ready, res->lines, res->cpp);
    STR(res->notes);
    pd_buf_printf(b, "\ntypes ");
    STR(res->hpy_types);
    for (k = 0; k < AN_CLASS_COUNT; k++)
        pd_buf_printf(b, " %u", res->tokens[k]);
    for (i = 0; i < res->nfunctions; i++) {
        const an_function *f = &res->functions[i];

        pd_buf_printf(b, "\nfn ");
        STR(f->name);
        pd_buf_printf(b, " %u-%u@%u st %d obj %d why %d %d %d marker ", f->start_line,
                      f->end_line, f->name_line, (int)f->status, (int)f->object_state,
                      f->status_finding, f->object_finding, f->object_also);
        STR(f->object_marker);
        pd_buf_printf(b, ":%u mentions %d cpython %d chain ", f->object_marker_line,
                      f->mentions, f->cpython);
        STR(f->object_chain);
        pd_buf_printf(b, " macro ");
        STR(f->name_from_macro);
        pd_buf_printf(b, "\n  calls ");
        STR(f->calls);
        pd_buf_printf(b, "\n  flow ");
        STR(f->flow);
        for (k = 0; k < AN_CLASS_COUNT; k++)
            pd_buf_printf(b, " %u", f->tokens[k]);
    }
    for (i = 0; i < res->nfindings; i++) {
        const an_finding *f = &res->findings[i];

        pd_buf_printf(b, "\nfinding %u:%u cls %d fn %d guarded %d rule %s text ", f->line,
                      an_rn_col(x, f->line, f->column), (int)f->cls, f->function, f->guarded,
                      f->rule ? f->rule : "(null)");
        STR(f->text);
        pd_buf_printf(b, " reason ");
        STR(f->reason);
    }
    pd_buf_put(b, "\n", 1);
#undef STR
}

/* Where a and b first differ (a line's start, or 60 bytes before), for
 * the message. */
static void an_rn_first_diff(const char *a, const char *b, char *out, size_t cap)
{
    const char *la = a, *lb = b;

    while (*a && *a == *b) {
        if (*a == '\n' || a - la >= 60) {
            la = *a == '\n' ? a + 1 : a - 30;
            lb = *a == '\n' ? b + 1 : b - 30;
        }
        a++;
        b++;
    }
    snprintf(out, cap, "\n  original: %.*s\n  renamed:  %.*s",
             (int)(a - la) + (int)strcspn(a, "\n") % 160, la,
             (int)(b - lb) + (int)strcspn(b, "\n") % 160, lb);
}

/* The renamed source of a failing case into PORTDASH_RENAME_OUT, when set
 * (to look at it). */
static void an_rn_keep(const char *out, size_t len)
{
    const char *keep = getenv("PORTDASH_RENAME_OUT");
    FILE *o = keep && *keep ? fopen(keep, "w") : NULL;

    if (o) {
        fwrite(out, 1, len, o);
        fclose(o);
    }
}

/* x for a file of rules r: empty maps, the list's words. */
static void an_rn_init(an_rn *x, const rules *r)
{
    size_t i;

    memset(x, 0, sizeof(*x));
    x->r = r;
    assert_non_null(x->words = pd_map_new(0));
    assert_non_null(x->old2new = pd_map_new(0));
    assert_non_null(x->new2old = pd_map_new(0));
    assert_non_null(x->seen = pd_map_new(0));
    assert_non_null(x->spliced = pd_map_new(0));
    assert_non_null(x->member = pd_map_new(0));
    assert_non_null(x->pasted = pd_map_new(0));
    for (i = 0; i < sizeof(an_rn_words) / sizeof(*an_rn_words); i++)
        assert_int_equal(pd_map_put(x->words, an_rn_words[i], strlen(an_rn_words[i]),
                                    (void *)1), 0);
}

static void an_rn_free(an_rn *x)
{
    size_t i;

    for (i = 0; i < x->nowned; i++)
        free(x->owned[i]);
    free(x->owned);
    pd_map_free(x->words);
    pd_map_free(x->old2new);
    pd_map_free(x->new2old);
    pd_map_free(x->seen);
    pd_map_free(x->spliced);
    pd_map_free(x->member);
    pd_map_free(x->pasted);
    free(x->left);
    free(x->right);
    free(x->occ);
}

/* What the analysis may read by its bytes, found in src: members, pastes
 * and the names in a pasting macro's calls. */
static void an_rn_survey(an_rn *x, const char *src, size_t len, int cpp)
{
    lex_token prev;
    an_rn_macros mac;

    memset(&prev, 0, sizeof(prev));
    an_rn_each(src, len, cpp, an_rn_note, x, &prev);
    memset(&mac, 0, sizeof(mac));
    assert_non_null(mac.pasters = pd_map_new(0));
    an_rn_each(src, len, cpp, an_rn_pasters, x, &mac);
    mac.state = 0;
    an_rn_each(src, len, cpp, an_rn_paste_args, x, &mac);
    pd_map_free(mac.pasters);
}

/* 1 when name is a numpy template's path (.c.src, .h.src, .inc.src). */
static int an_rn_template(const char *name)
{
    size_t n = strlen(name);

    return n > 4 && strcmp(name + n - 4, ".src") == 0;
}

typedef size_t (*an_rn_check_fn)(const rules *r, const char *path, const char *src,
                                 size_t len);

/* One analyzer case (the test's state is NAME.expect) through fn, with
 * its NAME.rules when there is one; skipped when it is not of the kind
 * the binary checks (templates or plain files). */
static void an_rn_case(void **state, an_rn_check_fn fn, int templates)
{
    const char *expect_name = *state;
    char src_name[256];
    rules *r;
    size_t len;
    char *src;

    src = tc_analyzer_case(CASES, expect_name, src_name, sizeof(src_name), &r, &len);
    if (an_rn_template(src_name) != templates) {
        free(src);
        rules_free(r);
        skip();
    }
    fn(r, src_name, src, len);
    free(src);
    rules_free(r);
}

/* Every file of the kind the binary checks in the list PORTDASH_RENAME_LIST
 * names through fn: one path a line (relative to the current directory),
 * plain files and templates mixed, each binary taking its own kind;
 * skipped when unset. */
static void an_rn_list(an_rn_check_fn fn, int templates)
{
    const char *list = getenv("PORTDASH_RENAME_LIST");
    char line[4096];
    size_t n = 0, names = 0;
    rules *r = NULL;
    FILE *f;

    if (!list || !*list)
        skip();
    if (!(f = fopen(list, "r")))
        fail_msg("cannot open PORTDASH_RENAME_LIST %s", list);
    assert_int_equal(rules_load_default(&r), 0);
    while (fgets(line, sizeof(line), f)) {
        size_t len;
        char *src;

        line[strcspn(line, "\n")] = '\0';
        if (!line[0] || an_rn_template(line) != templates)
            continue;
        if (!(src = tc_slurp(line, &len)))
            fail_msg("cannot read %s", line);
        names += fn(r, line, src, len);
        free(src);
        n++;
    }
    fclose(f);
    fprintf(stderr, "rename: %zu %s, %zu names renamed, all equal\n", n,
            templates ? "templates" : "files", names);
    rules_free(r);
}

#endif
