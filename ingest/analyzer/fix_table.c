/*
 * fix_table.c: the rewrite table of fix.h, read once from the embedded
 * ingest/rules/fix_calls.tsv (what may be rewritten, with its shape) and
 * server/hpy_api.tsv (to say "not one-to-one" for the other rows).  Also
 * the token helpers and list storage the rest of the engine shares.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "fix_int.h"
#include "pd_domain.h"
#include "pd_error.h"

extern const char fix_calls_text[];
extern const char hpy_api_text[];

static fix_row *fix_rows;
static size_t fix_nrows;
static char *fix_pool[2];
static pthread_once_t fix_once = PTHREAD_ONCE_INIT;

static int fix_row_cmp(const void *a, const void *b)
{
    return strcmp(((const fix_row *)a)->name, ((const fix_row *)b)->name);
}

static fix_shape fix_shape_of(const char *s)
{
    static const struct { const char *w; fix_shape s; } m[] = {
        {"name", FIX_SHAPE_NAME}, {"handle", FIX_SHAPE_HANDLE},
        {"call:same", FIX_SHAPE_SAME}, {"call:void", FIX_SHAPE_VOID},
        {"call:handle", FIX_SHAPE_HANDLE_RES}, {"call:flag", FIX_SHAPE_FLAG}};
    size_t i;

    for (i = 0; i < sizeof(m) / sizeof(m[0]); i++)
        if (strcmp(s, m[i].w) == 0)
            return m[i].s;
    return FIX_SHAPE_NONE;
}

/* Split the tab-separated lines of pool (modified in place) into rows;
 * `calls`: fix_calls.tsv columns, else hpy_api.tsv's (kind in column 4). */
static int fix_read(char *pool, int calls)
{
    char *line = pool, *next;

    for (; line && *line; line = next) {
        char *f[5] = {0};
        int k = 0;

        if ((next = strchr(line, '\n')))
            *next++ = '\0';
        if (*line == '#' || *line == '@')
            continue;
        for (f[0] = line; k < 4 && f[k] && (f[k + 1] = strchr(f[k], '\t')); k++)
            *f[k + 1]++ = '\0';
        if (k < 4)
            continue;
        if (fix_nrows % 256 == 0) {
            fix_row *p = realloc(fix_rows, (fix_nrows + 256) * sizeof(*p));

            if (!p)
                return PD_ENOMEM;
            fix_rows = p;
        }
        fix_rows[fix_nrows].name = f[0];
        fix_rows[fix_nrows].hpy = f[1];
        fix_rows[fix_nrows].since = calls ? f[2] : f[4];
        fix_rows[fix_nrows].shape = calls ? fix_shape_of(f[3]) : FIX_SHAPE_NONE;
        fix_rows[fix_nrows].params = calls && strcmp(f[4], "-") ? f[4] : "";
        /* 1: generic or pattern; 2: one-to-one, shape not confirmed */
        fix_rows[fix_nrows++].other = calls ? 0 : strcmp(f[3], "one-to-one") == 0 ? 2 : 1;
    }
    return 0;
}

static void fix_load(void)
{
    size_t i, k;

    if (!(fix_pool[0] = strdup(fix_calls_text)) || !(fix_pool[1] = strdup(hpy_api_text)) ||
        fix_read(fix_pool[0], 1) || fix_read(fix_pool[1], 0)) {
        fix_nrows = 0;
        return;
    }
    qsort(fix_rows, fix_nrows, sizeof(*fix_rows), fix_row_cmp);
    /* A name both tables know keeps its fix_calls row (sorted stably by
     * hand: the fix_calls row is the one with other == 0). */
    for (i = k = 0; i < fix_nrows; i++) {
        if (k && strcmp(fix_rows[k - 1].name, fix_rows[i].name) == 0) {
            if (fix_rows[k - 1].other && !fix_rows[i].other)
                fix_rows[k - 1] = fix_rows[i];
            continue;
        }
        fix_rows[k++] = fix_rows[i];
    }
    fix_nrows = k;
}

const fix_row *fix_table_find(const char *s, size_t n)
{
    char key[128];
    fix_row probe;

    pthread_once(&fix_once, fix_load);
    if (n == 0 || n >= sizeof(key) || !fix_nrows)
        return NULL;
    memcpy(key, s, n);
    key[n] = '\0';
    probe.name = key;
    return bsearch(&probe, fix_rows, fix_nrows, sizeof(*fix_rows), fix_row_cmp);
}

int fix_toks_lex(fix_toks *tk, const char *path, const char *buf, size_t len)
{
    size_t cap = 0;
    int cpp = pd_path_kind(path) == PD_SRC_CPP;
    lex_state lx;
    lex_token t;
    int in_pp = 0;

    memset(tk, 0, sizeof(*tk));
    lex_init(&lx, buf, len, cpp ? LEX_F_CPP : 0);
    for (;;) {
        lex_next(&lx, &t);
        if (t.kind == LEX_EOF)
            break;
        if (t.kind == LEX_PP_BEGIN || t.kind == LEX_PP_END) {
            in_pp = t.kind == LEX_PP_BEGIN;
            continue;
        }
        if (tk->n == cap) {
            size_t nc = cap ? cap * 2 : 1024;
            lex_token *p = realloc(tk->t, nc * sizeof(*p));
            unsigned char *q = p ? realloc(tk->pp, nc) : NULL;

            if (p)
                tk->t = p;
            if (!q) {
                fix_toks_free(tk);
                return pd_error_nomem("finding fixes");
            }
            tk->pp = q;
            cap = nc;
        }
        tk->pp[tk->n] = (unsigned char)in_pp;
        tk->t[tk->n++] = t;
    }
    return 0;
}

void fix_toks_free(fix_toks *tk)
{
    free(tk->t);
    free(tk->pp);
    memset(tk, 0, sizeof(*tk));
}

long fix_toks_at(const fix_toks *tk, uint32_t line, uint32_t column)
{
    size_t lo = 0, hi = tk->n;

    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        const lex_token *t = &tk->t[mid];

        if (t->line < line || (t->line == line && t->column < column))
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < tk->n && tk->t[lo].line == line && tk->t[lo].column == column ? (long)lo : -1;
}

int fix_tok_is(const fix_toks *tk, long i, const char *s)
{
    size_t n = strlen(s);

    return i >= 0 && (size_t)i < tk->n && tk->t[i].len == n && !tk->t[i].spliced &&
           memcmp(tk->t[i].start, s, n) == 0 &&
           (tk->t[i].kind == LEX_IDENT || tk->t[i].kind == LEX_PUNCT);
}

long fix_list_add(fix_list *l, const fix_offer *o)
{
    fix_offer *x;

    if (l->n == l->cap) {
        size_t cap = l->cap ? l->cap * 2 : 32;
        fix_offer *p = realloc(l->v, cap * sizeof(*p));

        if (!p)
            return -1;
        l->v = p;
        l->cap = cap;
    }
    x = &l->v[l->n];
    *x = *o;
    if (o->text && !(x->text = strdup(o->text)))
        return -1;
    return (long)l->n++;
}

void fix_list_free(fix_list *l)
{
    size_t i;

    for (i = 0; i < l->n; i++)
        free(l->v[i].text);
    free(l->v);
    memset(l, 0, sizeof(*l));
}

const char *fix_reason_name(fix_reason r)
{
    static const char *const names[FIX_R_COUNT] = {
        "offered", "no-context", "not-one-to-one", "no-shape", "guarded", "in-macro",
        "handle-alone", "argument-pyobject", "argument-not-handle", "result-pyobject",
        "result-not-handle", "result-type", "call-shape", "overlap", "token-left",
        "new-finding", "status-worse"};

    return (unsigned)r < FIX_R_COUNT ? names[r] : "?";
}

int fix_rule_matches(const fix_offer *o, const char *rule)
{
    return strcmp(o->rule, rule) == 0 || strcmp(o->from, rule) == 0;
}

int fix_rule_known(const char *rule)
{
    const fix_row *row;

    if (strcmp(rule, "hpy-call") == 0 || strcmp(rule, "hpy-name") == 0)
        return 1;
    row = fix_table_find(rule, strlen(rule));
    return row && row->other == 0 && row->shape != FIX_SHAPE_NONE;
}

int fix_hpy_version_known(const char *v)
{
    /* server/hpy_api.tsv's "@versions\t0.0.4 0.9.0 master" line. */
    const char *line = strstr(hpy_api_text, "\n@versions\t"), *p, *end;
    size_t n = strlen(v);

    if (!line || n == 0)
        return 0;
    p = line + strlen("\n@versions\t");
    end = p + strcspn(p, "\n");
    while (p < end) {
        size_t w = strcspn(p, " \n");

        if (w == n && memcmp(p, v, n) == 0)
            return 1;
        p += w + (p[w] == ' ');
    }
    return 0;
}
