/*
 * test_plan_scope.c: the planner diffs only the path filter's directories
 * (ingest_filter_dirs.h), and the plan stays what the whole tree's diff
 * gives: renames are still paired against every candidate, one that left
 * the filter included.  The repositories are built here with git.
 */
#include "testutil.h"

#include <git2.h>

#include "ingest_plan.h"
#include "ingest_filter_dirs.h"
#include "pathfilter.h"

/* Thirty distinct lines of C; `mark` changes line 10. */
static void write_c(const char *path, const char *mark)
{
    FILE *f = fopen(path, "w");
    int i;

    assert_non_null(f);
    for (i = 0; i < 30; i++)
        fprintf(f, "int v%d(void) { return %d; }%s\n", i, i * 7, i == 10 ? mark : "");
    fclose(f);
}

/* The change of plan `p` at `path` (fails the test when there is none). */
static const ingest_plan_change *change_of(const ingest_plan *p, const char *path)
{
    size_t i;

    for (i = 0; i < p->nch; i++)
        if (strcmp(p->ch[i].path, path) == 0)
            return &p->ch[i];
    fail_msg("no change of %s in the plan", path);
    return NULL;
}

/* 1 when two strings are equal, NULL being equal to NULL only. */
static int same_str(const char *a, const char *b)
{
    return a == b || (a && b && strcmp(a, b) == 0);
}

/* The plans a and b hold the same changes and patch id. */
static void assert_same_plan(const ingest_plan *a, const ingest_plan *b)
{
    size_t i;

    assert_int_equal(a->nch, b->nch);
    for (i = 0; i < a->nch; i++) {
        assert_string_equal(a->ch[i].path, b->ch[i].path);
        assert_int_equal(a->ch[i].deleted, b->ch[i].deleted);
        assert_true(same_str(a->ch[i].old_path, b->ch[i].old_path));
        assert_true(a->ch[i].deleted || git_oid_equal(&a->ch[i].blob, &b->ch[i].blob));
    }
    assert_int_equal(a->has_patch_id, b->has_patch_id);
    assert_true(!a->has_patch_id || git_oid_equal(&a->patch_id, &b->patch_id));
}

/* The commits table's row a plan carries is what git says of the commit. */
static void assert_row_is_gits(const ingest_plan *p, const char *git)
{
    const db_commit_row *r = &p->meta.row;
    char got[2048];
    char *want = tu_sh_out("git --git-dir=%s log -1 "
                           "--format='%%H|%%P|%%an|%%ae|%%at|%%ct|%%s' HEAD", git);

    snprintf(got, sizeof(got), "%s|%s|%s|%s|%lld|%lld|%s\n", r->oid, r->parents, r->author_name,
             r->author_email, (long long)r->author_time, (long long)r->committer_time,
             r->summary);
    assert_string_equal(got, want);
    free(want);
}

/* Plan HEAD of `git` with the include/exclude globs given; planned again
 * with its parent's tree id handed in (as the ingest's chain does), the
 * plan and its patch id are the same. */
static void plan_head(ingest_plan *p, const char *git, const char **inc, size_t ninc,
                      const char **exc, size_t nexc)
{
    git_repository *repo = NULL;
    git_commit *head_commit = NULL, *parent = NULL;
    git_oid head, ptree;
    pathfilter sc = { inc, ninc, exc, nexc };
    ingest_plan q;

    assert_int_equal(git_repository_open(&repo, git), 0);
    assert_int_equal(git_reference_name_to_id(&head, repo, "HEAD"), 0);
    assert_int_equal(ingest_plan_commit(p, repo, &sc, &head, NULL, 1, git), 0);
    assert_int_equal(git_commit_lookup(&head_commit, repo, &head), 0);
    assert_int_equal(git_commit_parent(&parent, head_commit, 0), 0);
    git_oid_cpy(&ptree, git_commit_tree_id(parent));
    assert_int_equal(ingest_plan_commit(&q, repo, &sc, &head, &ptree, 1, git), 0);
    assert_same_plan(p, &q);
    assert_row_is_gits(p, git);
    ingest_plan_clear(&q);
    git_commit_free(parent);
    git_commit_free(head_commit);
    git_repository_free(repo);
}

static void test_filter_dirs(void **state)
{
    static const struct {
        const char *inc[2];
        size_t n;
        const char *want;   /* dirs joined by ',', "" for the whole tree */
    } cases[] = {
        { { "numpy/core/**" }, 1, "numpy/core/" },
        { { "a/b*.c", "x/y/**" }, 2, "a/,x/y/" },
        { { "src/[ab]/x.c" }, 1, "src/" },
        { { "lib/one.c" }, 1, "lib/" },
        { { "**/t.c" }, 1, "" },
        { { "lib/**", "*.c" }, 2, "" },
        { { NULL }, 0, "" },
    };
    size_t i, k;

    for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        pathfilter sc = { (const char **)cases[i].inc, cases[i].n, NULL, 0 };
        char **dirs, got[256] = "";
        size_t n, len = 0;

        assert_int_equal(ingest_filter_dirs(&sc, &dirs, &n), 0);
        for (k = 0; k < n; k++)
            tu_append(got, sizeof(got), &len, "%s%s", k ? "," : "", dirs[k]);
        assert_string_equal(got, cases[i].want);
        ingest_filter_dirs_free(dirs, n);
    }
}

/* A file deleted in the filter is paired with its exact copy outside it
 * (as git -M pairs it over the whole tree), not with the similar file
 * added in the filter: the selected addition names no old path. */
static void test_rename_out_of_the_filter_is_paired_as_git_does(void **state)
{
    char *dir = tu_tmpdir(), path[4200], git[4200];
    const char *inc[] = { "in/**" };
    ingest_plan p;

    snprintf(git, sizeof(git), "%s/w/.git", dir);
    assert_int_equal(tu_sh("cd %s && git init -q w && mkdir w/in w/out", dir), 0);
    snprintf(path, sizeof(path), "%s/w/in/a.c", dir);
    write_c(path, "");
    assert_int_equal(tu_sh("cd %s/w && git add -A && git -c user.name=t -c user.email=t@t "
                           "commit -qm one", dir), 0);
    snprintf(path, sizeof(path), "%s/w/in/b.c", dir);
    write_c(path, " /* b */");
    assert_int_equal(tu_sh("cd %s/w && git mv in/a.c out/a.c && git add -A && "
                           "git -c user.name=t -c user.email=t@t commit -qm two", dir), 0);
    plan_head(&p, git, inc, 1, NULL, 0);
    assert_int_equal(p.nch, 2);
    assert_true(change_of(&p, "in/a.c")->deleted);
    assert_false(change_of(&p, "in/b.c")->deleted);
    assert_null(change_of(&p, "in/b.c")->old_path);
    ingest_plan_clear(&p);

    /* With no copy outside, the same shape is a rename within the filter. */
    snprintf(path, sizeof(path), "%s/w/in/c.c", dir);
    write_c(path, " /* c */");
    assert_int_equal(tu_sh("cd %s/w && git rm -q in/b.c && git add -A && "
                           "git -c user.name=t -c user.email=t@t commit -qm three", dir), 0);
    plan_head(&p, git, inc, 1, NULL, 0);
    assert_int_equal(p.nch, 2);
    assert_true(change_of(&p, "in/b.c")->deleted);
    assert_non_null(change_of(&p, "in/c.c")->old_path);
    assert_string_equal(change_of(&p, "in/c.c")->old_path, "in/b.c");
    ingest_plan_clear(&p);
    tu_sh("rm -rf %s", dir);
    free(dir);
}

/* The narrow diff lists exactly the selected changes git lists: a file
 * named with glob characters is matched literally, excluded and
 * files outside the filter are left out. */
static void test_plan_lists_what_git_lists(void **state)
{
    char *dir = tu_tmpdir(), git[4200], *want;
    const char *inc[] = { "in/**", "x*y/**" };
    const char *exc[] = { "in/skip/**" };
    char got[1024] = "";
    size_t i, len = 0;
    ingest_plan p;

    snprintf(git, sizeof(git), "%s/w/.git", dir);
    assert_int_equal(tu_sh("cd %s && git init -q w && cd w && mkdir -p in/sub in/skip out "
                           "'in/[x]' && for f in in/x.c in/sub/z.c in/skip/w.c out/y.c "
                           "'in/[x]/q.c' in/gone.c; do echo 'int a;' > \"$f\"; done && "
                           "git add -A && git -c user.name=t -c user.email=t@t commit -qm one",
                           dir), 0);
    assert_int_equal(tu_sh("cd %s/w && for f in in/x.c in/sub/z.c in/skip/w.c out/y.c "
                           "'in/[x]/q.c'; do echo 'int b;' >> \"$f\"; done && "
                           "git rm -q in/gone.c && echo 'int c;' > in/new.c && git add -A && "
                           "git -c user.name=t -c user.email=t@t commit -qm two", dir), 0);
    plan_head(&p, git, inc, 1, exc, 1);
    for (i = 0; i < p.nch; i++)
        tu_append(got, sizeof(got), &len, "%s%s\n", p.ch[i].deleted ? "-" : "", p.ch[i].path);
    want = tu_sh_out("cd %s/w && git diff-tree --no-renames --name-status -r HEAD^ HEAD -- in "
                     "| grep -v '	in/skip/' | sed 's/^D	/-/; s/^[AM]	//'", dir);
    assert_string_equal(got, want);
    assert_int_equal(p.nch, 5);
    free(want);
    ingest_plan_clear(&p);
    tu_sh("rm -rf %s", dir);
    free(dir);
}

/* The plan of HEAD with filter `inc` (n globs), one line a change, against
 * what `git diff-tree --no-renames -r HEAD^ HEAD -- dirs` lists. */
static void check_head_as_git(const char *dir, const char **inc, size_t n,
                              const char *dirs)
{
    char git[4200], got[1024] = "", *want;
    size_t i, len = 0;
    ingest_plan p;

    snprintf(git, sizeof(git), "%s/w/.git", dir);
    plan_head(&p, git, inc, n, NULL, 0);
    for (i = 0; i < p.nch; i++)
        tu_append(got, sizeof(got), &len, "%s%s\n", p.ch[i].deleted ? "-" : "", p.ch[i].path);
    want = tu_sh_out("cd %s/w && git diff-tree --no-renames --name-status -r HEAD^ HEAD -- %s "
                     "| sed 's/^D	/-/; s/^[AM]	//'", dir, dirs);
    assert_string_equal(got, want);
    free(want);
    ingest_plan_clear(&p);
}

/* A commit whose filter directories hold the parent's trees is planned
 * from the trees' ids without a diff (ingest_plan_same): each step here
 * changes what lies at a directory in another way (nothing, outside only,
 * the directory appearing, one of two directories, a mode alone, the
 * directory turned into a file, an empty commit with no directory to
 * narrow to), and every plan is what git lists. */
static void test_plan_by_tree_ids_is_what_git_lists(void **state)
{
    static const char *steps[] = {
        "echo 'int o;' >> out/o.c",
        "mkdir in && echo 'int a;' > in/a.c",
        "mkdir -p x/y && echo 'int b;' > x/y/b.c",
        "chmod +x in/a.c",
        "echo 'int b2;' >> x/y/b.c && echo 'int o2;' >> out/o.c",
        "git rm -q -r in && echo 'not a dir' > in",
    };
    const char *inc[] = { "in/**", "x/y/**" }, *whole[] = { "**/t.c" };
    char *dir = tu_tmpdir();
    size_t i;

    assert_int_equal(tu_sh("cd %s && git init -q w && cd w && mkdir out && "
                           "echo 'int o;' > out/o.c && git add -A && "
                           "git -c user.name=t -c user.email=t@t commit -qm one", dir), 0);
    for (i = 0; i < sizeof(steps) / sizeof(steps[0]); i++) {
        assert_int_equal(tu_sh("cd %s/w && %s && git add -A && "
                               "git -c user.name=t -c user.email=t@t commit -qm s%zu",
                               dir, steps[i], i), 0);
        check_head_as_git(dir, inc, 2, "in/ x/y/");
    }
    assert_int_equal(tu_sh("cd %s/w && git -c user.name=t -c user.email=t@t "
                           "commit -q --allow-empty -m empty", dir), 0);
    check_head_as_git(dir, whole, 1, "'*t.c'");
    tu_sh("rm -rf %s", dir);
    free(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_filter_dirs),
        cmocka_unit_test(test_rename_out_of_the_filter_is_paired_as_git_does),
        cmocka_unit_test(test_plan_lists_what_git_lists),
        cmocka_unit_test(test_plan_by_tree_ids_is_what_git_lists),
    };
    int rc;

    git_libgit2_init();
    rc = cmocka_run_group_tests(tests, NULL, NULL);
    git_libgit2_shutdown();
    return rc;
}
