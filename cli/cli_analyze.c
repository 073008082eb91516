/*
 * cli_analyze.c: `portdash analyze`, the linter mode for CI bots: analyse
 * files from disk, or the files of one revision of a git repository, and
 * print the analysis (report.h) without a database or server.  With
 * --blobs it is the analyzer benchmark of tests/bench/run.sh.
 */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <git2.h>

#include "analyzer/analyzer.h"
#include "cli.h"
#include "cli_analyze_args.h"
#include "cli_analyze_blobs.h"
#include "pd_domain.h"
#include "pd_malloc.h"
#include "pd_error.h"
#include "pd_file.h"
#include "pd_pool.h"
#include "pd_rev.h"
#include "report.h"
#include "sarif_write.h"
#include "pathfilter.h"

/* The files to report and what is needed to free them. */
typedef struct {
    report_file *files;
    size_t n, cap;
    const rules *r;
    pathfilter pf;
    git_repository *repo;       /* --repo, borrowed */
    const char *gitdir;         /* its path, for messages */
    int want_fixes;             /* SARIF: each file's checked rewrites (fix.h) */
    int nograph;                /* no call-graph step: analyse without its
                                 * facts (an_analyze_nograph); then nothing
                                 * needs two files at once, and each file's
                                 * functions are printed and freed as soon as
                                 * it is analysed (cli_an_take) */
    unsigned threads;           /* --threads: analysis threads */
    pd_pool *pool;              /* their pool while inputs are read
                                 * (cli_an_start), else NULL: one thread */
} cli_an;

/* Standard output's buffer (cli_analyze): static, as stdout is written
 * until exit. */
static char cli_an_outbuf[1 << 16];


/* The heap a run's files will fill, for faulting it in at once: page by
 * page it was a fifth of the CPU time of `analyze` on numpy/core on a
 * virtual machine (issue 26).  When every result is kept to the end (the
 * call graph), numpy-hpy needs 3 to 5 times its bytes, the templates
 * expanded.  Printed file by file, the heap goes only as high as the
 * largest file needs, about 5 times its bytes; a template's need is known
 * once it is compiled, and tmpl.c asks for it then (pd_malloc_ahead). */
typedef struct {
    size_t kept, peak;
} cli_an_heap;

static void cli_an_heap_add(cli_an_heap *h, size_t bytes)
{
    if (bytes > ((size_t)1 << 36))  /* no product overflows */
        bytes = (size_t)1 << 36;
    h->kept += 5 * bytes;
    if (5 * bytes > h->peak)
        h->peak = 5 * bytes;
}

static void cli_an_prefault(const cli_an_heap *h, int kept, size_t extra)
{
    pd_malloc_prefault((kept ? h->kept : h->peak) + extra);
}

/* Printed file by file: the heap one file of `bytes` fills, faulted in
 * when it is more than any file before asked (pd_malloc_ahead; nothing
 * unless pd_malloc_ahead_on was called). */
static void cli_an_ahead(size_t bytes)
{
    cli_an_heap h = {0, 0};

    cli_an_heap_add(&h, bytes);
    pd_malloc_ahead(h.peak);
}

/* One file to analyse: what a thread of the pool works on and the main
 * thread takes back in order (cli_an_work, cli_an_take).  Its bytes are
 * `buf`, freed with the job when `own`, or the blob's, released then. */
typedef struct {
    char *path;
    const char *buf;
    size_t len;
    char *own;
    git_blob *blob;
    an_result *res;
    fix_list *fixes;
} cli_an_job;

static void cli_an_job_free(cli_an_job *j)
{
    free(j->path);
    free(j->own);
    if (j->blob)                /* a call loads libgit2 (pd_lazylib.h) */
        git_blob_free(j->blob);
    an_result_free(j->res);
    if (j->fixes) {
        fix_list_free(j->fixes);
        free(j->fixes);
    }
    free(j);
}

/* The checked rewrites of a job for its SARIF fixes. */
static int cli_an_fixes(cli_an_job *j, const rules *r)
{
    fix_list *l = calloc(1, sizeof(*l));
    int rc;

    if (!l)
        return pd_error_nomem(NULL);
    if ((rc = fix_file(l, r, j->path, j->buf, j->len, j->res)) < 0) {
        free(l);
        return rc;
    }
    j->fixes = l;
    return 0;
}

/* pd_pool_work_fn: analyse a job, on any thread; 0 or a PD_E* code. */
static int cli_an_work(void *ctx, void *item)
{
    cli_an *a = ctx;
    cli_an_job *j = item;
    int rc;

    if (a->nograph && a->pool) {
        /* This thread's arena faulted in ahead, as the main thread's heap
         * is on one thread (cli_analyze): each file is printed and freed,
         * so the arena goes as high as the largest file needs.  Results
         * kept to the end grow it as they come (faulting in each thread's
         * share of them ahead cost more than it saved). */
        pd_malloc_ahead_on();
        cli_an_ahead(j->len);
    }
    /* Without the call graph, nothing needs two files at once (cli_an). */
    rc = a->nograph ? an_analyze_nograph(&j->res, a->r, j->path, j->buf, j->len)
                    : an_analyze(&j->res, a->r, j->path, j->buf, j->len);
    return !rc && a->want_fixes ? cli_an_fixes(j, a->r) : rc;
}

/* pd_pool_take_fn: a job analysed (rc 0), in the order of the inputs:
 * without the call graph its functions are printed and freed at once,
 * else its result is kept in a->files for the report at the end. */
static int cli_an_take(void *ctx, void *item, int rc)
{
    cli_an *a = ctx;
    cli_an_job *j = item;

    if (rc == 0 && a->nograph) {
        /* The same lines, in the same order, as report_write at the end;
         * the heap then holds one file's result at a time instead of
         * every file's (numpy/core: 15 MB instead of 30, and half the
         * page faults: issue 26). */
        report_file one = {0};

        one.path = j->path;
        one.res = j->res;
        rc = report_write(stdout, "functions", &one, 1, NULL);
    } else if (rc == 0 && (rc = pd_grow((void **)&a->files, &a->cap, a->n + 1,
                                        sizeof(*a->files), 64, NULL)) == 0) {
        report_file *f = &a->files[a->n++];

        f->path = j->path;
        f->keep = NULL;
        f->res = j->res;
        f->fixes = j->fixes;
        j->path = NULL;
        j->res = NULL;
        j->fixes = NULL;
    }
    cli_an_job_free(j);
    return rc > 0 ? 0 : rc;     /* PD_POOL_SKIPPED: only freed */
}

/* Analyse `len` bytes as `path`: at once on one thread, else queued for
 * the pool.  The bytes are `own` (malloc'd, taken over) or the blob's
 * (taken over too); 0 or a PD_E* code. */
static int cli_an_add(cli_an *a, const char *path, char *own, git_blob *blob, size_t len)
{
    cli_an_job *j = calloc(1, sizeof(*j));

    if (!j || !(j->path = strdup(path))) {
        free(j);
        free(own);
        if (blob)
            git_blob_free(blob);
        return pd_error_nomem(NULL);
    }
    j->own = own;
    j->blob = blob;
    j->buf = blob ? git_blob_rawcontent(blob) : own;
    j->len = len;
    if (a->pool)
        return pd_pool_submit(a->pool, j);
    return cli_an_take(a, j, cli_an_work(a, j));
}

/* Read and analyse one file from disk. */
static int cli_an_file(cli_an *a, const char *path)
{
    char *buf = NULL;
    size_t len = 0;
    int rc;

    if ((rc = pd_file_read(path, 0, NULL, &buf, &len)) == 0)
        return cli_an_add(a, path, buf, NULL, len);
    free(buf);
    return rc;
}

/* Start the pool of --threads for the files cli_an_add will queue, when
 * there is more than one thread; 0 or a PD_E* code. */
static int cli_an_start(cli_an *a)
{
    return a->threads > 1 ? pd_pool_new(&a->pool, a->threads, 16 * a->threads, cli_an_work,
                                        cli_an_take, a) : 0;
}

/* Wait for the pool's files and stop it; the pool's first failure, else
 * rc. */
static int cli_an_stop(cli_an *a, int rc)
{
    /* The files queued came before the caller's failure in the inputs'
     * order: theirs, if any, is the one a run on one thread reports. */
    int prc = a->pool ? pd_pool_finish(a->pool) : 0;

    pd_pool_free(a->pool);
    a->pool = NULL;
    return prc < 0 ? prc : rc;
}

/* nftw() callback state: the walk cannot take a context pointer. */
static cli_an *cli_walk_an;
static int cli_walk_rc;
static size_t cli_walk_selected;    /* paths the filter selected in the walk */
static char **cli_walk_paths;
static size_t cli_walk_n, cli_walk_cap;

static cli_an_heap cli_walk_heap;

/* The rules' tables (about 1 MB: CPython's names), before the rules are
 * loaded, and, when every result is kept, what the FILE arguments will
 * fill.  Printed file by file, a file's need is asked for when it is read
 * (cli_an_path): a stat of each argument first was a tenth of the system
 * calls of `analyze` on numpy/core's 308 files (issue 26). */
static void cli_an_prefault_args(char **argv, int argc, int kept)
{
    struct stat sb;
    cli_an_heap h = {0, 0};
    int i;

    for (i = 0; kept && i < argc; i++)
        if (stat(argv[i], &sb) == 0 && S_ISREG(sb.st_mode))
            cli_an_heap_add(&h, (size_t)sb.st_size);
    cli_an_prefault(&h, kept, (size_t)3 << 19);
}

static int cli_walk_cb(const char *path, const struct stat *sb, int type,
                       struct FTW *ftw)
{
    char *p, **q;

    (void)ftw;
    if (type != FTW_F || !an_path_is_source(path))
        return 0;
    cli_an_heap_add(&cli_walk_heap, (size_t)sb->st_size);
    if (cli_walk_n == cli_walk_cap) {
        cli_walk_cap = cli_walk_cap ? cli_walk_cap * 2 : 64;
        if (!(q = realloc(cli_walk_paths, cli_walk_cap * sizeof(*q)))) {
            cli_walk_rc = pd_error_nomem(NULL);
            return 1;
        }
        cli_walk_paths = q;
    }
    if (!(p = strdup(path))) {
        cli_walk_rc = pd_error_nomem(NULL);
        return 1;
    }
    cli_walk_paths[cli_walk_n++] = p;
    return 0;
}

static int cli_strcmp(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* A PATH argument: a file, or a directory searched in path order.  The
 * path is looked up once: opened, then asked what it is. */
static int cli_an_path(cli_an *a, const char *path)
{
    struct stat sb;
    char *buf = NULL;
    size_t i, len = 0;
    int rc, known, fd = open(path, O_RDONLY | O_CLOEXEC);

    /* A path that is not there (a typo) is the caller's mistake, exit 2,
     * which a CI step must tell from forbidden findings (1). */
    if (fd < 0)
        return pd_error_set(errno == ENOENT || errno == ENOTDIR || errno == EACCES ||
                            errno == ELOOP || errno == ENAMETOOLONG ? PD_EINVAL : PD_EIO,
                            "cannot open %s: %s", path, strerror(errno));
    known = fstat(fd, &sb) == 0;
    /* A file named that is no C source (notes.txt) would read as a clean,
     * universal-ready file: refused, as a directory's such files are left
     * out. */
    if (known && !S_ISDIR(sb.st_mode) && !an_path_is_source(path)) {
        close(fd);
        return pd_error_set(PD_EINVAL, "%s is not a C source file (" PD_SRC_SUFFIXES
                            "): name source files or directories", path);
    }
    if (!known || !S_ISDIR(sb.st_mode)) {
        rc = pd_file_read_fd(fd, known ? &sb : NULL, path, 0, NULL, &buf, &len);
        close(fd);
        if (rc < 0) {
            free(buf);
            return rc;
        }
        cli_an_ahead(len);
        return cli_an_add(a, path, buf, NULL, len);
    }
    close(fd);
    cli_walk_an = a;
    cli_walk_rc = 0;
    cli_walk_n = 0;
    cli_walk_heap.kept = cli_walk_heap.peak = 0;
    if (nftw(path, cli_walk_cb, 32, FTW_PHYS) < 0 && !cli_walk_rc)
        cli_walk_rc = pd_error_set(PD_EIO, "cannot read directory %s", path);
    rc = cli_walk_rc;
    /* A directory with no C source (a wrong directory) would pass any
     * --fail-on as a clean port. */
    if (!rc && cli_walk_n == 0)
        rc = pd_error_set(PD_EINVAL, "no C source file (" PD_SRC_SUFFIXES ") under %s",
                          path);
    if (cli_walk_n)
        qsort(cli_walk_paths, cli_walk_n, sizeof(char *), cli_strcmp);
    if (!rc && !a->pool)    /* a pool's threads fill arenas of their own */
        cli_an_prefault(&cli_walk_heap, !a->nograph, 0);
    for (i = 0; i < cli_walk_n; i++) {
        if (!rc)
            rc = cli_an_file(a, cli_walk_paths[i]);
        free(cli_walk_paths[i]);
    }
    free(cli_walk_paths);
    cli_walk_paths = NULL;
    cli_walk_cap = cli_walk_n = 0;
    return rc;
}

/* git_tree_walk() callback: analyse selected blobs (path filter). */
static int cli_tree_cb(const char *root, const git_tree_entry *e, void *payload)
{
    cli_an *a = payload;
    git_blob *blob = NULL;
    char path[4096];
    int rc;

    if (git_tree_entry_type(e) != GIT_OBJECT_BLOB)
        return 0;
    snprintf(path, sizeof(path), "%s%s", root, git_tree_entry_name(e));
    if (!pathfilter_contains(&a->pf, path))
        return 0;
    cli_walk_selected++;
    if (git_blob_lookup(&blob, a->repo, git_tree_entry_id(e)) < 0) {
        cli_walk_rc = pd_error_set(PD_EGIT, "cannot read %s: %s", path,
                                   git_error_last() ? git_error_last()->message : "?");
        return -1;
    }
    if ((rc = cli_an_add(a, path, NULL, blob, (size_t)git_blob_rawsize(blob))) < 0) {
        cli_walk_rc = rc;
        return -1;
    }
    return 0;
}

/* Analyse every selected file of revision `rev` of `repo`. */
static int cli_an_rev(cli_an *a, git_repository *repo, const char *rev)
{
    git_object *obj = NULL;
    git_tree *tree = NULL;
    int rc = 0;

    /* An unknown revision is bad input (exit 2), as gate's: a --fail-on
     * job must not read it as findings (exit 1). */
    if ((rc = pd_rev_parse(&obj, repo, rev)) == PD_ENOTFOUND)
        rc = pd_rev_unknown(repo, a->gitdir, rev, PD_EINVAL);
    if (rc < 0)
        goto done;
    if (git_object_peel((git_object **)&tree, obj, GIT_OBJECT_TREE) < 0) {
        rc = pd_error_set(PD_ENOTFOUND, "revision '%s' has no tree", rev);
        goto done;
    }
    cli_walk_rc = 0;
    cli_walk_selected = 0;
    if ((rc = cli_an_start(a)) < 0)
        goto done;
    if (git_tree_walk(tree, GIT_TREEWALK_PRE, cli_tree_cb, a) < 0)
        rc = cli_walk_rc ? cli_walk_rc
                         : pd_error_set(PD_EGIT, "cannot walk '%s'", rev);
    rc = cli_an_stop(a, rc);
done:
    git_tree_free(tree);
    git_object_free(obj);
    return rc;
}

/* Free the files of a (paths, results, keep marks). */
static void cli_an_free(cli_an *a)
{
    size_t i;

    for (i = 0; i < a->n; i++) {
        free((char *)a->files[i].path);
        free((unsigned char *)a->files[i].keep);
        an_result_free((an_result *)a->files[i].res);
        if (a->files[i].fixes) {
            fix_list_free((fix_list *)a->files[i].fixes);
            free((fix_list *)a->files[i].fixes);
        }
    }
    free(a->files);
    a->files = NULL;
    a->n = a->cap = 0;
}

/* --sarif-since: analyse `since` too and mark what is new in a. */
static int cli_an_since(cli_an *a, git_repository *repo, const char *since)
{
    cli_an b;
    size_t nnew = 0;
    int rc;

    memset(&b, 0, sizeof(b));
    b.threads = a->threads;
    b.r = a->r;
    b.pf = a->pf;
    b.repo = repo;
    b.gitdir = a->gitdir;
    if ((rc = cli_an_rev(&b, repo, since)) == 0 &&
        (rc = report_new_since(a->files, a->n, b.files, b.n, &nnew)) == 0) {
        size_t i, k, nhpy = 0;

        /* HPy uses are never results: said, so that the count below of
         * what the results hold does not read as findings lost */
        for (i = 0; i < a->n; i++)
            for (k = 0; a->files[i].keep && k < a->files[i].res->nfindings; k++)
                nhpy += a->files[i].keep[k] && a->files[i].res->findings[k].cls == AN_CLASS_HPY;
        fprintf(stderr, "portdash analyze: SARIF: %zu findings new since %s, %zu of them "
                "HPy uses (never results)\n", nnew, since, nhpy);
    }
    cli_an_free(&b);
    return rc;
}

/* Analyse the inputs into a and write the report; the exit status. */
/* The call-graph step over every file analysed: object states follow
 * the repository's own functions (pd_flow.h). */
static int cli_an_graph(cli_an *a)
{
    an_result **res = a->n ? malloc(a->n * sizeof(*res)) : NULL;
    const char **paths = a->n ? malloc(a->n * sizeof(*paths)) : NULL;
    size_t i;
    int rc;

    if (a->n && (!res || !paths)) {
        free(res);
        free(paths);
        return pd_error_nomem(NULL);
    }
    for (i = 0; i < a->n; i++) {
        res[i] = (an_result *)a->files[i].res;   /* ours: cli_an_add made it */
        paths[i] = a->files[i].path;
    }
    rc = an_flow_apply(res, paths, a->n);
    free(res);
    free(paths);
    return rc;
}

static int cli_an_run(cli_an *a, char **argv, int argc, const char *repo_path,
                      const char *rev, const char *blobs, const char *format,
                      const report_fail *fail, const sarif_write_opts *so)
{
    git_repository *repo = NULL;
    size_t bad, badfns;
    int rc = 0, i;

    if (repo_path && git_repository_open_ext(&repo, repo_path,
                                             GIT_REPOSITORY_OPEN_NO_SEARCH, NULL) < 0) {
        /* bad input (exit 2), as gate's: 1 is what --fail-on answers */
        rc = pd_error_set(PD_EINVAL, "cannot open repository %s: %s", repo_path,
                          git_error_last() ? git_error_last()->message : "?");
    } else if (blobs) {
        rc = cli_an_blobs(a->r, repo, blobs);
        git_repository_free(repo);
        return rc < 0 ? (fprintf(stderr, "portdash analyze: %s\n", pd_error_last()),
                         CLI_FAIL) : CLI_OK;
    } else if (repo) {
        a->repo = repo;
        a->gitdir = repo_path;
        rc = cli_an_rev(a, repo, rev);
        /* A mistyped --path would otherwise report a clean, empty port
         * (at --since REV the files may well not exist yet). */
        if (rc == 0 && !cli_walk_selected) {
            char hint[600];

            pathfilter_hint(&a->pf, hint, sizeof(hint));
            rc = pd_error_set(PD_EINVAL, "no file of '%s' is selected by the path filter "
                              "(--path)%s", rev, hint);
        }
        if (rc == 0 && so->since)
            rc = cli_an_since(a, repo, so->since);
    }
    if (!rc && argc && (rc = cli_an_start(a)) == 0) {
        for (i = 0; !rc && i < argc; i++)
            rc = cli_an_path(a, argv[i]);
        rc = cli_an_stop(a, rc);
    }
    /* The call graph changes object states and their evidence, which
     * `--format functions` does not print: without --fail-on nothing reads
     * them there (issue 26: a tenth of that run). */
    if (!rc && (strcmp(format, "functions") || fail))
        rc = cli_an_graph(a);
    if (!rc && strcmp(format, "sarif") == 0)
        rc = sarif_write_ex(stdout, a->files, a->n, a->r, fail, so);
    else if (!rc)
        rc = report_write(stdout, format, a->files, a->n, fail);
    /* Up to 64 KiB of output still sit in stdout's buffer (cli_analyze):
     * written here, not at exit, where a full disk would go unsaid. */
    if (rc >= 0 && (fflush(stdout) != 0 || ferror(stdout)))
        rc = pd_error_set(PD_EIO, "cannot write the report: %s", strerror(errno));
    /* Not called without one: a call would load libgit2 (pd_lazylib.h). */
    if (repo)
        git_repository_free(repo);
    if (rc < 0) {
        fprintf(stderr, "portdash analyze: %s\n", pd_error_last());
        return rc == PD_EINVAL ? CLI_USAGE : CLI_FAIL;
    }
    report_fail_count(fail, a->files, a->n, &bad, &badfns);
    if (bad || badfns) {
        fprintf(stderr, "portdash analyze: forbidden by --fail-on: %zu finding%s, "
                "%zu function%s in a forbidden object state\n", bad, bad == 1 ? "" : "s",
                badfns, badfns == 1 ? "" : "s");
        return CLI_FAIL;
    }
    return CLI_OK;
}


int cli_analyze(int argc, char **argv)
{
    const char **globs = calloc(argc, sizeof(char *));
    cli_an_args o = {0};
    const char *bad;
    cli_an a;
    rules *r = NULL;
    int rc = CLI_USAGE;

    pd_malloc_analyze();    /* before any big buffer */
    /* Written in 64 KiB blocks, not stdio's 4 KiB (a file's st_blksize):
     * numpy/core's functions are 740 KB, 180 writes.  A terminal keeps its
     * line buffering.  The buffer is given: glibc ignores the size of a
     * NULL one. */
    if (!isatty(STDOUT_FILENO))
        setvbuf(stdout, cli_an_outbuf, _IOFBF, sizeof(cli_an_outbuf));
    memset(&a, 0, sizeof(a));
    o.globs = globs;
    if (globs && (rc = cli_an_parse(argc, argv, &o)) >= 0)
        goto done;
    rc = CLI_USAGE;
    a.threads = o.threads;
    a.pf.include = globs;
    a.pf.ninclude = o.nglobs;
    if ((bad = !globs ? "out of memory" : cli_an_refused(&o, argc))) {
        fprintf(stderr, "portdash analyze: %s\n\n", bad);
        cli_analyze_usage(stderr);
        goto done;
    }
    /* the condition under which cli_an_run skips the call graph */
    a.nograph = strcmp(o.format, "functions") == 0 && !o.fail.classes && !o.fail.objstates;
    /* Only a repository needs libgit2: its initialisation loads the CA
     * certificates, a third of a file-only run's start-up (issue 26). */
    if (o.repo)
        git_libgit2_init();
    else
        cli_an_prefault_args(argv + optind, argc - optind, !a.nograph && a.threads == 1);
    if (a.nograph && a.threads == 1)
        pd_malloc_ahead_on();   /* not thread-safe */
    if ((o.rules_path ? rules_load(&r, o.rules_path) : rules_load_default(&r)) < 0) {
        fprintf(stderr, "portdash analyze: %s\n", pd_error_last());
        rc = CLI_FAIL;
    } else {
        a.r = r;
        a.want_fixes = strcmp(o.format, "sarif") == 0;
        o.so.note = stderr;
        rc = cli_an_run(&a, argv + optind, argc - optind, o.repo, o.rev, o.blobs, o.format,
                        o.fail.classes || o.fail.objstates ? &o.fail : NULL, &o.so);
    }
    if (o.repo)
        git_libgit2_shutdown();
done:
    cli_an_free(&a);
    rules_free(r);
    free(globs);
    return rc;
}
