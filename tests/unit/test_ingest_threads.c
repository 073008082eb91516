/*
 * test_ingest_threads.c: an ingest with analysis threads stores what a
 * one-thread ingest stores, with or without the chunk memo (an_memo), and
 * an ingest killed in the middle of its threads' work, run again, ends
 * with the content of an uninterrupted one.  The history comes from
 * tests/repo/make_long_repo.sh: hundreds of commits, so the threads start
 * (they do from INGEST_PARALLEL_MIN commits) and several batches commit.
 */
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <dirent.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>

#include "testutil.h"

#include "db.h"
#include "db_measures.h"
#include "ingest.h"

#define NCOMMITS 600

typedef struct {
    char *dir;
    char repo[4200];
    char db[4200];
} lfx;

static int lfx_setup(void **state)
{
    lfx *f = calloc(1, sizeof(*f));

    f->dir = tu_tmpdir();
    snprintf(f->repo, sizeof(f->repo), "%s/long.git", f->dir);
    snprintf(f->db, sizeof(f->db), "%s/one.db", f->dir);
    assert_int_equal(tu_sh("sh tests/repo/make_long_repo.sh %d '%s'", NCOMMITS, f->repo), 0);
    *state = f;
    return 0;
}

static int lfx_teardown(void **state)
{
    lfx *f = *state;

    tu_sh("rm -rf '%s'", f->dir);
    free(f->dir);
    free(f);
    return 0;
}

static int g_no_memo;          /* run() without the chunk memo */
static int g_background;       /* run() in the background, ... */
static unsigned g_stall_ms;    /* ... its writer waiting this long */
static int (*g_interrupted)(void *); /* ingest_options.interrupted */

/* Ingest refs main and side of the long repository into `db`. */
static int run(const lfx *f, const char *db, unsigned threads, unsigned batch,
               void (*on_progress)(void *, const char *, size_t, size_t),
               ingest_stats *st)
{
    static const char *refs[] = {"main", "side"};
    ingest_options o = {0};

    o.no_memo = g_no_memo;
    o.background = g_background;
    o.stall_ms = g_stall_ms;
    o.db_path = db;
    o.repo_path = f->repo;
    o.name = "long";
    o.refs = refs;
    o.nrefs = 2;
    o.threads = threads;
    o.batch_commits = batch;
    o.on_progress = on_progress;
    o.interrupted = g_interrupted;
    return ingest_run(&o, st);
}

/* Every table that holds results, as text, rows in key order; the columns
 * that hold the time of the run (created_at, updated_at, detected_at) are
 * left out. */
static char *dump(const char *dbpath)
{
    static const char *const q[] = {
        "SELECT id, name, path, scope FROM repos ORDER BY id",
        "SELECT * FROM commits ORDER BY id",
        "SELECT repo_id, name, commit_id FROM refs ORDER BY repo_id, name",
        "SELECT * FROM paths ORDER BY id",
        "SELECT * FROM changes ORDER BY commit_id, path_id",
        NULL,     /* analyses, functions included: its measure columns from
                   * the table (below) */
        "SELECT * FROM commit_stats ORDER BY commit_id, rules_hash",
        "SELECT repo_id, ref, old_commit_id, new_commit_id FROM rewrites ORDER BY id",
        "SELECT * FROM analysis_noobject ORDER BY analysis_id",
        "SELECT * FROM meta ORDER BY key",
    };
    sqlite3 *db = NULL;
    size_t len = 0, cap = 1 << 16, i;
    char *out = calloc(cap, 1);

    char cols[1024], analyses[1536];

    assert_int_equal(db_measure_list(cols, sizeof(cols), DB_M_ANALYSES, ""), 0);
    snprintf(analyses, sizeof(analyses), "SELECT id, blob_oid, rules_hash, size, lines, "
             "status, %s, ung_hpy, ung_capi, ung_npy_legacy, ung_bridge, notes, "
             "hex(findings), findings_len, hpy_types, hex(calls), calls_len, "
             "hex(fns), fns_len FROM analyses ORDER BY id", cols);
    assert_int_equal(db_open(&db, dbpath, 0), 0);
    for (i = 0; i < sizeof(q) / sizeof(q[0]); i++) {
        sqlite3_stmt *st = NULL;

        assert_int_equal(db_prepare(db, &st, q[i] ? q[i] : analyses), 0);
        while (sqlite3_step(st) == SQLITE_ROW) {
            int k, n = sqlite3_column_count(st);

            for (k = 0; k < n; k++) {
                const char *v = (const char *)sqlite3_column_text(st, k);
                size_t add = strlen(v ? v : "NULL") + 2;

                /* Doubling: a realloc per value copies the whole dump each
                 * time under ASan (megabytes, hundreds of thousands of
                 * values: the test took over ten minutes). */
                while (len + add + 1 > cap)
                    out = realloc(out, cap *= 2);
                assert_non_null(out);
                len += (size_t)snprintf(out + len, add + 1, "%s%c", v ? v : "NULL",
                                        k + 1 < n ? '|' : '\n');
            }
        }
        sqlite3_finalize(st);
    }
    db_close(db);
    return out;
}

static int64_t scalar(const char *dbpath, const char *sql)
{
    sqlite3 *db = NULL;
    sqlite3_stmt *st = NULL;
    int64_t v = -1;

    assert_int_equal(db_open(&db, dbpath, 0), 0);
    assert_int_equal(db_prepare(db, &st, sql), 0);
    if (sqlite3_step(st) == SQLITE_ROW)
        v = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    db_close(db);
    return v;
}

/* The reference is one thread without the chunk memo; one thread with
 * it, and several threads sharing it, store the same, with chunks reused
 * (each version of a file changes one function of several). */
static void test_any_thread_count_stores_the_same(void **state)
{
    lfx *f = *state;
    static const unsigned threads[] = {1, 2, 5};
    ingest_stats one, many;
    char *want, *got, path[4300];
    size_t i;

    g_no_memo = 1;
    assert_int_equal(run(f, f->db, 1, 0, NULL, &one), 0);
    g_no_memo = 0;
    want = dump(f->db);
    assert_int_equal(one.commits_new, NCOMMITS + 40);
    assert_true(one.blobs_analysed > 100);
    assert_int_equal(one.memo_hits, 0);
    assert_int_equal(scalar(f->db, "SELECT count(*) FROM commit_stats"), NCOMMITS + 40);
    for (i = 0; i < sizeof(threads) / sizeof(threads[0]); i++) {
        snprintf(path, sizeof(path), "%s/t%u.db", f->dir, threads[i]);
        assert_int_equal(run(f, path, threads[i], 0, NULL, &many), 0);
        assert_int_equal(many.blobs_analysed, one.blobs_analysed);
        assert_int_equal(many.bytes_analysed, one.bytes_analysed);
        assert_true(many.memo_hits > many.blobs_analysed);
        got = dump(path);
        assert_string_equal(got, want);
        free(got);
    }
    free(want);
}

/* Threads of this process (/proc/self/task entries). */
static int nthreads(void)
{
    DIR *d = opendir("/proc/self/task");
    struct dirent *e;
    int n = 0;

    while (d && (e = readdir(d)) != NULL)
        n += e->d_name[0] != '.';
    if (d)
        closedir(d);
    return n;
}

/* on_progress of the child: die hard after 256 commits, as a kill would,
 * while the planner and the three analysis threads run (else exit 3, which
 * the test reports). */
static void die_at_256(void *arg, const char *ref, size_t done, size_t total)
{
    if (done < 256)
        return;
    if (nthreads() < 1 + 1 + 3)
        _exit(3);
    raise(SIGKILL);
}

/* Ingest into `path` in a child that dies hard after 256 commits. */
static void ingest_killed(const lfx *f, const char *path)
{
    ingest_stats st;
    pid_t pid;
    int status = 0;

    pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        run(f, path, 3, 50, die_at_256, &st);
        _exit(0);
    }
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
}

/* Ingest into `path` again: `fresh` commits are new, and the database ends
 * as `want` (dump()); frees want. */
static void ingest_resumes_to(const lfx *f, const char *path, size_t fresh, char *want)
{
    ingest_stats st;
    char *got;

    assert_int_equal(run(f, path, 3, 50, NULL, &st), 0);
    assert_int_equal(st.commits_new, fresh);
    got = dump(path);
    assert_string_equal(got, want);
    free(got);
    free(want);
}

/* An ingest into a database that exists (a new one is built aside and
 * put in place at the end: the tests below). */
static void test_killed_parallel_ingest_resumes_to_the_same_content(void **state)
{
    lfx *f = *state;
    char path[4300], *want;
    ingest_stats st;
    sqlite3 *db = NULL;

    assert_int_equal(run(f, f->db, 1, 50, NULL, &st), 0);
    want = dump(f->db);
    snprintf(path, sizeof(path), "%s/killed.db", f->dir);
    assert_int_equal(db_open(&db, path, 1), 0);
    db_close(db);
    ingest_killed(f, path);
    /* The five batches of 50 finished before the kill are there, no more. */
    assert_int_equal(scalar(path, "SELECT count(*) FROM commit_stats"), 250);
    assert_int_equal(scalar(path, "SELECT count(*) FROM refs"), 0);
    ingest_resumes_to(f, path, NCOMMITS + 40 - 250, want);
}

/* on_progress: where the database is while a first ingest runs (after
 * 100 commits): PATH.new, and nothing at PATH. */
static const lfx *g_fx;
static int g_seen_aside = -1;

static void see_aside(void *arg, const char *ref, size_t done, size_t total)
{
    char p[4300], pn[4310];

    if (done < 100 || g_seen_aside >= 0)
        return;
    snprintf(p, sizeof(p), "%s/first.db", g_fx->dir);
    snprintf(pn, sizeof(pn), "%s.new", p);
    g_seen_aside = !tu_exists(p) && tu_exists(pn);
}

/* interrupted: after 256 commits, as SIGINT does in `portdash ingest`. */
static volatile int g_stop;

static void stop_at_256(void *arg, const char *ref, size_t done, size_t total)
{
    if (done >= 256)
        g_stop = 1;
}

static int stopped(void *arg)
{
    return g_stop;
}

/* A first ingest builds its database aside and puts it in place; stopped
 * in the middle (interrupted), it keeps its finished batches at PATH as
 * an ingest into an existing database does, and the next run goes on. */
static void test_first_ingest_aside_keeps_batches_when_stopped(void **state)
{
    lfx *f = *state;
    char path[4300], pn[4310], *want, *got;
    ingest_stats st;

    assert_int_equal(run(f, f->db, 1, 50, NULL, &st), 0);
    want = dump(f->db);
    snprintf(path, sizeof(path), "%s/first.db", f->dir);
    snprintf(pn, sizeof(pn), "%s.new", path);
    g_fx = f;
    assert_int_equal(run(f, path, 3, 50, see_aside, &st), 0);
    assert_int_equal(st.commits_kept, st.commits_new);
    assert_int_equal(g_seen_aside, 1);
    assert_false(tu_exists(pn));
    got = dump(path);
    assert_string_equal(got, want);
    free(got);
    assert_int_equal(tu_db_header(path, 18, 2), 0x0202);   /* in WAL mode */
    tu_sh("rm -f '%s' '%s'-wal '%s'-shm", path, path, path);

    g_interrupted = stopped;
    assert_true(run(f, path, 3, 50, stop_at_256, &st) < 0);
    g_interrupted = NULL;
    g_stop = 0;
    assert_true(tu_exists(path));
    assert_false(tu_exists(pn));
    assert_int_equal(scalar(path, "SELECT count(*) FROM commit_stats"), 250);
    /* what `portdash ingest` says it kept: the batches that ended */
    assert_int_equal(st.commits_kept, 250);
    assert_true(st.commits_new > st.commits_kept);
    ingest_resumes_to(f, path, NCOMMITS + 40 - 250, want);
}

/* A first ingest that fails otherwise than by a stop (a ref that does
 * not exist, after a whole ref's batches) keeps nothing, as a failed first
 * run always did: nothing at PATH, no PATH.new, and the message says so. */
static void test_failed_first_ingest_keeps_nothing(void **state)
{
    lfx *f = *state;
    static const char *refs[] = {"main", "no-such-ref"};
    char path[4300], pn[4310];
    ingest_options o = {0};

    snprintf(path, sizeof(path), "%s/failed.db", f->dir);
    snprintf(pn, sizeof(pn), "%s.new", path);
    o.db_path = path;
    o.repo_path = f->repo;
    o.name = "long";
    o.refs = refs;
    o.nrefs = 2;
    o.threads = 3;
    o.batch_commits = 50;
    assert_true(ingest_run(&o, NULL) < 0);
    assert_non_null(strstr(pd_error_last(), "no-such-ref"));
    assert_non_null(strstr(pd_error_last(), "a first ingest that fails keeps nothing"));
    assert_false(tu_exists(path));
    assert_false(tu_exists(pn));
}

/* A first ingest killed leaves PATH.new and nothing at PATH; the next
 * run removes it and ends with the content of an uninterrupted one. */
static void test_killed_first_ingest_starts_again(void **state)
{
    lfx *f = *state;
    char path[4300], pn[4310], *want;
    ingest_stats st;

    assert_int_equal(run(f, f->db, 1, 50, NULL, &st), 0);
    want = dump(f->db);
    snprintf(path, sizeof(path), "%s/killed.db", f->dir);
    snprintf(pn, sizeof(pn), "%s.new", path);
    ingest_killed(f, path);
    assert_false(tu_exists(path));
    assert_true(tu_exists(pn));
    ingest_resumes_to(f, path, NCOMMITS + 40, want);
    assert_false(tu_exists(pn));
}

/* A blob missing from the repository: the analysis thread's error reaches
 * the caller with the blob named, and the batches stored before it stay. */
/* A blob the clone lacks (issue 23.6) is recorded with its commit and path,
 * and the ingest goes on: every commit is stored, none fails. */
static void test_unreadable_blob_in_a_thread_is_recorded(void **state)
{
    lfx *f = *state;
    /* Commit 96 brings the first src/fK.c with content 96 (see the script). */
    char *blob = tu_sh_out("git --git-dir='%s' rev-parse main~%d:src/f5.c", f->repo,
                           NCOMMITS - 96);
    char sql[256];
    ingest_stats st;

    blob[strcspn(blob, "\n")] = '\0';
    /* Loose objects, so that one can be taken away. */
    assert_int_equal(tu_sh("cd '%s' && mkdir ../packs && mv objects/pack/* ../packs/ && "
                           "for p in ../packs/*.pack; do git unpack-objects -q < $p; done && "
                           "rm -f objects/%.2s/%s", f->repo, blob, blob + 2), 0);
    assert_int_equal(run(f, f->db, 3, 50, NULL, &st), 0);
    snprintf(sql, sizeof(sql), "SELECT count(*) FROM missing_objects m JOIN paths p "
             "ON p.id = m.path_id WHERE m.blob_oid = '%.40s' AND p.path = 'src/f5.c'", blob);
    assert_true(scalar(f->db, sql) >= 1);
    assert_int_equal(scalar(f->db, "SELECT count(*) FROM commit_stats"), NCOMMITS + 40);
    free(blob);
}

/* A thread of normal policy that keeps the test's one CPU busy, as a
 * server's reads would, for SPIN_SECONDS from `go`; then the rest of the
 * run has the CPU back. */
#define SPIN_SECONDS 2

typedef struct {
    atomic_int go, stop;
} spinner;

static void *spin(void *arg)
{
    spinner *s = arg;
    volatile unsigned long x = 0;
    time_t end = 0;

    while (!atomic_load(&s->stop) && (!end || time(NULL) < end)) {
        if (!end && atomic_load(&s->go))
            end = time(NULL) + SPIN_SECONDS;
        for (unsigned long i = 0; i < 200000; i++)
            x += i;
    }
    return NULL;
}

static spinner *g_spin;
static int g_idle_threads, g_other_threads;   /* seen by on_background */
static int g_writer_policy, g_writer_nice;    /* the writer's, seen there */
static int g_own_nice;                        /* the test's before the run */

/* on_progress of a background run (the writer's thread): the planner's and
 * the analysis threads' policies; the spinner runs (it started before). */
static void on_background(void *arg, const char *ref, size_t done, size_t total)
{
    DIR *d = opendir("/proc/self/task");
    struct dirent *e;

    while (d && (e = readdir(d)) != NULL) {
        char path[300], comm[32] = "";
        FILE *fp;

        snprintf(path, sizeof(path), "/proc/self/task/%s/comm", e->d_name);
        if (e->d_name[0] == '.' || !(fp = fopen(path, "r")))
            continue;
        if (fgets(comm, sizeof(comm), fp) &&
            (strncmp(comm, "pd-analyse", 10) == 0 || strncmp(comm, "pd-plan", 7) == 0)) {
            if (sched_getscheduler(atoi(e->d_name)) == SCHED_IDLE)
                g_idle_threads++;
            else
                g_other_threads++;
        }
        fclose(fp);
    }
    if (d)
        closedir(d);
    /* PRIO_PROCESS 0: the calling thread's own value (Linux keeps one per
     * thread), here the writer's */
    g_writer_policy = sched_getscheduler(0);
    g_writer_nice = getpriority(PRIO_PROCESS, 0);
    atomic_store(&g_spin->go, 1);
}

/* One background ingest into `path` on a single CPU that a thread of
 * normal policy keeps busy (the writer, its threads, which inherit the
 * affinity, and the spinner share it); st: its counts. */
static void background_run(const lfx *f, const char *path, ingest_stats *st)
{
    cpu_set_t one, saved;
    spinner sp = {0};
    pthread_t th;
    int cpu;

    assert_int_equal(sched_getaffinity(0, sizeof(saved), &saved), 0);
    for (cpu = 0; !CPU_ISSET(cpu, &saved); cpu++)
        ;
    CPU_ZERO(&one);
    CPU_SET(cpu, &one);
    assert_int_equal(sched_setaffinity(0, sizeof(one), &one), 0);
    g_spin = &sp;
    g_idle_threads = g_other_threads = 0;
    /* Busy from the start: threads that got the CPU before the first
     * progress call could analyse every blob ahead of the writer, which
     * then never waits (seen once the writer stored functions as one
     * text per analysis and caught up faster). */
    atomic_store(&sp.go, 1);
    assert_int_equal(pthread_create(&th, NULL, spin, &sp), 0);
    g_background = 1;
    g_stall_ms = 1;
    g_own_nice = getpriority(PRIO_PROCESS, 0);
    assert_int_equal(run(f, path, 2, 0, on_background, st), 0);
    g_background = 0;
    g_stall_ms = 0;
    atomic_store(&sp.stop, 1);
    pthread_join(th, NULL);
    assert_int_equal(sched_setaffinity(0, sizeof(saved), &saved), 0);
}

/* A background ingest on a busy CPU: its planner and analysis threads run
 * at SCHED_IDLE, so they starve; the writer, which holds the write lock,
 * does not wait for them but plans commits and analyses blobs itself, and
 * stores what an ingest with the CPU to itself stores.
 *
 * Which waits it gives up depends on the scheduler: a planner starved from
 * the first commit hands out no analysis at all, so the writer only ever
 * plans (seen on a fresh machine: 335 plans, no blob, in one run of three).
 * Every run must give up some wait and store the same; both kinds must be
 * seen within a few runs. */
#define BACKGROUND_RUNS 5

static void test_background_ingest_gives_way_and_stores_the_same(void **state)
{
    lfx *f = *state;
    char path[4300], *want, *got;
    uint64_t plans = 0, blobs = 0;
    ingest_stats st;
    int i;

    assert_int_equal(run(f, f->db, 2, 0, NULL, &st), 0);
    assert_int_equal(st.stalled_plans + st.stalled_blobs, 0);
    want = dump(f->db);
    for (i = 0; i < BACKGROUND_RUNS && !(plans && blobs); i++) {
        snprintf(path, sizeof(path), "%s/background-%d.db", f->dir, i);
        background_run(f, path, &st);
        /* Both refs start the threads: a planner and two analysis threads. */
        assert_true(g_idle_threads >= 3);
        assert_int_equal(g_other_threads, 0);
        /* The writer holds the write lock that uploads and other writers
         * wait for: it keeps the normal policy and the process's nice
         * (lowered, it would hold the lock the longer, doc/guide.md). */
        assert_int_equal(g_writer_policy, SCHED_OTHER);
        assert_int_equal(g_writer_nice, g_own_nice);
        assert_true(st.stalled_plans + st.stalled_blobs > 0);
        plans += st.stalled_plans;
        blobs += st.stalled_blobs;
        got = dump(path);
        assert_string_equal(got, want);
        free(got);
    }
    assert_true(plans > 0);
    assert_true(blobs > 0);
    free(want);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_any_thread_count_stores_the_same,
                                        lfx_setup, lfx_teardown),
        cmocka_unit_test_setup_teardown(test_killed_parallel_ingest_resumes_to_the_same_content,
                                        lfx_setup, lfx_teardown),
        cmocka_unit_test_setup_teardown(test_first_ingest_aside_keeps_batches_when_stopped,
                                        lfx_setup, lfx_teardown),
        cmocka_unit_test_setup_teardown(test_failed_first_ingest_keeps_nothing,
                                        lfx_setup, lfx_teardown),
        cmocka_unit_test_setup_teardown(test_killed_first_ingest_starts_again,
                                        lfx_setup, lfx_teardown),
        cmocka_unit_test_setup_teardown(test_unreadable_blob_in_a_thread_is_recorded,
                                        lfx_setup, lfx_teardown),
        cmocka_unit_test_setup_teardown(test_background_ingest_gives_way_and_stores_the_same,
                                        lfx_setup, lfx_teardown),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
