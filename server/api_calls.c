/*
 * api_calls.c: which of a commit's functions a call names (api_calls.h).
 */
#include <stdlib.h>
#include <string.h>

#include "api_calls.h"
#include "pd_error.h"
#include "pd_map.h"

/* A chain link: function `fn`, then link `next` (0: none; links are 1-based). */
typedef struct {
    uint32_t fn, next;
} ac_link;

struct api_calls {
    const uint32_t *files;
    pd_map *exact, *tail;          /* name -> first link + 1 */
    ac_link *links;
    size_t nlinks, cap;
};

/* Prepend function i to the chain of key[0..len) in map m. */
static int ac_add(api_calls *c, pd_map *m, const char *key, size_t len, uint32_t i)
{
    uint32_t head = (uint32_t)(uintptr_t)pd_map_get(m, key, len);

    if (c->nlinks == c->cap) {
        size_t cap = c->cap ? c->cap * 2 : 256;
        ac_link *v = realloc(c->links, cap * sizeof(*v));

        if (!v)
            return pd_error_nomem(NULL);
        c->links = v;
        c->cap = cap;
    }
    c->links[c->nlinks].fn = i;
    c->links[c->nlinks].next = head;
    c->nlinks++;
    return pd_map_put(m, key, len, (void *)(uintptr_t)c->nlinks) < 0 ? pd_error_nomem(NULL) : 0;
}

int api_calls_new(api_calls **out, const char *const *names, const uint32_t *files, size_t n)
{
    api_calls *c = calloc(1, sizeof(*c));
    size_t i;
    int rc = 0;

    *out = NULL;
    if (!c || !(c->exact = pd_map_new(PD_MAP_SEEDED)) || !(c->tail = pd_map_new(PD_MAP_SEEDED))) {
        api_calls_free(c);
        return pd_error_nomem(NULL);
    }
    c->files = files;
    for (i = 0; rc == 0 && i < n; i++) {
        const char *name = names[i], *p = name;

        rc = ac_add(c, c->exact, name, strlen(name), (uint32_t)i);
        /* every suffix after a "::": kw::S::f is also S::f and f */
        while (rc == 0 && (p = strstr(p, "::")) != NULL) {
            p += 2;
            if (*p)
                rc = ac_add(c, c->tail, p, strlen(p), (uint32_t)i);
        }
    }
    if (rc < 0) {
        api_calls_free(c);
        return rc;
    }
    *out = c;
    return 0;
}

/* The links of chain `head` whose function is in `file` (or all when
 * none is): how many, and the last counted in *one. */
static size_t ac_count(const api_calls *c, uint32_t head, uint32_t file, int *local,
                       uint32_t *one)
{
    size_t all = 0, here = 0;
    uint32_t k;

    for (k = head; k; k = c->links[k - 1].next) {
        all++;
        here += c->files[c->links[k - 1].fn] == file;
    }
    *local = here > 0;
    for (k = head; k; k = c->links[k - 1].next)
        if (!*local || c->files[c->links[k - 1].fn] == file)
            *one = c->links[k - 1].fn;
    return *local ? here : all;
}

size_t api_calls_resolve(const api_calls *c, const char *name, size_t len, uint32_t file,
                         void (*fn)(void *arg, uint32_t i), void *arg)
{
    uint32_t head = (uint32_t)(uintptr_t)pd_map_get(c->exact, name, len), k, one = 0;
    int local;
    size_t n;

    if (head) {
        n = ac_count(c, head, file, &local, &one);
        for (k = head; k; k = c->links[k - 1].next)
            if (!local || c->files[c->links[k - 1].fn] == file)
                fn(arg, c->links[k - 1].fn);
        return n;
    }
    if (!(head = (uint32_t)(uintptr_t)pd_map_get(c->tail, name, len)) ||
        ac_count(c, head, file, &local, &one) != 1)
        return 0;
    fn(arg, one);
    return 1;
}

void api_calls_free(api_calls *c)
{
    if (!c)
        return;
    pd_map_free(c->exact);
    pd_map_free(c->tail);
    free(c->links);
    free(c);
}
