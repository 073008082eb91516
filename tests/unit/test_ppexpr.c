/*
 * test_ppexpr.c: the values an_ppexpr_eval gives #if expressions, at the
 * edges of C's rules (C11 6.10.1p4: intmax_t/uintmax_t, the usual
 * conversions) and of what is known without macros.  The analyzer cases
 * pp_values.c and tmpl_conditions.c.src show what the values do to
 * functions; this table checks the arithmetic.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "analyzer/analyze_ppexpr.h"
#include "analyzer/lex.h"

typedef struct {
    const char *expr;
    int cpp;          /* the file is C++ */
    int known;        /* 1: the value is known */
    int64_t value;    /* and is this */
} pp_case;

static const pp_case cases[] = {
    { "2 == 1", 0, 1, 0 },
    { "(3 <= 3 && !0)", 0, 1, 1 },
    { "-1 < 0u", 0, 1, 0 },                  /* -1 becomes UINTMAX_MAX */
    { "-1 < 0", 0, 1, 1 },
    { "0xffffffffffffffff == -1", 0, 1, 1 }, /* hex: uintmax_t */
    { "0xffffffffffffffff > 0", 0, 1, 1 },
    { "18446744073709551615", 0, 0, 0 },     /* decimal: too big */
    { "18446744073709551615u == -1", 0, 1, 1 },
    { "18446744073709551616u", 0, 0, 0 },    /* too big for anything */
    { "-9223372036854775807 - 1 < 0", 0, 1, 1 },
    { "(-9223372036854775807 - 1) / -1", 0, 0, 0 },
    { "-7 / 2", 0, 1, -3 },                  /* truncation toward zero */
    { "-7 % 2", 0, 1, -1 },
    { "1 << 63 >> 63", 0, 1, -1 },           /* as GCC shifts */
    { "1u << 63 >> 63", 0, 1, 1 },
    { "1 << 64", 0, 0, 0 },
    { "1 << -1", 0, 0, 0 },
    { "010 + 0b11 + 1'0", 0, 1, 21 },        /* octal, binary, separator */
    { "10UL * 3ll", 0, 1, 30 },
    { "1 ? 2 : 3", 0, 1, 2 },
    { "0 ? 2 : 1 ? 4 : 5", 0, 1, 4 },
    { "X ? 7 : 7", 0, 1, 7 },                /* both arms agree */
    { "X ? 7 : 8", 0, 0, 0 },
    { "1 + 2 * 3 - 4 / 2 == 5", 0, 1, 1 },   /* precedence */
    { "1 | 2 ^ 3 & 1", 0, 1, 3 },
    { "~0 == -1", 0, 1, 1 },
    { "X && 0", 0, 1, 0 },
    { "0 && X", 0, 1, 0 },
    { "X || 2", 0, 1, 1 },
    { "X * 0 + 1", 0, 1, 1 },
    { "X & 0", 0, 1, 0 },
    { "X + 0", 0, 0, 0 },                    /* only && || * & decide */
    { "X | 1", 0, 0, 0 },
    { "F(a, (b)) || 1", 0, 1, 1 },           /* a macro call skipped */
    { "defined X", 0, 0, 0 },
    { "defined(__cplusplus)", 0, 1, 0 },
    { "defined __cplusplus", 1, 1, 1 },
    { "__cplusplus >= 201103L", 0, 1, 0 },   /* undefined in C: 0 */
    { "__cplusplus >= 201103L", 1, 0, 0 },   /* its value is unknown */
    { "true && !false", 1, 1, 1 },           /* C++ */
    { "true", 0, 0, 0 },                     /* C: 0 without <stdbool.h> */
    { "false || X", 0, 0, 0 },
    { "!false", 0, 1, 1 },
    { "(0 || 0)", 0, 1, 0 },                 /* both known, both 0 */
    { "0 || 0", 0, 1, 0 },
    { "(1 > 1 || 0) && 1", 0, 1, 0 },        /* lowlevel_strided_loops */
    { "!1 || (0 && 1)", 0, 1, 0 },           /* loops_minmax */
    { "2 && 3", 0, 1, 1 },
    { "(2 || 0) == 1", 0, 1, 1 },            /* a truth value is 0 or 1 */
    { "1 ? 0 : 0 || 1", 0, 1, 0 },           /* ?: binds looser */
    { "1 || 0 ? 0 : 0", 0, 1, 0 },
    { "'a' == 97", 0, 0, 0 },                /* character: no value */
    { "1.0", 0, 0, 0 },                      /* float: not an #if value */
    { "1e3 > 1", 0, 0, 0 },
    { "0x1p3", 0, 0, 0 },
    { "08", 0, 0, 0 },                       /* not octal */
    { "1 / 0", 0, 0, 0 },
    { "0 && 1 / 0", 0, 1, 0 },               /* not evaluated */
    { "(1", 0, 0, 0 },                       /* not an expression */
    { "1)", 0, 0, 0 },
    { "1 2", 0, 0, 0 },
    { "1 +", 0, 0, 0 },
    { "1 ? 2", 0, 0, 0 },
    { "defined", 0, 0, 0 },
    { "defined(X", 0, 0, 0 },
    { "F(1", 0, 0, 0 },
    { "1 = 1", 0, 0, 0 },
    { "\"s\"", 0, 0, 0 },
    { "", 0, 0, 0 },
    { "1 \\\n+ 1 == 0x\\\n2", 0, 1, 1 },      /* continued lines */
};

/* The tokens of `#if EXPR` after `if`, up to the directive's end. */
static int tokens_of(const char *text, lex_token *v, int cap)
{
    lex_state lx;
    lex_token t;
    int n = 0;

    lex_init(&lx, text, strlen(text), 0);
    lex_next(&lx, &t);                    /* # */
    lex_next(&lx, &t);                    /* if */
    for (;;) {
        lex_next(&lx, &t);
        if (t.kind == LEX_PP_END || t.kind == LEX_EOF)
            return n;
        assert_true(n < cap);
        v[n++] = t;
    }
}

static void test_values(void **state)
{
    char text[256];
    lex_token v[64];
    size_t i;
    int bad = 0;

    (void)state;
    for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        const pp_case *c = &cases[i];
        int64_t value = 12345;
        int n, known;

        snprintf(text, sizeof(text), "#if %s\n", c->expr);
        n = tokens_of(text, v, 64);
        known = an_ppexpr_eval(v, n, c->cpp, &value);
        if (known != c->known || (known && value != c->value) ||
            (!known && value != 12345)) {
            fprintf(stderr, "#if %s (%s): known %d value %lld, want %d %lld\n",
                    c->expr, c->cpp ? "C++" : "C", known, (long long)value,
                    c->known, (long long)c->value);
            bad++;
        }
    }
    assert_int_equal(bad, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_values),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
