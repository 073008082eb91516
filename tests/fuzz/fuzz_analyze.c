/*
 * fuzz_analyze.c: libFuzzer target over the lexer and the analyzer.
 *
 * The first input byte picks the file kind (C, C++, numpy template, header
 * template) so that every language path of an_analyze() is reached; the rest
 * is the file's bytes.  Each input is lexed on its own (with comments
 * returned, so both lexer modes run) and then analysed with the default
 * rules; the result is walked so that every string it holds is read.  The
 * input is then analysed through a new chunk memo twice (cold: chunks
 * recorded; warm: chunks reused) and both results must equal the plain
 * one (an_result_diff), or the target aborts.  A template's expansion is
 * lexed and replayed from its template's tokens (tmpl_replay.h), in C and
 * C++, and the two must agree token by token (tmpl_replay_check), or the
 * target aborts.
 * Build and run with `make fuzz` (clang -fsanitize=fuzzer,address,undefined);
 * the seed corpus is tests/fixtures/analyze.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "analyzer/analyzer.h"
#include "analyzer/lex.h"
#include "analyzer/tmpl_replay.h"

static rules *fz_rules;

/* Walk a result, touching every string, so ASan sees bad pointers. */
static size_t fz_walk(const an_result *res)
{
    size_t i, n = 0;

    for (i = 0; i < res->nfunctions; i++) {
        n += strlen(res->functions[i].name);
        if (res->functions[i].end_line < res->functions[i].name_line ||
            res->functions[i].name_line < res->functions[i].start_line ||
            res->functions[i].end_line > res->lines + 1)
            abort();
    }
    for (i = 0; i < res->nfindings; i++)
        n += strlen(res->findings[i].text) + strlen(res->findings[i].rule);
    if (res->notes)
        n += strlen(res->notes);
    return n;
}

/* A template's replay gives the lexer's tokens, in C and C++. */
static void fz_replay(const char *buf, size_t len)
{
    tmpl_out *t = NULL;
    size_t bad;

    if (tmpl_expand(&t, NULL, buf, len) != 0 || !t)
        return;
    if (((bad = tmpl_replay_check(t, buf, len, 0, NULL)) != 0 && bad != (size_t)-1) ||
        ((bad = tmpl_replay_check(t, buf, len, LEX_F_CPP, NULL)) != 0 && bad != (size_t)-1))
        abort();
    tmpl_free(t);
}

/* The memo gives the plain result `want`, cold and warm. */
static void fz_memo(const an_result *want, const char *path, const char *buf,
                    size_t len)
{
    an_memo *m = NULL;
    an_result *got = NULL;
    char why[256];
    int i;

    if (an_memo_new(&m, fz_rules, 1 << 20) != 0)
        return;
    for (i = 0; i < 2; i++) {
        if (an_analyze_memo(&got, fz_rules, m, path, buf, len) != 0)
            break;
        if (an_result_diff(got, want, why, sizeof(why)))
            abort();
        an_result_free(got);
        got = NULL;
    }
    an_memo_free(m);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const char *paths[] = {"f.c", "f.cpp", "f.c.src", "f.h.src"};
    const char *path = paths[0];
    an_result *res = NULL;
    lex_state lx;
    lex_token t;

    if (!fz_rules && rules_load_default(&fz_rules) != 0)
        abort();
    if (size > 0) {
        path = paths[data[0] & 3];
        data++;
        size--;
    }
    lex_init(&lx, (const char *)data, size, LEX_F_COMMENTS | LEX_F_CPP);
    do
        lex_next(&lx, &t);
    while (t.kind != LEX_EOF);
    if (path[3] == '.')                       /* f.c.src, f.h.src */
        fz_replay((const char *)data, size);
    if (an_analyze(&res, fz_rules, path, (const char *)data, size) == 0) {
        fz_walk(res);
        fz_memo(res, path, (const char *)data, size);
        an_result_free(res);
    }
    return 0;
}
