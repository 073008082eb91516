/*
 * test_hpy_table.c: the names of HPy's replacement table are real (issue
 * 21.8).  Every CPython name of server/hpy_api.tsv is one CPython declares:
 * in the set the generator recorded (ingest/rules/cpython.names, from
 * tools/gen_capi_names.py) and in the headers `make deps` installs
 * (python3-dev, read here directly).  Every HPy name of a row is in HPy's
 * names of the version the row says (server/hpy_api_names.tsv, recorded by
 * tools/gen_hpy_api.py from HPy's headers), and that version is the first
 * that has them all.  Before issue 21 about 50 rows named CPython functions
 * that do not exist (PyTupleBuilder_New, PyCapsule_Get, Py_New).
 * Run from the repository root.
 */
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "pd_file.h"
#include "pd_map.h"

#define CPYTHON_INCLUDE "/usr/include/python3.11"
#define MAXVER 8

/* Every text read stays allocated until the end: the maps borrow keys. */
static char *g_texts[4096];
static size_t g_ntexts;

static char *slurp(const char *path)
{
    char *text = NULL;

    if (pd_file_read(path, 0, NULL, &text, NULL) < 0)
        fail_msg("cannot read %s", path);
    assert_true(g_ntexts < sizeof(g_texts) / sizeof(g_texts[0]));
    return g_texts[g_ntexts++] = text;
}

static int ident_char(char c, int first)
{
    return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
           (!first && c >= '0' && c <= '9');
}

/* Every identifier of the text into m (value: non-NULL). */
static void add_identifiers(pd_map *m, const char *t)
{
    while (*t) {
        size_t n = 0;

        if (*t >= '0' && *t <= '9') {
            while (ident_char(*t, 0))   /* a number: 0x1Fu is not x1Fu */
                t++;
            continue;
        }
        if (!ident_char(*t, 1)) {
            t++;
            continue;
        }
        while (ident_char(t[n], n == 0))
            n++;
        assert_int_equal(pd_map_put(m, t, n, (void *)1), 0);
        t += n;
    }
}

/* The identifiers of every header under dir, recursively. */
static void read_headers(pd_map *m, const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    char path[1024];

    if (!d)
        fail_msg("no %s: make deps installs python3-dev (CPython's headers)", dir);
    while ((e = readdir(d))) {
        size_t n = strlen(e->d_name);

        if (e->d_name[0] == '.')
            continue;
        snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
        if (n > 2 && strcmp(e->d_name + n - 2, ".h") == 0)
            add_identifiers(m, slurp(path));
        else if (!strchr(e->d_name, '.'))
            read_headers(m, path);
    }
    closedir(d);
}

/* Split a line into tab-separated columns in place; the count. */
static int columns(char *line, char **col, int max)
{
    int n = 0;

    col[n++] = line;
    for (; *line && n < max; line++)
        if (*line == '\t') {
            *line = '\0';
            col[n++] = line + 1;
        }
    return n;
}

/* Call fn on each data line of a file ('#' lines skipped). */
static void each_line(const char *path, void (*fn)(char **col, int n, void *arg), void *arg)
{
    char *text = slurp(path), *line, *save = NULL, *col[8];

    for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
        if (line[0] != '#')
            fn(col, columns(line, col, 8), arg);
}

/* ---- the recorded sets ------------------------------------------------ */

typedef struct {
    pd_map *names;               /* name -> bit mask of versions (+1 << 30) */
    const char *ver[MAXVER];
    int nver;
    char cpython[32];            /* cpython.names' @cpython */
} sets;

static void cpython_line(char **col, int n, void *arg)
{
    sets *s = arg;

    if (strcmp(col[0], "@cpython") == 0 && n > 1)
        snprintf(s->cpython, sizeof(s->cpython), "%s", col[1]);
    else if (col[0][0] != '@')
        assert_int_equal(pd_map_put(s->names, col[0], strlen(col[0]), (void *)1), 0);
}

static void hpy_line(char **col, int n, void *arg)
{
    sets *s = arg;
    uintptr_t mask = 1u << 30;
    int i;

    assert_true(n >= 2);
    if (strcmp(col[0], "@version") == 0) {
        assert_true(s->nver < MAXVER);
        s->ver[s->nver++] = col[1];
        return;
    }
    for (i = 0; i < s->nver; i++) {
        const char *p = strstr(col[1], s->ver[i]);
        size_t l = strlen(s->ver[i]);

        /* whole words of the space-separated list */
        while (p && ((p > col[1] && p[-1] != ' ') || (p[l] && p[l] != ' ')))
            p = strstr(p + 1, s->ver[i]);
        if (p)
            mask |= 1u << i;
    }
    assert_int_equal(pd_map_put(s->names, col[0], strlen(col[0]), (void *)mask), 0);
}

/* ---- the table ---------------------------------------------------------- */

typedef struct {
    sets *cpy, *hpy;
    pd_map *headers;
    int rows, hpy_names;
} check;

/* The HPy names in an HPy column: identifiers of HPy's spelling and
 * ctx->h_NAME (a pattern row holds several, `return` and `ctx` are not). */
static int hpy_names_of(const char *h, char names[][128], int max)
{
    const char *p = h;
    int n = 0;

    while (*p && n < max) {
        size_t pre = strncmp(p, "ctx->h_", 7) == 0 ? 5 : 0, len = pre;

        if (!pre && (!ident_char(*p, 1) || (p > h && ident_char(p[-1], 0)))) {
            p++;
            continue;
        }
        while (ident_char(p[len], len == pre))
            len++;
        if (len < 128 && (pre || strncmp(p, "HPy", 3) == 0 || strncmp(p, "_HPy", 4) == 0 ||
                          strncmp(p, "HPY", 3) == 0 || strncmp(p, "_HPY", 4) == 0)) {
            memcpy(names[n], p, len);
            names[n++][len] = '\0';
        }
        p += len;
    }
    return n;
}

static void table_row(char **col, int n, void *arg)
{
    check *c = arg;
    char names[8][128];
    uintptr_t all = ~(uintptr_t)0;
    int i, k, since = -1;

    if (col[0][0] == '@')
        return;
    assert_int_equal(n, 5);
    c->rows++;
    if (!pd_map_get(c->cpy->names, col[0], strlen(col[0])))
        fail_msg("%s: not a name CPython %s declares (ingest/rules/cpython.names)", col[0],
                 c->cpy->cpython);
    if (!pd_map_get(c->headers, col[0], strlen(col[0])))
        fail_msg("%s: in no header of " CPYTHON_INCLUDE, col[0]);
    for (i = 0; i < c->hpy->nver; i++)
        if (strcmp(col[4], c->hpy->ver[i]) == 0)
            since = i;
    if (since < 0)
        fail_msg("%s: since %s is not a recorded HPy version", col[0], col[4]);
    k = hpy_names_of(col[1], names, 8);
    if (k == 0)
        fail_msg("%s: no HPy name in '%s'", col[0], col[1]);
    for (i = 0; i < k; i++) {
        uintptr_t m = (uintptr_t)pd_map_get(c->hpy->names, names[i], strlen(names[i]));

        if (!(m & (1u << since)))
            fail_msg("%s -> %s: %s is not in HPy %s", col[0], col[1], names[i], col[4]);
        all &= m;
        c->hpy_names++;
    }
    /* the first version that has them all */
    for (i = 0; i < since; i++)
        if (all & (1u << i))
            fail_msg("%s -> %s: since %s, but HPy %s has it", col[0], col[1], col[4],
                     c->hpy->ver[i]);
}

static void test_every_name_of_the_table_exists(void **state)
{
    sets cpy = {pd_map_new(PD_MAP_TRUSTED), {NULL}, 0, ""};
    sets hpy = {pd_map_new(PD_MAP_TRUSTED), {NULL}, 0, ""};
    check c = {&cpy, &hpy, pd_map_new(PD_MAP_TRUSTED), 0, 0};
    char *patch;

    (void)state;
    each_line("ingest/rules/cpython.names", cpython_line, &cpy);
    each_line("server/hpy_api_names.tsv", hpy_line, &hpy);
    read_headers(c.headers, CPYTHON_INCLUDE);
    /* the recorded set is of the installed CPython, 3.11 */
    patch = slurp(CPYTHON_INCLUDE "/patchlevel.h");
    assert_non_null(strstr(patch, "#define PY_VERSION "));
    assert_non_null(strstr(strstr(patch, "#define PY_VERSION "), "\"3.11."));
    assert_int_equal(strncmp(cpy.cpython, "3.11.", 5), 0);
    assert_true(pd_map_count(cpy.names) > 2000);
    assert_true(hpy.nver >= 3);
    each_line("server/hpy_api.tsv", table_row, &c);
    assert_true(c.rows > 250);
    assert_true(c.hpy_names >= c.rows);
    pd_map_free(cpy.names);
    pd_map_free(hpy.names);
    pd_map_free(c.headers);
}

/* The checks can fail: a made-up row is refused. */
static void test_a_made_up_row_is_refused(void **state)
{
    sets cpy = {pd_map_new(PD_MAP_TRUSTED), {NULL}, 0, "3.11.2"};
    char names[8][128];

    (void)state;
    each_line("ingest/rules/cpython.names", cpython_line, &cpy);
    /* HPy -> Py swapped names that the old table had */
    assert_null(pd_map_get(cpy.names, "PyTupleBuilder_New", 18));
    assert_null(pd_map_get(cpy.names, "PyCapsule_Get", 13));
    assert_null(pd_map_get(cpy.names, "Py_New", 6));
    assert_non_null(pd_map_get(cpy.names, "PyTuple_GET_ITEM", 16));
    /* the HPy names of a pattern row */
    assert_int_equal(hpy_names_of("return HPy_Dup(ctx, ctx->h_None)", names, 8), 2);
    assert_string_equal(names[0], "HPy_Dup");
    assert_string_equal(names[1], "ctx->h_None");
    assert_int_equal(hpy_names_of("HPY_SSIZE_T_MAX", names, 8), 1);
    pd_map_free(cpy.names);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_name_of_the_table_exists),
        cmocka_unit_test(test_a_made_up_row_is_refused),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);

    while (g_ntexts)
        free(g_texts[--g_ntexts]);
    return rc;
}
