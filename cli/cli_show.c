/*
 * cli_show.c: `portdash show file|commit|compare|symbols`: the answers of
 * the file page, a commit, a compare and the symbol lists, read from the
 * database without a server through the query layer (query/q_*.h), as
 * text or as the API's JSON (the same bytes as GET /api/v1/...).
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api_commit.h"
#include "api_compare.h"
#include "api_file.h"
#include "api_symbols.h"
#include "cli.h"
#include "cli_show.h"
#include "db.h"
#include "pd_error.h"

static void cli_show_usage(FILE *out)
{
    fprintf(out,
        "usage: portdash show file    --db FILE --name NAME --rev REV PATH\n"
        "                             [--page N] [--per-page N] [--tool T,..] [--level L,..]\n"
        "       portdash show commit  --db FILE --name NAME REV [--page N] [--per-page N]\n"
        "       portdash show compare --db FILE --name NAME BASE HEAD [--all]\n"
        "       portdash show symbols --db FILE --name NAME --rev REV [SYMBOL]\n"
        "                             [--scope NAME] [--scopes FILE] [--page N] [--per-page N]\n"
        "       every form also takes [--format text|json] (default text)\n\n"
        "Prints what the API answers for the same question (GET .../files/PATH,\n"
        ".../commits/REV, .../compare/BASE...HEAD, .../symbols[/SYMBOL]), from the\n"
        "database, without a server: --format json prints the API's JSON, byte for\n"
        "byte; text prints the same answer as lines.  A file page and a commit's\n"
        "files, the symbols and a symbol's sites are read a page at a time as the\n"
        "API pages them (--page, --per-page); compare keeps the first %d entries\n"
        "of each list as the API does, or all with --all.\n",
        Q_COMPARE_CAP);
}

typedef struct {
    const char *db_path, *repo, *rev, *format, *tools, *levels, *scope, *scopes_path;
    size_t page, per;
    int all;
} cli_show_args;

/* A page number or size: 1 to `most`.  0, or -1 after saying why. */
static int cli_show_count(const char *opt, const char *arg, size_t most, size_t *out)
{
    char *end;
    unsigned long long n = strtoull(arg, &end, 10);

    if (*arg < '1' || *arg > '9' || *end || n > most) {
        fprintf(stderr, "portdash show: %s takes a number from 1 to %zu, not '%s'\n", opt,
                most, arg);
        return -1;
    }
    *out = (size_t)n;
    return 0;
}

/* Print `doc` (stolen) as the API's JSON, or nothing when NULL. */
static int cli_show_json(json_t *doc)
{
    char *text = doc ? json_dumps(doc, JSON_COMPACT) : NULL;

    json_decref(doc);
    if (!text)
        return pd_error_set(PD_ENOMEM, "could not encode JSON");
    printf("%s\n", text);
    free(text);
    return 0;
}

/* show file PATH at --rev. */
static int cli_show_file(sqlite3 *db, const q_at *at, const cli_show_args *a,
                         const char *path)
{
    q_file_params p = {a->page ? a->page : 1, a->per && a->per < Q_FILE_PER_PAGE
                                              ? a->per : Q_FILE_PER_PAGE, a->tools, a->levels, 0};
    q_file *f = NULL;
    int rc;

    if ((rc = q_file_get(db, at, path, NULL, &p, &f)) < 0)
        return api_file_missing(db, at->repo_id, path, rc);
    if (strcmp(a->format, "json") == 0)
        rc = cli_show_json(api_file_json(f, 1));
    else
        cli_show_file_text(stdout, f);
    q_file_free(f);
    return rc;
}

/* show commit REV. */
static int cli_show_commit(sqlite3 *db, const q_at *at, const cli_show_args *a)
{
    /* per-page is cut to the most the API gives, as the API cuts it */
    q_commit_params p = {a->page ? a->page : 1, a->per && a->per < Q_COMMIT_PER_PAGE
                                                ? a->per : Q_COMMIT_PER_PAGE};
    q_commit *c = NULL;
    int rc;

    if ((rc = q_commit_get(db, at, &p, &c)) < 0)
        return rc;
    if (strcmp(a->format, "json") == 0)
        rc = cli_show_json(api_commit_json(c));
    else
        cli_show_commit_text(stdout, c);
    q_commit_free(c);
    return rc;
}

/* show compare BASE HEAD. */
static int cli_show_compare(sqlite3 *db, const cli_show_args *a, const char *base_rev,
                            const char *head_rev)
{
    q_compare_params p = {a->all ? 0 : Q_COMPARE_CAP};
    q_compare *c = NULL;
    q_at base, head;
    int rc;

    if ((rc = q_at_resolve(db, a->repo, base_rev, &base)) < 0 ||
        (rc = q_at_resolve(db, a->repo, head_rev, &head)) < 0 ||
        (rc = q_compare_get(db, &base, &head, &p, &c)) < 0)
        return rc;
    if (strcmp(a->format, "json") == 0)
        rc = cli_show_json(api_compare_json(c));
    else
        cli_show_compare_text(stdout, c);
    q_compare_free(c);
    return rc;
}

/* Most symbols or sites on one page of the API's lists, and the most a
 * page may hold (srv_paginate: ten times that). */
#define CLI_SHOW_SYM_PER 1000

/* The member `key` of o cut to page `page` of `per`, as the API cuts it
 * (srv_paginate: a list that fits one first page is left whole). */
static json_t *cli_show_cut(json_t *o, const char *key, size_t page, size_t per)
{
    json_t *arr = json_object_get(o, key), *out;
    size_t i, total = json_array_size(arr);

    if (!o || (total <= per && page == 1))
        return o;
    out = json_array();
    for (i = (page - 1) * per; i < total && i < page * per; i++)
        json_array_append(out, json_array_get(arr, i));
    json_object_set_new(o, key, out);
    return o;
}

/* show symbols [SYMBOL] at --rev under --scope (default no-object-dtype,
 * as the API); one page of the list or of the sites, as the API pages
 * them. */
static int cli_show_symbols(sqlite3 *db, const q_at *at, const cli_show_args *a,
                            const char *symbol)
{
    db_scopes *scopes = NULL;
    const db_scope *sc;
    q_symbols *s = NULL;
    q_symbol *one = NULL;
    int json = strcmp(a->format, "json") == 0, rc;
    size_t page = a->page ? a->page : 1, per = a->per ? a->per : CLI_SHOW_SYM_PER;

    if (per > 10 * CLI_SHOW_SYM_PER)     /* srv_paginate's most */
        per = 10 * CLI_SHOW_SYM_PER;

    if ((rc = db_scopes_load(&scopes, a->scopes_path)) < 0)
        return rc;
    if (!(sc = db_scopes_find(scopes, a->scope ? a->scope : "no-object-dtype"))) {
        char known[512];

        db_scopes_names(scopes, known, sizeof(known));
        rc = pd_error_set(PD_EINVAL, "unknown scope '%s' (known: %s)",
                          a->scope ? a->scope : "no-object-dtype", known);
    }
    else if (symbol && (rc = q_symbol_get(db, at, sc, symbol, &one)) == 0)
        rc = json ? cli_show_json(cli_show_cut(api_symbol_json(one), "sites", page, per))
                  : (cli_show_symbol_text(stdout, one, (page - 1) * per, per), 0);
    else if (!symbol && (rc = q_symbols_get(db, at, sc, &s)) == 0)
        rc = json ? cli_show_json(cli_show_cut(api_symbols_json(s), "symbols", page, per))
                  : (cli_show_symbols_text(stdout, s, (page - 1) * per, per), 0);
    q_symbol_free(one);
    q_symbols_free(s);
    db_scopes_free(scopes);
    return rc;
}

/* Run `what` with its operands on the open database. */
static int cli_show_run(sqlite3 *db, const char *what, const cli_show_args *a, int nops,
                        char **ops)
{
    q_at at;
    int rc;

    if (strcmp(what, "compare") == 0)
        return cli_show_compare(db, a, ops[0], ops[1]);
    if ((rc = q_at_resolve(db, a->repo, strcmp(what, "commit") == 0 ? ops[0] : a->rev,
                           &at)) < 0)
        return rc;
    if (strcmp(what, "file") == 0)
        return cli_show_file(db, &at, a, ops[0]);
    if (strcmp(what, "commit") == 0)
        return cli_show_commit(db, &at, a);
    return cli_show_symbols(db, &at, a, nops ? ops[0] : NULL);
}

/* NULL when the operands and options fit `what`, else what is wrong. */
static const char *cli_show_misfit(const char *what, const cli_show_args *a, int nops)
{
    static const struct {
        const char *what;
        int min, max, rev;          /* operands; --rev 1 wanted, 0 refused */
        const char *operands;
    } forms[] = {{"file", 1, 1, 1, "takes one PATH"}, {"commit", 1, 1, 0, "takes one REV"},
                 {"compare", 2, 2, 0, "takes BASE and HEAD"},
                 {"symbols", 0, 1, 1, "takes at most one SYMBOL"}};
    size_t i;

    for (i = 0; i < sizeof(forms) / sizeof(forms[0]) && strcmp(what, forms[i].what); i++)
        ;
    if (i == sizeof(forms) / sizeof(forms[0]))
        return "the first word is file, commit, compare or symbols";
    if (!a->db_path || !a->repo)
        return "--db FILE and --name NAME are required";
    if (strcmp(a->format, "text") != 0 && strcmp(a->format, "json") != 0)
        return "--format is text or json";
    if (nops < forms[i].min || nops > forms[i].max)
        return forms[i].operands;
    if (forms[i].rev && !a->rev)
        return "--rev REV is required";
    if (!forms[i].rev && a->rev)
        return "no --rev (the revisions are operands)";
    return NULL;
}

/* Parse the options after `show WHAT` into *a.  CLI_OK; CLI_USAGE (said
 * why); -1 when --help was shown. */
static int cli_show_parse(int argc, char **argv, cli_show_args *a)
{
    static const struct option longopts[] = {
        {"db", required_argument, 0, 'd'}, {"name", required_argument, 0, 'n'},
        {"repo", required_argument, 0, 'r'}, {"rev", required_argument, 0, 'v'},
        {"format", required_argument, 0, 'f'}, {"page", required_argument, 0, 'p'},
        {"per-page", required_argument, 0, 'P'}, {"tool", required_argument, 0, 't'},
        {"level", required_argument, 0, 'l'}, {"scope", required_argument, 0, 's'},
        {"scopes", required_argument, 0, 'S'}, {"all", no_argument, 0, 'a'},
        {"help", no_argument, 0, 'h'}, {0, 0, 0, 0}};
    int c;

    optind = 2;
    while ((c = cli_getopt(argc, argv, longopts)) != -1) {
        switch (c) {
        case 'd': a->db_path = optarg; break;
        case 'r': cli_deprecated("show", "--repo", "--name"); /* fall through */
        case 'n': a->repo = optarg; break;
        case 'v': a->rev = optarg; break;
        case 'f': a->format = optarg; break;
        case 'p': if (cli_show_count("--page", optarg, 1000000, &a->page) < 0) return CLI_USAGE;
                  break;
        /* any size, cut to each answer's most as the API cuts ?per_page */
        case 'P': if (cli_show_count("--per-page", optarg, 1000000, &a->per) < 0)
                      return CLI_USAGE;
                  break;
        case 't': a->tools = optarg; break;
        case 'l': a->levels = optarg; break;
        case 's': a->scope = optarg; break;
        case 'S': a->scopes_path = optarg; break;
        case 'a': a->all = 1; break;
        case 'h': cli_show_usage(stdout); return -1;
        default: cli_show_usage(stderr); return CLI_USAGE;
        }
    }
    return CLI_OK;
}

int cli_show(int argc, char **argv)
{
    const char *what = argc > 1 ? argv[1] : "";
    cli_show_args a = {0};
    sqlite3 *db = NULL;
    const char *bad;
    int rc;

    a.format = "text";
    if (strcmp(what, "--help") == 0 || strcmp(what, "-h") == 0) {
        cli_show_usage(stdout);
        return CLI_OK;
    }
    if ((rc = cli_show_parse(argc, argv, &a)) != CLI_OK)
        return rc < 0 ? CLI_OK : rc;
    if ((bad = cli_show_misfit(what, &a, argc - optind))) {
        fprintf(stderr, "portdash show%s%s: %s\n\n", what[0] ? " " : "", what, bad);
        cli_show_usage(stderr);
        return CLI_USAGE;
    }
    if ((rc = db_open(&db, a.db_path, 0)) == 0)
        rc = cli_show_run(db, what, &a, argc - optind, argv + optind);
    if (rc < 0)
        fprintf(stderr, "portdash show: %s\n", pd_error_last());
    db_close(db);
    /* A bad --level, --tool or --scope is the caller's (the API's 400). */
    return rc == PD_EINVAL ? CLI_USAGE : rc < 0 ? CLI_FAIL : CLI_OK;
}
