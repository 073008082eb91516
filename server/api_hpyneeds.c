/*
 * api_hpyneeds.c: GET /api/v1/hpy-needs, what HPy must add, across every
 * port in the database (issue 24, point 1).
 *
 * For each repository at its chosen ref, the blocking uses of the
 * symbols endpoint (api_symbols_walk: unguarded C API uses under the
 * scope, default no-object-dtype) whose symbol is C API (class capi, a
 * name; item sites such as `memcpy(&obj)` are not symbols) and has no HPy
 * replacement in the symbol table (api_hpymap.h: doc/capi.md).  Per
 * symbol, per port and in total: uses, functions that use it (kept from
 * universal mode until HPy has it or the code is rewritten), files that
 * hold it (kept from universal-ready), and "sole": functions for which it
 * is the only C API name without a replacement (they could be ported once
 * HPy adds it).  Ranked by functions, then files, then uses, then name.
 *
 * The chosen ref: ?refs=REPO:REF,REPO:REF names it; otherwise the first of
 * the repository's refs by name (what the dashboard opens).  A repository
 * without refs is left out.  ?format=csv or ?format=markdown gives the
 * ranking as a table (?limit=N rows, default 100; JSON lists them all
 * unless limited).
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api.h"
#include "api_hpymap.h"
#include "api_hpyneeds.h"
#include "api_plan.h"
#include "api_scope.h"
#include "api_symbols.h"
#include "db.h"
#include "db_commit.h"
#include "pd_error.h"
#include "pd_escape.h"
#include "pd_map.h"
#include "analyzer/analyzer.h"

/* What CPython's headers declare each name as (function, macro, type,
 * variable, constant: ingest/rules/cpython.names), read once. */
static pd_map *hn_kinds;
static pthread_once_t hn_kinds_once = PTHREAD_ONCE_INIT;
static const char *hn_kind_names[] = {"function", "macro", "type", "variable", "constant"};

static void hn_kinds_load(void)
{
    const char *p = rules_cpython_names_text, *end = p + rules_cpython_names_text_len;

    if (!(hn_kinds = pd_map_new(PD_MAP_TRUSTED)))
        return;
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p)), *le = nl ? nl : end;
        const char *t1 = memchr(p, '\t', (size_t)(le - p)), *t2;
        size_t k;

        if (p[0] != '#' && p[0] != '@' && t1 && (t2 = memchr(t1 + 1, '\t', (size_t)(le - t1 - 1))))
            for (k = 0; k < 5; k++)
                if ((size_t)(t2 - t1 - 1) == strlen(hn_kind_names[k]) &&
                    memcmp(t1 + 1, hn_kind_names[k], strlen(hn_kind_names[k])) == 0)
                    pd_map_put(hn_kinds, p, (size_t)(t1 - p), (void *)(uintptr_t)(k + 1));
        p = le + 1;
    }
}

/* "function", "macro", ... of a C API name; NULL when not CPython's. */
static const char *hn_kind(const char *name)
{
    uintptr_t k;

    pthread_once(&hn_kinds_once, hn_kinds_load);
    k = hn_kinds ? (uintptr_t)pd_map_get(hn_kinds, name, strlen(name)) : 0;
    return k ? hn_kind_names[k - 1] : NULL;
}

/* One port being walked. */
typedef struct {
    const char *kinds;          /* ?kind= list, "" for all */
    const char *name;
    int index;                  /* column */
    json_t *agg;                /* symbol -> [uses, fns, files, sole] per port: [[...],...] */
    json_t *fnsyms;             /* this file: fn index -> {symbol: true} */
    json_int_t seq;             /* file being walked */
    json_t *fileseen;           /* this file: {symbol: true} */
    int nports;
} hn_walk;

/* Per-symbol counters of one port in the aggregate. */
static json_t *hn_counters(hn_walk *w, const char *sym)
{
    json_t *e = json_object_get(w->agg, sym), *c;
    int i;

    if (!e) {
        e = json_array();
        for (i = 0; i < w->nports; i++)
            json_array_append_new(e, json_pack("[I, I, I, I]", (json_int_t)0, (json_int_t)0,
                                               (json_int_t)0, (json_int_t)0));
        json_object_set_new(w->agg, sym, e);
    }
    c = json_array_get(e, (size_t)w->index);
    return c;
}

static void hn_inc(json_t *c, size_t k)
{
    json_array_set_new(c, k, json_integer(json_integer_value(json_array_get(c, k)) + 1));
}

/* The end of a file: functions count for each symbol they use, and
 * "sole" for a function with one missing symbol. */
static void hn_file_done(hn_walk *w)
{
    const char *fk, *sym;
    json_t *set, *v;

    json_object_foreach(w->fnsyms, fk, set) {
        json_object_foreach(set, sym, v)
            hn_inc(hn_counters(w, sym), 1);
        if (json_object_size(set) == 1) {
            void *it = json_object_iter(set);

            hn_inc(hn_counters(w, json_object_iter_key(it)), 3);
        }
    }
    json_object_clear(w->fnsyms);
    json_object_clear(w->fileseen);
}

/* 1 when s is a C identifier (a symbol, not an item site's text). */
static int hn_is_name(const char *s)
{
    size_t i;

    for (i = 0; s[i]; i++)
        if (!(s[i] == '_' || (s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z') ||
              (i > 0 && s[i] >= '0' && s[i] <= '9')))
            return 0;
    return i > 0;
}

static int hn_use(void *arg, const api_sym_use *u)
{
    hn_walk *w = arg;
    json_t *c;

    if (strcmp(u->cls, "capi") != 0 || !hn_is_name(u->text) ||
        api_hpymap_lookup(u->text, NULL))
        return 0;
    if (w->kinds[0]) {
        const char *k = hn_kind(u->text), *p = k ? strstr(w->kinds, k) : NULL;

        if (!p || (p > w->kinds && p[-1] != ',') || (p[strlen(k)] && p[strlen(k)] != ','))
            return 0;
    }
    if (u->file_seq != w->seq) {
        hn_file_done(w);
        w->seq = u->file_seq;
    }
    c = hn_counters(w, u->text);
    hn_inc(c, 0);
    if (!json_object_get(w->fileseen, u->text)) {
        json_object_set_new(w->fileseen, u->text, json_true());
        hn_inc(c, 2);
    }
    if (u->fn >= 0) {
        char key[24];
        json_t *set;

        snprintf(key, sizeof(key), "%lld", (long long)u->fn);
        if (!(set = json_object_get(w->fnsyms, key))) {
            set = json_object();
            json_object_set_new(w->fnsyms, key, set);
        }
        json_object_set_new(set, u->text, json_true());
    }
    return 0;
}

/* The chosen ref of repository `name`: from ?refs=, else its first ref
 * by name; into ref (size n).  0 or PD_ENOTFOUND (no ref). */
static int hn_first_ref(void *arg, const char *name, int64_t commit_id)
{
    char *ref = arg;

    if (!ref[0])
        snprintf(ref, 256, "%s", name);
    return 0;
}

static int hn_ref_of(srv_req *r, const char *refs_arg, const char *name, int64_t repo_id,
                     char *ref)
{
    size_t len = strlen(name);
    const char *p = refs_arg;
    int rc;

    ref[0] = '\0';
    while (p && *p) {
        const char *e = strchr(p, ',');
        size_t plen = e ? (size_t)(e - p) : strlen(p);

        if (plen > len + 1 && memcmp(p, name, len) == 0 && p[len] == ':' &&
            plen - len - 1 < 256) {
            memcpy(ref, p + len + 1, plen - len - 1);
            ref[plen - len - 1] = '\0';
            return 0;
        }
        p = e ? e + 1 : NULL;
    }
    if ((rc = db_refs_list(r->db, repo_id, hn_first_ref, ref)) < 0)
        return rc;
    return ref[0] ? 0 : PD_ENOTFOUND;
}

/* The ports: [{name, ref, commit}] of every repository with a ref. */
typedef struct {
    srv_req *r;
    const char *refs_arg;
    json_t *ports;
    int rc;
} hn_repos;

static int hn_repo(void *arg, const db_repo *repo)
{
    hn_repos *h = arg;
    char ref[256], oid[41];
    int64_t commit_id;
    int rc;

    if ((rc = hn_ref_of(h->r, h->refs_arg, repo->name, repo->id, ref)) == PD_ENOTFOUND)
        return 0;
    if (rc < 0)
        return rc;
    if ((rc = db_rev_resolve(h->r->db, repo->id, ref, &commit_id, oid)) < 0)
        return rc;
    json_array_append_new(h->ports, json_pack("{s:o, s:o, s:s, s:I, s:I}", "name",
        api_text(repo->name), "ref", api_text(ref), "commit", oid, "repo_id",
        (json_int_t)repo->id, "commit_id", (json_int_t)commit_id));
    return 0;
}

/*
 * The ?kind= list in place as the singular names hn_use matches: each word
 * one of CPython's kinds, singular or plural ("macros", as the page's
 * dropdown and doc/dashboard.md name them).  0, or PD_EINVAL naming the
 * word and the kinds (a typo must not read as "HPy must add nothing").
 */
static int hn_kinds_norm(char *kinds)
{
    char *p = kinds, *out = kinds, *e;
    size_t n, k, len;

    while (*p) {
        e = p + strcspn(p, ",");
        n = (size_t)(e - p);
        for (k = 0; k < 5; k++) {
            len = strlen(hn_kind_names[k]);
            if ((n == len || (n == len + 1 && p[len] == 's')) &&
                memcmp(p, hn_kind_names[k], len) == 0)
                break;
        }
        if (k == 5)
            return pd_error_set(PD_EINVAL, "kind '%.*s' is not one of function, macro, "
                                "type, variable, constant (or their plurals: functions, "
                                "macros, ...), comma-separated", (int)(n < 64 ? n : 64), p);
        if (out != kinds)
            *out++ = ',';
        memmove(out, hn_kind_names[k], len);
        out += len;
        p = *e ? e + 1 : e;
    }
    *out = '\0';
    return 0;
}

/*
 * The filters as given: the ?kind= list (hn_kinds_norm), every ?refs=
 * entry REPO:REF of a repository the database holds (a typo must not
 * read as "HPy must add nothing").  0 or PD_EINVAL naming it.
 */
static int hn_check_args(srv_req *r, const char *refs, char *kinds)
{
    char word[256];
    const char *p, *e;
    size_t n;
    int64_t id;
    int rc;

    if ((rc = hn_kinds_norm(kinds)) < 0)
        return rc;
    for (p = refs; *p; p = *e ? e + 1 : e) {
        const char *colon;

        e = p + strcspn(p, ",");
        colon = memchr(p, ':', (size_t)(e - p));
        n = colon ? (size_t)(colon - p) : 0;
        if (!colon || !n || colon + 1 == e || n >= sizeof(word))
            return pd_error_set(PD_EINVAL, "refs is a comma list of REPO:REF, not '%.*s'",
                                (int)((size_t)(e - p) < 64 ? (size_t)(e - p) : 64), p);
        memcpy(word, p, n);
        word[n] = '\0';
        if (db_repo_find(r->db, word, &id, NULL, 0) == PD_ENOTFOUND)
            return pd_error_set(PD_EINVAL, "refs names no repository of this database: "
                                "'%s'", word);
    }
    return 0;
}

/* Rank: functions, files, uses, name. */
static int hn_cmp(const void *a, const void *b)
{
    json_t *x = *(json_t *const *)a, *y = *(json_t *const *)b;
    static const char *keys[] = {"functions", "files", "uses"};
    size_t i;

    for (i = 0; i < 3; i++) {
        json_int_t vx = json_integer_value(json_object_get(json_object_get(x, "total"), keys[i]));
        json_int_t vy = json_integer_value(json_object_get(json_object_get(y, "total"), keys[i]));

        if (vx != vy)
            return vx > vy ? -1 : 1;
    }
    return strcmp(json_string_value(json_object_get(x, "symbol")),
                  json_string_value(json_object_get(y, "symbol")));
}

/* The aggregate as ranked symbol objects. */
static json_t *hn_rank(json_t *agg, json_t *ports)
{
    size_t n = json_object_size(agg), i = 0, k;
    json_t **v = calloc(n + 1, sizeof(*v)), *e, *arr = json_array();
    const char *sym;

    json_object_foreach(agg, sym, e) {
        json_t *per = json_object(), *tot = json_pack("{s:I, s:I, s:I, s:I, s:I}", "uses",
            (json_int_t)0, "functions", (json_int_t)0, "files", (json_int_t)0, "sole",
            (json_int_t)0, "ports", (json_int_t)0);
        static const char *keys[] = {"uses", "functions", "files", "sole"};

        for (k = 0; k < json_array_size(e); k++) {
            json_t *c = json_array_get(e, k);
            size_t j;

            if (!json_integer_value(json_array_get(c, 0)))
                continue;
            json_object_set_new(per, json_string_value(json_object_get(
                json_array_get(ports, k), "name")), json_pack("{s:O, s:O, s:O, s:O}",
                "uses", json_array_get(c, 0), "functions", json_array_get(c, 1),
                "files", json_array_get(c, 2), "sole", json_array_get(c, 3)));
            for (j = 0; j < 4; j++)
                json_object_set_new(tot, keys[j], json_integer(json_integer_value(
                    json_object_get(tot, keys[j])) + json_integer_value(json_array_get(c, j))));
            json_object_set_new(tot, "ports", json_integer(
                json_integer_value(json_object_get(tot, "ports")) + 1));
        }
        v[i] = json_pack("{s:s, s:s?, s:o, s:o}", "symbol", sym, "c_kind", hn_kind(sym),
                         "total", tot, "ports", per);
        i++;
    }
    qsort(v, n, sizeof(*v), hn_cmp);
    for (i = 0; i < n; i++)
        json_array_append_new(arr, v[i]);
    free(v);
    return arr;
}

/* ---- exports ---- */

static void hn_csv_field(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"')
            fputc('"', f);
        fputc(*s, f);
    }
    fputc('"', f);
}

static json_int_t hn_port_val(json_t *sym, const char *port, const char *key)
{
    return json_integer_value(json_object_get(json_object_get(json_object_get(sym, "ports"),
                                                              port), key));
}

/* The table's head: the Markdown title, ports and columns, or the CSV
 * header line. */
static void hn_table_head(FILE *f, json_t *doc, int md)
{
    json_t *ports = json_object_get(doc, "ports"), *p;
    size_t i, k;

    if (!md) {
        fputs("rank,symbol,kind,functions,files,uses,sole,ports", f);
        json_array_foreach(ports, i, p) {
            static const char *keys[] = {"functions", "files", "uses", "sole"};

            for (k = 0; k < 4; k++) {
                char col[300];

                snprintf(col, sizeof(col), "%s %s",
                         json_string_value(json_object_get(p, "name")), keys[k]);
                fputc(',', f);
                hn_csv_field(f, col);
            }
        }
        fputs("\r\n", f);
        return;
    }
    fputs("### C API without an HPy replacement, by functions kept from universal mode\n\n", f);
    fputs("Ports: ", f);
    json_array_foreach(ports, i, p) {
        fputs(i ? ", " : "", f);
        pd_esc_md_text(f, json_string_value(json_object_get(p, "name")));
        fputs(" at ", f);
        pd_esc_md_code(f, json_string_value(json_object_get(p, "ref")), 1);
        fprintf(f, " (`%.10s`)", json_string_value(json_object_get(p, "commit")));
    }
    fprintf(f, ". Scope `%s`, CPython kinds: %s; HPy symbol table %s. Per port: "
            "functions / files. *sole*: functions for which it is the only C API name "
            "without an HPy replacement.\n\n"
            "| # | symbol | kind | functions | files | uses | sole |",
            json_string_value(json_object_get(doc, "scope")),
            json_string_value(json_object_get(doc, "kind")),
            json_string_value(json_object_get(doc, "hpy_version")));
    json_array_foreach(ports, i, p) {
        fputs(" ", f);
        pd_esc_md_text(f, json_string_value(json_object_get(p, "name")));
        fputs(" |", f);
    }
    fputs("\n|---:|---|---|---:|---:|---:|---:|", f);
    for (i = 0; i < json_array_size(ports); i++)
        fputs("---:|", f);
    fputc('\n', f);
}

/* One symbol's row (rank i + 1). */
static void hn_table_row(FILE *f, json_t *ports, json_t *s, size_t i, int md)
{
    json_t *t = json_object_get(s, "total"), *p;
    const char *kind = json_string_value(json_object_get(s, "c_kind"));
    size_t k;

    if (md) {
        fprintf(f, "| %zu | ", i + 1);
        pd_esc_md_code(f, json_string_value(json_object_get(s, "symbol")), 1);
        fprintf(f, " | %s | %lld | %lld | %lld | %lld |", kind ? kind : "",
                (long long)json_integer_value(json_object_get(t, "functions")),
                (long long)json_integer_value(json_object_get(t, "files")),
                (long long)json_integer_value(json_object_get(t, "uses")),
                (long long)json_integer_value(json_object_get(t, "sole")));
        json_array_foreach(ports, k, p) {
            const char *n = json_string_value(json_object_get(p, "name"));

            if (hn_port_val(s, n, "uses"))
                fprintf(f, " %lld / %lld |", (long long)hn_port_val(s, n, "functions"),
                        (long long)hn_port_val(s, n, "files"));
            else
                fputs(" |", f);
        }
        fputc('\n', f);
        return;
    }
    fprintf(f, "%zu,", i + 1);
    hn_csv_field(f, json_string_value(json_object_get(s, "symbol")));
    fprintf(f, ",%s,%lld,%lld,%lld,%lld,%lld", kind ? kind : "",
            (long long)json_integer_value(json_object_get(t, "functions")),
            (long long)json_integer_value(json_object_get(t, "files")),
            (long long)json_integer_value(json_object_get(t, "uses")),
            (long long)json_integer_value(json_object_get(t, "sole")),
            (long long)json_integer_value(json_object_get(t, "ports")));
    json_array_foreach(ports, k, p) {
        const char *n = json_string_value(json_object_get(p, "name"));

        fprintf(f, ",%lld,%lld,%lld,%lld", (long long)hn_port_val(s, n, "functions"),
                (long long)hn_port_val(s, n, "files"), (long long)hn_port_val(s, n, "uses"),
                (long long)hn_port_val(s, n, "sole"));
    }
    fputs("\r\n", f);
}

/* The ranking as CSV or Markdown, the first `limit` rows. */
static char *hn_table(json_t *doc, int md, size_t limit, size_t *len)
{
    json_t *s;
    char *buf = NULL;
    size_t i;
    FILE *f = open_memstream(&buf, len);

    if (!f)
        return NULL;
    hn_table_head(f, doc, md);
    json_array_foreach(json_object_get(doc, "symbols"), i, s) {
        if (i >= limit)
            break;
        hn_table_row(f, json_object_get(doc, "ports"), s, i, md);
    }
    if (fclose(f) != 0) {
        free(buf);
        return NULL;
    }
    return buf;
}

/* Walk every port into the aggregate. */
static int hn_walk_ports(srv_req *r, const db_scope *sc, json_t *ports, json_t *agg,
                         const char *rules_hash, const char *kinds)
{
    json_t *p;
    size_t i;
    int rc = 0;

    json_array_foreach(ports, i, p) {
        api_at at;
        hn_walk w = {kinds, json_string_value(json_object_get(p, "name")), (int)i, agg,
                     json_object(), -1, json_object(), (int)json_array_size(ports)};

        memset(&at, 0, sizeof(at));
        at.repo_id = json_integer_value(json_object_get(p, "repo_id"));
        at.commit_id = json_integer_value(json_object_get(p, "commit_id"));
        snprintf(at.oid, sizeof(at.oid), "%s", json_string_value(json_object_get(p, "commit")));
        snprintf(at.rules_hash, sizeof(at.rules_hash), "%s", rules_hash);
        rc = api_symbols_walk(r, &at, sc, hn_use, &w);
        if (rc == 0)
            hn_file_done(&w);
        json_decref(w.fnsyms);
        json_decref(w.fileseen);
        json_object_del(p, "repo_id");
        json_object_del(p, "commit_id");
        if (rc < 0)
            break;
    }
    return rc;
}

enum MHD_Result api_hpy_needs(srv_req *r)
{
    const db_scope *sc;
    char refs[2048] = "", fmt[16] = "", rules_hash[64], lim[16], kinds[128] = "";
    hn_repos h = {r, refs, json_array(), 0};
    json_t *agg, *doc;
    size_t limit = 100;
    int rc;

    if ((rc = api_scope_arg(r, &sc)) < 0 ||
        ((rc = srv_query(r, "refs", refs, sizeof(refs))) < 0 && rc != PD_ENOTFOUND) ||
        ((rc = srv_query(r, "format", fmt, sizeof(fmt))) < 0 && rc != PD_ENOTFOUND) ||
        ((rc = srv_query(r, "kind", kinds, sizeof(kinds))) < 0 && rc != PD_ENOTFOUND) ||
        ((rc = srv_query(r, "limit", lim, sizeof(lim))) < 0 && rc != PD_ENOTFOUND)) {
        json_decref(h.ports);
        return srv_reply_error(r, rc);
    }
    if (rc == 0) {
        char *end;
        long v = strtol(lim, &end, 10);

        if (*end || v < 1 || v > 100000) {
            json_decref(h.ports);
            return srv_reply_problem(r, 400, "Bad Request",
                                     "limit must be an integer from 1 to 100000");
        }
        limit = (size_t)v;
    }
    if (fmt[0] && strcmp(fmt, "csv") != 0 && strcmp(fmt, "markdown") != 0 &&
        strcmp(fmt, "json") != 0) {
        json_decref(h.ports);
        return srv_reply_problem(r, 400, "Bad Request", "format is json, csv or markdown");
    }
    if (!sc && !(sc = db_scopes_find(srv_get_scopes(r->server), "no-object-dtype"))) {
        json_decref(h.ports);
        return srv_reply_error(r, pd_error_set(PD_EINVAL, "name a scope with ?scope=NAME"));
    }
    if ((rc = db_meta_get(r->db, "rules_hash", rules_hash, sizeof(rules_hash))) == PD_ENOTFOUND)
        rc = pd_error_set(PD_ENOTFOUND, "nothing has been ingested yet");
    /* an unknown ref of a named repository stays db_rev_resolve's 404 */
    if (rc < 0 || (rc = hn_check_args(r, refs, kinds)) < 0 ||
        (rc = db_repos(r->db, hn_repo, &h)) < 0) {
        json_decref(h.ports);
        return srv_reply_error(r, rc);
    }
    agg = json_object();
    if ((rc = hn_walk_ports(r, sc, h.ports, agg, rules_hash, kinds)) < 0) {
        json_decref(agg);
        json_decref(h.ports);
        return srv_reply_error(r, rc);
    }
    doc = json_pack("{s:s, s:s, s:s, s:o, s:o}", "scope", sc->name, "hpy_version",
                    api_hpymap_version(), "kind", kinds[0] ? kinds : "all", "ports", h.ports,
                    "symbols", hn_rank(agg, h.ports));
    json_decref(agg);
    json_object_set_new(doc, "total", json_integer((json_int_t)json_array_size(
        json_object_get(doc, "symbols"))));
    if (fmt[0] && strcmp(fmt, "json") != 0) {
        size_t len = 0;
        char *text = hn_table(doc, fmt[0] == 'm', limit, &len);
        enum MHD_Result ret;

        json_decref(doc);
        if (!text)
            return srv_reply_error(r, pd_error_nomem(NULL));
        ret = srv_reply_bytes(r, 200, fmt[0] == 'm' ? "text/markdown; charset=utf-8"
                                                    : "text/csv; charset=utf-8", text, len);
        free(text);
        return ret;
    }
    if (srv_query(r, "limit", lim, sizeof(lim)) == 0) {
        json_t *s = json_object_get(doc, "symbols");

        while (json_array_size(s) > limit)
            json_array_remove(s, json_array_size(s) - 1);
    }
    return srv_reply_json(r, 200, doc);
}
