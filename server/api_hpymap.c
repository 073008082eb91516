/*
 * api_hpymap.c: the CPython -> HPy name table (see api_hpymap.h).
 */
#include <pthread.h>
#include <strings.h>
#include <stdlib.h>
#include <string.h>

#include "api_hpymap.h"

typedef struct {
    char *cpy;
    char *hpy;
    char *how;                   /* table | handle | abi | helper | macro | type | name |
                                  * manual */
    char *kind;                  /* one-to-one | generic | pattern */
    char *since;                 /* first HPy version that has the HPy names */
} api_hpymap_row;

static api_hpymap_row *api_hpymap_rows;
static size_t api_hpymap_n;
static char *api_hpymap_text;
static const char *api_hpymap_ver = "unknown";
static pthread_once_t api_hpymap_once = PTHREAD_ONCE_INIT;

static int api_hpymap_cmp(const void *a, const void *b)
{
    return strcmp(((const api_hpymap_row *)a)->cpy, ((const api_hpymap_row *)b)->cpy);
}

/* The columns after the CPython name: HPy name, how, kind, since (older
 * tables have fewer: how defaults to "table", kind to one-to-one). */
static void api_hpymap_split(api_hpymap_row *w, char *rest)
{
    char *col[4] = {rest, "table", "one-to-one", NULL};
    int i;

    for (i = 1; i < 4; i++) {
        char *tab = strchr(col[i - 1], '\t');

        if (!tab)
            break;
        *tab = '\0';
        col[i] = tab + 1;
    }
    w->hpy = col[0];
    w->how = col[1];
    w->kind = col[2];
    w->since = col[3];
}

/* Split a copy of the embedded text into rows; '#' lines are comments,
 * "@version<TAB>X" names the release.  On no memory the table stays empty
 * (every lookup says "none"), which a test would notice. */
static void api_hpymap_load(void)
{
    size_t cap = 0;
    char *line, *save = NULL;

    if (!(api_hpymap_text = strdup(hpy_api_text)))
        return;
    for (line = strtok_r(api_hpymap_text, "\n", &save); line;
         line = strtok_r(NULL, "\n", &save)) {
        char *tab = strchr(line, '\t');

        if (line[0] == '#' || !tab)
            continue;
        *tab = '\0';
        if (strcmp(line, "@version") == 0) {
            api_hpymap_ver = tab + 1;
            continue;
        }
        if (api_hpymap_n == cap) {
            api_hpymap_row *v = realloc(api_hpymap_rows, (cap ? cap * 2 : 256) * sizeof(*v));

            if (!v)
                break;
            api_hpymap_rows = v;
            cap = cap ? cap * 2 : 256;
        }
        api_hpymap_rows[api_hpymap_n].cpy = line;
        api_hpymap_split(&api_hpymap_rows[api_hpymap_n], tab + 1);
        api_hpymap_n++;
    }
    qsort(api_hpymap_rows, api_hpymap_n, sizeof(*api_hpymap_rows), api_hpymap_cmp);
}

const char *api_hpymap_lookup(const char *cpy, const char **how)
{
    return api_hpymap_lookup_row(cpy, how, NULL, NULL);
}

const char *api_hpymap_lookup_row(const char *cpy, const char **how, const char **kind,
                                  const char **since)
{
    api_hpymap_row key = {(char *)cpy, NULL, NULL, NULL, NULL}, *hit;

    pthread_once(&api_hpymap_once, api_hpymap_load);
    hit = bsearch(&key, api_hpymap_rows, api_hpymap_n, sizeof(key), api_hpymap_cmp);
    if (how)
        *how = hit ? hit->how : NULL;
    if (kind)
        *kind = hit ? hit->kind : NULL;
    if (since)
        *since = hit ? hit->since : NULL;
    return hit ? hit->hpy : NULL;
}

const char *api_hpymap_version(void)
{
    pthread_once(&api_hpymap_once, api_hpymap_load);
    return api_hpymap_ver;
}

json_t *api_hpymap_matching(const char *q)
{
    json_t *out = json_array();
    size_t i, n = strlen(q);

    pthread_once(&api_hpymap_once, api_hpymap_load);
    for (i = 0; n && i < api_hpymap_n; i++) {
        const api_hpymap_row *w = &api_hpymap_rows[i];
        int rank;

        if (!strcasestr(w->cpy, q) && !strcasestr(w->hpy, q))
            continue;
        rank = strcasecmp(w->cpy, q) == 0 || strcasecmp(w->hpy, q) == 0 ? 0
             : strncasecmp(w->cpy, q, n) == 0 || strncasecmp(w->hpy, q, n) == 0 ? 1 : 2;
        json_array_append_new(out, json_pack("{s:s, s:s, s:s, s:s, s:s?, s:s, s:i}",
                                             "name", w->cpy, "hpy", w->hpy, "hpy_source",
                                             w->how, "hpy_kind", w->kind, "hpy_since",
                                             w->since, "path", "", "rank", rank));
    }
    return out;
}
