/*
 * test_ingest.c: ingest on fixture repositories built by git from
 * tests/fixtures (toyport: a toy HPy port on two branches; history:
 * deletes, a rename and a side branch).  Expected values come from git
 * itself (ls-tree, log) wherever they can, not from hand-written numbers.
 */
#include "testutil.h"

#include "db.h"
#include "ingest.h"
#include "pd_error.h"
#include "ingest_store.h"
#include "pathfilter.h"
#include "pd_flow.h"

typedef struct {
    char *dir;
    char db[4200];
} fx;

static int fx_setup(void **state)
{
    fx *f = calloc(1, sizeof(*f));

    f->dir = tu_tmpdir();
    snprintf(f->db, sizeof(f->db), "%s/t.db", f->dir);
    *state = f;
    return 0;
}

static int fx_teardown(void **state)
{
    fx *f = *state;

    tu_sh("rm -rf '%s'", f->dir);
    free(f->dir);
    free(f);
    return 0;
}

/* Ingest `repo` refs into db; returns the ingest's code. */
static int run(const char *db, const char *repo, const char *name,
               const char **refs, size_t nrefs, ingest_stats *st)
{
    ingest_options o = {0};

    o.db_path = db;
    o.repo_path = repo;
    o.name = name;
    o.refs = refs;
    o.nrefs = nrefs;
    return ingest_run(&o, st);
}

/* A git repository at `repo` on branch main, made by the shell `script`
 * run inside it (set -e; a committer is configured). */
static void new_repo(const char *repo, const char *script)
{
    assert_int_equal(tu_sh("set -e; git init -q -b main '%s'; cd '%s'; "
                           "git config user.name t; git config user.email t@t; %s",
                           repo, repo, script), 0);
}

static int64_t scalar(sqlite3 *db, const char *sql)
{
    sqlite3_stmt *st = NULL;
    int64_t v = -1;

    assert_int_equal(db_prepare(db, &st, sql), 0);
    if (sqlite3_step(st) == SQLITE_ROW)
        v = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    return v;
}

/* Collects "blob path\n" lines of a commit's files. */
static int collect(void *arg, int64_t path_id, const char *path, const char *blob,
                   int64_t analysis_id)
{
    char **acc = arg;
    size_t n = strlen(*acc);

    *acc = realloc(*acc, n + strlen(path) + 44);
    snprintf(*acc + n, strlen(path) + 44, "%s %s\n", blob, path);
    return analysis_id > 0 ? 0 : -100;   /* every file must have an analysis */
}

/* For every stored commit, the stored file list equals git's tree filtered
 * to the default path filter (the kinds of pd_path_kind). */
static void check_all_trees(const char *dbpath, const char *repo)
{
    sqlite3 *db = NULL;
    sqlite3_stmt *st = NULL;
    char hash[64];
    int n = 0;

    assert_int_equal(db_open(&db, dbpath, 0), 0);
    assert_int_equal(db_meta_get(db, "rules_hash", hash, sizeof(hash)), 0);
    assert_int_equal(db_prepare(db, &st, "SELECT id, oid FROM commits"), 0);
    while (sqlite3_step(st) == SQLITE_ROW) {
        char *mine = calloc(1, 1);
        char *git = tu_sh_out("git --git-dir='%s' ls-tree -r %s | "
                              "awk -F'\\t' '{split($1,a,\" \"); print a[3] \" \" $2}' | "
                              "grep -E '\\.(c|h|inc|c\\.src|h\\.src|inc\\.src|"
                              "cpp|hpp|cc|cxx|hh|hxx)$'",
                              repo, (const char *)sqlite3_column_text(st, 1));

        assert_int_equal(db_commit_files(db, sqlite3_column_int64(st, 0), hash,
                                         collect, &mine), 0);
        assert_string_equal(mine, git);
        free(mine);
        free(git);
        n++;
    }
    sqlite3_finalize(st);
    assert_true(n > 0);
    db_close(db);
}

static void test_ingest_stores_each_first_parent_commit(void **state)
{
    fx *f = *state;
    const char *refs[] = {"hpy", "hpy-convert-object-dtype"};
    ingest_stats st;
    sqlite3 *db;
    char *count = tu_sh_out("git --git-dir='%s' rev-list --first-parent --count "
                            "hpy-convert-object-dtype", tu_fixture("toyport"));

    assert_int_equal(run(f->db, tu_fixture("toyport"), "toy", refs, 2, &st), 0);
    assert_int_equal(st.commits_new, atoi(count));
    assert_int_equal(db_open(&db, f->db, 0), 0);
    assert_int_equal(scalar(db, "SELECT count(*) FROM commits"), atoi(count));
    assert_int_equal(scalar(db, "SELECT count(*) FROM refs"), 2);
    assert_int_equal(scalar(db, "SELECT count(*) FROM commit_stats"), atoi(count));
    /* Rebased port: committer dates collapse, author dates do not. */
    assert_int_equal(scalar(db, "SELECT count(DISTINCT committer_time) FROM commits"), 1);
    assert_int_equal(scalar(db, "SELECT count(DISTINCT author_time) FROM commits"),
                     atoi(count));
    db_close(db);
    free(count);
    check_all_trees(f->db, tu_fixture("toyport"));
}

/* Every kind pd_path_kind names is ingested, as it reads: numpy's
 * funcs.inc.src (the object dtype's npy_ObjectMax) and _simd .inc files were
 * left out of every page; a .cxx is C++ (its class members qualified). */
static void test_every_source_kind_is_ingested(void **state)
{
    fx *f = *state;
    const char *refs[] = {"main"};
    char repo[4200], gitdir[4300];
    ingest_stats st;
    sqlite3 *db;

    snprintf(repo, sizeof(repo), "%s/kinds", f->dir);
    snprintf(gitdir, sizeof(gitdir), "%s/.git", repo);
    new_repo(repo,
             "printf '/**begin repeat\\n * #K = Max, Min#\\n */\\n"
             "static PyObject *\\nobj_@K@(PyObject *a)\\n{\\n    return a;\\n}\\n"
             "/**end repeat**/\\n' > funcs.inc.src; "
             "printf 'static int f(PyObject *o)\\n{\\n    return 0;\\n}\\n' > a.inc; "
             "printf 'namespace n {\\nstruct S {\\n"
             "    int g() { return 1; }\\n};\\n}\\n' > b.cxx; "
             "printf 'int h(void);\\n' > c.hh; printf 'int k(void);\\n' > d.hxx; "
             "printf 'text\\n' > notes.inc.txt; "
             "git add .; git commit -q -m kinds");
    assert_int_equal(run(f->db, repo, "kinds", refs, 1, &st), 0);
    assert_int_equal(db_open(&db, f->db, 0), 0);
    assert_int_equal(scalar(db, "SELECT count(*) FROM paths"), 5);
    assert_int_equal(scalar(db, "SELECT count(*) FROM paths WHERE path = 'notes.inc.txt'"), 0);
    db_close(db);
    check_all_trees(f->db, gitdir);
}

/* The summaries of every commit, one line each, for comparing two runs. */
static char *all_stats(const char *dbpath)
{
    return tu_sh_out("sqlite3 '%s' \"SELECT c.oid, s.files, s.tok_capi, s.fn_legacy, "
                     "s.fn_neutral, s.obj_legacy FROM commit_stats s JOIN commits c "
                     "ON c.id = s.commit_id WHERE s.rules_hash = (SELECT value FROM meta "
                     "WHERE key = 'rules_hash') ORDER BY c.oid\"", dbpath);
}

/* A repository stored before .inc and .inc.src were source kinds (its
 * database as the program before made it: no change of those paths, no
 * generation recorded, analyses under another key) gets their files on
 * its next ingest, on every commit, in the checkpoints of its file lists
 * (130 commits: one at depth 128) and on a stored tip that no ref of the
 * run names; its summaries are those of a fresh ingest. */
static void test_older_kinds_get_their_files(void **state)
{
    fx *f = *state;
    const char *both[] = {"main", "side"}, *one[] = {"main"};
    char repo[4200], gitdir[4300];
    char *fresh, *again;
    ingest_stats st;

    snprintf(repo, sizeof(repo), "%s/older", f->dir);
    snprintf(gitdir, sizeof(gitdir), "%s/.git", repo);
    new_repo(repo,
             "printf 'int a(PyObject *o) { return 0; }\\n' > a.c; "
             "printf 'static int b(PyObject *o) { return 1; }\\n' > b.inc; "
             "git add .; git commit -q -m one; git branch side; "
             "printf '/**begin repeat\\n * #K = X, Y#\\n */\\n"
             "int f@K@(PyObject *o) { return 2; }\\n"
             "/**end repeat**/\\n' > c.inc.src; "
             "git add .; git commit -q -m two; "
             "for i in $(seq 130); do echo \"int v$i;\" >> a.c; "
             "git commit -q -am \"n$i\"; done; "
             "git checkout -q side; printf 'int s(void) { return 3; }\\n' > s.inc; "
             "git add .; git commit -q -m side; git checkout -q main");
    assert_int_equal(run(f->db, repo, "older", both, 2, &st), 0);
    fresh = all_stats(f->db);
    /* As the program before left it. */
    assert_int_equal(tu_sh("sqlite3 '%s' \"DELETE FROM changes WHERE path_id IN (SELECT id "
                           "FROM paths WHERE path LIKE '%%.inc' OR path LIKE '%%.inc.src'); "
                           "DELETE FROM tree_files WHERE path_id IN (SELECT id FROM paths "
                           "WHERE path LIKE '%%.inc' OR path LIKE '%%.inc.src'); "
                           "UPDATE commit_stats SET rules_hash = 'before'; "
                           "UPDATE flow_commits SET rules_hash = 'before'; "
                           "UPDATE meta SET value = 'before' WHERE key = 'rules_hash'; "
                           "DELETE FROM meta WHERE key LIKE 'source_kinds/%%'\"", f->db), 0);
    assert_int_equal(tu_sh("test $(sqlite3 '%s' \"SELECT count(*) FROM tree_files\") -gt 0",
                           f->db), 0);
    assert_int_equal(run(f->db, repo, "older", one, 1, &st), 0);
    check_all_trees(f->db, gitdir);
    again = all_stats(f->db);
    assert_string_equal(again, fresh);
    assert_int_equal(tu_sh("test \"$(sqlite3 '%s' \"SELECT value FROM meta WHERE key LIKE "
                           "'source_kinds/%%'\")\" = 2", f->db), 0);
    free(fresh);
    free(again);
}

/* Distinct blobs on toyport's hpy-convert-object-dtype whose paths match
 * the extended regular expression `re`, by git. */
static int toyport_blobs(const char *re)
{
    char *out = tu_sh_out("git --git-dir='%s' log --format= --raw --no-abbrev "
                          "hpy-convert-object-dtype | awk -F'\\t' '{split($1,a,\" \"); "
                          "print a[4] \" \" $2}' | grep -E '%s' | "
                          "cut -d' ' -f1 | sort -u | wc -l",
                          tu_fixture("toyport"), re);
    int n = atoi(out);

    free(out);
    return n;
}

static void test_each_blob_is_analysed_once(void **state)
{
    fx *f = *state;
    const char *refs[] = {"hpy", "hpy-convert-object-dtype", "hpy"};
    ingest_stats st;
    /* The sources git has, and the templates among them (the ingest line
     * says "templates expanded" only when there are some, cli_ingest.c). */
    int blobs = toyport_blobs("\\.(c|h|c\\.src)$"), tmpls = toyport_blobs("\\.c\\.src$");
    sqlite3 *db;

    assert_int_equal(run(f->db, tu_fixture("toyport"), "toy", refs, 3, &st), 0);
    assert_int_equal(st.blobs_analysed, blobs);
    assert_true(tmpls > 0);
    assert_int_equal(st.templates_analysed, tmpls);
    assert_int_equal(db_open(&db, f->db, 0), 0);
    assert_int_equal(scalar(db, "SELECT count(*) FROM analyses"), blobs);
    db_close(db);
    /* A second repository holding the same blobs analyses nothing new. */
    assert_int_equal(run(f->db, tu_fixture("toyport"), "toy2", refs, 1, &st), 0);
    assert_int_equal(st.blobs_analysed, 0);
    assert_int_equal(st.templates_analysed, 0);
    assert_true(st.commits_new > 0);
}

static void test_rerun_reads_only_new_commits(void **state)
{
    fx *f = *state;
    const char *refs[] = {"main"};
    char repo[4300];
    ingest_stats st;
    int64_t fresh[2], again[2];
    sqlite3 *db;

    /* The history fixture cut after its third commit, then whole. */
    snprintf(repo, sizeof(repo), "%s/h.git", f->dir);
    assert_int_equal(tu_sh("mkdir -p '%s/cut' && cp -R tests/fixtures/history/01-start "
                           "tests/fixtures/history/02-delete tests/fixtures/history/03-rename "
                           "'%s/cut/' && sh tests/repo/make_repo.sh '%s/cut' '%s'",
                           f->dir, f->dir, f->dir, repo), 0);
    assert_int_equal(run(f->db, repo, "h", refs, 1, &st), 0);
    assert_int_equal(st.commits_new, 3);
    assert_int_equal(tu_sh("sh tests/repo/make_repo.sh tests/fixtures/history '%s'", repo), 0);
    assert_int_equal(run(f->db, repo, "h", refs, 1, &st), 0);
    assert_int_equal(st.commits_new, 1);            /* 05-main only */
    assert_int_equal(st.blobs_analysed, 1);
    assert_int_equal(run(f->db, repo, "h", refs, 1, &st), 0);
    assert_int_equal(st.commits_new, 0);
    assert_int_equal(st.commits_seen, 0);
    /* main moved forward from the cut to the whole history: no rewrite. */
    assert_int_equal(st.rewrites, 0);
    assert_int_equal(db_open(&db, f->db, 0), 0);
    assert_int_equal(scalar(db, "SELECT count(*) FROM rewrites"), 0);
    db_close(db);
    check_all_trees(f->db, repo);
    /* The incremental summary equals the stored files' sum. */
    assert_int_equal(db_open(&db, f->db, 0), 0);
    fresh[0] = scalar(db, "SELECT s.fn_ported FROM commit_stats s JOIN refs r "
                          "ON r.commit_id = s.commit_id");
    fresh[1] = scalar(db, "SELECT s.files FROM commit_stats s JOIN refs r "
                          "ON r.commit_id = s.commit_id");
    db_close(db);
    assert_int_equal(tu_sh("rm -f '%s'*", f->db), 0);
    assert_int_equal(run(f->db, repo, "h", refs, 1, &st), 0);
    assert_int_equal(db_open(&db, f->db, 0), 0);
    again[0] = scalar(db, "SELECT s.fn_ported FROM commit_stats s JOIN refs r "
                          "ON r.commit_id = s.commit_id");
    again[1] = scalar(db, "SELECT s.files FROM commit_stats s JOIN refs r "
                          "ON r.commit_id = s.commit_id");
    db_close(db);
    assert_int_equal(fresh[0], again[0]);
    assert_int_equal(fresh[1], again[1]);
    assert_int_equal(fresh[1], 1);                  /* src/a.c only */
}

static void test_unknown_ref_is_named_and_keeps_data(void **state)
{
    fx *f = *state;
    const char *good[] = {"hpy"}, *bad[] = {"no-such-branch"};
    sqlite3 *db;
    int64_t before;

    assert_int_equal(run(f->db, tu_fixture("toyport"), "toy", good, 1, NULL), 0);
    assert_int_equal(db_open(&db, f->db, 0), 0);
    before = scalar(db, "SELECT count(*) FROM commits");
    db_close(db);
    /* the caller's mistake (exit 2), named with the branches there are */
    assert_int_equal(run(f->db, tu_fixture("toyport"), "toy", bad, 1, NULL),
                     PD_EINVAL);
    assert_non_null(strstr(pd_error_last(), "unknown revision 'no-such-branch' (no branch, "
                           "tag or commit of that name; its branches: hpy, "));
    assert_int_equal(db_open(&db, f->db, 0), 0);
    assert_int_equal(scalar(db, "SELECT count(*) FROM commits"), before);
    assert_int_equal(scalar(db, "SELECT count(*) FROM refs"), 1);
    db_close(db);
}

static void test_unopenable_repository_is_named(void **state)
{
    fx *f = *state;

    assert_int_equal(run(f->db, "/nonexistent/repo.git", "x", NULL, 0, NULL), PD_EINVAL);
    assert_non_null(strstr(pd_error_last(), "/nonexistent/repo.git: not a git repository"));
}

static void test_head_is_the_default_ref(void **state)
{
    fx *f = *state;
    char *head = tu_sh_out("git --git-dir='%s' symbolic-ref --short HEAD",
                           tu_fixture("toyport"));
    sqlite3 *db;
    sqlite3_stmt *st = NULL;

    head[strcspn(head, "\n")] = '\0';
    assert_int_equal(run(f->db, tu_fixture("toyport"), "toy", NULL, 0, NULL), 0);
    assert_int_equal(db_open(&db, f->db, 0), 0);
    assert_int_equal(db_prepare(db, &st, "SELECT name FROM refs"), 0);
    assert_int_equal(sqlite3_step(st), SQLITE_ROW);
    assert_string_equal((const char *)sqlite3_column_text(st, 0), head);
    assert_int_equal(sqlite3_step(st), SQLITE_DONE);
    sqlite3_finalize(st);
    db_close(db);
    free(head);
}

static void test_path_filter_is_kept_and_enforced(void **state)
{
    fx *f = *state;
    const char *refs[] = {"hpy"}, *inc[] = {"src/**"}, *exc[] = {"**/*.c.src"};
    ingest_options o = {0};
    sqlite3 *db;

    o.db_path = f->db;
    o.repo_path = tu_fixture("toyport");
    o.name = "toy";
    o.refs = refs;
    o.nrefs = 1;
    o.include = inc;
    o.ninclude = 1;
    o.exclude = exc;
    o.nexclude = 1;
    assert_int_equal(ingest_run(&o, NULL), 0);
    assert_int_equal(db_open(&db, f->db, 0), 0);
    assert_int_equal(scalar(db, "SELECT count(*) FROM paths WHERE path LIKE 'include/%' "
                                "OR path LIKE '%.c.src'"), 0);
    assert_int_equal(scalar(db, "SELECT count(*) FROM paths WHERE path = 'src/refcount.c'"), 1);
    db_close(db);
    /* Another path filter under the same name would mix two cuts of history. */
    o.nexclude = 0;
    assert_int_equal(ingest_run(&o, NULL), PD_EINVAL);
    assert_non_null(strstr(pd_error_last(), "was ingested with path filter"));
    /* The same globs repeated and in another order are the same filter
     * (compared by value, issue 22 point 5). */
    {
        const char *inc2[] = {"src/**", "src/**"}, *exc2[] = {"**/*.c.src", "**/*.c.src"};

        o.include = inc2;
        o.ninclude = 2;
        o.exclude = exc2;
        o.nexclude = 2;
        assert_int_equal(ingest_run(&o, NULL), 0);
        o.include = inc;
        o.exclude = exc;
    }
    /* No flags: the stored path filter applies. */
    o.ninclude = o.nexclude = 0;
    assert_int_equal(ingest_run(&o, NULL), 0);
    assert_int_equal(db_open(&db, f->db, 0), 0);
    assert_int_equal(scalar(db, "SELECT count(*) FROM paths WHERE path LIKE '%.c.src'"), 0);
    db_close(db);
}

/* The encoding carries its flow facts' hash (hashed on the analysis
 * thread, the writer's call graph takes it instead of hashing again): it
 * must be the hash of the very text handed over, and of no text when the
 * file has no function. */
static void test_encoding_carries_its_flow_hash(void **state)
{
    static const char src[] =
        "static PyObject *f(PyObject *o) { return PyLong_FromLong(1); }\n"
        "static int g(PyObject *o) { f(o); return 0; }\n";
    rules *r = NULL;
    an_result *res = NULL;
    ingest_enc *e = NULL;

    assert_int_equal(rules_load_default(&r), 0);
    assert_int_equal(an_analyze(&res, r, "t.c", src, strlen(src)), 0);
    assert_true(res->nfunctions >= 2);
    assert_int_equal(ingest_enc_new(&e, res, strlen(src)), 0);
    assert_non_null(e->flow);
    assert_true(e->flow_hash == pd_flow_facts_hash(e->flow));
    assert_true(e->flow_hash != pd_flow_facts_hash(NULL));
    ingest_enc_free(e);
    an_result_free(res);
    assert_int_equal(an_analyze(&res, r, "t.c", "int x;\n", 7), 0);
    assert_int_equal(ingest_enc_new(&e, res, 7), 0);
    assert_null(e->flow);
    assert_true(e->flow_hash == pd_flow_facts_hash(NULL));
    ingest_enc_free(e);
    an_result_free(res);
    rules_free(r);
}

/* Finding texts come from source and rules files: whatever bytes they hold,
 * the stored text (db_findings.h, format F1) keeps them, escaped where they
 * would end a field, and is valid UTF-8 (a byte above 0x7f as U+FFFD). */
static void test_findings_encoding_escapes_any_text(void **state)
{
    fx *f = *state;
    an_finding fd = {0};
    an_result res = {0};
    db_counts c;
    db_ingest *s = NULL;
    sqlite3 *db = NULL;
    sqlite3_stmt *st = NULL;
    char *text = NULL;
    int64_t id;

    fd.line = 7;
    fd.column = 3;
    fd.cls = AN_CLASS_CAPI;
    fd.rule = "rule \"x\"";
    fd.text = "a\"b\\c\t\001\377";
    fd.function = -1;
    res.findings = &fd;
    res.nfindings = 1;
    assert_int_equal(db_open(&db, f->db, 1), 0);
    assert_int_equal(db_ingest_open(&s, db), 0);
    assert_int_equal(ingest_store_analysis_insert(s, &id, &c, "ab", "h", 1, &res), 0);
    assert_int_equal(db_prepare(db, &st, "SELECT findings, findings_len FROM analyses"), 0);
    assert_int_equal(sqlite3_step(st), SQLITE_ROW);
    assert_int_equal(db_decompress(&text, sqlite3_column_blob(st, 0),
                                (size_t)sqlite3_column_bytes(st, 0),
                                (size_t)sqlite3_column_int64(st, 1)), 0);
    assert_string_equal(text, "F1 1 1\n0\tcapi\trule \"x\"\ta\"b\\\\c\\t\001\xef\xbf\xbd\n"
                        "7 3 0\n");
    free(text);
    sqlite3_finalize(st);
    db_ingest_free(s);
    db_close(db);
}

static void test_glob_matching(void **state)
{
    assert_true(pathfilter_glob_match("numpy/core/**", "numpy/core/src/a.c"));
    assert_true(pathfilter_glob_match("numpy/core/**", "numpy/core/a.c"));
    assert_false(pathfilter_glob_match("numpy/core/**", "numpy/random/a.c"));
    assert_true(pathfilter_glob_match("**/test_*.c", "test_a.c"));
    assert_true(pathfilter_glob_match("**/test_*.c", "x/y/test_a.c"));
    assert_false(pathfilter_glob_match("*.c", "x/a.c"));
    assert_true(pathfilter_glob_match("src/?.c", "src/a.c"));
    assert_false(pathfilter_glob_match("src/?.c", "src/ab.c"));
    assert_true(pathfilter_glob_match("src/[ab].c", "src/b.c"));
    assert_false(pathfilter_glob_match("src/[!ab].c", "src/b.c"));
    assert_true(pathfilter_glob_match("a/**/b.c", "a/b.c"));
    assert_true(pathfilter_glob_match("a/**/b.c", "a/x/y/b.c"));
    assert_false(pathfilter_glob_match("a/**/b.c", "a/x/y/bb.c"));
    assert_true(pathfilter_glob_match("a/**/", "a/x/y.c"));      /* "**\/" at the end */
    assert_true(pathfilter_glob_match("src/[a.c", "src/[a.c"));   /* unterminated: literal */
    assert_false(pathfilter_glob_match("src/[a-z]", "src//"));
}

/* Issue 27: "a*a*...a*b" against a path of a's took 9.8 s in the
 * backtracking matcher (exponential); the set-of-states one is linear in
 * the path for a given glob. */
static void test_glob_matching_is_not_exponential(void **state)
{
    char glob[256] = "", path[1024];
    struct timespec t0, t1;
    size_t n = 0;
    int i;

    for (i = 0; i < 60; i++)
        n += (size_t)snprintf(glob + n, sizeof(glob) - n, "a*");
    snprintf(glob + n, sizeof(glob) - n, "b");
    memset(path, 'a', sizeof(path) - 1);
    path[sizeof(path) - 1] = '\0';
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (i = 0; i < 100; i++)
        assert_false(pathfilter_glob_match(glob, path));
    path[sizeof(path) - 2] = 'b';
    assert_true(pathfilter_glob_match(glob, path));
    snprintf(glob, sizeof(glob), "**/**/**/**/**/**/**/**/**/**/x");
    for (i = 0; i < 1000; i += 2)
        path[i] = '/';
    assert_false(pathfilter_glob_match(glob, path));
    clock_gettime(CLOCK_MONOTONIC, &t1);
    /* 102 matches of 1 KB paths: well under a second even under ASan */
    assert_true((t1.tv_sec - t0.tv_sec) * 1000 + (t1.tv_nsec - t0.tv_nsec) / 1000000 < 2000);
}

/* The CPU of each stage is counted on the thread that spent it: with
 * analysis threads (a history long enough for them), the planner's and
 * theirs apart from the writer's; with one thread, all of it the
 * writer's. */
static void test_stage_cpu_is_counted_per_thread(void **state)
{
    fx *f = *state;
    const char *refs[] = {"main"};
    char repo[4200], db1[4300];
    ingest_options o = {0};
    ingest_stats st;

    snprintf(repo, sizeof(repo), "%s/stages", f->dir);
    snprintf(db1, sizeof(db1), "%s/one.db", f->dir);
    new_repo(repo,
             "for i in $(seq 40); do echo \"int v$i(PyObject *o) "
             "{ return $i; }\" >> a.c; git add a.c; "
             "git commit -q -m \"n$i\"; done");
    o.db_path = f->db;
    o.repo_path = repo;
    o.name = "stages";
    o.refs = refs;
    o.nrefs = 1;
    o.threads = 2;
    assert_int_equal(ingest_run(&o, &st), 0);
    assert_int_equal(st.commits_new, 40);
    assert_true(st.cpu_plan_s > 0);
    assert_true(st.cpu_analyse_s > 0);
    assert_true(st.cpu_write_s > 0);
    o.db_path = db1;
    o.threads = 1;
    assert_int_equal(ingest_run(&o, &st), 0);
    assert_int_equal(st.commits_new, 40);
    assert_true(st.cpu_plan_s == 0 && st.cpu_analyse_s == 0);
    assert_true(st.cpu_write_s > 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_ingest_stores_each_first_parent_commit,
                                        fx_setup, fx_teardown),
        cmocka_unit_test_setup_teardown(test_every_source_kind_is_ingested, fx_setup, fx_teardown),
        cmocka_unit_test_setup_teardown(test_older_kinds_get_their_files, fx_setup, fx_teardown),
        cmocka_unit_test_setup_teardown(test_each_blob_is_analysed_once, fx_setup,
                                        fx_teardown),
        cmocka_unit_test_setup_teardown(test_rerun_reads_only_new_commits, fx_setup,
                                        fx_teardown),
        cmocka_unit_test_setup_teardown(test_unknown_ref_is_named_and_keeps_data,
                                        fx_setup, fx_teardown),
        cmocka_unit_test_setup_teardown(test_unopenable_repository_is_named,
                                        fx_setup, fx_teardown),
        cmocka_unit_test_setup_teardown(test_head_is_the_default_ref, fx_setup,
                                        fx_teardown),
        cmocka_unit_test_setup_teardown(test_path_filter_is_kept_and_enforced, fx_setup,
                                        fx_teardown),
        cmocka_unit_test_setup_teardown(test_stage_cpu_is_counted_per_thread, fx_setup,
                                        fx_teardown),
        cmocka_unit_test(test_encoding_carries_its_flow_hash),
        cmocka_unit_test_setup_teardown(test_findings_encoding_escapes_any_text,
                                        fx_setup, fx_teardown),
        cmocka_unit_test(test_glob_matching),
        cmocka_unit_test(test_glob_matching_is_not_exponential),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
